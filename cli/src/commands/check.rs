//! `iri check`: does each input match a rule? With `--oracle`, the ABNF oracle judges
//! instead of the generated combinators; with `--caret`, an invalid input is shown with
//! a caret under the character where the match failed.
//!
//! The oracle (`iri_grammar_abnf::oracle`) memoizes the end set of every rule at every
//! position: its time and memory grow with the input's length times the number of
//! rules. It is a reference for testing, not a
//! validator for untrusted input, so it judges lines of at most [`ORACLE_MAX_BYTES`];
//! a longer line is `invalid:` with a message that names the limit and the way out
//! (the generated combinators, which run in linear time and allocate nothing).

use super::{rule_arg, write_invalid_at, Spent};
use crate::io::{each_input, Judged, Style, Verdicts};
use crate::report::Problem;
use iri_grammar::{check, Variant};
use iri_grammar_abnf::oracle::{Oracle, Unanswered};
use iri_grammar_abnf::Grammars;

/// The longest input `check --oracle` judges, in bytes: long enough for any address
/// in use, short enough that the oracle's memory stays small (the module
/// documentation says why it grows). The help of `--oracle` and the README say this
/// number.
pub const ORACLE_MAX_BYTES: usize = 4096;

/// `oracle`: judged by the oracle, with this work budget (`--oracle-steps`).
pub fn run<V: Variant>(
    style: &Style,
    rule: Option<&str>,
    oracle: Option<u64>,
    caret: bool,
    inputs: &[String],
) -> Verdicts {
    let rule = rule_arg::<V>(rule)?;
    super::caret_beside_copies(style, caret)?;
    let grammars = Grammars::builtin();
    let oracle = oracle.map(|steps| Oracle::new(&grammars, V::NAME).with_budget(steps));
    let name = rule.name::<V>();
    let json = style.json;
    let spent = Spent::default();
    let verdicts = each_input(inputs, style, |input, out| {
        let verdict: Result<(), Problem> = match (&oracle, &input.text) {
            (_, Err(e)) => Err(Problem::not_utf8(input, e)),
            (Some(_), Ok(s)) if s.len() > ORACLE_MAX_BYTES => Err(Problem::other(
                "oracle-limit",
                format!(
                    "the input is {} bytes, beyond the oracle's limit of {ORACLE_MAX_BYTES} \
                     bytes (its memory grows with the input's length); check without \
                     --oracle: the generated combinators have no limit and run in linear time",
                    s.len()
                ),
            )),
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
                Err(Unanswered::Budget(e)) => Err(spent.problem(e)),
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
    });
    spent.verdicts(verdicts)
}
