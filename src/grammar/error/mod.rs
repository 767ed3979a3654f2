//! Why a string does not match a rule: where, what was found, what the rule expected.
//!
//! A [`MatchError`] is data first: the offsets, the character found, the innermost
//! rule, what was expected there as [`Expectation`] values, grouped by the rule that
//! expected them ([`ExpectedBy`]), and the enclosing rules. Its messages are made
//! from that data:
//!
//! - `{}` is one short line: `invalid IRI-reference: unexpected U+0020 SPACE at char
//!   20, in isegment`;
//! - [`MatchError::message`] is the long line that names everything expected
//!   (`at char 20 (U+0020 SPACE): isegment expects ipchar (...); ...`), what the `iri
//!   check` command prints;
//! - `{:#}` is the long line, then the input with a caret under the failing character.

use super::blame::{diagnose, ComponentFailure};
use super::components::Component;
use super::generated::Rule;
use super::runtime::{Diag, Expected, Explain, Failure};
use super::{describe_char, full_match, Variant, VariantName};
use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;
use core::fmt::Write;

/// A string that does not match a rule.
///
/// ```
/// use iri_grammar::grammar::{check, Expectation, Rule, Uri};
/// let e = check::<Uri>(Rule::Ipv4address, "1.2.3.256").unwrap_err();
/// assert_eq!((e.byte_offset(), e.char_offset(), e.found()), (8, 8, Some('6')));
/// assert_eq!(e.rule(), Some("dec-octet"));
/// assert_eq!(e.within(), ["IPv4address"]);
/// assert!(e.expected().contains(&Expectation::Range { first: 0x30, last: 0x35 }));
/// assert_eq!(e.to_string(), "invalid IPv4address: unexpected U+0036 '6' at char 8, in dec-octet");
/// assert_eq!(format!("{e:#}"), "\
/// at char 8 (U+0036 '6'): dec-octet expects %x30-35; IPv4address expects end of input, in IPv4address
///   1.2.3.256
///           ^");
/// ```
///
/// Making one is cheap: the input is kept (in the error itself when it has at most
/// 70 bytes, so that such a refusal allocates nothing; copied to the heap when
/// longer), and the explanation (the rules, what they expected, the enclosing rules)
/// is worked out by the combinators the first time an accessor or a message asks for
/// it (with the `std` feature; without it, when the error is made). A program that
/// only needs to know *that* an input is invalid pays for no explanation.
///
/// The fields are private and every accessor is a method, so that what an error
/// records can grow without breaking programs.
#[derive(Clone)]
pub struct MatchError(Lazy);

/// Not boxed itself, so that the error of a typical reference costs no allocation:
/// the input is kept in place when it is short ([`Kept`]); the explanation, which
/// is large, is boxed when it is worked out.
#[derive(Clone)]
struct Lazy {
    rule: Rule,
    input: Kept,
    /// The grammar the input was matched in, to explain it in: a byte, where a
    /// pointer to `explain_in::<V>` took eight that [`Kept`] uses better.
    #[cfg(feature = "std")]
    variant: VariantName,
    #[cfg(feature = "std")]
    details: std::sync::OnceLock<Box<Details>>,
    /// Without `std` there is no `OnceLock` (a lazy value shared between threads
    /// needs a lock): the explanation is worked out when the error is made.
    #[cfg(not(feature = "std"))]
    details: Box<Details>,
}

/// The input a [`MatchError`] keeps, to explain itself later: in place up to
/// [`Kept::INLINE`] bytes, boxed beyond.
///
/// Saying "no" should cost about what saying "yes" does, and copying every input
/// into the heap (`malloc`, `memcpy`, `free`) would make a refusal cost much more
/// than an answer. Seventy bytes hold most references of the corpus lists (URLs and
/// IRIs are mostly short; long file paths are the exception) and make the error,
/// and a parse's `Result`, 96 bytes instead of 72 (BENCHMARKS.md, `invalid`).
#[derive(Clone)]
enum Kept {
    Inline { len: u8, bytes: [u8; Kept::INLINE] },
    Boxed(Box<str>),
}

impl Kept {
    /// The longest input kept in place.
    const INLINE: usize = 70;

