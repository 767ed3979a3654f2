//! Reads ABNF text (RFC 5234 §4, with RFC 7405's `%s`/`%i`) into a [`RuleList`].
//!
//! Written with nom, following RFC 5234's own grammar of ABNF: `rule = rulename
//! defined-as elements c-nl`, where `c-wsp = WSP / (c-nl WSP)` lets a definition
//! continue on lines that start with white space and carry comments.
//!
//! One addition for this project: a comment line `;@ SECTION` names the section of
//! the source document that defines the rules after it (see `grammar/*.abnf`).
//!
//! # Dialects
//!
//! A file may declare, on a line `;@dialect NAME` before its first rule, that it is
//! written in an older notation ([`Dialect`]). The one known is `rfc2396`: the BNF of
//! RFC 2396 §1.6 (after RFC 822), in which the 2001 IRI draft writes its grammar
//! (`grammar/draft-masinter-url-i18n-07.abnf`):
//!
//! - `|` separates alternatives, where RFC 5234 writes `/` (which it does not accept);
//! - rule names may contain `_` (`abs_path`, `ihier_part`);
//! - prose is written `<< ... >>` as well as `< ... >`.
//!
//! Everything else is read as RFC 5234 reads it (repetition, options, groups, quoted
//! strings, comments, `%x` values), and the rules read are the same [`Element`]s: a
//! dialect is a spelling, not a semantics. A rule's `text` keeps the file's spelling;
//! its [`Element`] prints in RFC 5234's.

use crate::{Element, RuleDef, RuleList, Source};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, satisfy};
use nom::combinator::{eof, map, opt, recognize, value};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{many0, many1};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};
use std::collections::HashMap;
use std::fmt;

/// An error in grammar text: where (1-based line and column) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The file being read.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What the reader expected there.
    pub expected: String,
    /// What it found (a character, or "end of text").
    pub found: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: expected {}, found {}",
            self.file, self.line, self.column, self.expected, self.found
        )
    }
}

impl std::error::Error for ReadError {}

/// The nom error of the reader: the farthest position reached and what was expected there.
#[derive(Debug, Clone)]
struct Expect<'a> {
    at: &'a str,
    expected: &'static str,
}

impl<'a> ParseError<&'a str> for Expect<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        Expect {
            at: input,
            expected: "valid ABNF",
        }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        // The alternative that got farther explains the error best.
        if other.at.len() <= self.at.len() {
            other
        } else {
            self
        }
    }
}

type R<'a, T> = IResult<&'a str, T, Expect<'a>>;

/// How deep groups (`( )`, RFC 5234 §3.5) and options (`[ ]`, §3.8) may nest in one
/// rule. The reader, and every walk of a definition after it (printing, the oracle,
/// the generators, the analyses), recurse once per level: a grammar is untrusted
/// input, and unbounded nesting would overflow the stack (SECURITY.md). The grammars
/// of the RFCs nest at most 4 deep; 32 levels leave eight times that and stay within
/// a quarter of the test harness's threads (the test `nesting_is_limited` reads,
/// matches and prints a rule at the limit).
pub const MAX_NESTING: usize = 32;

/// The `expected` of the reader's error at a group or option past [`MAX_NESTING`]:
/// [`Reader::rule`] recognizes it and names the rule and the limit.
const TOO_DEEP: &str = "a group or option nested no deeper than the limit";

/// The notation a grammar file is written in (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// RFC 5234 with RFC 7405 (`%s`, `%i`).
    #[default]
    Rfc5234,
    /// The BNF of RFC 2396 §1.6: `|` for alternatives, `_` in names, `<< prose >>`.
    Rfc2396,
}

impl Dialect {
    /// The dialect a `;@dialect NAME` line names (`rfc5234`, `rfc2396`; any case).
    ///
    /// ```
    /// use iri_grammar_abnf::model::reader::Dialect;
    /// assert_eq!(Dialect::named("RFC2396"), Some(Dialect::Rfc2396));
    /// assert_eq!(Dialect::named("ebnf"), None);
    /// ```
    pub fn named(name: &str) -> Option<Dialect> {
        match name.trim().to_ascii_lowercase().as_str() {
            "rfc5234" | "rfc7405" => Some(Dialect::Rfc5234),
            "rfc2396" => Some(Dialect::Rfc2396),
            _ => None,
        }
    }

