//! The crossout strategy (Kohler and Chandrasekaran 1971; paper: "The crossout strategy",
//! Theorem 1, Lemmas 2 and 3).
//!
//! "Eat your opponent's least favourite morsel on your own last move." The crossout
//! sequence `m_1, ..., m_n` crosses out, turn by turn from the *last* turn backwards, the
//! least favourite remaining morsel of the player who does *not* move on that turn; the
//! players then eat the morsels in reverse crossout order. This works for any two-player
//! turn sequence, not only alternation (see the papers' README; checked against the
//! exact solver in `crosscheck`).
//!
//! **Tie rule.** The paper assumes each player's utilities are distinct. When they are
//! not, lastbite breaks ties by morsel index: a morsel listed earlier counts as
//! infinitesimally tastier to every player (as if morsel `i` of `n` were worth
//! `u + (n - 1 - i) * eps`). So "least favourite" means the smallest utility and, among
//! equals, the highest index. The exact solver's default `index` tie rule applies the
//! same perturbation, which makes the two routes agree on every dinner.
//!
//! The whole computation is two sorts and a linear scan: `O(n log n)`.

use crate::engine::Player;

use super::model::{Dinner, DinnerError, TurnOrder};

/// One bite of the eating order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bite {
    /// The turn, from 0.
    pub turn: usize,
    /// Who eats.
    pub player: Player,
    /// The morsel eaten (index in input order, from 0).
    pub morsel: usize,
}

/// The crossout play of a two-player dinner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crossout {
    /// The crossout sequence `m_1, ..., m_n` (morsel indices): `m_1` is crossed out first
    /// and eaten on the last turn.
    pub sequence: Vec<usize>,
    /// The eating order (the crossout sequence reversed), one bite per turn.
    pub eating: Vec<Bite>,
    /// The crossout scores `chi_A`, `chi_B`, scaled by [`Dinner::scale`].
    pub scores: [i128; 2],
}

impl Crossout {
    /// The crossout strategy `c(D)`: the morsel eaten on the first turn.
    pub fn first_bite(&self) -> usize {
        self.eating[0].morsel
    }
}

/// Players' morsels from least to most favourite under the index tie rule.
fn ranking(dinner: &Dinner, p: Player, morsels: &[u32]) -> Vec<u32> {
    let mut keyed: Vec<(i64, u32)> = morsels
        .iter()
        .map(|&i| (dinner.utility(i as usize, p), u32::MAX - i))
        .collect();
    if keyed.len() > 1 << 16 {
        use rayon::slice::ParallelSliceMut;
        keyed.par_sort_unstable();
    } else {
        keyed.sort_unstable();
    }
    keyed.into_iter().map(|(_, j)| u32::MAX - j).collect()
}

/// The crossout play of `dinner` under `order`.
///
/// ```
/// use lastbite::games::dinner::{crossout, Dinner, TurnOrder};
/// // Figure 2 of the paper: Bob moves last.
/// let d = Dinner::from_morsels("1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7").unwrap();
/// let c = crossout(&d, &TurnOrder::default_for(&d)).unwrap();
/// assert_eq!(c.scores, [23, 22]);
/// assert_eq!(c.sequence[0], 0); // Alice's least favourite, (1,8), is crossed out first
/// ```
pub fn crossout(dinner: &Dinner, order: &TurnOrder) -> Result<Crossout, DinnerError> {
    if dinner.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers("crossout", dinner.players()));
    }
    let all: Vec<u32> = (0..dinner.len() as u32).collect();
    let eating_morsels = crossout_on(dinner, order.turns(), &all);
    let mut scores = [0i128; 2];
    let eating: Vec<Bite> = eating_morsels
        .iter()
        .enumerate()
        .map(|(turn, &m)| {
            let player = order.player(turn);
            scores[player] += dinner.utility(m as usize, player) as i128;
            Bite {
                turn,
                player,
                morsel: m as usize,
            }
        })
        .collect();
    let sequence = eating.iter().rev().map(|b| b.morsel).collect();
    Ok(Crossout {
        sequence,
        eating,
        scores,
    })
}

/// The crossout eating order of the sub-dinner `morsels` when the remaining turns are
/// played by `turns` (one per morsel). Two players only.
pub(crate) fn crossout_on(dinner: &Dinner, turns: &[u8], morsels: &[u32]) -> Vec<u32> {
    debug_assert_eq!(turns.len(), morsels.len());
    let (by_a, by_b) = if morsels.len() > 1 << 16 {
        rayon::join(
            || ranking(dinner, 0, morsels),
            || ranking(dinner, 1, morsels),
        )
    } else {
        (ranking(dinner, 0, morsels), ranking(dinner, 1, morsels))
    };
    let rankings = [by_a, by_b];
    let mut next = [0usize; 2];
    let mut crossed = vec![false; dinner.len()];
    let mut eating = vec![0u32; morsels.len()];
    for t in (0..turns.len()).rev() {
        // On turn t its player eats the other player's least favourite remaining morsel.
        let other = 1 - turns[t] as usize;
        let list = &rankings[other];
        let mut j = next[other];
        while crossed[list[j] as usize] {
            j += 1;
        }
        let m = list[j];
        next[other] = j + 1;
        crossed[m as usize] = true;
        eating[t] = m;
    }
    eating
}
