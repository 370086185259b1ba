"""Games written in Python with chance moves (``to_move`` answers ``lastbite.CHANCE``):
solved by the engine against a plain-Python expectiminimax with each tie rule on random
games, through Gambit export and pygambit, and with the bad inputs a user writes."""

import random
from decimal import Decimal
from fractions import Fraction

import pytest

import lastbite

RULES = ["friendly", "antagonistic", "first", "last"]


class ChanceTree:
    """A random game: node ints, some nodes chance with exact probabilities (zeros
    included), payoffs on moves and at leaves; with ``shared``, children may be reached
    from several parents (transpositions)."""

    def __init__(self, seed, nodes=30, players=3, shared=False):
        rng = random.Random(seed)
        self.players = players
        self.children = {v: [] for v in range(nodes)}
        self.mover, self.prob, self.edge, self.leaf = {}, {}, {}, {}
        nxt = 1
        for v in range(nodes):
            if not shared and v >= nxt and v > 0:
                continue
            k = rng.randint(0, 3)
            k = min(k, nodes - v - 1) if shared else min(k, nodes - nxt)
            if k == 0 or (v > 0 and rng.random() < 0.2):
                continue
            chance = rng.random() < 0.35
            self.mover[v] = lastbite.CHANCE if chance else rng.randrange(players)
            kids = [rng.randrange(v + 1, nodes) for _ in range(k)] if shared else list(range(nxt, nxt + k))
            if not shared:
                nxt += k
            kids = list(dict.fromkeys(kids))
            self.children[v] = kids
            for c in kids:
                self.edge[(v, c)] = tuple(Fraction(rng.randint(-1, 1), rng.choice([1, 3])) for _ in range(players))
            if chance:
                w = [rng.randint(0, 3) for _ in kids]
                if sum(w) == 0:
                    w[0] = 1
                self.prob[v] = [Fraction(x, sum(w)) for x in w]
        for v in range(nodes):
            if not self.children[v]:
                self.mover.pop(v, None)
                self.leaf[v] = tuple(rng.randint(-2, 2) for _ in range(players))

    def root(self):
        return 0

    def to_move(self, s):
        return self.mover.get(s)

    def moves(self, s):
        return list(self.children[s])

    def chance_outcomes(self, s):
        return list(zip(self.children[s], self.prob[s]))

    def play(self, s, m):
        return m

    def move_payoffs(self, s, m):
        return self.edge[(s, m)]

    def terminal_payoffs(self, s):
        return self.leaf[s]


def plain(game, s, rules):
    """Expectiminimax from the definitions, in Python, without memo."""
    p = game.to_move(s)
    if p is None:
        return tuple(Fraction(x) for x in game.terminal_payoffs(s))
    if p is lastbite.CHANCE:
        total = [Fraction(0)] * game.players
        for m, q in game.chance_outcomes(s):
            child = plain(game, game.play(s, m), rules)
            for j in range(game.players):
                total[j] += q * (game.move_payoffs(s, m)[j] + child[j])
        return tuple(total)
    options = []
    for m in game.moves(s):
        child = plain(game, game.play(s, m), rules)
        options.append(tuple(a + b for a, b in zip(game.move_payoffs(s, m), child)))
    top = max(o[p] for o in options)
    best = [o for o in options if o[p] == top]
    others = lambda o: sum(x for j, x in enumerate(o) if j != p)
    rule = rules[p]
    if rule == "first":
        return best[0]
    if rule == "last":
        return best[-1]
    key = max(others(o) for o in best) if rule == "friendly" else min(others(o) for o in best)
    return next(o for o in best if others(o) == key)


