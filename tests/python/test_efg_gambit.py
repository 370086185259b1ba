"""lastbite's `efg` commands against Gambit itself (pygambit, from PyPI).

For random perfect-information games written by lastbite and read by pygambit, and
written by pygambit and read by lastbite, the SPE profile lastbite returns must be, by
pygambit's own exact (rational) payoff and regret evaluation:

* a Nash equilibrium of the whole game (max regret 0), with lastbite's root value as its
  expected payoff vector (pygambit's max regret grows exponentially with the tree, so the
  games have up to 70 nodes);
* a Nash equilibrium of every subgame: for each subgame root, with play forced to reach
  it, the regret at every information set of the subgame that play reaches is 0.

The behaviour profile is handed over as lastbite prints it (Gambit's `NE,...` order:
players, each player's information sets, actions) and read in pygambit's own order.
"""

import json
import os
import random
import subprocess
from fractions import Fraction

import pygambit as gbt
import pytest

LASTBITE = os.environ.get("LASTBITE_BIN", "target/release/lastbite")
RULES = ["friendly", "antagonistic", "first", "last"]


def lastbite(*args, code=0):
    """The JSON report of a CLI run that exits with `code` (3: a verify found no SPE)."""
    out = subprocess.run([LASTBITE, *args], capture_output=True, text=True)
    assert out.returncode == code, out.stderr
    return json.loads(out.stdout)


def exact(v):
    """A lastbite exact value (JSON integer or "a/b") as a Fraction."""
    return Fraction(v) if isinstance(v, int) else Fraction(v)


def frac(r):
    return Fraction(int(r.numerator), int(r.denominator))


def profile_from(game, behavior):
    """lastbite's NE,... list as a pygambit rational behaviour profile."""
    entries = behavior.split(",")
    assert entries[0] == "NE"
    probs = [Fraction(e) for e in entries[1:]]
    actions = list(game.actions)
    assert len(probs) == len(actions)
    p = game.mixed_behavior_profile(rational=True)
    for a, x in zip(actions, probs):
        p[a] = gbt.Rational(x.numerator, x.denominator)
    return p


def path_to(node):
    """(node, action) pairs from the root down to `node`."""
    steps = []
    while node.parent is not None:
        steps.append((node.parent, node.prior_action))
        node = node.parent
    return list(reversed(steps))


def indices(node):
    """The child numbers from the root down to `node`."""
    out = []
    while node.parent is not None:
        out.append(list(node.parent.children).index(node))
        node = node.parent
    return list(reversed(out))


def node_at(game, path):
    node = game.root
    for i in path:
        node = list(node.children)[i]
    return node


def check_spe(game, result, reread):
    p = profile_from(game, result["behavior"])
    # Nash equilibrium of the whole game, with lastbite's value.
    assert frac(p.max_regret()) == 0
    for player, v in zip(game.players, result["value"]):
        assert frac(p.payoff(player)) == exact(v)
    # Nash equilibrium of every subgame.
    subgames = list(game.subgames)
    assert len(subgames) == sum(1 for n in game.nodes if not n.is_terminal)
    checked = 0
    for sub in subgames:
        g, root = game, sub.root
        if any(n.player.is_chance and frac(n.infoset.actions[a.label].prob) == 0
               for n, a in path_to(root)):
            # Chance never reaches this subgame. Its play does not depend on chance's
            # probabilities above it, so check it in a copy where they are uniform.
            g = reread()
            root = node_at(g, indices(root))
            for n, _ in path_to(root):
                if n.player.is_chance:
                    k = len(n.infoset.actions)
                    g.set_chance_probs(n.infoset, [gbt.Rational(1, k)] * k)
        q = profile_from(g, result["behavior"])
        for node, action in path_to(root):
            if node.player.is_chance:
                continue
            for a in node.infoset.actions:
                q[a] = gbt.Rational(1 if a == action else 0)
        assert frac(q.realiz_prob(root)) > 0
        for node in subtree(root):
            if node.is_terminal or node.player.is_chance:
                continue
            if frac(q.realiz_prob(node)) > 0:
                assert frac(q.infoset_regret(node.infoset)) == 0, (sub.root, node)
                checked += 1
    assert checked >= len(subgames) - sum(1 for n in game.nodes if not n.is_terminal and n.player.is_chance)


