//! `tokens` commands: Token Dollars, see [`crate::games::tokens`].
//!
//! The family's files: requests and the commands' functions here; reports in
//! `report.rs`, their text in `text.rs`, the game to play move by move in `game.rs`. Nothing here computes a game: the work is
//! [`crate::games::tokens`]'s; this module turns requests into its validated types and
//! its results into reports.

mod game;
mod report;
mod sweep;
mod text;

pub use game::{game, GameRequest};
pub use report::{
    AnywhereChoice, AnywhereReport, ContinuousReport, DiscreteReport, GridReport, IntervalReport,
    PlacementReport, SeatsReport, SeatsRow, SolveReport,
};
pub use sweep::{AnywherePartial, AnywherePlan, AnywhereSweep};

use crate::api::cost::{Estimate, Work, PLACEMENTS, TOKEN_STATES};
use crate::api::input::{request, Letter};
use crate::api::{Control, Error};
use crate::exact::Exact;
use crate::games::tokens::{
    all_outcomes, continuous, explain, limit_intervals, placements_bound, refinements, solve_until,
    Arena, Board, Placed, TokenTies, MAX_REFINEMENT,
};

/// The default limit on memoised sets of taken stacks (a hash-map entry each, about
/// 100 bytes: 2 * 10^7 sets is about 2 GiB).
pub const DEFAULT_MAX_STATES: u64 = 20_000_000;

/// What the games on grids point to: the continuous game itself, solved exactly.
const CONTINUOUS_GAME: &str =
    "each grid is its own game; `tokens anywhere` solves the continuous game exactly";

/// The number of sets of at most `players` taken positions out of `positions`
/// (saturating): the states the solver memoises.
pub fn state_count(positions: usize, players: usize) -> u128 {
    let mut total: u128 = 0;
    let mut c: u128 = 1; // C(positions, j)
    for j in 0..=players.min(positions) {
        total = total.saturating_add(c);
        if total == u128::MAX {
            break;
        }
        c = c.saturating_mul((positions - j) as u128) / (j as u128 + 1);
    }
    total
}

/// The search's cost model: each memoised set of taken positions, a step per player and
/// a thirty-fifth of a step per stack (measured from 40 to 2,000 stacks and 2 to 5
/// players: a set's payoffs score every stack; the empty positions between stacks of a
/// fine grid add sets, not scoring).
fn search_cost(positions: usize, stacks: usize, players: usize) -> Estimate {
    let states = state_count(positions, players) as f64;
    let each = players.max(1) as f64 + stacks as f64 / 35.0;
    Estimate::new(Work::count(states * each), TOKEN_STATES)
}

fn check_budget(positions: usize, players: usize, max_states: u64) -> Result<(), Error> {
    let states = state_count(positions, players);
    if states > max_states as u128 {
        return Err(Error::Engine(crate::engine::EngineError::TooManyStates {
            states,
            budget: max_states,
            bytes: states.saturating_mul(100),
        }));
    }
    Ok(())
}

request! {
    /// `tokens`: solve a Token Dollars game.
    SolveRequest {
        /// Stacks worth $1..$M at positions 1..M (unless `values`).
        #[schemars(extend("x-conflicts" = ["values"]))]
        #[schemars(extend("x-budget" = "max_states"))]
        stacks: usize = 10,
        /// Stack values at positions 1, 2, ... (exact, non-negative), e.g. `"1,2,3.5"`.
        #[serde(deserialize_with = "crate::api::forms::optional_list")]
        #[schemars(with = "Option<crate::api::forms::ListForms<crate::number::exact::Exact>>")]
        values: Option<String> = None,
        /// Number of players (placing in turn).
        #[schemars(extend("x-budget" = "max_states"))]
        players: usize = 3,
        /// Stacks on a clock (circular distance) instead of a line.
        clock: bool = false,
        /// lowest (alias first: the stack nearest the line's start, as the Riddler's
        /// reference program breaks ties), highest (alias last), friendly, antagonistic.
        /// The older spelling `all` means lowest with `all`.
        #[schemars(extend("x-open" = true))]
        ties: String = "lowest".into(),
        /// Also list the payoff vectors of all pure subgame perfect equilibria.
        all: bool = false,
        /// Tokens on grids: solve the games on grids of step 1, 1/2, ... 1/grid (each
        /// grid's own game: evidence about the continuous game, not its answer, which
        /// `tokens anywhere` computes exactly). Older spelling: `continuous`.
        #[serde(alias = "continuous")]
        #[schemars(extend("x-aliases" = ["continuous"]))]
        on_grids: bool = false,
        /// The finest grid refinement (a power of two up to 64) for `on_grids`.
        #[schemars(extend("x-requires" = "on_grids"))]
        #[schemars(extend("x-budget" = "max_seconds"), range(max = MAX_REFINEMENT))]
        grid: usize = 8,
        /// Refuse games with more memoised sets of taken stacks than this.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = DEFAULT_MAX_STATES,
        /// Explain the next player's choice after these placements (stacks in turn order,
        /// e.g. `[3, 9]`): every free stack with the payoffs it leads to (discrete game).
        #[schemars(extend("x-budget" = "none"))]
        #[serde(deserialize_with = "crate::api::forms::optional_items")]
        #[schemars(with = "Option<crate::api::forms::ListForms<usize>>")]
        at: Option<Vec<usize>> = None,
        /// Also draw the board (discrete game): the equilibrium's tokens, or those of
        /// `at`, and each stack's territory ([`DiscreteReport::svg`]).
        picture: bool = false,
    }
}

