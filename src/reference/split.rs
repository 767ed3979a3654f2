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
//! boundary (`Boundaries::cross`). It is public, hidden, only for the generator in
//! the `iri-grammar-abnf` crate.

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
    pub const ALL: [Part; 13] = [
        Part::Outside,
        Part::Start,
        Part::First,
        Part::AfterScheme,
        Part::Slash,
        Part::Authority,
        Part::AuthorityColon,
        Part::Host,
        Part::Literal,
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
            (Authority | AuthorityColon | Host | Literal | Port, b'/') => Path,
            (Authority | AuthorityColon, b'@') => Host,
            (Authority, b':') => AuthorityColon,
            (Authority | Host, b'[') => Literal,
            (Authority | AuthorityColon, _) => self,
            (Literal, b']') => Host,
            (Host, b':') => Port,
            (Host | Literal | Port, _) => self,
        }
    }

    /// The bytes this automaton tells apart: a byte's kind is the byte for these,
    /// and 0 for every other byte.
    pub const DELIMITERS: &'static [u8] = b":/?#@[]";
}

/// The boundaries found so far: byte offsets, `u32::MAX` when not (yet) found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Boundaries {
    pub scheme_end: u32,
    pub authority_start: u32,
    pub authority_end: u32,
    pub userinfo_end: u32,
    pub port_colon: u32,
    pub query_start: u32,
    pub fragment_start: u32,
}

impl Boundaries {
    pub(crate) const NONE: Boundaries = Boundaries {
        scheme_end: u32::MAX,
        authority_start: u32::MAX,
        authority_end: u32::MAX,
        userinfo_end: u32::MAX,
        port_colon: u32::MAX,
        query_start: u32::MAX,
        fragment_start: u32::MAX,
    };

    /// The boundaries of a valid reference, by walking [`Part`] over its bytes (what
    /// the compiled grammar does in step with validation).
    pub(crate) fn of(text: &str) -> Boundaries {
        let mut found = Boundaries::NONE;
        let mut part = Part::Start;
        for (i, &c) in text.as_bytes().iter().enumerate() {
            let next = part.next(c);
            if next != part {
                found.cross(part as u8, next as u8, i as u32);
            }
            part = next;
        }
        found.end(part as u8, text.len() as u32);
        found
    }

    /// The byte at `i` took the walk from part `from` into part `to` (parts as
    /// numbers, as the compiled grammar's tables hold them).
    #[inline]
    pub(crate) fn cross(&mut self, from: u8, to: u8, i: u32) {
        const AFTER_SCHEME: u8 = Part::AfterScheme as u8;
        const AUTHORITY: u8 = Part::Authority as u8;
        const AUTHORITY_COLON: u8 = Part::AuthorityColon as u8;
        const HOST: u8 = Part::Host as u8;
        const LITERAL: u8 = Part::Literal as u8;
        const PORT: u8 = Part::Port as u8;
        const PATH: u8 = Part::Path as u8;
        const QUERY: u8 = Part::Query as u8;
        const FRAGMENT: u8 = Part::Fragment as u8;
        match to {
            AFTER_SCHEME => self.scheme_end = i,
            AUTHORITY => self.authority_start = i + 1,
            AUTHORITY_COLON | PORT => self.port_colon = i,
            HOST if from != LITERAL => {
                self.userinfo_end = i;
                // A ":" before the "@" was the password's.
                self.port_colon = u32::MAX;
            }
            _ => {}
        }
        if matches!(to, PATH | QUERY | FRAGMENT) && in_authority(from) {
            self.authority_end = i;
        }
        match to {
            QUERY => self.query_start = i + 1,
            FRAGMENT => self.fragment_start = i + 1,
            _ => {}
        }
    }

    /// At the end of the input, in part `last`.
    #[inline]
    pub(crate) fn end(&mut self, last: u8, len: u32) {
        if in_authority(last) {
            self.authority_end = len;
        }
    }
}

/// Whether a part (as a number) is inside an authority.
#[inline]
fn in_authority(p: u8) -> bool {
    (Part::Authority as u8..=Part::Port as u8).contains(&p)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let b = Boundaries::of(s);
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
            assert_eq!(b.authority_start, want(authority), "{s}");
            assert_eq!(b.query_start, want(query.map(|k| k + 1)), "{s}");
            assert_eq!(b.fragment_start, want(fragment.map(|k| k + 1)), "{s}");
            if let Some(a) = authority {
                let end = hier[a..].find('/').map_or(hier.len(), |k| a + k);
                assert_eq!(b.authority_end, end as u32, "{s}");
            }
        }
    }
}
