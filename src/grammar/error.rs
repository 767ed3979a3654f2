//! Why a string does not match a rule: where, what was found, what the rule expected.

use super::generated::Rule;
use super::runtime::{Expected, Explain, Failure};
use super::{full_match, Variant, VariantName};
use std::fmt;
use std::sync::OnceLock;

/// A string that does not match a rule.
///
/// Its [`Display`](fmt::Display) form reads like
/// `at char 15 (U+0020 SPACE): isegment expects ipchar (...), "/", "?", "#" or end of input, in ipath-abempty < ihier-part < IRI`.
///
/// ```
/// use iri_grammar::grammar::{check, Rule, Uri};
/// let e = check::<Uri>(Rule::Ipv4address, "1.2.3.256").unwrap_err();
/// assert_eq!(e.byte_offset, 8);
/// assert_eq!(e.found, Some('6'));
/// assert_eq!(e.within, vec!["IPv4address"]);
/// ```
///
/// Making one is cheap: the input is kept, and the explanation (the rules, what they
/// expected, the enclosing rules) is worked out by the combinators the first time a
/// field or the message is asked for. A program that only needs to know *that* an
/// input is invalid pays for no explanation.
#[derive(Clone)]
pub struct MatchError(Box<Lazy>);

#[derive(Clone)]
struct Lazy {
    rule: Rule,
    input: Box<str>,
    /// `explain_in::<V>`, for the grammar the input was matched in.
    explain: fn(Rule, &str) -> Details,
    details: OnceLock<Details>,
}

/// The fields of a [`MatchError`] (reached through it: `error.byte_offset`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Details {
    /// The grammar.
    pub variant: VariantName,
    /// The rule the whole input was matched against (in the variant's naming).
    pub start_rule: &'static str,
    /// Byte offset of the failure in the input.
    pub byte_offset: usize,
    /// Character offset of the failure in the input.
    pub char_offset: usize,
    /// The character found there (`None`: the input ended).
    pub found: Option<char>,
    /// The innermost rule being matched there (`None`: the failure is at the top).
    pub rule: Option<&'static str>,
    /// What would have been accepted there, as ABNF (rules, strings, ranges, "end of input").
    pub expected: Vec<String>,
    /// The same, grouped by the rule that expected it (innermost rule first).
    pub expected_by: Vec<(&'static str, Vec<String>)>,
    /// The rules enclosing `rule`, innermost first.
    pub within: Vec<&'static str>,
}

impl std::error::Error for MatchError {}

impl std::ops::Deref for MatchError {
    type Target = Details;
    /// The explanation, worked out on first use.
    fn deref(&self) -> &Details {
        let lazy = &self.0;
        lazy.details
            .get_or_init(|| (lazy.explain)(lazy.rule, &lazy.input))
    }
}

impl fmt::Debug for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MatchError")
            .field("input", &self.0.input)
            .field("details", &**self)
            .finish()
    }
}

impl PartialEq for MatchError {
    fn eq(&self, other: &Self) -> bool {
        self.0.rule == other.0.rule && self.0.input == other.0.input && **self == **other
    }
}

impl Eq for MatchError {}

/// How an expected rule is named: with its definition when it is a short class of
/// characters, so that the message says which characters would do.
fn describe_rule<V: Variant>(r: Rule) -> String {
    let name = r.name::<V>();
    if r.is_character_rule() {
        if let Some(def) = r.short_definition(V::NAME) {
            return format!("{name} ({def})");
        }
    }
    name.to_string()
}

fn describe<V: Variant>(e: &Expected) -> Vec<String> {
    match *e {
        Expected::Rule(r) => vec![describe_rule::<V>(r)],
        Expected::Lit(s) => vec![format!("{s:?}")],
        Expected::Range(lo, hi) if lo == hi => vec![format!("%x{lo:X}")],
        Expected::Range(lo, hi) => vec![format!("%x{lo:X}-{hi:X}")],
        Expected::Abnf(s) => vec![s.to_string()],
        Expected::End => vec!["end of input".to_string()],
        // Verified candidate by candidate in MatchError::new.
        Expected::Follow(_) => Vec::new(),
    }
}