fn stack_values(req: &SolveRequest) -> Result<Vec<Exact>, Error> {
    match &req.values {
        Some(v) => exact_list("values", v, "stack value"),
        None => Ok((1..=req.stacks as i128).map(Exact::integer).collect()),
    }
}

/// Refuses stack values given together with a number of stacks (10, the default, stands
/// for none given).
fn check_stacks(values: &Option<String>, stacks: usize) -> Result<(), Error> {
    if values.is_some() && stacks != 10 {
        return Err(Error::combination(
            "values",
            "give either stack values or a number of stacks",
        ));
    }
    Ok(())
}

/// The discrete board of a request's board fields: the stack values, or $1..$stacks.
fn board_of(
    values: &Option<String>,
    stacks: usize,
    players: usize,
    clock: bool,
) -> Result<Board, Error> {
    Ok(match values {
        Some(v) => Board::parse_values(v, players, clock)?,
        None => Board::dollars(stacks, players, clock)?,
    })
}

/// Solves a Token Dollars game: the discrete game, or with `continuous` the game on
/// ever finer grids.
pub fn solve(req: &SolveRequest, ctl: &Control) -> Result<SolveReport, Error> {
    check_stacks(&req.values, req.stacks)?;
    if req.values.is_none() {
        // The dollar stacks are made from the count: refused over the budget first, at
        // the finest grid's positions (the most states: a budget raised to the number
        // named then passes every grid).
        let positions = match (req.on_grids, refinements(req.grid)) {
            (true, Ok(_)) => req.stacks.saturating_sub(1).saturating_mul(req.grid) + 1,
            _ => req.stacks,
        };
        check_budget(positions, req.players, req.max_states)?;
    }
    if req.on_grids {
        solve_on_grids(req, ctl)
    } else {
        solve_discrete(req, ctl)
    }
}

fn solve_on_grids(req: &SolveRequest, ctl: &Control) -> Result<SolveReport, Error> {
    let discrete_only = [
        (
            "all",
            req.all,
            "lists the discrete game's outcomes (stacks), not the continuous one's",
        ),
        (
            "at",
            req.at.is_some(),
            "explains the discrete game (stacks), not the continuous one",
        ),
        (
            "picture",
            req.picture,
            "draws the discrete game's board (stacks), not the continuous one",
        ),
    ];
    if let Some((field, _, why)) = discrete_only.into_iter().find(|f| f.1) {
        return Err(Error::combination(field, why));
    }
    let ks = refinements(req.grid).map_err(|_| {
        Error::invalid(
            "grid",
            req.grid,
            format!("use a power of two up to {MAX_REFINEMENT}"),
        )
    })?;
    if !req.ties.eq_ignore_ascii_case("lowest") {
        return Err(Error::combination(
            "ties",
            "the continuous game uses the lowest-location tie rule",
        ));
    }
    let values = stack_values(req)?;
    // The finest grid has (M - 1) * grid + 1 positions.
    let positions = values.len().saturating_sub(1) * req.grid + 1;
    check_budget(positions, req.players, req.max_states)?;
    // Each grid's game, the finest costing the most (each halving about doubles it).
    let grids: Estimate = ks
        .iter()
        .map(|&k| {
            search_cost(
                values.len().saturating_sub(1) * k + 1,
                values.len(),
                req.players,
            )
        })
        .reduce(Estimate::plus)
        .unwrap_or_else(|| search_cost(1, 1, 1));
    ctl.admit(grids)?;
    let plays = continuous(&values, req.players, req.clock, &ks, ctl)?;
    let limits = limit_intervals(&plays);
    let finest = plays.last().expect("at least one grid");
    Ok(SolveReport::Continuous(ContinuousReport {
        stacks: values.len(),
        players: req.players,
        clock: req.clock,
        on_grids: true,
        see_also: CONTINUOUS_GAME.into(),
        moves: finest.moves.clone(),
        payoffs: finest.payoffs.clone(),
        grids: plays.iter().map(GridReport::new).collect(),
        best_response_intervals: limits,
    }))
}

