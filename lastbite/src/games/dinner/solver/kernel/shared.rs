//! What every route of the kernel shares: the payoff word, the layers' memory (zeroed,
//! on huge pages) and their kept choice bytes, and the binomial table of the walk.

use std::ops::Add;

use crate::engine::{self, EngineError, LeanSolution, PathRecovery, Payoff, Progress, Ties};

use crate::games::dinner::solver::game::DinnerGame;

/// A machine payoff the kernel adds and compares directly (the dinner's `i16`, `i32`,
/// `i64` and `i128`).
pub trait Word: Payoff + Zero + Default + Add<Output = Self> {
    /// Whether a payoff fits 32 bits: then a payoff and a total of payoffs share one
    /// 64-bit key, and the friendly and antagonistic rules go block by block.
    const NARROW: bool;
    /// The payoff as 32 bits (only called when [`Word::NARROW`]).
    fn narrow(self) -> i32;
    /// A payoff from 32 bits (only called when [`Word::NARROW`]).
    fn widen(x: i32) -> Self;
}

impl Word for i32 {
    const NARROW: bool = true;
    fn narrow(self) -> i32 {
        self
    }
    fn widen(x: i32) -> i32 {
        x
    }
}

/// Every total fits 16 bits (utilities to about 1,000 over 30 morsels): the layers take
/// half the memory of `i32` columns, 3 x 30 about 1.9 GB instead of 3.7.
impl Word for i16 {
    const NARROW: bool = true;
    fn narrow(self) -> i32 {
        self as i32
    }
    fn widen(x: i32) -> i16 {
        // A key's payoff half is one of this word's payoffs plus a gain: it fits.
        x as i16
    }
}

macro_rules! wide_word {
    ($t:ty) => {
        impl Word for $t {
            const NARROW: bool = false;
            fn narrow(self) -> i32 {
                unreachable!("a wide payoff is never narrowed")
            }
            fn widen(x: i32) -> $t {
                x as $t
            }
        }
    };
}
wide_word!(i64);
wide_word!(i128);

/// A friendly (or `antagonistic`) mover's key of a state: its own payoff in the high
/// half, the others' total in the low half (complemented when antagonistic, so that a
/// larger key is a smaller total), as an unsigned number: one comparison of two keys
/// orders them as the rule does, and adding a gain shifted into the high half adds it
/// to the payoff (which never overflows: every payoff and total fits 32 bits).
pub(super) fn tie_key(own: i32, others: i32, antagonistic: bool) -> i64 {
    let low = (others as u32) ^ 0x8000_0000;
    let low = if antagonistic { !low } else { low };
    (own as i64) << 32 | low as i64
}

/// No move: the state is terminal (the engine's byte).
pub(super) const TERMINAL: u8 = u8::MAX;

/// States a parallel work item decides (one unrank, then Gosper's next subset).
pub(super) const CHUNK: usize = 1 << 12;

/// The layers nearest the root whose choice bytes are kept: the path's first bites. The
/// middle layers hold nearly all states, and a byte a state is memory the system must
/// hand over fresh (2^32 bytes at 32 morsels, about 8 s of system time on this
/// project's machines); instead the path's state after these bites is solved again with
/// the states below it, `2^(n - KEPT_LAYERS)` of them, at the engine's pace of about
/// 40 ns a state ([`engine::path_from_choices`]): 0.2 s of CPU at 32 morsels.
pub(super) const KEPT_LAYERS: usize = 10;

/// Whether the choice bytes of `layer` (of a dinner of `n` morsels) are kept.
pub(super) fn kept(layer: usize, n: usize) -> bool {
    layer + KEPT_LAYERS > n
}

/// The layer's choice bytes when they are kept ([`kept`]); none (an empty vector) when not.
pub(super) fn choice_bytes(
    layer: usize,
    n: usize,
    size: usize,
    bytes: u128,
) -> Result<Vec<u8>, EngineError> {
    if kept(layer, n) {
        zeroed::<u8>(size, bytes)
    } else {
        Ok(Vec::new())
    }
}

/// `[C(p, j + 1), D(p, j)]` with `D(p, j) = C(p, j + 1) - C(p, j)` (wrapping) at
/// `j * 64 + p` for `p, j < 64`: a walk reads both of one morsel at once, and the rows a
/// dinner of `n` morsels reads (`p < n`) lie together.
pub(super) struct Binomials(Vec<[usize; 2]>);

