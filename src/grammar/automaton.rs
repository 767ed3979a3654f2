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

use crate::reference::split::Boundaries;

/// A state as the tables hold it: the state's number in the low 12 bits
/// ([`NUMBER`]), and in the high 4 the number of its scan table (0: none), so that
/// the walk knows whether and how to scan without another lookup.
pub(crate) type State = u16;

/// The bits of a [`State`] that number it.
pub(crate) const NUMBER: State = 0x0FFF;

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
    /// Per state number (all 4,096, so that no lookup can miss): [`ACCEPTS`] if the
    /// input may end there, and in the low bits where in a reference the state is (a
    /// `Part` as a number; 0 outside `IRI-reference`).
    pub info: [u8; 4096],
    /// The bytes on which a state stays in itself, by the table number a state
    /// carries in its top 4 bits (table 0, never used, is empty).
    pub scan_tables: [[bool; 256]; 16],
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

/// The 256 flags of a scan table from its bits (for the generated tables).
pub(crate) const fn scan_table(bits: [u64; 4]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = bits[b / 64] >> (b % 64) & 1 != 0;
        b += 1;
    }
    t
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
        let mut state = start;
        let mut i = 0;
        loop {
            let s = usize::from(state & NUMBER);
            let scan = usize::from(state >> 12) & 15;
            if scan != 0 {
                i = skip(&self.scan_tables[scan], bytes, i);
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
    /// the components' boundaries it crosses on the way.
    #[inline]
    pub(crate) fn split(&self, start: State, bytes: &[u8]) -> Result<Boundaries, Rejected> {
        let mut found = Boundaries::NONE;
        let mut state = start;
        let mut part = self.info[usize::from(start & NUMBER)] & PART;
        let mut i = 0;
        loop {
            let s = usize::from(state & NUMBER);
            let scan = usize::from(state >> 12) & 15;
            if scan != 0 {
                // A state stays in its part on the bytes it scans.
                i = skip(&self.scan_tables[scan], bytes, i);
            }
            let Some(&b) = bytes.get(i) else {
                if self.info[s] & ACCEPTS == 0 {
                    return Err(Rejected::End);
                }
                found.end(part, i as u32);
                return Ok(found);
            };
            let at = s * N + usize::from(self.classes[usize::from(b)]);
            debug_assert!(at < T);
            // SAFETY: as in `run`.
            state = unsafe { *self.next.get_unchecked(at) };
            if state == 0 {
                return Err(Rejected::At(i));
            }
            let p = self.info[usize::from(state & NUMBER)] & PART;
            if p != part {
                found.cross(part, p, i as u32);
                part = p;
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
            let table = &a.scan_tables[usize::from(s >> 12)];
            for b in 0..=255u8 {
                if table[usize::from(b)] {
                    let at = usize::from(s & NUMBER) * N + usize::from(a.classes[usize::from(b)]);
                    assert_eq!(a.next[at] & NUMBER, s & NUMBER, "scan of {s:#x} on {b}");
                }
            }
        }
        assert!(
            a.scan_tables[0].iter().all(|&x| !x),
            "table 0 is the empty table"
        );
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
