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

import json
from decimal import Decimal
from fractions import Fraction

from . import CHANCE, Error, _lastbite
from . import solve as _solve
from ._api import exact_text

__all__ = ["FAMILIES", "FAST_KEYS", "Solution", "exact_probability", "history_key", "load", "pig_key",
           "register", "solve", "state_key", "string_key", "string_move_key"]


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
        # lastbite's own games (load) give their returns exactly, not as doubles.
        self.exact = getattr(game, "lastbite_exact", False)
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
            self.rewards[(k, a)] = child.exact_rewards() if self.exact else tuple(child.rewards())
        return ck

    def _same(self, known, other, k):
        """Refuses a key that merges states with different legal actions, movers or
        returns."""
        a_term, b_term = known.is_terminal(), other.is_terminal()
        same = a_term == b_term
        if same and a_term:
            # Along-the-way rewards are kept per move; at the end only the terminal
            # returns of a game that pays at the end must agree.
            same = self.intermediate or known.returns() == other.returns()
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
        state = self.states[k]
        return state.exact_returns() if self.exact else state.returns()


class _Rewarded(_Adapter):
    """The adapter for games whose rewards come along the way: each transition's
    rewards are the move's payoffs."""

    def move_payoffs(self, k, a):
        return self.rewards[(k, a)]


def _short(x):
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


def solve(game, ties="first", all=False, key=None, max_states=300_000_000, check=True, all_outcomes=None):
    """Solves an OpenSpiel game exactly by backward induction.

    ``game`` is a ``pyspiel`` game of perfect information with sequential moves:
    deterministic or with explicit chance (probabilities are made exact by
    :func:`exact_probability`), any number of players, rewards at the end or along the
    way (accrued as move payoffs). ``ties`` is a rule for every player or one per
    player, as for :func:`lastbite.solve` (``"first"``: the first best action in
    ``legal_actions()`` order). ``all=True`` also collects the payoff vectors of all
    pure subgame perfect equilibria (``all_outcomes=True`` is the older spelling).

    States are solved once per key: ``key(state)`` must give two states one key only
    when they have the same legal actions, transitions and returns. The default,
    :func:`state_key`, is the history (always sound) or a faster key shown sound for the
    game (:data:`FAST_KEYS`). With ``check`` (the default), each time a key is met again
    its state is compared with the first one's (mover and legal actions, or returns at
    the end), and a key that merges different states is a ``lastbite.Error``.

    Imperfect-information, simultaneous-move and sampled-chance games are refused with
    a ``lastbite.Error``; so is a game graph with a cycle (naming the state).
    """
    if all_outcomes is not None:
        all = all or all_outcomes
    key = key or state_key(game)
    t = game.get_type()
    cls = _Rewarded if t.reward_model == _pyspiel().GameType.RewardModel.REWARDS else _Adapter
    adapter = cls(game, key, check)
    inner = _solve(adapter, ties=ties, all=all, max_states=max_states)
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
        """With ``all=True``: the payoff vectors of all pure SPE, sorted."""
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


# ---------------------------------------------------------------------------------------
# lastbite's families as OpenSpiel games. The game logic is the library's
# (``lastbite.api::game``): these classes only relay OpenSpiel's calls to it.

#: The families :func:`load` makes into OpenSpiel games, with their OpenSpiel names.
FAMILIES = {
    "dinner": "lastbite_dinner",
    "subtraction": "lastbite_subtraction",
    "tokens": "lastbite_tokens",
    "cookie": "lastbite_cookie",
}

_LONG_NAMES = {
    "dinner": "lastbite: Ethiopian Dinner",
    "subtraction": "lastbite: self-interest cumulative subtraction game",
    "tokens": "lastbite: Token Dollars",
    "cookie": "lastbite: the cookie game",
}

_REGISTERED = {}


def _spec(family):
    """OpenSpiel's parameter specification from the library's game fields: each
    field's default, absent ones as empty text."""
    fields = json.loads(_lastbite.game_fields(family))
    return {name: ("" if value is None else value) for name, value in fields.items()}


def _game_type(family, utility, rewards):
    pyspiel = _pyspiel()
    T = pyspiel.GameType
    return T(
        short_name=FAMILIES[family],
        long_name=_LONG_NAMES[family],
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.DETERMINISTIC,
        information=T.Information.PERFECT_INFORMATION,
        utility={
            "zero_sum": T.Utility.ZERO_SUM,
            "constant_sum": T.Utility.CONSTANT_SUM,
            "general_sum": T.Utility.GENERAL_SUM,
        }[utility],
        reward_model=T.RewardModel.REWARDS if rewards else T.RewardModel.TERMINAL,
        max_num_players=26,
        min_num_players=1,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=_spec(family),
    )


def _request(params):
    """OpenSpiel's parameters as the library's request: empty text is an absent field."""
    return json.dumps({k: v for k, v in params.items() if v != ""})


