//! Players under the index rule: every player's payoff packed in one word a state
//! (`Packing`), the layers decided block by block over the packed words.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::{self, EngineError, LeanSolution, Progress, RankedGame, TieBreak, Ties};

use super::cells::*;
use super::shared::*;
use crate::games::dinner::solver::blocks::{decide_blocks, Blocks, Low, MAX_SPLIT};
use crate::games::dinner::solver::game::DinnerGame;

/// The most players a word packs (each needs a field of its own).
const MAX_PLAYERS: usize = 8;

/// A word's fields in a fixed order, whatever its layout: `U_p` at `p`, `E_j` at
/// `players + j` for `j < players - 1`.
type Fields = [u64; 2 * MAX_PLAYERS];

/// What a field of a layout holds.
#[derive(Clone, Copy)]
enum Slot {
    /// One of the [`Fields`].
    Plain(usize),
    /// `G = max - (E_0 + ... + E_(k-2))`: the last player's key's second field.
    Complement,
}

/// A field of a layout: what it holds, its lowest bit and its mask.
#[derive(Clone, Copy)]
struct Field {
    slot: Slot,
    shift: u32,
    mask: u64,
}

/// Every player's payoff under the index rule in one word a state. A player's payoff is
/// `U m + E`: `U` the utilities of the morsels they eat, `E < m` the sum of those
/// morsels' offsets `n - 1 - i`. All players' offsets together are those of every
/// morsel left, fixed by the state, so a word holds every `U` and every `E` but the last
/// player's, in fields wide enough for any total: a child's word plus the eater's packed
/// gain is the parent's, with no carry between fields.
///
/// The mover compares its payoffs through its children, and the word is laid out so
/// that its top bits order them: keyed for player `q`, `U_q | E_q | ...` (`q`'s payoff
/// orders as `(U_q, E_q)`); keyed for the last player `l`, `U_l | G | ...` with
/// `G = max - (E_0 + ... + E_(l-1))` (`l`'s offsets are the state's total, the same for
/// every child, less the others', so its payoff orders as `(U_l, G)`, and its own bites
/// leave `G` as it was). A layer is stored keyed for the mover of the layer above, which
/// reads it, so a comparison is a shift; a state's word changes layout at most once,
/// when it is written. Two players take half the memory of two 64-bit payoffs (the 2 x
/// 32 dinner with utilities to `10^6` fits the machine this way); three players with
/// utilities to 1,000 take 8 bytes a state where three 32-bit payoffs take 12 (3 x 30 in
/// 2.4 GB).
pub(super) struct Packing {
    players: usize,
    /// Width of the `E` (and `G`) fields.
    e: u32,
    /// The index rule's multiplier `m`.
    m: i128,
    /// Per player, the layout keyed for them, top field first.
    layouts: Vec<Vec<Field>>,
    /// Per morsel, the packed gain of each player eating it, in the layout keyed for them.
    pub(super) gains: Vec<Vec<u64>>,
}

impl Slot {
    fn is_complement(&self) -> bool {
        matches!(self, Slot::Complement)
    }
}

/// A word's change of layout, from one player's key to another's
/// ([`Packing::rekey`]).
pub(super) struct Rekey {
    /// Fields copied: `(from shift, mask, to shift)`.
    copies: [(u32, u64, u32); 2 * MAX_PLAYERS],
    pub(super) count: usize,
    derived: Option<Derived>,
}

/// The field computed as `max` less a sum of fields: `(to shift, max, [(from shift,
/// mask)], terms)`.
type Derived = (u32, u64, [(u32, u64); MAX_PLAYERS], usize);

impl Rekey {
    /// The word in the new layout.
    #[inline(always)]
    pub(super) fn apply(&self, w: u64) -> u64 {
        self.apply_fixed(w, self.count, self.terms())
    }

    /// How many fields the derived field sums (0 without one).
    pub(super) fn terms(&self) -> usize {
        self.derived.as_ref().map_or(0, |d| d.3)
    }

