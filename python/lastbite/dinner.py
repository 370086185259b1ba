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

solve = _command("dinner-solve")
play = _command("dinner-play")
verify = _command("dinner-verify")
efg = _command("dinner-efg")
discount = _command("dinner-discount")
pareto = _command("dinner-pareto")
experiment = _command("dinner-experiment")
attainable = _command("dinner-attainable")
plot = _command("dinner-plot")
board = _command("dinner-board")
tree = _command("dinner-tree")
sincere = _command("dinner-sincere")
manipulate = _command("dinner-manipulate")
expected = _command("dinner-expected")
best_order = _command("dinner-best-order")
fairness = _command("dinner-fairness")
balance = _command("dinner-balance")
multiplicity = _command("dinner-multiplicity")
strategic_fairness = _command("dinner-strategic-fairness")

__all__ = ["solve", "play", "verify", "efg", "discount", "pareto", "experiment",
           "attainable", "plot", "board", "tree", "balance", "multiplicity", "sincere", "manipulate",
           "fairness", "expected", "best_order", "strategic_fairness"]
