//! The commands, one module each, and what several of them share: the dispatch from
//! the command line, the rule it names, the records of valid and invalid inputs, and
//! the loop of the commands that turn each input into a reference. `engine` judges
//! the inputs of `check` and `tree`, in a built-in grammar or in a grammar of one's
//! own (`abnf`).

mod abnf;
mod book;
mod check;
mod compare;
mod conform;
mod conform_resolve;
mod convert;
mod coverage;
mod diff;
mod engine;
mod generate;
mod grammar;
mod lint;
mod normalize;
mod parse;
mod prepare;
mod resolve;
mod serve;
mod suite;
mod trace;
mod tree;

use crate::args::{Cli, Command, ScriptArgs};
use crate::io::{each_input, Input, Judgement, Outcome, RunError, Sink, Style};
use crate::report::Problem;
use engine::Engine;
use iri_grammar::{Iri2001, Reference, Rule, Variant};
use iri_grammar_abnf::oracle::{BudgetExceeded, Oracle};
use iri_grammar_abnf::Grammars;
use std::fmt::Write;
use std::sync::Mutex;

/// Runs the command of `cli` in the grammar it names.
pub fn run(cli: &Cli) -> Outcome {
    crate::io::set_max_line(cli.max_line_bytes.map_or(crate::io::MAX_LINE_BYTES, |n| {
        usize::try_from(n).unwrap_or(usize::MAX)
    }));
    crate::report::set_explain(cli.explain);
    if let Command::DiffGrammars(args) = &cli.command {
        return diff::run(cli.json, cli.oracle_budget(), args);
    }
    if let Command::Conform(args) = &cli.command {
        return conform::run(cli.json, cli.grammar().variant(), args);
    }
    if !cli.abnf.is_empty() {
        return abnf::run(cli);
    }
    // The 2001 draft's grammar has rules, trees and strings, not typed references
    // (a `Reference<Iri2001>` does not compile): the commands of references say so.
    iri_grammar::with_variant!(cli.grammar().variant(), V => run_in::<V>(cli), Iri2001 => {
        run_rules::<Iri2001>(cli).unwrap_or_else(|| {
            Err(RunError::Usage(
                "the iri-2001 grammar (the 2001 draft) has rules but no typed references: \
                 it serves check, tree, trace, grammar, generate and coverage; parse, \
                 resolve, convert, normalize, compare and lint need --grammar uri, iri or leiri"
                    .to_string(),
            ))
        })
    })
}

/// How a per-input command writes, from its script options and the global ones.
fn style(cli: &Cli, script: &ScriptArgs) -> Style {
    Style {
        json: cli.json,
        with_input: cli.with_input,
        quiet: cli.quiet,
        invalid_only: script.invalid_only,
        valid_only: script.valid_only,
        summary: script.summary,
        jobs: script.jobs,
        blank_line_between: false,
        pair: false,
        verdicts: false,
        valid_lines: None,
    }
}

/// `--caret` draws under a record, which a filter replaces with the input itself
/// ([`Style::copies_inputs`]): the two together are refused rather than the caret
/// silently dropped.
fn caret_beside_copies(style: &Style, caret: bool) -> Result<(), RunError> {
    if caret && style.copies_inputs() {
        return Err(RunError::Usage(
            "--caret draws under a message: with --invalid-only (or check's --valid-only), \
             text output is the inputs kept (-H adds their results)"
                .into(),
        ));
    }
    Ok(())
}

/// The commands of rules (check, tree, trace, grammar, generate, coverage) and those
/// that take no grammar; `None` for the commands of references.
fn run_rules<V: Variant>(cli: &Cli) -> Option<Outcome> {
    let json = cli.json;
    let style = |script: &ScriptArgs| style(cli, script);
    Some(match &cli.command {
        Command::Check {
            rule,
            oracle,
            caret,
            script,
            inputs,
        } => check_in::<V>(cli, rule.as_deref(), *oracle, *caret, script, inputs),
        Command::Tree {
            rule,
            format,
            literals,
            caret,
            max_nodes,
            script,
            inputs,
        } => rule_arg::<V>(rule.as_deref()).and_then(|rule| {
            let engine = Engine::Builtin {
                variant: V::NAME,
                rule,
            };
            let show = tree::Show {
                literals: *literals,
                caret: *caret,
            };
            tree::run(&style(script), &engine, *format, show, *max_nodes, inputs)
        }),
        Command::Trace {
            rule,
            script,
            inputs,
        } => trace::run::<V>(&style(script), rule.as_deref(), inputs),
        Command::Grammar {
            name, rust, svg, ..
        } => grammar::run::<V>(json, name.as_deref(), *rust, *svg),
        Command::Book {
            out,
            examples,
            seed,
            playground,
        } => book::run(out, *examples, *seed, playground.as_deref()),
        Command::Serve { port, open } => serve::run(*port, *open),
        Command::Prepare {
            multi,
            script,
            inputs,
        } => prepare::run(&style(script), *multi, inputs),
        Command::Generate {
            rule,
            n,
            seed,
            invalid,
            cover,
            generate_steps,
        } => generate::run::<V>(json, rule, *n, *seed, *invalid, *cover, *generate_steps),
        Command::Coverage {
            rule,
            seed,
            fail_under,
            inputs,
        } => coverage::run::<V>(json, rule.as_deref(), *seed, *fail_under, inputs),
        Command::Suite { rule, out, seed } => suite::run(rule, out, *seed),
        _ => return None,
    })
}

