//! `iri check`: does each input match a rule? The [`Engine`] judges: the generated
//! combinators, or the ABNF oracle (`--oracle`, `--abnf`). With `--caret`, an invalid
//! input is shown with a caret under the character where the match failed.

use super::engine::Engine;
use super::{write_invalid_at, Spent};
use crate::io::{each_input, Judgement, Outcome, Style};

pub fn run(style: &Style, engine: &Engine<'_>, caret: bool, inputs: &[String]) -> Outcome {
    super::caret_beside_copies(style, caret)?;
    let json = style.json;
    // In text, a valid line's record is `valid`: the engine's shortcut judges and
    // writes the runs of valid lines of standard input (`ValidLines`).
    let style = &Style {
        valid_lines: if json {
            None
        } else {
            engine.valid_lines("valid\n")
        },
        ..style.clone()
    };
    let spent = Spent::default();
    let verdicts = each_input(inputs, style, |input, out| {
        match engine.check(input, &spent) {
            // The common case written directly: `{"input":..,"valid":true,"error":null}`.
            Ok(()) if json => {
                out.push_str("{\"input\":");
                crate::json::string(&input.lossy(), out);
                out.push_str(",\"valid\":true,\"error\":null}\n");
                Judgement::success()
            }
            Ok(()) => {
                out.push_str("valid\n");
                Judgement::success()
            }
            Err(p) => write_invalid_at(out, json, input, &p, caret),
        }
    });
    spent.verdicts(verdicts)
}
