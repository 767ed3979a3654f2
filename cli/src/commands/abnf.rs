//! `iri --abnf FILE ...`: the commands of rules on a grammar of your own. `check` and
//! `tree` are the built-in grammars' commands on the ABNF oracle
//! ([`Engine::User`]); `generate` draws strings that match, and `grammar` lists the
//! rules, shows one rule's ABNF and source, or with `--rust` prints the nom parsers of
//! the standalone code generator (`codegen::standalone`), or why it refuses the
//! grammar.
//!
//! A grammar of one's own is untrusted input (SECURITY.md, "User grammars"): the
//! oracle's limits are the engine's, and the generator refuses a rule whose shortest
//! string is longer than `generate::MAX_LENGTH`.

use super::engine::Engine;
use super::{check, did_you_mean, style, tree};
use crate::args::{Cli, Command};
use crate::io::{ended_by, Out, Outcome, RunError, Style};
use crate::json::Object;
use iri_grammar_abnf::codegen::standalone::{generate, GenerateError, Options};
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::strings::generate::{DrawError, Generator, MAX_LENGTH};
use iri_grammar_abnf::Grammar;
use std::io::Write;

pub fn run(cli: &Cli) -> Outcome {
    let grammar = Grammar::read_files(&cli.abnf).map_err(|e| RunError::Usage(e.to_string()))?;
    let oracle = Oracle::of(&grammar).with_budget(cli.oracle_budget());
    let json = cli.json;
    match &cli.command {
        Command::Check {
            rule,
            caret,
            script,
            inputs,
            ..
        } => {
            let rule = rule_arg(&grammar, rule.as_deref())?;
            // A verdict, as the built-in grammars' check: --valid-only keeps inputs.
            let style = Style {
                verdicts: true,
                ..style(cli, script)
            };
            check::run(&style, &Engine::User { rule, oracle }, *caret, inputs)
        }
        Command::Tree {
            rule,
            format,
            literals,
            caret,
            max_nodes,
            script,
            inputs,
        } => {
            if *literals {
                return Err(RunError::Usage(
                    "tree --literals is for the built-in grammars; with --abnf the tree shows rules"
                        .to_string(),
                ));
            }
            let rule = rule_arg(&grammar, rule.as_deref())?;
            let show = tree::Show {
                literals: false,
                caret: *caret,
            };
            let engine = Engine::User { rule, oracle };
            tree::run(
                &style(cli, script),
                &engine,
                *format,
                show,
                *max_nodes,
                inputs,
            )
        }
        Command::Generate {
            rule,
            n,
            seed,
            invalid: false,
            cover: false,
            generate_steps,
        } => {
            let rule = rule_arg(&grammar, Some(rule))?;
            let mut generator = Generator::of(&grammar, *seed).with_steps(*generate_steps);
            let failure = |e: DrawError| {
                RunError::Usage(match e {
                    DrawError::Budget { .. } => format!("{e}; --generate-steps raises it"),
                    e => e.to_string(),
                })
            };
            let shortest = generator
                .shortest(rule)
                .map_err(|e| RunError::Usage(e.to_string()))?;
            if shortest.is_none() {
                // An empty language: the generator says why, before anything is written.
                return Err(generator.generate(rule).err().map_or_else(
                    || RunError::Usage(format!("the language of rule {rule} is empty")),
                    failure,
                ));
            }
            if grammar.has_prose(rule) {
                crate::io::tell(&format!(
                    "iri: note: {rule} has prose (<...>), which matches nothing"
                ));
            }
            if let Some(length) = shortest.filter(|&l| l > MAX_LENGTH) {
                return Err(RunError::Usage(format!(
                    "the shortest string of {rule} has {length} characters, beyond the \
                     generator's limit of {MAX_LENGTH}"
                )));
            }
            let mut out = Out::new();
            for _ in 0..*n {
                let s = generator.generate(rule).map_err(failure)?;
                let written = if json {
                    writeln!(
                        out,
                        "{}",
                        Object::new()
                            .str("rule", rule)
                            .str("generated", &s)
                            .finish()
                    )
                } else {
                    writeln!(out, "{s}")
                };
                if let Err(e) = written {
                    return ended_by(e, true);
                }
            }
            out.finish(true)
        }
        Command::Grammar {
            rust: true,
            generate_steps,
            ..
        } => {
            // The standalone generator (what a build.rs calls): nom parsers for every
            // rule, or why it cannot make them exact; the oracle serves the grammar
            // either way.
            let module = module_name(&cli.abnf[cli.abnf.len() - 1]);
            let options = Options {
                steps: *generate_steps,
                ..Options::new(&module)
            };
            match generate(&grammar, &options) {
                Ok(code) => {
                    let mut out = Out::new();
                    match write!(out, "{code}") {
                        Ok(()) => out.finish(true),
                        Err(e) => ended_by(e, true),
                    }
                }
                Err(e @ GenerateError::Budget { .. }) => Err(RunError::Usage(format!(
                    "the code generator refuses {}: {e}; --generate-steps raises the budget \
                     (check, tree and generate serve it)",
                    grammar.name()
                ))),
                Err(e) => Err(RunError::Usage(format!(
                    "the code generator refuses {}: {e} (check, tree and generate serve it)",
                    grammar.name()
                ))),
            }
        }
        Command::Grammar { name, svg, .. } => {
            if *svg {
                return Err(RunError::Usage(
                    "grammar --svg is for the built-in grammars".to_string(),
                ));
            }
            let mut out = Out::new();
            let written = match name {
                None => grammar.rules().iter().try_for_each(|r| {
                    if json {
                        let o = Object::new()
                            .str("rule", &r.name)
                            .str("source", &r.source.to_string());
                        writeln!(out, "{}", o.finish())
                    } else {
                        writeln!(out, "{:<16} {}", r.name, r.source)
                    }
                }),
                Some(n) => {
                    let r = grammar
                        .rule(rule_arg(&grammar, Some(n))?)
                        .expect("rule_arg found it");
                    if json {
                        let o = Object::new()
                            .str("rule", &r.name)
                            .str("abnf", &r.text)
                            .str("source", &r.source.to_string());
                        writeln!(out, "{}", o.finish())
                    } else {
                        writeln!(out, "{}\n; {}", r.text, r.source)
                    }
                }
            };
            match written {
                Ok(()) => out.finish(true),
                Err(e) => ended_by(e, true),
            }
        }
        Command::Generate { .. } => Err(RunError::Usage(
            "with --abnf, generate draws matching strings; --invalid and --cover are for \
             the built-in grammars"
                .to_string(),
        )),
        _ => Err(RunError::Usage(
            "with --abnf, the commands are check, tree, generate and grammar (the others \
             need a grammar of references: --grammar uri, iri or leiri)"
                .to_string(),
        )),
    }
}

