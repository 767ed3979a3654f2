//! Why a string does not match a rule: where, what was found, what the rule expected.

use super::generated::Rule;
use super::runtime::{Expected, Failure};
use super::Variant;
use crate::abnf::{Element, Grammars, VariantName};
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchError {
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
    /// The rules enclosing `rule`, innermost first.
    pub within: Vec<&'static str>,
}

impl std::error::Error for MatchError {}

fn grammars() -> &'static Grammars {
    static G: OnceLock<Grammars> = OnceLock::new();
    G.get_or_init(Grammars::builtin)
}

/// How an expected rule is named: with its definition when it is a short class of
/// characters, so that the message says which characters would do.
fn describe_rule<V: Variant>(r: Rule) -> String {
    let name = r.name::<V>();
    if r.is_character_rule() {
        let g = grammars();
        if let Some(def) = g
            .table(V::NAME)
            .into_iter()
            .find(|x| x.name.eq_ignore_ascii_case(name))
        {
            let short = match &def.definition {
                Element::Alternation(alts) => alts
                    .iter()
                    .all(|a| matches!(a, Element::Rule(_) | Element::CharVal { .. })),
                _ => false,
            };
            if short {
                return format!("{name} ({})", def.definition);
            }
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
        Expected::Follow(set) => {
            let (ascii, non_ascii, end) = set.members();
            let mut out: Vec<String> = if ascii.len() <= 12 {
                ascii
                    .iter()
                    .map(|c| format!("{:?}", c.to_string()))
                    .collect()
            } else {
                vec![format!("one of {} ASCII characters", ascii.len())]
            };
            if non_ascii {
                out.push("a non-ASCII character".to_string());
            }
            if end {
                out.push("end of input".to_string());
            }
            out
        }
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
        None if c.is_control() || (0x80..=0x9F).contains(&cp) => format!("U+{cp:04X}"),
        None => format!("U+{cp:04X} '{c}'"),
    }
}

impl MatchError {
    /// Builds the error of `input` against `rule` from the failure of the combinators.
    pub(crate) fn new<V: Variant>(rule: Rule, input: &str, failure: Failure) -> MatchError {
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
        // The innermost rule a student would name: character rules (`ipchar`)
        // are what is expected, not where we are.
        let mut names: Vec<&'static str> = rules.iter().map(|r| r.name::<V>()).collect();
        names.dedup();
        let innermost = if names.is_empty() {
            None
        } else {
            Some(names.remove(0))
        };
        MatchError {
            variant: V::NAME,
            start_rule: rule.name::<V>(),
            byte_offset,
            char_offset,
            found,
            rule: innermost,
            expected: {
                let mut all: Vec<String> = Vec::new();
                for e in expected.iter().flat_map(describe::<V>) {
                    if !all.contains(&e) {
                        all.push(e);
                    }
                }
                // The end of input reads best last.
                if let Some(k) = all.iter().position(|e| e == "end of input") {
                    let end = all.remove(k);
                    all.push(end);
                }
                all
            },
            within: names,
        }
    }
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
        match self.rule {
            Some(r) => write!(f, "{r} expects ")?,
            None => write!(f, "{} expects ", self.start_rule)?,
        }
        match self.expected.len() {
            0 => write!(f, "something else")?,
            1 => write!(f, "{}", self.expected[0])?,
            n => write!(
                f,
                "{} or {}",
                self.expected[..n - 1].join(", "),
                self.expected[n - 1]
            )?,
        }
        if !self.within.is_empty() {
            write!(f, ", in {}", self.within.join(" < "))?;
        }
        Ok(())
    }
}
