"""A game of your own, written in Python and solved exactly by lastbite under each tie rule.

A picking sequence with an arbitrary payoff: two players take turns picking items from a
shelf (order A, B, B, A, A, B), each scoring her own value for what she picks, plus a
bonus of 3 to whoever ends up with both items of a matching pair. Many picks tie for the
picker, so the tie rules (friendly, antagonistic, first, last) give different equilibria.

Run: python examples/python/own_game.py
"""

from fractions import Fraction

import lastbite

ITEMS = ["apple", "pear", "fig", "plum", "kiwi", "lime"]
VALUES = {  # item -> (value to A, value to B)
    "apple": (3, 3), "pear": (3, 1), "fig": (Fraction(5, 2), 2),
    "plum": (1, 3), "kiwi": (2, 2), "lime": (1, Fraction(5, 2)),
}
PAIRS = [("apple", "pear"), ("plum", "lime")]
ORDER = [0, 1, 1, 0, 0, 1]


class Picking:
    players = ["A", "B"]

    def root(self):
        return (frozenset(), frozenset())  # what A holds, what B holds

    def to_move(self, state):
        taken = len(state[0]) + len(state[1])
        return ORDER[taken] if taken < len(ITEMS) else None

    def moves(self, state):
        return [i for i in ITEMS if i not in state[0] and i not in state[1]]

    def play(self, state, item):
        p = self.to_move(state)
        held = list(state)
        held[p] = held[p] | {item}
        return tuple(held)

    def move_payoffs(self, state, item):
        p = self.to_move(state)
        return tuple(VALUES[item][p] if q == p else 0 for q in range(2))

    def terminal_payoffs(self, state):
        return tuple(3 * sum(1 for a, b in PAIRS if a in held and b in held) for held in state)


def main():
    game = Picking()
    for rule in ["friendly", "antagonistic", "first", "last"]:
        sol = lastbite.solve(game, ties=rule)
        picks = [step["move"] for step in sol.path()]
        print(f"{rule:>12}: payoffs {tuple(str(x) for x in sol.value())}, picks {picks}")
    sol = lastbite.solve(game, all=True)
    print(f"all pure SPE payoff vectors: {[tuple(str(x) for x in v) for v in sol.outcomes]}")
    first = sol.explain()
    print("A's first pick:", ", ".join(f"{m['move']} -> {tuple(str(x) for x in m['payoffs'])}" for m in first["moves"]))


if __name__ == "__main__":
    main()
