//! `iri trace`: the steps of the generated combinators on each input, numbered, as a
//! table (step, byte offset, the step indented by rule depth) or JSON. Each rule
//! entered, matched or failed; each alternative tried and given up, with why; each
//! terminal that did not match; and the lookahead decisions (`ahead`: may what follows
//! follow the match; `first`: can the next character start the alternative) that make
//! the ordered combinators accept exactly the ABNF's language (RFC 5234 §3.2 is
//! unordered; see `iri_grammar::trace`).

use super::rule_arg;
use crate::io::{each_input, Judgement, Outcome, Style};
use crate::report::Problem;
use iri_grammar::trace::trace_of;
use iri_grammar::{check, Variant};
use iri_grammar_teach::trace::steps_json;
use std::fmt::Write as _;

pub fn run<V: Variant>(style: &Style, rule: Option<&str>, inputs: &[String]) -> Outcome {
    let rule = rule_arg::<V>(rule)?;
    each_input(inputs, style, |input, out| {
        let text = match &input.text {
            Ok(s) => *s,
            Err(e) => {
                return super::write_invalid(out, style.json, input, &Problem::not_utf8(input, e))
            }
        };
        let t = trace_of::<V>(rule, text);
        let problem = check::<V>(rule, text).err().map(Problem::of_match);
        if style.json {
            let mut o = input.json().bool("valid", t.matched);
            if let Some(p) = &problem {
                o = o.raw("error", &p.json());
            }
            let o = o
                .str("rule", t.rule)
                .bool("cut", t.cut)
                .raw("steps", &steps_json(&t, None));
            let _ = writeln!(out, "{}", o.finish());
        } else {
            out.push_str(&format!("{:>5} {:>5}  step (at: byte offset)\n", "#", "at"));
            out.push_str(&t.to_text());
            match &problem {
                None => {
                    let _ = writeln!(out, "matched: the whole input matches {}", t.rule);
                }
                Some(p) => {
                    let _ = writeln!(out, "invalid: {}", p.text());
                }
            }
        }
        match problem {
            None => Judgement::success(),
            Some(p) => out.failed(|| p.cause()),
        }
    })
}
