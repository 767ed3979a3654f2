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
//! The generator (`iri-grammar-abnf`) runs this automaton in step with the compiled
//! grammar's, so that the walk that validates a reference also finds its components:
//! each state of the compiled `IRI-reference` carries the [`Part`] it is in, and a
//! change of part is a boundary. No part is entered twice (the parts follow one
//! another in the order of §3's components: the test `no_part_is_entered_twice`), so
//! the runtime's walk (`iri-grammar`) only writes down where it entered each
//! [recorded](Part::is_recorded) part, one store per boundary, and works the
//! components out from those offsets once, at the end.

/// Where in a reference the split is.
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
    #[inline]
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
    /// (the runtime's `Components::from_boundaries` reads these and no other): the walk writes
    /// down only these, and a transition into any other part is calm, like one
    /// that stays in its part.
    #[inline]
    pub const fn is_recorded(self) -> bool {
        self.recorded_slot().is_some()
    }

    /// The parts of [`Part::is_recorded`], each at its slot of the runtime's
    /// offsets (`Boundaries`).
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
    #[inline]
    pub const fn recorded_slot(self) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

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
}
