"""Sweeps past one machine: a sweep command cut into shards run as Dask tasks.

Every sweep command of lastbite (``subtraction.conjecture``, ``subtraction.scan``,
``dinner.experiment``, ``dinner.balance``, ``dinner.pareto`` with a size) is defined in the
library as a deterministic list of independent items; shard ``i`` of ``N`` holds the items
``i - 1, i - 1 + N, ...`` and the library merges the shards' documents into the report
the unsharded command gives, byte for byte, whatever the shard count and the order in
which shards finish. This module only schedules: each shard is one Dask task calling the
library, and each finished shard is stored in ``store`` (atomically), so a rerun skips
it.

>>> import lastbite.sweeps
>>> r = lastbite.sweeps.run("subtraction.conjecture",
...                         {"conjecture": 11, "sizes": [2], "max": 12},
...                         client=lastbite.sweeps.InProcess(), progress=False)
>>> r["verdict"]
'holds'
"""

import hashlib
import json
import os
import sys

from . import _lastbite
from ._api import Error, _from_report, _schema, _to_request

#: Shards per sweep when none is asked for: enough to balance a few dozen workers and
#: to lose little work to a killed client, few enough that per-shard costs stay small.
DEFAULT_SHARDS = 64


class SweepError(Error):
    """Some shards failed: ``failures`` maps each failed shard's number (from 1) to its
    error. The other shards finished (and were stored)."""

    def __init__(self, command, count, failures):
        self.failures = dict(sorted(failures.items()))
        shown = "; ".join(f"shard {i}/{count}: {m}" for i, m in list(self.failures.items())[:5])
        more = f" (and {len(failures) - 5} more)" if len(failures) > 5 else ""
        super().__init__(f"{command}: {len(failures)} of {count} shards failed: {shown}{more}")


def commands():
    """The sweep commands, as ``run`` names them (``family.command``)."""
    return [c.replace("-", ".", 1) for c in _lastbite.sweeps()]


def _name(command):
    # `dinner.strategic_fairness`, as the Python function is spelled, is the command too.
    name = command.replace(".", "-", 1).replace("_", "-")
    if name not in _lastbite.sweeps():
        raise Error(f"{command!r} is not a sweep command (one of {', '.join(commands())})")
    return name


def _request_json(name, request):
    """The request as the library's JSON: known fields converted as the command
    functions convert them, the others passed on for the library to judge."""
    schema = _schema(f"{name}.request")
    props = schema.get("properties", {})
    body = {k: (_to_request(v, props[k], schema) if k in props else v) for k, v in request.items()}
    return json.dumps(body, sort_keys=True)


def _run_shard(name, request, index, count):
    """One shard, on a worker: the library's shard document (JSON text).

    Dask owns the parallelism: like the numeric libraries Dask's nanny limits to one
    thread (OMP_NUM_THREADS=1), the library's thread pool gets one thread per task
    unless the worker's environment sets RAYON_NUM_THREADS (two processes of two threads
    each on two cores were 15-20% slower than two of one)."""
    try:
        from distributed import get_worker

        get_worker()  # only on a Dask worker: InProcess runs in the caller's process
        os.environ.setdefault("RAYON_NUM_THREADS", "1")
    except (ImportError, ValueError):
        pass
    from lastbite import _lastbite as lib

    return lib.sweep_shard(name, request, index, count)


class _Store:
    """A directory of one sweep's finished shards: ``sweep.json`` names the sweep (a rerun
    with another request or shard count is refused), ``shard-I-of-N.json`` each shard."""

    def __init__(self, path, manifest):
        self.path = path
        os.makedirs(path, exist_ok=True)
        mpath = os.path.join(path, "sweep.json")
        if os.path.exists(mpath):
            with open(mpath, encoding="utf-8") as f:
                old = json.load(f)
            if old != manifest:
                raise Error(
                    f"store {path} holds another sweep ({old.get('command')} with "
                    f"{old.get('shards')} shards on another request); use a new directory"
                )
        else:
            _lastbite.write_file(mpath, json.dumps(manifest, sort_keys=True))
        self.count = manifest["shards"]

    def file(self, index):
        return os.path.join(self.path, f"shard-{index:05d}-of-{self.count:05d}.json")

    def load(self):
        done = {}
        for i in range(1, self.count + 1):
            try:
                with open(self.file(i), encoding="utf-8") as f:
                    text = f.read()
            except FileNotFoundError:
                continue
            # A shard changed or damaged since it was written is never used.
            problem = _lastbite.shard_problem(text)
            if problem is not None:
                raise Error(f"cannot use {self.file(i)}: {problem}; delete it to run that shard again")
            done[i] = text
        return done

    def save(self, index, doc):
        _lastbite.write_file(self.file(index), doc)


