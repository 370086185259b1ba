"""Self-interest cumulative subtraction games: FvF, FvA, AvF, AvA and zero-sum play.

The subtraction set ``set`` may be a list or set of integers (or the text ``"1,2,5"``);
heaps are integers of any size below 2**128.

>>> import lastbite
>>> lastbite.subtraction.outcome(set={1, 2}, heap=10)["outcome"]
[6, 4]
"""

from ._api import _command

table = _command("subtraction-table")
outcome = _command("subtraction-outcome")
period = _command("subtraction-period")
scan = _command("subtraction-scan")
conjecture = _command("subtraction-conjecture")
problems = _command("subtraction-problems")
plot = _command("subtraction-plot")

__all__ = ["table", "outcome", "period", "scan", "conjecture", "problems", "plot"]
