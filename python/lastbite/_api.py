"""Requests in, reports out: Python values to the library's JSON requests and its JSON
reports back to Python values, guided by the commands' JSON Schemas.

Exact numbers: a report's exact values (JSON integers or "a/b" strings in the schema's
``Exact`` type) become ``int`` or ``fractions.Fraction``; integers of any size stay
``int``. Inputs may be ``int``, ``Fraction``, ``decimal.Decimal``, decimal or fraction
strings, and ``float``, which is converted *exactly*: ``0.1`` is the binary double
3602879701896397/36028797018963968, not 1/10 (pass ``"0.1"`` or ``Fraction(1, 10)`` for a
tenth).
"""

import json
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from . import _lastbite

Error = _lastbite.Error


@lru_cache(maxsize=None)
def _schemas():
    return json.loads(_lastbite.schemas())


def _schema(name):
    return _schemas()[name]


def _resolve(schema, root):
    while isinstance(schema, dict) and "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        if name in ("Exact", "Rational", "Count"):
            return {"$exact": name}
        schema = root.get("$defs", {}).get(name, {})
    return schema if isinstance(schema, dict) else {}


def _branches(schema, root):
    """A schema and its anyOf/oneOf/allOf alternatives, resolved."""
    schema = _resolve(schema, root)
    out = [schema]
    for key in ("anyOf", "oneOf", "allOf"):
        for alt in schema.get(key, []):
            out.extend(_branches(alt, root))
    return out


def _is_exact(schema, root):
    return any(b.get("$exact") in ("Exact", "Rational") for b in _branches(schema, root))


def _types(schema, root):
    types = set()
    for b in _branches(schema, root):
        t = b.get("type")
        if isinstance(t, str):
            types.add(t)
        elif isinstance(t, list):
            types.update(t)
    return types


# Python refuses str() of an int over 4,300 digits (sys.set_int_max_str_digits, a
# process-wide setting): larger ones are written a block of 4,000 digits at a time.
_BLOCK = 10**4000


def _decimal(n):
    """An int's decimal digits, however many."""
    if -_BLOCK < n < _BLOCK:
        return str(n)
    sign, n, blocks = "-" if n < 0 else "", abs(n), []
    while n:
        n, r = divmod(n, _BLOCK)
        blocks.append(r)
    return sign + str(blocks[-1]) + "".join(str(b).zfill(4000) for b in reversed(blocks[:-1]))