/// The module of the generated parsers: the last file's name as a Rust identifier
/// (`rfc6874.abnf` → `rfc6874`).
fn module_name(path: &std::path::Path) -> String {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let mut m: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !m.starts_with(|c: char| c.is_ascii_lowercase()) {
        m.insert_str(0, "abnf_");
    }
    m
}

/// The rule named on the command line: required (a grammar of one's own has no
/// reference rule to default to), and known, with its neighbours named if not.
fn rule_arg<'g>(grammar: &'g Grammar, name: Option<&str>) -> Result<&'g str, RunError> {
    let Some(name) = name else {
        let names: Vec<&str> = grammar
            .rules()
            .iter()
            .take(8)
            .map(|r| r.name.as_str())
            .collect();
        return Err(RunError::Usage(format!(
            "with --abnf, --rule names the rule to match (the grammar has {}{})",
            names.join(", "),
            if grammar.rules().len() > names.len() {
                ", ..."
            } else {
                ""
            }
        )));
    };
    match grammar.rule(name) {
        Some(r) => Ok(&r.name),
        None => {
            let hint = did_you_mean(grammar.rules().iter().map(|r| r.name.as_str()), name);
            Err(RunError::Usage(format!(
                "the {} grammar has no rule named {name:?}{hint}; `iri --abnf ... grammar` lists them",
                grammar.name()
            )))
        }
    }
}