    fn new(input: &str) -> Kept {
        if input.len() <= Kept::INLINE {
            let mut bytes = [0; Kept::INLINE];
            bytes[..input.len()].copy_from_slice(input.as_bytes());
            // In range: at most `INLINE`, which is below 256.
            let len = input.len() as u8;
            Kept::Inline { len, bytes }
        } else {
            Kept::Boxed(input.into())
        }
    }

    fn as_str(&self) -> &str {
        match self {
            // SAFETY: `bytes[..len]` is the copy of a `str` made by `Kept::new`,
            // never changed since, so it is UTF-8.
            Kept::Inline { len, bytes } => unsafe {
                core::str::from_utf8_unchecked(&bytes[..usize::from(*len)])
            },
            Kept::Boxed(input) => input,
        }
    }
}

/// What a [`MatchError`] records, worked out once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Details {
    pub(crate) variant: VariantName,
    pub(crate) start_rule: &'static str,
    pub(crate) byte_offset: usize,
    pub(crate) char_offset: usize,
    pub(crate) found: Option<char>,
    pub(crate) rule: Option<&'static str>,
    pub(crate) expected: Vec<Expectation>,
    pub(crate) expected_by: Vec<ExpectedBy>,
    pub(crate) within: Vec<&'static str>,
    /// The component of a reference to blame, said first ([`super::blame`]).
    pub(crate) component: Option<ComponentFailure>,
}

/// One thing the grammar would have accepted where a match failed: a term of the
/// ABNF (RFC 5234) as a value.
///
/// Its [`Display`](fmt::Display) form is the ABNF notation the messages use: a rule
/// by name (with its definition when it is a short class of characters), a quoted
/// string, `%x30-35`, `end of input`.
///
/// ```
/// use iri_grammar::grammar::Expectation;
/// assert_eq!(Expectation::Literal("?").to_string(), "\"?\"");
/// assert_eq!(Expectation::Range { first: 0x30, last: 0x35 }.to_string(), "%x30-35");
/// assert_eq!(Expectation::EndOfInput.to_string(), "end of input");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expectation {
    /// A rule (RFC 5234 §2.2), by its name in the grammar of the error.
    Rule {
        /// The rule.
        rule: Rule,
        /// Its name in the grammar of the error (`pchar` under [`super::Uri`],
        /// `ipchar` under [`super::Iri`]).
        name: &'static str,
        /// Its definition, when the rule is a short class of characters (`DIGIT /
        /// "A" / ...`): the characters that would do, which the messages show.
        definition: Option<&'static str>,
    },
    /// A quoted string (RFC 5234 §2.3: case-insensitive), or one character that
    /// may follow what was matched.
    Literal(&'static str),
    /// A range of code points, `%x30-35` (RFC 5234 §2.3, §3.4); `first == last`
    /// for one code point.
    Range {
        /// The first code point.
        first: u32,
        /// The last code point.
        last: u32,
    },
    /// An ABNF prose value, `<...>` (RFC 5234 §4), or a limit of this library
    /// written as prose.
    Prose(&'static str),
    /// The end of the input.
    EndOfInput,
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Expectation::Rule {
                name,
                definition: Some(def),
                ..
            } => write!(f, "{name} ({def})"),
            Expectation::Rule { name, .. } => f.write_str(name),
            Expectation::Literal(s) => write!(f, "{s:?}"),
            Expectation::Range { first, last } if first == last => write!(f, "%x{first:X}"),
            Expectation::Range { first, last } => write!(f, "%x{first:X}-{last:X}"),
            Expectation::Prose(s) => f.write_str(s),
            Expectation::EndOfInput => f.write_str("end of input"),
        }
    }
}

/// What one rule expected where a match failed: [`MatchError::expected_by`] groups
/// the [`Expectation`]s by the rule whose definition has them, innermost first.
///
/// ```
/// use iri_grammar::grammar::{check, Iri, Rule};
/// let e = check::<Iri>(Rule::Iri, "http://a/b c").unwrap_err();
/// let by: Vec<_> = e.expected_by().iter().map(|g| g.rule()).collect();
/// assert_eq!(by, ["isegment", "ipath-abempty", "IRI"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedBy {
    rule: &'static str,
    expected: Vec<Expectation>,
}

