//! Errors as the command reports them: one structure for a grammar's error, a line
//! that is not UTF-8, and an operation that failed (IDNA, resolution), written as the
//! `"error"` object of a JSON record and counted by `--summary`.
//!
//! This module is the one place that reads the library's `MatchError` (kept whole in
//! [`Explanation::Match`] and read when a part is written) and the oracle's
//! `OracleError` ([`Problem::of_oracle`]): a change of their shape is an edit here.

use crate::io::{Cause, Input, Item};
use crate::json::Object;
use iri_grammar::grammar::{describe_char, ComponentFailure, Expectation};
use iri_grammar::reference::Component;
use iri_grammar::MatchError;
use iri_grammar_abnf::oracle::explain::OracleError;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Whether text output gives the grammar's errors in their long form (`--explain`):
/// set once by the command line before any input is read, read by every thread
/// that renders.
static EXPLAIN: AtomicBool = AtomicBool::new(false);

/// Text output gives the long message of a grammar's error ([`Problem::message`])
/// instead of the brief one ([`Problem::brief`]): `--explain`.
pub fn set_explain(long: bool) {
    EXPLAIN.store(long, Ordering::Relaxed);
}

/// Why an input failed, with the place in the grammar when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// `grammar` (the input does not match the rule), `not-utf8` (a line of standard
    /// input that is not UTF-8), or the operation that failed (`idna`, `resolution`,
    /// `compare`, `prepare`), or `oracle-limit` (an input too long for
    /// `check --oracle`).
    pub kind: &'static str,
    /// Where: bytes and characters (code points) from the start of the input, 0-based.
    pub byte_offset: Option<usize>,
    pub char_offset: Option<usize>,
    /// The character found there (`None`: the end of the input, or no place).
    pub found: Option<char>,
    /// The component of the reference the input fails in (`host`, `port`, ...):
    /// the library's [`ComponentFailure`] where it names one, else the component
    /// the rules enclosing the failure read ([`MatchError::component_name`]).
    pub component: Option<&'static str>,
    /// Where a person would put the blame, said first in the message
    /// ([`MatchError::component`]): `http://a:8x/` fails in the port at the `x`
    /// (char 10), while the grammar's longest match stops at the `/` (char 11).
    pub blame: Option<ComponentFailure>,
    /// The rules at the failure, what they expected, and the whole message.
    pub explanation: Explanation,
}

/// What a [`Problem`] says beyond its place: the innermost rule being matched at the
/// farthest failure, the rules enclosing it, what each rule expected there, and the
/// whole message, as text output shows it under `--explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Explanation {
    /// The library's error, each part read from it and written as text only when
    /// asked: a run that counts causes (`--summary`) or writes the brief line
    /// formats none of what it leaves out, so that an invalid input costs little
    /// more than a valid one. `message` replaces the error's own message.
    Match {
        error: MatchError,
        message: Option<String>,
    },
    /// As text: the oracle's error (`rule`, `context` and `expected_by` named as the
    /// grammar's author wrote them), or an operation's message with no rules.
    Text {
        rule: Option<String>,
        expected_by: Vec<(String, Vec<String>)>,
        context: Vec<String>,
        message: String,
    },
}

/// An expectation as the messages write it (its `Display`): `ipchar (iunreserved /
/// ...)`, `"/"`, `end of input`. Borrowed where the text is there for good: a
/// rule's name, one ASCII character quoted, the end.
fn item(x: &Expectation) -> Cow<'static, str> {
    match *x {
        Expectation::Rule {
            name,
            definition: None,
            ..
        } => Cow::Borrowed(name),
        Expectation::Literal(s) if s.len() == 1 && s.is_ascii() => {
            Cow::Borrowed(quoted_ascii(s.as_bytes()[0]))
        }
        Expectation::EndOfInput => Cow::Borrowed(END_OF_INPUT),
        _ => Cow::Owned(x.to_string()),
    }
}

/// How [`Expectation::EndOfInput`] is written.
const END_OF_INPUT: &str = "end of input";

/// An ASCII character as [`Expectation::Literal`] writes it (Rust's `{:?}` of a
/// string: `"/"`, `"\""`), each written once for the whole run.
fn quoted_ascii(b: u8) -> &'static str {
    static QUOTED: OnceLock<Vec<String>> = OnceLock::new();
    let quoted = QUOTED.get_or_init(|| {
        (0..128u8)
            .map(|b| format!("{:?}", char::from(b).to_string()))
            .collect()
    });
    &quoted[usize::from(b)]
}