impl Binomials {
    pub(super) fn new() -> Binomials {
        let mut c = vec![[0u128; 66]; 66];
        for a in 0..66 {
            c[a][0] = 1;
            for b in 1..=a {
                c[a][b] = c[a - 1][b - 1] + if b < a { c[a - 1][b] } else { 0 };
            }
        }
        // Ranks inside a layer fit `usize` (the layer was allocated); larger binomials
        // only appear in states no layer holds, and wrap harmlessly there.
        let w = |x: u128| x as usize;
        let mut t = vec![[0usize; 2]; 64 * 64];
        for j in 0..64 {
            for p in 0..64 {
                t[j * 64 + p] = [w(c[p][j + 1]), w(c[p][j + 1]).wrapping_sub(w(c[p][j]))];
            }
        }
        Binomials(t)
    }

    /// `C(p, j + 1)` and `D(p, j)`.
    #[inline(always)]
    pub(super) fn at(&self, j: usize, p: usize) -> [usize; 2] {
        self.0[j * 64 + p]
    }
}

/// `len` zeros, or [`EngineError::OutOfMemory`]. The memory comes zeroed from the system
/// and untouched: its pages are faulted in by the cores that first write them, once (a
/// filled vector writes every byte twice). On this project's virtual machines each first
/// touch of fresh memory costs about 2 s a GB of system time (35 s of a 2 x 32 dinner's
/// 14 GB), so pages never written are worth never touching.
pub(super) fn zeroed<T: Zero>(len: usize, bytes: u128) -> Result<Vec<T>, EngineError> {
    let oom = || EngineError::OutOfMemory(bytes);
    let layout = std::alloc::Layout::array::<T>(len).map_err(|_| oom())?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout is non-zero; a null pointer is refused; the memory is zeroed,
    // and zero bytes are a valid `T` (`Zero` is sealed to integers), so the vector owns
    // `len` initialised values allocated by the global allocator with `T`'s layout.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut T;
        if ptr.is_null() {
            return Err(oom());
        }
        huge_pages(ptr as *mut u8, layout.size());
        Ok(Vec::from_raw_parts(ptr, len, len))
    }
}

/// Asks Linux to back `len` bytes at `ptr` (fresh, untouched) with transparent huge pages
/// where the system allows it on request (`madvise` mode, the default of many
/// distributions): a first touch then faults 2 MiB at once instead of 4 KiB. Only tables
/// of 64 MiB or more; elsewhere, or where the kernel refuses, nothing changes.
pub(super) fn huge_pages(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        if len < 32 * HUGE {
            return;
        }
        // The whole 2 MiB pages inside the allocation.
        let start = (ptr as usize).next_multiple_of(HUGE);
        let end = (ptr as usize + len) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside memory this process owns and has not touched;
            // MADV_HUGEPAGE only changes how its pages are backed, never their contents.
            // A refusal (an old kernel, huge pages off) leaves the memory as it was.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

/// Types whose all-zero bytes are a valid value: the payoffs' integers and the choice
/// bytes.
pub trait Zero: Copy + Send + Sync + sealed::Sealed {}
impl Zero for u8 {}
impl Zero for u64 {}
impl Zero for i16 {}
impl Zero for i32 {}
impl Zero for i64 {}
impl Zero for i128 {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u64 {}
    impl Sealed for i16 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for i128 {}
}

/// The value of a child in the layer below, `column[child]`, read without a bounds test.
///
/// A walk's child ranks lie inside the layer below by the identity in the module's
/// documentation: a state of `l` morsels has a colexicographic rank below `C(n, l)`, and
/// removing one of its morsels leaves a state of `l - 1` whose rank `r - off[j]` is that
/// state's rank, below `C(n, l - 1)`, the length of every column of that layer. The test
/// cost a compare and branch a child, 6% of a 2 x 30 solve's CPU (three interleaved runs
/// each); the kernel's tests (against the engine) and debug builds check it.
#[inline(always)]
pub(super) fn child_of<T: Copy>(column: &[T], child: usize) -> T {
    debug_assert!(
        child < column.len(),
        "child rank {child} of {}",
        column.len()
    );
    // SAFETY: `child < column.len()`, as argued above and checked in debug builds.
    unsafe { *column.get_unchecked(child) }
}

/// The solution of a layered solve: the root's `value` and the path read back from the
/// layers' choice bytes (those kept; below them the path's state is solved again),
/// `states` states solved holding `bytes` at most.
pub(in crate::games::dinner::solver) fn from_choices<'g, P: Word>(
    game: &DinnerGame<'g, P>,
    ties: &Ties,
    value: Vec<P>,
    choices: &[Vec<u8>],
    states: u128,
    bytes: u128,
    progress: &dyn Progress,
) -> Result<LeanSolution<DinnerGame<'g, P>>, EngineError> {
    let (path, resolved) = engine::path_from_choices(game, ties, choices, bytes, progress)?;
    Ok(LeanSolution {
        value,
        path,
        states: states as u64,
        resolved: resolved.min(u64::MAX as u128) as u64,
        recovery: PathRecovery::ChoiceBytes,
        bytes,
    })
}
