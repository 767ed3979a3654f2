//! The compiled grammar at run time: walking a deterministic automaton over bytes
//! (the tables of `automata.rs`, generated from `grammar/` by
//! `abnf/src/codegen/automata.rs`).
//!
//! One table lookup per byte decides a rule exactly, with no calls and no
//! backtracking: ABNF's unordered alternation needs no lookahead here, because a
//! deterministic automaton follows every alternative at once. Where a state stays in
//! itself on many bytes (the characters of a path segment, of a query), the walk
//! skips them with a byte table instead of a transition each, so long runs cost about
//! one load per byte.
//!
//! The automaton's sizes are type parameters, so that each grammar's walk is compiled
//! with its own constants: `N` byte classes and `T` transitions (states × `N`).
//!
//! On x86-64 processors with SSSE3 (nearly all; detected at run time with the `std`
//! feature, or enabled at compile time), the skip tests sixteen bytes at once: every
//! scan table is a set of ASCII bytes, and such a set is decided by two 16-entry
//! tables indexed by a byte's two halves (see [`ScanTable`]), which one `pshufb` each
//! looks up for sixteen bytes. The walk is the same code either way (`walk`), compiled
//! twice; which skip it uses is its only difference.

use crate::reference::split::Boundaries;

/// A state as the tables hold it: the state's number in the low 11 bits
/// ([`NUMBER`]), in the high 4 the number of its scan table (0: none), so that the
/// walk knows whether and how to scan without another lookup; and between them, in a
/// transition of `next`, the mark [`CALM`]. The dead state is 0.
pub(crate) type State = u16;

/// The bits of a [`State`] that number it.
pub(crate) const NUMBER: State = 0x07FF;

/// The bit of a transition that marks it calm: it does not lead to the dead state,
/// and stays in the part of a reference of the state it leaves (their `info` parts
/// are the same). The split walk has something to do besides going on only where a
/// transition is not calm, and one test finds both cases.
const CALM: State = 0x0800;

/// The bit of a state's `info` that says it accepts.
pub(crate) const ACCEPTS: u8 = 0x80;

/// The bits of a state's `info` that say where in a reference it is.
const PART: u8 = 0x0F;

/// A compiled automaton (see `automata.rs` for the layout of the tables).
#[derive(Debug)]
pub(crate) struct Automaton<const N: usize, const T: usize> {
    /// The class of each byte.
    pub classes: [u8; 256],
    /// `next[number * N + class]`; 0 is the dead state.
    pub next: [State; T],
    /// Per state number (all 2,048, so that no lookup can miss): [`ACCEPTS`] if the
    /// input may end there, and in the low bits where in a reference the state is (a
    /// `Part` as a number; 0 outside `IRI-reference`).
    pub info: [u8; 2048],
    /// The bytes on which a state stays in itself, by the table number a state
    /// carries in its top 4 bits (table 0, never used, is empty).
    pub scan_tables: [ScanTable; 16],
    /// The start state of each rule (as in `next`), indexed by `Rule as usize`;
    /// `State::MAX`: the rule is not compiled.
    pub starts: &'static [State],
}

/// Why the walk stopped short of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rejected {
    /// The byte at this offset cannot continue any match: no match has this prefix.
    At(usize),
    /// The input ended where a match needs more.
    End,
}

/// A set of bytes a state stays in: the bytes a walk may skip.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScanTable {
    /// Whether each byte is in the set.
    pub bytes: [bool; 256],
    /// The same set for the sixteen-at-a-time test, when every byte in it is ASCII
    /// (`ascii`): bit `h` of `low_halves[l]` is set if the byte `h * 16 + l` is in. A
    /// byte `b` is then in the set iff `low_halves[b & 15]` has bit `b >> 4`, which
    /// is `low_halves[b & 15] & HIGH_HALVES[b >> 4] != 0`: two lookups of sixteen
    /// entries each, what `pshufb` does for sixteen bytes at once. Every subset of
    /// ASCII has such tables, because ASCII has eight high halves and a byte has
    /// eight bits; a byte at or above 0x80 has a high half of 8 or more, whose entry
    /// in [`HIGH_HALVES`] is 0: never in.
    pub low_halves: [u8; 16],
    /// Whether the set holds ASCII bytes only (so that `low_halves` decides it).
    pub ascii: bool,
}

