"""Reports and pictures in Jupyter: every report the package returns is a ``Report``, a
``dict`` (the CLI's --json document, usable as before) that a notebook shows as HTML
tables, with its picture inline; ``draw_tree`` gives a ``Tree`` that a notebook shows as
its SVG.

The HTML is written from the report's own values, every text escaped (``html.escape``):
a label from a user's file is text in the page, never markup. The one exception is a
picture the library drew (its ``svg`` field), shown as the picture it is.
"""

import html
import json
from fractions import Fraction

from . import _lastbite

#: Rows of a list of records shown before the rest is summarised.
MAX_ROWS = 50

_TABLE = 'style="border-collapse:collapse;margin:2px 0"'
_CELL = 'style="text-align:left;padding:1px 8px;border-bottom:1px solid #ddd;vertical-align:top"'


def _scalar(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    if v is None:
        return "\u2013"
    return str(v)


def _is_scalar(v):
    return not isinstance(v, (dict, list, tuple))


def _inline(v):
    """A short value on one line: scalars, and lists of scalars as (a, b, ...)."""
    if _is_scalar(v):
        return html.escape(_scalar(v))
    if isinstance(v, (list, tuple)) and all(_is_scalar(x) for x in v):
        shown = ", ".join(_scalar(x) for x in v[:MAX_ROWS])
        more = f", \u2026 {len(v) - MAX_ROWS} more" if len(v) > MAX_ROWS else ""
        return html.escape(f"({shown}{more})" if len(v) <= 12 else f"[{shown}{more}]")
    return None


def _records(rows):
    """A list of dicts as one table, columns from the first rows' keys."""
    cols = []
    for r in rows[:MAX_ROWS]:
        for k in r:
            if k not in cols:
                cols.append(k)
    head = "".join(f"<th {_CELL}>{html.escape(str(c))}</th>" for c in cols)
    body = []
    for r in rows[:MAX_ROWS]:
        cells = "".join(f"<td {_CELL}>{_value(r.get(c))}</td>" for c in cols)
        body.append(f"<tr>{cells}</tr>")
    if len(rows) > MAX_ROWS:
        body.append(f'<tr><td {_CELL} colspan="{len(cols)}">\u2026 {len(rows) - MAX_ROWS} more rows</td></tr>')
    return f"<table {_TABLE}><tr>{head}</tr>{''.join(body)}</table>"


def _value(v):
    short = _inline(v)
    if short is not None:
        return short
    if isinstance(v, dict):
        return _mapping(v)
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, dict) for x in v):
        return _records(list(v))
    items = "".join(f"<li>{_value(x)}</li>" for x in list(v)[:MAX_ROWS])
    more = f"<li>\u2026 {len(v) - MAX_ROWS} more</li>" if len(v) > MAX_ROWS else ""
    return f"<ul style=\"margin:0\">{items}{more}</ul>"


def _mapping(d, skip=("svg",)):
    rows = "".join(
        f"<tr><th {_CELL}>{html.escape(str(k))}</th><td {_CELL}>{_value(v)}</td></tr>"
        for k, v in d.items()
        if k not in skip
    )
    return f"<table {_TABLE}>{rows}</table>"


def _svg_of(value):
    svg = value.get("svg") if isinstance(value, dict) else None
    # Only a picture the library drew: its writers start every document this way.
    if isinstance(svg, str) and svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'):
        return svg
    return None


class Report(dict):
    """A command's report: the --json document as a ``dict``, shown in a notebook as
    HTML tables (and its picture, when it has one)."""

    __slots__ = ("command",)

    def __init__(self, value, command=""):
        super().__init__(value)
        self.command = command

    def _repr_html_(self):
        title = html.escape(self.command.replace("-", " "))
        svg = _svg_of(self)
        picture = f"<div>{svg}</div>" if svg else ""
        return f'<div class="lastbite-report"><b>{title}</b>{picture}{_mapping(self)}</div>'

    def _repr_svg_(self):
        return _svg_of(self)

    def tikz(self, standalone=False):
        """The report's picture as TikZ (``standalone``: a whole LaTeX document)."""
        svg = self.get("svg")
        if not isinstance(svg, str):
            raise ValueError("this report has no picture (ask for one: picture=True)")
        return _lastbite.tikz(svg, standalone)


