"""The built-in families from Python against the CLI: `subtraction.table` to 10^6 heaps
with as_numpy=True, and `dinner.solve(method="exact")` at 22 morsels, each against the
same command run by the CLI (whole process, output to /dev/null; process start is a few
milliseconds). Interleaved, best of RUNS each.

Usage: .venv/bin/python benches/python_families.py [RUNS]   (after scripts/test)
"""

import os
import random
import subprocess
import sys
import time

import lastbite

LASTBITE = os.environ.get("LASTBITE_BIN", "target/release/lastbite")


def wall(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def cli(*args):
    subprocess.run([LASTBITE, *args], stdout=subprocess.DEVNULL, check=True)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    rng = random.Random(22)
    morsels = [(rng.randint(1, 99), rng.randint(1, 99)) for _ in range(22)]
    text = " ".join(f"{a},{b}" for a, b in morsels)
    cases = [
        ("subtraction.table, S = {4,5,9}, heaps to 10^6, as_numpy=True",
         lambda: lastbite.subtraction.table(set=[4, 5, 9], max_heap=10**6, as_numpy=True),
         lambda: cli("subtraction", "table", "--set", "4,5,9", "--max-heap", "1000000", "--json")),
        ("dinner.solve, 22 morsels, method exact",
         lambda: lastbite.dinner.solve(morsels=morsels, method="exact"),
         lambda: cli("dinner", "solve", "--morsels", text, "--method", "exact", "--json")),
    ]
    for name, py, sh in cases:
        best_py = best_cli = float("inf")
        for _ in range(runs):
            best_py = min(best_py, wall(py))
            best_cli = min(best_cli, wall(sh))
        print(f"{name}: Python {best_py:.3f} s, CLI --json {best_cli:.3f} s "
              f"(Python/CLI {best_py / best_cli:.2f})")


if __name__ == "__main__":
    main()
