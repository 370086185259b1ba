//! The Fx hash (rustc's) for the engine's and the parsers' maps.
//!
//! The sparse solver takes several lookups per move and the Gambit parser a few per
//! node; keys are states and labels of the user's own game, so speed matters more than
//! resistance to crafted collisions (the worst case is a slower solve, bounded by the
//! state budget).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The Fx hasher: a rotate, xor and multiply per word.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64)
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
    fn write_isize(&mut self, i: isize) {
        self.write_u64(i as u64)
    }
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A hash map with the [`Fx`] hash.
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// A hash set with the [`Fx`] hash.
pub type FxSet<K> = HashSet<K, BuildHasherDefault<Fx>>;
