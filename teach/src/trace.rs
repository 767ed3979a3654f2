//! A trace of the combinators as JSON (`iri trace --json`, the page's trace panel).

use crate::json::Object;
use crate::literals::CharIndex;
use iri_grammar::trace::{Event, Trace};

/// The steps as a JSON array: each `{"n","depth","at","step","text",..}` with the
/// fields of its kind; with `chars`, `"from"` (and `"to"` for a span) in characters.
pub fn steps_json(t: &Trace<'_>, chars: Option<&CharIndex>) -> String {
    let mut out = String::from("[");
    for (n, s) in t.steps.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        let mut o = Object::new()
            .num("n", n + 1)
            .num("depth", s.depth)
            .num("at", s.at);
        if let Some(ci) = chars {
            o = o.num("from", ci.chars(s.at));
        }
        let span = |o: Object, start: usize, end: usize| {
            let o = o.num("start", start).num("end", end);
            match chars {
                Some(ci) => o
                    .num("start_char", ci.chars(start))
                    .num("end_char", ci.chars(end)),
                None => o,
            }
        };
        o = match &s.event {
            Event::Enter { rule } => o.str("step", "enter").str("rule", rule),
            Event::Match { rule, start, end } => {
                span(o.str("step", "match").str("rule", rule), *start, *end)
            }
            Event::Fail { rule, start } => {
                o.str("step", "fail").str("rule", rule).num("start", *start)
            }
            Event::Try { rule, k, of } => o
                .str("step", "try")
                .str("rule", rule)
                .num("alternative", usize::from(*k))
                .num("of", usize::from(*of)),
            Event::Backtrack {
                rule,
                k,
                of,
                failed_at,
                why,
            } => o
                .str("step", "backtrack")
                .str("rule", rule)
                .num("alternative", usize::from(*k))
                .num("of", usize::from(*of))
                .num("failed_at", *failed_at)
                .str("why", why),
            Event::Expected { expected } => {
                let e: Vec<String> = expected.iter().map(|x| x.to_string()).collect();
                o.str("step", "expected")
                    .strs("expected", e.iter().map(String::as_str))
            }
            Event::Ahead { admitted, follow } => o
                .str("step", "ahead")
                .bool("admitted", *admitted)
                .str("follow", follow),
            Event::Skip { first } => o.str("step", "skip").str("first", first),
            Event::Terminal { start, end } => span(o.str("step", "terminal"), *start, *end),
            Event::Scan { start, end, class } => {
                let c: Vec<String> = class.iter().map(|x| x.to_string()).collect();
                span(o.str("step", "scan"), *start, *end)
                    .strs("class", c.iter().map(String::as_str))
            }
            // Events a later library adds: their words at least.
            _ => o.str("step", "other"),
        };
        let o = o.str("text", &s.describe(t.input));
        out.push_str(&o.finish());
    }
    out.push(']');
    out
}
