//! `iri --abnf FILE ...`: the commands of rules on a grammar of your own, through the
//! oracle (`iri_grammar_abnf::oracle`, `explain`): `check` (valid, or where and why
//! not), `tree` (text, JSON, Graphviz), `generate` (strings that match) and
//! `grammar` (the rules, or one rule's ABNF and source; `--rust`: nom parsers from
//! the standalone code generator, `codegen::standalone`, or why it refuses the
//! grammar). The commands run on the oracle, which interprets the ABNF exactly, with
//! errors and trees that read like the built-in grammars' (tests/it/oracle_explains.rs
//! compares them on those), whether or not the generator can make parsers of it.
//!
//! A grammar of one's own is untrusted input (SECURITY.md, "User grammars"): the reader
//! refuses groups nested past `model::reader::MAX_NESTING`, the oracle and the trees keep
//! their own stacks however deep the input nests, inputs are held to the oracle's
//! limit of [`ORACLE_MAX_BYTES`] as `check --oracle` holds them, and the generator
//! refuses a rule whose shortest string is longer than `generate::MAX_LENGTH`.

use super::check::ORACLE_MAX_BYTES;
use super::{
    caret_beside_copies, did_you_mean, graph_name, style, write_invalid_at, write_valid, Spent,
};
use crate::args::{Cli, Command, Format};
use crate::io::{each_input, ended_by, Failure, Judged, Out, Status, Style, Verdicts};
use crate::json::{self, Object};
use crate::report::Problem;
use iri_grammar_abnf::codegen::standalone::{generate, GenerateError, Options};
use iri_grammar_abnf::oracle::explain::{OracleFailure, OracleNode};
use iri_grammar_abnf::oracle::{Oracle, Unanswered};
use iri_grammar_abnf::strings::generate::{DrawError, Generator, MAX_LENGTH};
use iri_grammar_abnf::Grammar;
use std::io::Write;