def exact_text(x):
    """An exact number as the library reads it: an int, or a string like "7/3"."""
    if isinstance(x, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(x, int):
        # json.dumps writes an int by str(): a huge one goes as its digits' text.
        return x if -_BLOCK < x < _BLOCK else _decimal(x)
    if isinstance(x, float):
        if x != x or x in (float("inf"), float("-inf")):
            raise ValueError(f"{x!r} is not a number: give a finite one (int, Fraction, Decimal, float or a string)")
        x = Fraction(x)  # exact: every finite float is a binary fraction
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return exact_text(x.numerator)
        return f"{_decimal(x.numerator)}/{_decimal(x.denominator)}"
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise ValueError(f"Decimal({str(x)!r}) is not a number: give a finite one")
        return str(x)
    if isinstance(x, str):
        return x
    raise TypeError(f"{x!r} is not a number (use int, Fraction, Decimal, float or a string)")


def _to_request(value, schema, root):
    """A Python value as the JSON value the request field's schema wants."""
    if value is None:
        return None
    # NumPy arrays (and pandas frames and series): their rows as Python numbers.
    if hasattr(value, "to_numpy") and not isinstance(value, (str, bytes)):
        value = value.to_numpy()
    if hasattr(value, "ndim") and hasattr(value, "tolist"):
        value = value.tolist()
    if _is_exact(schema, root):
        return exact_text(value)
    types = _types(schema, root)
    if isinstance(value, (set, frozenset)):
        value = sorted(value)
    if isinstance(value, (list, tuple)):
        if "array" in types or not types:
            items = {}
            for b in _branches(schema, root):
                if "items" in b:
                    items = b["items"]
            return [_to_request(v, items, root) for v in value]
        if "string" in types:
            # A list given for a text field: the library's comma-separated form.
            return ",".join(str(_plain(v)) for v in value)
    if isinstance(value, dict):
        props = {}
        for b in _branches(schema, root):
            props.update(b.get("properties", {}))
        return {k: _to_request(v, props.get(k, {}), root) for k, v in value.items()}
    if "string" in types and "integer" not in types and "number" not in types:
        if isinstance(value, (Fraction, float, Decimal)) or (isinstance(value, int) and not isinstance(value, bool)):
            return str(_plain(value))
    if isinstance(value, (Fraction, float, Decimal)):
        return exact_text(value)
    return value


def _plain(v):
    if isinstance(v, (Fraction, float, Decimal)):
        return exact_text(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return _decimal(v)
    if isinstance(v, (list, tuple)):
        return ",".join(str(_plain(x)) for x in v)
    return v


def _from_report(value, schema, root):
    """A JSON report value as Python: exact values as int or Fraction."""
    if value is None:
        return None
    if _is_exact(schema, root):
        if isinstance(value, str):
            x = Fraction(value)
            return x.numerator if x.denominator == 1 else x
        return value
    if isinstance(value, list):
        items = None
        prefix = None
        for b in _branches(schema, root):
            items = b.get("items", items)
            prefix = b.get("prefixItems", prefix)
        out = []
        for i, v in enumerate(value):
            s = prefix[i] if prefix and i < len(prefix) else (items if isinstance(items, dict) else {})
            out.append(_from_report(v, s, root))
        return out
    if isinstance(value, dict):
        props = {}
        extra = {}
        for b in _branches(schema, root):
            for k, s in b.get("properties", {}).items():
                # Several alternatives may name a field: keep the exact one if any.
                if k not in props or _is_exact(s, root):
                    props[k] = s
            if isinstance(b.get("additionalProperties"), dict):
                extra = b["additionalProperties"]
        return {k: _from_report(v, props.get(k, extra), root) for k, v in value.items()}
    return value


class Ragged:
    """Lists of integers of different lengths (a table's list-valued field with
    ``as_numpy=True``) as two ``int64`` arrays in CSR form: row ``i`` is
    ``values[offsets[i]:offsets[i + 1]]``.

    >>> import numpy as np
    >>> r = Ragged(np.array([4, 5, 9]), np.array([0, 0, 2, 3]))
    >>> len(r), r[1].tolist(), r.lengths().tolist()
    (3, [4, 5], [0, 2, 1])
    """

    __slots__ = ("values", "offsets")

    def __init__(self, values, offsets):
        self.values, self.offsets = values, offsets

    def __len__(self):
        return len(self.offsets) - 1

    def __getitem__(self, i):
        return self.values[self.offsets[i] : self.offsets[i + 1]]

    def lengths(self):
        """Each row's length."""
        import numpy

        return numpy.diff(self.offsets)

    def tolist(self):
        """The rows as Python lists."""
        return [self[i].tolist() for i in range(len(self))]

    def __repr__(self):
        return f"Ragged({len(self)} rows, {len(self.values)} values)"


def _numpy():
    try:
        import numpy
    except ImportError as e:
        raise ImportError("as_numpy=True needs NumPy (pip install numpy)") from e
    return numpy


def _fixed_width(schema, root):
    """The length every list of this field has, when the schema fixes it."""
    for b in _branches(schema, root):
        if b.get("minItems") is not None and b.get("minItems") == b.get("maxItems"):
            return b["minItems"]
    return None


def _objects(np, values):
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out


def _column(np, col, schema, root):
    """One column of a table (or a list of integers) as a NumPy array."""
    if col.kind == "int":
        return np.frombuffer(col.data, dtype=np.int64)
    if col.kind == "ragged":
        values = np.frombuffer(col.data, dtype=np.int64)
        offsets = np.frombuffer(col.offsets, dtype=np.int64)
        width = _fixed_width(schema, root)
        if width is not None and len(values) == width * (len(offsets) - 1):
            return values.reshape(len(offsets) - 1, width)
        return Ragged(values, offsets)
    return _objects(np, [_from_report(v, schema, root) for v in col.data])


def _properties(schema, root):
    props, extra = {}, {}
    for b in _branches(schema, root):
        props.update(b.get("properties", {}))
        if isinstance(b.get("additionalProperties"), dict):
            extra = b["additionalProperties"]
    return props, extra


def _table(np, columns, schema, root):
    props, extra = _properties(schema, root)
    out = {}
    for k, v in columns.items():
        s = props.get(k, extra)
        out[k] = _table(np, v, s, root) if isinstance(v, dict) else _column(np, v, s, root)
    return out


def _from_columns(np, value, schema, root):
    """A report from the extension's columns as Python: tables as dicts of arrays."""
    if isinstance(value, _lastbite.Table):
        items = {}
        for b in _branches(schema, root):
            items = b.get("items", items)
        return _table(np, value.columns, items, root)
    if isinstance(value, _lastbite.Column):
        return _column(np, value, schema, root)
    if isinstance(value, dict):
        props, extra = _properties(schema, root)
        return {k: _from_columns(np, v, props.get(k, extra), root) for k, v in value.items()}
    if isinstance(value, list):
        items = {}
        for b in _branches(schema, root):
            items = b.get("items", items)
        return [_from_columns(np, v, items if isinstance(items, dict) else {}, root) for v in value]
    return _from_report(value, schema, root)


def run(command, request, progress=False, as_numpy=False, format=None, estimate=False):
    """Runs `command` (e.g. "dinner-solve") on a request (a dict of Python values) and
    returns the report as Python values; with `as_numpy`, every list of records as a dict
    of NumPy arrays (one per field) and every list of integers as an array; with `format`
    ("latex", "latex-standalone", "svg", "tikz", "tikz-standalone", "text", "json"), the
    report written so, as a string; with `estimate`, only the cost model's estimate of
    the work (a dict: seconds, work, unit, max_seconds, admitted, text), nothing run."""
    req_schema = _schema(f"{command}.request")
    props = req_schema.get("properties", {})
    # Older spellings of a field (the schema's x-aliases) name the same field.
    aliases = {a: k for k, s in props.items() for a in s.get("x-aliases", [])}
    for old, new in aliases.items():
        if old in request:
            if new in request:
                raise TypeError(f"{command.replace('-', '.')}() got both {new} and its older spelling {old}")
            request = {(new if k == old else k): v for k, v in request.items()}
    unknown = sorted(set(request) - set(props))
    if unknown:
        raise TypeError(
            f"{command.replace('-', '.')}() got unexpected keyword argument(s) {', '.join(unknown)}; "
            f"it takes {', '.join(sorted(props))}"
        )
    body = {}
    for k, v in request.items():
        try:
            body[k] = _to_request(v, props[k], req_schema)
        except (ValueError, OverflowError, TypeError) as e:
            # A value Python cannot turn into the field's form: the library's kind of
            # error, naming the field, not Python's own.
            raise Error(f"{k}: {e}") from None
    if estimate:
        return json.loads(_lastbite.estimate(command, json.dumps(body)))
    if format is not None:
        if as_numpy:
            raise TypeError("give format or as_numpy, not both")
        return _lastbite.export(command, json.dumps(body), str(format), progress)
    rep_schema = _schema(f"{command}.report")
    if as_numpy:
        np = _numpy()
        tree = _lastbite.call_columns(command, json.dumps(body), progress)
        return _from_columns(np, tree, rep_schema, rep_schema)
    text = _lastbite.call(command, json.dumps(body), progress)
    report = _from_report(json.loads(text), rep_schema, rep_schema)
    if isinstance(report, dict):
        from .display import Report, Tree

        return (Tree if command.endswith(("-draw", "-tree")) else Report)(report, command)
    return report


def _summary(description):
    """A request's help as a function's summary: without the command's name in front
    (the CLI's help of the command says the same)."""
    text = " ".join(description.split())
    if text.startswith("`") and "`: " in text:
        text = text.split("`: ", 1)[1]
        text = text[:1].upper() + text[1:]
    return text


def _doc(name):
    """A docstring from the request schema: its summary, then every keyword argument."""
    req = _schema(f"{name}.request")
    summary = _summary(req.get("description", ""))
    lines = [summary, "", "Keyword arguments (the request's fields; all optional):", ""]
    for field, s in req.get("properties", {}).items():
        desc = " ".join(s.get("description", "").split())
        default = s.get("default")
        lines.append(f"    {field} (default {default!r}): {desc}")
    lines += [
        "    progress (default False): draw a progress bar on stderr for long phases.",
        "    estimate (default False): return the cost model's estimate of the work instead",
        "        (a dict: seconds of one core, work and its unit, max_seconds, admitted, text),",
        "        without running.",
        "    format (default None): return the report written as a string instead: 'latex' or",
        "        'latex-standalone' (its tables), 'svg', 'tikz' or 'tikz-standalone' (its picture),",
        "        'text' (the CLI's text) or 'json'.",
        "    as_numpy (default False): return every list of records (table rows, count cells)",
        "        as a dict of NumPy arrays, one per field (nested as the records are), and every",
        "        list of integers as an int64 array: no Python object per cell. A list-valued",
        "        field becomes a 2-D array when its length is fixed, else a lastbite.Ragged.",
        "",
        f"Returns the report: the same document as the CLI's --json "
        f"(schema docs/schema/{name}.report.json), exact numbers as int or Fraction.",
        "Raises lastbite.Error (a ValueError) with the library's one-line message.",
    ]
    return "\n".join(lines)


def _command(name):
    """The Python function of command `name`: keyword arguments are the request's fields."""

    def f(*, progress=False, as_numpy=False, format=None, estimate=False, **request):
        return run(name, request, progress, as_numpy, format, estimate)

    family, _, cmd = name.partition("-")
    f.__name__ = cmd or family
    f.__qualname__ = f.__name__
    f.__doc__ = _doc(name)
    return f
