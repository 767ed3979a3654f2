//! `iri generate`: strings that match a rule, drawn from the grammar.

use super::rule_arg;
use crate::io::{ended_by, Failure, Out, Outcome};
use crate::json::Object;
use iri_grammar::Variant;
use iri_grammar_abnf::{generate::Generator, Grammars};
use std::io::Write;

pub fn run<V: Variant>(
    json: bool,
    rule: &str,
    n: u64,
    seed: u64,
    invalid: bool,
    cover: bool,
) -> Outcome {
    let _ = (invalid, cover);
    let rule = rule_arg::<V>(Some(rule))?;
    let name = rule.name::<V>();
    let grammars = Grammars::builtin();
    let mut generator = Generator::new(&grammars, V::NAME, seed);
    let mut out = Out::new();
    for _ in 0..n {
        // LEIRIs may contain line breaks (ucschar includes %x0-1F); one string a line
        // cannot carry them, so text output draws again. JSON escapes them.
        let mut s = String::new();
        for _ in 0..1000 {
            s = generator
                .generate(name)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            if json || !s.contains(['\n', '\r']) {
                break;
            }
        }
        let written = if json {
            let o = Object::new().str("rule", name).str("generated", &s);
            writeln!(out, "{}", o.finish())
        } else {
            writeln!(out, "{s}")
        };
        if let Err(e) = written {
            return ended_by(e, true);
        }
    }
    out.finish(true)
}
