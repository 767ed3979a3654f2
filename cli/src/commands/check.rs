//! `iri check`: does each input match a rule? With `--oracle`, the ABNF oracle judges
//! instead of the generated combinators; with `--caret`, an invalid input is shown with
//! a caret under the character where the match failed.

use super::{rule_arg, write_invalid_at};
use crate::io::{each_input, Judged, Style, Verdicts};
use crate::report::Problem;
use iri_grammar::{check, Variant};
use iri_grammar_abnf::{oracle::Oracle, Grammars};

pub fn run<V: Variant>(
    style: &Style,
    rule: Option<&str>,
    oracle: bool,
    caret: bool,
    inputs: &[String],
) -> Verdicts {
    let rule = rule_arg::<V>(rule)?;
    let grammars = Grammars::builtin();
    let oracle = oracle.then(|| Oracle::new(&grammars, V::NAME));
    let name = rule.name::<V>();
    let json = style.json;
    each_input(inputs, style, |input, out| {
        let verdict: Result<(), Problem> = match (&oracle, &input.text) {
            (_, Err(e)) => Err(Problem::not_utf8(input, e)),
            (Some(o), Ok(s)) => match o.matches(name, s) {
                Ok(true) => Ok(()),
                // The oracle only says yes or no: where the match fails is the
                // combinators' explanation when they reject it too (they agree on
                // every input the differential tests try).
                Ok(false) => Err(match check::<V>(rule, s) {
                    Err(e) => Problem {
                        message: format!("the oracle finds no match of {name}; {e}"),
                        ..Problem::of_match(&e)
                    },
                    Ok(()) => Problem::other(
                        "grammar",
                        format!("the oracle finds no match of {name} (the combinators find one)"),
                    ),
                }),
                Err(e) => Err(Problem::other("grammar", e.to_string())),
            },
            (None, Ok(s)) => check::<V>(rule, s).map_err(|e| Problem::of_match(&e)),
        };
        match &verdict {
            // The common case written directly: `{"input":..,"valid":true,"error":null}`.
            Ok(()) if json => {
                out.push_str("{\"input\":");
                crate::json::string(&input.lossy(), out);
                out.push_str(",\"valid\":true,\"error\":null}\n");
                Judged::success()
            }
            Ok(()) => {
                out.push_str("valid\n");
                Judged::success()
            }
            Err(p) => write_invalid_at(out, json, input, p, caret),
        }
    })
}
