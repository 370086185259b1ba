"""OpenSpiel games solved exactly by lastbite's engine, and lastbite's families as
OpenSpiel games.

``solve(game)`` takes any ``pyspiel`` game with perfect information and sequential
moves (deterministic or with explicit chance, any number of players, rewards at the end
or along the way) and returns a :class:`Solution` that speaks OpenSpiel: it takes and
gives ``pyspiel`` states and action ids, and ``policy()`` is an OpenSpiel policy that
plays the equilibrium.

OpenSpiel itself is an optional dependency: ``pip install "./python[openspiel]"``.

>>> import pyspiel, lastbite.openspiel
>>> sol = lastbite.openspiel.solve(pyspiel.load_game("tic_tac_toe"))
>>> sol.value(), sol.state_count
((0, 0), 5478)
"""

from fractions import Fraction

from . import CHANCE, Error
from . import solve as _solve

__all__ = ["FAST_KEYS", "Solution", "exact_probability", "history_key", "pig_key", "solve", "state_key",
           "string_key", "string_move_key"]


def _pyspiel():
    try:
        import pyspiel
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise Error("lastbite.openspiel needs OpenSpiel: pip install open_spiel") from e
    return pyspiel


def history_key(state):
    """The default key: the state's whole history of actions (chance's included). Sound
    for every game, since the history determines the state; it finds no
    transpositions."""
    return tuple(state.history())


def string_key(state):
    """The state's string and the player to move."""
    return (str(state), state.current_player())


def string_move_key(state):
    """The state's string, the player to move and the move number: for games with a
    horizon counted in moves, where the same position at another move number has
    another future."""
    return (str(state), state.current_player(), state.move_number())


def pig_key(state):
    """Pig's key: its string (the scores, the turn total and the mover) and the number of
    decisions taken, which its horizon counts and the string omits. A roll (action 0) is
    followed by chance's face; a stop (action 1) is not."""
    decisions = 0
    history = state.history()
    i, n = 0, len(history)
    while i < n:
        decisions += 1
        i += 2 if history[i] == 0 else 1
    return (str(state), decisions)


#: Keys shown sound for OpenSpiel's games, by short name: two states with one key have
#: the same legal actions, transitions and returns. ``tic_tac_toe``, ``mnk`` and
#: ``connect_four``: the board and the mover are the state. ``nim``: the string is the
#: piles and the mover. ``clobber`` and ``breakthrough``: the board and the mover (their
#: terminal test and returns read only the board). ``catch``: the grid, whose ball row
#: counts the steps. ``dots_and_boxes``: the lines drawn and each box's owner, which
#: decide the returns. Each is also checked against the history key in the tests, and
#: every key is watched while solving (see :func:`solve`). ``pig``: its horizon counts
#: the players' decisions, which its string omits and its move number mixes with
#: chance's, so :func:`pig_key` adds them.
FAST_KEYS = {
    "tic_tac_toe": string_key,
    "mnk": string_key,
    "connect_four": string_key,
    "nim": string_key,
    "clobber": string_key,
    "breakthrough": string_key,
    "catch": string_key,
    "dots_and_boxes": string_key,
    "pig": pig_key,
}


def state_key(game):
    """The key :func:`solve` uses for ``game`` by default: a fast key from
    :data:`FAST_KEYS` (lastbite's own games name theirs), else the history."""
    own = getattr(game, "lastbite_key", None)
    if own is not None:
        return own
    return FAST_KEYS.get(game.get_type().short_name, history_key)


_EXACT = {}
_CHANCE_PLAYER = -1
_TERMINAL_PLAYER = -4


def exact_probability(p):
    """A chance probability as OpenSpiel gives it (a double) made exact: the simplest
    fraction whose nearest double it is (``1/6`` for ``0.16666666666666666``), so six
    faces sum to exactly 1."""
    q = _EXACT.get(p)
    if q is None:
        f = Fraction(p)
        q = f
        for d in (10, 100, 10**3, 10**4, 10**6, 10**9, 10**12, 10**15):
            c = f.limit_denominator(d)
            if float(c) == p:
                q = c
                break
        _EXACT[p] = q
    return q


