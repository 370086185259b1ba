"""Ethiopian Dinner (Levine & Stange 2012): players alternately eat morsels.

A dinner is given as ``morsels`` (text like ``"1,2 2,3 3,1"`` or rows such as
``[(1, 2), (2, 3), (3, 1)]``, one utility per player, exact), or as a ``file`` path or its
``data``; the turn order as ``order`` (``"ABA"``, ``"thue-morse"``, ``"snake"``) or
``first``.

>>> import lastbite
>>> lastbite.dinner.solve(morsels=[(1, 2), (2, 3), (3, 1)], order="ABA")["scores"]
[5, 2]
"""

from ._api import command

solve = command("dinner-solve", "Solve a dinner: crossout (two players) or the exact SPE.")
play = command("dinner-play", "Play a strategy profile and report each player's score.")
verify = command("dinner-verify", "Check a strategy profile for subgame perfection.")
efg = command("dinner-efg", "The dinner's game tree as a Gambit .efg file.")
discount = command("dinner-discount", "Is crossout still an equilibrium under a discount?")
pareto = command("dinner-pareto", "Pareto efficiency of the crossout outcome.")
experiment = command("dinner-experiment", "The paper's random experiment.")
attainable = command("dinner-attainable", "Hopkins-Jones attainable sets under crossout.")
plot = command("dinner-plot", "Figure 1: outcomes of all strategy pairs.")
board = command("dinner-board", "The crossout board (Figures 2, 4, 5).")
balance = command("dinner-balance", "First-mover advantage: alternation vs Thue-Morse.")
multiplicity = command("dinner-multiplicity", "How often random dinners have several SPE outcomes.")

__all__ = ["solve", "play", "verify", "efg", "discount", "pareto", "experiment",
           "attainable", "plot", "board", "balance", "multiplicity"]