impl ExpectedBy {
    /// The rule's name in the grammar of the error.
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// What it expected, the end of input last.
    pub fn expected(&self) -> &[Expectation] {
        &self.expected
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MatchError {}

// Without `std`, `core::error::Error` (Rust 1.81) is the same trait.
#[cfg(not(feature = "std"))]
impl core::error::Error for MatchError {}

impl fmt::Debug for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MatchError")
            .field("input", &self.input())
            .field("details", self.details())
            .finish()
    }
}

impl PartialEq for MatchError {
    fn eq(&self, other: &Self) -> bool {
        self.0.rule == other.0.rule
            && self.input() == other.input()
            && self.details() == other.details()
    }
}

impl Eq for MatchError {}

/// One-character strings of every ASCII character, to name a character as a
/// `&'static str` [`Expectation::Literal`].
const ASCII: &str = "\0\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\
\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f \
!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f";

fn ascii_literal(c: char) -> Option<&'static str> {
    let k = c as usize;
    (k < 128).then(|| &ASCII[k..k + 1])
}

/// How an expected rule is named: with its definition when it is a short class of
/// characters, so that the message says which characters would do.
fn describe_rule<V: Variant>(r: Rule) -> Expectation {
    let definition = if r.is_character_rule() {
        r.short_definition(V::NAME)
    } else {
        None
    };
    Expectation::Rule {
        rule: r,
        name: r.name::<V>(),
        definition,
    }
}

pub(crate) fn describe<V: Variant>(e: &Expected) -> Option<Expectation> {
    Some(match *e {
        Expected::Rule(r) => describe_rule::<V>(r),
        Expected::Lit(s) => Expectation::Literal(s),
        Expected::Range(first, last) => Expectation::Range { first, last },
        Expected::Abnf(s) => Expectation::Prose(s),
        Expected::End => Expectation::EndOfInput,
        // Verified candidate by candidate in `verified_follow`.
        Expected::Follow(_) => return None,
    })
}

impl MatchError {
    /// The error of `input`, which does not match `rule` in grammar `V`; explained
    /// when first asked.
    pub(crate) fn new<V: Variant>(rule: Rule, input: &str) -> MatchError {
        MatchError::made::<V>(rule, input, None)
    }

    /// An error whose explanation is already known.
    pub(crate) fn explained<V: Variant>(rule: Rule, input: &str, details: Details) -> MatchError {
        MatchError::made::<V>(rule, input, Some(details))
    }

    /// The error of `input` in grammar `V`, with its explanation if it is known.
    /// With `std` an unknown one is worked out when first asked (in `V`, which the
    /// error records); without, now.
    #[inline(always)]
    fn made<V: Variant>(rule: Rule, input: &str, details: Option<Details>) -> MatchError {
        MatchError(Lazy {
            rule,
            input: Kept::new(input),
            #[cfg(feature = "std")]
            variant: V::NAME,
            #[cfg(feature = "std")]
            details: details.map_or_else(std::sync::OnceLock::new, |d| {
                std::sync::OnceLock::from(Box::new(d))
            }),
            #[cfg(not(feature = "std"))]
            details: Box::new(details.unwrap_or_else(|| explain_in::<V>(rule, input))),
        })
    }

    /// The error of an input of 4 GiB or more, which the library does not match
    /// against `rule`: its spans are `u32`. The grammar has no length limit, so
    /// `expected` says what the library wanted, as prose; the error keeps the start
    /// of the input, not 4 GiB of it.
    #[cold]
    pub(crate) fn too_long<V: Variant>(
        rule: Rule,
        input: &str,
        expected: &'static str,
    ) -> MatchError {
        let details = Details::limit::<V>(rule, input, Self::LONGEST, expected);
        let mut keep = 256.min(input.len());
        while !input.is_char_boundary(keep) {
            keep -= 1;
        }
        MatchError::explained::<V>(rule, &input[..keep], details)
    }

    /// The length from which [`MatchError::too_long`] applies.
    pub(crate) const LONGEST: usize = u32::MAX as usize;

    /// The explanation, worked out on first use.
    pub(crate) fn details(&self) -> &Details {
        let lazy = &self.0;
        #[cfg(feature = "std")]
        {
            lazy.details
                .get_or_init(|| Box::new(explain_dyn(lazy.variant, lazy.rule, lazy.input.as_str())))
        }
        #[cfg(not(feature = "std"))]
        {
            &lazy.details
        }
    }

