#!/usr/bin/env python3
"""Times `dinner play` with crossout against a fixed strategy on two builds of the CLI,
alternating runs so that both see the same machine, and checks that both print the same
document.

Usage: benches/mixed_profiles.py OLD_BIN NEW_BIN [--n 1000000] [--widths 0,30,300]
           [--opponents masochistic,cooperative] [--orders alternate,thue-morse] [--runs 1]

A width `w` makes a nearly alike dinner: B values a morsel as A does give or take `w` of
A's steps, so B's rank of a morsel lies within about `w` of A's; `random` makes
independent utilities. Utilities are below 10^9, generated here with a fixed seed.
Prints one line a case: the median wall time of each build and their ratio.
"""

import argparse
import hashlib
import os
import random
import statistics
import subprocess
import tempfile
import time


def dinner(path, n, width, seed=5):
    rng = random.Random(seed)
    step = 10**9 // n
    with open(path, "w") as f:
        for _ in range(n):
            a = rng.randrange(10**9)
            if width == "random":
                b = rng.randrange(10**9)
            else:
                b = a + (rng.randrange(int(width) * step) if int(width) else 0)
            f.write(f"{a},{b}\n")


def run(binary, args):
    start = time.perf_counter()
    out = subprocess.run([binary, *args], check=True, capture_output=True).stdout
    return time.perf_counter() - start, hashlib.md5(out).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--widths", default="0,30,300,random")
    ap.add_argument("--opponents", default="masochistic,cooperative")
    ap.add_argument("--orders", default="alternate,thue-morse")
    ap.add_argument("--runs", type=int, default=1)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for width in opts.widths.split(","):
            path = os.path.join(tmp, f"w{width}.csv")
            dinner(path, opts.n, width)
            for order in opts.orders.split(","):
                for opponent in opts.opponents.split(","):
                    args = ["dinner", "play", path, "--strategies",
                            f"crossout,{opponent}", "--order", order, "--json"]
                    times = {"old": [], "new": []}
                    digests = set()
                    for _ in range(opts.runs):
                        for name in ("old", "new"):
                            seconds, digest = run(getattr(opts, name), args)
                            times[name].append(seconds)
                            digests.add(digest)
                    old, new = (statistics.median(times[k]) for k in ("old", "new"))
                    same = "same output" if len(digests) == 1 else "OUTPUTS DIFFER"
                    print(f"n={opts.n} w={width} {order} crossout vs {opponent}: "
                          f"old {old:.2f} s, new {new:.2f} s, ratio {old / new:.2f} ({same})",
                          flush=True)


if __name__ == "__main__":
    main()