/// `U+0020 SPACE`, `U+00E9 'é'`: a character as a student can identify it.
pub fn describe_char(c: char) -> String {
    const ASCII_NAMES: [&str; 33] = [
        "NULL",
        "START OF HEADING",
        "START OF TEXT",
        "END OF TEXT",
        "END OF TRANSMISSION",
        "ENQUIRY",
        "ACKNOWLEDGE",
        "BELL",
        "BACKSPACE",
        "CHARACTER TABULATION",
        "LINE FEED",
        "LINE TABULATION",
        "FORM FEED",
        "CARRIAGE RETURN",
        "SHIFT OUT",
        "SHIFT IN",
        "DATA LINK ESCAPE",
        "DEVICE CONTROL ONE",
        "DEVICE CONTROL TWO",
        "DEVICE CONTROL THREE",
        "DEVICE CONTROL FOUR",
        "NEGATIVE ACKNOWLEDGE",
        "SYNCHRONOUS IDLE",
        "END OF TRANSMISSION BLOCK",
        "CANCEL",
        "END OF MEDIUM",
        "SUBSTITUTE",
        "ESCAPE",
        "INFORMATION SEPARATOR FOUR",
        "INFORMATION SEPARATOR THREE",
        "INFORMATION SEPARATOR TWO",
        "INFORMATION SEPARATOR ONE",
        "SPACE",
    ];
    let cp = c as u32;
    let name = match cp {
        0..=0x20 => Some(ASCII_NAMES[cp as usize]),
        0x7F => Some("DELETE"),
        0xA0 => Some("NO-BREAK SPACE"),
        0x200E => Some("LEFT-TO-RIGHT MARK"),
        0x200F => Some("RIGHT-TO-LEFT MARK"),
        0x202A => Some("LEFT-TO-RIGHT EMBEDDING"),
        0x202B => Some("RIGHT-TO-LEFT EMBEDDING"),
        0x202C => Some("POP DIRECTIONAL FORMATTING"),
        0x202D => Some("LEFT-TO-RIGHT OVERRIDE"),
        0x202E => Some("RIGHT-TO-LEFT OVERRIDE"),
        0xFEFF => Some("ZERO WIDTH NO-BREAK SPACE"),
        _ => None,
    };
    match name {
        Some(n) => format!("U+{cp:04X} {n}"),
        // No glyph for what has none to show: controls, private use, format
        // characters, tags, specials and noncharacters.
        None if c.is_control()
            || matches!(cp, 0x80..=0x9F | 0xAD | 0x200B..=0x200F | 0x2028..=0x202E
                | 0x2060..=0x206F | 0xE000..=0xF8FF | 0xFDD0..=0xFDEF | 0xFFF0..=0xFFFF
                | 0xE0000..=0xE0FFF | 0xF0000..)
            || cp & 0xFFFE == 0xFFFE =>
        {
            format!("U+{cp:04X}")
        }
        None => format!("U+{cp:04X} '{c}'"),
    }
}

impl MatchError {
    /// The error of `input`, which does not match `rule` in grammar `V`; explained
    /// when first asked.
    pub(crate) fn new<V: Variant>(rule: Rule, input: &str) -> MatchError {
        MatchError(Box::new(Lazy {
            rule,
            input: input.into(),
            explain: explain_in::<V>,
            details: OnceLock::new(),
        }))
    }

    /// An error whose explanation is already known.
    pub(crate) fn explained<V: Variant>(rule: Rule, input: &str, details: Details) -> MatchError {
        let e = MatchError::new::<V>(rule, input);
        let _ = e.0.details.set(details);
        e
    }

    /// The input that does not match (its first 256 bytes when it is longer than the
    /// 4 GiB a reference may have).
    ///
    /// ```
    /// let e = iri_grammar::IriRef::parse("a b").unwrap_err();
    /// assert_eq!(e.input(), "a b");
    /// ```
    pub fn input(&self) -> &str {
        &self.0.input
    }
}

/// Explains why `input` does not match `rule`: the combinators run again in
/// `Explain` mode and keep the farthest failure.
fn explain_in<V: Variant>(rule: Rule, input: &str) -> Details {
    let failure = match full_match::<V, Explain>(rule, input) {
        Err(f) => f,
        Ok(_) => Failure {
            rem: input.len(),
            diag: None,
        },
    };
    Details::new::<V>(rule, input, failure)
}