    /// The input that does not match (its first 256 bytes when it is longer than the
    /// 4 GiB a reference may have).
    ///
    /// ```
    /// let e = iri_grammar::IriRef::parse("a b").unwrap_err();
    /// assert_eq!(e.input(), "a b");
    /// ```
    pub fn input(&self) -> &str {
        self.0.input.as_str()
    }

    /// The grammar the input was matched in.
    pub fn grammar(&self) -> VariantName {
        self.details().variant
    }

    /// The rule the whole input was matched against, by its name in the grammar.
    ///
    /// ```
    /// use iri_grammar::{LeiriRef, UriRef};
    /// assert_eq!(UriRef::parse("%").unwrap_err().start_rule(), "URI-reference");
    /// assert_eq!(LeiriRef::parse("%").unwrap_err().start_rule(), "LEIRI-reference");
    /// ```
    pub fn start_rule(&self) -> &'static str {
        self.details().start_rule
    }

    /// The rule the whole input was matched against, as a [`Rule`].
    pub fn start_rule_id(&self) -> Rule {
        self.0.rule
    }

    /// Byte offset of the failure in the input: where the longest match the grammar
    /// could make stopped.
    pub fn byte_offset(&self) -> usize {
        self.details().byte_offset
    }

    /// Character offset of the failure in the input (counted from 0).
    pub fn char_offset(&self) -> usize {
        self.details().char_offset
    }

    /// The character found there; `None` when the input ended.
    pub fn found(&self) -> Option<char> {
        self.details().found
    }

    /// The innermost rule being matched there, by its name in the grammar; `None`
    /// when the failure is outside any rule of the one asked for.
    pub fn rule(&self) -> Option<&'static str> {
        self.details().rule
    }

    /// What would have been accepted there, every rule's expectations in one list
    /// (innermost rule first, the end of input last in each rule's part).
    ///
    /// ```
    /// use iri_grammar::{grammar::Expectation, IriRef};
    /// let e = IriRef::parse("http://a/b c").unwrap_err();
    /// assert!(e.expected().contains(&Expectation::Literal("?")));
    /// assert!(e.expected().contains(&Expectation::EndOfInput));
    /// ```
    pub fn expected(&self) -> &[Expectation] {
        &self.details().expected
    }

    /// The same, grouped by the rule that expected it (innermost rule first).
    pub fn expected_by(&self) -> &[ExpectedBy] {
        &self.details().expected_by
    }

    /// The rules enclosing [`MatchError::rule`], innermost first: the path from
    /// the failure up to the rule asked for.
    ///
    /// ```
    /// use iri_grammar::UriRef;
    /// let e = UriRef::parse("http://a/b c").unwrap_err();
    /// assert_eq!(e.rule(), Some("segment"));
    /// assert_eq!(e.within(), ["path-abempty", "hier-part", "URI", "URI-reference"]);
    /// ```
    pub fn within(&self) -> &[&'static str] {
        &self.details().within
    }

    /// For the rules of references: the component to blame, when the input parses
    /// as one up to a point (the scheme, or the userinfo, host or port of an
    /// authority that holds the failure) and that component fails its own rule, or
    /// a missing scheme where the rule needs one. The messages say it first, then
    /// the grammar's explanation, whose offsets are where its longest match stopped:
    /// in `http://a:8x/` the `/` at char 11 (the grammar still reads `a:8x` as a
    /// userinfo that might meet an `@`), while the port holds the `x` at char 10.
    ///
    /// ```
    /// use iri_grammar::{AbsoluteIri, IriRef};
    /// let e = IriRef::parse("http://a:8x/").unwrap_err();
    /// assert_eq!(e.to_string(),
    ///     "invalid IRI-reference: unexpected U+0078 'x' at char 10, in the port: \
    ///      a port holds digits only (RFC 3986 §3.2.3)");
    /// let e = AbsoluteIri::parse("rel/only").unwrap_err();
    /// assert!(e.component().unwrap().is_relative_reference());
    /// assert_eq!(e.to_string(),
    ///     "invalid IRI: at char 0: a relative reference (RFC 3986 §4.2), with no scheme; \
    ///      IRI begins with a scheme and \":\" (RFC 3986 §3)");
    /// ```
    pub fn component(&self) -> Option<&ComponentFailure> {
        self.details().component.as_ref()
    }

    /// The component of the reference the input fails in: the one blamed
    /// ([`MatchError::component`]) where the library names one, else the component
    /// whose rule encloses the failure, the innermost (`dec-octet` within
    /// `IPv4address` within `ihost` is in the host). RFC 3986 §3's components;
    /// RFC 3987's `i` rules count as theirs. `None` where no enclosing rule is one.
    /// What `iri check` shows as the component, and SQL's `iri_error(s)['component']`.
    ///
    /// ```
    /// use iri_grammar::{reference::Component, IriRef};
    /// let e = IriRef::parse("http://[::1.2.3.256]/").unwrap_err();
    /// assert_eq!(e.rule(), Some("dec-octet"));
    /// assert_eq!(e.component_name(), Some(Component::Host));
    /// ```
    pub fn component_name(&self) -> Option<Component> {
        if let Some(blamed) = self.component() {
            return Some(blamed.component());
        }
        self.rule()
            .into_iter()
            .chain(self.within().iter().copied())
            .find_map(component_of_rule)
    }

    /// The long message, on one line: where, what was found, everything each rule
    /// expected there, and the enclosing rules. What `iri check` prints after
    /// `invalid: `. When a component is to blame ([`MatchError::component`]), it
    /// comes first, and the grammar's explanation after `The grammar stops `.
    ///
    /// ```
    /// use iri_grammar::grammar::{check, Rule, Uri};
    /// let e = check::<Uri>(Rule::Ipv4address, "1.2.3.256").unwrap_err();
    /// assert_eq!(e.message(),
    ///     "at char 8 (U+0036 '6'): dec-octet expects %x30-35; IPv4address expects end of input, in IPv4address");
    /// ```
    pub fn message(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_message(&mut s);
        s
    }

    fn write_message(&self, f: &mut impl Write) -> fmt::Result {
        let d = self.details();
        if let Some(c) = &d.component {
            write!(f, "at char {}", c.char_offset())?;
            if !c.is_missing_scheme() {
                let found = c
                    .found()
                    .map_or_else(|| "end of input".to_string(), describe_char);
                if c.byte_offset() != c.char_offset() {
                    write!(f, " (byte {}, {found})", c.byte_offset())?;
                } else {
                    write!(f, " ({found})")?;
                }
            }
            c.write_what(f)?;
            f.write_str(". The grammar stops ")?;
        }
        match &d.component {
            Some(c) if c.byte_offset() == d.byte_offset && !c.is_missing_scheme() => {
                f.write_str("there")?
            }
            _ => self.write_where(f)?,
        }
        f.write_str(": ")?;
        if d.expected_by.is_empty() {
            write!(
                f,
                "{} expects something else",
                d.rule.unwrap_or(d.start_rule)
            )?;
        }
        for (k, group) in d.expected_by.iter().enumerate() {
            if k > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{} expects ", group.rule)?;
            let items = &group.expected;
            match items.len() {
                0 => write!(f, "something else")?,
                n => {
                    for (j, item) in items.iter().enumerate() {
                        match j {
                            0 => {}
                            j if j + 1 == n => write!(f, " or ")?,
                            _ => write!(f, ", ")?,
                        }
                        write!(f, "{item}")?;
                    }
                }
            }
        }
        if !d.within.is_empty() {
            write!(f, ", in ")?;
            for (k, r) in d.within.iter().enumerate() {
                if k > 0 {
                    write!(f, " < ")?;
                }
                write!(f, "{r}")?;
            }
        }
        Ok(())
    }

    /// `at char N (C)`: where the grammar's longest match stopped, and the character
    /// there.
    fn write_where(&self, f: &mut impl Write) -> fmt::Result {
        let d = self.details();
        write!(f, "at char {}", d.char_offset)?;
        let found = match d.found {
            Some(c) => describe_char(c),
            None => "end of input".to_string(),
        };
        if d.byte_offset != d.char_offset {
            write!(f, " (byte {}, {found})", d.byte_offset)
        } else {
            write!(f, " ({found})")
        }
    }

    /// The input with a caret under the failing character (the blamed component's,
    /// when there is one: [`MatchError::component`]): two lines, each
    /// indented by two spaces, without a final line break. Characters that cannot
    /// be seen or take no column (controls, bidi formatting characters such as
    /// U+202E, which would also reorder the line, combining marks) are shown as
    /// `⟨U+202E⟩`, so that the caret stays under the right one; wide characters
    /// (CJK) count as two columns, as terminals draw them. The widths come from a
    /// short table of ranges, not from the Unicode data (this crate does not
    /// depend on it): the `iri` command uses the full tables.
    ///
    /// ```
    /// let e = iri_grammar::IriRef::parse("http://a/\u{202E}b c").unwrap_err();
    /// assert_eq!(e.caret(), "  http://a/⟨U+202E⟩b c\n                    ^");
    /// let e = iri_grammar::IriRef::parse("http://納豆/ x").unwrap_err();
    /// assert_eq!(e.caret(), "  http://納豆/ x\n              ^");
    /// ```
    pub fn caret(&self) -> String {
        let at = self
            .component()
            .map_or_else(|| self.char_offset(), |c| c.char_offset());
        let mut line = String::from("  ");
        let mut before = 2;
        for (k, c) in self.input().chars().enumerate() {
            let width = shown(c, &mut line);
            if k < at {
                before += width;
            }
        }
        line.push('\n');
        line.extend(core::iter::repeat_n(' ', before));
        line.push('^');
        line
    }
}

