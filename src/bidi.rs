//! Bidirectional IRIs (RFC 3987 §4): the bidi formatting characters IRIs MUST NOT
//! contain (§4.1), the component rules for right-to-left text (§4.2, with the ten
//! examples of §4.4 as tests), and a display form that keeps an IRI readable in a
//! bidi context (§4.1, §7.6).
//!
//! Directions come from the Unicode `Bidi_Class` property as the `unicode-bidi`
//! crate has it, not from a table of our own: classes R and AL are right-to-left,
//! class L is left-to-right, every other class (digits EN/AN, separators,
//! terminators such as `%`, neutrals, marks) is neither ([`direction`]).
//!
//! The components of §4.2 are `iuserinfo`, each label of an `ireg-name`, each
//! `isegment` and `ifragment`; RFC 3987 lets a scheme split them further, and
//! [`parts`] does what §4.2 suggests: the query is split into names and values
//! (at `&`, `;`, `=`), and, unless turned off, a segment into its "extensions"
//! (at `.`), without which example 4 of §4.4 (`KL.html`) would break rule 1.
//!
//! ```
//! use iri_grammar::bidi::{check_component, BidiIssueKind};
//! // RFC 3987 §4.4, example 8 with Hebrew letters: "GH1" ends with a digit.
//! let issues = check_component("\u{05D6}\u{05D7}1");
//! assert_eq!(issues.len(), 1);
//! assert_eq!(issues[0].kind, BidiIssueKind::EndNotRtl);
//! assert_eq!(issues[0].offset, 4);
//! ```

use crate::grammar::Variant;
use crate::reference::{Component, HostKind, Reference};
use alloc::vec::Vec;
use core::ops::Range;
#[cfg(feature = "lint")]
use {
    crate::grammar::{Iri, MatchError},
    crate::pct::{self, Decoded},
    alloc::string::String,
    core::fmt,
    unicode_bidi::{bidi_class, BidiClass},
};

#[cfg(feature = "lint")]
pub use crate::chars::is_later_control;
pub use crate::chars::{formatting_name, is_formatting_character, FORMATTING_CHARACTERS};

#[cfg(feature = "lint")]
/// The direction of a character for RFC 3987 §4.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// A strong right-to-left character: `Bidi_Class` R (Hebrew, ...) or AL (Arabic, ...).
    RightToLeft,
    /// A strong left-to-right character: `Bidi_Class` L (Latin, Han, ...).
    LeftToRight,
    /// Anything else: digits, punctuation, `%`, spaces, combining marks.
    Neutral,
}

#[cfg(feature = "lint")]
/// The direction of `c` from its Unicode `Bidi_Class`.
///
/// ```
/// use iri_grammar::bidi::{direction, Direction};
/// assert_eq!(direction('\u{05D0}'), Direction::RightToLeft); // HEBREW LETTER ALEF: R
/// assert_eq!(direction('\u{0627}'), Direction::RightToLeft); // ARABIC LETTER ALEF: AL
/// assert_eq!(direction('a'), Direction::LeftToRight);
/// assert_eq!(direction('1'), Direction::Neutral);
/// ```
pub fn direction(c: char) -> Direction {
    match bidi_class(c) {
        BidiClass::R | BidiClass::AL => Direction::RightToLeft,
        BidiClass::L => Direction::LeftToRight,
        _ => Direction::Neutral,
    }
}

/// A component for the purpose of bidi behaviour (RFC 3987 §4.2): its kind and its
/// byte range in the reference's text. Never empty.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Part {
    /// The component rule it comes from.
    pub component: Component,
    /// Byte range in [`Reference::as_str`].
    pub range: Range<usize>,
}

