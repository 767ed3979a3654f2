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
//! On x86-64 processors with AVX2 (Intel's since 2013, AMD's since 2015; detected at
//! run time with the `std` feature, or enabled at compile time), the skip tests 32
//! bytes at once: every scan table is a set of ASCII bytes (the generator makes them
//! so: the bytes of a character beyond ASCII are stepped, one transition each), and
//! such a set is decided by two 16-entry tables indexed by a byte's two halves (see
//! [`ScanTable`]), which one `vpshufb` each looks up for 32 bytes. The walk is the
//! same code either way (`walk_run`, `walk_split`), compiled twice; which skip it
//! uses is its only difference.

use super::split::Boundaries;
use crate::Rule;

/// A state as the walk holds it, and as `next` holds the state a transition leads
/// to: everything the walk asks of a state is in its bits, so that a step is one
/// load (`next[row + class]`) with nothing computed between two loads but an `and`
/// and an `add`:
///
/// | bits | what |
/// |---|---|
/// | 0–19 ([`ROW`]) | where the state's row of transitions begins in `next`: its number × `N` (0: the dead state) |
/// | 20 ([`ACCEPTS`]) | the input may end here |
/// | 21 ([`CALM`]) | (in a transition) nothing to write down: it stays in its part of a reference, or enters one the components are not read from |
/// | 22–25 ([`PART_SHIFT`]) | where in a reference the state is (a `Part` as a number; 0 outside `IRI-reference`) |
/// | 26–29 ([`SCAN_SHIFT`]) | the number of its scan table (0: none) |
///
/// The row is premultiplied because the multiplication by `N` would otherwise be
/// on the walk's critical path, a chain of dependent loads one byte long each.
/// The dead state is [`DEAD`].
pub(crate) type State = u32;

/// The bits of a [`State`] that say where its row begins in `next`.
pub(crate) const ROW: State = (1 << 20) - 1;

/// The bit of a [`State`] that says it accepts.
pub(crate) const ACCEPTS: State = 1 << 20;

/// The bit of a transition that marks it calm: it does not lead to the dead state,
/// and stays in the part of a reference of the state it leaves or enters one the
/// components are not read from (`Part::is_recorded`). The split walk has something
/// to do besides going on only where a transition is not calm, and one test finds
/// both cases.
const CALM: State = 1 << 21;

/// Where a [`State`]'s part of a reference begins (four bits).
const PART_SHIFT: u32 = 22;

/// Where a [`State`]'s scan table number begins (four bits, the last of a state).
const SCAN_SHIFT: u32 = 26;

/// The bits of a [`State`] that say it scans.
const SCANS: State = 15 << SCAN_SHIFT;

/// The dead state: row 0, and the last scan table number, which no table has
/// (the generator makes at most 14). So a walk asks one question of a state
/// after each step, whether it scans, and the skip's choice of its table's code
/// (a jump by the number, `by_scan_table!`) tells the dead state apart: no test
/// of its own anywhere.
const DEAD: State = SCANS;

/// How many rules `starts` holds (every rule of `Rule::ALL`).
const RULES: usize = Rule::ALL.len();

/// The tables as the generator writes them (`automata.rs`), in their compact form:
/// 16 bits a transition, each row written as its difference from an earlier one;
/// [`Automaton::new`] turns them into the walk's form at compile time.
#[derive(Debug)]
pub(crate) struct Tables<const N: usize, const T: usize> {
    /// The class of each byte.
    pub classes: [u8; 256],
    /// The transitions `next[number * N + class]`, each the number of the next
    /// state in the low 11 bits (0: dead), 0x800 where the transition is calm, the
    /// scan table's number in the high 4; written row by row as the difference
    /// from an earlier row ([`Rows`]).
    pub rows: Rows,
    /// Per state number (all 2,048, so that no lookup can miss): 0x80 if the input
    /// may end there, and in the low bits where in a reference the state is.
    pub info: [u8; 2048],
    /// The bytes on which a state stays in itself, by the table number a state
    /// carries in its top 4 bits (table 0, never used, is empty, and so is table
    /// 15, the number that marks the dead state).
    pub scan_tables: [ScanTable; 16],
    /// The start state of each rule, as in `next`, by `Rule as usize`; `u16::MAX`:
    /// the rule is not compiled.
    pub starts: &'static [u16],
}

