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

use crate::games::dinner::model::{Bite, Dinner, DinnerError, Setup, TurnOrder};

/// The crossout play of a two-player dinner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crossout {
    /// The morsel eaten on each turn (compact: dinners of 10^7 morsels are routine).
    eaten: Vec<u32>,
    /// The player of each turn.
    turns: Vec<u8>,
    /// The crossout scores `chi_A`, `chi_B`, scaled by [`Dinner::scale`].
    pub scores: [i128; 2],
}

impl Crossout {
    /// The eating order (the crossout sequence reversed), one bite per turn.
    pub fn eating(&self) -> impl DoubleEndedIterator<Item = Bite> + ExactSizeIterator + '_ {
        self.eaten
            .iter()
            .zip(&self.turns)
            .enumerate()
            .map(|(turn, (&m, &p))| Bite {
                turn,
                player: p as Player,
                morsel: m as usize,
            })
    }

    /// The crossout sequence `m_1, ..., m_n` (morsel indices): `m_1` is crossed out first
    /// and eaten on the last turn.
    pub fn sequence(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.eaten.iter().rev().map(|&m| m as usize)
    }

    /// The crossout strategy `c(D)`: the morsel eaten on the first turn.
    pub fn first_bite(&self) -> usize {
        self.eaten[0] as usize
    }
}

/// Player `p`'s morsels from least to most favourite under the index tie rule (smaller
/// utility first; among equals, the higher index first), as sorted keys from which
/// [`Ranking::morsel`] reads the morsel. Shared with sincere picking
/// ([`crate::games::dinner::picking::sincere`]), which reads it from the top.
pub(crate) struct Ranking {
    keys: Vec<u64>,
    mask: u64,
}

impl Ranking {
    pub(crate) fn new<I>(dinner: &Dinner, p: Player, morsels: I) -> Ranking
    where
        I: Iterator<Item = u32> + Clone,
    {
        let utilities = morsels.clone().map(|i| dinner.utility(i as usize, p));
        let (lo, hi) = utilities
            .clone()
            .fold((i64::MAX, i64::MIN), |(lo, hi), u| (lo.min(u), hi.max(u)));
        let range = (hi as i128 - lo as i128) as u128;
        let index_bits = u32::BITS - (dinner.len() as u32).leading_zeros();
        let range_bits = u128::BITS - range.leading_zeros();
        if range_bits + index_bits <= 64 {
            // One u64 key per morsel, (utility - lo) above (mask - index): sorting it
            // costs what sorting a plain utility column costs.
            let mask = (1u64 << index_bits) - 1;
            let mut keys: Vec<u64> = morsels
                .zip(utilities)
                .map(|(i, u)| (((u as i128 - lo as i128) as u64) << index_bits) | (mask - i as u64))
                .collect();
            keys.sort_unstable();
            Ranking { keys, mask }
        } else {
            let mut keyed: Vec<(i64, u32)> = morsels
                .zip(utilities)
                .map(|(i, u)| (u, u32::MAX - i))
                .collect();
            keyed.sort_unstable();
            let keys = keyed
                .into_iter()
                .map(|(_, j)| u64::MAX - (u32::MAX - j) as u64)
                .collect();
            Ranking {
                keys,
                mask: u64::MAX,
            }
        }
    }

    #[inline]
    pub(crate) fn morsel(&self, j: usize) -> usize {
        (self.mask - (self.keys[j] & self.mask)) as usize
    }
}

/// The crossout play of a setup's plain two-player dinner under its turn order. Rules
/// crossout does not cover are refused ([`crossout_under`](crate::games::dinner::analysis::variants::crossout_under)
/// plays altruism by the transformed dinner).
///
/// ```
/// use lastbite::games::dinner::{crossout, Dinner, Setup};
/// // Figure 2 of the paper: Bob moves last.
/// let d = Dinner::from_morsels("1,8 2,3 3,6 4,4 5,1 6,2 7,5 8,7").unwrap();
/// let c = crossout(&Setup::plain(d).unwrap()).unwrap();
/// assert_eq!(c.scores, [23, 22]);
/// assert_eq!(c.sequence().next(), Some(0)); // Alice's least favourite, (1,8), is crossed out first
/// ```
pub fn crossout(setup: &Setup) -> Result<Crossout, DinnerError> {
    let (dinner, order) = (setup.dinner(), setup.order());
    if dinner.players() != 2 {
        return Err(DinnerError::NeedsTwoPlayers("crossout", dinner.players()));
    }
    if !setup.rules().is_plain() {
        return Err(DinnerError::CrossoutRules);
    }
    Ok(crossout_of(dinner, order))
}