/// An expectation by name only: `ipchar`, not `ipchar (iunreserved / ...)`.
fn name<'a>(x: &Expectation) -> Cow<'a, str> {
    match *x {
        Expectation::Rule { name, .. } => Cow::Borrowed(name),
        _ => item(x),
    }
}

/// Each item once, in the order given.
fn each_once<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    // Room for what an error usually expects: a vector grown item by item costs
    // more than the search.
    let mut once: Vec<T> = Vec::with_capacity(16);
    for x in items {
        if !once.contains(&x) {
            once.push(x);
        }
    }
    once
}

impl Problem {
    /// The grammar's error: where the farthest failure is, what was found and
    /// expected there, in which rules.
    pub fn of_match(e: MatchError) -> Problem {
        Problem {
            kind: "grammar",
            byte_offset: Some(e.byte_offset()),
            char_offset: Some(e.char_offset()),
            found: e.found(),
            component: e.component_name().map(Component::as_str),
            blame: e.component().cloned(),
            // Kept, not copied: its explanation is worked out once.
            explanation: Explanation::Match {
                error: e,
                message: None,
            },
        }
    }

    /// The oracle's error on a grammar read with `--abnf`: the same fields as the
    /// combinators' ([`Problem::of_match`]), `expected` being every rule's items, each
    /// once.
    /// No component: the rules of a grammar of one's own are named as its author
    /// chose.
    pub fn of_oracle(e: &OracleError) -> Problem {
        Problem {
            kind: "grammar",
            byte_offset: Some(e.byte_offset),
            char_offset: Some(e.char_offset),
            found: e.found,
            component: None,
            blame: None,
            explanation: Explanation::Text {
                rule: e.rule.clone(),
                expected_by: e.expected_by.clone(),
                context: e.within.clone(),
                message: e.to_string(),
            },
        }
    }

    /// An input without text: where its first byte that is not UTF-8 is.
    pub fn not_utf8(input: &Input<'_>, message: &str) -> Problem {
        let valid = match std::str::from_utf8(input.raw) {
            Ok(_) => input.raw.len(),
            Err(e) => e.valid_up_to(),
        };
        let chars = std::str::from_utf8(&input.raw[..valid]).map_or(0, |s| s.chars().count());
        Problem {
            byte_offset: Some(valid),
            char_offset: Some(chars),
            ..Problem::other("not-utf8", message.to_string())
        }
    }

    /// An operation that failed on a valid input, with no place in the grammar.
    pub fn other(kind: &'static str, message: String) -> Problem {
        Problem {
            kind,
            byte_offset: None,
            char_offset: None,
            found: None,
            component: None,
            blame: None,
            explanation: Explanation::Text {
                rule: None,
                expected_by: Vec::new(),
                context: Vec::new(),
                message,
            },
        }
    }

    /// The same problem with another whole message.
    pub fn with_message(mut self, text: String) -> Problem {
        match &mut self.explanation {
            Explanation::Match { message, .. } => *message = Some(text),
            Explanation::Text { message, .. } => *message = text,
        }
        self
    }

