"""OpenSpiel's games solved exactly by lastbite, and OpenSpiel's MCTS bot measured against
the exact equilibrium.

Solves tic-tac-toe, dots and boxes on a 2x2 board and pig (to 10 points, 20 decisions),
prints each root value and state count, checks the equilibrium policy with OpenSpiel's own
expected_game_score (on the two games whose trees it can walk), then plays OpenSpiel's MCTS bot (few simulations) against the exact
policy in pig, where dice make luck part of every result: the exact policy's expected
return against itself is 0.4188 for the first player, so the bot's shortfall from it
(within the sampling error printed) is what its search gives away. Last, one of
lastbite's own games as an OpenSpiel game (lastbite.openspiel.load): Token Dollars with
stacks $1..$20 and three players, where MCTS places first against two exact players; the
equilibrium share of the first seat is what MCTS would get by playing it. (MCTS needs
rewards at the end: the dinner's come along the way.)

Run: python examples/python/openspiel_games.py   (needs: pip install open_spiel)
"""

import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import expected_game_score, mcts

import lastbite.openspiel as lo

for name in ["tic_tac_toe", "dots_and_boxes(num_rows=2,num_cols=2)", "pig(winscore=10,horizon=20)"]:
    game = pyspiel.load_game(name)
    t = time.perf_counter()
    sol = lo.solve(game)
    seconds = time.perf_counter() - t
    line = (f"{name}: value {tuple(str(v) for v in sol.value())} (~{float(sol.value()[0]):.4f}), "
            f"{sol.state_count} states in {seconds:.2f} s")
    if not name.startswith("pig"):  # OpenSpiel's valuation walks the tree: pig's is too big
        checked = expected_game_score.policy_value(game.new_initial_state(), [sol.policy()] * game.num_players())
        line += f"; OpenSpiel values the policy at {checked[0]:.4f}"
    print(line)

# OpenSpiel's MCTS bot as the first player against the exact policy in pig.
game = pyspiel.load_game("pig(winscore=10,horizon=20)")
sol = lo.solve(game)
rng = np.random.RandomState(7)
bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=50,
                   evaluator=mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng), random_state=rng)
games, returns = 100, []
for _ in range(games):
    state = game.new_initial_state()
    bot.restart_at(state)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = rng.choice(actions, p=probs)
        elif state.current_player() == 0:
            action = bot.step(state)
        else:
            action = sol.best_move(state)
        state.apply_action(action)
    returns.append(state.returns()[0])
exact_value = float(sol.value()[0])
mean, se = np.mean(returns), np.std(returns) / np.sqrt(games)
print(f"MCTS (50 simulations) as the first player against the exact policy in pig: "
      f"mean return {mean:+.3f} +- {se:.3f} (standard error) over {games} games; "
      f"the exact policy in its seat expects {exact_value:+.4f}")

# One of lastbite's own games in OpenSpiel: MCTS places first against exact players.
game = lo.load("tokens", stacks=20, players=3)
sol = lo.solve(game)
tokens_rng = np.random.RandomState(11)
bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=200,
                   evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=tokens_rng),
                   random_state=tokens_rng)
shares = []
for _ in range(20):
    state = game.new_initial_state()
    bot.restart_at(state)
    while not state.is_terminal():
        action = bot.step(state) if state.current_player() == 0 else sol.best_move(state)
        state.apply_action(action)
    shares.append(state.exact_returns()[0])
print(f"MCTS (200 simulations) placing first in Token Dollars ($1..$20, 3 players) against exact players: "
      f"mean share {float(sum(shares)) / len(shares):.2f} over {len(shares)} games "
      f"(best {max(shares)}, worst {min(shares)}); the equilibrium gives the first seat {sol.value()[0]} "
      f"at stack {sol.best_move()}")
