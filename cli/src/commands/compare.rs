//! `iri compare`: are A and B equivalent at a level (RFC 3987 §5.3)? A and B as
//! arguments, or A TAB B per line of standard input.

use crate::args::{CharNormArgs, LevelArg};
use crate::io::{each_input, Failure, Out, Outcome};
use crate::json::Object;
use iri_grammar::normalize::{compare, Comparison, NormalizeOptions};
use iri_grammar::{Reference, Variant};
use std::io::Write;

pub fn run<V: Variant>(
    json: bool,
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
            (Ok(x), Ok(y)) => compare(&x, &y, level.level(), options),
            (Err(e), _) => Comparison::Unknown(format!("{a:?} is invalid: {}", e.message())),
            (_, Err(e)) => Comparison::Unknown(format!("{b:?} is invalid: {}", e.message())),
        }
    };
    match pair {
        [a, b] => {
            let mut out = Out::new();
            let ok = match write(&mut out, json, a, b, &judge(a, b)) {
                Ok(ok) => ok,
                Err(e) => return crate::io::ended_by(e, false),
            };
            out.finish(ok)
        }
        [] => each_input(&[], |out, input| match &input.text {
            Ok(line) => match line.split_once('\t') {
                Some((a, b)) => write(out, json, a, b, &judge(a, b)),
                None => super::write_invalid(out, json, input, "a line holds A, a TAB, and B"),
            },
            // A line that is not UTF-8: with --json a record like the others (found by
            // the fuzz target cli_lines: this was a text line in JSON Lines output).
            Err(e) => super::write_invalid(out, json, input, e),
        }),
        _ => Err(Failure::Usage(
            "compare takes two references, A and B (or none: A TAB B per line of standard input)"
                .into(),
        )),
    }
}

fn write(out: &mut Out, json: bool, a: &str, b: &str, c: &Comparison) -> std::io::Result<bool> {
    if json {
        let o = Object::new().strs("input", [a, b]).str("a", a).str("b", b);
        let o = match c {
            Comparison::Equivalent => o.bool("equivalent", true).null("unknown"),
            Comparison::Different => o.bool("equivalent", false).null("unknown"),
            Comparison::Unknown(why) => o.null("equivalent").str("unknown", why),
        };
        writeln!(out, "{}", o.finish())?;
    } else {
        match c {
            Comparison::Equivalent => writeln!(out, "equivalent")?,
            Comparison::Different => writeln!(out, "different")?,
            Comparison::Unknown(why) => writeln!(out, "unknown: {why}")?,
        }
    }
    Ok(*c == Comparison::Equivalent)
}