/// The transitions of an automaton, row by row (a row: a state's `N`), each row
/// written as its difference from an earlier row: a sixth of the size of the plain
/// table, which matters where the tables are downloaded (WebAssembly). Row `r` is
/// a copy of row `bases[r] - 1` (of dead ends if `bases[r]` is 0) with
/// `changes[r]` entries set, the next ones of `classes` (the class of each) and
/// `states` (the state it leads to). [`expand`] reads them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rows {
    pub bases: &'static [u16],
    pub changes: &'static [u8],
    pub classes: &'static [u8],
    pub states: &'static [u16],
}

/// A compiled automaton, as the walk reads it: [`Tables`] with every state widened
/// to a [`State`].
#[derive(Debug)]
pub(crate) struct Automaton<const N: usize, const T: usize> {
    /// The class of each byte.
    classes: [u8; 256],
    /// `next[row + class]`, where `row` is a state's [`ROW`]; [`DEAD`] is the dead
    /// state.
    #[cfg(not(all(target_family = "wasm", feature = "std")))]
    next: [State; T],
    /// On WebAssembly, the transitions as the generator wrote them ([`Rows`], a
    /// twelfth of the size of the widened ones): a module is downloaded, and the
    /// plain tables were most of its data. They are expanded and widened once, on
    /// the first walk ([`Self::transitions`]).
    #[cfg(all(target_family = "wasm", feature = "std"))]
    rows: Rows,
    /// What each state number says of itself, for widening `rows` ([`Tables::info`]).
    #[cfg(all(target_family = "wasm", feature = "std"))]
    info: [u8; 2048],
    /// `next` as on other targets, made from `rows` when first walked.
    #[cfg(all(target_family = "wasm", feature = "std"))]
    wide: std::sync::OnceLock<alloc::boxed::Box<[State; T]>>,
    /// The bytes on which a state stays in itself, by the table number of its state.
    pub scan_tables: [ScanTable; 16],
    /// Each scan table's `low_halves` twice over, 32 bytes apart: where the skip 32
    /// bytes at a time finds them with a shift, and loads them in one instruction.
    /// (Read by the AVX2 skip only: elsewhere the walk skips byte by byte.)
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    low_halves: [Halves; 16],
    /// The start state of each rule, indexed by `Rule as usize`; `State::MAX`: the
    /// rule is not compiled.
    starts: [State; RULES],
}

impl<const N: usize, const T: usize> Automaton<N, T> {
    /// The walk's automaton from the generator's tables, at compile time.
    pub(crate) const fn new(t: &Tables<N, T>) -> Self {
        assert!(T % N == 0 && T / N <= 0x800 && T <= ROW as usize + 1);
        assert!(t.starts.len() == RULES);
        let mut b = 0;
        while b < 256 {
            assert!(
                !t.scan_tables[15].bytes[b],
                "scan table 15 is the dead state's mark, not a table"
            );
            b += 1;
        }
        #[cfg(not(all(target_family = "wasm", feature = "std")))]
        let next = {
            let mut compact = [0; T];
            expand::<N>(&t.rows, &mut compact);
            let mut next = [0; T];
            let mut k = 0;
            while k < T {
                next[k] = widen::<N>(&t.info, compact[k]);
                k += 1;
            }
            next
        };
        let mut starts = [State::MAX; RULES];
        let mut r = 0;
        while r < RULES {
            if t.starts[r] != u16::MAX {
                starts[r] = widen::<N>(&t.info, t.starts[r]);
            }
            r += 1;
        }
        let mut low_halves = [Halves([0; 32]); 16];
        let mut k = 0;
        while k < 16 {
            let mut j = 0;
            while j < 32 {
                low_halves[k].0[j] = t.scan_tables[k].low_halves[j % 16];
                j += 1;
            }
            k += 1;
        }
        Automaton {
            classes: t.classes,
            #[cfg(not(all(target_family = "wasm", feature = "std")))]
            next,
            #[cfg(all(target_family = "wasm", feature = "std"))]
            rows: t.rows,
            #[cfg(all(target_family = "wasm", feature = "std"))]
            info: t.info,
            #[cfg(all(target_family = "wasm", feature = "std"))]
            wide: std::sync::OnceLock::new(),
            scan_tables: t.scan_tables,
            low_halves,
            starts,
        }
    }
}

