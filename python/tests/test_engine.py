"""The generic engine from Python: games written as Python objects, solved by lastbite's
engine, against a plain-Python backward induction with each tie rule on random trees,
against the library's own dinner solver, and through Gambit export; errors, cycles and
interruption."""

import random
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest

import lastbite

RULES = ["friendly", "antagonistic", "first", "last"]


class Tree:
    """A random game tree: nodes are ints, payoffs on moves and at leaves."""

    def __init__(self, seed, nodes=40, players=3):
        rng = random.Random(seed)
        self.players = players
        self.children = {0: []}
        self.mover = {}
        self.leaf = {}
        self.edge = {}
        open_ = [0]
        n = 1
        while n < nodes and open_:
            v = open_.pop(rng.randrange(len(open_)))
            k = min(rng.randint(1, 3), nodes - n)
            self.mover[v] = rng.randrange(players)
            for _ in range(k):
                self.children[v].append(n)
                self.children[n] = []
                self.edge[(v, n)] = tuple(Fraction(rng.randint(-1, 1), rng.choice([1, 2])) for _ in range(players))
                open_.append(n)
                n += 1
        for v, ch in self.children.items():
            if not ch:
                self.leaf[v] = tuple(rng.randint(-2, 2) for _ in range(players))

    def root(self):
        return 0

    def to_move(self, s):
        return self.mover.get(s) if self.children[s] else None

    def moves(self, s):
        return list(self.children[s])

    def play(self, s, m):
        return m

    def move_payoffs(self, s, m):
        return self.edge[(s, m)]

    def terminal_payoffs(self, s):
        return self.leaf[s]


def plain(game, s, rules):
    """Backward induction from the definitions, in Python."""
    p = game.to_move(s)
    if p is None:
        if not hasattr(game, "terminal_payoffs"):
            return (0,) * game.players
        return tuple(Fraction(x) for x in game.terminal_payoffs(s))
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


@pytest.mark.parametrize("seed", range(300))
def test_random_trees_against_plain_backward_induction(seed):
    g = Tree(seed, nodes=5 + seed % 50, players=1 + seed % 3)
    rules = [RULES[(seed + 3 * p) % 4] for p in range(g.players)]
    sol = lastbite.solve(g, ties=rules)
    assert sol.value() == plain(g, 0, rules)
    probe = seed % len(g.children)
    assert sol.value(probe) == plain(g, probe, rules)
    uniform = RULES[seed % 4]
    assert lastbite.solve(g, ties=uniform).value() == plain(g, 0, [uniform] * g.players)
    # The equilibrium, as a strategy, passes the one-shot deviation check.
    strategy = {s: sol.best_move(s) for s in g.children if g.children[s]}
    verdict = lastbite.verify(g, strategy)
    assert verdict["subgame_perfect"] is True
    assert verdict["checked"]["states"] == sol.state_count  # as the verify reports say it
    # states() lists every reachable node once (here every node: a tree); policy() is the
    # strategy above, built independently by best_move.
    reachable, stack = set(), [0]
    while stack:
        s = stack.pop()
        reachable.add(s)
        stack.extend(g.children[s])
    listed = list(sol.states())
    assert sorted(listed) == sorted(reachable) and listed[0] == 0
    assert sol.policy() == {s: m for s, m in strategy.items() if s in reachable}
    assert lastbite.verify(g, sol.policy())["subgame_perfect"] is True


@pytest.mark.parametrize("seed", range(30))
def test_all_outcomes_through_gambit_export(tmp_path, seed):
    g = Tree(1000 + seed, nodes=5 + seed, players=2)
    sol = lastbite.solve(g, all=True)
    assert lastbite.solve(g, all_outcomes=True).outcomes == sol.outcomes  # the older spelling
    path = tmp_path / "g.efg"
    lastbite.write_efg(g, str(path))
    via_efg = lastbite.efg.solve(file=str(path), all=True)
    assert [tuple(v) for v in via_efg["outcomes"]] == sol.outcomes
    assert tuple(via_efg["value"]) == sol.value()


class Dinner:
    """The Ethiopian Dinner as a Python object: state = (eaten bitmask, turn)."""

    def __init__(self, morsels, order):
        self.morsels, self.order, self.players = morsels, order, 2

    def root(self):
        return (0, 0)

    def to_move(self, s):
        return None if s[1] == len(self.morsels) else "AB".index(self.order[s[1]])

    def moves(self, s):
        return [i for i in range(len(self.morsels)) if not s[0] >> i & 1]

    def play(self, s, i):
        return (s[0] | 1 << i, s[1] + 1)

    def move_payoffs(self, s, i):
        p = self.to_move(s)
        return tuple(self.morsels[i][p] if j == p else 0 for j in range(2))


