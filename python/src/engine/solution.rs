//! A solved Python game (`Solution`) and the functions that solve, verify and export one.

use lastbite::engine::{self, Budget, Game, Player, Reason, TieBreak, Ties, Verdict, CHANCE};
use lastbite::rational::Rational;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyList, PyTuple};

use super::values::{chance_marker, from_rational, player_obj, short, vector};
use super::{Id, PyGame, DEAD};
use crate::error::Error;

/// One rule for all or per player as text (`"friendly"`, `"A=friendly,B=last"`: the
/// library's one parser), a list (one per player), or a dict from player index or name.
fn parse_ties(game: &PyGame, ties: &Bound<'_, PyAny>) -> PyResult<Ties> {
    let rule = |v: &Bound<'_, PyAny>| -> PyResult<TieBreak> {
        let s: String = v.extract()?;
        s.parse::<TieBreak>()
            .map_err(|e| Error::new_err(e.to_string()))
    };
    if ties.is_instance_of::<pyo3::types::PyString>() {
        let spec: String = ties.extract()?;
        return Ties::parse_named(&spec, game.players, &game.names)
            .map_err(|e| Error::new_err(e.to_string()));
    }
    let mut rules = vec![TieBreak::First; game.players];
    if let Ok(d) = ties.cast::<PyDict>() {
        for (k, v) in d.iter() {
            let p = match k.extract::<usize>() {
                Ok(p) if p < game.players => p,
                _ => {
                    let name: String = k.str()?.to_string();
                    game.names.iter().position(|n| *n == name).ok_or_else(|| {
                        Error::new_err(format!(
                            "ties names no player of this game: {} (its players: {})",
                            short(&k),
                            game.names.join(", ")
                        ))
                    })?
                }
            };
            rules[p] = rule(&v)?;
        }
        return Ok(Ties::per_player(rules));
    }
    let list: Vec<Bound<'_, PyAny>> = ties.try_iter()?.collect::<PyResult<_>>()?;
    if list.len() != game.players {
        return Err(Error::new_err(format!(
            "ties has {} rules; the game has {} players (give one rule, one per player, or a dict)",
            list.len(),
            game.players
        )));
    }
    for (p, v) in list.iter().enumerate() {
        rules[p] = rule(v)?;
    }
    Ok(Ties::per_player(rules))
}

/// The engine's errors and the game's own exceptions, after a run.
fn finish<T>(game: &PyGame, r: Result<T, engine::EngineError>) -> PyResult<T> {
    if let Some(e) = game.take_error() {
        return Err(e);
    }
    r.map_err(|e| match e {
        engine::EngineError::TooManyStates { .. } => {
            Error::new_err(format!("{e} (raise max_states to allow it)"))
        }
        e => Error::new_err(e.to_string()),
    })
}

/// A solved game.
#[pyclass(unsendable, module = "lastbite")]
pub struct Solution {
    inner: Option<engine::Solution<'static, PyGame>>,
    game: *mut PyGame,
    outcomes: Option<Vec<Vec<Rational>>>,
}

impl Drop for Solution {
    fn drop(&mut self) {
        // The solution borrows the game: drop it first, then the game it was leaked from.
        self.inner = None;
        // SAFETY: `game` came from Box::leak in `solve` and nothing else refers to it.
        unsafe { drop(Box::from_raw(self.game)) }
    }
}