def tikz(svg, standalone=False):
    """Any SVG picture lastbite drew, as a TikZ picture (``standalone``: a document
    pdflatex compiles on its own)."""
    return _lastbite.tikz(svg, standalone)


class Tree(Report):
    """A drawn game tree (``lastbite.draw_tree``): the tree report as a ``dict`` (every
    drawn node with its box and flags, ``svg``), shown in a notebook as the picture."""

    __slots__ = ()

    @property
    def svg(self):
        """The picture as an SVG document."""
        return self["svg"]

    def _repr_html_(self):
        return f'<div class="lastbite-tree">{self["svg"]}</div>'

    def save(self, path):
        """Writes the picture: ``.svg`` as SVG, ``.tex`` as a standalone TikZ document,
        ``.tikz`` as a TikZ picture for ``\\input``."""
        p = str(path)
        if p.endswith(".svg"):
            text = self["svg"]
        elif p.endswith(".tex"):
            text = self.tikz(standalone=True)
        elif p.endswith(".tikz"):
            text = self.tikz()
        else:
            raise ValueError(f"cannot tell the format of {p!r}: use .svg, .tex or .tikz")
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)


def draw_tree(game_or_solution, ties="first", *, horizontal=False, values=False, spe=False,
              draw_nodes=300, title=None, max_states=300_000_000):
    """Draws the game tree of a game written in Python (or of its ``Solution``, or of a
    solved OpenSpiel game) with its subgame perfect equilibrium: nodes by player (chance
    as a grey square, its moves with their probabilities), payoff vectors at the leaves,
    the equilibrium play thick, every other move the equilibrium plays blue, moves tied
    with them dashed; ``values`` writes each inner node's equilibrium value, ``spe``
    rings the leaves pure SPE reach and lists their payoffs. At most ``draw_nodes`` nodes
    are drawn, the equilibrium play first; every subtree past them is a triangle with the
    nodes and leaves it holds and its value.

    Returns a ``Tree`` (a dict: the same report as ``lastbite efg draw --json``), shown
    inline in a notebook; ``.svg``, ``.tikz()`` and ``.save(path)`` give the picture.

    >>> import lastbite
    >>> class Take:
    ...     players = 2
    ...     def root(self): return (3, 0)
    ...     def to_move(self, s): return None if s[0] == 0 else s[1]
    ...     def moves(self, s): return [k for k in (1, 2) if k <= s[0]]
    ...     def play(self, s, k): return (s[0] - k, 1 - s[1])
    ...     def terminal_payoffs(self, s): return (1, 0) if s[1] == 1 else (0, 1)
    >>> t = lastbite.draw_tree(Take(), spe=True)
    >>> t["drawn_nodes"], t["total_leaves"], t["path"]
    (7, 3, ['1', '2'])
    """
    from ._lastbite import Solution
    from ._lastbite import solve as _solve

    sol = getattr(game_or_solution, "_inner", game_or_solution)
    if not isinstance(sol, Solution):
        sol = _solve(game_or_solution, ties, False, max_states)
    if title is None:
        spiel = getattr(game_or_solution, "game", None)  # a solved OpenSpiel game
        if spiel is not None and hasattr(spiel, "get_type"):
            title = spiel.get_type().long_name
        else:
            title = getattr(game_or_solution, "title", None) or type(game_or_solution).__name__
    report = json.loads(sol.tree_json(horizontal, values, spe, draw_nodes, str(title), max_states))
    return Tree(report, "tree")