@pytest.mark.parametrize("seed", range(8))
def test_a_python_dinner_equals_the_library_dinner(seed):
    rng = random.Random(seed)
    n = 6 + seed
    morsels = [(rng.randint(1, 20), rng.randint(1, 20)) for _ in range(n)]
    order = "".join(rng.choice("AB") for _ in range(n))
    for rule in ("friendly", "antagonistic"):
        sol = lastbite.solve(Dinner(morsels, order), ties=rule)
        lib = lastbite.dinner.solve(morsels=morsels, order=order, method="exact", ties=rule)
        assert list(sol.value()) == lib["scores"]
    assert sol.state_count == len(sol) == 2 ** n  # transpositions solved once


def test_explain_and_path():
    sol = lastbite.solve(Dinner([(1, 2), (2, 3), (3, 1)], "ABA"))
    e = sol.explain()
    assert e["player"] == 0 and len(e["moves"]) == 3
    assert [m["chosen"] for m in e["moves"]].count(True) == 1
    path = sol.path()
    assert [step["move"] for step in path] == [1, 0, 2]
    assert sol.value() == (5, 2)


def test_payoffs_are_exact():
    class G:
        players = ["Ann", "Bob"]
        def root(self): return "r"
        def to_move(self, s): return 0 if s == "r" else None
        def moves(self, s): return ["a", "b"]
        def play(self, s, m): return m
        def terminal_payoffs(self, s): return (0.1, Fraction(1, 3)) if s == "a" else (Fraction(1, 10), 2**80)
    sol = lastbite.solve(G())
    assert sol.value() == (Fraction(0.1), Fraction(1, 3))  # 0.1 as a double is above 1/10
    assert isinstance(sol.value()[0], Fraction)
    assert lastbite.solve(G(), ties={"Ann": "last"}).value()[0] == Fraction(0.1)


def test_exceptions_in_callbacks_propagate_unchanged():
    class Boom(Tree):
        def moves(self, s):
            if s == 3:
                raise ZeroDivisionError("boom at 3")
            return super().moves(s)
    g = Boom(5, nodes=30)
    with pytest.raises(ZeroDivisionError, match="boom at 3") as e:
        lastbite.solve(g)
    assert any(f.name == "moves" for f in e.traceback)


def test_cycles_and_bad_games_are_errors():
    class Loop:
        players = 1
        def root(self): return "a"
        def to_move(self, s): return 0
        def moves(self, s): return ["go"]
        def play(self, s, m): return "b" if s == "a" else "a"
        def terminal_payoffs(self, s): return (0,)
    with pytest.raises(lastbite.Error, match="cycle through state"):
        lastbite.solve(Loop())

    class BadMover(Loop):
        def to_move(self, s): return 5
    with pytest.raises(lastbite.Error, match="to_move"):
        lastbite.solve(BadMover())
    with pytest.raises(lastbite.Error, match="max_states"):
        lastbite.solve(Dinner([(1, 1)] * 12, "AB" * 6), max_states=100)

    # A game whose play never ends (every play a new state): max_states counts the states
    # played, so it stops there, after as many play() calls and no more.
    class Endless(Loop):
        calls = 0
        def root(self): return 0
        def play(self, s, m):
            Endless.calls += 1
            return s + 1
    with pytest.raises(lastbite.Error, match="reached more than 1000 states"):
        lastbite.solve(Endless(), max_states=1000)
    assert Endless.calls <= 1000
    with pytest.raises(lastbite.Error, match="max_states"):
        lastbite.verify(Endless(), {}, max_states=1000)
    # Under the default max_states, a game whose states are large stops at its memory
    # budget (measured as they are stored), with an error naming it, never an abort.
    class Heavy(Endless):
        def play(self, s, m): return (s[0] + 1, bytes(4096)) if isinstance(s, tuple) else (1, bytes(4096))
    with pytest.raises(lastbite.Error, match="memory_gib"):
        lastbite.solve(Heavy(), memory_gib=0)
    with pytest.raises(lastbite.Error, match="memory_gib"):
        lastbite.verify(Heavy(), {}, memory_gib=0)
    # Writing a tree, the state budget is the caller's max_nodes, and named so.
    with pytest.raises(lastbite.Error, match="raise max_nodes"):
        lastbite.write_efg(Endless(), "/dev/null", max_nodes=3)
    with pytest.raises(lastbite.Error, match="unknown tie-breaking rule"):
        lastbite.solve(Tree(1), ties="kind")
    class Unhashable(Loop):
        def root(self): return ["a"]
    with pytest.raises(TypeError, match="unhashable"):
        lastbite.solve(Unhashable())
    # A count of players is an int: the text of one, a float, a negative or a bool is
    # refused naming the field, never read as one name per character.
    for players in ["2", 2.0, -1, True, 0, None]:
        class Miscounted(Loop):
            pass
        Miscounted.players = players
        with pytest.raises(lastbite.Error, match="^players: .*positive count or a list of names"):
            lastbite.solve(Miscounted())


