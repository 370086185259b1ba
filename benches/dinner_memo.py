#!/usr/bin/env python3
"""Memoised Python searches for the Ethiopian Dinner SPE: the baselines for the speed
target "at least 100x faster than a straightforward memoised Python search at n = 16".

Two versions, both reported in the README:
  frozenset  the straightforward one: memoise on the set of remaining morsels;
  bitmask    a tuned one: memoise on an integer bitmask (what lastbite's table indexes).
Both compute the same (Alice, Bob) equilibrium scores with Bob moving last; ties go to
the first morsel, as in lastbite's index rule (utilities here are distinct anyway).

Usage: python3 benches/dinner_memo.py [n] [frozenset|bitmask|both]
"""
import random
import sys
import time
from functools import lru_cache

n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
style = sys.argv[2] if len(sys.argv) > 2 else "both"
rng = random.Random(11)
a = [rng.randrange(10**9) for _ in range(n)]
b = [rng.randrange(10**9) for _ in range(n)]


@lru_cache(maxsize=None)
def by_set(left):
    """(Alice, Bob) equilibrium payoffs with the morsels in frozenset `left` remaining."""
    if not left:
        return (0, 0)
    bob = len(left) % 2 == 1  # Bob moves last
    best = None
    for i in sorted(left):
        va, vb = by_set(left - {i})
        cand = (va, vb + b[i]) if bob else (va + a[i], vb)
        if best is None or (cand[1] > best[1] if bob else cand[0] > best[0]):
            best = cand
    return best


@lru_cache(maxsize=None)
def by_mask(left):
    """The same with the remaining morsels as a bitmask."""
    if left == 0:
        return (0, 0)
    bob = bin(left).count("1") % 2 == 1
    best = None
    for i in range(n):
        if left >> i & 1:
            va, vb = by_mask(left & ~(1 << i))
            cand = (va, vb + b[i]) if bob else (va + a[i], vb)
            if best is None or (cand[1] > best[1] if bob else cand[0] > best[0]):
                best = cand
    return best


for name, solve, root in (
    ("frozenset", by_set, frozenset(range(n))),
    ("bitmask", by_mask, (1 << n) - 1),
):
    if style in (name, "both"):
        start = time.perf_counter()
        scores = solve(root)
        print(f"{name}: n={n} scores={scores} seconds={time.perf_counter() - start:.3f}")
