//! Tie-breaking: which of several moves that are equally good for the mover she plays.
//!
//! The subtraction-games paper shows that the choice changes the equilibrium, so it is
//! chosen per player. All selection in the engine goes through [`TieBreak::prefers`].

use std::fmt;
use std::str::FromStr;

use super::{Payoff, Player};

/// How a player chooses among moves that give her the same payoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TieBreak {
    /// Among her best moves, maximise the other players' total payoff.
    Friendly,
    /// Among her best moves, minimise the other players' total payoff.
    Antagonistic,
    /// The first of her best moves in the game's move order.
    #[default]
    First,
    /// The last of her best moves in the game's move order.
    Last,
}

impl TieBreak {
    /// All rules, in the order they are documented.
    pub const ALL: [TieBreak; 4] = [
        TieBreak::Friendly,
        TieBreak::Antagonistic,
        TieBreak::First,
        TieBreak::Last,
    ];

    /// Whether the mover `p` prefers the payoff vector `cand` (from a later move) to
    /// `best` (from an earlier one). Remaining ties keep the earlier move, except under
    /// [`TieBreak::Last`].
    #[inline]
    pub fn prefers<P: Payoff>(self, p: Player, cand: &[P], best: &[P]) -> bool {
        self.decide(&cand[p], &best[p], || (others(p, cand), others(p, best)))
    }

    /// The same decision as [`TieBreak::prefers`] from the mover's own payoffs, asking
    /// for the other players' totals `(candidate, best)` only on a tie. The engine's hot
    /// loop uses this form so it never builds payoff vectors it does not keep.
    #[inline]
    pub fn decide<P: Payoff>(
        self,
        own_cand: &P,
        own_best: &P,
        others: impl FnOnce() -> (P, P),
    ) -> bool {
        match own_cand.cmp(own_best) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => match self {
                TieBreak::First => false,
                TieBreak::Last => true,
                TieBreak::Friendly => {
                    let (c, b) = others();
                    c > b
                }
                TieBreak::Antagonistic => {
                    let (c, b) = others();
                    c < b
                }
            },
        }
    }

    /// The rule's name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Friendly => "friendly",
            TieBreak::Antagonistic => "antagonistic",
            TieBreak::First => "first",
            TieBreak::Last => "last",
        }
    }
}

#[inline]
fn others<P: Payoff>(p: Player, v: &[P]) -> P {
    let mut total = P::zero();
    for (j, x) in v.iter().enumerate() {
        if j != p {
            total = total.plus(x);
        }
    }
    total
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a tie-breaking specification was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseTiesError {
    /// Not one of the rule names.
    #[error("unknown tie-breaking rule {} (expected friendly, antagonistic, first or last)", crate::text::quote(&.0.to_string()))]
    UnknownRule(String),
    /// A per-player entry names a player the game does not have.
    #[error("tie-breaking entry {} names no player of this game", crate::text::quote(&.0.to_string()))]
    UnknownPlayer(String),
    /// A per-player entry without `=RULE`.
    #[error("tie-breaking entry {} is not PLAYER=RULE", crate::text::quote(&.0.to_string()))]
    NoRule(String),
}

impl FromStr for TieBreak {
    type Err = ParseTiesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "friendly" | "f" => Ok(TieBreak::Friendly),
            "antagonistic" | "a" => Ok(TieBreak::Antagonistic),
            "first" => Ok(TieBreak::First),
            "last" => Ok(TieBreak::Last),
            other => Err(ParseTiesError::UnknownRule(other.to_string())),
        }
    }
}

/// One tie-breaking rule per player.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ties(Vec<TieBreak>);

impl Ties {
    /// Every player uses `rule`.
    pub fn uniform(rule: TieBreak, players: usize) -> Ties {
        Ties(vec![rule; players])
    }

    /// Player `i` uses `rules[i]`.
    pub fn per_player(rules: Vec<TieBreak>) -> Ties {
        Ties(rules)
    }