/// The crossout play of a two-player dinner under an order made for it, unchecked: for
/// the family's own loops over many small dinners (the first mover's advantage), whose
/// orders are built from their dinners and for which a [`Setup`] each would cost more
/// than the play.
pub(crate) fn crossout_of(dinner: &Dinner, order: &TurnOrder) -> Crossout {
    debug_assert!(dinner.players() == 2 && order.len() == dinner.len());
    let eaten = crossout_on(dinner, order.turns(), 0..dinner.len() as u32);
    let mut scores = [0i128; 2];
    for (&m, &p) in eaten.iter().zip(order.turns()) {
        scores[p as usize] += dinner.utility(m as usize, p as Player) as i128;
    }
    Crossout {
        eaten,
        turns: order.turns().to_vec(),
        scores,
    }
}

/// The crossout eating order of the sub-dinner `morsels` when the remaining turns are
/// played by `turns` (one per morsel). Two players only.
pub(crate) fn crossout_on<I>(dinner: &Dinner, turns: &[u8], morsels: I) -> Vec<u32>
where
    I: Iterator<Item = u32> + Clone + Send,
{
    scan(&rankings(dinner, turns.len(), morsels), turns, dinner.len())
}

/// Both players' rankings of `morsels` (`count` of them), least favourite first.
pub(crate) fn rankings<I>(dinner: &Dinner, count: usize, morsels: I) -> [Ranking; 2]
where
    I: Iterator<Item = u32> + Clone + Send,
{
    // The two rankings are independent: sort them on both cores.
    let (by_a, by_b) = if count > 1 << 16 {
        let m2 = morsels.clone();
        crate::par::join(
            || Ranking::new(dinner, 0, morsels),
            || Ranking::new(dinner, 1, m2),
        )
    } else {
        (
            Ranking::new(dinner, 0, morsels.clone()),
            Ranking::new(dinner, 1, morsels),
        )
    };
    [by_a, by_b]
}

/// Each player's rank of each morsel of the whole dinner (`rank[p][m]`, 0 = least
/// favourite) and the morsel of each rank (`by_rank[p][r]`), as `(rank, by_rank)`.
pub(crate) fn rank_tables(dinner: &Dinner) -> ([Vec<u32>; 2], [Vec<u32>; 2]) {
    let n = dinner.len();
    let rankings = rankings(dinner, n, 0..n as u32);
    let mut rank = [vec![0u32; n], vec![0u32; n]];
    let mut by_rank = [vec![0u32; n], vec![0u32; n]];
    for p in 0..2 {
        for (j, by) in by_rank[p].iter_mut().enumerate() {
            let m = rankings[p].morsel(j);
            rank[p][m] = j as u32;
            *by = m as u32;
        }
    }
    (rank, by_rank)
}

/// The backward scan of Theorem 1 over the ranked morsels (indices below `n`): the
/// morsel eaten on each of `turns`.
fn scan(rankings: &[Ranking; 2], turns: &[u8], n: usize) -> Vec<u32> {
    let mut next = [0usize; 2];
    // A bitset keeps the random "already crossed out?" lookups in cache.
    let mut crossed = vec![0u64; n.div_ceil(64)];
    let mut eating = vec![0u32; turns.len()];
    for t in (0..turns.len()).rev() {
        // On turn t its player eats the other player's least favourite remaining morsel.
        let other = 1 - turns[t] as usize;
        let list = &rankings[other];
        let mut j = next[other];
        let mut m = list.morsel(j);
        while crossed[m / 64] >> (m % 64) & 1 == 1 {
            j += 1;
            m = list.morsel(j);
        }
        next[other] = j + 1;
        crossed[m / 64] |= 1 << (m % 64);
        eating[t] = m as u32;
    }
    eating
}