/// `check` in a built-in grammar: judged by the combinators, or with `--oracle` by
/// the oracle.
fn check_in<V: Variant>(
    cli: &Cli,
    rule: Option<&str>,
    oracle: bool,
    caret: bool,
    script: &ScriptArgs,
    inputs: &[String],
) -> Outcome {
    let rule = rule_arg::<V>(rule)?;
    let grammars;
    let engine = if oracle {
        grammars = Grammars::builtin();
        Engine::BuiltinOracle {
            variant: V::NAME,
            rule,
            oracle: Oracle::new(&grammars, V::NAME).with_budget(cli.oracle_budget()),
        }
    } else {
        Engine::Builtin {
            variant: V::NAME,
            rule,
        }
    };
    let style = Style {
        verdicts: true,
        ..style(cli, script)
    };
    check::run(&style, &engine, caret, inputs)
}

/// Every command, in a grammar with typed references.
fn run_in<V: Variant>(cli: &Cli) -> Outcome {
    if let Some(verdicts) = run_rules::<V>(cli) {
        return verdicts;
    }
    let style = |script: &ScriptArgs| style(cli, script);
    match &cli.command {
        Command::Parse { script, inputs } => parse::run::<V>(
            &Style {
                blank_line_between: true,
                ..style(script)
            },
            inputs,
        ),
        Command::Resolve {
            base,
            script,
            references,
        } => resolve::resolve::<V>(&style(script), base, references),
        Command::Relativize {
            base,
            script,
            targets,
        } => resolve::relativize::<V>(&style(script), base, targets),
        Command::ToUri {
            idna,
            script,
            inputs,
        } => convert::to_uri::<V>(&style(script), *idna, inputs),
        Command::ToIri {
            idna,
            script,
            inputs,
        } => convert::to_iri::<V>(&style(script), *idna, inputs),
        Command::Normalize {
            level,
            chars,
            script,
            inputs,
        } => normalize::run::<V>(&style(script), *level, *chars, inputs),
        Command::Compare {
            level,
            chars,
            ignore_fragment,
            script,
            pair,
        } => compare::run::<V>(
            &Style {
                pair: true,
                verdicts: true,
                ..style(script)
            },
            *level,
            *chars,
            *ignore_fragment,
            pair,
        ),
        Command::Lint {
            display,
            list,
            percent_encoded,
            caret,
            script,
            inputs,
        } => lint::run::<V>(
            &style(script),
            lint::Show {
                display: *display,
                caret: *caret,
            },
            *list,
            *percent_encoded,
            inputs,
        ),
        // Served by run_rules.
        Command::Check { .. }
        | Command::Tree { .. }
        | Command::Trace { .. }
        | Command::Grammar { .. }
        | Command::Book { .. }
        | Command::Serve { .. }
        | Command::Prepare { .. }
        | Command::Generate { .. }
        | Command::Coverage { .. }
        | Command::Suite { .. }
        | Command::DiffGrammars(_)
        | Command::Conform(_) => unreachable!("run_rules serves {:?}", cli.command),
    }
}

/// ` (did you mean A, B?)` for the rule names that contain `name` or are contained in
/// it, and those fewest edits away from it (insertions, deletions, substitutions and
/// transpositions: at most one for every four characters, at least one), ignoring
/// case; empty when none is.
fn did_you_mean<'n>(names: impl Iterator<Item = &'n str>, name: &str) -> String {
    let wanted = name.to_ascii_lowercase();
    let most = (wanted.chars().count() / 4).max(1);
    let scored: Vec<(&str, bool, usize)> = names
        .map(|n| {
            let lower = n.to_ascii_lowercase();
            let contains = lower.contains(&wanted) || wanted.contains(&lower);
            (n, contains, strsim::damerau_levenshtein(&lower, &wanted))
        })
        .collect();
    let fewest = scored.iter().map(|&(_, _, d)| d).min().unwrap_or(0);
    let close: Vec<&str> = scored
        .into_iter()
        .filter(|&(_, contains, d)| contains || d <= most && d == fewest)
        .map(|(n, _, _)| n)
        .collect();
    if close.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", close.join(", "))
    }
}

/// The name of an input's parse tree as a Graphviz graph: named for the input's place
/// among the inputs (`parse_tree_1`, `parse_tree_2`, ...), so that a file of several
/// graphs names each distinctly.
fn graph_name(index: usize) -> String {
    format!("parse_tree_{}", index + 1)
}

/// The rule named `name` in `V`'s grammar, or the grammar's reference rule.
fn rule_arg<V: Variant>(name: Option<&str>) -> Result<Rule, RunError> {
    let name = name.unwrap_or(Rule::IriReference.name::<V>());
    Rule::named_in::<V>(name).ok_or_else(|| {
        let hint = did_you_mean(Rule::of(V::NAME).map(|(n, _)| n), name);
        RunError::Usage(format!(
            "the {} grammar has no rule named {name:?}{hint}; `iri --grammar {} grammar` lists them",
            V::NAME.as_str(),
            V::NAME.as_str()
        ))
    })
}