def test_ctrl_c_stops_a_python_game():
    # The child installs Python's SIGINT handler itself: a child inherits an ignored
    # SIGINT from a suite started in the background (a shell's `&`, some CI runners), and
    # Python then keeps it ignored, so the signal would never be seen. It times itself
    # from the moment Python sees the signal to the moment the KeyboardInterrupt reaches
    # the caller: the cancellation latency, whatever the load does to scheduling.
    code = (
        "import lastbite, signal, sys, time\n"
        "sys.path.insert(0, %r)\n"
        "from test_engine import Dinner\n"
        "seen = []\n"
        "def handler(*_):\n"
        "    seen.append(time.monotonic())\n"
        "    raise KeyboardInterrupt\n"
        "signal.signal(signal.SIGINT, handler)\n"
        "print('start', flush=True)\n"
        "try:\n"
        "    lastbite.solve(Dinner([(i, 30 - i) for i in range(22)], 'AB' * 11))\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', time.monotonic() - seen[0])\n"
    ) % __import__("os").path.dirname(__file__)
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert out.startswith("interrupted"), out
    word, latency = out.split()
    assert float(latency) < 1.0, latency


class Key:
    """A state whose hash collides often (three buckets): states are told apart by `==`."""

    def __init__(self, mask, depth):
        self.mask, self.depth = mask, depth

    def __hash__(self):
        return self.mask % 3

    def __eq__(self, other):
        return isinstance(other, Key) and (self.mask, self.depth) == (other.mask, other.depth)

    def __repr__(self):
        return f"Key({self.mask}, {self.depth})"


class Picking:
    """A picking game on a few items with transpositions (a DAG), colliding hashes, and
    move payoffs given as tuples of small ints, lists, big ints and Fractions."""

    def __init__(self, seed, items=6, players=2):
        rng = random.Random(seed)
        self.players = players
        big = 2**70
        self.values = []
        for _ in range(items):
            kind = rng.randrange(4)
            row = [rng.randint(-3, 3) for _ in range(players)]
            if kind == 1:
                row = [x + big for x in row]
            elif kind == 2:
                row = [Fraction(x, 2) for x in row]
            self.values.append(tuple(row) if kind != 3 else list(row))
        self.items = items

    def root(self):
        return Key(0, 0)

    def to_move(self, s):
        return None if s.depth == self.items else s.depth % self.players

    def moves(self, s):
        return (i for i in range(self.items) if not s.mask >> i & 1)

    def play(self, s, i):
        return Key(s.mask | 1 << i, s.depth + 1)

    def move_payoffs(self, s, i):
        return self.values[i]


@pytest.mark.parametrize("seed", range(40))
def test_transpositions_with_colliding_hashes(seed):
    g = Picking(seed, items=3 + seed % 5, players=1 + seed % 3)
    rules = [RULES[(seed + p) % 4] for p in range(g.players)]
    sol = lastbite.solve(g, ties=rules)
    assert sol.value() == plain(g, g.root(), rules)
    # Every distinct state once: the subsets of the items.
    assert sol.state_count == 2**g.items
    # An equal state built anew is found.
    probe = Key(1, 1)
    assert sol.value(probe) == plain(g, probe, rules)
    with pytest.raises(lastbite.Error, match="not reachable"):
        sol.value(Key(1, 5))


