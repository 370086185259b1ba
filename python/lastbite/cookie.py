"""The cookie game (Propp & Ullman 1990): cookies with spoilage dates.

>>> import lastbite
>>> lastbite.cookie.analyze(components=[0, 1, 1, 3, 4, 5, 8, 8])["d_value"]
5
"""

from ._api import _command

analyze = _command("cookie-analyze", "Analyze a position: reduction, D-value, winning moves.")
critical = _command("cookie-critical", "The critical positions.")
table = _command("cookie-table", "Strict positions by D-value.")
nim = _command("cookie-nim", "Nim-values of all strict positions.")
general = _command(
    "cookie-general",
    "Every reduced position (not only strict ones): P-positions, nim-values, durations by n.",
)

__all__ = ["analyze", "critical", "table", "nim", "general"]