    /// [`Rekey::apply`] with `copies` and `terms` as given, constants where the caller
    /// makes them so (the layers' loop does for two and three players): the loops are
    /// then unrolled, and a two-player layer takes the time of a layout fixed at compile
    /// time.
    #[inline(always)]
    pub(super) fn apply_fixed(&self, w: u64, copies: usize, terms: usize) -> u64 {
        if copies == 0 {
            return w;
        }
        let mut out = 0;
        for &(from, mask, to) in &self.copies[..copies] {
            out |= (w >> from & mask) << to;
        }
        if let Some((to, max, fields, _)) = &self.derived {
            let sum: u64 = fields[..terms]
                .iter()
                .map(|&(from, mask)| w >> from & mask)
                .sum();
            out |= (max - sum) << to;
        }
        out
    }
}

impl Packing {
    /// The packing of a dinner under the index rule, every player's rule `first`,
    /// utilities non-negative, when the fields fit a word; else `None`.
    pub(super) fn of<P: Word>(
        game: &DinnerGame<'_, P>,
        ties: &Ties,
        pay: &[P],
        n: usize,
    ) -> Option<Packing> {
        let m = game.index_multiplier()?;
        let k = engine::Game::players(game);
        if !(2..=MAX_PLAYERS).contains(&k) || (0..k).any(|p| !matches!(ties.of(p), TieBreak::First))
        {
            return None;
        }
        // Utilities back from the payoffs: `u m + (n - 1 - i)`.
        let mut utilities = vec![vec![0u128; k]; n];
        let mut totals = vec![0u128; k];
        for (i, u) in utilities.iter_mut().enumerate() {
            for p in 0..k {
                let scaled = pay[i * k + p].to_integer()? - (n - 1 - i) as i128;
                if scaled < 0 || scaled % m != 0 {
                    return None;
                }
                u[p] = (scaled / m) as u128;
                totals[p] = totals[p].checked_add(u[p])?;
            }
        }
        let bits = |x: u128| 128 - x.leading_zeros();
        let offsets = (n * n.saturating_sub(1) / 2) as u128;
        let e = bits(offsets);
        let widths: Vec<u32> = totals.iter().map(|&t| bits(t)).collect();
        // `E < m` keeps the keys' order the payoffs' (offsets at most n (n - 1) / 2); at
        // most 63 bits keep every field's shift, the keys' included, below 64.
        if widths.iter().sum::<u32>() + (k as u32 - 1) * e > 63 || offsets >= m as u128 {
            return None;
        }
        let layouts = (0..k)
            .map(|q| {
                let last = q + 1 == k;
                // Top to bottom: the key's two fields, then the other players' `U`s and
                // the `E`s the key does not hold (the last player's layout holds all
                // but `E_(k-2)`, which `G` and the others give back).
                let mut slots = vec![
                    (Slot::Plain(q), widths[q]),
                    (
                        if last {
                            Slot::Complement
                        } else {
                            Slot::Plain(k + q)
                        },
                        e,
                    ),
                ];
                slots.extend(
                    (0..k)
                        .filter(|&p| p != q)
                        .map(|p| (Slot::Plain(p), widths[p])),
                );
                let es = if last { k.saturating_sub(2) } else { k - 1 };
                slots.extend((0..es).filter(|&j| j != q).map(|j| (Slot::Plain(k + j), e)));
                let mut shift = slots.iter().map(|s| s.1).sum::<u32>();
                slots
                    .into_iter()
                    .map(|(slot, width)| {
                        shift -= width;
                        let mask = if width == 0 {
                            0
                        } else {
                            u64::MAX >> (64 - width)
                        };
                        Field { slot, shift, mask }
                    })
                    .collect()
            })
            .collect();
        let mut packing = Packing {
            players: k,
            e,
            m,
            layouts,
            gains: Vec::new(),
        };
        packing.gains = utilities
            .iter()
            .enumerate()
            .map(|(i, u)| {
                (0..k)
                    .map(|q| {
                        // The eater's `U` and, unless it is the last player (whose `G`
                        // its own bites leave alone), its `E`.
                        let [top, second] = [0, 1].map(|f| packing.layouts[q][f].shift);
                        let offset = if q + 1 < k { (n - 1 - i) as u64 } else { 0 };
                        (u[q] as u64) << top | offset << second
                    })
                    .collect()
            })
            .collect();
        Some(packing)
    }

