"""lastbite's families as OpenSpiel games (lastbite.openspiel.load): they pass OpenSpiel's
own random_sim_test, load by name and parameters through pyspiel.load_game, pickle, and
solved by lastbite.openspiel.solve give each family's own answer (the dinner's exact
solver, the subtraction DP under its conventions, the tokens solver, the cookie
analysis) on random instances. The dinner's rewards come along the way, so it is also the
test of solve's rewards path through OpenSpiel's own doubles."""

import math
import pickle
import random
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import expected_game_score  # noqa: E402

import lastbite  # noqa: E402
import lastbite.openspiel as lo  # noqa: E402


def random_dinner(rng):
    players = rng.choice([2, 2, 3])
    n = rng.randint(1, 7)
    rows = [[Fraction(rng.randint(-4, 8), rng.randint(1, 3)) for _ in range(players)] for _ in range(n)]
    order = "".join(rng.choice("ABC"[:players]) for _ in range(n))
    return rows, order


INSTANCES = [
    ("dinner", dict(morsels=[(1, 2), (2, 3), (3, 1)], order="ABA")),
    ("dinner", dict(morsels="1:2:0 2:3:1 3:1:2 0:0:5", order="ABCA", discount="1/2")),
    ("dinner", dict(morsels=[(1, 2), (2, 3), (3, 1), (4, 4)], before="0<3")),
    ("subtraction", dict(set=[1, 2], heap=9)),
    ("subtraction", dict(set="2 3", heap=11, zero_sum=True)),
    ("tokens", dict(stacks=6, players=3)),
    ("tokens", dict(values=[1, Fraction(5, 2), 0, 3], players=2, clock=True)),
    ("cookie", dict(components=[0, 1, 1, 3, 4, 5])),
    ("cookie", dict(components="2 2 2")),
]


@pytest.mark.parametrize("family,params", INSTANCES)
def test_the_games_pass_openspiels_random_sim_test(family, params):
    game = lo.load(family, **params)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert lo.solve(again).value() == lo.solve(game).value()


def test_the_games_load_by_name_and_parameters():
    game = pyspiel.load_game("lastbite_dinner(morsels=1:2 2:3 3:1,order=ABA)")
    assert (game.num_players(), game.num_distinct_actions(), game.max_game_length()) == (2, 3, 3)
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    sub = pyspiel.load_game("lastbite_subtraction", {"set": "1 3", "heap": 10, "zero_sum": True})
    assert sub.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("lastbite_tokens(stacks=5,players=2)").get_type().utility == \
        pyspiel.GameType.Utility.CONSTANT_SUM
    cookie = pyspiel.load_game("lastbite_cookie(components=1 3 4)")
    state = cookie.new_initial_state()
    assert state.legal_actions() == [1, 3, 4]
    assert str(state) == "(1, 3, 4), A to move"
    assert state.action_to_string(0, 3) == "eat a cookie with 3 days left"


def test_states_pickle_and_clone_as_their_history():
    game = lo.load("tokens", stacks=7, players=3)
    state = game.new_initial_state()
    state.apply_action(4)
    state.apply_action(2)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == [4, 2] and str(copy) == str(state)
    child = state.child(7)
    assert state.history() == [4, 2] and child.history() == [4, 2, 7]
    assert child.is_terminal() and sum(child.exact_returns()) == 28


def test_dinners_solve_as_the_exact_solver_says():
    rng = random.Random(2711)
    for _ in range(40):
        rows, order = random_dinner(rng)
        game = lo.load("dinner", morsels=rows, order=order)
        ours = lo.solve(game, ties="first").value()
        theirs = lastbite.dinner.solve(morsels=rows, order=order, ties="first", method="exact")["scores"]
        assert list(ours) == list(theirs), (rows, order)


def test_the_rewards_path_through_openspiels_doubles():
    # OpenSpiel's own rewards() (doubles), not the exact ones: integer utilities are
    # exact doubles, so the values must still be the family's.
    rng = random.Random(5)
    for _ in range(20):
        rows, order = random_dinner(rng)
        rows = [[int(x) for x in r] for r in rows]
        game = lo.load("dinner", morsels=rows, order=order)
        game.lastbite_exact = False
        ours = lo.solve(game, ties="first", key=lo.history_key).value()
        theirs = lastbite.dinner.solve(morsels=rows, order=order, ties="first", method="exact")["scores"]
        assert list(ours) == list(theirs), (rows, order)


def test_subtraction_games_solve_as_the_dp_says():
    rng = random.Random(3)
    rules = {"F": "friendly", "A": "antagonistic"}
    for _ in range(30):
        s = sorted({rng.randint(1, 6) for _ in range(rng.randint(1, 3))})
        heap = rng.randint(0, 18)
        game = lo.load("subtraction", set=s, heap=heap)
        for conv in ("FvF", "FvA", "AvF", "AvA"):
            ours = lo.solve(game, ties=[rules[conv[0]], rules[conv[2]]]).value()
            theirs = lastbite.subtraction.outcome(set=s, heap=heap, convention=conv)["outcome"]
            assert list(ours) == list(theirs), (s, heap, conv)


def test_token_dollars_solve_as_the_solver_says():
    rng = random.Random(4)
    for trial in range(20):
        players = rng.randint(1, 3)
        stacks = players + rng.randint(0, 4)
        clock = trial % 2 == 1
        if trial % 3 == 0:
            values = [Fraction(rng.randint(0, 8), 2) for _ in range(stacks)]
            game = lo.load("tokens", values=values, players=players, clock=clock)
            theirs = lastbite.tokens.solve(values=values, players=players, clock=clock)["payoffs"]
        else:
            game = lo.load("tokens", stacks=stacks, players=players, clock=clock)
            theirs = lastbite.tokens.solve(stacks=stacks, players=players, clock=clock)["payoffs"]
        assert list(lo.solve(game, ties="first").value()) == list(theirs)


def test_cookie_games_solve_as_the_analysis_says():
    rng = random.Random(6)
    for _ in range(40):
        comps = sorted(rng.randint(0, 6) for _ in range(rng.randint(1, 6)))
        if not any(comps):
            continue
        sol = lo.solve(lo.load("cookie", components=comps))
        report = lastbite.cookie.analyze(components=comps)
        assert sol.value()[0] == (1 if report["type"] == "N" else -1), comps
        if report["type"] == "N" and report["winning_moves"] is not None:
            assert sol.best_moves() == report["winning_moves"], comps


@pytest.mark.parametrize("family,params", INSTANCES[:1] + INSTANCES[3:4] + INSTANCES[5:6] + INSTANCES[7:8])
def test_the_policy_valued_by_openspiel_is_the_solution_value(family, params):
    game = lo.load(family, **params)
    sol = lo.solve(game)
    values = expected_game_score.policy_value(game.new_initial_state(), [sol.policy()] * game.num_players())
    for ours, theirs in zip(sol.value(), values):
        assert math.isclose(float(ours), theirs, abs_tol=1e-12)


def test_bad_games_are_one_line_errors():
    with pytest.raises(lastbite.Error, match="morsel 1"):
        lo.load("dinner", morsels="1:2 x:3")
    with pytest.raises(lastbite.Error, match="chess"):
        lo.load("chess")
    with pytest.raises(lastbite.Error, match="not a legal action"):
        state = lo.load("cookie", components=[1, 2]).new_initial_state()
        state.apply_action(5)
    with pytest.raises(Exception, match="heep"):
        lo.load("subtraction", set=[1], heep=3)
