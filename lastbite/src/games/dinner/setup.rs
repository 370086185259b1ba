//! A dinner, its turn order and its rules, validated together (parse, don't validate):
//! the exact solver, the outcome enumeration and crossout under rules take only a
//! [`Setup`], so a short turn order, a precedence over other morsels or an altruism
//! matrix of the wrong shape is an error before any solver runs, never a panic or a
//! silently uneaten morsel.

use super::model::{check_order, Rules};
use super::model::{Dinner, DinnerError, TurnOrder};
use super::scoring::Scoring;

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

    /// The payoff arithmetic.
    pub fn scoring(&self) -> &Scoring {
        &self.scoring
    }
}
