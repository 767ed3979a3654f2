//! The `iri conform` line protocol (docs/conform-protocol.md), spoken for the Rust
//! peers: each program of `src/bin/` names the rules its parser answers and calls
//! [`serve`], which reads one JSON string literal a line from standard input and
//! writes one answer a line, flushed, until standard input ends.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use serde_json::{Map, Value};

/// A key of the protocol's answer object ("An answer is one line").
#[derive(Clone, Copy, Debug)]
pub enum Key {
    /// `scheme`: the scheme, without the `:` (RFC 3986 §3.1).
    Scheme,
    /// `authority`: the authority, without the `//` (§3.2).
    Authority,
    /// `userinfo`: the user information, without the `@` (§3.2.1).
    Userinfo,
    /// `host`: the host as written, with the brackets of an IP literal (§3.2.2).
    Host,
    /// `port`: the port's digits (§3.2.3).
    Port,
    /// `path`: the path as written (§3.3).
    Path,
    /// `query`: the query, without the `?` (§3.4).
    Query,
    /// `fragment`: the fragment, without the `#` (§3.5).
    Fragment,
}

impl Key {
    /// The key's name in the answer object.
    pub fn name(self) -> &'static str {
        match self {
            Key::Scheme => "scheme",
            Key::Authority => "authority",
            Key::Userinfo => "userinfo",
            Key::Host => "host",
            Key::Port => "port",
            Key::Path => "path",
            Key::Query => "query",
            Key::Fragment => "fragment",
        }
    }
}

/// The components a peer exposes for a valid input. A key never set is left out of
/// the answer, which the protocol reads as "not compared": a peer without a
/// `userinfo` accessor says nothing about the user information.
#[derive(Debug, Default)]
pub struct Components(Map<String, Value>);

impl Components {
    /// No component: the answer is the plain line `valid`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Gives `key` the component's text as the peer returned it, or `null` when the
    /// peer says the component is absent.
    pub fn set(mut self, key: Key, value: Option<&str>) -> Self {
        let value = value.map_or(Value::Null, |v| Value::String(v.to_owned()));
        self.0.insert(key.name().to_owned(), value);
        self
    }

    /// The answer line, without its line feed: `valid` when no component is set,
    /// else the JSON object with `"valid": true`.
    fn answer(mut self) -> String {
        if self.0.is_empty() {
            return "valid".to_owned();
        }
        self.0.insert("valid".to_owned(), Value::Bool(true));
        Value::Object(self.0).to_string()
    }
}

/// Whether an input matches a rule: `None` when it does not, the components the
/// peer exposes when it does.
pub type Check = fn(&str) -> Option<Components>;

/// A rule of a grammar that a peer answers, by the names `iri conform` gives them in
/// `IRI_CONFORM_GRAMMAR` and `IRI_CONFORM_RULE`.
pub struct Rule {
    /// The grammar: `uri`, `iri`, `leiri` or `iri-2001`.
    pub grammar: &'static str,
    /// The ABNF rule's name, as the grammar's document writes it.
    pub rule: &'static str,
    /// The peer's parser for that rule.
    pub check: Check,
}

impl Rule {
    /// The rule `rule` of `grammar`, answered by `check`.
    pub const fn new(grammar: &'static str, rule: &'static str, check: Check) -> Self {
        Rule {
            grammar,
            rule,
            check,
        }
    }
}

/// Speaks the protocol for `peer` with the rule asked in the environment, and
/// returns the program's exit status.
///
/// Without `IRI_CONFORM_GRAMMAR` the grammar is `iri`; without `IRI_CONFORM_RULE`
/// the rule is the first of `rules` in that grammar (each program lists the
/// reference rule first). A rule the peer does not answer is refused before any
/// answer, on standard error and with exit status 2, as the protocol asks, and so is
/// the resolution exchange (`IRI_CONFORM_MODE=resolve`). A line
/// that is not a JSON string literal ends the program with status 2 (`iri conform`
/// shows it as a crash with this message).
pub fn serve(peer: &str, rules: &[Rule]) -> ExitCode {
    if std::env::var("IRI_CONFORM_MODE").as_deref() == Ok("resolve") {
        eprintln!("{peer}: validation only: {peer}-resolve resolves (iri conform --resolve)");
        return ExitCode::from(2);
    }
    let grammar = std::env::var("IRI_CONFORM_GRAMMAR").unwrap_or_else(|_| "iri".to_owned());
    let asked = std::env::var("IRI_CONFORM_RULE").ok();
    let found = rules
        .iter()
        .filter(|r| r.grammar == grammar)
        .find(|r| asked.as_deref().is_none_or(|a| a == r.rule));
    let Some(rule) = found else {
        let answered: Vec<String> = rules
            .iter()
            .map(|r| format!("{} {}", r.grammar, r.rule))
            .collect();
        eprintln!(
            "{peer}: cannot answer rule {} of grammar {grammar}; it answers: {}",
            asked.as_deref().unwrap_or("(the reference rule)"),
            answered.join(", ")
        );
        return ExitCode::from(2);
    };
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    for (number, line) in stdin.lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("{peer}: reading standard input: {e}");
                return ExitCode::FAILURE;
            }
        };
        let input: String = match serde_json::from_str(&line) {
            Ok(input) => input,
            Err(e) => {
                eprintln!(
                    "{peer}: line {} is not a JSON string literal: {e}",
                    number + 1
                );
                return ExitCode::from(2);
            }
        };
        let answer = (rule.check)(&input).map_or_else(|| "invalid".to_owned(), Components::answer);
        // An answer left in a buffer never comes: flush each one.
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            // `iri conform` closed the pipe: nobody is left to answer.
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

// The resolution exchange (`iri conform --resolve`).

/// A peer's resolution in one grammar: the target of `reference` against `base`, or
/// `None` when the peer refuses either.
pub type Resolve = fn(base: &str, reference: &str) -> Option<String>;

/// Speaks the resolution exchange of the protocol (`IRI_CONFORM_MODE=resolve`): reads
/// one JSON array `[base, reference]` a line and writes the target as a JSON string
/// literal, or `invalid`, flushed, until standard input ends. `grammars` are those
/// the peer resolves in (the first without `IRI_CONFORM_GRAMMAR`); another grammar,
/// or another mode, is refused before any answer with exit status 2, as is a line
/// that is no such array.
pub fn serve_resolve(peer: &str, grammars: &[(&str, Resolve)]) -> ExitCode {
    if std::env::var("IRI_CONFORM_MODE").as_deref() != Ok("resolve") {
        eprintln!("{peer}: resolution only: run it with iri conform --resolve");
        return ExitCode::from(2);
    }
    let asked = std::env::var("IRI_CONFORM_GRAMMAR").ok();
    let found = grammars
        .iter()
        .find(|(g, _)| asked.as_deref().is_none_or(|a| a == *g));
    let Some((_, resolve)) = found else {
        let names: Vec<&str> = grammars.iter().map(|(g, _)| *g).collect();
        eprintln!(
            "{peer}: cannot resolve in grammar {}; it resolves in: {}",
            asked.as_deref().unwrap_or_default(),
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    for (number, line) in stdin.lines().enumerate() {
        let Ok(line) = line else {
            return ExitCode::FAILURE;
        };
        let (base, reference): (String, String) = match serde_json::from_str(&line) {
            Ok(pair) => pair,
            Err(e) => {
                eprintln!("{peer}: line {} is not [base, reference]: {e}", number + 1);
                return ExitCode::from(2);
            }
        };
        let answer = resolve(&base, &reference)
            .map_or_else(|| "invalid".to_owned(), |t| Value::String(t).to_string());
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