def subtree(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


def random_gambit_game(rng, nodes, players):
    """A random perfect-information game built with pygambit's own API."""
    g = gbt.Game.new_tree(players=[f"P{i + 1}" for i in range(players)], title="pygambit random")
    leaves = [g.root]
    count = 1
    outcome = 0
    while count < nodes and leaves:
        leaf = leaves.pop(rng.randrange(len(leaves)))
        k = min(rng.randint(1, 3), nodes - count)
        if rng.random() < 0.2:
            g.append_move(leaf, g.players.chance, [f"c{i}" for i in range(k)])
            weights = [rng.randint(0, 3) for _ in range(k)]
            if sum(weights) == 0:
                weights[0] = 1
            g.set_chance_probs(leaf.infoset, [gbt.Rational(w, sum(weights)) for w in weights])
        else:
            player = list(g.players)[rng.randrange(players)]
            g.append_move(leaf, player, [f"a{i}" for i in range(k)])
        if rng.random() < 0.3:
            outcome += 1
            o = g.add_outcome(f"o{outcome}", [rng.randint(-2, 2) for _ in range(players)])
            g.set_outcome(leaf, o)
        leaves.extend(leaf.children)
        count += k
    for n in g.nodes:
        if n.is_terminal and rng.random() < 0.9:
            outcome += 1
            o = g.add_outcome(f"o{outcome}", [rng.randint(-2, 2) for _ in range(players)])
            g.set_outcome(n, o)
    return g


@pytest.mark.parametrize("seed", range(40))
def test_lastbite_written_games(tmp_path, seed):
    path = tmp_path / "g.efg"
    players = 1 + seed % 3
    nodes = 10 + (seed * 7) % 60
    out = subprocess.run(
        [LASTBITE, "efg", "random", "--nodes", str(nodes), "--players", str(players),
         "--seed", str(seed), "--chance", "25", "--outcomes", "30", "--payoff-range", "2",
         "-o", str(path)],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    game = gbt.read_efg(str(path))
    assert len(list(game.nodes)) == nodes
    rule = RULES[seed % 4]
    result = lastbite("efg", "solve", str(path), "--ties", rule, "--json")
    check_spe(game, result, lambda: gbt.read_efg(str(path)))


@pytest.mark.parametrize("seed", range(40))
def test_gambit_written_games(tmp_path, seed):
    rng = random.Random(seed)
    game = random_gambit_game(rng, 10 + (seed * 11) % 60, 1 + seed % 3)
    path = tmp_path / "g.efg"
    game.to_efg(str(path))
    rule = RULES[(seed + 1) % 4]
    result = lastbite("efg", "solve", str(path), "--ties", rule, "--json")
    assert len(result["node_values"]) == len(list(game.nodes))
    check_spe(game, result, lambda: gbt.read_efg(str(path)))


def test_a_non_spe_profile_is_caught_by_both():
    """Entry deterrence: 'enter, and the incumbent fights' is not subgame perfect."""
    path = os.path.join(os.path.dirname(__file__), "../../examples/efg/entry.efg")
    game = gbt.read_efg(path)
    report = lastbite("efg", "verify", path, "--profile", "NE,1,0,1,0", "--json", code=3)
    assert report["subgame_perfect"] is False
    p = profile_from(game, "NE,1,0,1,0")
    assert frac(p.max_regret()) == 0  # a Nash equilibrium: the threat is never tested
    fight = list(game.players["Incumbent"].infosets)[0]
    out, enter = list(game.root.infoset.actions)
    q = p.copy()
    q[enter] = gbt.Rational(1)
    q[out] = gbt.Rational(0)
    assert frac(q.infoset_regret(fight)) == exact(report["deviation"]["gain"])


CATALOG = sorted(
    str(p) for p in __import__("pathlib").Path(gbt.__file__).parent.glob("catalog_data/**/*.efg")
)


def run(*args):
    return subprocess.run([LASTBITE, *args], capture_output=True, text=True)


def test_the_catalog_is_there():
    assert len(CATALOG) >= 20, CATALOG


@pytest.mark.parametrize("path", CATALOG, ids=lambda p: p.split("catalog_data/")[-1])
def test_gambits_own_files_read_as_gambit_reads_them(path):
    """Every game file pygambit ships: the same tree, and for perfect-information games
    an SPE that pygambit confirms; imperfect information is refused in one line."""
    game = gbt.read_efg(path)
    info = json.loads(run("efg", "info", path, "--json").stdout)
    nodes = list(game.nodes)
    assert info["nodes"] == len(nodes)
    assert info["players"].__len__() == len(game.players)
    assert info["chance_nodes"] == sum(1 for n in nodes if not n.is_terminal and n.player.is_chance)
    assert info["terminal_nodes"] == sum(1 for n in nodes if n.is_terminal)
    assert info["outcomes"] == len(game.outcomes)
    perfect = all(len(i.members) == 1 for p in game.players for i in p.infosets)
    assert info["perfect_information"] == perfect
    out = run("efg", "solve", path, "--json")
    if perfect:
        assert out.returncode == 0, out.stderr
        check_spe(game, json.loads(out.stdout), lambda: gbt.read_efg(path))
    else:
        assert out.returncode == 1
        assert "imperfect information" in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
