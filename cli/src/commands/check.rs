//! `iri check`: does each input match a rule? With `--oracle`, the ABNF oracle judges
//! instead of the generated combinators; with `--caret`, an invalid input is shown with
//! a caret under the character where the match failed.

use super::{rule_arg, write_invalid_at};
use crate::io::{each_input, Outcome};
use crate::json::Object;
use iri_grammar::{check, Variant};
use iri_grammar_abnf::{oracle::Oracle, Grammars};
use std::io::Write;

pub fn run<V: Variant>(
    json: bool,
    rule: Option<&str>,
    oracle: bool,
    caret: bool,
    inputs: &[String],
) -> Outcome {
    let rule = rule_arg::<V>(rule)?;
    let grammars = Grammars::builtin();
    let oracle = oracle.then(|| Oracle::new(&grammars, V::NAME));
    let name = rule.name::<V>();
    each_input(inputs, |out, input| {
        // The error and, when known, the character offset where the match failed (the
        // oracle only says yes or no).
        let verdict: Result<(), (String, Option<usize>)> = match (&oracle, &input.text) {
            (_, Err(e)) => Err((e.clone(), None)),
            (Some(o), Ok(s)) => match o.matches(name, s) {
                Ok(true) => Ok(()),
                Ok(false) => Err((format!("the oracle finds no match of {name}"), None)),
                Err(e) => Err((e.to_string(), None)),
            },
            (None, Ok(s)) => check::<V>(rule, s).map_err(|e| (e.message(), Some(e.char_offset()))),
        };
        match &verdict {
            Ok(()) if json => {
                let o = Object::new()
                    .str("input", &input.lossy())
                    .bool("valid", true)
                    .null("error");
                writeln!(out, "{}", o.finish())?;
                Ok(true)
            }
            Ok(()) => {
                writeln!(out, "valid")?;
                Ok(true)
            }
            Err((e, at)) => write_invalid_at(out, json, input, e, *at, caret),
        }
    })
}