/// The non-empty components of `r` for the purpose of bidi behaviour (RFC 3987
/// §4.2), in order: the `iuserinfo`; each DNS label of an `ireg-name` (split at
/// `.`; IP literals and IPv4 addresses are left out, they are ASCII); each
/// `isegment`, split at `.` into its extensions when `split_extensions` is set;
/// each name and value of the `iquery` (split at `&`, `;` and `=`); the
/// `ifragment`.
///
/// ```
/// use iri_grammar::bidi::parts;
/// use iri_grammar::reference::{Component, IriRef};
/// let r = IriRef::parse("http://u@ab.cd/ef/gh.html?a=b;c#f").unwrap();
/// let texts: Vec<_> = parts(&r, true).iter().map(|p| &r.as_str()[p.range.clone()]).collect();
/// assert_eq!(texts, ["u", "ab", "cd", "ef", "gh", "html", "a", "b", "c", "f"]);
/// assert_eq!(parts(&r, false)[4].component, Component::Path);
/// assert_eq!(parts(&r, false).len(), 9); // "gh.html" stays whole
/// ```
pub fn parts<V: Variant>(r: &Reference<'_, V>, split_extensions: bool) -> Vec<Part> {
    let text = r.as_str();
    let mut out = Vec::new();
    let mut push = |component: Component, range: Range<usize>, seps: &[char]| {
        let mut at = range.start;
        for sub in text[range].split(seps) {
            if !sub.is_empty() {
                out.push(Part {
                    component,
                    range: at..at + sub.len(),
                });
            }
            at += sub.len() + 1;
        }
    };
    if let Some(u) = r.span(Component::Userinfo) {
        push(Component::Userinfo, u, &[]);
    }
    if let (Some(h), Some(HostKind::RegName)) = (r.span(Component::Host), r.host_kind()) {
        push(Component::Host, h, &['.']);
    }
    let segment_seps: &[char] = if split_extensions { &['.'] } else { &[] };
    for s in r.path_segment_spans() {
        push(Component::Path, s, segment_seps);
    }
    if let Some(q) = r.span(Component::Query) {
        push(Component::Query, q, &['&', ';', '=']);
    }
    if let Some(f) = r.span(Component::Fragment) {
        push(Component::Fragment, f, &[]);
    }
    out
}

#[cfg(feature = "lint")]
/// Which rule of RFC 3987 §4.2 a component breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BidiIssueKind {
    /// Rule 1: it uses both right-to-left and left-to-right characters. The offset
    /// is that of the first character whose direction differs from the first one's.
    Mixed,
    /// Rule 2: it uses right-to-left characters but does not start with one. The
    /// offset is 0.
    StartNotRtl,
    /// Rule 2: it uses right-to-left characters but does not end with one. The
    /// offset is that of the last character (trailing combining marks, class NSM,
    /// belong to the character before them, as the bidi algorithm's rule W1 and
    /// RFC 5893 have it).
    EndNotRtl,
}

#[cfg(feature = "lint")]
/// A break of a rule of RFC 3987 §4.2 in one component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BidiIssue {
    /// Which rule.
    pub kind: BidiIssueKind,
    /// Byte offset in the component's text.
    pub offset: usize,
}

#[cfg(feature = "lint")]
/// The breaks of the two rules of RFC 3987 §4.2 in one component's text (see
/// [`parts`]): a component SHOULD NOT use both right-to-left and left-to-right
/// characters; a component using right-to-left characters SHOULD start and end with
/// one. Percent-encodings are judged as the characters they are written with (`%`,
/// digits and letters), which is how they are displayed: example 9 of §4.4.
///
/// ```
/// use iri_grammar::bidi::{check_component, BidiIssueKind};
/// assert!(check_component("\u{05D0}\u{05D1}123\u{05D2}").is_empty()); // example 7
/// assert!(check_component("abc").is_empty());
/// // Example 9's "%32IJ": "%" and "3" are no right-to-left characters.
/// let kinds = |s| check_component(s).iter().map(|i| i.kind).collect::<Vec<_>>();
/// assert_eq!(kinds("%32\u{05D8}\u{05D9}"), [BidiIssueKind::StartNotRtl]);
/// // In "%D7", "D" is a left-to-right letter.
/// assert_eq!(kinds("%D7\u{05D8}"), [BidiIssueKind::Mixed, BidiIssueKind::StartNotRtl]);
/// ```
pub fn check_component(text: &str) -> Vec<BidiIssue> {
    let mut issues = Vec::new();
    let mut first_strong = None;
    let mut mixed = None;
    let mut has_rtl = false;
    for (i, c) in text.char_indices() {
        let d = direction(c);
        if d == Direction::Neutral {
            continue;
        }
        has_rtl |= d == Direction::RightToLeft;
        match first_strong {
            None => first_strong = Some(d),
            Some(f) if f != d && mixed.is_none() => mixed = Some(i),
            _ => {}
        }
    }
    if let Some(offset) = mixed {
        issues.push(BidiIssue {
            kind: BidiIssueKind::Mixed,
            offset,
        });
    }
    if has_rtl {
        if let Some(c) = text.chars().next() {
            if direction(c) != Direction::RightToLeft {
                issues.push(BidiIssue {
                    kind: BidiIssueKind::StartNotRtl,
                    offset: 0,
                });
            }
        }
        let last = text
            .char_indices()
            .rev()
            .find(|&(_, c)| bidi_class(c) != BidiClass::NSM);
        if let Some((i, c)) = last {
            if direction(c) != Direction::RightToLeft {
                issues.push(BidiIssue {
                    kind: BidiIssueKind::EndNotRtl,
                    offset: i,
                });
            }
        }
    }
    issues
}