impl Solution {
    fn sol(&self) -> &engine::Solution<'static, PyGame> {
        self.inner.as_ref().expect("a live solution")
    }
    fn game(&self) -> &PyGame {
        // SAFETY: alive until drop.
        unsafe { &*self.game }
    }
    /// The id of a state the solve reached (default: the root).
    fn state(&self, state: Option<Bound<'_, PyAny>>) -> PyResult<Id> {
        match state {
            None => Ok(self.game().root()),
            Some(s) => self.game().find(&s)?.ok_or_else(|| {
                Error::new_err(format!(
                    "state {} is not reachable from the root",
                    short(&s)
                ))
            }),
        }
    }
    fn moves<'py>(&self, py: Python<'py>, s: Id, ms: &[Id]) -> Vec<Bound<'py, PyAny>> {
        ms.iter()
            .map(|&m| self.game().move_obj(py, s, m).to_owned())
            .collect()
    }

    /// Equilibrium play as Python: a list of step dicts, ending with a chance dict.
    fn play_list<'py>(
        &self,
        py: Python<'py>,
        play: &engine::PlayOf<PyGame>,
    ) -> PyResult<Bound<'py, PyList>> {
        let game = self.game();
        let out = PyList::empty(py);
        for st in &play.steps {
            let d = PyDict::new(py);
            d.set_item("state", game.obj(py, st.state))?;
            d.set_item("player", st.mover)?;
            d.set_item("move", game.move_obj(py, st.state, st.mv))?;
            d.set_item("best_moves", self.moves(py, st.state, &st.optimal))?;
            d.set_item("reason", reason_text(st.reason))?;
            out.append(d)?;
        }
        if let Some(c) = &play.chance {
            let d = PyDict::new(py);
            d.set_item("state", game.obj(py, c.state))?;
            d.set_item("player", chance_marker(py))?;
            let outcomes = PyList::empty(py);
            for b in &c.outcomes {
                let o = PyDict::new(py);
                o.set_item("move", game.move_obj(py, c.state, b.mv))?;
                o.set_item("probability", from_rational(py, &b.probability)?)?;
                o.set_item("path", self.play_list(py, &b.play)?)?;
                outcomes.append(o)?;
            }
            d.set_item("outcomes", outcomes)?;
            d.set_item("reason", reason_text(Reason::Chance))?;
            out.append(d)?;
        }
        Ok(out)
    }
}

fn reason_text(r: Reason) -> String {
    r.to_string()
}