pub fn run(cli: &Cli) -> Verdicts {
    let grammar = Grammar::read_files(&cli.abnf).map_err(|e| Failure::Usage(e.to_string()))?;
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
            caret_beside_copies(&style, *caret)?;
            let spent = Spent::default();
            let verdicts = each_input(inputs, &style, |input, out| {
                let verdict = match &input.text {
                    Err(e) => Err(Problem::not_utf8(input, e)),
                    Ok(s) if s.len() > ORACLE_MAX_BYTES => Err(beyond_the_limit(s)),
                    Ok(s) => match oracle.check(rule, s) {
                        Ok(Ok(())) => Ok(()),
                        Ok(Err(e)) => Err(Problem::of_oracle(&e)),
                        Err(Unanswered::Budget(e)) => Err(spent.problem(e)),
                        Err(e) => Err(Problem::other("grammar", e.to_string())),
                    },
                };
                match verdict {
                    Ok(()) => write_valid(out, json, input),
                    Err(p) => write_invalid_at(out, json, input, &p, *caret),
                }
            });
            spent.verdicts(verdicts)
        }
        Command::Tree {
            rule,
            format,
            literals,
            caret,
            // The oracle's trees are of lines of at most ORACLE_MAX_BYTES.
            max_nodes: _,
            script,
            inputs,
        } => {
            if *literals {
                return Err(Failure::Usage(
                    "tree --literals is for the built-in grammars; with --abnf the tree shows rules"
                        .to_string(),
                ));
            }
            let rule = rule_arg(&grammar, rule.as_deref())?;
            let json = json || *format == Format::Json;
            let style = style(cli, script);
            caret_beside_copies(&style, *caret)?;
            let spent = Spent::default();
            let verdicts = each_input(inputs, &style, |input, out| {
                let tree = match &input.text {
                    Err(e) => Err(Problem::not_utf8(input, e)),
                    Ok(s) if s.len() > ORACLE_MAX_BYTES => Err(beyond_the_limit(s)),
                    Ok(s) => oracle.tree(rule, s).map_err(|e| match e {
                        OracleFailure::NoMatch(e) => Problem::of_oracle(&e),
                        OracleFailure::Unknown(e) => Problem::other("grammar", e.to_string()),
                        e @ OracleFailure::TooManyEmptyMatches { .. } => {
                            Problem::other("oracle-limit", e.to_string())
                        }
                        OracleFailure::Budget(e) => spent.problem(e),
                    }),
                };
                match tree {
                    Ok(t) if json => {
                        out.push_str("{\"input\":");
                        json::string(t.input, out);
                        out.push_str(",\"valid\":true,");
                        let mut node = String::new();
                        node_json(t.input, &t.root, &mut node);
                        // The root's fields follow the input's, in the same object.
                        out.push_str(&node[1..]);
                        out.push('\n');
                    }
                    Ok(t) if *format == Format::Dot => {
                        let _ = t.write_dot(&mut **out, &graph_name(input.index));
                    }
                    Ok(t) => {
                        let _ = t.write_text(&mut **out);
                    }
                    Err(p) => return write_invalid_at(out, json, input, &p, *caret),
                }
                Judged::success()
            });
            spent.verdicts(verdicts)
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
                Failure::Usage(match e {
                    DrawError::Budget { .. } => format!("{e}; --generate-steps raises it"),
                    e => e.to_string(),
                })
            };
            let shortest = generator
                .shortest(rule)
                .map_err(|e| Failure::Usage(e.to_string()))?;
            if shortest.is_none() {
                // An empty language: the generator says why, before anything is written.
                return Err(generator.generate(rule).err().map_or_else(
                    || Failure::Usage(format!("the language of rule {rule} is empty")),
                    failure,
                ));
            }
            if grammar.has_prose(rule) {
                crate::io::tell(&format!(
                    "iri: note: {rule} has prose (<...>), which matches nothing"
                ));
            }
            if let Some(length) = shortest.filter(|&l| l > MAX_LENGTH) {
                return Err(Failure::Usage(format!(
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
                    return ended_by(e, true).map(Status::from);
                }
            }
            out.finish(true).map(Status::from)
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
                        Ok(()) => out.finish(true).map(Status::from),
                        Err(e) => ended_by(e, true).map(Status::from),
                    }
                }
                Err(e @ GenerateError::Budget { .. }) => Err(Failure::Usage(format!(
                    "the code generator refuses {}: {e}; --generate-steps raises the budget \
                     (check, tree and generate serve it)",
                    grammar.name()
                ))),
                Err(e) => Err(Failure::Usage(format!(
                    "the code generator refuses {}: {e} (check, tree and generate serve it)",
                    grammar.name()
                ))),
            }
        }
        Command::Grammar { name, svg, .. } => {
            if *svg {
                return Err(Failure::Usage(
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
                Ok(()) => out.finish(true).map(Status::from),
                Err(e) => ended_by(e, true).map(Status::from),
            }
        }
        Command::Generate { .. } => Err(Failure::Usage(
            "with --abnf, generate draws matching strings; --invalid and --cover are for \
             the built-in grammars"
                .to_string(),
        )),
        _ => Err(Failure::Usage(
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
fn rule_arg<'g>(grammar: &'g Grammar, name: Option<&str>) -> Result<&'g str, Failure> {
    let Some(name) = name else {
        let names: Vec<&str> = grammar
            .rules()
            .iter()
            .take(8)
            .map(|r| r.name.as_str())
            .collect();
        return Err(Failure::Usage(format!(
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
            Err(Failure::Usage(format!(
                "the {} grammar has no rule named {name:?}{hint}; `iri --abnf ... grammar` lists them",
                grammar.name()
            )))
        }
    }
}

/// The problem of an input longer than the oracle judges, as `check --oracle` says
/// it of the built-in grammars.
fn beyond_the_limit(s: &str) -> Problem {
    Problem::other(
        "oracle-limit",
        format!(
            "the input is {} bytes, beyond the oracle's limit of {ORACLE_MAX_BYTES} bytes \
             (its memory grows with the input's length); with --abnf the oracle judges \
             every input: `grammar --rust` makes parsers of the grammar that have no limit",
            s.len()
        ),
    )
}

/// `{"rule","text","start","end","alternative","of","children"}`, as the built-in
/// grammars' trees. With a stack of its own: a tree is as deep as the input nests.
fn node_json(input: &str, root: &OracleNode, out: &mut String) {
    let open = |n: &OracleNode, out: &mut String| {
        let mut o = Object::new()
            .str("rule", &n.rule)
            .str("text", &input[n.start..n.end])
            .num("start", n.start)
            .num("end", n.end);
        if let Some((k, of)) = n.alternative {
            o = o.num("alternative", k).num("of", of);
        }
        let fields = o.finish();
        out.push_str(&fields[..fields.len() - 1]);
        out.push_str(",\"children\":[");
    };
    open(root, out);
    // Each node with the number of its children written.
    let mut stack: Vec<(&OracleNode, usize)> = vec![(root, 0)];
    while let Some((n, written)) = stack.last_mut() {
        match n.children.get(*written) {
            Some(c) => {
                if *written > 0 {
                    out.push(',');
                }
                *written += 1;
                open(c, out);
                stack.push((c, 0));
            }
            None => {
                out.push_str("]}");
                stack.pop();
            }
        }
    }
}
