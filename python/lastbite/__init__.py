"""lastbite: exact subgame perfect equilibria of turn-taking games, from Python.

Every analysis command of the ``lastbite`` CLI is a function here,
``lastbite.<family>.<command>(**request)``: keyword arguments are the request's fields
(the CLI's long flags in snake_case), the return value is the report (the CLI's --json
document) as Python objects with exact numbers as ``int`` or ``fractions.Fraction``.
Library errors raise ``lastbite.Error`` (a ``ValueError``) with the library's one-line
message; Ctrl-C stops a long call within a second.

>>> import lastbite
>>> lastbite.dinner.solve(morsels="1,2 2,3 3,1", order="ABA")["scores"]
[5, 2]
"""

from . import cookie, dinner, efg, subtraction, tokens
from ._api import Error, command
from ._lastbite import __version__

reproduce = command("reproduce", "Recompute the papers' published results, each PASS or FAIL.")

__all__ = ["Error", "cookie", "dinner", "efg", "reproduce", "subtraction", "tokens", "__version__"]