#[cfg(feature = "lint")]
/// The characters that percent-encoded UTF-8 in `text` stands for: each with the
/// byte range of its `%HH` triplets. Percent-encodings that are not UTF-8 are
/// skipped.
pub(crate) fn percent_decoded(text: &str) -> Vec<(Range<usize>, char)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        let start = i;
        let mut at = i;
        let n = pct::decode_run(&bytes[i..], |d| match d {
            Decoded::Char(c, len) => {
                out.push((at..at + len, c));
                at += len;
            }
            Decoded::Octet(_) => at += 3,
        });
        i = start + n.max(1);
    }
    out
}

#[cfg(feature = "lint")]
/// The IRI `text` made safe to show in a bidi context (RFC 3987 §4.1, §7.6).
///
/// §4.1: a bidi IRI MUST be rendered as if it were in a left-to-right embedding,
/// preceded by LRE (U+202A) and followed by PDF (U+202C); using no embedding, or
/// LRM (U+200E) here and there, is allowed only where the display is known to stay
/// the same, and implementers are "strongly advised to err on the side of caution".
/// This function does not know the surrounding text, so it always wraps, and it
/// also wraps IRIs without right-to-left characters (in a right-to-left paragraph
/// their trailing `/` or `.` would otherwise move). The LRE and PDF are not part of
/// the IRI: strip them before copying the text back.
///
/// A character that could break out of the embedding, or is invisible and reorders
/// text, is shown percent-encoded (as UTF-8 `%HH`, what RFC 3987 §3.2 step 4 keeps
/// encoded): the bidi formatting characters of §4.1 (a PDF in the IRI would close
/// the embedding early), the later bidi controls ([`is_later_control`]), and the
/// controls and separators that end an embedding (`Bidi_Class` B and S, and every
/// other control character). These can only be present in LEIRIs or in text that
/// breaks §4.1.
///
/// (Unicode 6.3's isolates, LRI…PDI, are the modern alternative to an embedding;
/// RFC 3987 names the embedding, so that is what this function uses.)
///
/// ```
/// use iri_grammar::bidi::display_form;
/// assert_eq!(display_form("http://a/b"), "\u{202A}http://a/b\u{202C}");
/// assert_eq!(display_form("http://a/\u{202C}x"), "\u{202A}http://a/%E2%80%ACx\u{202C}");
/// ```
pub fn display_form(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 6);
    out.push('\u{202A}');
    for c in text.chars() {
        let unsafe_char = is_formatting_character(c)
            || is_later_control(c)
            || c.is_control()
            || matches!(bidi_class(c), BidiClass::B | BidiClass::S);
        if unsafe_char {
            pct::encode_char(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out.push('\u{202C}');
    out
}

#[cfg(feature = "lint")]
/// Why showing `display` in place of a URI would lose something
/// ([`check_display_conversion`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DisplayLoss {
    /// The display string is no IRI reference (RFC 3987 §2.2).
    NotAnIri(MatchError),
    /// It holds a bidi formatting character (§4.1) or a later bidi control, at
    /// this byte offset of the display string: §3.2 step 4 keeps them encoded.
    BidiFormatting {
        /// Byte offset in the display string.
        offset: usize,
    },
    /// Mapped back to a URI (§3.1) it is not the URI: it says something else
    /// from this byte offset of the URI on.
    Changed {
        /// Byte offset in the URI.
        offset: usize,
    },
    /// A component breaks a bidi rule of §4.2, so its display can be read as a
    /// different logical IRI (§8): §4.2 says to leave such a component in URI
    /// notation. Byte offset in the display string.
    BidiComponent {
        /// Byte offset in the display string.
        offset: usize,
    },
}

#[cfg(feature = "lint")]
impl fmt::Display for DisplayLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DisplayLoss::NotAnIri(e) => {
                write!(f, "the display form is no IRI reference: {}", e.message())
            }
            DisplayLoss::BidiFormatting { offset } => write!(
                f,
                "the display form holds a bidi formatting character at byte {offset} \
                 (RFC 3987 §4.1, §3.2 step 4)"
            ),
            DisplayLoss::Changed { offset } => write!(
                f,
                "the display form does not map back to the URI: they differ from byte \
                 {offset} of the URI on (RFC 3987 §3.1)"
            ),
            DisplayLoss::BidiComponent { offset } => write!(
                f,
                "the display form breaks a bidi component rule at byte {offset} \
                 (RFC 3987 §4.2, §8)"
            ),
        }
    }
}

#[cfg(feature = "lint")]
impl core::error::Error for DisplayLoss {}

#[cfg(feature = "lint")]
/// One unit of a URI for comparing: a character, or a percent-encoded octet.
/// Percent-encodings of unreserved characters count as the character and hex
/// digits are compared without case (RFC 3986 §6.2.2.1-2: equivalent forms, and
/// RFC 3987 §3.2 lets a conversion change them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Char(char),
    Octet(u8),
}