impl Details {
    /// The details of `input` against `rule` from the failure of the combinators.
    fn new<V: Variant>(rule: Rule, input: &str, failure: Failure) -> Details {
        let (rem, expected, rules) = match failure.diag {
            Some(d) => (d.rem, d.expected, d.rules),
            None => (failure.rem, Vec::new(), Vec::new()),
        };
        let byte_offset = input.len().saturating_sub(rem);
        let byte_offset = (0..=byte_offset)
            .rev()
            .find(|&b| input.is_char_boundary(b))
            .unwrap_or(0);
        let char_offset = input[..byte_offset].chars().count();
        let found = input[byte_offset..].chars().next();
        let mut names: Vec<&'static str> = rules.iter().map(|r| r.name::<V>()).collect();
        names.dedup();
        let groups = expectations::<V>(rule, &input[..byte_offset], &expected);
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
            expected: groups.iter().flat_map(|(_, items)| items.clone()).collect(),
            expected_by: groups,
            within: names,
        }
    }
}

/// What was expected, grouped by the rule that expected it; the end of input last.
/// `prefix` is the input read before the failure.
fn expectations<V: Variant>(
    rule: Rule,
    prefix: &str,
    expected: &[(Expected, Option<Rule>)],
) -> Vec<(&'static str, Vec<String>)> {
    let mut groups: Vec<(&'static str, Vec<String>)> = Vec::new();
    for (e, owner) in expected {
        if matches!(e, Expected::Follow(_)) {
            continue;
        }
        // A variant rule the grammar does not have (iprivate under Uri) expects nothing.
        if let Expected::Rule(r) = e {
            if r.name_in(V::NAME).is_none() {
                continue;
            }
        }
        // Expected at the top, outside any rule: by the rule asked for.
        let owner = owner.map_or(rule.name::<V>(), |r| r.name::<V>());
        let k = match groups.iter().position(|(o, _)| *o == owner) {
            Some(k) => k,
            None => {
                groups.push((owner, Vec::new()));
                groups.len() - 1
            }
        };
        for text in describe::<V>(e) {
            if !groups[k].1.contains(&text) {
                groups[k].1.push(text);
            }
        }
    }
    let verified = verified_follow::<V>(rule, prefix, expected);
    if !verified.is_empty() {
        let top = rule.name::<V>();
        match groups.iter_mut().find(|(o, _)| *o == top) {
            Some((_, items)) => {
                for v in verified {
                    if !items.contains(&v) {
                        items.push(v);
                    }
                }
            }
            None => groups.push((top, verified)),
        }
    }
    // The end of input reads best last, in the group that is the whole rule's.
    for (_, items) in groups.iter_mut() {
        if let Some(k) = items.iter().position(|e| e == "end of input") {
            let end = items.remove(k);
            items.push(end);
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
) -> Vec<String> {
    let mut verified: Vec<String> = Vec::new();
    for (e, _) in expected {
        let Expected::Follow(set) = e else { continue };
        let (ascii, _, end) = set.members();
        let mut candidates: Vec<(Option<char>, String)> = ascii
            .iter()
            .map(|&c| (Some(c), format!("{:?}", c.to_string())))
            .collect();
        if end {
            candidates.push((None, "end of input".to_string()));
        }
        for (c, text) in candidates {
            let mut probe = prefix.to_string();
            probe.extend(c);
            if !verified.contains(&text) && super::is_match::<V>(rule, &probe) {
                verified.push(text);
            }
        }
    }
    verified
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at char {}", self.char_offset)?;
        let found = match self.found {
            Some(c) => describe_char(c),
            None => "end of input".to_string(),
        };
        if self.byte_offset != self.char_offset {
            write!(f, " (byte {}, {found})", self.byte_offset)?;
        } else {
            write!(f, " ({found})")?;
        }
        write!(f, ": ")?;
        if self.expected_by.is_empty() {
            write!(
                f,
                "{} expects something else",
                self.rule.unwrap_or(self.start_rule)
            )?;
        }
        for (k, (owner, items)) in self.expected_by.iter().enumerate() {
            if k > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{owner} expects ")?;
            match items.len() {
                0 => write!(f, "something else")?,
                1 => write!(f, "{}", items[0])?,
                n => write!(f, "{} or {}", items[..n - 1].join(", "), items[n - 1])?,
            }
        }
        if !self.within.is_empty() {
            write!(f, ", in {}", self.within.join(" < "))?;
        }
        Ok(())
    }
}