def play_value(game, start, steps):
    """The expected payoffs of equilibrium play from ``start`` read off
    ``Solution.path()``."""
    total = [Fraction(0)] * game.players
    state = start
    for st in steps:
        if st["player"] is lastbite.CHANCE:
            for o in st["outcomes"]:
                after = game.play(st["state"], o["move"])
                rest = play_value(game, after, o["path"])
                edge = game.move_payoffs(st["state"], o["move"])
                for j in range(game.players):
                    total[j] += o["probability"] * (edge[j] + rest[j])
            return tuple(total)
        for j in range(game.players):
            total[j] += game.move_payoffs(st["state"], st["move"])[j]
        state = game.play(st["state"], st["move"])
    return tuple(t + x for t, x in zip(total, game.terminal_payoffs(state)))


@pytest.mark.parametrize("seed", range(200))
def test_random_chance_games_against_plain_expectiminimax(seed):
    g = ChanceTree(seed, nodes=4 + seed % 30, players=2 + seed % 3, shared=seed % 2 == 1)
    rules = [RULES[(seed + 3 * p) % 4] for p in range(g.players)]
    sol = lastbite.solve(g, ties=rules)
    assert sol.value() == plain(g, 0, rules)
    for s in sol.states():
        assert sol.value(s) == plain(g, s, rules)
    # The equilibrium passes the one-shot deviation check; chance states are not asked.
    verdict = lastbite.verify(g, sol.policy())
    assert verdict["subgame_perfect"] is True
    assert all(g.to_move(s) is not lastbite.CHANCE for s in sol.policy())
    assert play_value(g, 0, sol.path()) == sol.value()


@pytest.mark.parametrize("seed", range(20))
def test_chance_games_through_gambit(tmp_path, seed):
    pygambit = pytest.importorskip("pygambit")
    g = ChanceTree(500 + seed, nodes=6 + seed, players=2)
    sol = lastbite.solve(g, all=True)
    path = tmp_path / "g.efg"
    lastbite.write_efg(g, str(path))
    via_efg = lastbite.efg.solve(file=str(path), all=True)
    assert tuple(via_efg["value"]) == sol.value()
    assert [tuple(v) for v in via_efg["outcomes"]] == sol.outcomes
    # Gambit reads the chance nodes with the same exact probabilities.
    game = pygambit.read_efg(str(path))
    chance = [n for n in game.nodes if not n.is_terminal and n.infoset.is_chance]
    assert len(chance) == sum(1 for v in g.mover.values() if v is lastbite.CHANCE)
    for n in chance:
        assert sum(Fraction(str(a.prob)) for a in n.infoset.actions) == 1


def coin_take():
    class Coin:
        """Take 1 or 2 from 4, the last taker wins; a fair coin picks who starts."""

        players = 2

        def root(self):
            return "coin"

        def to_move(self, s):
            if s == "coin":
                return lastbite.CHANCE
            return None if s[0] == 0 else s[1]

        def moves(self, s):
            return [k for k in (1, 2) if k <= s[0]]

        def chance_outcomes(self, s):
            return [((4, 0), 0.5), ((4, 1), Decimal("0.5"))]

        def play(self, s, k):
            return k if s == "coin" else (s[0] - k, 1 - s[1])

        def terminal_payoffs(self, s):
            return (1, 0) if s[1] == 1 else (0, 1)

    return Coin


def test_explain_and_path_at_chance_states():
    sol = lastbite.solve(coin_take()())
    assert sol.value() == (Fraction(1, 2), Fraction(1, 2))
    e = sol.explain()
    assert e["player"] is lastbite.CHANCE and e["rule"] is None
    assert [m["probability"] for m in e["moves"]] == [Fraction(1, 2), Fraction(1, 2)]
    assert e["reason"] == "chance move"
    assert sol.best_move() is None and sol.best_moves() == []
    path = sol.path()
    assert len(path) == 1 and path[0]["player"] is lastbite.CHANCE
    branches = path[0]["outcomes"]
    assert [b["move"] for b in branches] == [(4, 0), (4, 1)]
    assert [len(b["path"]) for b in branches] == [3, 3]
    assert repr(lastbite.CHANCE) == "lastbite.CHANCE"
    with pytest.raises(lastbite.Error, match="more than 2 steps"):
        sol.path(max_steps=2)