    /// The rule of player `p` (players beyond the list use `first`).
    pub fn of(&self, p: Player) -> TieBreak {
        self.0.get(p).copied().unwrap_or_default()
    }

    /// Parses `friendly` (everyone) or `A=friendly,B=antagonistic` (per player; players
    /// not named use `first`). Players are named by letter (`A`, `b`) or by number from 1.
    ///
    /// ```
    /// use lastbite::engine::{Ties, TieBreak};
    /// let t = Ties::parse("A=friendly,B=antagonistic", 2).unwrap();
    /// assert_eq!(t.of(1), TieBreak::Antagonistic);
    /// assert_eq!(Ties::parse("2=last", 2).unwrap().of(1), TieBreak::Last);
    /// ```
    pub fn parse(spec: &str, players: usize) -> Result<Ties, ParseTiesError> {
        Ties::parse_named(spec, players, &[])
    }

    /// [`Ties::parse`] for a game whose players also have names (an `.efg` file's, a
    /// Python game's): an entry may name its player by letter, by number from 1, or by
    /// one of `names`. The one parser of a tie specification, for every front end.
    ///
    /// ```
    /// use lastbite::engine::{Ties, TieBreak};
    /// let names = ["Entrant".to_string(), "Incumbent".to_string()];
    /// let t = Ties::parse_named("Incumbent=friendly", 2, &names).unwrap();
    /// assert_eq!(t.of(1), TieBreak::Friendly);
    /// assert!(Ties::parse_named("Nobody=friendly", 2, &names).is_err());
    /// ```
    pub fn parse_named(
        spec: &str,
        players: usize,
        names: &[String],
    ) -> Result<Ties, ParseTiesError> {
        if !spec.contains('=') {
            return Ok(Ties::uniform(spec.parse()?, players));
        }
        let mut rules = vec![TieBreak::First; players];
        for entry in spec.split(',') {
            let (who, rule) = entry
                .split_once('=')
                .ok_or_else(|| ParseTiesError::NoRule(entry.trim().into()))?;
            let p = Ties::player(who.trim(), players, names)
                .ok_or_else(|| ParseTiesError::UnknownPlayer(entry.trim().into()))?;
            rules[p] = rule.parse()?;
        }
        Ok(Ties(rules))
    }

    /// The player `who` names among `players`: a letter, a number from 1, or one of
    /// `names`.
    pub fn player(who: &str, players: usize, names: &[String]) -> Option<Player> {
        let by_letter = match who.as_bytes() {
            [c] if c.is_ascii_alphabetic() => Some((c.to_ascii_uppercase() - b'A') as usize),
            _ => None,
        };
        by_letter
            .filter(|&p| p < players)
            .or_else(|| {
                who.parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=players).contains(&n))
                    .map(|n| n - 1)
            })
            .or_else(|| names.iter().position(|name| name == who))
    }

    /// The rules as a string such as `A=friendly,B=first`, or one name when uniform.
    pub fn describe(&self) -> String {
        if self.0.windows(2).all(|w| w[0] == w[1]) {
            return self
                .0
                .first()
                .copied()
                .unwrap_or_default()
                .name()
                .to_string();
        }
        self.0
            .iter()
            .enumerate()
            .map(|(p, r)| format!("{}={}", super::game::player_letter(p), r))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Which rule selected the equilibrium move at a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The only legal move.
    OnlyMove,
    /// Strictly the best move for the mover.
    OwnPayoff,
    /// Several moves were best for the mover; this tie-breaking rule chose.
    TieBreak(TieBreak),
    /// A chance state: no one chooses; every move is played with its probability.
    Chance,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::OnlyMove => f.write_str("only legal move"),
            Reason::OwnPayoff => f.write_str("strictly best own payoff"),
            Reason::TieBreak(t) => write!(f, "own payoff tied; tie broken by '{t}'"),
            Reason::Chance => f.write_str("chance move"),
        }
    }
}
