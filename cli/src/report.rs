//! Errors as the command reports them: one structure for a grammar's error, a line
//! that is not UTF-8, and an operation that failed (IDNA, resolution), written as the
//! `"error"` object of a JSON record and counted by `--summary`.
//!
//! [`Problem::of_match`] is the one place that reads the fields of the library's
//! `MatchError` (and [`Problem::of_oracle`] the oracle's `OracleError`): a change of
//! their shape is one edit here.

use crate::io::{Cause, Input};
use crate::json::Object;
use iri_grammar::grammar::{describe_char, ComponentFailure, Expectation};
use iri_grammar::reference::Component;
use iri_grammar::MatchError;
use iri_grammar_abnf::oracle::explain::OracleError;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// The innermost rule being matched at the farthest failure.
    pub rule: Option<String>,
    /// What would have been accepted there, each once, in the order of
    /// `expected_by`.
    pub expected: Vec<String>,
    /// The same by name only (`iunreserved`, not `iunreserved (ALPHA / DIGIT /
    /// ...)`), each once: what the brief message lists.
    pub expected_names: Vec<String>,
    /// The same, by the rule that expected it, innermost first.
    pub expected_by: Vec<(String, Vec<String>)>,
    /// The rules enclosing `rule`, innermost first.
    pub context: Vec<String>,
    /// The whole message, as text output shows it.
    pub message: String,
}

impl Problem {
    /// The grammar's error: where the farthest failure is, what was found and
    /// expected there, in which rules.
    pub fn of_match(e: &MatchError) -> Problem {
        let expected_by: Vec<(String, Vec<String>)> = e
            .expected_by()
            .iter()
            .map(|g| {
                let items = g.expected().iter().map(|x| x.to_string()).collect();
                (g.rule().to_string(), items)
            })
            .collect();
        let blame = e.component().cloned();
        let mut expected_names: Vec<String> = Vec::new();
        for x in e.expected_by().iter().flat_map(|g| g.expected()) {
            let name = match x {
                Expectation::Rule { name, .. } => (*name).to_string(),
                other => other.to_string(),
            };
            if !expected_names.contains(&name) {
                expected_names.push(name);
            }
        }
        Problem {
            kind: "grammar",
            expected_names,
            byte_offset: Some(e.byte_offset()),
            char_offset: Some(e.char_offset()),
            found: e.found(),
            component: e.component_name().map(Component::as_str),
            blame,
            rule: e.rule().map(str::to_string),
            expected: each_once(&expected_by),
            expected_by,
            context: e.within().iter().map(|s| s.to_string()).collect(),
            message: e.message(),
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
            rule: e.rule.clone(),
            // The oracle names rules without their definitions already.
            expected_names: each_once(&e.expected_by),
            expected: each_once(&e.expected_by),
            expected_by: e.expected_by.clone(),
            context: e.within.clone(),
            message: e.to_string(),
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
            rule: None,
            expected: Vec::new(),
            expected_names: Vec::new(),
            expected_by: Vec::new(),
            context: Vec::new(),
            message,
        }
    }

    /// What text output writes after `invalid: `: the grammar's error in brief
    /// ([`Problem::brief`]), or in full under `--explain`; any other problem's
    /// message.
    pub fn text(&self) -> Cow<'_, str> {
        if self.kind == "grammar" && self.char_offset.is_some() && !EXPLAIN.load(Ordering::Relaxed)
        {
            Cow::Owned(self.brief())
        } else {
            Cow::Borrowed(&self.message)
        }
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
                return b.to_string();
            }
            if Some(b.char_offset()) != self.char_offset {
                at(&mut s, b.char_offset(), b.byte_offset(), b.found());
                let _ = write!(s, ", in the {}: {}", b.component().as_str(), b.may_hold());
                return s;
            }
        }
        at(
            &mut s,
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
                let inside = self.rule.as_deref() == Some(b.rule())
                    || self.context.iter().any(|r| r == b.rule());
                let rule = if inside {
                    self.rule.as_deref()
                } else {
                    Some(b.rule())
                };
                (Some(b.component().as_str()), rule)
            }
            None => (self.component, self.rule.as_deref()),
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
        let n = self.expected_names.len();
        if n == 0 {
            s.push_str("something else");
        }
        for (k, name) in self.expected_names.iter().enumerate() {
            match k {
                0 => {}
                k if k + 1 == n => s.push_str(" or "),
                _ => s.push_str(", "),
            }
            s.push_str(name);
        }
        s
    }

    /// How `--summary` counts it: by the blamed component and what it may hold, else
    /// by component, innermost rule and what was expected there for the grammar's
    /// errors, by kind for the others.
    pub fn cause(&self) -> Cause {
        if let Some(b) = &self.blame {
            let reason = match (b.is_missing_scheme(), b.is_relative_reference()) {
                (true, true) => "none: a relative reference (RFC 3986 §4.2)".to_string(),
                (true, false) => "none".to_string(),
                (false, _) => b.may_hold().to_string(),
            };
            Cause::Blame {
                component: b.component().as_str(),
                rule: b.rule(),
                reason,
            }
        } else if self.kind == "grammar" {
            Cause::Grammar {
                component: self.component,
                rule: self.rule.clone(),
                expected: self.expected.clone(),
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
        let expected_by = crate::json::array(self.expected_by.iter().map(|(rule, items)| {
            Object::new()
                .str("rule", rule)
                .strs("expected", items.iter().map(String::as_str))
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
            .opt_str("rule", self.rule.as_deref())
            .strs("expected", self.expected.iter().map(String::as_str))
            .raw("expected_by", &expected_by)
            .strs("context", self.context.iter().map(String::as_str))
            .str("message", &self.message)
            .finish()
    }
}

/// What the rules expected, each item once, in the order they give them.
fn each_once(expected_by: &[(String, Vec<String>)]) -> Vec<String> {
    let mut expected: Vec<String> = Vec::new();
    for item in expected_by.iter().flat_map(|(_, items)| items) {
        if !expected.contains(item) {
            expected.push(item.clone());
        }
    }
    expected
}
