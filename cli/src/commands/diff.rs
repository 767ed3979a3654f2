//! `iri diff-grammars A B`: strings in one grammar's language and not the other's,
//! minimized and grouped by the rules where the grammars part
//! (`iri_grammar_abnf::strings::diff` says how they are found). A and B are built-in grammars
//! (`uri`, `iri`, `leiri`, `iri-2001`) or ABNF files (then `--rule-a`/`--rule-b`
//! name the rule).

use crate::args::DiffArgs;
use crate::io::{ended_by, Out, Outcome, RunError};
use crate::json::Object;
use iri_grammar::VariantName;
use iri_grammar_abnf::strings::diff::{differences, shown, Group, Language, Options};
use iri_grammar_abnf::{Grammar, Grammars};
use std::io::Write;

/// A built-in grammar by the library's spelling set (`VariantName::SPELLINGS`), as
/// `--grammar` reads it; any other name is a grammar file.
fn builtin(name: &str) -> Option<VariantName> {
    name.parse().ok()
}

/// `budget`: the oracles' work budget (`--oracle-steps`).
pub fn run(json: bool, budget: u64, args: &DiffArgs) -> Outcome {
    let grammars = Grammars::builtin();
    let files: Vec<Option<Grammar>> = [&args.a, &args.b]
        .iter()
        .map(|name| match builtin(name) {
            Some(_) => Ok(None),
            None => Grammar::read_files(&[name.as_str()])
                .map(Some)
                .map_err(|e| {
                    RunError::Usage(format!(
                        "{name} is neither a built-in grammar (uri, iri, leiri, iri-2001) \
                         nor a readable ABNF file: {e}"
                    ))
                }),
        })
        .collect::<Result<_, _>>()?;
    let side = |k: usize, name: &str, rule: Option<&String>| -> Result<Language<'_>, RunError> {
        let seed = args.seed.wrapping_add(k as u64);
        let language = match (builtin(name), &files[k]) {
            (Some(v), _) => Language::builtin(&grammars, v, rule.map(String::as_str), seed),
            (None, Some(g)) => {
                let rule = rule.ok_or_else(|| {
                    RunError::Usage(format!(
                        "{name} is an ABNF file: --rule-{} names its rule",
                        if k == 0 { "a" } else { "b" }
                    ))
                })?;
                Language::of(g, rule, seed)
            }
            (None, None) => unreachable!("read above"),
        };
        language
            .map(|l| l.with_budget(budget))
            .map_err(|e| RunError::Usage(e.to_string()))
    };
    let mut sides = [
        side(0, &args.a, args.rule_a.as_ref())?,
        side(1, &args.b, args.rule_b.as_ref())?,
    ];
    let options = Options {
        samples: args.n,
        examples: args.examples.max(1),
        ..Options::default()
    };
    let groups = differences(&mut sides, &options);
    // What was found after an oracle spent its budget is not to be trusted.
    if let Some(e) = sides.iter().find_map(Language::exceeded) {
        return Err(super::out_of_budget(&e));
    }
    let mut out = Out::new();
    let written = if json {
        write_json(&mut out, &sides, &groups)
    } else {
        write_text(&mut out, &sides, &groups)
    };
    if let Err(e) = written {
        return ended_by(e, groups.is_empty());
    }
    out.finish(groups.is_empty())
}

fn label(l: &Language<'_>) -> String {
    format!("{} {}", l.grammar, l.rule)
}

fn write_text(out: &mut Out, sides: &[Language<'_>; 2], groups: &[Group]) -> std::io::Result<()> {
    for only_in in 0..2 {
        let (yes, no) = (&sides[only_in], &sides[1 - only_in]);
        let mine: Vec<&Group> = groups.iter().filter(|g| g.only_in == only_in).collect();
        writeln!(
            out,
            "in {} and not in {}: {}",
            label(yes),
            label(no),
            match mine.len() {
                0 => "none found".to_string(),
                1 => "1 group".to_string(),
                n => format!("{n} groups"),
            }
        )?;
        for g in mine {
            let examples: Vec<String> = g.examples.iter().map(|e| shown(e)).collect();
            writeln!(
                out,
                "  {} ({}) / {} ({}): {}",
                g.rule,
                yes.grammar,
                g.other_rule,
                no.grammar,
                examples.join(", ")
            )?;
            writeln!(out, "    {}: {}", no.grammar, g.error)?;
        }
    }
    Ok(())
}

fn write_json(out: &mut Out, sides: &[Language<'_>; 2], groups: &[Group]) -> std::io::Result<()> {
    for g in groups {
        let (yes, no) = (&sides[g.only_in], &sides[1 - g.only_in]);
        for e in &g.examples {
            let o = Object::new()
                .str("only_in", &yes.grammar)
                .str("not_in", &no.grammar)
                .str("input", e)
                .str("rule", &g.rule)
                .str("other_rule", &g.other_rule)
                .str(
                    "error",
                    &no.explain(e).map_or_else(String::new, |x| x.to_string()),
                )
                .num("found", g.found);
            writeln!(out, "{}", o.finish())?;
        }
    }
    Ok(())
}
