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

from . import cookie, dinner, efg, subtraction, sweeps, tokens
from ._api import Error, Ragged
from ._api import _command
from ._lastbite import CHANCE, Solution, __version__
from ._lastbite import solve as _solve
from ._lastbite import verify as _verify
from ._lastbite import write_efg as _write_efg
from .display import Report, Tree, draw_tree, tikz

reproduce = _command("reproduce")



def solve(game, ties="first", all=False, max_states=300_000_000, all_outcomes=None,
          memory_gib=4):
    """Solves a game written in Python by backward induction, exactly.

    ``game`` is any object with ``players`` (a count, or a list of names),
    ``root()``, ``to_move(state)`` (the index of the player to move, from 0, or None when
    the state is terminal), ``moves(state)`` (an iterable, in the order ``first`` and
    ``last`` refer to), ``play(state, move)``, and optionally ``move_payoffs(state,
    move)`` and ``terminal_payoffs(state)`` (one number per player; a player's payoff is
    the sum along the play). States must be hashable and are solved once each, however
    many paths reach them. Payoffs are exact: int, Fraction, Decimal, or float (its exact
    binary value).

    Chance: where ``to_move(state)`` returns ``lastbite.CHANCE``, nature moves, and
    ``chance_outcomes(state)`` gives its moves as ``[(move, probability), ...]``; the
    probabilities are exact numbers as payoffs are, none negative, summing to exactly 1
    (else ``lastbite.Error`` naming the state). Values are then exact expected payoffs;
    players still choose, and break ties, only at their own states.

    ``ties`` is one rule for everyone (``"friendly"``, ``"antagonistic"``, ``"first"``,
    ``"last"``), a list with one rule per player, or a dict from player index or name to
    rule; the default ``"first"`` (the first of the mover's best moves in the game's move
    order) needs nothing from the game but its move order. ``all=True`` also collects the
    payoff vectors of all pure subgame perfect equilibria (``Solution.outcomes``;
    ``all_outcomes=True`` is the older spelling). More than ``max_states`` states are
    refused, and so is a game whose states grow the process by more than ``memory_gib``
    GiB as they are stored (measured: the states are the game's own objects), each with
    ``lastbite.Error`` naming the budget.

    Returns a ``Solution``: ``value(state=None)``, ``best_move(state)``,
    ``best_moves(state)``, ``path()`` (branching at chance states into each outcome),
    ``explain(state)`` (at a chance state, each move's probability), ``states()`` (every
    solved state), ``policy()`` (every player's state's chosen move), ``state_count``,
    ``outcomes``.
    An exception raised by the game's methods propagates unchanged; a cycle raises
    ``lastbite.Error`` naming the state; Ctrl-C stops the solve.

    >>> class Take:  # take 1 or 2 from a heap of 4; taking the last one wins
    ...     players = 2
    ...     def root(self): return (4, 0)
    ...     def to_move(self, s): return None if s[0] == 0 else s[1]
    ...     def moves(self, s): return [k for k in (1, 2) if k <= s[0]]
    ...     def play(self, s, k): return (s[0] - k, 1 - s[1])
    ...     def terminal_payoffs(self, s): return (1, 0) if s[1] == 1 else (0, 1)
    >>> sol = solve(Take())
    >>> sol.value(), sol.best_move()
    ((1, 0), 1)
    >>> sol.policy()[(4, 0)], len(list(sol.states())) == sol.state_count
    (1, True)

    A coin decides who moves first:

    >>> class Coin(Take):
    ...     def root(self): return "coin"
    ...     def to_move(self, s): return CHANCE if s == "coin" else Take.to_move(self, s)
    ...     def chance_outcomes(self, s): return [((4, 0), 0.5), ((4, 1), 0.5)]
    ...     def play(self, s, k): return k if s == "coin" else Take.play(self, s, k)
    >>> solve(Coin()).value()
    (Fraction(1, 2), Fraction(1, 2))
    """
    if all_outcomes is not None:
        all = all or all_outcomes
    return _solve(game, ties, all, max_states, memory_gib)


def verify(game, strategy, max_states=300_000_000, memory_gib=4):
    """Checks a strategy profile of a game written in Python for subgame perfection.

    ``strategy`` is a function ``(state, player) -> move`` or a dict from state to move
    (never asked at a chance state).
    Returns ``{"subgame_perfect": True, "checked": {"states": n}}`` (as the verify
    commands' reports), or ``{"subgame_perfect": False,
    "state", "player", "prescribed", "better", "gain"}``: the profitable one-shot
    deviation nearest the root. Budgets as for ``solve``.
    """
    return _verify(game, strategy, max_states, memory_gib)


def write_efg(game, path, title="lastbite game", max_nodes=1_000_000):
    """Writes the game tree of a game written in Python as a Gambit .efg file (refusing
    trees of more than ``max_nodes`` nodes)."""
    return _write_efg(game, path, title, max_nodes)


#: The optional dependencies whose versions a bug report needs (the extras ``numpy``,
#: ``openspiel`` and ``dask``, and the test suite's pygambit), by distribution name.
OPTIONAL = ("numpy", "open_spiel", "dask", "distributed", "pygambit")


def show_versions(file=None):
    """Prints what a bug report needs: this package's version, the compiled module's
    version, the commit it was built from and its features, Python's, the platform's and each optional dependency's
    (``not installed`` when missing), one ``name: version`` a line.

    >>> show_versions()  # doctest: +ELLIPSIS
    lastbite: ...
    compiled module: ... (commit ...; features: ...)
    python: ...
    """
    import importlib.metadata
    import platform
    import sys

    from . import _lastbite

    def dist(name):
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    features = ", ".join(_lastbite.__features__) or "none"
    lines = [
        ("lastbite", dist("lastbite")),
        ("compiled module", f"{_lastbite.__version__} (commit {_lastbite.__commit__}; features: {features})"),
        ("python", f"{platform.python_implementation()} {sys.version.split()[0]}"),
        ("platform", platform.platform()),
    ] + [(name, dist(name)) for name in OPTIONAL]
    for name, version in lines:
        print(f"{name}: {version}", file=file)


__all__ = ["CHANCE", "Error", "Ragged", "Report", "Solution", "Tree", "cookie", "dinner", "draw_tree",
           "efg", "reproduce", "show_versions", "solve", "subtraction", "tikz", "tokens", "verify",
           "write_efg", "__version__"]
