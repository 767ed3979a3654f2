//! What the fuzz targets share: how an input is cut into texts and options, and the
//! properties several targets assert.
//!
//! # Input format
//!
//! Every target reads its input as `TEXT [0xFF TEXT ...] [0xFF OPTIONS]`: texts
//! separated by the byte 0xFF, which never occurs in UTF-8, then the bytes that
//! `arbitrary` turns into the target's options (grammar, level, flags). A plain URL
//! (a line of `../shared/corpus/urls/*.txt`) is therefore a valid input as it is,
//! with the options `arbitrary` gives for no bytes (the first variant of each enum,
//! `false`, 0), and `run.sh` writes pairs (base, reference) as `BASE 0xFF REF`. Texts
//! that are not UTF-8 are read lossily (U+FFFD), so that libFuzzer's byte-level
//! mutations keep producing strings instead of being thrown away.

use arbitrary::{Arbitrary, Unstructured};
use iri_grammar::reference::Component;
use iri_grammar::{Iri, Leiri, Reference, Uri, Variant, VariantName};
use std::borrow::Cow;

/// The separator of texts in a fuzz input (never a byte of UTF-8).
pub const SEPARATOR: u8 = 0xFF;

/// Splits `data` into `N` texts and the option bytes. Missing texts are empty.
pub fn split<const N: usize>(data: &[u8]) -> ([Cow<'_, str>; N], Unstructured<'_>) {
    let mut parts = data.splitn(N + 1, |&b| b == SEPARATOR);
    let texts = std::array::from_fn(|_| String::from_utf8_lossy(parts.next().unwrap_or(b"")));
    let options = parts.next().unwrap_or(b"");
    (texts, Unstructured::new(options))
}

/// The options of a target, or their defaults when the bytes run out.
pub fn options<'a, T: Arbitrary<'a> + Default>(u: &mut Unstructured<'a>) -> T {
    T::arbitrary(u).unwrap_or_default()
}

/// A grammar, as an option.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Arbitrary)]
pub enum Grammar {
    /// RFC 3987.
    #[default]
    Iri,
    /// RFC 3986.
    Uri,
    /// The LEIRI note.
    Leiri,
}

impl Grammar {
    /// The library's name for it.
    pub fn name(self) -> VariantName {
        match self {
            Grammar::Uri => VariantName::Uri,
            Grammar::Iri => VariantName::Iri,
            Grammar::Leiri => VariantName::Leiri,
        }
    }
}

/// Runs `$body` with `$V` bound to the type-level variant of `$grammar`.
#[macro_export]
macro_rules! with_variant {
    ($grammar:expr, $V:ident => $body:expr) => {
        match $grammar {
            $crate::Grammar::Uri => {
                type $V = iri_grammar::Uri;
                $body
            }
            $crate::Grammar::Iri => {
                type $V = iri_grammar::Iri;
                $body
            }
            $crate::Grammar::Leiri => {
                type $V = iri_grammar::Leiri;
                $body
            }
        }
    };
}

/// The three grammars, for targets that try each on every input.
pub const GRAMMARS: [Grammar; 3] = [Grammar::Uri, Grammar::Iri, Grammar::Leiri];

/// The reference put back together from its components, as RFC 3986 §5.3
/// recomposes: `scheme ":"`, `"//" authority`, path, `"?" query`, `"#" fragment`.
pub fn recompose<V: Variant>(r: &Reference<'_, V>) -> String {
    let mut s = String::new();
    if let Some(scheme) = r.scheme() {
        s.push_str(scheme);
        s.push(':');
    }
    if let Some(authority) = r.authority() {
        s.push_str("//");
        s.push_str(authority);
    }
    s.push_str(r.path());
    if let Some(q) = r.query() {
        s.push('?');
        s.push_str(q);
    }
    if let Some(f) = r.fragment() {
        s.push('#');
        s.push_str(f);
    }
    s
}

/// The authority put back together: `userinfo "@"`, host, `":" port`.
pub fn recompose_authority<V: Variant>(r: &Reference<'_, V>) -> Option<String> {
    r.authority()?;
    let mut s = String::new();
    if let Some(u) = r.userinfo() {
        s.push_str(u);
        s.push('@');
    }
    s.push_str(r.host().unwrap_or(""));
    if let Some(p) = r.port() {
        s.push(':');
        s.push_str(p);
    }
    Some(s)
}

/// Every component and the host kind, for comparing a recorded parse with a fresh one.
pub fn shape<V: Variant>(r: &Reference<'_, V>) -> String {
    format!("{r:?}")
}

/// The result of an operation parses in its grammar to the components it recorded.
pub fn reparses<W: Variant>(r: &Reference<'_, W>, what: &str, input: &str) {
    let fresh = Reference::<W>::parse(r.as_str())
        .unwrap_or_else(|e| panic!("{what} of {input:?} gave {:?}, invalid: {e}", r.as_str()));
    assert_eq!(shape(&fresh), shape(r), "{what} of {input:?}");
}

/// What an operation that only rewrites characters must keep ("a host stays one
/// host"): which of scheme, authority, userinfo, port, query and fragment are
/// present, and the number of path segments.
pub fn structure<V: Variant>(r: &Reference<'_, V>) -> [usize; 7] {
    let has = |c| usize::from(r.get(c).is_some());
    [
        has(Component::Scheme),
        has(Component::Authority),
        has(Component::Userinfo),
        has(Component::Port),
        has(Component::Query),
        has(Component::Fragment),
        r.path_segments().count(),
    ]
}

/// The authority an RFC 3986 Appendix B split finds in `s` after the white space
/// that preparation strips, and whether it has an `@` (userinfo) and a port `:`
/// (after an IP literal's `]`). `None`: no authority.
pub fn appendix_b_authority(s: &str) -> Option<(bool, bool)> {
    let s = s.trim_matches([' ', '\t', '\r', '\n']);
    let before = s.split(['?', '#']).next().unwrap_or("");
    let rest = match before.find([':', '/']) {
        Some(k) if k > 0 && before.as_bytes()[k] == b':' => &before[k + 1..],
        _ => before,
    };
    let auth = rest.strip_prefix("//")?;
    let auth = &auth[..auth.find('/').unwrap_or(auth.len())];
    let hostport = auth.rsplit('@').next().unwrap_or("");
    let after_literal = hostport.rsplit(']').next().unwrap_or("");
    Some((auth.contains('@'), after_literal.contains(':')))
}

/// The components and host kind, without the grammar's name.
pub fn components<V: Variant>(r: &Reference<'_, V>) -> String {
    format!(
        "{:?}",
        (
            r.scheme(),
            r.authority(),
            r.userinfo(),
            r.host(),
            r.host_kind(),
            r.port(),
            r.path(),
            r.query(),
            r.fragment(),
        )
    )
}

/// Parses `s` in every grammar (URI, IRI, LEIRI): the components, or `None`.
pub fn parse_all(s: &str) -> [Option<String>; 3] {
    [
        Reference::<Uri>::parse(s).ok().map(|r| components(&r)),
        Reference::<Iri>::parse(s).ok().map(|r| components(&r)),
        Reference::<Leiri>::parse(s).ok().map(|r| components(&r)),
    ]
}

/// `s` cut to at most `max` bytes, at a character boundary.
pub fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