#[cfg(feature = "lint")]
fn units_of_uri(text: &str, out: &mut Vec<(usize, Unit)>) {
    let bytes = text.as_bytes();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let octet = (c == '%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| core::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match octet {
            Some(b) => {
                chars.next();
                chars.next();
                let unreserved = b.is_ascii_alphanumeric() || b"-._~".contains(&b);
                out.push((
                    i,
                    if unreserved {
                        Unit::Char(b as char)
                    } else {
                        Unit::Octet(b)
                    },
                ));
            }
            None if c.is_ascii() => out.push((i, Unit::Char(c))),
            // RFC 3987 §3.1 step 2: a non-ASCII character maps to its UTF-8 octets.
            None => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push((i, Unit::Octet(b)));
                }
            }
        }
    }
}

#[cfg(feature = "lint")]
/// Whether `display`, the result of converting `uri` to an IRI for display (RFC
/// 3987 §3.2), can be shown in its place without losing anything: `Ok(())` if so,
/// else the first reason why not.
///
/// Lossless means: `display` is an IRI reference; it holds no bidi formatting
/// character (§4.1; §3.2 step 4 keeps them encoded); mapped back to a URI (§3.1) it
/// is `uri`, up to the case of percent-encodings' hex digits and the encoding of
/// unreserved characters (equivalent per RFC 3986 §6.2.2, changes §3.2 allows); and
/// every component keeps the bidi rules of §4.2, because a component that breaks
/// them can be read back as a different IRI (§8), and §4.2 says to leave it
/// percent-encoded. The advice of §6.1 (look-alikes) is for
/// [`Reference::lint_with`](crate::Reference::lint_with) to give; run it on `display` too.
///
/// ```
/// use iri_grammar::bidi::{check_display_conversion, DisplayLoss};
/// let uri = "http://www.example.org/D%C3%BCrst";
/// assert_eq!(check_display_conversion(uri, "http://www.example.org/Dürst"), Ok(()));
/// // %FC is no UTF-8: decoding it as Latin-1 changes the IRI.
/// assert_eq!(
///     check_display_conversion("http://a/D%FCrst", "http://a/Dürst"),
///     Err(DisplayLoss::Changed { offset: 10 }),
/// );
/// // U+202E must stay encoded (RFC 3987 §3.2).
/// assert!(check_display_conversion("http://a/%E2%80%AE", "http://a/\u{202E}").is_err());
/// ```
pub fn check_display_conversion(uri: &str, display: &str) -> Result<(), DisplayLoss> {
    let r = Reference::<Iri>::parse(display).map_err(DisplayLoss::NotAnIri)?;
    if let Some((offset, _)) = display
        .char_indices()
        .find(|&(_, c)| is_formatting_character(c) || is_later_control(c))
    {
        return Err(DisplayLoss::BidiFormatting { offset });
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    units_of_uri(uri, &mut a);
    units_of_uri(display, &mut b);
    let differ = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x.1 != y.1)
        .or((a.len() != b.len()).then(|| a.len().min(b.len())));
    if let Some(k) = differ {
        let offset = a.get(k).map_or(uri.len(), |u| u.0);
        return Err(DisplayLoss::Changed { offset });
    }
    for p in parts(&r, true) {
        if let Some(issue) = check_component(&display[p.range.clone()]).first() {
            return Err(DisplayLoss::BidiComponent {
                offset: p.range.start + issue.offset,
            });
        }
    }
    Ok(())
}

#[cfg(feature = "lint")]
/// Whether `display` can be shown in place of `uri` without loss
/// ([`check_display_conversion`] succeeds).
///
/// ```
/// use iri_grammar::bidi::is_lossless_display;
/// assert!(is_lossless_display("http://a/r%C3%A9sum%C3%A9", "http://a/résumé"));
/// assert!(!is_lossless_display("http://a/r%E9sum%E9", "http://a/résumé"));
/// ```
pub fn is_lossless_display(uri: &str, display: &str) -> bool {
    check_display_conversion(uri, display).is_ok()
}

#[cfg(all(test, feature = "lint"))]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_finds_utf8_only() {
        let found: Vec<_> = percent_decoded("a%E2%80%AEb%FC%41%e2%80")
            .into_iter()
            .map(|(r, c)| (r.start, c))
            .collect();
        assert_eq!(found, [(1, '\u{202E}'), (14, 'A')]);
    }

    #[test]
    fn trailing_marks_belong_to_the_letter_before() {
        // HEBREW LETTER SHIN + POINT QAMATS (NSM).
        assert!(check_component("\u{05E9}\u{05B8}").is_empty());
    }
}