/// A grammar's compiled automaton as a walk outside this crate reads it: the npm
/// package (`js/`) walks it in JavaScript over a string's characters, so that a
/// validation does not copy the string into WebAssembly memory. The walk is
/// [`Automaton::run`]'s with the skip left out: from a rule's start, `state =
/// next[(state & ROW) + classes[byte]]` for each byte of the UTF-8 of the input;
/// the input matches if the state reached [`WalkTables::ACCEPTS`]. A state stays
/// in itself on its scan table's bytes (table `state >> SCAN_SHIFT & 15`), which a
/// walk may skip; [`WalkTables::DEAD`] is the state no input leaves.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct WalkTables {
    /// The class of each byte.
    pub classes: &'static [u8; 256],
    /// The transitions: `next[(state & ROW) + class]`, a row of `class_count`
    /// for each state.
    pub next: &'static [u32],
    /// How many classes `classes` maps the bytes to.
    pub class_count: usize,
    /// The bytes on which a state stays in itself, by its scan table number.
    pub scan_tables: [&'static [bool; 256]; 16],
    /// The start state of each rule by `Rule as usize`; `u32::MAX`: the rule is
    /// not compiled (the combinators decide it).
    pub starts: &'static [u32],
}

impl WalkTables {
    /// The bits of a state that say where its row begins in `next`.
    pub const ROW: u32 = ROW;
    /// The bit of a state that says the input may end there.
    pub const ACCEPTS: u32 = ACCEPTS;
    /// Where a state's scan table number begins (four bits).
    pub const SCAN_SHIFT: u32 = SCAN_SHIFT;
    /// The dead state.
    pub const DEAD: u32 = DEAD;
}

impl<const N: usize, const T: usize> Automaton<N, T> {
    /// The tables of this automaton for a walk outside the crate.
    pub(crate) fn walk_tables(&'static self) -> WalkTables {
        WalkTables {
            classes: &self.classes,
            next: self.transitions(),
            class_count: N,
            scan_tables: core::array::from_fn(|k| &self.scan_tables[k].bytes),
            starts: &self.starts,
        }
    }
}

/// A scan table's [`ScanTable::low_halves`] twice, one copy for each 16-byte lane
/// of a 32-byte register (`vpshufb` looks up each lane in its own), aligned for one
/// load of 32 bytes.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(32))]
struct Halves([u8; 32]);

/// Writes the transitions `rows` describes into `next` (rows of `N`), row after
/// row: at compile time for the walk's tables; on WebAssembly, once on the first
/// walk. Panics (at compile time: the build fails) if `rows` do not describe
/// exactly `next.len()` transitions.
const fn expand<const N: usize>(rows: &Rows, next: &mut [u16]) {
    assert!(rows.bases.len() * N == next.len() && rows.changes.len() == rows.bases.len());
    assert!(rows.classes.len() == rows.states.len());
    let mut at = 0;
    let mut row = 0;
    while row < rows.bases.len() {
        let base = rows.bases[row] as usize;
        assert!(base <= row, "a row copies an earlier one");
        let mut class = 0;
        while class < N {
            next[row * N + class] = if base > 0 {
                next[(base - 1) * N + class]
            } else {
                0
            };
            class += 1;
        }
        let mut k = 0;
        while k < rows.changes[row] as usize {
            let class = rows.classes[at] as usize;
            assert!(class < N);
            next[row * N + class] = rows.states[at];
            at += 1;
            k += 1;
        }
        row += 1;
    }
    assert!(at == rows.classes.len(), "every change belongs to a row");
}

