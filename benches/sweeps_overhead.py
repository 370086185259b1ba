"""The cost of running a sweep on Dask: `lastbite.sweeps.run` on a LocalCluster of 2
single-threaded worker processes against the CLI's own run of the same sweep on the same
machine (both use every core). Checks the two reports are byte-identical. (The wall
time on 1, 10 and 100 machines is predicted by benches/sweeps_scaling.sh.)

Usage: .venv/bin/python benches/sweeps_overhead.py [MAX] [SIZE] [STATEMENT]
       (default: Conjecture 4 on every set of size 4 up to 66; the README's figure is
       `60 5 4`, Conjecture 4 on every set of size 5 up to 60, about 95 s)
"""

import json
import os
import subprocess
import sys
import time

import lastbite.sweeps as sweeps
from lastbite import _lastbite
from distributed import Client, LocalCluster

LASTBITE = os.environ.get("LASTBITE_BIN", "target/release/lastbite")


def main():
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 66
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    statement = sys.argv[3] if len(sys.argv) > 3 else "4"
    args = [LASTBITE, "subtraction", "conjecture", statement, "--sizes", str(size),
            "--max", str(top), "--json"]
    t = time.perf_counter()
    cli = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    t_cli = time.perf_counter() - t
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                           dashboard_address=None)
    client = Client(cluster)
    request = {"statement": statement, "sizes": [size], "max": top}
    t = time.perf_counter()
    doc = sweeps.run("subtraction.conjecture", request, client=client, progress=False,
                     as_json=True)
    t_dask = time.perf_counter() - t
    client.close()
    cluster.close()
    assert doc == cli, "the Dask report differs from the CLI's"
    print(f"Conjecture {statement}, size {size} up to {top}: CLI {t_cli:.1f} s, "
          f"Dask LocalCluster (2 workers) {t_dask:.1f} s: overhead "
          f"{100 * (t_dask / t_cli - 1):+.1f}%; reports byte-identical")
    items = _lastbite.sweep_items("subtraction-conjecture", json.dumps(request))
    print(f"{items} rulesets; {len(json.loads(cli)['counterexamples'])} counterexamples")


if __name__ == "__main__":
    main()
