//! The skip 32 bytes at a time, for x86-64 processors with AVX2.

use super::{Automaton, ScanTable, Skip, State, HIGH_HALVES, SCAN_SHIFT};
use core::arch::x86_64::{
    __m128i, __m256i, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_castsi128_si256,
    _mm256_cmpeq_epi8, _mm256_inserti128_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm_and_si128, _mm_cmpeq_epi8,
    _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8,
    _mm_srli_epi16,
};

/// The indices of `vpshufb` that move the last 16 bytes of a window shorter
/// than 32 to where they belong, from the `32 - wide`th entry on: byte `k` of
/// the result is byte `k + 32 - wide`, or 0 (an index with its top bit set)
/// past the input's end.
static TO_THE_END: [u8; 32] = {
    let mut t = [0x80; 32];
    let mut k = 0;
    while k < 16 {
        t[k] = k as u8;
        k += 1;
    }
    t
};

/// Whether the processor has AVX2: known when compiling for a target that has
/// it; otherwise asked of the processor (once; the standard library keeps the
/// answer), which needs `std`. Without either, the walk skips byte by byte.
#[inline(always)]
pub(super) fn available() -> bool {
    #[cfg(target_feature = "avx2")]
    return true;
    #[cfg(all(not(target_feature = "avx2"), feature = "std"))]
    return std::is_x86_feature_detected!("avx2");
    #[cfg(all(not(target_feature = "avx2"), not(feature = "std")))]
    return false;
}

/// The skip of the walks compiled for AVX2 (`run_avx2`, `split_avx2`): a window of
/// the input, 32 bytes (or all of an input shorter than that), kept loaded from
/// one skip to the next.
///
/// Most runs (a scheme, a host, a path up to its first `%`, a query) are shorter
/// than 32 bytes, and most end in the window the skip before them loaded. Then a
/// skip tests bytes already in a register, with the table of a state the
/// processor has predicted, and what waits for the end of the run before it is
/// only a shift and a count of zeros; a skip that loads its bytes from where the
/// run before it ended waits for that load and the tests after it, some 20
/// cycles a skip. And a run of 10 to 30 bytes ends in the first test of a window
/// of 32, a branch that goes the same way skip after skip, where with a block of
/// 16 at a time it was a coin the processor often guessed wrong.
pub(super) struct Window {
    /// Where the window begins: at most `bytes.len() - wide`.
    at: usize,
    /// How many bytes the window holds: 32, or the input's length if shorter.
    wide: usize,
    /// The window's bytes in order, from `at`: 32 of them, or for an input
    /// shorter than 32 bytes all of it, followed by zeros. A run that reaches
    /// the end of a short input stops there either way: at the first zero,
    /// in the test that finds every other end of a run, where its table
    /// holds no NUL (URI's and IRI's tables); in the test of the window's end
    /// after it, where the table holds it (LEIRI's, which allow controls).
    lanes: __m256i,
    /// For each byte of `lanes`, the bit of its high half ([`HIGH_HALVES`]):
    /// the half of the test of [`Window::outside`] that does not depend on the
    /// table, looked up once for every skip in the window.
    high: __m256i,
}

