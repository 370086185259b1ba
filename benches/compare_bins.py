#!/usr/bin/env python3
"""Times the same commands on two builds of the `lastbite` CLI, alternating runs so that
both see the same machine, and prints the median wall time of each and their ratio.

Usage: benches/compare_bins.py OLD_BIN NEW_BIN [--runs 5] [--only NAME]

The commands are the README's and docs' typical ones at user sizes (a dinner of 10^6
morsels by crossout, exact dinners of 24-26 morsels, sweeps, cookie tables, a 10^6-node
.efg game, reproduce). Inputs are generated into a scratch folder first, by NEW_BIN where
a command makes them (the .efg game) and by this script otherwise (the big dinner).
Output goes to /dev/null: this measures the computation and the writer, not a terminal.
"""

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def commands(tmp):
    big = os.path.join(tmp, "big.csv")
    efg = os.path.join(tmp, "big.efg")
    return [
        ("reproduce", ["reproduce"]),
        ("dinner crossout 10^6 --json", ["dinner", "solve", big, "--json"]),
        ("dinner exact 2x24", ["dinner", "solve", os.path.join(tmp, "d2x24.csv"), "--method", "exact"]),
        ("dinner exact 3x22", ["dinner", "solve", os.path.join(tmp, "d3x22.csv"), "--method", "exact"]),
        ("dinner multiplicity 3x12", ["dinner", "multiplicity", "--size", "12", "--trials", "100"]),
        ("subtraction conjecture 4 size 4 max 40", ["subtraction", "conjecture", "4", "--sizes", "4", "--max", "40"]),
        ("subtraction table 4,5,9 to 10^5", ["subtraction", "table", "--set", "4,5,9", "--max-heap", "100000", "--json"]),
        ("cookie general n=15", ["cookie", "general", "--max-n", "15", "--json"]),
        ("cookie nim n=26", ["cookie", "nim", "--max-n", "26", "--json"]),
        ("tokens 5 players", ["tokens", "--stacks", "14", "--players", "5", "--json"]),
        ("efg solve 10^6 nodes", ["efg", "solve", efg, "--json"]),
    ]


def prepare(tmp, new_bin):
    rng = random.Random(1)
    n = 10**6
    a = list(range(1, n + 1))
    b = list(range(1, n + 1))
    rng.shuffle(a)
    rng.shuffle(b)
    with open(os.path.join(tmp, "big.csv"), "w") as f:
        f.write("alice,bob\n")
        f.writelines(f"{x},{y}\n" for x, y in zip(a, b))
    for players, size in [(2, 24), (3, 22)]:
        with open(os.path.join(tmp, f"d{players}x{size}.csv"), "w") as f:
            for _ in range(size):
                f.write(",".join(str(rng.randint(1, 10**6)) for _ in range(players)) + "\n")
    subprocess.run(
        [new_bin, "efg", "random", "--nodes", "1000000", "--seed", "7", "-o", os.path.join(tmp, "big.efg")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def once(binary, args):
    t = time.perf_counter()
    r = subprocess.run([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"{binary} {' '.join(args)} failed: {r.stderr.decode()[:300]}")
    return dt


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    old, new = argv[0], argv[1]
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 5
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    with tempfile.TemporaryDirectory() as tmp:
        prepare(tmp, new)
        print(f"{'command':42} {'old (s)':>9} {'new (s)':>9} {'new/old':>8}")
        for name, args in commands(tmp):
            if only and only not in name:
                continue
            once(old, args)  # warm the page cache and the binary
            once(new, args)
            t_old, t_new = [], []
            for _ in range(runs):
                t_old.append(once(old, args))
                t_new.append(once(new, args))
            mo, mn = statistics.median(t_old), statistics.median(t_new)
            print(f"{name:42} {mo:9.3f} {mn:9.3f} {mn / mo:8.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