    fn emax(&self) -> u64 {
        (1u64 << self.e) - 1
    }

    /// The word of `fields`, keyed for player `q`.
    #[inline(always)]
    pub(super) fn pack(&self, q: usize, fields: &Fields) -> u64 {
        let k = self.players;
        let mut w = 0;
        for f in &self.layouts[q] {
            let v = match f.slot {
                Slot::Plain(i) => fields[i],
                Slot::Complement => self.emax() - fields[k..2 * k - 1].iter().sum::<u64>(),
            };
            w |= v << f.shift;
        }
        w
    }

    /// The [`Fields`] of a word keyed for player `q`.
    #[inline(always)]
    pub(super) fn fields(&self, q: usize, w: u64) -> Fields {
        let k = self.players;
        let mut fields = [0; 2 * MAX_PLAYERS];
        let mut complement = None;
        for f in &self.layouts[q] {
            let v = (w >> f.shift) & f.mask;
            match f.slot {
                Slot::Plain(i) => fields[i] = v,
                Slot::Complement => complement = Some(v),
            }
        }
        if let Some(g) = complement {
            // The one `E` the last player's layout leaves out.
            let known: u64 = fields[k..2 * k - 2].iter().sum();
            fields[2 * k - 2] = self.emax() - g - known;
        }
        fields
    }

    /// How a word keyed for `from` is keyed for `to` instead: [`Rekey::apply`] does in a
    /// few shifts what [`Packing::fields`] then [`Packing::pack`] do.
    pub(super) fn rekey(&self, from: usize, to: usize) -> Rekey {
        let k = self.players;
        let (source, target) = (&self.layouts[from], &self.layouts[to]);
        let mut rekey = Rekey {
            copies: [(0, 0, 0); 2 * MAX_PLAYERS],
            count: 0,
            derived: None,
        };
        if from == to {
            return rekey;
        }
        let find = |i: usize| {
            source
                .iter()
                .find(|f| matches!(f.slot, Slot::Plain(j) if j == i))
        };
        for f in target {
            let plain = match f.slot {
                Slot::Plain(i) => find(i),
                Slot::Complement => None,
            };
            if let Some(src) = plain {
                rekey.copies[rekey.count] = (src.shift, src.mask, f.shift);
                rekey.count += 1;
                continue;
            }
            // `G` from the `E`s, or the last `E` the source leaves out from its `G` and
            // the other `E`s: either way `max` less a sum of the source's fields.
            let mut terms = [(0u32, 0u64); MAX_PLAYERS];
            let mut count = 0;
            let sum: Vec<&Field> = match f.slot {
                Slot::Complement => (0..k - 1).filter_map(|j| find(k + j)).collect(),
                Slot::Plain(_) => source
                    .iter()
                    .filter(|g| {
                        g.slot.is_complement()
                            || (0..k - 2).any(|j| matches!(g.slot, Slot::Plain(i) if i == k + j))
                    })
                    .collect(),
            };
            for g in sum {
                terms[count] = (g.shift, g.mask);
                count += 1;
            }
            rekey.derived = Some((f.shift, self.emax(), terms, count));
        }
        rekey
    }

    /// The shift that leaves player `q`'s key of a word keyed for them.
    pub(super) fn key_shift(&self, q: usize) -> u32 {
        self.layouts[q][1].shift
    }