fn solve_discrete(req: &SolveRequest, ctl: &Control) -> Result<SolveReport, Error> {
    if req.grid != 8 {
        return Err(Error::combination(
            "grid",
            "a grid refinement needs the continuous game",
        ));
    }
    let b = board_of(&req.values, req.stacks, req.players, req.clock)?;
    let ties_all = req.ties.trim().eq_ignore_ascii_case("all");
    let all = req.all || ties_all;
    let rule = match ties_all {
        true => TokenTies::Lowest,
        false => TokenTies::parse(&req.ties).ok_or_else(|| {
            Error::invalid(
                "ties",
                &req.ties,
                "expected lowest, highest, first, last, friendly or antagonistic",
            )
        })?,
    };
    check_budget(b.positions(), b.players(), req.max_states)?;
    ctl.admit(
        search_cost(b.positions(), b.positions(), b.players()).times(Work::count(if all {
            3.0
        } else {
            1.0
        })),
    )?;
    if all && req.at.is_some() {
        return Err(Error::combination("at", "explains one tie rule, not all"));
    }
    let at = req
        .at
        .as_ref()
        .map(|at| Placed::new(&b, at).map_err(|e| Error::invalid("at", format!("{at:?}"), e)))
        .transpose()?;
    let play = solve_until(&b, rule, ctl)?;
    let real = |v: &[i64]| -> Vec<Exact> { v.iter().map(|&x| b.real(x)).collect() };
    let tie_rule = req.ties.to_ascii_lowercase();
    let placed = at.as_ref().map_or(play.moves.as_slice(), Placed::as_slice);
    Ok(SolveReport::Discrete(DiscreteReport {
        stacks: b.stacks(),
        players: b.players(),
        clock: b.clock(),
        moves: play.moves.clone(),
        payoffs: real(&play.payoffs),
        indifferent_after: play.ties.clone(),
        outcomes: all.then(|| all_outcomes(&b).iter().map(|v| real(v)).collect()),
        explanation: at.as_ref().map(|at| {
            explain(&b, rule, at)
                .into_iter()
                .map(|l| PlacementReport::new(&b, l))
                .collect()
        }),
        territory: at.as_ref().map(|at| {
            b.territory(at.as_slice())
                .into_iter()
                .map(|t| t.into_iter().map(Letter).collect())
                .collect()
        }),
        shares: at.as_ref().map(|at| real(&b.payoffs(at.as_slice()))),
        values: at.as_ref().map(|_| b.values()),
        svg: req.picture.then(|| {
            let title = match &at {
                Some(_) => format!("{b}, after {placed:?}"),
                None => format!("{b}: equilibrium ({tie_rule} ties)"),
            };
            crate::games::tokens::figures::board_svg(&b, placed, &title)
        }),
        title: b.to_string(),
        ties: tie_rule,
    }))
}

request! {
    /// `tokens seats`: each seat's equilibrium payoff for 1..max_players players.
    SeatsRequest {
        /// Stacks worth $1..$M.
        #[schemars(extend("x-budget" = "max_states"))]
        stacks: usize = 10,
        /// Largest number of players.
        #[schemars(extend("x-budget" = "range"), range(max = 10))]
        max_players: usize = 10,
        /// Stacks on a clock.
        clock: bool = false,
        /// Also draw the picture ([`SeatsReport::svg`]).
        picture: bool = false,
        /// Refuse games with more memoised sets of taken stacks than this.
        #[schemars(extend("x-budget" = "states"))]
        max_states: u64 = DEFAULT_MAX_STATES,
    }
}