impl Window {
    /// The window at the start of `bytes`.
    ///
    /// # Safety
    /// The processor must have AVX2, and `bytes` must hold at least 16 bytes.
    #[inline(always)]
    pub(super) unsafe fn new(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() >= 16);
        let wide = bytes.len().min(32);
        // SAFETY: the caller's promise.
        unsafe { Window::load(bytes, 0, wide) }
    }

    /// The window of `wide` bytes from `at`.
    ///
    /// # Safety
    /// The processor must have AVX2, and `16 <= wide <= bytes.len() - at`.
    #[inline(always)]
    unsafe fn load(bytes: &[u8], at: usize, wide: usize) -> Self {
        debug_assert!(16 <= wide && at + wide <= bytes.len());
        // SAFETY: both loads of the input read 16 bytes inside `bytes[at..at +
        // wide]`; the load of `TO_THE_END` 16 bytes from its `32 - wide`th, where
        // `32 - wide <= 16` (the caller's promise).
        unsafe {
            let from = bytes.as_ptr().add(at);
            // The 16 bytes that end the window, moved down to where they are in
            // it (from byte 16 of the window on) and followed by zeros: by
            // `32 - wide` places, none when the window is 32 bytes.
            let last = _mm_loadu_si128(from.add(wide - 16).cast::<__m128i>());
            let moves = _mm_loadu_si128(TO_THE_END.as_ptr().add(32 - wide).cast::<__m128i>());
            let lanes = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_loadu_si128(from.cast::<__m128i>())),
                _mm_shuffle_epi8(last, moves),
                1,
            );
            let high = _mm256_broadcastsi128_si256(_mm_loadu_si128(
                HIGH_HALVES.as_ptr().cast::<__m128i>(),
            ));
            let halves = _mm256_and_si256(_mm256_srli_epi16(lanes, 4), _mm256_set1_epi8(0x0F));
            Window {
                at,
                wide,
                lanes,
                high: _mm256_shuffle_epi8(high, halves),
            }
        }
    }

    /// The bytes of the window that are not in the set of `low` (a table's
    /// `low_halves` in each lane), as a mask of 32 bits (beyond `wide`, the
    /// zeros that end a short input, never in): their two halves' entries have
    /// no bit in common. The low halves need no mask: `vpshufb` reads the low
    /// four bits of an index, and gives 0 where its top bit is set, a byte
    /// beyond ASCII, never in.
    #[inline(always)]
    fn outside(&self, low: __m256i) -> u64 {
        // SAFETY: a `Window` is only made where the processor has AVX2.
        let lanes = unsafe {
            let both = _mm256_and_si256(_mm256_shuffle_epi8(low, self.lanes), self.high);
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(both, _mm256_setzero_si256())) as u32
        };
        u64::from(lanes)
    }

    /// [`Skip::skip`] for the table whose `low_halves` are `low`: in the
    /// window, then in whole windows of the input while the run goes on (each
    /// loaded from where the one before ends, so that the loads of a long run
    /// do not wait on one another), then in the last.
    #[inline(always)]
    fn skip_in(&mut self, low: __m256i, bytes: &[u8], mut i: usize) -> usize {
        let n = bytes.len();
        debug_assert!(self.at <= i && i <= n);
        // The window's bits from `i` on (none if the walk has stepped past it).
        let from = i - self.at;
        if from < self.wide {
            let out = self.outside(low) >> from;
            if out != 0 {
                return i + out.trailing_zeros() as usize;
            }
        }
        let end = self.at + self.wide;
        if end == n {
            return n;
        }
        // Every byte from `i` to the window's end is in.
        i = i.max(end);
        while i + self.wide <= n {
            // SAFETY: the window's bytes are in the input, and the processor has
            // AVX2 (a `Window`).
            *self = unsafe { Window::load(bytes, i, self.wide) };
            let out = self.outside(low);
            if out != 0 {
                return i + out.trailing_zeros() as usize;
            }
            i += self.wide;
        }
        if i == n {
            return n;
        }
        // Fewer bytes left than a window: the last window of the input, less
        // the bits of the bytes before `i`.
        // SAFETY: as above.
        *self = unsafe { Window::load(bytes, n - self.wide, self.wide) };
        let out = self.outside(low) >> (i - self.at);
        if out != 0 {
            i + out.trailing_zeros() as usize
        } else {
            n
        }
    }
}

impl Skip for Window {
    #[inline(always)]
    fn skip<const N: usize, const T: usize>(
        &mut self,
        a: &Automaton<N, T>,
        state: State,
        bytes: &[u8],
        i: usize,
    ) -> Option<usize> {
        // A volatile read keeps each arm's load of its table's low halves in
        // the arm, one instruction: the compiler would otherwise hoist all
        // fifteen out of the walk's loop, run before every walk whichever
        // tables it uses.
        by_scan_table!(state, |k| {
            // SAFETY: the volatile read is of the 32 bytes of one table's low
            // halves, a `Halves`, which is aligned to 32.
            unsafe {
                let halves = core::ptr::from_ref(&a.low_halves[k]).cast::<__m256i>();
                self.skip_in(core::ptr::read_volatile(halves), bytes, i)
            }
        })
    }
}

