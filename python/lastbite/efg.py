"""Any perfect-information game in Gambit's .efg format.

>>> import lastbite
>>> r = lastbite.efg.solve(data=lastbite.efg.random(nodes=30, seed=2)["efg"])
>>> len(r["value"])
2
"""

from ._api import _command

solve = _command("efg-solve")
verify = _command("efg-verify")
info = _command("efg-info")
random = _command("efg-random")
draw = _command("efg-draw")

__all__ = ["solve", "verify", "info", "random", "draw"]