def test_probabilities_must_sum_to_exactly_one():
    Coin = coin_take()

    class Off(Coin):
        def chance_outcomes(self, s):
            return [((4, 0), Fraction(1, 2) - Fraction(1, 10**17)), ((4, 1), Fraction(1, 2))]

    with pytest.raises(lastbite.Error, match=r"chance state 'coin' sum to .*, not 1"):
        lastbite.solve(Off())

    class Floats(Coin):  # 0.1 + 0.2 + 0.7 in binary is not exactly 1
        def chance_outcomes(self, s):
            return [((4, 0), 0.1), ((4, 1), 0.2), ((3, 0), 0.7)]

    with pytest.raises(lastbite.Error, match="not 1"):
        lastbite.solve(Floats())

    class Negative(Coin):
        def chance_outcomes(self, s):
            return [((4, 0), Fraction(3, 2)), ((4, 1), Fraction(-1, 2))]

    with pytest.raises(lastbite.Error, match=r"'coin' give move \(4, 1\) the negative probability -1/2"):
        lastbite.solve(Negative())
    with pytest.raises(lastbite.Error, match="negative probability"):
        lastbite.verify(Negative(), lambda s, p: 1)

    class NotPairs(Coin):
        def chance_outcomes(self, s):
            return [((4, 0), 1, 0)]

    with pytest.raises(lastbite.Error, match=r"chance_outcomes\('coin'\) gave \(\(4, 0\), 1, 0\), not a \(move, probability\) pair"):
        lastbite.solve(NotPairs())

    class NoOutcomes:
        players = 1

        def root(self):
            return 0

        def to_move(self, s):
            return lastbite.CHANCE if s == 0 else None

        def moves(self, s):
            return [1]

        def play(self, s, m):
            return m

        def terminal_payoffs(self, s):
            return (0,)

    with pytest.raises(lastbite.Error, match=r"to_move\(0\) returned lastbite.CHANCE but the game has no chance_outcomes"):
        lastbite.solve(NoOutcomes())

    class Words(Coin):
        def chance_outcomes(self, s):
            return [((4, 0), "half"), ((4, 1), 0.5)]

    with pytest.raises(lastbite.Error, match="the probability of"):
        lastbite.solve(Words())


def test_write_efg_writes_chance_nodes(tmp_path):
    path = tmp_path / "coin.efg"
    lastbite.write_efg(coin_take()(), str(path))
    text = path.read_text()
    assert "c \"'coin'\" 1 \"\" { \"(4, 0)\" 1/2 \"(4, 1)\" 1/2 } 0" in text
    report = lastbite.efg.solve(file=str(path))
    assert [Fraction(x) for x in report["value"]] == [Fraction(1, 2), Fraction(1, 2)]


def test_a_reused_outcome_list_is_read_afresh_when_its_pairs_change():
    # Outcomes are remembered by the identity of each (move, probability) pair: a list
    # object reused with new pairs in it gives the new probabilities, not the old ones.
    from fractions import Fraction as F

    class Biased:
        players = 1
        shared = []

        def __init__(self, reuse):
            self.reuse = reuse

        def root(self):
            return (0, 0)

        def to_move(self, s):
            return None if s[0] == 3 else lastbite.CHANCE

        def moves(self, s):
            return [0, 1]

        def chance_outcomes(self, s):
            heads = F(1, 2 + s[0])
            pairs = [(0, 1 - heads), (1, heads)]
            if not self.reuse:
                return pairs
            self.shared[:] = pairs
            return self.shared

        def play(self, s, m):
            return (s[0] + 1, s[1] + m)

        def terminal_payoffs(self, s):
            return (s[1],)

    fresh = lastbite.solve(Biased(False)).value()
    assert lastbite.solve(Biased(True)).value() == fresh == (F(1, 2) + F(1, 3) + F(1, 4),)

    class Constant(Biased):
        COIN = [(0, F(2, 3)), (1, F(1, 3))]  # the same pairs every time: read once

        def chance_outcomes(self, s):
            return self.COIN

    assert lastbite.solve(Constant(False)).value() == (1,)