    /// The character that separates alternatives.
    fn bar(self) -> char {
        match self {
            Dialect::Rfc5234 => '/',
            Dialect::Rfc2396 => '|',
        }
    }
}

/// Names what `p` expects, for the error message.
fn expecting<'a, O>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = O, Error = Expect<'a>>,
) -> impl FnMut(&'a str) -> R<'a, O> {
    move |i: &'a str| {
        p.parse(i).map_err(|e| {
            e.map(|mut inner| {
                if inner.at.len() == i.len() {
                    inner.expected = what;
                }
                inner
            })
        })
    }
}

fn is_wsp(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `CRLF`, accepting a bare LF too (files are written with LF), or the end of the text.
fn line_end(i: &str) -> R<'_, ()> {
    value((), alt((tag("\r\n"), tag("\n"), eof))).parse(i)
}

/// `comment = ";" *(WSP / VCHAR) CRLF`
fn comment(i: &str) -> R<'_, ()> {
    value(
        (),
        (char(';'), take_while(|c| c != '\n' && c != '\r'), line_end),
    )
    .parse(i)
}

/// `c-nl = comment / CRLF`
fn c_nl(i: &str) -> R<'_, ()> {
    alt((comment, value((), alt((tag("\r\n"), tag("\n")))))).parse(i)
}

/// `c-wsp = WSP / (c-nl WSP)`
fn c_wsp(i: &str) -> R<'_, ()> {
    alt((
        value((), take_while1(is_wsp)),
        value((), (c_nl, take_while1(is_wsp))),
    ))
    .parse(i)
}

/// `rulename = ALPHA *(ALPHA / DIGIT / "-")`, and `_` in the RFC 2396 dialect.
fn rulename(d: Dialect, i: &str) -> R<'_, &str> {
    let underscore = d == Dialect::Rfc2396;
    expecting(
        "a rule name",
        recognize((
            satisfy(|c| c.is_ascii_alphabetic()),
            take_while(move |c: char| {
                c.is_ascii_alphanumeric() || c == '-' || (underscore && c == '_')
            }),
        )),
    )
    .parse(i)
}

/// `alternation = concatenation *(*c-wsp "/" *c-wsp concatenation)` (`|` in the
/// RFC 2396 dialect).
fn alternation(d: Dialect, depth: usize, i: &str) -> R<'_, Element> {
    let (i, first) = concatenation(d, depth, i)?;
    let (i, rest) = many0(preceded((many0(c_wsp), char(d.bar()), many0(c_wsp)), |i| {
        concatenation(d, depth, i)
    }))
    .parse(i)?;
    if rest.is_empty() {
        return Ok((i, first));
    }
    let mut alts = vec![first];
    alts.extend(rest);
    Ok((i, Element::Alternation(alts)))
}

/// `concatenation = repetition *(1*c-wsp repetition)`
fn concatenation(d: Dialect, depth: usize, i: &str) -> R<'_, Element> {
    let (i, first) = repetition(d, depth, i)?;
    let (i, rest) = many0(preceded(many1(c_wsp), |i| repetition(d, depth, i))).parse(i)?;
    if rest.is_empty() {
        return Ok((i, first));
    }
    let mut items = vec![first];
    items.extend(rest);
    Ok((i, Element::Concatenation(items)))
}

fn number(radix: u32) -> impl FnMut(&str) -> R<'_, u32> {
    move |i: &str| {
        let (rest, digits) = take_while1(|c: char| c.is_digit(radix)).parse(i)?;
        match u32::from_str_radix(digits, radix) {
            Ok(n) => Ok((rest, n)),
            Err(_) => Err(nom::Err::Error(Expect {
                at: i,
                expected: "a number that fits in 32 bits",
            })),
        }
    }
}

