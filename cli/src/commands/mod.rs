//! The commands, one module each, and what several of them share: the rule named on
//! the command line, the base of `resolve` and `relativize`, and the loop of the
//! commands that turn each input into a reference.

mod abnf;
mod book;
mod check;
mod compare;
mod convert;
pub mod diff;
mod generate;
mod grammar;
mod lint;
mod normalize;
mod parse;
mod prepare;
mod resolve;
mod serve;
mod tree;

use crate::args::{Cli, Command};
use crate::io::{each_input, Failure, Input, Out, Outcome};
use crate::json::Object;
use iri_grammar::{Iri, Iri2001, Leiri, Reference, Rule, Uri, Variant, VariantName};
use std::io::Write;

/// Runs the command of `cli` in the grammar it names.
pub fn run(cli: &Cli) -> Outcome {
    if let Command::DiffGrammars(args) = &cli.command {
        return diff::run(cli.json, args);
    }
    if !cli.abnf.is_empty() {
        return abnf::run(cli);
    }
    match cli.grammar.variant() {
        VariantName::Uri => run_in::<Uri>(cli),
        VariantName::Iri => run_in::<Iri>(cli),
        VariantName::Leiri => run_in::<Leiri>(cli),
        // The 2001 draft's grammar has rules, trees and strings, not typed references
        // (a `Reference<Iri2001>` does not compile): the commands of references say so.
        VariantName::Iri2001 => run_rules::<Iri2001>(cli).unwrap_or_else(|| {
            Err(Failure::Usage(
                "the iri-2001 grammar (the 2001 draft) has rules but no typed references: \
                 it serves check, tree, grammar and generate; parse, resolve, convert, \
                 normalize, compare and lint need --grammar uri, iri or leiri"
                    .to_string(),
            ))
        }),
    }
}

/// The commands of rules (check, tree, grammar, generate) and those that take no
/// grammar; `None` for the commands of references.
fn run_rules<V: Variant>(cli: &Cli) -> Option<Outcome> {
    let json = cli.json;
    Some(match &cli.command {
        Command::Check {
            rule,
            oracle,
            caret,
            inputs,
        } => check::run::<V>(json, rule.as_deref(), *oracle, *caret, inputs),
        Command::Tree {
            rule,
            format,
            literals,
            caret,
            inputs,
        } => tree::run::<V>(
            json,
            rule.as_deref(),
            *format,
            tree::Show {
                literals: *literals,
                caret: *caret,
            },
            inputs,
        ),
        Command::Grammar { name, rust, svg } => {
            grammar::run::<V>(json, name.as_deref(), *rust, *svg)
        }
        Command::Book {
            out,
            examples,
            seed,
        } => book::run(out, *examples, *seed),
        Command::Serve { port, open } => serve::run(*port, *open),
        Command::Prepare { multi, inputs } => prepare::run(json, *multi, inputs),
        Command::Generate { rule, n, seed } => generate::run::<V>(json, rule, *n, *seed),
        _ => return None,
    })
}

fn run_in<V: Variant>(cli: &Cli) -> Outcome {
    if let Some(outcome) = run_rules::<V>(cli) {
        return outcome;
    }
    let json = cli.json;
    match &cli.command {
        Command::Parse { inputs } => parse::run::<V>(json, inputs),
        Command::Resolve { base, references } => resolve::resolve::<V>(json, base, references),
        Command::Relativize { base, targets } => resolve::relativize::<V>(json, base, targets),
        Command::ToUri { idna, inputs } => convert::to_uri::<V>(json, *idna, inputs),
        Command::ToIri { idna, inputs } => convert::to_iri::<V>(json, *idna, inputs),
        Command::Normalize {
            level,
            chars,
            inputs,
        } => normalize::run::<V>(json, *level, *chars, inputs),
        Command::Compare {
            level,
            chars,
            ignore_fragment,
            pair,
        } => compare::run::<V>(json, *level, *chars, *ignore_fragment, pair),
        Command::Lint {
            display,
            list,
            percent_encoded,
            inputs,
        } => lint::run::<V>(json, *display, *list, *percent_encoded, inputs),
        // Served by run_rules.
        Command::Check { .. }
        | Command::Tree { .. }
        | Command::Grammar { .. }
        | Command::Book { .. }
        | Command::Serve { .. }
        | Command::Prepare { .. }
        | Command::Generate { .. }
        | Command::DiffGrammars(_) => unreachable!("run_rules serves {:?}", cli.command),
    }
}

