"""Ethiopian Dinner (Levine & Stange 2012): players alternately eat morsels.

A dinner is given as ``morsels`` (text like ``"1,2 2,3 3,1"`` or rows such as
``[(1, 2), (2, 3), (3, 1)]``, one utility per player, exact), or as a ``file`` path or its
``data``; the turn order as ``order`` (``"ABA"``, ``"thue-morse"``, ``"snake"``) or
``first``.

>>> import lastbite
>>> lastbite.dinner.solve(morsels=[(1, 2), (2, 3), (3, 1)], order="ABA")["scores"]
[5, 2]
"""

from ._api import _command

solve = _command("dinner-solve", "Solve a dinner: crossout (two players) or the exact SPE.")
play = _command("dinner-play", "Play a strategy profile and report each player's score.")
verify = _command("dinner-verify", "Check a strategy profile for subgame perfection.")
efg = _command("dinner-efg", "The dinner's game tree as a Gambit .efg file.")
discount = _command("dinner-discount", "Is crossout still an equilibrium under a discount?")
pareto = _command("dinner-pareto", "Pareto efficiency of the crossout outcome.")
experiment = _command("dinner-experiment", "The paper's random experiment.")
attainable = _command("dinner-attainable", "Hopkins-Jones attainable sets under crossout.")
plot = _command("dinner-plot", "Figure 1: outcomes of all strategy pairs.")
board = _command("dinner-board", "The crossout board (Figures 2, 4, 5).")
tree = _command("dinner-tree", "The game tree of a small dinner drawn with its subgame perfect equilibrium (a Tree: shown inline in a notebook).")
sincere = _command("dinner-sincere", "Sincere picking: each takes her favourite morsel left; with compare, welfare against the SPE outcomes.")
manipulate = _command("dinner-manipulate", "One agent's best play against sincere others, and its gain.")
expected = _command("dinner-expected", "Expected scores and welfare of a picking sequence under impartial culture.")
best_order = _command("dinner-best-order", "The picking sequence with the greatest expected welfare (two agents, sincere).")
fairness = _command("dinner-fairness", "Envy-freeness, EF1, proportionality and maximin shares of the sincere and SPE allocations.")
balance = _command("dinner-balance", "First-mover advantage: alternation vs Thue-Morse.")
multiplicity = _command("dinner-multiplicity", "How often random dinners have several SPE outcomes.")

__all__ = ["solve", "play", "verify", "efg", "discount", "pareto", "experiment",
           "attainable", "plot", "board", "tree", "balance", "multiplicity", "sincere", "manipulate",
           "fairness", "expected", "best_order"]
