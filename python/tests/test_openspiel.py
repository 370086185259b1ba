"""lastbite.openspiel against OpenSpiel itself: root values equal OpenSpiel's own
alpha-beta and expectiminimax searches, the equilibrium policy valued by OpenSpiel's
expected_game_score equals the solution's value, every fast key gives the values the
always-sound history key gives, and bad games and keys are one-line errors."""

import math
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import expected_game_score, minimax  # noqa: E402

import lastbite  # noqa: E402
import lastbite.openspiel as lo  # noqa: E402

# (game, OpenSpiel's search to compare with): both searches walk the tree without
# transpositions, so only games where they finish in about a second are here (the
# benchmark, benches/openspiel.py, takes the larger ones).
SEARCHED = [
    ("tic_tac_toe", "alpha_beta"),
    ("tic_tac_toe", "expectiminimax"),
    ("nim(pile_sizes=1;2;3;4)", "alpha_beta"),
    ("dots_and_boxes(num_rows=2,num_cols=2)", "alpha_beta"),
    ("clobber(rows=3,columns=4)", "alpha_beta"),
    ("clobber(rows=3,columns=4)", "expectiminimax"),
    ("pig(winscore=8,horizon=8)", "expectiminimax"),
    ("catch", "expectiminimax"),
    ("catch(rows=6,columns=4)", "expectiminimax"),
    ("breakthrough(rows=4,columns=3)", "alpha_beta"),
]


def openspiel_value(game, search):
    if search == "alpha_beta":
        v, _ = minimax.alpha_beta_search(game, maximum_depth=10**6, maximizing_player_id=0)
    else:
        v, _ = minimax.expectiminimax(game.new_initial_state(), 10**6, None, 0)
    return v


@pytest.mark.parametrize("name,search", SEARCHED)
def test_root_values_equal_openspiels_own_search(name, search):
    game = pyspiel.load_game(name)
    sol = lo.solve(game)
    assert math.isclose(float(sol.value()[0]), openspiel_value(game, search), abs_tol=1e-12)


@pytest.mark.parametrize("name", ["tic_tac_toe", "pig(winscore=8,horizon=8)", "catch", "clobber(rows=3,columns=4)",
                                  "dots_and_boxes(num_rows=2,num_cols=2)", "nim"])
def test_the_policy_valued_by_openspiel_is_the_solution_value(name):
    game = pyspiel.load_game(name)
    sol = lo.solve(game)
    policy = sol.policy()
    values = expected_game_score.policy_value(game.new_initial_state(), [policy] * game.num_players())
    for ours, theirs in zip(sol.value(), values):
        assert math.isclose(float(ours), theirs, abs_tol=1e-12)


@pytest.mark.parametrize("name", [
    "tic_tac_toe", "mnk(m=3,n=3,k=3)", "nim(pile_sizes=1;2;3)", "nim(pile_sizes=2;2;3,is_misere=false)",
    "dots_and_boxes(num_rows=1,num_cols=2)", "clobber(rows=2,columns=3)", "breakthrough(rows=3,columns=3)",
    "catch(rows=5,columns=3)", "pig(winscore=6,horizon=6)", "pig(winscore=5,horizon=7)", "pig(winscore=6,horizon=3)",
])
def test_fast_keys_give_the_history_keys_values(name):
    game = pyspiel.load_game(name)
    fast = lo.solve(game)
    assert lo.state_key(game) is not lo.history_key
    slow = lo.solve(game, key=lo.history_key)
    assert fast.state_count <= slow.state_count
    assert fast.value() == slow.value()
    state = game.new_initial_state()
    while not state.is_terminal():  # along a line of play, state by state
        assert fast.value(state) == slow.value(state)
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state = state.child(actions[len(actions) // 2])


def test_explain_path_and_best_moves_speak_openspiel():
    game = pyspiel.load_game("tic_tac_toe")
    sol = lo.solve(game)
    root = game.new_initial_state()
    assert sol.best_moves(root) == list(range(9))  # every first move draws
    e = sol.explain(root)
    assert e["moves"][4]["label"] == "x(1,1)" and e["state"] is root
    path = sol.path()
    assert len(path) == 9 and all(isinstance(st["state"], pyspiel.State) for st in path)
    assert path[-1]["state"].child(path[-1]["move"]).is_terminal()
    pig = lo.solve(pyspiel.load_game("pig(winscore=6,horizon=6)"))
    first = pig.path()[0]
    assert first["player"] == 0 and first["move"] == 0  # roll
    chance = pig.path()[1]
    assert chance["player"] is lastbite.CHANCE
    assert [o["probability"] for o in chance["outcomes"]] == [Fraction(1, 6)] * 6
    e = pig.explain(chance["state"])
    assert sum(m["probability"] for m in e["moves"]) == 1


def test_exact_probabilities_from_doubles():
    assert lo.exact_probability(1 / 6) == Fraction(1, 6)
    assert lo.exact_probability(0.2) == Fraction(1, 5)
    assert lo.exact_probability(0.5) == Fraction(1, 2)
    x = 0.1234567890123
    assert float(lo.exact_probability(x)) == x


def test_all_outcomes_and_ties():
    game = pyspiel.load_game("tic_tac_toe")
    sol = lo.solve(game, all=True)
    assert sol.outcomes == [(0, 0)]
    # `all=`, the word of every other entry point; `all_outcomes=` the older spelling.
    assert lo.solve(game, all_outcomes=True).outcomes == sol.outcomes
    assert lo.solve(game, ties="last").value() == (0, 0)


def test_bad_games_and_keys_are_one_line_errors():
    for name, words in [("kuhn_poker", "imperfect information"), ("matrix_rps", "simultaneous moves|imperfect")]:
        with pytest.raises(lastbite.Error, match=words) as e:
            lo.solve(pyspiel.load_game(name))
        assert "\n" not in str(e.value)
    # A key that merges states with different legal actions.
    with pytest.raises(lastbite.Error, match="different states one key") as e:
        lo.solve(pyspiel.load_game("tic_tac_toe"), key=lambda s: s.move_number())
    assert "\n" not in str(e.value)