/// `repetition = [repeat] element`, `repeat = 1*DIGIT / (*DIGIT "*" *DIGIT)`
fn repetition(d: Dialect, depth: usize, i: &str) -> R<'_, Element> {
    let (i, repeat) = opt(alt((
        map(
            (opt(number(10)), char('*'), opt(number(10))),
            |(min, _, max)| (min.unwrap_or(0), max),
        ),
        map(number(10), |n| (n, Some(n))),
    )))
    .parse(i)?;
    let (i, element) = element(d, depth, i)?;
    Ok((
        i,
        match repeat {
            None => element,
            Some((min, max)) => Element::Repetition {
                min,
                max,
                element: Box::new(element),
                optional_syntax: false,
            },
        },
    ))
}

/// `element = rulename / group / option / char-val / num-val / prose-val`; `depth`
/// counts the groups and options around it.
fn element(d: Dialect, depth: usize, i: &str) -> R<'_, Element> {
    if depth >= MAX_NESTING && (i.starts_with('(') || i.starts_with('[')) {
        // A Failure, not an Error: no other alternative can read it either, and the
        // message must name the limit rather than "expected an element".
        return Err(nom::Err::Failure(Expect {
            at: i,
            expected: TOO_DEEP,
        }));
    }
    expecting(
        "an element (rule name, group, option, string, %-value or <prose>)",
        alt((
            map(|i| rulename(d, i), |n| Element::Rule(n.to_string())),
            |i| group(d, depth + 1, i),
            |i| option(d, depth + 1, i),
            char_val,
            num_val,
            |i| prose_val(d, i),
        )),
    )
    .parse(i)
}

/// `group = "(" *c-wsp alternation *c-wsp ")"`
fn group(d: Dialect, depth: usize, i: &str) -> R<'_, Element> {
    delimited(
        (char('('), many0(c_wsp)),
        |i| alternation(d, depth, i),
        (
            many0(c_wsp),
            expecting("\")\" closing the group", char(')')),
        ),
    )
    .parse(i)
}

/// `option = "[" *c-wsp alternation *c-wsp "]"`
fn option(d: Dialect, depth: usize, i: &str) -> R<'_, Element> {
    map(
        delimited(
            (char('['), many0(c_wsp)),
            |i| alternation(d, depth, i),
            (
                many0(c_wsp),
                expecting("\"]\" closing the option", char(']')),
            ),
        ),
        |e| Element::Repetition {
            min: 0,
            max: Some(1),
            element: Box::new(e),
            optional_syntax: true,
        },
    )
    .parse(i)
}

/// `char-val = DQUOTE *(%x20-21 / %x23-7E) DQUOTE`, with RFC 7405's `%s` / `%i` prefixes.
fn char_val(i: &str) -> R<'_, Element> {
    let (i, sensitivity) = opt(alt((tag("%s"), tag("%i")))).parse(i)?;
    let (i, text) = delimited(
        char('"'),
        take_while(|c: char| matches!(c, '\x20'..='\x21' | '\x23'..='\x7e')),
        expecting("'\"' closing the string", char('"')),
    )
    .parse(i)?;
    Ok((
        i,
        Element::CharVal {
            text: text.to_string(),
            case_sensitive: sensitivity == Some("%s"),
        },
    ))
}

/// `num-val = "%" (bin-val / dec-val / hex-val)`, each a value, a `.`-concatenation or a `-` range.
fn num_val(i: &str) -> R<'_, Element> {
    let (i, radix) = preceded(
        char('%'),
        expecting(
            "b, d or x after %",
            alt((
                value(2, satisfy(|c| c == 'b' || c == 'B')),
                value(10, satisfy(|c| c == 'd' || c == 'D')),
                value(16, satisfy(|c| c == 'x' || c == 'X')),
            )),
        ),
    )
    .parse(i)?;
    let (i, first) = expecting("digits of the value", number(radix)).parse(i)?;
    if let Ok((i, hi)) = preceded(char::<_, Expect>('-'), number(radix)).parse(i) {
        if hi < first {
            return Err(nom::Err::Error(Expect {
                at: i,
                expected: "a range whose end is not below its start",
            }));
        }
        return Ok((i, Element::Range(first, hi)));
    }
    let (i, more) = many0(preceded(char('.'), number(radix))).parse(i)?;
    let mut seq = vec![first];
    seq.extend(more);
    Ok((i, Element::Sequence(seq)))
}