    /// The whole message: the library's long one ([`MatchError::message`]), or the
    /// text given.
    pub fn message(&self) -> Cow<'_, str> {
        match &self.explanation {
            Explanation::Match {
                message: Some(m), ..
            } => Cow::Borrowed(m),
            Explanation::Match { error, .. } => Cow::Owned(error.message()),
            Explanation::Text { message, .. } => Cow::Borrowed(message),
        }
    }

    /// The innermost rule being matched at the farthest failure.
    pub fn rule(&self) -> Option<&str> {
        match &self.explanation {
            Explanation::Match { error, .. } => error.rule(),
            Explanation::Text { rule, .. } => rule.as_deref(),
        }
    }

    /// The rules enclosing [`Problem::rule`], innermost first.
    pub fn context(&self) -> Vec<&str> {
        match &self.explanation {
            Explanation::Match { error, .. } => error.within().to_vec(),
            Explanation::Text { context, .. } => context.iter().map(String::as_str).collect(),
        }
    }

    /// What would have been accepted there, by the rule that expected it,
    /// innermost first.
    pub fn expected_by(&self) -> Vec<(&str, Vec<Cow<'_, str>>)> {
        match &self.explanation {
            Explanation::Match { error, .. } => error
                .expected_by()
                .iter()
                .map(|g| (g.rule(), g.expected().iter().map(item).collect()))
                .collect(),
            Explanation::Text { expected_by, .. } => expected_by
                .iter()
                .map(|(rule, items)| {
                    (
                        rule.as_str(),
                        items.iter().map(|x| Cow::Borrowed(x.as_str())).collect(),
                    )
                })
                .collect(),
        }
    }

    /// What would have been accepted there, each once, in the order of
    /// [`Problem::expected_by`].
    pub fn expected(&self) -> Vec<Cow<'static, str>> {
        self.each_expected(item, |x| Cow::Owned(x.clone()))
    }

    /// Each thing expected there once, in the order of [`Problem::expected_by`]:
    /// the library's written by `library`, the oracle's by `text`.
    fn each_expected<'a, T: PartialEq>(
        &'a self,
        library: impl Fn(&Expectation) -> T,
        text: impl Fn(&'a String) -> T,
    ) -> Vec<T> {
        match &self.explanation {
            Explanation::Match { error, .. } => each_once(
                error
                    .expected_by()
                    .iter()
                    .flat_map(|g| g.expected())
                    .map(library),
            ),
            Explanation::Text { expected_by, .. } => {
                each_once(expected_by.iter().flat_map(|(_, items)| items).map(text))
            }
        }
    }

    /// The same by name only (`iunreserved`, not `iunreserved (ALPHA / DIGIT /
    /// ...)`), each once: what the brief message lists. (The oracle names rules
    /// without their definitions already.)
    fn expected_names(&self) -> Vec<Cow<'_, str>> {
        self.each_expected(name, |x| Cow::Borrowed(x.as_str()))
    }

    /// Whether `rule` encloses [`Problem::rule`].
    fn is_within(&self, rule: &str) -> bool {
        match &self.explanation {
            Explanation::Match { error, .. } => error.within().contains(&rule),
            Explanation::Text { context, .. } => context.iter().any(|r| r == rule),
        }
    }

    /// What text output writes after `invalid: `: the grammar's error in brief
    /// ([`Problem::brief`]), or in full under `--explain`; any other problem's
    /// message.
    pub fn text(&self) -> Cow<'_, str> {
        if self.is_brief() {
            Cow::Owned(self.brief())
        } else {
            self.message()
        }
    }

    /// [`Problem::text`], written at the end of `out`: no string of its own to grow
    /// (an invalid line of `iri check` costs about a tenth less).
    pub fn write_text(&self, out: &mut String) {
        if self.is_brief() {
            self.write_brief(out);
        } else {
            out.push_str(&self.message());
        }
    }

    /// Whether text output says this problem in brief ([`Problem::text`]).
    fn is_brief(&self) -> bool {
        self.kind == "grammar" && self.char_offset.is_some() && !EXPLAIN.load(Ordering::Relaxed)
    }

    /// The grammar's error on one short line: where, what is to blame, and what
    /// would have done there, by name. `at char 8 (U+0020 SPACE), in the host
    /// (ireg-name): expected iunreserved, pct-encoded, sub-delims, ":", "@", "/",
    /// "#", "?" or end of input`. Where the blamed character is not where the
    /// grammar stops (`http://a:8x/`: the `x`, where the grammar reads on as a
    /// userinfo), it says what the blamed component may hold instead: `at char 10
    /// (U+0078 'x'), in the port: a port holds digits only (RFC 3986 §3.2.3)`.
    /// [`Problem::message`] has everything each rule expected and the rules around.
    pub fn brief(&self) -> String {
        let mut s = String::new();
        self.write_brief(&mut s);
        s
    }

    /// [`Problem::brief`], written at the end of `s`.
    fn write_brief(&self, s: &mut String) {
        let at = |s: &mut String, chars: usize, bytes: usize, found: Option<char>| {
            let found = found.map_or_else(|| "end of input".to_string(), describe_char);
            if chars == bytes {
                let _ = write!(s, "at char {chars} ({found})");
            } else {
                let _ = write!(s, "at char {chars} (byte {bytes}, {found})");
            }
        };
        if let Some(b) = &self.blame {
            if b.is_missing_scheme() {
                let _ = write!(s, "{b}");
                return;
            }
            if Some(b.char_offset()) != self.char_offset {
                at(s, b.char_offset(), b.byte_offset(), b.found());
                let _ = write!(s, ", in the {}: {}", b.component().as_str(), b.may_hold());
                return;
            }
        }
        at(
            s,
            self.char_offset.unwrap_or(0),
            self.byte_offset.unwrap_or(0),
            self.found,
        );
        // The blamed component, with the innermost rule where that rule is inside
        // it (`http://a b/`: the host, ireg-name); else the component's own rule
        // (`:x`: the scheme, while the grammar's longest match is a path's first
        // segment).
        let (component, rule) = match &self.blame {
            Some(b) => {
                let inside = self.rule() == Some(b.rule()) || self.is_within(b.rule());
                let rule = if inside { self.rule() } else { Some(b.rule()) };
                (Some(b.component().as_str()), rule)
            }
            None => (self.component, self.rule()),
        };
        match (component, rule.filter(|&r| Some(r) != component)) {
            (Some(c), Some(r)) => {
                let _ = write!(s, ", in the {c} ({r})");
            }
            (Some(c), None) => {
                let _ = write!(s, ", in the {c}");
            }
            (None, Some(r)) => {
                let _ = write!(s, ", in {r}");
            }
            (None, None) => {}
        }
        s.push_str(": expected ");
        let names = self.expected_names();
        let n = names.len();
        if n == 0 {
            s.push_str("something else");
        }
        for (k, name) in names.iter().enumerate() {
            match k {
                0 => {}
                k if k + 1 == n => s.push_str(" or "),
                _ => s.push_str(", "),
            }
            s.push_str(name);
        }
    }

    /// How `--summary` counts it: by the blamed component and what it may hold, else
    /// by component, innermost rule and what was expected there for the grammar's
    /// errors, by kind for the others.
    pub fn cause(&self) -> Cause {
        if let Some(b) = &self.blame {
            let reason = match (b.is_missing_scheme(), b.is_relative_reference()) {
                (true, true) => "none: a relative reference (RFC 3986 §4.2)",
                (true, false) => "none",
                (false, _) => b.may_hold(),
            };
            Cause::Blame {
                component: b.component().as_str(),
                rule: b.rule(),
                reason: Cow::Borrowed(reason),
            }
        } else if self.kind == "grammar" {
            Cause::Grammar {
                component: self.component,
                rule: match &self.explanation {
                    Explanation::Match { error, .. } => error.rule().map(Cow::Borrowed),
                    Explanation::Text { rule, .. } => rule.clone().map(Cow::Owned),
                },
                expected: self.each_expected(|x| Item::Expectation(*x), |x| Item::Text(x.clone())),
            }
        } else {
            Cause::Reason(self.kind.to_string())
        }
    }

    /// Where a caret points: at the blamed character where there is one (the
    /// message says it first), else at the grammar's failure.
    pub fn caret_at(&self) -> Option<usize> {
        match &self.blame {
            Some(b) => Some(b.char_offset()),
            None => self.char_offset,
        }
    }

    /// The `"error"` object: `kind`, `byte_offset`, `char_offset`, `found`,
    /// `component`, `blame` (`{"component", "rule", "byte_offset", "char_offset",
    /// "found", "may_hold", "missing_scheme", "message"}` or null), `rule`,
    /// `expected`, `expected_by` (`[{"rule", "expected"}]`), `context`, `message`
    /// (absent values are null).
    pub fn json(&self) -> String {
        let opt_num = |o: Object, k: &'static str, v: Option<usize>| match v {
            Some(n) => o.num(k, n),
            None => o.null(k),
        };
        let found = self.found.map(String::from);
        let o = Object::new().str("kind", self.kind);
        let o = opt_num(o, "byte_offset", self.byte_offset);
        let o = opt_num(o, "char_offset", self.char_offset);
        let expected_by = crate::json::array(self.expected_by().iter().map(|(rule, items)| {
            Object::new()
                .str("rule", rule)
                .strs("expected", items.iter().map(|x| &**x))
                .finish()
        }));
        let blame = match &self.blame {
            Some(b) => {
                let found = b.found().map(String::from);
                Object::new()
                    .str("component", b.component().as_str())
                    .str("rule", b.rule())
                    .num("byte_offset", b.byte_offset())
                    .num("char_offset", b.char_offset())
                    .opt_str("found", found.as_deref())
                    .str("may_hold", b.may_hold())
                    .bool("missing_scheme", b.is_missing_scheme())
                    .str("message", &b.to_string())
                    .finish()
            }
            None => "null".to_string(),
        };
        o.opt_str("found", found.as_deref())
            .opt_str("component", self.component)
            .raw("blame", &blame)
            .opt_str("rule", self.rule())
            .strs("expected", self.expected().iter().map(|x| &**x))
            .raw("expected_by", &expected_by)
            .strs("context", self.context())
            .str("message", &self.message())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_written_as_the_library_writes_them() {
        let mut items: Vec<Expectation> = (0..128u8)
            .map(|b| {
                // A `&'static str` of each ASCII character, as the library's are.
                let s: &'static str = Box::leak(char::from(b).to_string().into_boxed_str());
                Expectation::Literal(s)
            })
            .collect();
        items.push(Expectation::Literal("ab"));
        items.push(Expectation::EndOfInput);
        items.push(Expectation::Range {
            first: 0x30,
            last: 0x39,
        });
        items.push(Expectation::Prose("a limit"));
        for x in &items {
            assert_eq!(item(x), x.to_string(), "{x:?}");
        }
    }
}