/// Writes `c` as the caret line shows it; returns the columns it takes.
fn shown(c: char, out: &mut String) -> usize {
    let cp = c as u32;
    let invisible = c.is_control()
        || matches!(cp, 0xAD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x180B..=0x180F
            | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F | 0xFE00..=0xFE0F
            | 0xFEFF | 0xFFF0..=0xFFFB | 0xE0000..=0xE0FFF)
        // Combining marks of the blocks made of them: they take no column.
        || matches!(cp, 0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD
            | 0x0610..=0x061A | 0x064B..=0x065F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF
            | 0x20D0..=0x20FF | 0x302A..=0x302F | 0x3099..=0x309A | 0xFE20..=0xFE2F);
    if invisible {
        let before = out.len();
        let _ = write!(out, "⟨U+{cp:04X}⟩");
        return out[before..].chars().count();
    }
    out.push(c);
    // East Asian Wide and Fullwidth, the ranges terminals draw two columns wide.
    let wide = matches!(cp, 0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F | 0x1F900..=0x1F9FF | 0x20000..=0x2FFFD | 0x30000..=0x3FFFD);
    1 + usize::from(wide)
}

impl fmt::Display for MatchError {
    /// `{}`: one short line, `invalid IRI-reference: unexpected U+0020 SPACE at char
    /// 20, in isegment`. `{:#}`: the long [`MatchError::message`], then the input
    /// and a caret under the failing character ([`MatchError::caret`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            self.write_message(f)?;
            return write!(f, "\n{}", self.caret());
        }
        write!(f, "invalid {}: ", self.details().start_rule)?;
        self.write_short(f)
    }
}