/// The rule named `name` in `V`'s grammar, or the grammar's reference rule.
fn rule_arg<V: Variant>(name: Option<&str>) -> Result<Rule, Failure> {
    let name = name.unwrap_or(Rule::IriReference.name::<V>());
    Rule::named_in::<V>(name).ok_or_else(|| {
        let close: Vec<&str> = Rule::of(V::NAME)
            .map(|(n, _)| n)
            .filter(|n| {
                let (a, b) = (n.to_ascii_lowercase(), name.to_ascii_lowercase());
                a.contains(&b) || b.contains(&a)
            })
            .collect();
        let hint = if close.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", close.join(", "))
        };
        Failure::Usage(format!(
            "the {} grammar has no rule named {name:?}{hint}; `iri --grammar {} grammar` lists them",
            V::NAME.as_str(),
            V::NAME.as_str()
        ))
    })
}

/// Parses each input as a reference of `V`, applies `f`, and prints the resulting
/// reference (JSON: under `field`); an invalid input or a failed `f` is `invalid: `.
fn each_reference<V: Variant, W: Variant>(
    json: bool,
    inputs: &[String],
    field: &str,
    f: impl Fn(Reference<'_, V>) -> Result<Reference<'static, W>, String>,
) -> Outcome {
    each_input(inputs, |out, input| {
        let result = parse_input::<V>(input).and_then(&f);
        let text = result.as_ref().map(|r| r.as_str()).map_err(String::as_str);
        write_result(out, json, input, field, text)
    })
}

/// One result line: the value, or `invalid: ` and why (JSON: `field` and `error`).
fn write_result(
    out: &mut Out,
    json: bool,
    input: &Input<'_>,
    field: &str,
    result: Result<&str, &str>,
) -> std::io::Result<bool> {
    if json {
        let o = Object::new().str("input", &input.lossy());
        let o = match result {
            Ok(v) => o.str(field, v),
            Err(e) => o.null(field).str("error", e),
        };
        writeln!(out, "{}", o.finish())?;
    } else {
        match result {
            Ok(v) => writeln!(out, "{v}")?,
            Err(e) => writeln!(out, "invalid: {e}")?,
        }
    }
    Ok(result.is_ok())
}

/// The input as a reference of `V`, or why it is none (the message of the grammar's
/// error, or why the line has no text).
fn parse_input<'a, V: Variant>(input: &Input<'a>) -> Result<Reference<'a, V>, String> {
    match &input.text {
        Ok(s) => Reference::<V>::parse(s).map_err(|e| e.to_string()),
        Err(e) => Err(e.clone()),
    }
}

/// A line that says an input is valid (JSON: `valid: true`, `error: null`).
fn write_valid(out: &mut Out, json: bool, input: &Input<'_>) -> std::io::Result<bool> {
    if json {
        let o = Object::new()
            .str("input", &input.lossy())
            .bool("valid", true)
            .null("error");
        writeln!(out, "{}", o.finish())?;
    } else {
        writeln!(out, "valid")?;
    }
    Ok(true)
}

/// A line that says an input is invalid (JSON: `valid: false` and the error).
fn write_invalid(
    out: &mut Out,
    json: bool,
    input: &Input<'_>,
    error: &str,
) -> std::io::Result<bool> {
    if json {
        let o = Object::new()
            .str("input", &input.lossy())
            .bool("valid", false)
            .str("error", error);
        writeln!(out, "{}", o.finish())?;
    } else {
        writeln!(out, "invalid: {error}")?;
    }
    Ok(false)
}

/// [`write_invalid`], and with `caret` where the match failed (`at`, a 0-based
/// character offset): text output shows the input with a caret under that character
/// (`crate::caret`), JSON adds `"column"`, 1-based like the caret line's.
fn write_invalid_at(
    out: &mut Out,
    json: bool,
    input: &Input<'_>,
    error: &str,
    at: Option<usize>,
    caret: bool,
) -> std::io::Result<bool> {
    match (caret, at, &input.text) {
        (true, Some(at), Ok(text)) if json => {
            let o = Object::new()
                .str("input", text)
                .bool("valid", false)
                .str("error", error)
                .num("column", at + 1);
            writeln!(out, "{}", o.finish())?;
            Ok(false)
        }
        (true, Some(at), Ok(text)) => {
            write_invalid(out, json, input, error)?;
            write!(out, "{}", crate::caret::caret(text, at, "  "))?;
            Ok(false)
        }
        _ => write_invalid(out, json, input, error),
    }
}
