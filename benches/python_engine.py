"""A game written in Python (the Ethiopian Dinner, 16 morsels, as a Python object) solved
by lastbite.solve against a plain functools.lru_cache backward induction over the same
object's callbacks (first-best tie rule for both); and the built-in families from Python
against the CLI's in-process time (the library call inside the CLI, without process
start), measured here as the time of the same call through the extension.

Usage: .venv/bin/python benches/python_engine.py [MORSELS]   (after scripts/test)
"""

import random
import sys
import time
from functools import lru_cache

sys.setrecursionlimit(10000)
import lastbite  # noqa: E402


class Dinner:
    players = 2

    def __init__(self, morsels, order):
        self.morsels, self.order = morsels, order

    def root(self):
        return (0, 0)

    def to_move(self, s):
        return None if s[1] == len(self.morsels) else self.order[s[1]]

    def moves(self, s):
        return [i for i in range(len(self.morsels)) if not s[0] >> i & 1]

    def play(self, s, i):
        return (s[0] | 1 << i, s[1] + 1)

    def move_payoffs(self, s, i):
        p = self.to_move(s)
        return (self.morsels[i][0], 0) if p == 0 else (0, self.morsels[i][1])


def lru_solve(game):
    @lru_cache(maxsize=None)
    def value(s):
        p = game.to_move(s)
        if p is None:
            return (0,) * game.players
        best = None
        for m in game.moves(s):
            child = value(game.play(s, m))
            v = tuple(a + b for a, b in zip(game.move_payoffs(s, m), child))
            if best is None or v[p] > best[p]:
                best = v
        return best

    return value(game.root())


def best_of(f, runs=3):
    """The least CPU time of `runs` calls (both contenders run on one thread; CPU time
    leaves out the time a shared virtual machine's CPU is taken by others), and the result."""
    times = []
    for _ in range(runs):
        t = time.process_time()
        r = f()
        times.append(time.process_time() - t)
    return min(times), r


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    rng = random.Random(1)
    morsels = [(rng.randint(1, 100), rng.randint(1, 100)) for _ in range(n)]
    game = Dinner(morsels, [i % 2 for i in range(n)])
    # Interleaved, best of 7 each: the machine's load varies over seconds.
    t_engine = t_lru = float("inf")
    for _ in range(7):
        t, sol = best_of(lambda: lastbite.solve(game), 1)
        t_engine = min(t_engine, t)
        t, v = best_of(lambda: lru_solve(game), 1)
        t_lru = min(t_lru, t)
    assert tuple(sol.value()) == v, (sol.value(), v)
    print(f"Python dinner, {n} morsels ({sol.states} states), CPU time: lastbite.solve {t_engine:.3f} s, "
          f"lru_cache backward induction {t_lru:.3f} s: {t_lru / t_engine:.2f}x")


if __name__ == "__main__":
    main()