/// Tabulates what each seat is worth.
pub fn seats(req: &SeatsRequest, ctl: &Control) -> Result<SeatsReport, Error> {
    if req.max_players == 0 || req.max_players > req.stacks {
        return Err(Error::invalid(
            "max_players",
            req.max_players,
            format!("use 1..={} (one token per stack)", req.stacks),
        ));
    }
    check_budget(req.stacks, req.max_players, req.max_states)?;
    ctl.admit(
        (1..=req.max_players)
            .map(|p| search_cost(req.stacks, req.stacks, p))
            .reduce(Estimate::plus)
            .unwrap_or_else(|| search_cost(1, 1, 1)),
    )?;
    let mut rows = Vec::new();
    for p in 1..=req.max_players {
        ctl.check()?;
        let b = Board::dollars(req.stacks, p, req.clock)?;
        let play = solve_until(&b, TokenTies::Lowest, ctl)?;
        rows.push(SeatsRow {
            players: p,
            moves: play.moves,
            payoffs: play.payoffs.iter().map(|&v| b.real(v)).collect(),
        });
    }
    let svg = req.picture.then(|| {
        let colors = [
            "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#17becf",
        ];
        let series = (0..req.max_players.min(10))
            .map(|seat| crate::svg::Series {
                name: format!("seat {}", seat + 1),
                color: colors[seat].into(),
                mark: crate::svg::Mark::Line,
                points: rows
                    .iter()
                    .filter(|r| r.players > seat)
                    .map(|r| {
                        let x = r.payoffs[seat];
                        (r.players as f64, x.to_f64())
                    })
                    .collect(),
            })
            .collect();
        crate::svg::Chart {
            title: format!(
                "What each seat is worth, $1..${} on a {}",
                req.stacks,
                if req.clock { "clock" } else { "line" }
            ),
            x_label: "number of players".into(),
            y_label: "equilibrium payoff ($)".into(),
            series,
        }
        .to_svg(760.0, 560.0 + 18.0 * req.max_players.min(10) as f64)
    });
    Ok(SeatsReport {
        stacks: req.stacks,
        clock: req.clock,
        rows,
        svg,
    })
}

/// The default limit on placements the exact search of `tokens anywhere` tries (each a
/// share computed, tens of nanoseconds; a few kilobytes kept per thousand).
pub const DEFAULT_MAX_PLACEMENTS: u64 = 2_000_000_000;

request! {
    /// `tokens anywhere`: Token Dollars with tokens anywhere on the line (within the
    /// stacks' span) or round the clock, solved exactly over the arrangement of the
    /// placements where payoffs can change (the argument in
    /// `docs/results/tokens.md`).
    AnywhereRequest {
        /// Stacks worth $1..$M at positions 1..M (unless `values`).
        #[schemars(extend("x-conflicts" = ["values"]))]
        #[schemars(extend("x-budget" = "max_placements"))]
        stacks: usize = 10,
        /// Stack values (exact, non-negative), e.g. `"1,2,3.5"`.
        #[serde(deserialize_with = "crate::api::forms::optional_list")]
        #[schemars(with = "Option<crate::api::forms::ListForms<crate::number::exact::Exact>>")]
        values: Option<String> = None,
        /// Stack positions (exact, increasing, one a stack), e.g. `"0,1/3,2"` with values
        /// `"1,2,3"`; 1, 2, ... unless given.
        #[serde(deserialize_with = "crate::api::forms::optional_list")]
        #[schemars(with = "Option<crate::api::forms::ListForms<crate::number::exact::Exact>>")]
        positions: Option<String> = None,
        /// Number of players (placing in turn).
        #[schemars(extend("x-budget" = "max_placements"))]
        players: usize = 3,
        /// Stacks on a clock (circular distance) instead of a line.
        clock: bool = false,
        /// With `clock`: its circumference (exact; longer than the stacks' span). The
        /// default is the span plus one, the discrete game's clock for stacks 1..M.
        #[schemars(extend("x-requires" = "clock"))]
        #[serde(deserialize_with = "crate::api::forms::optional_number")]
        #[schemars(with = "Option<crate::api::forms::NumberForms>")]
        circumference: Option<String> = None,
        /// lowest (alias first: the leftmost of the equally good pieces), highest (alias
        /// last), friendly, antagonistic (both as lowest: the payoffs always sum to the
        /// stacks' total).
        ties: String = "lowest".into(),
        /// Refuse games whose search may try more placements than this (the bound is
        /// counted from the arrangement before any work).
        #[schemars(extend("x-budget" = "states"))]
        max_placements: u64 = DEFAULT_MAX_PLACEMENTS,
    }
}