impl MatchError {
    /// The short form after its `invalid RULE: ` opening.
    pub(crate) fn write_short(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.details();
        if let Some(c) = &d.component {
            return write!(f, "{c}");
        }
        f.write_str("unexpected ")?;
        match d.found {
            Some(c) => f.write_str(&describe_char(c))?,
            None => f.write_str("end of input")?,
        }
        write!(f, " at char {}", d.char_offset)?;
        if let Some(rule) = d.rule {
            write!(f, ", in {rule}")?;
        }
        Ok(())
    }
}

/// [`explain_in`] with the grammar chosen at run time: the one an error recorded.
#[cfg(feature = "std")]
fn explain_dyn(variant: VariantName, rule: Rule, input: &str) -> Details {
    crate::with_variant!(variant, V => explain_in::<V>(rule, input))
}

/// Explains why `input` does not match `rule`: the combinators' farthest failure
/// ([`farthest_failure`]) made into the details.
fn explain_in<V: Variant>(rule: Rule, input: &str) -> Details {
    Details::new::<V>(rule, input, farthest_failure::<V>(rule, input))
}

/// The byte offset of [`MatchError::byte_offset`] for an input that does not match
/// `rule`, without the rest of the explanation (the expectations, the component to
/// blame): what `blame` needs of a component that fails on its own.
pub(crate) fn failure_offset<V: Variant>(rule: Rule, input: &str) -> usize {
    let failure = farthest_failure::<V>(rule, input);
    let rem = match failure.diag {
        Some(d) => {
            let rem = d.rem;
            Diag::recycle(d);
            rem
        }
        None => failure.rem,
    };
    char_boundary_at_or_before(input, input.len().saturating_sub(rem))
}