/// The bit of each high half of a byte in [`ScanTable::low_halves`]: bit `h` for
/// `h` below 8; none for the halves of bytes beyond ASCII.
const HIGH_HALVES: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

/// A scan table from its 256 bits, four words of 64 (for the generated tables).
pub(crate) const fn scan_table(bits: [u64; 4]) -> ScanTable {
    let mut t = ScanTable {
        bytes: [false; 256],
        low_halves: [0; 16],
        ascii: bits[2] == 0 && bits[3] == 0,
    };
    let mut b = 0;
    while b < 256 {
        let is_in = bits[b / 64] >> (b % 64) & 1 != 0;
        t.bytes[b] = is_in;
        if is_in && b < 0x80 {
            t.low_halves[b & 15] |= 1 << (b >> 4);
        }
        b += 1;
    }
    t
}

/// How a walk skips the bytes of a scan table: [`skip`] one byte at a time, or
/// sixteen at a time where the processor can.
trait Skip {
    /// How many bytes of `bytes` from `i` on are in `table`, added to `i`.
    fn skip(table: &ScanTable, bytes: &[u8], i: usize) -> usize;
}

/// The portable skip, [`skip`].
struct Bytewise;

impl Skip for Bytewise {
    #[inline(always)]
    fn skip(table: &ScanTable, bytes: &[u8], i: usize) -> usize {
        skip(&table.bytes, bytes, i)
    }
}

impl<const N: usize, const T: usize> Automaton<N, T> {
    /// The start state of `rule` (by `Rule as usize`), if it is compiled.
    #[inline]
    pub(crate) fn start(&self, rule: usize) -> Option<State> {
        match self.starts.get(rule) {
            Some(&s) if s != State::MAX => Some(s),
            _ => None,
        }
    }

    /// Runs the automaton from `start` over all of `bytes`.
    #[inline]
    pub(crate) fn run(&self, start: State, bytes: &[u8]) -> Result<(), Rejected> {
        // Inputs shorter than a block gain nothing from it.
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 16 && sixteen::available() {
            // SAFETY: the processor has SSSE3, and there are 16 bytes.
            return unsafe { self.run_sixteen(start, bytes) };
        }
        self.walk_run::<Bytewise>(start, bytes)
    }