/// Parses a list of exact numbers given as `field`, commas between them; a bad one is
/// named as `item` and its place (`stack value 2`).
fn exact_list(field: &'static str, text: &str, item: &str) -> Result<Vec<Exact>, Error> {
    text.split(',')
        .enumerate()
        .map(|(i, t)| {
            t.trim()
                .parse::<Exact>()
                .map_err(|e| Error::invalid(field, text, format!("{item} {}: {e}", i + 1)))
        })
        .collect()
}

/// Solves Token Dollars with tokens anywhere, exactly: each player's placement, payoff,
/// and the sets of placements as good for her and with the same outcome. A sweep
/// ([`AnywhereSweep`]): each of the first player's pieces played out is an item.
pub fn anywhere(req: &AnywhereRequest, ctl: &Control) -> Result<AnywhereReport, Error> {
    crate::api::sweep::run::<AnywhereSweep>(req, ctl)
}

/// The game of a `tokens anywhere` request and its tie rule, refused over its placements
/// budget before any work.
fn anywhere_game(req: &AnywhereRequest) -> Result<(Arena, TokenTies), Error> {
    check_stacks(&req.values, req.stacks)?;
    let over = |bound: u128| {
        match u64::try_from(bound) {
        Ok(_) => Error::over_budget(
            "max_placements",
            format!(
                "the arrangement may take {bound} placements to search, over the budget of {}",
                req.max_placements
            ),
        ),
        // No budget reaches it: the advice is a smaller game, not a larger budget.
        Err(_) => Error::over_budget(
            "max_placements",
            format!("the arrangement may take {bound} placements to search, past any budget (2^64); use fewer players or stacks"),
        ),
    }
    };
    if req.values.is_none() && req.positions.is_none() {
        // The dollar stacks are made from the count: refused before they are made.
        let bound = placements_bound(req.stacks as u128, req.players);
        if bound > req.max_placements as u128 {
            return Err(over(bound));
        }
    }
    let values = match &req.values {
        Some(v) => exact_list("values", v, "stack value")?,
        None => (1..=req.stacks as i128).map(Exact::integer).collect(),
    };
    let positions = match &req.positions {
        Some(p) => {
            let p = exact_list("positions", p, "position")?;
            if p.len() != values.len() {
                return Err(Error::combination(
                    "positions",
                    format!("{} positions for {} stacks", p.len(), values.len()),
                ));
            }
            p
        }
        None => (1..=values.len() as i128).map(Exact::integer).collect(),
    };
    let circumference = match (&req.circumference, req.clock) {
        (Some(_), false) => {
            return Err(Error::combination("circumference", "needs clock"));
        }
        (Some(c), true) => Some(
            c.trim()
                .parse::<Exact>()
                .map_err(|e| Error::invalid("circumference", c, e))?,
        ),
        (None, true) => Some(positions[positions.len() - 1] - positions[0] + Exact::integer(1)),
        (None, false) => None,
    };
    let ties = TokenTies::parse(&req.ties).ok_or_else(|| {
        Error::invalid(
            "ties",
            &req.ties,
            "expected lowest, highest, first, last, friendly or antagonistic",
        )
    })?;
    let stacks = positions.into_iter().zip(values).collect();
    let arena = Arena::new(stacks, req.players, circumference)?;
    let bound = arena.placements_bound();
    if bound > req.max_placements as u128 {
        return Err(over(bound));
    }
    Ok((arena, ties))
}

/// What solving `arena` costs, searched from each of the first player's pieces apart.
fn anywhere_cost(arena: &Arena) -> Estimate {
    // The bound is loose, the more so the more players: measured, one search tries about
    // half the bound for three players and half again for each player more (a face's
    // tokens meet fewer pieces than the bound counts); searched from each first piece
    // apart, a set of tokens is solved once for each of its tokens placed first: 0.7
    // times as many placements as players (1.9 to 4.2 times from 3 to 6 players, $1..$10).
    // Each scores the stacks, with memos a piece's size: an eighth of a microsecond and
    // 1.8 ns per stack (measured from 8 to 200 stacks, 2 to 6 players).
    let players = arena.players();
    let tried = 0.5f64.powi(players.saturating_sub(2) as i32) * (0.7 * players as f64).max(1.0);
    let per = 0.5 + arena.stacks().len() as f64 / 140.0;
    Estimate::new(
        Work::count(arena.placements_bound() as f64).times(Work::count(tried * per)),
        PLACEMENTS,
    )
}