#[pymethods]
impl Solution {
    /// The equilibrium payoff vector at `state` (default: the root), as a tuple of int or
    /// Fraction.
    #[pyo3(signature = (state = None))]
    fn value<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let s = self.state(state)?;
        match self.sol().value(&s) {
            Some(v) => vector(py, v),
            None => Err(Error::new_err(format!(
                "state {} is not reachable from the root",
                self.game().state_text(&s)
            ))),
        }
    }

    /// The moves that lead to the equilibrium payoff vector at `state` (after the tie
    /// rule), in the game's move order; empty at a terminal state.
    #[pyo3(signature = (state = None))]
    fn best_moves<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let s = self.state(state)?;
        let moves = match self.sol().choice(&s) {
            Some(c) => self.moves(py, s, &c.optimal),
            None => Vec::new(),
        };
        PyList::new(py, moves)
    }

    /// The move the equilibrium plays at `state` (None at a terminal state).
    #[pyo3(signature = (state = None))]
    fn best_move<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let s = self.state(state)?;
        Ok(self
            .sol()
            .choice(&s)
            .map(|c| self.game().move_obj(py, s, c.selected).to_owned()))
    }

    /// The equilibrium path from the root: a list of dicts with `state`, `player`,
    /// `move`, `best_moves` and `reason`; in a game with chance, a chance state on the
    /// path is a dict with `state`, `player` (`lastbite.CHANCE`) and `outcomes`, each
    /// with `move`, `probability` and the `path` after it (at most `max_steps` steps and
    /// branches in all).
    #[pyo3(signature = (max_steps = 1_000_000))]
    fn path<'py>(&self, py: Python<'py>, max_steps: u128) -> PyResult<Bound<'py, PyList>> {
        let game = self.game();
        let play = self
            .sol()
            .play_tree(game.root(), max_steps)
            .map_err(|e| match e {
                engine::EngineError::TreeTooLarge { .. } => Error::new_err(format!(
                    "equilibrium play branches at chance states into more than {max_steps} steps (raise max_steps, or follow it with explain and best_move)"
                )),
                e => Error::new_err(e.to_string()),
            })?;
        self.play_list(py, &play)
    }

    /// Every legal move at `state` (default: the root) with the payoff vector it leads
    /// to under equilibrium play, and the rule that decided: a dict with `state`,
    /// `player`, `rule`, `moves` (each `move`, `label`, `payoffs`, `best_for_mover`,
    /// `optimal`, `chosen`) and `reason`; None at a terminal state.
    #[pyo3(signature = (state = None))]
    fn explain<'py>(
        &self,
        py: Python<'py>,
        state: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let s = self.state(state)?;
        let Some(e) = self.sol().explain(&s) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("state", self.game().obj(py, s))?;
        d.set_item("player", player_obj(py, e.mover)?)?;
        d.set_item("rule", e.rule.map(TieBreak::name))?;
        let lines = PyList::empty(py);
        for l in e.lines {
            let m = PyDict::new(py);
            m.set_item("move", self.game().move_obj(py, s, l.mv))?;
            m.set_item("label", l.label)?;
            m.set_item("payoffs", vector(py, &l.value)?)?;
            if let Some(p) = &l.probability {
                m.set_item("probability", from_rational(py, p)?)?;
            }
            m.set_item("best_for_mover", l.best_for_mover)?;
            m.set_item("optimal", l.optimal)?;
            m.set_item("chosen", l.selected)?;
            lines.append(m)?;
        }
        d.set_item("moves", lines)?;
        d.set_item("reason", reason_text(e.reason))?;
        Ok(Some(d))
    }

    /// The number of states solved (each once, however many paths reach it).
    #[getter]
    fn state_count(&self) -> u64 {
        self.sol().states()
    }

    /// The number of states solved, as `len(solution)`.
    fn __len__(&self) -> usize {
        self.sol().states() as usize
    }

    /// Every solved state (each once), breadth first from the root, children in the
    /// game's move order: an iterator over the game's own state objects.
    fn states<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let list = PyList::new(
            py,
            self.sol()
                .solved_states()
                .into_iter()
                .map(|s| self.game().obj(py, s).to_owned()),
        )?;
        list.as_any().try_iter()
    }

    /// Every non-terminal state's equilibrium move: a dict from state to move, in the
    /// order of `states()` (the whole strategy profile the solve chose; `verify` accepts
    /// it back).
    fn policy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in self.sol().solved_states() {
            if let Some(c) = self.sol().choice(&s) {
                d.set_item(
                    self.game().obj(py, s),
                    self.game().move_obj(py, s, c.selected),
                )?;
            }
        }
        Ok(d)
    }

    /// With `all_outcomes=True`: the payoff vectors of all pure SPE, sorted; else None.
    #[getter]
    fn outcomes<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(all) = &self.outcomes else {
            return Ok(None);
        };
        let items: Vec<Bound<'py, PyTuple>> =
            all.iter().map(|v| vector(py, v)).collect::<PyResult<_>>()?;
        Ok(Some(PyList::new(py, items)?))
    }

    /// The tie rules solved under, as text (`first`, or `A=friendly,B=last`).
    #[getter]
    fn ties(&self) -> String {
        self.sol().ties().describe()
    }

    /// The drawn game tree (`lastbite.draw_tree` wraps it): the tree report as JSON.
    #[pyo3(signature = (horizontal, values, spe, draw_nodes, title, max_states))]
    fn tree_json(
        &self,
        horizontal: bool,
        values: bool,
        spe: bool,
        draw_nodes: u64,
        title: &str,
        max_states: u64,
    ) -> PyResult<String> {
        let fields = lastbite::api::drawing::TreeFields::new(horizontal, values, spe, draw_nodes)
            .map_err(|e| Error::new_err(e.to_string()))?;
        let ties = self.sol().ties().describe();
        let report =
            lastbite::api::drawing::draw(self.sol(), &fields, Budget { max_states }, title, &ties);
        if let Some(e) = self.game().take_error() {
            return Err(e);
        }
        let report = report.map_err(|e| Error::new_err(e.to_string()))?;
        Ok(serde_json::to_string(&report).expect("reports serialise"))
    }

    /// The solution in a notebook: its value, tie rules, size and equilibrium play.
    fn _repr_html_(&self) -> String {
        use lastbite::svg::escape;
        let game = self.game();
        let sol = self.sol();
        let value: Vec<String> = sol
            .root_value()
            .iter()
            .map(|v| game.payoff_text(v))
            .collect();
        let steps = sol.path();
        let shown = 60;
        let mut play: Vec<String> = steps
            .iter()
            .take(shown)
            .map(|s| {
                format!(
                    "{}: {}",
                    escape(&game.player_name(s.mover)),
                    escape(&game.move_label(&s.state, &s.mv))
                )
            })
            .collect();
        if steps.len() > shown {
            play.push(format!("... {} more moves", steps.len() - shown));
        }
        let end = if sol
            .explain(
                &steps
                    .last()
                    .map_or(game.root(), |s| game.play(&s.state, &s.mv)),
            )
            .is_some_and(|e| e.mover == CHANCE)
        {
            " (then a chance move: see path())"
        } else {
            ""
        };
        let names: Vec<String> = (0..game.players())
            .map(|p| escape(&game.player_name(p)))
            .collect();
        format!(
            "<div class=\"lastbite-solution\"><table><caption style=\"text-align:left\"><b>lastbite Solution</b></caption>\
             <tr><th style=\"text-align:left\">players</th><td style=\"text-align:left\">{}</td></tr>\
             <tr><th style=\"text-align:left\">value</th><td style=\"text-align:left\">({})</td></tr>\
             <tr><th style=\"text-align:left\">tie rules</th><td style=\"text-align:left\">{}</td></tr>\
             <tr><th style=\"text-align:left\">states solved</th><td style=\"text-align:left\">{}</td></tr>\
             <tr><th style=\"text-align:left\">equilibrium play</th><td style=\"text-align:left\">{}{}</td></tr>\
             </table></div>",
            names.join(", "),
            escape(&value.join(", ")),
            escape(&sol.ties().describe()),
            sol.states(),
            if play.is_empty() { "(the root is terminal)".to_string() } else { play.join(" &rarr; ") },
            end
        )
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let values = self.sol().root_value();
        // Python will not write an int of over 4,300 digits; such a payoff is shown by
        // its length instead of failing the repr.
        let value = match vector(py, values)?.repr() {
            Ok(r) => r.to_string(),
            Err(_) => {
                let parts: Vec<String> = values
                    .iter()
                    .map(|v| {
                        let t = v.to_string();
                        if t.len() > 60 {
                            format!("<a number of {} digits>", t.len())
                        } else {
                            t
                        }
                    })
                    .collect();
                format!("({})", parts.join(", "))
            }
        };
        Ok(format!(
            "Solution(value={value}, state_count={})",
            self.sol().states()
        ))
    }
}