/// A compact state (as in [`Tables::rows`]) of an automaton of `N` classes whose
/// states say what [`Tables::info`] `info` says, as a [`State`].
const fn widen<const N: usize>(info: &[u8; 2048], compact: u16) -> State {
    let number = (compact & 0x7FF) as usize;
    if number == 0 {
        return DEAD;
    }
    let info = info[number] as State;
    let scan = (compact >> 12) as usize;
    let mut state = (number * N) as State;
    if info & 0x80 != 0 {
        state |= ACCEPTS;
    }
    if compact & 0x800 != 0 {
        state |= CALM;
    }
    state |= (info & 0x0F) << PART_SHIFT;
    state |= (scan as State) << SCAN_SHIFT;
    state
}

/// Why the walk stopped short of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rejected {
    /// The byte at this offset cannot continue any match: no match has this prefix.
    At(usize),
    /// The input ended where a match needs more.
    End,
}

/// A set of ASCII bytes a state stays in: the bytes a walk may skip.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScanTable {
    /// Whether each byte is in the set.
    pub bytes: [bool; 256],
    /// The same set for the test of many bytes at once: bit `h` of `low_halves[l]` is
    /// set if the byte `h * 16 + l` is in. A byte `b` is then in the set iff
    /// `low_halves[b & 15]` has bit `b >> 4`, which is `low_halves[b & 15] &
    /// HIGH_HALVES[b >> 4] != 0`: two lookups of sixteen entries each, what `pshufb`
    /// does for sixteen bytes at once. Every subset of ASCII has such tables,
    /// because ASCII has eight high halves and a byte has eight bits; a byte at or
    /// above 0x80 has a high half of 8 or more, whose entry in [`HIGH_HALVES`] is 0:
    /// never in.
    pub low_halves: [u8; 16],
}

/// The bit of each high half of a byte in [`ScanTable::low_halves`]: bit `h` for
/// `h` below 8; none for the halves of bytes beyond ASCII. (Read by the AVX2 skip
/// only.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const HIGH_HALVES: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