class InProcess:
    """A stand-in for a Dask client that runs each shard in this process, one after
    another (for small sweeps, doctests, and machines without Dask). A shard runs when
    its result is asked for, so each is stored before the next starts: a killed run
    loses at most the shard in flight."""

    def map(self, f, *args, **_):
        return [_Lazy(f, a) for a in zip(*args)]


class _Lazy:
    def __init__(self, f, args):
        self._f, self._args = f, args

    def result(self):
        # Errors propagate as a Dask future's would.
        return self._f(*self._args)


def _completed(client, futures):
    if isinstance(client, InProcess):
        return iter(futures)
    from distributed import as_completed

    return as_completed(futures)


def _local_client():
    """A LocalCluster of one single-threaded worker process per core (each shard runs
    the library's own threads, so one per core is enough)."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
    )
    return Client(cluster), cluster


def run(command, request, client=None, store=None, progress=True, shards=None, as_json=False):
    """Runs sweep ``command`` (``"subtraction.conjecture"``, ...; see ``commands()``) on
    ``request`` (its fields, as for ``lastbite.<family>.<command>``) in shards on Dask, and
    returns the same report as the unsharded command.

    ``client`` is a ``distributed.Client`` (``Client("tcp://scheduler:8786")``, a
    dask-jobqueue cluster's client, ...); without one a ``LocalCluster`` is started for the
    call and closed after it. ``store`` is a directory where each finished shard is
    written atomically: rerunning the same call skips the stored shards, so a killed client
    loses only the shards in flight. ``shards`` is the shard count (default: 64, or one per
    item for smaller sweeps). ``progress`` prints finished shards on stderr. With
    ``as_json`` the report is returned as the CLI's ``--json`` document (text) as it writes
    it to a file or a pipe, byte for byte.

    A worker that dies mid-task has its shard rerun by Dask. A shard that raises does not
    stop the others; once they finish, ``SweepError`` names every failed shard.
    """
    name = _name(command)
    req = _request_json(name, request)
    items = _lastbite.sweep_items(name, req)
    count = int(shards) if shards is not None else max(1, min(items, DEFAULT_SHARDS))
    if count < 1:
        raise Error(f"shards: {count} is not a shard count (at least 1)")
    st = None
    done = {}
    if store is not None:
        manifest = {"command": name, "request": json.loads(req), "shards": count, "items": items}
        st = _Store(os.fspath(store), manifest)
        done = st.load()
    todo = [i for i in range(1, count + 1) if i not in done]
    if progress:
        print(f"{command}: {items} items in {count} shards, {len(done)} already stored",
              file=sys.stderr)
    own = None
    try:
        if todo:
            if client is None:
                own = _local_client()
                client = own[0]
            digest = hashlib.sha1(f"{name} {req} {count}".encode()).hexdigest()[:12]
            futures = client.map(
                _run_shard,
                [name] * len(todo),
                [req] * len(todo),
                todo,
                [count] * len(todo),
                key=[f"lastbite-{name}-{digest}-{i}-of-{count}" for i in todo],
                pure=False,
            )
            shard_of = {id(f): i for f, i in zip(futures, todo)}
            failures = {}
            for fut in _completed(client, futures):
                i = shard_of[id(fut)]
                try:
                    doc = fut.result()
                except Exception as e:  # noqa: BLE001 - reported with its shard
                    failures[i] = f"{type(e).__name__}: {e}".replace("\n", " ")
                    continue
                done[i] = doc
                if st is not None:
                    st.save(i, doc)
                if progress:
                    print(f"\r{command}: {len(done)}/{count} shards", end="", file=sys.stderr)
            if progress:
                print(file=sys.stderr)
            if failures:
                raise SweepError(command, count, failures)
    finally:
        if own is not None:
            own[0].close()
            own[1].close()
    _, report, _document = _lastbite.sweep_merge([done[i] for i in sorted(done)])
    if as_json:
        # The CLI's --json as it writes it to a file or pipe: one compact line.
        return report + "\n"
    schema = _schema(f"{name}.report")
    return _from_report(json.loads(report), schema, schema)