/// [`Skip::skip`] sixteen bytes at a time with no window kept, for a caller not
/// compiled for AVX2: the combinators' runs, each skipped on its own, are too
/// short to repay a window of 32 bytes loaded for each.
///
/// # Safety
/// The processor must have AVX2, and `bytes` must hold at least 16 bytes.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn skip_with_avx2(table: &ScanTable, bytes: &[u8], mut i: usize) -> usize {
    let n = bytes.len();
    debug_assert!(n >= 16 && i <= n);
    // SAFETY: AVX2 is there (the caller's promise), and the table's load reads
    // its sixteen bytes; every load below reads a block's sixteen bytes at an
    // offset at most `n - 16`.
    let low = unsafe { _mm_loadu_si128(table.low_halves.as_ptr().cast::<__m128i>()) };
    let outside = |at: usize| -> u32 {
        // SAFETY: as above.
        unsafe {
            let v = _mm_loadu_si128(bytes.as_ptr().add(at).cast::<__m128i>());
            let high = _mm_loadu_si128(HIGH_HALVES.as_ptr().cast::<__m128i>());
            let hi = _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0F));
            let both = _mm_and_si128(_mm_shuffle_epi8(low, v), _mm_shuffle_epi8(high, hi));
            _mm_movemask_epi8(_mm_cmpeq_epi8(both, _mm_setzero_si128())) as u32
        }
    };
    while i + 16 <= n {
        let out = outside(i);
        if out != 0 {
            return i + out.trailing_zeros() as usize;
        }
        i += 16;
    }
    if i == n {
        return n;
    }
    // Fewer than 16 bytes left: the last 16 of the input, less those before `i`.
    let out = outside(n - 16) >> (16 - (n - i));
    if out != 0 {
        i + out.trailing_zeros() as usize
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::super::skip;
    use super::*;
    use crate::grammar::automata::{IRI, LEIRI, URI};

    /// 32 at a time skips exactly what byte by byte skips: every table of
    /// every grammar, from every offset, over inputs that put every byte at
    /// every position of a block and of a window of two, and end at every offset
    /// of one; each with a window of its own, and with one window kept from
    /// skip to skip as a walk keeps it.
    #[test]
    fn skips_what_the_bytewise_skip_skips() {
        if !available() {
            return;
        }
        // Each table once: the grammars share most of theirs.
        let mut tables: Vec<&ScanTable> = Vec::new();
        let all = URI.scan_tables.iter().chain(&IRI.scan_tables);
        for t in all.chain(&LEIRI.scan_tables) {
            if !tables.iter().any(|u| u.low_halves == t.low_halves) {
                tables.push(t);
            }
        }
        let mut checked = 0;
        for table in tables {
            // A run of bytes in the set (or of `a` if the set is empty), broken by
            // one byte `b` at position `at`, cut to each length from 16 to 40 and
            // some to 72.
            let inside = (0..=255u8)
                .find(|&b| table.bytes[usize::from(b)])
                .unwrap_or(b'a');
            // Under Miri (which checks the window's loads for reads outside the
            // input), a sample: every 29th byte, seven lengths.
            let (byte_step, lengths): (usize, Vec<usize>) = if cfg!(miri) {
                (29, vec![16, 17, 23, 31, 32, 40, 70])
            } else {
                (1, (16..=40).chain([47, 48, 63, 64, 65, 71, 72]).collect())
            };
            // SAFETY: `available()`.
            let low = unsafe {
                _mm256_broadcastsi128_si256(_mm_loadu_si128(table.low_halves.as_ptr().cast()))
            };
            for b in (0..=255u8).step_by(byte_step) {
                for at in [0, 1, 7, 15, 16, 17, 30, 31, 32, 33, 47, 63, 64, 71] {
                    let mut text = [inside; 72];
                    text[at] = b;
                    for &len in &lengths {
                        let bytes = &text[..len];
                        let back = [33, 32, 31, 17, 16].map(|k| len.saturating_sub(k));
                        let mut from: Vec<usize> = [0, 1, 5].into_iter().chain(back).collect();
                        from.extend([len - 1, len]);
                        from.sort_unstable();
                        // SAFETY: `available()`, and 16 bytes or more.
                        let mut kept = unsafe { Window::new(bytes) };
                        // Where the walk may skip from next: not before the end
                        // of the run the kept window found last.
                        let mut next = 0;
                        for i in from {
                            // SAFETY: as above.
                            let fast = unsafe { skip_with_avx2(table, bytes, i) };
                            let expected = skip(&table.bytes, bytes, i);
                            assert_eq!(fast, expected, "byte {b} at {at}, {len} from {i}");
                            let i = i.max(next);
                            next = kept.skip_in(low, bytes, i);
                            let expected = skip(&table.bytes, bytes, i);
                            assert_eq!(next, expected, "kept: byte {b} at {at}, {len} from {i}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 0);
    }
}
