"""Token Dollars: placing tokens on stacks of money on a line or a clock.

>>> import lastbite
>>> r = lastbite.tokens.solve(stacks=10, players=3)
>>> sum(r["payoffs"])
55
"""

from ._api import _command

solve = _command("tokens-solve")
seats = _command("tokens-seats")
anywhere = _command("tokens-anywhere")

__all__ = ["solve", "seats", "anywhere"]