/// The memory, in GiB, a game written in Python may take as its states are stored,
/// unless the call gives another (`memory_gib`).
pub const DEFAULT_GAME_MEMORY_GIB: u64 = 4;

/// Solves a game written in Python by backward induction.
#[pyfunction]
#[pyo3(signature = (game, ties = None, all_outcomes = false, max_states = Budget::DEFAULT_MAX_STATES, memory_gib = DEFAULT_GAME_MEMORY_GIB))]
pub fn solve(
    game: &Bound<'_, PyAny>,
    ties: Option<Bound<'_, PyAny>>,
    all_outcomes: bool,
    max_states: u64,
    memory_gib: u64,
) -> PyResult<Solution> {
    let g = PyGame::new(game)?.limited(max_states, memory_gib);
    let ties = match ties {
        Some(t) => parse_ties(&g, &t)?,
        None => Ties::uniform(TieBreak::First, g.players),
    };
    let budget = Budget { max_states };
    let leaked: &'static mut PyGame = Box::leak(Box::new(g));
    let ptr: *mut PyGame = leaked;
    // SAFETY: the Solution below owns the leaked game and frees it after the solution.
    let game_ref: &'static PyGame = unsafe { &*ptr };
    let mut holder = Solution {
        inner: None,
        game: ptr,
        outcomes: None,
    };
    let sol = engine::solve(game_ref, &ties, budget);
    holder.inner = Some(finish(game_ref, sol)?);
    if all_outcomes {
        let all = engine::all_outcomes(game_ref, budget);
        holder.outcomes = Some(finish(game_ref, all)?);
    }
    Ok(holder)
}