/// The last char boundary of `input` at or before byte `at`.
fn char_boundary_at_or_before(input: &str, at: usize) -> usize {
    (0..=at)
        .rev()
        .find(|&b| input.is_char_boundary(b))
        .unwrap_or(0)
}

/// The combinators run again in `Explain` mode on `input`, keeping the farthest
/// failure.
///
/// Where the rule is compiled, the automaton first says where that failure is (the
/// byte no match can go on with, or the end), and the combinators keep no failure
/// nearer the start ([`Explain`]'s doc says why the answer is the same). The two
/// places are mostly one; where the combinators fail before it (a literal of two
/// characters, `"::"` in `//[:x`, fails at its start, where the automaton goes on to
/// the `x`), none reaches it, and they run again keeping all.
fn farthest_failure<V: Variant>(rule: Rule, input: &str) -> Failure {
    let explain = || full_match::<V, Explain>(rule, input);
    #[cfg(feature = "std")]
    let result = {
        let stop = match super::viable_prefix::<V>(rule, input) {
            Some(p) if p.len < input.len() => {
                let start = (0..=p.len)
                    .rev()
                    .find(|&b| input.is_char_boundary(b))
                    .unwrap_or(0);
                Some(input.len() - start)
            }
            // The input ends where a match needs more.
            Some(p) if !p.is_match => Some(0),
            _ => None,
        };
        match stop.map(|rem| Explain::within(rem, explain)) {
            Some(Err(f)) if f.diag.is_some() => Err(f),
            _ => explain(),
        }
    };
    #[cfg(not(feature = "std"))]
    let result = explain();
    match result {
        Err(f) => f,
        Ok(_) => Failure {
            rem: input.len(),
            diag: None,
        },
    }
}

impl Details {
    /// The details of `input` against `rule` from the failure of the combinators.
    fn new<V: Variant>(rule: Rule, input: &str, failure: Failure) -> Details {
        let (rem, expected, rules): (usize, &[_], &[Rule]) = match &failure.diag {
            Some(d) => (d.rem, &d.expected, &d.rules),
            None => (failure.rem, &[], &[]),
        };
        let byte_offset = char_boundary_at_or_before(input, input.len().saturating_sub(rem));
        let char_offset = input[..byte_offset].chars().count();
        let found = input[byte_offset..].chars().next();
        let mut names: Vec<&'static str> = rules.iter().map(|r| r.name::<V>()).collect();
        names.dedup();
        let groups = expectations::<V>(rule, &input[..byte_offset], expected);
        if let Some(d) = failure.diag {
            Diag::recycle(d);
        }
        // The innermost rule: the first on the chain; its enclosing rules follow.
        let innermost = if names.is_empty() {
            None
        } else {
            Some(names.remove(0))
        };
        Details {
            variant: V::NAME,
            start_rule: rule.name::<V>(),
            byte_offset,
            char_offset,
            found,
            rule: innermost,
            expected: groups
                .iter()
                .flat_map(|g| g.expected.iter().cloned())
                .collect(),
            expected_by: groups,
            within: names,
            component: diagnose::<V>(rule, input, byte_offset),
        }
    }

    /// The details of an input that is too long to be matched: `expected` says
    /// why, as prose, at byte `at`.
    pub(crate) fn limit<V: Variant>(
        rule: Rule,
        input: &str,
        at: usize,
        expected: &'static str,
    ) -> Details {
        let at = at.min(input.len());
        let expected = vec![Expectation::Prose(expected)];
        Details {
            variant: V::NAME,
            start_rule: rule.name::<V>(),
            byte_offset: at,
            char_offset: input[..at].chars().count(),
            found: input[at..].chars().next(),
            rule: None,
            expected_by: vec![ExpectedBy {
                rule: rule.name::<V>(),
                expected: expected.clone(),
            }],
            expected,
            within: Vec::new(),
            component: None,
        }
    }
}

