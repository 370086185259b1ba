"""lastbite.openspiel.solve against OpenSpiel's own exact searches, on the same machine
in the same run: `minimax.expectiminimax` (values every subgame, no transpositions) and
`minimax.alpha_beta_search` (prunes, no transpositions), on each game with both root
values compared; plus the adapter's cost per state against the pyspiel calls it must
make, and a Python game with chance against its deterministic twin.

    python benches/openspiel.py [--limit SECONDS] [--games NAME ...]

A search still running after --limit seconds (default 120) is stopped and reported as
over the limit. Prints a Markdown table (docs/performance.md keeps the figures).
"""

import argparse
import multiprocessing as mp
import sys
import time
from fractions import Fraction

import pyspiel
from open_spiel.python.algorithms import minimax

import lastbite
import lastbite.openspiel as lo

GAMES = [
    "tic_tac_toe",
    "nim",
    "dots_and_boxes(num_rows=2,num_cols=2)",
    "clobber(rows=3,columns=4)",
    "pig(winscore=10,horizon=20)",
    "catch",
    "breakthrough(rows=4,columns=3)",
    "mnk(m=3,n=4,k=3)",
]


def _run(which, name, out):
    game = pyspiel.load_game(name)
    t = time.perf_counter()
    if which == "expectiminimax":
        v, _ = minimax.expectiminimax(game.new_initial_state(), 10**6, None, 0)
    else:
        v, _ = minimax.alpha_beta_search(game, maximum_depth=10**6, maximizing_player_id=0)
    out.put((v, time.perf_counter() - t))


def timed(which, name, limit):
    """(root value for player 0, seconds), or (None, None) past the limit."""
    q = mp.Queue()
    p = mp.Process(target=_run, args=(which, name, q))
    p.start()
    p.join(limit)
    if p.is_alive():
        p.terminate()
        p.join()
        return None, None
    return q.get()


def adapter_cost(name):
    """Seconds per state of the solve, and of the pyspiel calls alone over the same states
    (child, the key, legal_actions, is_terminal/is_chance_node/current_player, returns)."""
    game = pyspiel.load_game(name)
    t = time.perf_counter()
    sol = lo.solve(game)
    solve_s = time.perf_counter() - t
    key = lo.state_key(game)
    t = time.perf_counter()
    seen = {}
    stack = [game.new_initial_state()]
    seen[key(stack[0])] = True
    while stack:
        s = stack.pop()
        if s.is_terminal():
            s.returns()
            continue
        s.is_chance_node()
        s.current_player()
        actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        for a in actions:
            c = s.child(a)
            k = key(c)
            if k not in seen:
                seen[k] = True
                stack.append(c)
    calls_s = time.perf_counter() - t
    return sol.state_count, solve_s, calls_s


class Race:
    """Two dice races to 40: each turn the mover rolls a die (chance) or, in the twin,
    picks the face (deterministic); states (scores, mover, stage)."""

    players = 2

    def __init__(self, chance, target=40):
        self.chance = chance
        self.target = target

    def root(self):
        return (0, 0, 0, 0)

    def to_move(self, s):
        a, b, p, stage = s
        if a >= self.target or b >= self.target:
            return None
        if stage == 1:
            return lastbite.CHANCE if self.chance else p
        return p

    FACES = list(range(1, 7))
    CHOICES = ["roll", "bank"]

    def moves(self, s):
        return self.FACES if s[3] == 1 else self.CHOICES

    DIE = [(f, Fraction(1, 6)) for f in range(1, 7)]

    def chance_outcomes(self, s):
        return self.DIE

    def play(self, s, m):
        a, b, p, stage = s
        if stage == 1:
            return (a + m, b, 1, 0) if p == 0 else (a, b + m, 0, 0)
        if m == "bank":
            return (a + 1, b, 1, 0) if p == 0 else (a, b + 1, 0, 0)
        return (a, b, p, 1)

    def terminal_payoffs(self, s):
        return (1, 0) if s[0] >= self.target else (0, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=120)
    ap.add_argument("--games", nargs="*", default=GAMES)
    ap.add_argument("--races", nargs="*", type=int, default=[12, 20, 40], help="targets of the dice races")
    ap.add_argument("--only-races", action="store_true", help="measure the dice races only")
    args = ap.parse_args()
    if args.only_races:
        races(args.races)
        return
    print("| game | states (lastbite) | lastbite | expectiminimax | alpha-beta | value |")
    print("|---|---:|---:|---:|---:|---|")
    for name in args.games:
        game = pyspiel.load_game(name)
        t = time.perf_counter()
        sol = lo.solve(game)
        ours = time.perf_counter() - t
        zero_sum_two = game.num_players() == 2
        cells = []
        for which in ("expectiminimax", "alpha-beta"):
            if which == "alpha-beta" and game.get_type().chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
                cells.append("(no chance)")
                continue
            if not zero_sum_two and which == "alpha-beta":
                cells.append("(2 players)")
                continue
            v, s = timed(which, name, args.limit)
            if s is None:
                cells.append(f"> {args.limit:.0f} s")
            else:
                agree = abs(float(sol.value()[0]) - v) < 1e-9
                cells.append(f"{s:.3f} s ({s / ours:.0f}x){'' if agree else ' DISAGREES'}")
        print(f"| `{name}` | {sol.state_count} | {ours:.3f} s | {cells[0]} | {cells[1]} | {sol.value()} |")
        sys.stdout.flush()
    print()
    print("| game | states | solve per state | pyspiel calls per state | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name in ("tic_tac_toe", "clobber(rows=3,columns=4)", "pig(winscore=10,horizon=20)"):
        n, solve_s, calls_s = adapter_cost(name)
        print(f"| `{name}` | {n} | {solve_s / n * 1e6:.1f} us | {calls_s / n * 1e6:.1f} us | {solve_s / calls_s:.2f} |")
    print()
    races(args.races)


def races(targets):
    """A Python game with chance against its deterministic twin, per state."""
    print("| Python game | states | seconds | per state |")
    print("|---|---:|---:|---:|")
    for target in targets:
        per = {}
        for chance in (False, True):
            best = None
            for _ in range(5):
                t = time.perf_counter()
                sol = lastbite.solve(Race(chance, target))
                s = time.perf_counter() - t
                best = s if best is None else min(best, s)
            per[chance] = best / sol.state_count
            label = f"race to {target} with a die (chance)" if chance else f"race to {target}, deterministic twin"
            print(f"| {label} | {sol.state_count} | {best:.4f} | {per[chance] * 1e6:.1f} us |")
        print(f"| race to {target}: chance / deterministic per state | | | {per[True] / per[False]:.2f} |")


if __name__ == "__main__":
    main()