/// A scan table from its 256 bits, four words of 64 (for the generated tables), of
/// which the two beyond ASCII are 0.
pub(crate) const fn scan_table(bits: [u64; 4]) -> ScanTable {
    assert!(
        bits[2] == 0 && bits[3] == 0,
        "a scan table is a set of ASCII bytes"
    );
    let mut t = ScanTable {
        bytes: [false; 256],
        low_halves: [0; 16],
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

/// How a walk skips the bytes of a state's scan table: [`skip`] one byte at a
/// time, or 32 at a time where the processor can. A walk makes one for its
/// input, which may keep what it has read of the input from one skip to the next.
trait Skip {
    /// How many bytes of `bytes` (the walk's input) from `i` on are in the scan
    /// table of `state` (one of `a`'s), added to `i`; `None` if `state` is
    /// [`DEAD`].
    fn skip<const N: usize, const T: usize>(
        &mut self,
        a: &Automaton<N, T>,
        state: State,
        bytes: &[u8],
        i: usize,
    ) -> Option<usize>;
}

/// `$body` with `$k` the number of `$state`'s scan table, in an arm of its own for
/// each number, where `$k` is a constant. A skip's table is then at a constant
/// address in each arm: the processor predicts the arm (a reference's skips come in
/// the same order input after input) and reads the table before it knows the
/// state, which comes last, from the load of the step before; indexing by the
/// state's table number would make the reads wait for it. A fifth to a third of the
/// walk's time, on the corpus lists. `Some($body)`, or `None` for the number of
/// [`DEAD`]: the dead state is found in the jump that picks the arm, at no cost
/// to the other arms.
macro_rules! by_scan_table {
    ($state:expr, |$k:ident| $body:expr) => {
        by_scan_table!(@arms $state, $k, $body, 1 2 3 4 5 6 7 8 9 10 11 12 13 14)
    };
    (@arms $state:expr, $k:ident, $body:expr, $($n:literal)*) => {
        match (($state >> SCAN_SHIFT) & 15) as usize {
            $($n => {
                let $k: usize = $n;
                Some($body)
            })*
            15 => None,
            $k => Some($body),
        }
    };
}

/// The portable skip, [`skip`].
struct Bytewise;

impl Skip for Bytewise {
    #[inline(always)]
    fn skip<const N: usize, const T: usize>(
        &mut self,
        a: &Automaton<N, T>,
        state: State,
        bytes: &[u8],
        i: usize,
    ) -> Option<usize> {
        by_scan_table!(state, |k| skip(&a.scan_tables[k].bytes, bytes, i))
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

    /// The scan table of `state` (table 0, the empty one, if it has none).
    #[cfg(test)]
    fn scan_table_of(&self, state: State) -> &ScanTable {
        &self.scan_tables[((state >> SCAN_SHIFT) & 15) as usize]
    }

    /// The transitions, `next[row + class]` (see [`State`]): the automaton's own,
    /// or on WebAssembly the ones widened from its compact tables on the first call.
    #[inline(always)]
    pub(crate) fn transitions(&self) -> &[State; T] {
        #[cfg(not(all(target_family = "wasm", feature = "std")))]
        return &self.next;
        #[cfg(all(target_family = "wasm", feature = "std"))]
        return self.wide.get_or_init(|| {
            // Made on the heap in place: T states are too many for the stack.
            // SAFETY: all-zero bits are a valid `[u32; T]`.
            let mut wide: alloc::boxed::Box<[State; T]> =
                unsafe { alloc::boxed::Box::<[State; T]>::new_zeroed().assume_init() };
            let mut compact = alloc::vec![0; T];
            expand::<N>(&self.rows, &mut compact);
            for (w, &c) in wide.iter_mut().zip(compact.iter()) {
                *w = widen::<N>(&self.info, c);
            }
            wide
        });
    }

    /// The state a transition from `state` on byte `b` leads to, in `next` (the
    /// automaton's [`Self::transitions`], which a walk looks up once).
    #[inline(always)]
    fn step(&self, next: &[State; T], state: State, b: u8) -> State {
        let at = (state & ROW) as usize + usize::from(self.classes[usize::from(b)]);
        debug_assert!(at < T);
        // SAFETY: the tables are closed (the generator checks it, `new` asserts the
        // sizes, and the test `tables_are_closed` the rest): every row in `next` and
        // `starts` is a multiple of N below T and every class below N, so `at` is
        // below T.
        unsafe { *next.get_unchecked(at) }
    }

    /// Runs the automaton from `start` over all of `bytes`.
    ///
    /// Only the choice of a walk is inlined into the caller; each walk is a function
    /// of its own, so that the caller calls one function, not one that calls another.
    #[inline(always)]
    pub(crate) fn run(&self, start: State, bytes: &[u8]) -> Result<(), Rejected> {
        // Inputs shorter than a half window gain nothing from it.
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 16 && avx2::available() {
            // SAFETY: the processor has AVX2, and there are 16 bytes.
            return unsafe { self.run_avx2(start, bytes) };
        }
        self.run_bytewise(start, bytes)
    }

    /// [`Automaton::run`] skipping one byte at a time.
    #[inline(never)]
    fn run_bytewise(&self, start: State, bytes: &[u8]) -> Result<(), Rejected> {
        self.walk_run(Bytewise, start, bytes)
    }

    /// [`Automaton::run`] compiled for AVX2, skipping 32 bytes at a time.
    ///
    /// # Safety
    /// The processor must have AVX2, and `bytes` must hold 16 bytes or more.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(&self, start: State, bytes: &[u8]) -> Result<(), Rejected> {
        // SAFETY: the caller's promise.
        self.walk_run(unsafe { avx2::Window::new(bytes) }, start, bytes)
    }

    /// The walk of [`Automaton::run`], with the skip `S`.
    #[inline(always)]
    fn walk_run<S: Skip>(&self, mut s: S, start: State, bytes: &[u8]) -> Result<(), Rejected> {
        let next = self.transitions();
        let mut state = start;
        let mut i = 0;
        loop {
            if state & SCANS != 0 {
                i = self.skip(&mut s, state, bytes, i)?;
            }
            // A step a byte until a state scans (or is dead): the loop the
            // bytes of an IP literal, a port or a `%HH` run in, with one branch
            // back to its top.
            loop {
                let Some(&b) = bytes.get(i) else {
                    return ended(state);
                };
                state = self.step(next, state, b);
                i += 1;
                if state & SCANS != 0 {
                    break;
                }
            }
        }
    }

    /// Walks the automaton from `start` over `bytes` until no match can go on: the
    /// offset of the byte that led to the dead state (or the length of `bytes`),
    /// and whether the bytes before it are a match. Inlined as [`Automaton::run`] is.
    #[inline(always)]
    pub(crate) fn stop(&self, start: State, bytes: &[u8]) -> (usize, bool) {
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 16 && avx2::available() {
            // SAFETY: the processor has AVX2, and there are 16 bytes.
            return unsafe { self.stop_avx2(start, bytes) };
        }
        self.stop_bytewise(start, bytes)
    }

    /// [`Automaton::stop`] skipping one byte at a time.
    #[inline(never)]
    fn stop_bytewise(&self, start: State, bytes: &[u8]) -> (usize, bool) {
        self.walk_stop(Bytewise, start, bytes)
    }

    /// [`Automaton::stop`] compiled for AVX2, skipping 32 bytes at a time.
    ///
    /// # Safety
    /// The processor must have AVX2, and `bytes` must hold 16 bytes or more.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn stop_avx2(&self, start: State, bytes: &[u8]) -> (usize, bool) {
        // SAFETY: the caller's promise.
        self.walk_stop(unsafe { avx2::Window::new(bytes) }, start, bytes)
    }

    /// The walk of [`Automaton::stop`]: [`Automaton::walk_run`]'s, which also keeps
    /// the state before each step, to say whether the bytes before the one that
    /// led to the dead state are a match.
    #[inline(always)]
    fn walk_stop<S: Skip>(&self, mut s: S, start: State, bytes: &[u8]) -> (usize, bool) {
        let next = self.transitions();
        let mut state = start;
        let mut before = start;
        let mut i = 0;
        loop {
            if state & SCANS != 0 {
                match s.skip(self, state, bytes, i) {
                    Some(j) => i = j,
                    // Dead: the byte before `i` led here, from `before`.
                    None => return (i.saturating_sub(1), i > 0 && before & ACCEPTS != 0),
                }
            }
            loop {
                let Some(&b) = bytes.get(i) else {
                    return (i, state & ACCEPTS != 0);
                };
                before = state;
                state = self.step(next, state, b);
                i += 1;
                if state & SCANS != 0 {
                    break;
                }
            }
        }
    }

    /// Runs the automaton of `IRI-reference` from `start` over all of `bytes`, and
    /// writes down in `found` (the caller's) where it entered each part of a
    /// reference. Inlined as [`Automaton::run`] is.
    #[inline(always)]
    pub(crate) fn split(
        &self,
        start: State,
        bytes: &[u8],
        found: &mut Boundaries,
    ) -> Result<(), Rejected> {
        #[cfg(target_arch = "x86_64")]
        if bytes.len() >= 16 && avx2::available() {
            // SAFETY: the processor has AVX2, and there are 16 bytes.
            return unsafe { self.split_avx2(start, bytes, found) };
        }
        self.split_bytewise(start, bytes, found)
    }

    /// [`Automaton::split`] skipping one byte at a time.
    #[inline(never)]
    fn split_bytewise(
        &self,
        start: State,
        bytes: &[u8],
        found: &mut Boundaries,
    ) -> Result<(), Rejected> {
        self.walk_split(Bytewise, start, bytes, found)
    }

    /// [`Automaton::split`] compiled for AVX2, skipping 32 bytes at a time.
    ///
    /// # Safety
    /// The processor must have AVX2, and `bytes` must hold 16 bytes or more.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn split_avx2(
        &self,
        start: State,
        bytes: &[u8],
        found: &mut Boundaries,
    ) -> Result<(), Rejected> {
        // SAFETY: the caller's promise.
        self.walk_split(unsafe { avx2::Window::new(bytes) }, start, bytes, found)
    }

    /// The walk of [`Automaton::split`], with the skip `S`.
    #[inline(always)]
    fn walk_split<S: Skip>(
        &self,
        mut s: S,
        start: State,
        bytes: &[u8],
        found: &mut Boundaries,
    ) -> Result<(), Rejected> {
        let next = self.transitions();
        let mut state = start;
        let mut i = 0;
        loop {
            if state & SCANS != 0 {
                // A state stays in its part on the bytes it scans. (Never dead
                // here: the step to the dead state has returned.)
                i = self.skip(&mut s, state, bytes, i)?;
            }
            let Some(&b) = bytes.get(i) else {
                return ended(state);
            };
            state = self.step(next, state, b);
            if state & CALM == 0 {
                if state == DEAD {
                    return Err(Rejected::At(i));
                }
                found.enter((state >> PART_SHIFT) as u8 & 15, i as u32);
            }
            i += 1;
        }
    }

    /// Where a walk goes on after the run of `state` (a state that scans) from
    /// `i`, with the skip `S`; or, for the dead state, the rejection of the byte
    /// before `i`, which led to it.
    #[inline(always)]
    fn skip<S: Skip>(
        &self,
        s: &mut S,
        state: State,
        bytes: &[u8],
        i: usize,
    ) -> Result<usize, Rejected> {
        s.skip(self, state, bytes, i)
            .ok_or_else(|| Rejected::At(i - 1))
    }

    /// Whether all of `bytes` matches the rule that starts at `start`.
    #[inline]
    pub(crate) fn accepts(&self, start: State, bytes: &[u8]) -> bool {
        self.run(start, bytes).is_ok()
    }
}

/// A walk's verdict where the input ends in `state`.
#[inline(always)]
fn ended(state: State) -> Result<(), Rejected> {
    if state & ACCEPTS != 0 {
        Ok(())
    } else {
        Err(Rejected::End)
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

/// How many bytes of `bytes` from `i` on are in `table`, added to `i`: for the
/// combinators' runs ([`crate::grammar::runtime::Scan`]), outside the walks. Sixteen
/// at a time where the processor has AVX2 and there are 16 bytes; else one at a time
/// (the runs are short: the four-at-a-time loop of [`skip`] costs more than it saves
/// on them).
#[inline(always)]
pub(crate) fn skip_ascii(table: &ScanTable, bytes: &[u8], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() >= 16 && avx2::available() {
        // SAFETY: the processor has AVX2, and there are 16 bytes.
        return unsafe { avx2::skip_with_avx2(table, bytes, i) };
    }
    i + bytes[i..]
        .iter()
        .position(|&b| !table.bytes[usize::from(b)])
        .unwrap_or(bytes.len() - i)
}

/// The skip 32 bytes at a time, for x86-64 processors with AVX2.
#[cfg(target_arch = "x86_64")]
mod avx2;

#[cfg(test)]
mod tests;
