//! RFC 3986 Appendix B as an automaton: where the components of a valid reference
//! begin and end.
//!
//! Appendix B splits any string with
//! `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`, and on a string that
//! matches `IRI-reference` (`URI-reference`, `LEIRI-reference`) the parts are the
//! grammar's components: every delimiter is ASCII, and no character of `ucschar`, of
//! RFC 3987 or of the LEIRI note, is one. Inside the authority, RFC 3986 §3.2 adds
//! that the userinfo ends at an `@` (neither it nor a host can have another) and the
//! port starts after a `:` that is outside the brackets of an IP literal and after
//! any `@`.
//!
//! The generator runs this automaton in step with the compiled grammar's, so that the
//! walk that validates a reference also finds its components: each state of the
//! compiled `IRI-reference` carries the [`Part`] it is in, and a change of part is a
//! boundary. No part is entered twice (the parts follow one another in the order of
//! §3's components: the test `no_part_is_entered_twice`), so the walk only writes
//! down where it entered each part (`Boundaries::enter`), one store per boundary, and
//! the components are worked out from those offsets once, at the end
//! (`Components::from_boundaries`). `Part` is public, hidden, only for the generator
//! in the `iri-grammar-abnf` crate.

/// Where in a reference the split is.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Part {
    /// Not in a reference: a state of another rule.
    Outside = 0,
    /// Nothing read yet.
    Start,
    /// The first characters, before any of `:/?#`: a scheme, or a first segment.
    First,
    /// Just after the `:` that ends a scheme.
    AfterScheme,
    /// Just after a `/` where an authority could start.
    Slash,
    /// In an authority, before any `@` or `:`.
    Authority,
    /// In an authority, after a `:` and before any `@` (a password, or a port).
    AuthorityColon,
    /// In the host, after the userinfo's `@`.
    Host,
    /// Inside the brackets of an IP literal.
    Literal,
    /// Just after the `]` that ends an IP literal: the host ended; a port may follow.
    AfterLiteral,
    /// In the port.
    Port,
    /// In the path.
    Path,
    /// In the query.
    Query,
    /// In the fragment.
    Fragment,
}

impl Part {
    /// Every part, by its number.
    pub const ALL: [Part; 14] = [
        Part::Outside,
        Part::Start,
        Part::First,
        Part::AfterScheme,
        Part::Slash,
        Part::Authority,
        Part::AuthorityColon,
        Part::Host,
        Part::Literal,
        Part::AfterLiteral,
        Part::Port,
        Part::Path,
        Part::Query,
        Part::Fragment,
    ];

    /// The part after byte `b`.
    pub const fn next(self, b: u8) -> Part {
        use Part::*;
        match (self, b) {
            (Outside, _) => Outside,
            (Fragment, _) => Fragment,
            (_, b'#') => Fragment,
            (Query, _) => Query,
            (_, b'?') => Query,
            (Start | First, b':') => AfterScheme,
            (Start | AfterScheme, b'/') => Slash,
            (First, b'/') => Path,
            (Start | First, _) => First,
            (Slash, b'/') => Authority,
            (AfterScheme | Slash | Path, _) => Path,
            (Authority | AuthorityColon | Host | Literal | AfterLiteral | Port, b'/') => Path,
            (Authority | AuthorityColon, b'@') => Host,
            (Authority, b':') => AuthorityColon,
            (Authority | Host, b'[') => Literal,
            (Authority | AuthorityColon, _) => self,
            (Literal, b']') => AfterLiteral,
            (Host | AfterLiteral, b':') => Port,
            (Host | Literal | AfterLiteral | Port, _) => self,
        }
    }

    /// Whether the components are worked out from where a walk entered this part
    /// (`Components::from_boundaries` reads these and no other): the walk writes
    /// down only these, and a transition into any other part is calm, like one
    /// that stays in its part.
    pub const fn is_recorded(self) -> bool {
        self.recorded_slot().is_some()
    }

    /// The parts of [`Part::is_recorded`], each at its slot of [`Boundaries`].
    pub const RECORDED: [Part; 8] = {
        use Part::*;
        [
            AfterScheme,
            Authority,
            AuthorityColon,
            Host,
            Port,
            Path,
            Query,
            Fragment,
        ]
    };

    /// Where this part is in [`Part::RECORDED`], if it is there.
    const fn recorded_slot(self) -> Option<usize> {
        let mut k = 0;
        while k < Part::RECORDED.len() {
            if Part::RECORDED[k] as u8 == self as u8 {
                return Some(k);
            }
            k += 1;
        }
        None
    }

    /// The bytes this automaton tells apart: a byte's kind is the byte for these,
    /// and 0 for every other byte.
    pub const DELIMITERS: &'static [u8] = b":/?#@[]";
}

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
/// part, each store waited for the state, and the offsets read back right after
/// the walk cost a parse 1.5 to 6 ns more on every corpus list (dbpedia 31.2 → 27.8
/// ns); 24 instructions more on dbpedia, 434.5 → 458.
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
    use crate::reference::Components;

    /// No part can be entered twice, whatever the bytes: the graph of [`Part::next`]'s
    /// changes of part has no cycle. (So `Boundaries` needs one offset per recorded part.)
    #[test]
    fn no_part_is_entered_twice() {
        assert!(Part::ALL.len() <= 16, "a part's number must fit in 4 bits");
        // Every part reachable from `from` by changes of part, depth first; a cycle
        // shows as a part reached from itself.
        fn reach(from: Part, seen: &mut Vec<Part>) {
            for b in 0..=255u8 {
                let to = from.next(b);
                if to != from && !seen.contains(&to) {
                    seen.push(to);
                    reach(to, seen);
                }
            }
        }
        for p in Part::ALL {
            let mut seen = Vec::new();
            reach(p, &mut seen);
            assert!(!seen.contains(&p), "{p:?} can be entered again");
        }
    }

    /// The automaton agrees with Appendix B's regular expression, written out.
    #[test]
    fn agrees_with_appendix_b() {
        for s in [
            "http://u:p@h:8/a/b?q#f",
            "a:b",
            "//h",
            "/p?q",
            "?q",
            "#f",
            "",
            "rel/a:b",
            "x://[::1]:80",
            "x://u@[v1.a]",
            "x://h:",
            "f:/a",
            "a://u:p:q@h/",
        ] {
            let b = Components::from_boundaries(s, &Boundaries::of(s));
            // Appendix B by hand.
            let fragment = s.find('#');
            let before_fragment = &s[..fragment.unwrap_or(s.len())];
            let query = before_fragment.find('?');
            let hier = &before_fragment[..query.unwrap_or(before_fragment.len())];
            let scheme = hier
                .find([':', '/'])
                .filter(|&k| k > 0 && hier.as_bytes()[k] == b':');
            let rest_at = scheme.map_or(0, |k| k + 1);
            let authority = hier[rest_at..].starts_with("//").then_some(rest_at + 2);
            let want = |x: Option<usize>| x.map_or(u32::MAX, |k| k as u32);
            assert_eq!(b.scheme_end, want(scheme), "{s}");
            assert_eq!(b.authority.0, want(authority), "{s}");
            assert_eq!(b.query_start, want(query.map(|k| k + 1)), "{s}");
            assert_eq!(b.fragment_start, want(fragment.map(|k| k + 1)), "{s}");
            if let Some(a) = authority {
                let end = hier[a..].find('/').map_or(hier.len(), |k| a + k);
                assert_eq!(b.authority.1, end as u32, "{s}");
            }
        }
    }
}
