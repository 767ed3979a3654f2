//! Errors as the command reports them: one structure for a grammar's error, a line
//! that is not UTF-8, and an operation that failed (IDNA, resolution), written as the
//! `"error"` object of a JSON record and counted by `--summary`.
//!
//! [`Problem::of_match`] is the one place that reads the fields of the library's
//! `MatchError` (and [`Problem::of_oracle`] the oracle's `OracleError`): a change of
//! their shape is one edit here.

use crate::io::{Input, Why};
use crate::json::Object;
use iri_grammar::MatchError;
use iri_grammar_abnf::explain::OracleError;

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
    /// The innermost rule being matched at the farthest failure.
    pub rule: Option<String>,
    /// What would have been accepted there.
    pub expected: Vec<String>,
    /// The rules enclosing `rule`, innermost first.
    pub context: Vec<String>,
    /// The whole message, as text output shows it.
    pub message: String,
}

impl Problem {
    /// The grammar's error: where the farthest failure is, what was found and
    /// expected there, in which rules.
    pub fn of_match(e: &MatchError) -> Problem {
        Problem {
            kind: "grammar",
            byte_offset: Some(e.byte_offset()),
            char_offset: Some(e.char_offset()),
            found: e.found(),
            rule: e.rule().map(str::to_string),
            expected: e.expected().iter().map(|x| x.to_string()).collect(),
            context: e.within().iter().map(|s| s.to_string()).collect(),
            message: e.message(),
        }
    }

    /// The oracle's error on a grammar read with `--abnf`: the same fields as the
    /// combinators' ([`Problem::of_match`]), `expected` being every rule's items, each
    /// once.
    pub fn of_oracle(e: &OracleError) -> Problem {
        let mut expected: Vec<String> = Vec::new();
        for item in e.expected_by.iter().flat_map(|(_, items)| items) {
            if !expected.contains(item) {
                expected.push(item.clone());
            }
        }
        Problem {
            kind: "grammar",
            byte_offset: Some(e.byte_offset),
            char_offset: Some(e.char_offset),
            found: e.found,
            rule: e.rule.clone(),
            expected,
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
            kind: "not-utf8",
            byte_offset: Some(valid),
            char_offset: Some(chars),
            found: None,
            rule: None,
            expected: Vec::new(),
            context: Vec::new(),
            message: message.to_string(),
        }
    }

    /// An operation that failed on a valid input, with no place in the grammar.
    pub fn other(kind: &'static str, message: String) -> Problem {
        Problem {
            kind,
            byte_offset: None,
            char_offset: None,
            found: None,
            rule: None,
            expected: Vec::new(),
            context: Vec::new(),
            message,
        }
    }

    /// How `--summary` counts it: by rule and expectation for the grammar's errors,
    /// by kind for the others.
    pub fn why(&self) -> Why {
        if self.kind == "grammar" {
            Why::Grammar {
                rule: self.rule.clone(),
                expected: self.expected.clone(),
            }
        } else {
            Why::Reason(self.kind.to_string())
        }
    }

    /// The `"error"` object: `kind`, `byte_offset`, `char_offset`, `found`, `rule`,
    /// `expected`, `context`, `message` (absent values are null).
    pub fn json(&self) -> String {
        let opt_num = |o: Object, k: &str, v: Option<usize>| match v {
            Some(n) => o.num(k, n),
            None => o.null(k),
        };
        let found = self.found.map(String::from);
        let o = Object::new().str("kind", self.kind);
        let o = opt_num(o, "byte_offset", self.byte_offset);
        let o = opt_num(o, "char_offset", self.char_offset);
        o.opt_str("found", found.as_deref())
            .opt_str("rule", self.rule.as_deref())
            .strs("expected", self.expected.iter().map(String::as_str))
            .strs("context", self.context.iter().map(String::as_str))
            .str("message", &self.message)
            .finish()
    }
}