class _Adapter:
    """An OpenSpiel game as a game for lastbite's engine: the engine's states are keys;
    each key's first ``pyspiel`` state is kept to move from."""

    def __init__(self, game, key, check):
        pyspiel = _pyspiel()
        t = game.get_type()
        name = t.short_name
        if t.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
            raise Error(f"{name} is a game of imperfect information; lastbite solves games of perfect information")
        if t.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise Error(f"{name} has simultaneous moves; lastbite solves games where one player moves at a time")
        if t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
            raise Error(f"{name} samples its chance outcomes instead of listing them; lastbite needs explicit chance")
        self.game = game
        self.players = game.num_players()
        self.key = key
        self.check = check
        self.states = {}
        self.checked = set()
        self.rewards = {}
        self.intermediate = t.reward_model == pyspiel.GameType.RewardModel.REWARDS
        root = game.new_initial_state()
        self.root_key = key(root)
        self.states[self.root_key] = root

    def root(self):
        return self.root_key

    def to_move(self, k):
        # One call: OpenSpiel numbers chance -1 and the end -4.
        p = self.states[k].current_player()
        if p >= 0:
            return p
        if p == _CHANCE_PLAYER:
            return CHANCE
        if p == _TERMINAL_PLAYER:
            return None
        raise Error(f"state {_short(k)} has player {p}, neither a player, chance nor the end")

    def moves(self, k):
        return self.states[k].legal_actions()

    def chance_outcomes(self, k):
        return [(a, exact_probability(p)) for a, p in self.states[k].chance_outcomes()]

    def play(self, k, a):
        child = self.states[k].child(a)
        ck = self.key(child)
        known = self.states.get(ck)
        if known is None:
            self.states[ck] = child
        elif self.check and ck not in self.checked:
            # The first time a key is met again, its two states are compared.
            self.checked.add(ck)
            self._same(known, child, ck)
        if self.intermediate:
            self.rewards[(k, a)] = tuple(child.rewards())
        return ck

    def _same(self, known, other, k):
        """Refuses a key that merges states with different legal actions, movers or
        returns."""
        a_term, b_term = known.is_terminal(), other.is_terminal()
        same = a_term == b_term
        if same and a_term:
            same = known.returns() == other.returns()
        elif same:
            same = known.current_player() == other.current_player() and known.legal_actions() == other.legal_actions()
        if not same:
            raise Error(
                f"the key gives two different states one key {_short(k)}: after {_short(known.history())} "
                f"and after {_short(other.history())}, with different moves or returns (a key must identify the state)"
            )

    def terminal_payoffs(self, k):
        if self.intermediate:
            return (0,) * self.players
        return self.states[k].returns()


class _Rewarded(_Adapter):
    """The adapter for games whose rewards come along the way: each transition's
    rewards are the move's payoffs."""

    def move_payoffs(self, k, a):
        return self.rewards[(k, a)]


def _short(x):
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def solve(game, ties="first", all_outcomes=False, key=None, max_states=300_000_000, check=True):
    """Solves an OpenSpiel game exactly by backward induction.

    ``game`` is a ``pyspiel`` game of perfect information with sequential moves:
    deterministic or with explicit chance (probabilities are made exact by
    :func:`exact_probability`), any number of players, rewards at the end or along the
    way (accrued as move payoffs). ``ties`` is a rule for every player or one per
    player, as for :func:`lastbite.solve` (``"first"``: the first best action in
    ``legal_actions()`` order). ``all_outcomes=True`` also collects the payoff vectors
    of all pure subgame perfect equilibria.

    States are solved once per key: ``key(state)`` must give two states one key only
    when they have the same legal actions, transitions and returns. The default,
    :func:`state_key`, is the history (always sound) or a faster key shown sound for the
    game (:data:`FAST_KEYS`). With ``check`` (the default), each time a key is met again
    its state is compared with the first one's (mover and legal actions, or returns at
    the end), and a key that merges different states is a ``lastbite.Error``.

    Imperfect-information, simultaneous-move and sampled-chance games are refused with
    a ``lastbite.Error``; so is a game graph with a cycle (naming the state).
    """
    key = key or state_key(game)
    t = game.get_type()
    cls = _Rewarded if t.reward_model == _pyspiel().GameType.RewardModel.REWARDS else _Adapter
    adapter = cls(game, key, check)
    inner = _solve(adapter, ties=ties, all=all_outcomes, max_states=max_states)
    return Solution(game, adapter, inner)


