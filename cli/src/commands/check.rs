//! `iri check`: does each input match a rule? With `--oracle`, the ABNF oracle judges
//! instead of the generated combinators; with `--caret`, an invalid input is shown with
//! a caret under the character where the match failed.
//!
//! The oracle (`iri_grammar_abnf::oracle`) memoizes the end set of every rule at every
//! position: its time and memory grow with the input's length times the number of
//! rules (a 1 MB line took 9 s and 1.8 GB). It is a reference for testing, not a
//! validator for untrusted input, so it judges lines of at most [`ORACLE_MAX_BYTES`];
//! a longer line is `invalid:` with a message that names the limit and the way out
//! (the generated combinators, which run in linear time and allocate nothing).

use super::{rule_arg, write_invalid_at};
use crate::io::{each_input, Outcome};
use crate::json::Object;
use iri_grammar::{check, Variant};
use iri_grammar_abnf::{oracle::Oracle, Grammars};
use std::io::Write;

/// The longest input `check --oracle` judges, in bytes. A 4 KiB line takes 0.06 s and
/// 13 MB for the whole process in a debug build (see the module documentation for a
/// 1 MB line). The help of `--oracle` and the README say this number.
pub const ORACLE_MAX_BYTES: usize = 4096;

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
            (Some(_), Ok(s)) if s.len() > ORACLE_MAX_BYTES => Err((
                format!(
                    "the input is {} bytes, beyond the oracle's limit of {ORACLE_MAX_BYTES} \
                     bytes (its memory grows with the input's length); check without \
                     --oracle: the generated combinators have no limit and run in linear time",
                    s.len()
                ),
                None,
            )),
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