def _game_class(family):
    pyspiel = _pyspiel()

    class State(pyspiel.State):
        """A position of a lastbite game; every call goes to the library."""

        def __init__(self, game, position):
            super().__init__(game)
            self._rules = game._rules
            self._pos = position

        def current_player(self):
            p = self._pos.to_move()
            return pyspiel.PlayerId.TERMINAL if p is None else p

        def _legal_actions(self, player):
            return self._rules.actions(self._pos)

        def _apply_action(self, action):
            self._pos = self._rules.apply(self._pos, action)

        def _action_to_string(self, player, action):
            text = self._rules.action_text(self._pos, action)
            return text if text is not None else f"action {action}"

        def is_terminal(self):
            return self._pos.is_terminal()

        def returns(self):
            return self._pos.float_returns()

        def rewards(self):
            return self._pos.float_rewards()

        def exact_returns(self):
            """Each player's return so far, exact (``int`` or ``Fraction``)."""
            return self._pos.returns()

        def exact_rewards(self):
            """What the last action paid each player, exact."""
            return self._pos.rewards()

        def lastbite_key(self):
            """The library's key for the state (see :func:`solve`)."""
            return self._rules.key(self._pos)

        def __str__(self):
            return self._rules.state_text(self._pos)

    class Game(pyspiel.Game):
        """A lastbite game for OpenSpiel, made by the library from the parameters."""

        #: lastbite's solver reads returns exactly and keys states by the library's key.
        lastbite_exact = True

        def __init__(self, params=None):
            given = dict(params or {})
            self._rules = _lastbite.game(family, _request(dict(_spec(family), **given)))
            info = json.loads(self._rules.info())
            self.lastbite_info = info
            utility_sum = info["utility_sum"]
            game_info = pyspiel.GameInfo(
                num_distinct_actions=info["actions"],
                max_chance_outcomes=0,
                num_players=info["players"],
                min_utility=float(Fraction(info["min_return"])),
                max_utility=float(Fraction(info["max_return"])),
                utility_sum=None if utility_sum is None else float(Fraction(utility_sum)),
                max_game_length=info["max_length"],
            )
            game_type = _game_type(family, info["utility"], info["rewards_along_the_way"])
            super().__init__(game_type, game_info, given)

        def new_initial_state(self):
            return State(self, self._rules.start())

        @staticmethod
        def lastbite_key(state):
            return state.lastbite_key()

    # Module-level names, so that pickle finds the classes (see __getattr__).
    Game.__name__ = Game.__qualname__ = f"{family.capitalize()}Game"
    State.__name__ = State.__qualname__ = f"{family.capitalize()}State"
    globals()[Game.__name__] = Game
    globals()[State.__name__] = State
    return Game


def __getattr__(name):
    # A pickled state names its class (``lastbite.openspiel.DinnerState``): made on
    # first use, by registering the families.
    if name in {f"{f.capitalize()}{kind}" for f in FAMILIES for kind in ("Game", "State")}:
        register()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register():
    """Registers lastbite's four families with OpenSpiel (once), so that
    ``pyspiel.load_game("lastbite_dinner(morsels=1:2 2:3 3:1,order=ABA)")`` and the
    like work; :func:`load` calls it."""
    pyspiel = _pyspiel()
    for family, name in FAMILIES.items():
        if family in _REGISTERED:
            continue
        cls = _game_class(family)
        # The registered type is the family's usual one; each instance declares its own
        # (a zero-sum subtraction game, say) from the library's description.
        utility = {"cookie": "zero_sum", "tokens": "constant_sum"}.get(family, "general_sum")
        pyspiel.register_game(_game_type(family, utility, family in ("dinner", "subtraction")), cls)
        _REGISTERED[family] = cls


def _param(name, value):
    """A Python value as an OpenSpiel parameter (OpenSpiel's game strings cannot hold
    commas): rows of numbers as ``"1:2 2:3"``, lists as ``"1 2 3"``, exact numbers as
    text (floats at their exact binary value)."""
    if isinstance(value, bool) or isinstance(value, (int, str)):
        return value
    if isinstance(value, (Fraction, float, Decimal)):
        return str(exact_text(value))
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        parts = []
        for v in value:
            if isinstance(v, (list, tuple)):
                parts.append(":".join(str(exact_text(x)) for x in v))
            else:
                parts.append(str(exact_text(v)))
        return " ".join(parts)
    raise Error(f"parameter {name}: {value!r} is not a number, text, a list or rows of numbers")


def load(family, **params):
    """One of lastbite's families as an OpenSpiel game (a ``pyspiel.Game``, registered
    under :data:`FAMILIES`' names, so ``pyspiel.load_game`` loads it too).

    ``family`` is ``"dinner"``, ``"subtraction"``, ``"tokens"`` or ``"cookie"``; the
    parameters are the family's: ``morsels`` (rows like ``[(1, 2), (2, 3)]`` or text
    ``"1:2 2:3"``), ``order``, ``first``, ``discount``, ``before`` for a dinner (an action
    is the index of the morsel eaten; each bite pays its utilities along the way);
    ``set``, ``heap``, ``zero_sum`` for a subtraction game (an action is the number
    taken); ``stacks`` or ``values``, ``players``, ``clock`` for Token Dollars (an
    action is the position, from 1, of the mover's token; stacks are paid at the end);
    ``components`` for the cookie game (an action is the days left of the cookie eaten;
    the last to eat wins, +1 against -1). Returns are the papers' scores as doubles;
    ``state.exact_returns()`` gives them exactly, and :func:`solve` uses those.

    >>> import lastbite.openspiel as lo
    >>> game = lo.load("dinner", morsels=[(1, 2), (2, 3), (3, 1)], order="ABA")
    >>> game.num_players(), game.num_distinct_actions()
    (2, 3)
    >>> lo.solve(game).value()
    (5, 2)
    """
    if family not in FAMILIES:
        raise Error(f"family {family!r} has no OpenSpiel game (one of {', '.join(FAMILIES)})")
    register()
    pyspiel = _pyspiel()
    return pyspiel.load_game(FAMILIES[family], {k: _param(k, v) for k, v in params.items()})