/// `prose-val = "<" *(%x20-3D / %x3F-7E) ">"`; in the RFC 2396 dialect also
/// `<< text >>`, as the 2001 draft writes its `ichar`.
fn prose_val(d: Dialect, i: &str) -> R<'_, Element> {
    if d == Dialect::Rfc2396 {
        if let Some(rest) = i.strip_prefix("<<") {
            return match rest.find(">>") {
                Some(end) if !rest[..end].contains(['\n', '\r']) => Ok((
                    &rest[end + 2..],
                    Element::Prose(rest[..end].trim().to_string()),
                )),
                _ => Err(nom::Err::Error(Expect {
                    at: rest,
                    expected: "'>>' closing the prose value on its line",
                })),
            };
        }
    }
    map(
        delimited(
            char('<'),
            take_while(|c: char| matches!(c, '\x20'..='\x3d' | '\x3f'..='\x7e')),
            expecting("'>' closing the prose value", char('>')),
        ),
        |p: &str| Element::Prose(p.to_string()),
    )
    .parse(i)
}

/// Reads one grammar file. `file` names it in errors and in each rule's [`Source`].
///
/// ```
/// let rules = iri_grammar_abnf::read("x.abnf", "; Doc\nh16 = 1*4HEXDIG\n").unwrap();
/// assert_eq!(rules.rules[0].name, "h16");
/// assert_eq!(rules.rules[0].definition.to_string(), "1*4HEXDIG");
/// let err = iri_grammar_abnf::read("x.abnf", "a = ( b\n").unwrap_err();
/// assert_eq!((err.line, err.column), (1, 8));
/// ```
pub fn read(file: &str, text: &str) -> Result<RuleList, ReadError> {
    // The document is named by the file's first comment line, up to its first comma.
    let document = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix(';'))
        .map(|l| l.split(',').next().unwrap_or(l).trim().to_string())
        .unwrap_or_else(|| file.to_string());
    let mut reader = Reader {
        file,
        text,
        dialect: Dialect::Rfc5234,
    };
    let mut rules: Vec<RuleDef> = Vec::new();
    // Lower-cased name → index in `rules`, so that each rule is found in constant
    // time (`=/` and the check for a second `=`): a scan of the list per rule would
    // make reading quadratic.
    let mut index: HashMap<String, usize> = HashMap::new();
    // The line of each rule, counted from the last rule's rather than from the start
    // of the text (which would be quadratic too).
    let (mut line_no, mut counted) = (1, 0);
    let mut section: Option<String> = None;
    let mut i = text;
    while !i.is_empty() {
        // Blank lines and comment lines between rules; `;@` lines set the section,
        // `;@dialect` the notation (before the first rule).
        let line = i.split('\n').next().unwrap_or("");
        let trimmed = line.trim_start_matches(is_wsp);
        if trimmed.trim_end().is_empty() || trimmed.starts_with(';') {
            if let Some(name) = line.strip_prefix(";@dialect") {
                reader.dialect = match Dialect::named(name) {
                    Some(d) if rules.is_empty() => d,
                    Some(_) => {
                        return Err(reader.error_at(i, "the dialect declared before the first rule"))
                    }
                    None => {
                        return Err(reader.error_at(
                            &i[";@dialect".len()..],
                            "a known dialect (rfc5234 or rfc2396)",
                        ))
                    }
                };
            } else if let Some(s) = line.strip_prefix(";@") {
                section = Some(s.trim().to_string());
            }
            i = i.get(line.len() + 1..).unwrap_or("");
            continue;
        }
        if line.starts_with(is_wsp) {
            return Err(reader.error_at(
                &i[line.len() - trimmed.len()..],
                "a rule name at the start of the line (an indented line continues a rule)",
            ));
        }
        let (rest, rule) = reader.rule(i)?;
        let at = text.len() - i.len();
        line_no += text[counted..at].matches('\n').count();
        counted = at;
        let source = Source {
            file: file.to_string(),
            document: document.clone(),
            section: section.clone(),
            line: line_no,
            path: None,
        };
        reader.add(&mut rules, &mut index, rule, source, i)?;
        i = rest;
    }
    Ok(RuleList {
        file: file.to_string(),
        document,
        rules,
    })
}