    /// Every player's payoff of a word keyed for player `q`, of a state whose morsels'
    /// offsets total `left`.
    pub(super) fn payoffs(&self, q: usize, w: u64, left: u64) -> Vec<i128> {
        let k = self.players;
        let fields = self.fields(q, w);
        let last = left - fields[k..2 * k - 1].iter().sum::<u64>();
        (0..k)
            .map(|p| {
                let e = if p + 1 < k { fields[k + p] } else { last };
                fields[p] as i128 * self.m + e as i128
            })
            .collect()
    }
}

/// [`run`] with a [`Packing`]: one column of words, each layer decided block by block
/// with the low morsels `0..split` ([`blocks`](crate::games::dinner::solver::blocks)).
pub(super) fn run_packed<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    packing: &Packing,
    n: usize,
    bytes: u128,
    split: usize,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, P>>, EngineError> {
    let states: u128 = (0..=n).map(|l| game.layer_size(l) as u128).sum();
    progress.start(states as u64, "states");
    let mut choices: Vec<Vec<u8>> = Vec::with_capacity(n + 1);
    let stride = (0..=n).map(|l| game.layer_size(l)).max().unwrap_or(1);
    // The player who reads the layer of `l` morsels left, its words keyed for them: the
    // mover of the layer above, or at the top its own mover.
    let keyed = |l: usize| match l {
        _ if l < n => game.player_of_turn(n - l - 1),
        _ if n > 0 => game.player_of_turn(0),
        _ => 0,
    };
    let (mut prev, mut cur) = (zeroed::<u64>(stride, bytes)?, zeroed::<u64>(stride, bytes)?);
    let low = Low::new(split.min(n).min(MAX_SPLIT));
    for layer in 0..=n {
        let size = game.layer_size(layer);
        let mut chosen = choice_bytes(layer, n, size, bytes)?;
        if layer == 0 {
            // The empty plate: nothing more to eat.
            prev[0] = packing.pack(keyed(0), &[0; 2 * MAX_PLAYERS]);
            chosen.fill(TERMINAL);
            progress.advance(size as u64);
        } else {
            let mover = game.player_of_turn(n - layer);
            let below = game.layer_size(layer - 1);
            let gains: Vec<u64> = packing.gains.iter().map(|g| g[mover]).collect();
            let stop = AtomicBool::new(false);
            // The mover reads its children keyed for itself; the words it writes are
            // keyed for the next mover.
            let rekey = packing.rekey(mover, keyed(layer));
            macro_rules! go {
                ($apply:expr) => {
                    decide_blocks(
                        &Blocks {
                            low: &low,
                            cells: Words {
                                prev: &prev[..below],
                                gains: &gains,
                                shift: packing.key_shift(mover),
                                rekey: $apply,
                            },
                            layer,
                            n,
                        },
                        &mut cur[..size],
                        Vec::new(),
                        &mut chosen,
                        progress,
                        &stop,
                    )
                };
            }
            // The changes of layout two and three players make, with constant loops.
            match (rekey.count, rekey.terms()) {
                (0, _) => go!(|w: u64| w),
                (2, 1) => go!(|w: u64| rekey.apply_fixed(w, 2, 1)),
                (4, 2) => go!(|w: u64| rekey.apply_fixed(w, 4, 2)),
                (5, 0) => go!(|w: u64| rekey.apply_fixed(w, 5, 0)),
                _ => go!(|w: u64| rekey.apply(w)),
            }
            if stop.load(Ordering::Relaxed) || progress.cancelled() {
                progress.finish();
                return Err(EngineError::Cancelled);
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        choices.push(chosen);
    }
    progress.finish();
    let left = (n * n.saturating_sub(1) / 2) as u64;
    let value = packing
        .payoffs(keyed(n), prev[0], left)
        .into_iter()
        .map(P::from_integer)
        .collect();
    drop((prev, cur));
    from_choices(game, ties, value, &choices, states, bytes, progress)
}