/// What was expected, grouped by the rule that expected it; the end of input last.
/// `prefix` is the input read before the failure.
fn expectations<V: Variant>(
    rule: Rule,
    prefix: &str,
    expected: &[(Expected, Option<Rule>)],
) -> Vec<ExpectedBy> {
    let mut groups: Vec<ExpectedBy> = Vec::new();
    for (e, owner) in expected {
        // A variant rule the grammar does not have (iprivate under Uri) expects nothing.
        if let Expected::Rule(r) = e {
            if r.name_in(V::NAME).is_none() {
                continue;
            }
        }
        let Some(item) = describe::<V>(e) else {
            continue;
        };
        // Expected at the top, outside any rule: by the rule asked for.
        let owner = owner.map_or(rule.name::<V>(), |r| r.name::<V>());
        let k = match groups.iter().position(|g| g.rule == owner) {
            Some(k) => k,
            None => {
                groups.push(ExpectedBy {
                    rule: owner,
                    expected: Vec::new(),
                });
                groups.len() - 1
            }
        };
        if !groups[k].expected.contains(&item) {
            groups[k].expected.push(item);
        }
    }
    let verified = verified_follow::<V>(rule, prefix, expected);
    if !verified.is_empty() {
        let top = rule.name::<V>();
        match groups.iter_mut().find(|g| g.rule == top) {
            Some(g) => {
                for v in verified {
                    if !g.expected.contains(&v) {
                        g.expected.push(v);
                    }
                }
            }
            None => groups.push(ExpectedBy {
                rule: top,
                expected: verified,
            }),
        }
    }
    // The end of input reads best last, in the group that is the whole rule's.
    for g in groups.iter_mut() {
        if let Some(k) = g
            .expected
            .iter()
            .position(|e| *e == Expectation::EndOfInput)
        {
            let end = g.expected.remove(k);
            g.expected.push(end);
        }
    }
    groups
}

/// The characters (or the end of input) that a rejected lookahead would have
/// accepted and that provably continue this input. What may follow a match is the
/// union of every context of the rule, more than this input's context allows: a
/// candidate is kept only when the prefix read so far plus that character (or
/// nothing, for the end of input) matches the rule asked for.
fn verified_follow<V: Variant>(
    rule: Rule,
    prefix: &str,
    expected: &[(Expected, Option<Rule>)],
) -> Vec<Expectation> {
    let mut verified: Vec<Expectation> = Vec::new();
    // One probe for all: the prefix, then each candidate character after it.
    let mut probe = String::with_capacity(prefix.len() + 1);
    probe.push_str(prefix);
    let mut verify = |c: Option<char>, item: Expectation| {
        probe.truncate(prefix.len());
        probe.extend(c);
        if !verified.contains(&item) && super::is_match::<V>(rule, &probe) {
            verified.push(item);
        }
    };
    for (e, _) in expected {
        let Expected::Follow(set) = e else { continue };
        // The ASCII members in order, then the end.
        let mut ascii = set.ascii_bits();
        while ascii != 0 {
            let c = char::from(ascii.trailing_zeros() as u8);
            ascii &= ascii - 1;
            if let Some(literal) = ascii_literal(c) {
                verify(Some(c), Expectation::Literal(literal));
            }
        }
        if set.has_end() {
            verify(None, Expectation::EndOfInput);
        }
    }
    verified
}

/// The component a rule of the grammars matches, by its name (RFC 3986 §3; RFC
/// 3987's `i` rules as RFC 3986's): `ihost` and `host` are the host, the five
/// `path-*` rules the path.
fn component_of_rule(rule: &str) -> Option<Component> {
    let bare = rule.strip_prefix('i').unwrap_or(rule);
    Some(match bare {
        "scheme" => Component::Scheme,
        "authority" => Component::Authority,
        "userinfo" => Component::Userinfo,
        "host" => Component::Host,
        "port" => Component::Port,
        "path" | "path-abempty" | "path-absolute" | "path-noscheme" | "path-rootless"
        | "path-empty" => Component::Path,
        "query" => Component::Query,
        "fragment" => Component::Fragment,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