class Solution:
    """A solved OpenSpiel game. Methods take ``pyspiel`` states (default: the initial
    state) and give action ids; values are exact (``int`` or ``Fraction``)."""

    def __init__(self, game, adapter, inner):
        self.game = game
        self._adapter = adapter
        self._inner = inner

    def _key(self, state):
        return self._adapter.root_key if state is None else self._adapter.key(state)

    @property
    def state_count(self):
        """The number of distinct states (keys) solved."""
        return self._inner.state_count

    @property
    def outcomes(self):
        """With ``all_outcomes=True``: the payoff vectors of all pure SPE, sorted."""
        return self._inner.outcomes

    def value(self, state=None):
        """The equilibrium payoff vector of the subgame at ``state``: exact expected
        returns from there on."""
        return self._inner.value(self._key(state))

    def best_moves(self, state=None):
        """The action ids that give the equilibrium payoff vector at ``state`` (after the
        tie rule); empty at chance and terminal states."""
        return self._inner.best_moves(self._key(state))

    def best_move(self, state=None):
        """The action the equilibrium plays at ``state`` (None at chance and terminal
        states)."""
        return self._inner.best_move(self._key(state))

    def explain(self, state=None):
        """Every legal action at ``state`` with the payoff vector it leads to, as
        :meth:`lastbite.Solution.explain`, each labelled by OpenSpiel's
        ``action_to_string``; at a chance state, each outcome's probability."""
        state = state if state is not None else self.game.new_initial_state()
        e = self._inner.explain(self._adapter.key(state))
        if e is None:
            return None
        player = state.current_player()
        for m in e["moves"]:
            m["label"] = state.action_to_string(player, m["move"])
        e["state"] = state
        return e

    def path(self, max_steps=1_000_000):
        """The equilibrium play from the initial state, as :meth:`lastbite.Solution.path`
        with ``pyspiel`` states and action ids: a chance state branches into its
        outcomes, each with its probability and the play after it."""

        def walk(state, steps):
            out = []
            for st in steps:
                if st["player"] is CHANCE:
                    outcomes = []
                    for o in st["outcomes"]:
                        outcomes.append({
                            "move": o["move"],
                            "probability": o["probability"],
                            "path": walk(state.child(o["move"]), o["path"]),
                        })
                    out.append({"state": state, "player": CHANCE, "outcomes": outcomes, "reason": st["reason"]})
                    return out
                out.append(dict(st, state=state))
                state = state.child(st["move"])
            return out

        return walk(self.game.new_initial_state(), self._inner.path(max_steps=max_steps))

    def policy(self):
        """The equilibrium as an OpenSpiel policy (``open_spiel.python.policy.Policy``)
        for every player: probability 1 on the equilibrium action."""
        from open_spiel.python import policy as os_policy

        solution = self

        class EquilibriumPolicy(os_policy.Policy):
            """lastbite's subgame perfect equilibrium, as a deterministic policy."""

            def __init__(self):
                super().__init__(solution.game, list(range(solution.game.num_players())))
                self._cache = {}

            def action_probabilities(self, state, player_id=None):
                k = solution._adapter.key(state)
                a = self._cache.get(k)
                if a is None:
                    a = solution._inner.best_move(k)
                    self._cache[k] = a
                return {b: (1.0 if b == a else 0.0) for b in state.legal_actions()}

        return EquilibriumPolicy()

    def __repr__(self):
        return f"openspiel.Solution(game={self.game}, value={self.value()}, state_count={self.state_count})"