/// Checks a strategy profile for subgame perfection by one-shot deviations.
#[pyfunction]
#[pyo3(signature = (game, strategy, max_states = Budget::DEFAULT_MAX_STATES, memory_gib = DEFAULT_GAME_MEMORY_GIB))]
pub fn verify<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    strategy: &Bound<'py, PyAny>,
    max_states: u64,
    memory_gib: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let g = PyGame::new(game)?.limited(max_states, memory_gib);
    let call_strategy = |s: &Id, p: Player| -> Id {
        Python::attach(|py| {
            let state = g.obj(py, *s);
            let r = if let Ok(d) = strategy.cast::<PyDict>() {
                d.get_item(state).ok().flatten()
            } else {
                match strategy.call1((&state, p)) {
                    Ok(m) => Some(m),
                    Err(e) => {
                        g.fail(e);
                        None
                    }
                }
            };
            match r {
                // A move that is not legal here becomes `DEAD`, which the engine refuses
                // by naming the state.
                Some(m) => g.move_index(*s, &m),
                None => {
                    if !g.failed() {
                        g.fail(Error::new_err(format!(
                            "the strategy gives no move at state {}",
                            short(&state)
                        )));
                    }
                    DEAD
                }
            }
        })
    };
    let verdict = engine::verify(&g, Budget { max_states }, call_strategy);
    let verdict = finish(&g, verdict)?;
    let d = PyDict::new(py);
    match verdict {
        Verdict::SubgamePerfect { states } => {
            d.set_item("subgame_perfect", true)?;
            // As the verify commands' reports put it: `checked.states`.
            let checked = PyDict::new(py);
            checked.set_item("states", states)?;
            d.set_item("checked", checked)?;
        }
        Verdict::Deviation(dev) => {
            d.set_item("subgame_perfect", false)?;
            d.set_item("state", g.obj(py, dev.state))?;
            d.set_item("player", dev.player)?;
            d.set_item("prescribed", g.move_obj(py, dev.state, dev.prescribed))?;
            d.set_item("better", g.move_obj(py, dev.state, dev.better))?;
            d.set_item("gain", from_rational(py, &dev.gain)?)?;
        }
    }
    Ok(d)
}

/// Writes the game tree as a Gambit `.efg` file.
#[pyfunction]
#[pyo3(signature = (game, path, title = "lastbite game", max_nodes = 1_000_000))]
pub fn write_efg(
    game: &Bound<'_, PyAny>,
    path: &str,
    title: &str,
    max_nodes: u128,
) -> PyResult<()> {
    // A tree has at least as many nodes as distinct states.
    let g = PyGame::new(game)?
        .limited(
            u64::try_from(max_nodes).unwrap_or(u64::MAX),
            DEFAULT_GAME_MEMORY_GIB,
        )
        .states_named("max_nodes");
    let mut buf = Vec::new();
    let r = engine::write_efg(&g, title, max_nodes, &mut buf);
    finish(&g, r)?;
    lastbite::files::write_bytes(std::path::Path::new(path), &buf)
        .map_err(|e| Error::new_err(e.to_string()))
}