    /// [`Automaton::run`] compiled for SSSE3, skipping sixteen bytes at a time.
    ///
    /// # Safety
    /// The processor must have SSSE3, and `bytes` must hold 16 bytes or more.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    unsafe fn run_sixteen(&self, start: State, bytes: &[u8]) -> Result<(), Rejected> {
        self.walk_run::<sixteen::Sixteen>(start, bytes)
    }

    /// The walk of [`Automaton::run`], with the skip `S`.
    #[inline(always)]
    fn walk_run<S: Skip>(&self, start: State, bytes: &[u8]) -> Result<(), Rejected> {
        let mut state = start;
        let mut i = 0;
        loop {
            let s = usize::from(state & NUMBER);
            let scan = usize::from(state >> 12) & 15;
            if scan != 0 {
                i = S::skip(&self.scan_tables[scan], bytes, i);
            }
            let Some(&b) = bytes.get(i) else {
                return if self.info[s] & ACCEPTS != 0 {
                    Ok(())
                } else {
                    Err(Rejected::End)
                };
            };
            let at = s * N + usize::from(self.classes[usize::from(b)]);
            debug_assert!(at < T);
            // SAFETY: the tables are closed (the generator checks it, and the test
            // `tables_are_closed`): every state number in `next` and `starts` is below
            // T / N and every class below N, so `at` is below T.
            state = unsafe { *self.next.get_unchecked(at) };
            if state == 0 {
                return Err(Rejected::At(i));
            }
            i += 1;
        }
    }

    /// Runs the automaton of `IRI-reference` from `start` over all of `bytes`, and
    /// writes down in `found` (the caller's) where it entered each part of a
    /// reference.
    #[inline]
    pub(crate) fn split(
        &self,
        start: State,
        bytes: &[u8],
        found: &mut Boundaries,
    ) -> Result<(), Rejected> {
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 16 && sixteen::available() {
            // SAFETY: the processor has SSSE3, and there are 16 bytes.
            return unsafe { self.split_sixteen(start, bytes, found) };
        }
        self.walk_split::<Bytewise>(start, bytes, found)
    }

    /// [`Automaton::split`] compiled for SSSE3, skipping sixteen bytes at a time.
    ///
    /// # Safety
    /// The processor must have SSSE3, and `bytes` must hold 16 bytes or more.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    unsafe fn split_sixteen(
        &self,
        start: State,
        bytes: &[u8],
        found: &mut Boundaries,
    ) -> Result<(), Rejected> {
        self.walk_split::<sixteen::Sixteen>(start, bytes, found)
    }

    /// The walk of [`Automaton::split`], with the skip `S`.
    #[inline(always)]
    fn walk_split<S: Skip>(
        &self,
        start: State,
        bytes: &[u8],
        found: &mut Boundaries,
    ) -> Result<(), Rejected> {
        let mut state = start;
        let mut i = 0;
        loop {
            let s = usize::from(state & NUMBER);
            let scan = usize::from(state >> 12) & 15;
            if scan != 0 {
                // A state stays in its part on the bytes it scans.
                i = S::skip(&self.scan_tables[scan], bytes, i);
            }
            let Some(&b) = bytes.get(i) else {
                if self.info[s] & ACCEPTS == 0 {
                    return Err(Rejected::End);
                }
                return Ok(());
            };
            let at = s * N + usize::from(self.classes[usize::from(b)]);
            debug_assert!(at < T);
            // SAFETY: as in `run`.
            state = unsafe { *self.next.get_unchecked(at) };
            if state & CALM == 0 {
                let s = usize::from(state & NUMBER);
                if s == 0 {
                    return Err(Rejected::At(i));
                }
                found.enter(self.info[s] & PART, i as u32);
            }
            i += 1;
        }
    }

    /// Whether all of `bytes` matches the rule that starts at `start`.
    #[inline]
    pub(crate) fn accepts(&self, start: State, bytes: &[u8]) -> bool {
        self.run(start, bytes).is_ok()
    }
}

/// How many bytes of `bytes` from `i` on are in `table`: four at a time while all
/// four are in (their tests are independent, so they overlap), then one at a time.
#[inline(always)]
fn skip(table: &[bool; 256], bytes: &[u8], mut i: usize) -> usize {
    let t = |b: u8| table[usize::from(b)];
    let n = bytes.len();
    while i + 4 <= n {
        // SAFETY: i + 3 < n, the length of `bytes`.
        let q = unsafe { bytes.get_unchecked(i..i + 4) };
        if !(t(q[0]) & t(q[1]) & t(q[2]) & t(q[3])) {
            break;
        }
        i += 4;
    }
    // SAFETY: i < n is tested first.
    while i < n && t(unsafe { *bytes.get_unchecked(i) }) {
        i += 1;
    }
    i
}

