"""Any perfect-information game in Gambit's .efg format.

>>> import lastbite
>>> r = lastbite.efg.solve(data=lastbite.efg.random(nodes=30, seed=2)["efg"])
>>> len(r["value"])
2
"""

from ._api import _command

solve = _command("efg-solve", "The subgame perfect equilibrium of a Gambit .efg game.")
verify = _command("efg-verify", "Is a behaviour profile subgame perfect?")
info = _command("efg-info", "What an .efg file holds.")
random = _command("efg-random", "A random perfect-information game.")
draw = _command("efg-draw", "The game tree drawn with its subgame perfect equilibrium (a Tree: shown inline in a notebook).")

__all__ = ["solve", "verify", "info", "random", "draw"]
