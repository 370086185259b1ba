//! A dinner, its turn order and its rules, validated together (parse, don't validate):
//! the exact solver, the outcome enumeration and crossout under rules take only a
//! [`Setup`], so a short turn order, a precedence over other morsels or an altruism
//! matrix of the wrong shape is an error before any solver runs, never a panic or a
//! silently uneaten morsel.

use crate::exact::Exact;
use crate::games::dinner::model::Scoring;
use crate::games::dinner::model::{check_order, Bite, Rules};
use crate::games::dinner::model::{Dinner, DinnerError, TurnOrder};

/// A validated dinner, turn order and rules, with their payoff arithmetic.
///
/// ```
/// use lastbite::games::dinner::{Dinner, Rules, Setup, TurnOrder};
/// let d = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
/// let other = Dinner::from_morsels("1,2 2,3").unwrap();
/// let short = TurnOrder::default_for(&other);
/// assert!(Setup::new(d.clone(), short, Rules::default()).is_err());
/// assert!(Setup::new(d.clone(), TurnOrder::default_for(&d), Rules::default()).is_ok());
/// ```
#[derive(Debug, Clone)]
pub struct Setup {
    dinner: Dinner,
    order: TurnOrder,
    rules: Rules,
    scoring: Scoring,
}

impl Setup {
    /// Validates the combination: one turn per morsel naming only the dinner's players,
    /// a precedence over exactly these morsels, and the rules' arithmetic ([`Scoring`]).
    pub fn new(dinner: Dinner, order: TurnOrder, rules: Rules) -> Result<Setup, DinnerError> {
        check_order(&dinner, &order)?;
        if let Some(b) = rules.before() {
            if b.morsels() != dinner.len() {
                return Err(DinnerError::PrecedenceMismatch {
                    precedence: b.morsels(),
                    morsels: dinner.len(),
                });
            }
        }
        let scoring = Scoring::new(&dinner, &rules)?;
        Ok(Setup {
            dinner,
            order,
            rules,
            scoring,
        })
    }

    /// The plain game of a dinner under its default turn order.
    pub fn plain(dinner: Dinner) -> Result<Setup, DinnerError> {
        let order = TurnOrder::default_for(&dinner);
        Setup::new(dinner, order, Rules::default())
    }

    /// The plain game (no discount, altruism or precedence) of a dinner under `order`.
    ///
    /// ```
    /// use lastbite::games::dinner::{Dinner, Setup, TurnOrder};
    /// let d = Dinner::from_morsels("1,2 2,3 3,1").unwrap();
    /// let order = TurnOrder::parse("ABA", &d).unwrap();
    /// assert_eq!(Setup::ordered(d, order).unwrap().order().to_string(), "ABA");
    /// ```
    pub fn ordered(dinner: Dinner, order: TurnOrder) -> Result<Setup, DinnerError> {
        Setup::new(dinner, order, Rules::default())
    }

    /// The same dinner and order under other rules, checked again.
    pub fn with_rules(self, rules: Rules) -> Result<Setup, DinnerError> {
        Setup::new(self.dinner, self.order, rules)
    }

    /// The dinner.
    pub fn dinner(&self) -> &Dinner {
        &self.dinner
    }

    /// The turn order.
    pub fn order(&self) -> &TurnOrder {
        &self.order
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The dinner and its order, for a route that plays the plain dinner (scores are the
    /// utilities eaten: crossout's strategies, sincere picking, the outcome figures);
    /// `route` names it in the error when the rules change the payoffs or the moves.
    pub fn plain_dinner(&self, route: &'static str) -> Result<(&Dinner, &TurnOrder), DinnerError> {
        if !self.rules.is_plain() {
            return Err(DinnerError::PlainOnly(route));
        }
        Ok((&self.dinner, &self.order))
    }

    /// The payoff arithmetic.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }

    /// The position after the morsels `eaten` (indices from 0, in the order eaten): who
    /// ate each on which turn, the scores so far as the rules count them, and the morsels
    /// left. Refuses an index off the plate or a morsel eaten twice.
    ///
    /// ```
    /// use lastbite::games::dinner::{Dinner, Setup};
    /// let s = Setup::plain(Dinner::from_morsels("1,2 2,3 3,1").unwrap()).unwrap();
    /// let p = s.position(&[2, 0]).unwrap(); // B eats morsel 2, then A morsel 0
    /// assert_eq!(p.left(), &[1]);
    /// assert_eq!(p.scores().iter().map(|x| x.to_string()).collect::<Vec<_>>(), ["1", "1"]);
    /// assert!(s.position(&[0, 0]).is_err());
    /// ```
    pub fn position(&self, eaten: &[usize]) -> Result<Position, DinnerError> {
        let n = self.dinner.len();
        let mut on_plate = vec![true; n];
        let mut bites = Vec::with_capacity(eaten.len());
        for (turn, &morsel) in eaten.iter().enumerate() {
            if morsel >= n || !on_plate[morsel] {
                return Err(DinnerError::NotOnPlate(morsel));
            }
            on_plate[morsel] = false;
            bites.push(Bite {
                turn,
                player: self.order.player(turn),
                morsel,
            });
        }
        let scores = self.scoring.score(&self.dinner, bites.iter().copied())?;
        Ok(Position {
            left: (0..n).filter(|&i| on_plate[i]).collect(),
            bites,
            scores,
        })
    }
}

/// A position of a dinner's game: the bites eaten so far and the morsels left
/// ([`Setup::position`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    bites: Vec<Bite>,
    scores: Vec<Exact>,
    left: Vec<usize>,
}

impl Position {
    /// The bites so far, turn by turn.
    pub fn bites(&self) -> &[Bite] {
        &self.bites
    }

    /// Each player's score so far.
    pub fn scores(&self) -> &[Exact] {
        &self.scores
    }

    /// The morsels left (indices from 0, increasing).
    pub fn left(&self) -> &[usize] {
        &self.left
    }

    /// The dinner that is left and its remaining turns, as a dinner of its own (morsel
    /// `i` of it is `left()[i]`), or `None` when nothing is left. The plain game's
    /// position only: a discount or a precedence would need the turns or indices shifted.
    pub fn rest(&self, setup: &Setup) -> Option<(Dinner, TurnOrder)> {
        if self.left.is_empty() {
            return None;
        }
        let d = setup.dinner().sub_dinner(&self.left);
        let order = setup.order().from_turn(self.bites.len());
        Some((d, order))
    }
}