/// How many bytes of `bytes` from `i` on are in `table`, a table of ASCII bytes,
/// added to `i`: for the combinators' runs ([`crate::grammar::runtime::Scan`]),
/// outside the walks. Sixteen at a time where the processor can and there are 16
/// bytes; else one at a time (the runs are short: the four-at-a-time loop of
/// [`skip`] costs more than it saves on them).
#[inline(always)]
pub(crate) fn skip_ascii(table: &ScanTable, bytes: &[u8], i: usize) -> usize {
    debug_assert!(table.ascii);
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 16 && sixteen::available() {
        // SAFETY: the processor has SSSE3, and there are 16 bytes.
        return unsafe { sixteen::skip_with_ssse3(table, bytes, i) };
    }
    i + bytes[i..]
        .iter()
        .position(|&b| !table.bytes[usize::from(b)])
        .unwrap_or(bytes.len() - i)
}

/// The sixteen-at-a-time skip, for x86-64 processors with SSSE3.
#[cfg(target_arch = "x86_64")]
mod sixteen {
    use super::{skip, ScanTable, Skip, HIGH_HALVES};
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16,
    };

    /// Whether the processor has SSSE3: known when compiling for a target that has
    /// it; otherwise asked of the processor (once; the standard library keeps the
    /// answer), which needs `std`. Without either, the walk skips byte by byte.
    #[inline(always)]
    pub(super) fn available() -> bool {
        #[cfg(target_feature = "ssse3")]
        return true;
        #[cfg(all(not(target_feature = "ssse3"), feature = "std"))]
        return std::is_x86_feature_detected!("ssse3");
        #[cfg(all(not(target_feature = "ssse3"), not(feature = "std")))]
        return false;
    }

    /// The skip of the walks compiled for SSSE3 (`run_sixteen`, `split_sixteen`).
    pub(super) struct Sixteen;

    impl Skip for Sixteen {
        #[inline(always)]
        fn skip(table: &ScanTable, bytes: &[u8], i: usize) -> usize {
            if !table.ascii {
                return skip(&table.bytes, bytes, i);
            }
            // SAFETY: `Sixteen` is only used by the walks compiled with SSSE3, which
            // run only where the processor has it, on inputs of 16 bytes or more.
            unsafe { skip_sixteen(table, bytes, i) }
        }
    }

    /// [`skip_sixteen`] for a caller not compiled for SSSE3.
    ///
    /// # Safety
    /// As for [`skip_sixteen`].
    #[target_feature(enable = "ssse3")]
    pub(crate) unsafe fn skip_with_ssse3(table: &ScanTable, bytes: &[u8], i: usize) -> usize {
        // SAFETY: the caller's promise.
        unsafe { skip_sixteen(table, bytes, i) }
    }

    /// [`Skip::skip`] sixteen bytes at a time, for a table of ASCII bytes.
    ///
    /// # Safety
    /// The processor must have SSSE3, and `bytes` must hold at least 16 bytes.
    #[inline(always)]
    unsafe fn skip_sixteen(table: &ScanTable, bytes: &[u8], mut i: usize) -> usize {
        let n = bytes.len();
        debug_assert!(n >= 16 && i <= n);
        // SAFETY (every block below): SSSE3 is there (the caller's promise), and
        // every load reads 16 bytes at an offset at most `n - 16`.
        let (low, high, halves) = unsafe {
            (
                _mm_loadu_si128(table.low_halves.as_ptr().cast::<__m128i>()),
                _mm_loadu_si128(HIGH_HALVES.as_ptr().cast::<__m128i>()),
                _mm_set1_epi8(0x0F),
            )
        };
        // The bytes of the 16 from `at` that are not in the set, as the bits of a
        // mask: their two halves' entries have no bit in common.
        let outside = |at: usize| -> u32 {
            unsafe {
                let v = _mm_loadu_si128(bytes.as_ptr().add(at).cast::<__m128i>());
                let lo = _mm_and_si128(v, halves);
                let hi = _mm_and_si128(_mm_srli_epi16(v, 4), halves);
                let both = _mm_and_si128(_mm_shuffle_epi8(low, lo), _mm_shuffle_epi8(high, hi));
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
        use super::*;
        use crate::grammar::automata::{IRI, LEIRI, URI};

        /// Sixteen at a time skips exactly what byte by byte skips: every table of
        /// every grammar, from every offset, over inputs that put every byte at
        /// every position of a block and end at every offset of one.
        #[test]
        fn skips_what_the_bytewise_skip_skips() {
            if !available() {
                return;
            }
            let tables = URI
                .scan_tables
                .iter()
                .chain(&IRI.scan_tables)
                .chain(&LEIRI.scan_tables);
            let mut checked = 0;
            for table in tables.filter(|t| t.ascii) {
                // A run of bytes in the set (or of `a` if the set is empty), broken by
                // one byte `b` at position `at`, cut to each length from 16 to 40.
                let inside = (0..=255u8)
                    .find(|&b| table.bytes[usize::from(b)])
                    .unwrap_or(b'a');
                // Under Miri (which checks the loads of `skip_sixteen` for reads
                // outside the input), a sample: every 29th byte, five lengths.
                let (byte_step, lengths): (usize, Vec<usize>) = if cfg!(miri) {
                    (29, vec![16, 17, 23, 32, 40])
                } else {
                    (1, (16..=40).collect())
                };
                for b in (0..=255u8).step_by(byte_step) {
                    for at in [0, 1, 7, 15, 16, 17, 30, 39] {
                        let mut text = [inside; 40];
                        text[at] = b;
                        for &len in &lengths {
                            let bytes = &text[..len];
                            for i in [0, 1, 5, len - 16, len - 1, len] {
                                // SAFETY: `available()`, and 16 bytes or more.
                                let fast = unsafe { skip_sixteen(table, bytes, i) };
                                assert_eq!(
                                    fast,
                                    skip(&table.bytes, bytes, i),
                                    "byte {b} at {at}, {len} bytes from {i}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
            assert!(checked > 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::automata::{IRI, LEIRI, URI};

    fn closed<const N: usize, const T: usize>(a: &Automaton<N, T>) {
        let states = T / N;
        assert_eq!(T % N, 0);
        assert!(states <= usize::from(NUMBER) + 1);
        assert!(a.classes.iter().all(|&c| usize::from(c) < N));
        for &s in a
            .next
            .iter()
            .chain(a.starts.iter().filter(|&&s| s != State::MAX))
        {
            assert!(usize::from(s & NUMBER) < states, "state {s:#x} of {states}");
            // A state's scan table is its own: it stays in itself on the table's bytes.
            let table = &a.scan_tables[usize::from(s >> 12)].bytes;
            for b in 0..=255u8 {
                if table[usize::from(b)] {
                    let at = usize::from(s & NUMBER) * N + usize::from(a.classes[usize::from(b)]);
                    assert_eq!(a.next[at] & NUMBER, s & NUMBER, "scan of {s:#x} on {b}");
                }
            }
        }
        assert!(
            a.scan_tables[0].bytes.iter().all(|&x| !x),
            "table 0 is the empty table"
        );
        // The mark of calm, on exactly the transitions the split walk need not stop at.
        for (k, &t) in a.next.iter().enumerate() {
            let (from, to) = (k / N, usize::from(t & NUMBER));
            if to == 0 {
                assert_eq!(t, 0, "transition {k}: the dead state is one value");
            } else {
                let calm = a.info[from] & PART == a.info[to] & PART;
                assert_eq!(t & CALM != 0, calm, "transition {k} to {t:#x}");
            }
        }
        for &s in a.starts.iter().filter(|&&s| s != State::MAX) {
            assert_eq!(s & CALM, 0, "a start is no transition");
        }
    }

    /// The safety argument of `run` and `split`: every state in the tables numbers a
    /// row of `next`, and every class a column.
    #[test]
    fn tables_are_closed() {
        closed(&URI);
        closed(&IRI);
        closed(&LEIRI);
    }
}
