//! `iri compare`: are A and B equivalent at a level (RFC 3987 §5.3)? A and B as
//! arguments, or A TAB B per line of standard input. Exit 0 when equivalent, 1 when
//! different, 3 when unknown (with several pairs: 1 if any pair is different or a
//! line is not a pair, else 3 if any is unknown).

use crate::args::{CharNormArgs, LevelArg};
use crate::io::{each_input, Cause, Judgement, Outcome, RunError, Style, Verdict};
use crate::json::Object;
use crate::report::Problem;
use iri_grammar::normalize::{Comparison, NormalizeOptions};
use iri_grammar::{Reference, Variant};
use std::fmt::Write;

pub fn run<V: Variant>(
    style: &Style,
    level: LevelArg,
    chars: CharNormArgs,
    ignore_fragment: bool,
    pair: &[String],
) -> Outcome {
    let options = NormalizeOptions {
        chars: chars.char_norm(),
        ignore_fragment,
    };
    let judge = |a: &str, b: &str| -> Comparison {
        match (Reference::<V>::parse(a), Reference::<V>::parse(b)) {
            (Ok(x), Ok(y)) => x.compare_with(&y, level.level(), options),
            (Err(e), _) => {
                Comparison::Unknown(format!("{a:?} is invalid: {}", Problem::of_match(e).text()))
            }
            (_, Err(e)) => {
                Comparison::Unknown(format!("{b:?} is invalid: {}", Problem::of_match(e).text()))
            }
        }
    };
    let json = style.json;
    match pair {
        [a, b] => {
            // One pair from the arguments: the input is "A TAB B", as a line would be.
            let line = [format!("{a}\t{b}")];
            each_input(&line, style, |_, out| write(out, json, a, b, &judge(a, b)))
        }
        [] => each_input(&[], style, |input, out| match &input.text {
            Ok(line) => match line.split_once('\t') {
                Some((a, b)) => write(out, json, a, b, &judge(a, b)),
                None => super::write_invalid(
                    out,
                    json,
                    input,
                    &Problem::other("compare", "a line holds A, a TAB, and B".into()),
                ),
            },
            Err(e) => super::write_invalid(out, json, input, &Problem::not_utf8(input, e)),
        }),
        _ => Err(RunError::Usage(
            "compare takes two references, A and B (or none: A TAB B per line of standard input)"
                .into(),
        )),
    }
}

/// One result: `equivalent`, `different` or `unknown: why` (JSON: the pair as
/// `"input"` and `"result"`, and the fields `"a"`, `"b"`, `"valid"`, `"equivalent"`
/// and `"unknown"`, which the schema keeps).
fn write(out: &mut String, json: bool, a: &str, b: &str, c: &Comparison) -> Judgement {
    let result = match c {
        Comparison::Equivalent => "equivalent",
        Comparison::Different => "different",
        Comparison::Unknown(_) => "unknown",
    };
    if json {
        let o = Object::new()
            .strs("input", [a, b])
            .str("a", a)
            .str("b", b)
            .bool("valid", *c == Comparison::Equivalent)
            .str("result", result);
        let o = match c {
            Comparison::Equivalent => o.bool("equivalent", true).null("unknown"),
            Comparison::Different => o.bool("equivalent", false).null("unknown"),
            Comparison::Unknown(why) => o.null("equivalent").str("unknown", why),
        };
        let _ = writeln!(out, "{}", o.finish());
    } else {
        match c {
            Comparison::Unknown(why) => {
                let _ = writeln!(out, "unknown: {why}");
            }
            _ => {
                let _ = writeln!(out, "{result}");
            }
        }
    }
    match c {
        Comparison::Equivalent => Judgement::success(),
        Comparison::Different => Judgement {
            verdict: Verdict::Failed,
            cause: Some(Cause::Reason("different".into())),
        },
        Comparison::Unknown(_) => Judgement {
            verdict: Verdict::Unknown,
            cause: Some(Cause::Reason("unknown".into())),
        },
    }
}
