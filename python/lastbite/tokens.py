"""Token Dollars: placing tokens on stacks of money on a line or a clock.

>>> import lastbite
>>> r = lastbite.tokens.solve(stacks=10, players=3)
>>> sum(r["payoffs"])
55
"""

from ._api import _command

solve = _command("tokens-solve", "Solve a Token Dollars game.")
seats = _command("tokens-seats", "What each seat is worth for every number of players.")

__all__ = ["solve", "seats"]
