"""The cookie game (Propp & Ullman 1990): cookies with spoilage dates.

>>> import lastbite
>>> lastbite.cookie.analyze(components=[0, 1, 1, 3, 4, 5, 8, 8])["d_value"]
5
"""

from ._api import _command

analyze = _command("cookie-analyze")
critical = _command("cookie-critical")
table = _command("cookie-table")
nim = _command("cookie-nim")
general = _command("cookie-general")

__all__ = ["analyze", "critical", "table", "nim", "general"]