def test_ties_naming_no_player_is_a_readable_one_line_error():
    class G:
        players = ["Ann", "Bo"]

        def root(self):
            return 0

        def to_move(self, s):
            return 0 if s == 0 else None

        def moves(self, s):
            return [1, 2]

        def play(self, s, m):
            return m

        def terminal_payoffs(self, s):
            return (s, 1)

    with pytest.raises(lastbite.Error) as e:
        lastbite.solve(G(), ties={"Zed": "last"})
    assert str(e.value) == "ties names no player of this game: 'Zed' (its players: Ann, Bo)"
    assert lastbite.solve(G(), ties={"Ann": "last"}).value() == (2, 1)


class _Bad:
    """A two-move game to break one piece at a time."""
    players = 2
    def root(self): return "r"
    def to_move(self, s): return 0 if s == "r" else None
    def moves(self, s): return ["a", "b"] if s == "r" else []
    def play(self, s, m): return m
    def terminal_payoffs(self, s): return (1, 0) if s == "a" else (0, 1)


def test_games_that_are_wrong_are_refused_as_read():
    # A misspelt payoff method would solve to all-zero payoffs: named, with the match.
    class NoPayoff:
        players = 2
        def root(self): return "r"
        def to_move(self, s): return None
        def moves(self, s): return []
        def play(self, s, m): return m
    class Typo(NoPayoff):
        def terminal_payof(self, s): return (0, 0)
    with pytest.raises(lastbite.Error, match="no payoff method"):
        lastbite.solve(NoPayoff())
    with pytest.raises(lastbite.Error, match="has terminal_payof but no terminal_payoffs"):
        lastbite.solve(Typo())
    # Every required method's misspelling is named too, and a method simply absent is said so.
    for wanted, typo in (("root", "roots"), ("to_move", "tomove"), ("moves", "move"), ("play", "plays")):
        attrs = {name: getattr(_Bad, name) for name in ("root", "to_move", "moves", "play", "terminal_payoffs")}
        attrs[typo] = attrs.pop(wanted)
        game = type("Misspelt", (), dict(attrs, players=2))()
        with pytest.raises(lastbite.Error, match=f"has {typo} but no {wanted}: a misspelling"):
            lastbite.solve(game)
        del attrs[typo]
        with pytest.raises(lastbite.Error, match=f"has no {wanted} method"):
            lastbite.solve(type("Missing", (), dict(attrs, players=2))())
    # A player to move with no moves is not an end the game declared.
    class Stuck(_Bad):
        def moves(self, s): return []
    with pytest.raises(lastbite.Error, match=r"moves\('r'\) is empty but to_move gave player 0"):
        lastbite.solve(Stuck())
    # True is not player 1.
    class Bool(_Bad):
        def to_move(self, s): return True if s == "r" else None
    with pytest.raises(lastbite.Error, match="returned True"):
        lastbite.solve(Bool())
    # Probabilities are checked when read, before any outcome is played.
    played = []
    class Dice(_Bad):
        def to_move(self, s): return lastbite.CHANCE if s == "r" else None
        def chance_outcomes(self, s): return [("a", Fraction(1, 2)), ("b", Fraction(1, 3))]
        def terminal_payoffs(self, s):
            played.append(s)
            return (0, 0)
    with pytest.raises(lastbite.Error, match="sum to 5/6, not 1"):
        lastbite.solve(Dice())
    assert played == []
    class Negative(Dice):
        def chance_outcomes(self, s): return [("a", Fraction(3, 2)), ("b", Fraction(-1, 2))]
    with pytest.raises(lastbite.Error, match="the negative probability -1/2"):
        lastbite.solve(Negative())


def test_a_payoff_past_pythons_digit_limit_is_kept_and_shown():
    class Huge(_Bad):
        def terminal_payoffs(self, s): return (10**5000, 0)
    solution = lastbite.solve(Huge())
    assert solution.value()[0] == 10**5000
    assert "<a number of 5001 digits>" in repr(solution)


def test_an_endless_move_iterator_is_cut():
    import itertools
    class Endless(_Bad):
        def moves(self, s): return itertools.count() if s == "r" else iter(())
    with pytest.raises(lastbite.Error, match="more than 1000000 moves"):
        lastbite.solve(Endless())
    # Chance outcomes too: an endless generator is cut at the same limit, not followed
    # until memory runs out.
    class EndlessChance(_Bad):
        def to_move(self, s): return lastbite.CHANCE if s == "r" else None
        def chance_outcomes(self, s):
            return ((i, 0) for i in itertools.count())
    with pytest.raises(lastbite.Error, match="more than 1000000 outcomes"):
        lastbite.solve(EndlessChance())
