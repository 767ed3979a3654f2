//! `iri check`: does each input match a rule? With `--oracle`, the ABNF oracle judges
//! instead of the generated combinators.

use super::rule_arg;
use crate::io::{each_input, Outcome};
use crate::json::Object;
use iri_grammar::{check, Variant};
use iri_grammar_abnf::{oracle::Oracle, Grammars};
use std::io::Write;

pub fn run<V: Variant>(json: bool, rule: Option<&str>, oracle: bool, inputs: &[String]) -> Outcome {
    let rule = rule_arg::<V>(rule)?;
    let grammars = Grammars::builtin();
    let oracle = oracle.then(|| Oracle::new(&grammars, V::NAME));
    let name = rule.name::<V>();
    each_input(inputs, |out, input| {
        let verdict: Result<(), String> = match (&oracle, &input.text) {
            (_, Err(e)) => Err(e.clone()),
            (Some(o), Ok(s)) => match o.matches(name, s) {
                Ok(true) => Ok(()),
                Ok(false) => Err(format!("the oracle finds no match of {name}")),
                Err(e) => Err(e.to_string()),
            },
            (None, Ok(s)) => check::<V>(rule, s).map_err(|e| e.to_string()),
        };
        if json {
            let o = Object::new()
                .str("input", &input.lossy())
                .bool("valid", verdict.is_ok())
                .opt_str("error", verdict.as_ref().err().map(String::as_str));
            writeln!(out, "{}", o.finish())?;
        } else {
            match &verdict {
                Ok(()) => writeln!(out, "valid")?,
                Err(e) => writeln!(out, "invalid: {e}")?,
            }
        }
        Ok(verdict.is_ok())
    })
}
