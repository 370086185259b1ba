//! Data parallelism behind the `parallel` feature: rayon when it is on, and the same
//! calls run sequentially on the calling thread when it is off (WebAssembly, where there
//! are no threads). Call sites write `use crate::par::prelude::*` and rayon's method
//! names; the sequential stand-ins give the same results in the same order.

#[cfg(feature = "parallel")]
pub(crate) mod prelude {
    pub(crate) use rayon::prelude::*;
}

#[cfg(feature = "parallel")]
pub(crate) use rayon::{current_num_threads, join};

#[cfg(not(feature = "parallel"))]
pub(crate) mod prelude {
    pub(crate) use super::seq::{
        IntoParallelIterator, ParallelExtend, ParallelSlice, ParallelSliceMut,
    };
}

#[cfg(not(feature = "parallel"))]
pub(crate) use seq::{current_num_threads, join};

#[cfg(not(feature = "parallel"))]
mod seq {
    /// An iterator standing in for a rayon parallel iterator. Its inherent methods take
    /// rayon's signatures (`reduce` with an identity, `for_each_init`) and come before
    /// `Iterator`'s in method resolution.
    pub(crate) struct Seq<I>(I);

    impl<I: Iterator> Iterator for Seq<I> {
        type Item = I::Item;
        fn next(&mut self) -> Option<I::Item> {
            self.0.next()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            self.0.size_hint()
        }
    }

    impl<I: Iterator> Seq<I> {
        pub(crate) fn map<R, F: FnMut(I::Item) -> R>(self, f: F) -> Seq<std::iter::Map<I, F>> {
            Seq(self.0.map(f))
        }
        pub(crate) fn enumerate(self) -> Seq<std::iter::Enumerate<I>> {
            Seq(self.0.enumerate())
        }
        pub(crate) fn zip<J: IntoIterator>(self, other: J) -> Seq<std::iter::Zip<I, J::IntoIter>> {
            Seq(self.0.zip(other))
        }
        pub(crate) fn reduce<ID, OP>(self, identity: ID, op: OP) -> I::Item
        where
            ID: Fn() -> I::Item,
            OP: Fn(I::Item, I::Item) -> I::Item,
        {
            self.0.fold(identity(), op)
        }
        pub(crate) fn for_each_init<T, INIT, F>(self, init: INIT, f: F)
        where
            INIT: Fn() -> T,
            F: Fn(&mut T, I::Item),
        {
            let mut state = init();
            for x in self.0 {
                f(&mut state, x);
            }
        }
    }

    pub(crate) trait IntoParallelIterator: IntoIterator + Sized {
        fn into_par_iter(self) -> Seq<Self::IntoIter> {
            Seq(self.into_iter())
        }
    }
    impl<T: IntoIterator> IntoParallelIterator for T {}

    pub(crate) trait ParallelSlice<T> {
        fn par_iter(&self) -> Seq<std::slice::Iter<'_, T>>;
        fn par_chunks(&self, size: usize) -> Seq<std::slice::Chunks<'_, T>>;
    }
    impl<T> ParallelSlice<T> for [T] {
        fn par_iter(&self) -> Seq<std::slice::Iter<'_, T>> {
            Seq(self.iter())
        }
        fn par_chunks(&self, size: usize) -> Seq<std::slice::Chunks<'_, T>> {
            Seq(self.chunks(size))
        }
    }

    pub(crate) trait ParallelSliceMut<T> {
        fn par_chunks_mut(&mut self, size: usize) -> Seq<std::slice::ChunksMut<'_, T>>;
    }
    impl<T> ParallelSliceMut<T> for [T] {
        fn par_chunks_mut(&mut self, size: usize) -> Seq<std::slice::ChunksMut<'_, T>> {
            Seq(self.chunks_mut(size))
        }
    }

    pub(crate) trait ParallelExtend<T> {
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I);
    }
    impl<T> ParallelExtend<T> for Vec<T> {
        fn par_extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
            self.extend(items)
        }
    }

    /// One thread.
    pub(crate) fn current_num_threads() -> usize {
        1
    }

    /// Runs both, one after the other.
    pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA,
        B: FnOnce() -> RB,
    {
        (a(), b())
    }
}