/// A rule as read, before it joins the list: `name = definition` or `name =/ more`.
struct ReadRule<'a> {
    name: &'a str,
    incremental: bool,
    definition: Element,
    text: String,
}

/// The file being read, for error positions, and its notation.
struct Reader<'a> {
    file: &'a str,
    text: &'a str,
    dialect: Dialect,
}

impl<'a> Reader<'a> {
    /// The error at `at` (a suffix of the text): line, column, what was found.
    fn error_at(&self, at: &str, expected: &str) -> ReadError {
        let before = &self.text[..self.text.len() - at.len()];
        let found = match at.chars().next() {
            None => "end of text".to_string(),
            Some('\n') | Some('\r') => "end of line".to_string(),
            Some(c) => format!("{c:?}"),
        };
        ReadError {
            file: self.file.to_string(),
            line: before.matches('\n').count() + 1,
            column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
            expected: expected.to_string(),
            found,
        }
    }

    /// One rule at the start of `i` (RFC 5234 §4 `rule`), and the text after it.
    fn rule(&self, i: &'a str) -> Result<(&'a str, ReadRule<'a>), ReadError> {
        let d = self.dialect;
        let parsed = (
            |i| rulename(d, i),
            many0(c_wsp),
            expecting("\"=\" or \"=/\"", alt((tag("=/"), tag("=")))),
            many0(c_wsp),
            |i| alternation(d, 0, i),
        )
            .parse(i);
        let (rest, (name, _, defined_as, _, definition)) = match parsed {
            Ok(ok) => ok,
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) if e.expected == TOO_DEEP => {
                let name = rulename(d, i).map_or("", |(_, n)| n);
                return Err(self.error_at(
                    e.at,
                    &format!(
                        "groups and options nested at most {MAX_NESTING} deep (rule {name} \
                         opens one {} deep here)",
                        MAX_NESTING + 1
                    ),
                ));
            }
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                let hint = match (d, e.at.chars().next()) {
                    (Dialect::Rfc5234, Some('_')) => {
                        "the end of the rule name (RFC 5234 names have no \"_\"; a file in \
                         RFC 2396's notation declares `;@dialect rfc2396` before its first rule)"
                    }
                    _ => e.expected,
                };
                return Err(self.error_at(e.at, hint));
            }
            Err(nom::Err::Incomplete(_)) => return Err(self.error_at("", "more text")),
        };
        let rest = match (many0(c_wsp), alt((c_nl, value((), eof)))).parse(rest) {
            Ok((rest, _)) => rest,
            Err(_) => {
                let (at, _) = many0(c_wsp).parse(rest).unwrap_or((rest, Vec::new()));
                let expected = match (d, at.chars().next()) {
                    (Dialect::Rfc5234, Some('|')) => {
                        "\"/\" between alternatives (\"|\" is RFC 2396's notation: a file \
                         written in it declares `;@dialect rfc2396` before its first rule)"
                    }
                    (Dialect::Rfc5234, Some('_')) => {
                        "the end of the rule name (RFC 5234 names have no \"_\"; a file in \
                         RFC 2396's notation declares `;@dialect rfc2396` before its first rule)"
                    }
                    (Dialect::Rfc5234, _) => {
                        "\"/\", another element, a comment or the end of the rule"
                    }
                    (Dialect::Rfc2396, _) => {
                        "\"|\", another element, a comment or the end of the rule"
                    }
                };
                return Err(self.error_at(at, expected));
            }
        };
        let text = i[..i.len() - rest.len()].trim_end().to_string();
        let rule = ReadRule {
            name,
            incremental: defined_as == "=/",
            definition,
            text,
        };
        Ok((rest, rule))
    }

    /// Adds a rule to the list: a new one, or more alternatives of an existing one
    /// (`=/`, RFC 5234 §3.3). `at` is where the rule starts, for errors.
    fn add(
        &self,
        rules: &mut Vec<RuleDef>,
        index: &mut HashMap<String, usize>,
        rule: ReadRule<'_>,
        source: Source,
        at: &str,
    ) -> Result<(), ReadError> {
        let key = rule.name.to_ascii_lowercase();
        let existing = index.get(&key).map(|&k| &mut rules[k]);
        match (rule.incremental, existing) {
            (true, Some(existing)) => {
                let mut alts = match std::mem::replace(
                    &mut existing.definition,
                    Element::Prose(String::new()),
                ) {
                    Element::Alternation(a) => a,
                    other => vec![other],
                };
                match rule.definition {
                    Element::Alternation(a) => alts.extend(a),
                    other => alts.push(other),
                }
                existing.definition = Element::Alternation(alts);
                existing.text.push('\n');
                existing.text.push_str(&rule.text);
            }
            (true, None) => {
                return Err(self.error_at(at, "a rule defined with \"=\" before \"=/\" adds to it"))
            }
            (false, Some(_)) => {
                return Err(self.error_at(
                    at,
                    "a rule not defined twice (use \"=/\" to add alternatives)",
                ))
            }
            (false, None) => {
                index.insert(key, rules.len());
                rules.push(RuleDef {
                    name: rule.name.to_string(),
                    definition: rule.definition,
                    text: rule.text,
                    source,
                })
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Element {
        read("t.abnf", text).unwrap().rules.remove(0).definition
    }

    #[test]
    fn reads_every_construct_the_grammars_use() {
        assert_eq!(
            one("a = b / \"x\"\n").to_string(),
            "b / \"x\"",
            "alternation, case-insensitive string"
        );
        assert_eq!(one("a = 1*4HEXDIG").to_string(), "1*4HEXDIG");
        assert_eq!(
            one("a = 6( h16 \":\" ) ls32").to_string(),
            "6( h16 \":\" ) ls32"
        );
        assert_eq!(
            one("a = [ *1( h16 \":\" ) h16 ] \"::\"").to_string(),
            "[ *1( h16 \":\" ) h16 ] \"::\""
        );
        assert_eq!(one("a = 0<pchar>").to_string(), "0<pchar>");
        assert_eq!(
            one("a = %x41-5A / %x61-7A").to_string(),
            "%x41-5A / %x61-7A"
        );
        assert_eq!(one("a = %x0D.0A").to_string(), "%xD.A");
        assert_eq!(one("a = %d13 / %b1010").to_string(), "%xD / %xA");
        assert_eq!(one("a = %s\"aB\" %i\"c\"").to_string(), "%s\"aB\" \"c\"");
        assert_eq!(one("a = 2DIGIT").to_string(), "2DIGIT");
        assert_eq!(one("a = 3*DIGIT").to_string(), "3*DIGIT");
    }

    #[test]
    fn continuation_lines_and_comments() {
        let rules = read(
            "t.abnf",
            "; Title, more\n\n;@ 3.2.2\ndec = DIGIT ; one\n    / \"1\" 2DIGIT ; two\n  ; trailing\n\nb = c\n",
        )
        .unwrap();
        assert_eq!(rules.document, "Title");
        assert_eq!(rules.rules.len(), 2);
        assert_eq!(
            rules.rules[0].definition.to_string(),
            "DIGIT / \"1\" 2DIGIT"
        );
        assert_eq!(rules.rules[0].source.section.as_deref(), Some("3.2.2"));
        assert_eq!(rules.rules[0].source.line, 4);
        assert!(rules.rules[0].text.ends_with("; trailing"));
        assert_eq!(rules.rules[1].source.line, 8);
    }

    #[test]
    fn incremental_alternatives() {
        let rules = read("t.abnf", "a = \"x\"\na =/ \"y\"\n").unwrap();
        assert_eq!(rules.rules[0].definition.to_string(), "\"x\" / \"y\"");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read("t.abnf", "a = b\nc = ( d / \n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9), "{e}");
        assert!(e.expected.contains(")"), "{e}");
        let e = read("t.abnf", "a = b %q\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 7), "{e}");
        assert_eq!(e.found, "'%'");
        let e = read("t.abnf", "a b\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3), "{e}");
        assert!(e.to_string().contains("expected \"=\""), "{e}");
        let e = read("t.abnf", "a = %x5A-41\n").unwrap_err();
        assert!(e.expected.contains("range"), "{e}");
        let e = read("t.abnf", "a = \"b\nc = d\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
        let e = read("t.abnf", "a = b\na = c\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let e = read("t.abnf", "  a = b\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3), "{e}");
    }

    #[test]
    fn the_rfc2396_dialect() {
        let text = "; Old\n;@dialect rfc2396\nabs_path = \"/\" path_segments | x\n\
                    path_segments = *<< any thing >>\nx = \"a\" | %x41-5A\n";
        let rules = read("t.abnf", text).unwrap();
        assert_eq!(rules.rules[0].name, "abs_path");
        assert_eq!(
            rules.rules[0].definition.to_string(),
            "\"/\" path_segments / x",
            "read as RFC 5234's elements"
        );
        assert_eq!(rules.rules[0].text, "abs_path = \"/\" path_segments | x");
        assert_eq!(rules.rules[1].definition.to_string(), "*<any thing>");
        assert_eq!(rules.rules[2].definition.to_string(), "\"a\" / %x41-5A");
        // The dialect is declared, never guessed: RFC 5234 files say what to do.
        let e = read("t.abnf", "a = b | c\n").unwrap_err();
        assert!(e.expected.contains(";@dialect rfc2396"), "{e}");
        let e = read("t.abnf", "a_b = c\n").unwrap_err();
        assert!(e.expected.contains(";@dialect rfc2396"), "{e}");
        // And RFC 2396's notation has no "/" between alternatives.
        let e = read("t.abnf", ";@dialect rfc2396\na = b / c\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 7), "{e}");
        let e = read("t.abnf", ";@dialect ebnf\na = b\n").unwrap_err();
        assert!(e.expected.contains("known dialect"), "{e}");
        let e = read("t.abnf", "a = b\n;@dialect rfc2396\n").unwrap_err();
        assert!(e.expected.contains("before the first rule"), "{e}");
        let e = read("t.abnf", ";@dialect rfc2396\na = << open\n").unwrap_err();
        assert!(e.expected.contains(">>"), "{e}");
    }

    #[test]
    fn nesting_is_limited() {
        let nested = |depth: usize, open: &str, close: &str| {
            format!("r = {}\"a\"{}\n", open.repeat(depth), close.repeat(depth))
        };
        // At the limit, the rule reads, prints, and the oracle matches it (on a
        // test harness's thread, in a debug build).
        let at_limit = nested(MAX_NESTING, "( ", " )");
        let rules = read("t.abnf", &at_limit).unwrap();
        assert_eq!(rules.rules[0].definition.to_string(), "\"a\"");
        let g = crate::Grammar::from_abnf(&[("t.abnf", &at_limit)]).unwrap();
        assert!(crate::oracle::Oracle::of(&g).matches("r", "A").unwrap());
        let options = nested(MAX_NESTING, "[", "]");
        assert!(read("t.abnf", &options).is_ok());
        // One more, or deep enough to overflow the stack, is an error that names the
        // rule, the depth and the limit.
        for depth in [MAX_NESTING + 1, 8_000] {
            let e = read("t.abnf", &nested(depth, "(", ")")).unwrap_err();
            assert_eq!((e.line, e.column), (1, 5 + MAX_NESTING), "{e}");
            assert_eq!(
                e.to_string(),
                format!(
                    "t.abnf:1:{}: expected groups and options nested at most {MAX_NESTING} deep \
                     (rule r opens one {} deep here), found '('",
                    5 + MAX_NESTING,
                    MAX_NESTING + 1
                )
            );
        }
        let e = read("t.abnf", &nested(MAX_NESTING + 1, "[", "]")).unwrap_err();
        assert!(e.expected.contains("at most 32 deep"), "{e}");
    }

    #[test]
    fn builtin_files_read() {
        let g = crate::Grammars::builtin();
        assert_eq!(g.rfc3986.rules.len(), 36);
        assert_eq!(g.rfc3987.rules.len(), 25);
        assert!(g.rfc3987.get("ipath-empty").is_some());
        assert_eq!(g.leiri.rules.len(), 1);
        assert_eq!(g.rfc3986.document, "RFC 3986");
    }
}
