#!/usr/bin/env python3
"""A plain Python implementation of Definition 2 (all four conventions and zero-sum), the
baseline for the speed target "at least 100x faster than a plain Python implementation
of Definition 2 on the same table".

Usage: python3 benches/subtraction_definition2.py [max_heap]   (prints seconds)
Same ruleset as lastbite/benches/subtraction.rs.
"""
import sys
import time

S = [17, 101, 233, 347, 499, 503, 641, 777, 911, 1000]
H = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
CONV = ["FvF", "FvA", "AvF", "AvA"]
DUAL = {"FvF": "FvF", "FvA": "AvF", "AvF": "FvA", "AvA": "AvA"}

start = time.perf_counter()
o = {x: [] for x in CONV}
zs = []
for h in range(H + 1):
    for x in CONV:
        d = o[DUAL[x]]
        options = [(s + d[h - s][1], d[h - s][0]) for s in S if s <= h]
        if not options:
            o[x].append((0, 0))
            continue
        best = max(v for v, _ in options)
        others = [w for v, w in options if v == best]
        other = min(others) if x.startswith("A") else max(others)
        o[x].append((best, other))
    zs.append(max((s - zs[h - s] for s in S if s <= h), default=0))
elapsed = time.perf_counter() - start
print(f"heaps 0..{H}: {elapsed:.2f} s ({elapsed / (H + 1) * 1e7:.0f} s per 10^7 heaps); FvF at {H}: {o['FvF'][H]}")
