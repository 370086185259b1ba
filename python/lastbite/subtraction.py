"""Self-interest cumulative subtraction games: FvF, FvA, AvF, AvA and zero-sum play.

The subtraction set ``set`` may be a list or set of integers (or the text ``"1,2,5"``);
heaps are integers of any size below 2**128.

>>> import lastbite
>>> lastbite.subtraction.outcome(set={1, 2}, heap=10)["outcome"]
[6, 4]
"""

from ._api import _command

table = _command("subtraction-table", "The outcome table under every convention.")
outcome = _command("subtraction-outcome", "The outcome at one heap (any size).")
period = _command("subtraction-period", "The period of the outcome sequence, certified.")
scan = _command("subtraction-scan", "Sweep a family of rulesets.")
conjecture = _command("subtraction-conjecture", "Check one of the paper's conjectures.")
problems = _command("subtraction-problems", "The data of Problems 1, 4 and 5 (Section 6).")
plot = _command("subtraction-plot", "The paper's figures.")

__all__ = ["table", "outcome", "period", "scan", "conjecture", "problems", "plot"]
