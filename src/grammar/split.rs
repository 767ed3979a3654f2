//! Where a walk of the compiled grammar entered each part of RFC 3986 Appendix B's
//! split ([`Part`], shared with the generator, which writes each state's part into
//! the compiled grammar): the offsets the components are worked out from, once, at
//! the end (`Components::from_boundaries`).

pub(crate) use iri_grammar_contract::Part;

/// For each part (by its number), the bytes that take the walk out of it.
static LEAVES: [[bool; 256]; Part::ALL.len()] = {
    let mut leaves = [[false; 256]; Part::ALL.len()];
    let mut p = 0;
    while p < Part::ALL.len() {
        let mut b = 0;
        while b < 256 {
            leaves[p][b] = Part::ALL[p].next(b as u8) as u8 != Part::ALL[p] as u8;
            b += 1;
        }
        p += 1;
    }
    leaves
};

/// Where a walk entered each recorded part: `entered[k]` is the offset of the byte
/// that took it into part [`Part::RECORDED`]`[k]` (a delimiter: the `:` after a
/// scheme, the second `/` of `//`, the `@`, `?`, `#`...), `u32::MAX` if it never did.
/// Each part is entered at most once, so these offsets are all a reference's
/// boundaries (see `Components::from_boundaries`).
///
/// [`Boundaries::enter`] compares the part with each recorded one rather than
/// indexing by it: the compiler makes that a jump on the part to one store per
/// slot, at a constant offset, so the store's address is known before the state
/// that names the part has been loaded, and the processor predicts the jump (a
/// reference's parts come in the same order input after input). Indexed by the
/// part, each store would wait for the state, and the offsets read back right after
/// the walk would wait for the stores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Boundaries {
    pub entered: [u32; 8],
}

impl Boundaries {
    pub(crate) const NONE: Boundaries = Boundaries {
        entered: [u32::MAX; 8],
    };

    /// The boundaries of a valid reference, by walking [`Part`] over its bytes (what
    /// the compiled grammar does in step with validation).
    pub(crate) fn of(text: &str) -> Boundaries {
        let bytes = text.as_bytes();
        let mut found = Boundaries::NONE;
        let mut part = Part::Start;
        let mut i = 0;
        while i < bytes.len() {
            // Most bytes leave their part as it is (a host, a path, a query run on
            // until a delimiter): the walk goes straight to the next byte that can
            // move it, and ends where none can (a fragment).
            let leaves = &LEAVES[part as usize];
            match bytes[i..].iter().position(|&b| leaves[usize::from(b)]) {
                Some(k) => i += k,
                None => break,
            }
            let next = part.next(bytes[i]);
            found.enter(next as u8, i as u32);
            part = next;
            i += 1;
        }
        found
    }

    /// The byte at `i` took the walk into part `to` (a part as a number, as the
    /// compiled grammar's tables hold it); nothing is written down for a part that
    /// is not recorded.
    #[inline(always)]
    pub(crate) fn enter(&mut self, to: u8, i: u32) {
        for (slot, p) in self.entered.iter_mut().zip(Part::RECORDED) {
            if to == p as u8 {
                *slot = i;
            }
        }
    }

    /// Where the walk entered part `p`, if it did; `p` is one the walk writes down
    /// ([`Part::is_recorded`]).
    #[inline(always)]
    pub(crate) fn at(&self, p: Part) -> u32 {
        match p.recorded_slot() {
            Some(k) => self.entered[k],
            None => {
                debug_assert!(false, "{p:?} is not written down");
                u32::MAX
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    /// The walk a byte at a time, which [`Boundaries::of`] shortens.
    fn bytewise(text: &str) -> Boundaries {
        let mut found = Boundaries::NONE;
        let mut part = Part::Start;
        for (i, &c) in text.as_bytes().iter().enumerate() {
            let next = part.next(c);
            if next != part {
                found.enter(next as u8, i as u32);
            }
            part = next;
        }
        found
    }

    #[test]
    fn skipping_through_paths_and_queries_finds_what_the_bytewise_walk_finds() {
        let pieces = ["", "a", ":", "/", "//", "?", "#", "@", "[", "]", "é", "x:y"];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let s = format!("{a}{b}{c}{d}");
                        assert_eq!(Boundaries::of(&s).entered, bytewise(&s).entered, "{s:?}");
                    }
                }
            }
        }
    }
}