/// Parses each input as a reference of `V`, applies `f`, and prints the resulting
/// reference (JSON: under `field`); an invalid input or a failed `f` is `invalid: `.
fn each_reference<V: Variant, W: Variant>(
    style: &Style,
    inputs: &[String],
    field: &'static str,
    f: impl Fn(Reference<'_, V>) -> Result<Reference<'static, W>, Problem> + Sync,
) -> Outcome {
    let json = style.json;
    each_input(inputs, style, |input, out| {
        let result = parse_input::<V>(input).and_then(&f);
        let text = result.as_ref().map(|r| r.as_str());
        write_result(out, json, input, field, text)
    })
}

/// One result line: the value, or `invalid: ` and why (JSON: `valid`, `field` and
/// `error`).
fn write_result(
    out: &mut Sink<'_>,
    json: bool,
    input: &Input<'_>,
    field: &'static str,
    result: Result<&str, &Problem>,
) -> Judgement {
    match result {
        Ok(v) if json => {
            let o = input.json().bool("valid", true).str(field, v).null("error");
            let _ = writeln!(out, "{}", o.finish());
            Judgement::success()
        }
        Ok(v) => {
            let _ = writeln!(out, "{v}");
            Judgement::success()
        }
        Err(p) => write_invalid_with(out, json, input, Some(field), p),
    }
}

/// The input as a reference of `V`, or why it is none (the grammar's error, or why
/// the line has no text).
fn parse_input<'a, V: Variant>(input: &Input<'a>) -> Result<Reference<'a, V>, Problem> {
    match &input.text {
        Ok(s) => Reference::<V>::parse(s).map_err(Problem::of_match),
        Err(e) => Err(Problem::not_utf8(input, e)),
    }
}

/// A line that says an input is invalid (JSON: `valid: false` and the error).
fn write_invalid(out: &mut Sink<'_>, json: bool, input: &Input<'_>, p: &Problem) -> Judgement {
    write_invalid_with(out, json, input, None, p)
}

/// [`write_invalid`], with the command's result `field` null in JSON.
fn write_invalid_with(
    out: &mut Sink<'_>,
    json: bool,
    input: &Input<'_>,
    field: Option<&'static str>,
    p: &Problem,
) -> Judgement {
    if json {
        let mut o = input.json().bool("valid", false);
        if let Some(field) = field {
            o = o.null(field);
        }
        let _ = writeln!(out, "{}", o.raw("error", &p.json()).finish());
    } else {
        out.push_str("invalid: ");
        p.write_text(out);
        out.push('\n');
    }
    out.failed(|| p.cause())
}

/// [`write_invalid`], and with `caret` where the match failed: text output shows the
/// input with a caret under that character (`crate::caret`), JSON adds `"column"`,
/// 1-based like the caret line's.
fn write_invalid_at(
    out: &mut Sink<'_>,
    json: bool,
    input: &Input<'_>,
    p: &Problem,
    caret: bool,
) -> Judgement {
    let at = if p.kind == "grammar" {
        p.caret_at()
    } else {
        None
    };
    match (caret, at, &input.text) {
        (true, Some(at), Ok(_)) if json => {
            let o = input
                .json()
                .bool("valid", false)
                .raw("error", &p.json())
                .num("column", at + 1);
            let _ = writeln!(out, "{}", o.finish());
            out.failed(|| p.cause())
        }
        (true, Some(at), Ok(text)) => {
            let judged = write_invalid(out, json, input, p);
            out.push_str(&crate::caret::caret(text, at, "  "));
            judged
        }
        _ => write_invalid(out, json, input, p),
    }
}

/// The failure of a command whose oracle spent its work budget on an input: status
/// 2, with the rule, the budget and the way to raise it.
fn out_of_budget(e: &BudgetExceeded) -> RunError {
    RunError::Usage(format!(
        "{e}; give it more with --oracle-steps (e.g. --oracle-steps {})",
        e.budget.saturating_mul(10)
    ))
}

/// The first input of a run that the oracle could not judge within its budget (the
/// inputs may be judged on several threads). Such an input is shown as not judged,
/// and the run ends with status 2 once every input is written.
#[derive(Default)]
struct Spent(Mutex<Option<BudgetExceeded>>);

impl Spent {
    /// The problem an input the oracle could not judge is shown with.
    fn problem(&self, e: BudgetExceeded) -> Problem {
        let p = Problem::other("oracle-budget", format!("not judged: {e}"));
        if let Ok(mut first) = self.0.lock() {
            first.get_or_insert(e);
        }
        p
    }

    /// The run's outcome, or the error of its first input the oracle could not judge.
    fn verdicts(self, outcome: Outcome) -> Outcome {
        let status = outcome?;
        match self.0.into_inner().ok().flatten() {
            Some(e) => Err(out_of_budget(&e)),
            None => Ok(status),
        }
    }
}
