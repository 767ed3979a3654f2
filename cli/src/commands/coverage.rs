//! `iri coverage`: which rules and alternatives the inputs reach, from a rule down, on
//! the parse the grammar takes; the alternatives none reaches, each with a generated
//! input that reaches it. The measure and what it leaves out: `crate::coverage`.

use super::rule_arg;
use crate::coverage::{Coverage, Example};
use crate::io::{ended_by, for_each_input, Out, Outcome};
use crate::json::{self, Object};
use iri_grammar::Variant;
use iri_grammar_abnf::{strings::generate::Generator, Grammars};
use std::io::Write;

/// How many strings are drawn for each unreached alternative before giving up.
const ATTEMPTS: usize = 200;

/// The report; `Ok(false)` (exit status 1) when the inputs reach less than
/// `fail_under` percent of the alternatives.
pub fn run<V: Variant>(
    json: bool,
    rule: Option<&str>,
    seed: u64,
    fail_under: Option<f64>,
    inputs: &[String],
) -> Outcome {
    let rule = rule_arg::<V>(rule)?;
    let grammars = Grammars::builtin();
    let mut cov = Coverage::new(&grammars, V::NAME, rule.name::<V>())
        .map_err(|e| crate::io::RunError::Usage(e.to_string()))?;
    for_each_input(inputs, |input| match input.text {
        Ok(s) => {
            cov.add(s);
        }
        Err(_) => cov.inputs += 1,
    })?;
    let mut gen = Generator::new(&grammars, V::NAME, seed);
    let unreached: Vec<(usize, usize, Option<Example>)> = cov
        .unreached()
        .into_iter()
        .map(|(slot, alt)| {
            (
                slot,
                alt,
                cov.shortest_example(&mut gen, slot, Some(alt), ATTEMPTS),
            )
        })
        .collect();
    let text = if json {
        to_json(&cov, &unreached)
    } else {
        to_text(&cov, &unreached)
    };
    let all = cov.all_alternatives().len();
    let reached = all - unreached.len();
    // reached / all < fail_under / 100, without rounding.
    let ok = fail_under.is_none_or(|p| (reached as f64) * 100.0 >= p * all as f64);
    let mut out = Out::new();
    if let Err(e) = out.write_all(text.as_bytes()) {
        return ended_by(e, ok);
    }
    out.finish(ok)
}

/// The share of the alternatives reached, in percent with one decimal, rounded
/// down (so that 99.96 % does not read as 100.0 %); 100 when there are none.
fn percent(reached: usize, all: usize) -> String {
    if all == 0 {
        return "100.0".into();
    }
    let tenths = reached * 1000 / all;
    format!("{}.{}", tenths / 10, tenths % 10)
}

fn to_text(cov: &Coverage<'_>, unreached: &[(usize, usize, Option<Example>)]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "coverage of {} ({}): {} inputs, {} match it",
        cov.start_name,
        cov.variant.as_str(),
        cov.inputs,
        cov.matched
    );
    if cov.too_large > 0 {
        let _ = writeln!(
            s,
            "not measured: {} inputs that match but whose trees have more than {} nodes",
            cov.too_large,
            crate::coverage::MAX_NODES
        );
    }
    let mut folded = Vec::new();
    for r in &cov.rules {
        if !r.measured {
            folded.push(r.name.as_str());
            continue;
        }
        let _ = writeln!(s, "{}: {} inputs", r.name, r.inputs);
        let of = r.alternatives.len();
        for (k, (n, e)) in r
            .alternatives
            .iter()
            .zip(r.alternative_elements())
            .enumerate()
        {
            let _ = writeln!(
                s,
                "  {} alternative {} of {of}: {n} inputs  ; {e}",
                r.name,
                k + 1
            );
        }
    }
    if !folded.is_empty() {
        let _ = writeln!(
            s,
            "not measured (one-character rules, folded into their parents by the tree): {}",
            folded.join(", ")
        );
    }
    let all = cov.all_alternatives().len();
    let _ = writeln!(
        s,
        "alternatives no input reached: {} of {} ({} % reached)",
        unreached.len(),
        all,
        percent(all - unreached.len(), all)
    );
    for (slot, alt, example) in unreached {
        let r = &cov.rules[*slot];
        let _ = write!(
            s,
            "  {} alternative {} of {}  ; {}",
            r.name,
            alt + 1,
            r.alternatives.len(),
            r.alternative_elements()[*alt]
        );
        match example {
            Some(e) if e.in_context => {
                let _ = writeln!(s, "\n    e.g. {:?}", e.text);
            }
            Some(e) => {
                let _ = writeln!(s, "\n    e.g. {:?} (as {} alone)", e.text, e.rule);
            }
            None => {
                let _ = writeln!(s, "\n    no example found in {ATTEMPTS} generated strings");
            }
        }
    }
    s
}

/// One JSON object: `grammar`, `rule`, `inputs`, `matched`, `alternatives` (how
/// many the measured rules have), `reached` (how many of them the inputs reach),
/// `rules` (each `rule`, `measured`, `inputs`, `alternatives` [{`alternative`,
/// `of`, `abnf`, `inputs`}]),
/// `unreached` (each `rule`, `alternative`, `of`, `abnf`, `example`, `example_rule`,
/// `in_context`).
fn to_json(cov: &Coverage<'_>, unreached: &[(usize, usize, Option<Example>)]) -> String {
    let (all, missed) = (cov.all_alternatives().len(), unreached.len());
    let rules = json::array(cov.rules.iter().map(|r| {
        let of = r.alternatives.len();
        let alts = json::array(
            r.alternatives
                .iter()
                .zip(r.alternative_elements())
                .enumerate()
                .map(|(k, (n, e))| {
                    Object::new()
                        .num("alternative", k + 1)
                        .num("of", of)
                        .str("abnf", &e.to_string())
                        .num("inputs", *n)
                        .finish()
                }),
        );
        Object::new()
            .str("rule", &r.name)
            .bool("measured", r.measured)
            .num("inputs", r.inputs)
            .raw("alternatives", &alts)
            .finish()
    }));
    let unreached = json::array(unreached.iter().map(|(slot, alt, example)| {
        let r = &cov.rules[*slot];
        let o = Object::new()
            .str("rule", &r.name)
            .num("alternative", alt + 1)
            .num("of", r.alternatives.len())
            .str("abnf", &r.alternative_elements()[*alt].to_string());
        match example {
            Some(e) => o
                .str("example", &e.text)
                .str("example_rule", &e.rule)
                .bool("in_context", e.in_context),
            None => o.null("example").null("example_rule").null("in_context"),
        }
        .finish()
    }));
    let mut s = Object::new()
        .str("grammar", cov.variant.as_str())
        .str("rule", &cov.start_name)
        .num("inputs", cov.inputs)
        .num("matched", cov.matched)
        .num("too_large", cov.too_large)
        .num("alternatives", all)
        .num("reached", all - missed)
        .raw("rules", &rules)
        .raw("unreached", &unreached)
        .finish();
    s.push('\n');
    s
}
