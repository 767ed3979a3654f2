//! `iri`: the command line of iri-grammar (contract: DESIGN.md, "The `iri` command line").
//!
//! `iri [--grammar uri|iri|leiri] [--json] <command> [options] [INPUT...]`; with no
//! INPUT, one input per line of standard input, one result per input, streamed.
//! Exit status: 0 when every input succeeded, 1 when any did not, 2 for a usage error.

use clap::{Parser, Subcommand, ValueEnum};
use iri_grammar::abnf::{codegen, oracle::Oracle, Grammars, VariantName};
use iri_grammar::convert::{leiri_to_iri, to_iri, to_uri, ToIri, ToUri};
use iri_grammar::grammar::{check, Iri, Leiri, MatchError, Rule, Uri, Variant};
use iri_grammar::normalize::{
    compare, normalize, CharNorm, Comparison, Level, Options as NormOptions,
};
use iri_grammar::prepare::{prepare, prepare_multi};
use iri_grammar::reference::{HostKind, Reference};
use iri_grammar::tree::{tree_of, ParseTree};
use iri_grammar::{bidi, lint};
use serde_json::{json, Value};
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "iri",
    version,
    about = "The ABNF of RFC 3986 (URI), RFC 3987 (IRI) and LEIRI, executable",
    after_help = "With no INPUT, inputs are read from standard input, one per line.\n\
                  Exit status: 0 all inputs succeeded, 1 some did not, 2 usage error."
)]
struct Cli {
    /// The grammar of the input.
    #[arg(long, value_enum, default_value_t = GrammarArg::Iri, global = true)]
    grammar: GrammarArg,
    /// One JSON object per input (JSON Lines).
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum GrammarArg {
    /// RFC 3986.
    Uri,
    /// RFC 3987.
    Iri,
    /// The W3C LEIRI note.
    Leiri,
}

impl GrammarArg {
    fn variant(self) -> VariantName {
        match self {
            GrammarArg::Uri => VariantName::Uri,
            GrammarArg::Iri => VariantName::Iri,
            GrammarArg::Leiri => VariantName::Leiri,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum LevelArg {
    /// Code point equality (RFC 3987 §5.3.1).
    Simple,
    /// Syntax-based (§5.3.2).
    Syntax,
    /// Scheme-based (§5.3.3).
    Scheme,
}

impl LevelArg {
    fn level(self) -> Level {
        match self {
            LevelArg::Simple => Level::Simple,
            LevelArg::Syntax => Level::Syntax,
            LevelArg::Scheme => Level::Scheme,
        }
    }
}

fn char_norm(nfc: bool, nfkc: bool) -> CharNorm {
    match (nfc, nfkc) {
        (true, _) => CharNorm::Nfc,
        (_, true) => CharNorm::Nfkc,
        _ => CharNorm::None,
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Dot,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Does each input match the rule? Prints `valid` or `invalid: ` and why.
    Check {
        /// The rule, in the grammar's own naming (default: URI-reference,
        /// IRI-reference or LEIRI-reference).
        #[arg(long)]
        rule: Option<String>,
        /// Answer with the ABNF oracle (an interpreter with exact ABNF semantics)
        /// instead of the generated combinators.
        #[arg(long)]
        oracle: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The parse tree of each input: one rule a line, indented.
    Tree {
        /// The rule, in the grammar's own naming (default: the reference rule).
        #[arg(long)]
        rule: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The ABNF of a rule with its source, or the names of all rules.
    Grammar {
        /// The rule, in the grammar's own naming.
        name: Option<String>,
        /// Also print the generated combinator.
        #[arg(long)]
        rust: bool,
    },
    /// The components of each input (absent ones are left out; --json: null).
    Parse {
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Resolves each reference against BASE (RFC 3986 §5.2, strict).
    Resolve {
        /// The base: an absolute IRI of the grammar.
        base: String,
        /// References (default: lines of standard input).
        references: Vec<String>,
    },
    /// The shortest reference that resolves to each TARGET against BASE.
    Relativize {
        /// The base: an absolute IRI of the grammar.
        base: String,
        /// Targets (default: lines of standard input).
        targets: Vec<String>,
    },
    /// IRI → URI (RFC 3987 §3.1); with --grammar leiri, from a LEIRI.
    ToUri {
        /// Convert non-ASCII labels of DNS hosts with ToASCII (UTS 46).
        #[arg(long)]
        idna: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// URI → IRI (RFC 3987 §3.2); with --grammar leiri, LEIRI → IRI (LEIRI note §3).
    ToIri {
        /// Convert xn-- labels of DNS hosts with ToUnicode.
        #[arg(long)]
        idna: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Prepares arbitrary strings as IRI references (IRI processing draft §4-5).
    Prepare {
        /// Several references per input, separated by spaces (printed space-separated).
        #[arg(long)]
        multi: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The normal form of each input (RFC 3987 §5.3; default level syntax).
    Normalize {
        /// syntax or scheme.
        #[arg(long, value_enum, default_value_t = LevelArg::Syntax)]
        level: LevelArg,
        /// Unicode NFC first (for text that came from a non-Unicode encoding).
        #[arg(long, conflicts_with = "nfkc")]
        nfc: bool,
        /// Unicode NFKC first (for text that came from paper).
        #[arg(long)]
        nfkc: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Are A and B equivalent? Prints equivalent, different or unknown (exit 0, 1, 1).
    /// With no A and B, each line of standard input holds A TAB B.
    Compare {
        /// simple, syntax or scheme.
        #[arg(long, value_enum, default_value_t = LevelArg::Syntax)]
        level: LevelArg,
        /// Unicode NFC first.
        #[arg(long, conflicts_with = "nfkc")]
        nfc: bool,
        /// Unicode NFKC first.
        #[arg(long)]
        nfkc: bool,
        /// Compare without fragments.
        #[arg(long)]
        ignore_fragment: bool,
        /// A and B.
        pair: Vec<String>,
    },
    /// The prose rules on top of the grammar (RFC 3987 §4, §6.1, §7.5; the LEIRI note):
    /// one finding a line, `CODE offset message`; nothing for a clean input. Exit 1 if
    /// any finding is an error.
    Lint {
        /// Print each input's display form for a bidi context (RFC 3987 §4.1, §7.6).
        #[arg(long)]
        display: bool,
        /// Print the catalogue of findings.
        #[arg(long)]
        list: bool,
        /// Also look inside percent-encodings for bidi formatting characters.
        #[arg(long)]
        percent_encoded: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Strings that match a rule, generated from the grammar (text output leaves out
    /// strings with line breaks, which LEIRIs may contain; --json keeps them).
    Generate {
        /// The rule, in the grammar's own naming.
        #[arg(long)]
        rule: String,
        /// How many strings.
        #[arg(short = 'n', default_value_t = 10)]
        n: u64,
        /// The seed: the same seed gives the same strings.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

/// A usage error: message to standard error, exit status 2.
struct Usage(String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    let variant = cli.grammar.variant();
    let result = match variant {
        VariantName::Uri => run::<Uri>(&cli),
        VariantName::Iri => run::<Iri>(&cli),
        VariantName::Leiri => run::<Leiri>(&cli),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Usage(msg)) => {
            eprintln!("iri: {msg}");
            ExitCode::from(2)
        }
    }
}

/// The rule named `name` in `V`'s grammar, or the grammar's reference rule.
fn rule_arg<V: Variant>(name: Option<&str>) -> Result<Rule, Usage> {
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
        Usage(format!(
            "the {} grammar has no rule named {name:?}{hint}; `iri --grammar {} grammar` lists them",
            V::NAME.as_str(),
            V::NAME.as_str()
        ))
    })
}

fn run<V: Variant>(cli: &Cli) -> Result<bool, Usage> {
    match &cli.command {
        Command::Check {
            rule,
            oracle,
            inputs,
        } => {
            let r = rule_arg::<V>(rule.as_deref())?;
            let grammars = Grammars::builtin();
            let oracle = oracle.then(|| Oracle::new(&grammars, V::NAME));
            let name = r.name::<V>();
            each_input(inputs, |out, input| {
                let verdict: Result<(), String> = match (&oracle, input) {
                    (_, Err(e)) => Err(e.clone()),
                    (Some(o), Ok(s)) => match o.matches(name, s) {
                        Ok(true) => Ok(()),
                        Ok(false) => Err(format!("the oracle finds no match of {name}")),
                        Err(e) => Err(e.to_string()),
                    },
                    (None, Ok(s)) => check::<V>(r, s).map_err(|e: MatchError| e.to_string()),
                };
                if cli.json {
                    let v = json!({
                        "input": input_text(input),
                        "valid": verdict.is_ok(),
                        "error": verdict.as_ref().err(),
                    });
                    writeln!(out, "{v}")?;
                } else {
                    match &verdict {
                        Ok(()) => writeln!(out, "valid")?,
                        Err(e) => writeln!(out, "invalid: {e}")?,
                    }
                }
                Ok(verdict.is_ok())
            })
        }
        Command::Tree {
            rule,
            format,
            inputs,
        } => {
            let r = rule_arg::<V>(rule.as_deref())?;
            each_input(inputs, |out, input| {
                let tree = match input {
                    Ok(s) => tree_of::<V>(r, s).map_err(|e| e.to_string()),
                    Err(e) => Err(e.clone()),
                };
                match (&tree, cli.json) {
                    (Ok(t), true) => {
                        let mut v = t.to_json();
                        if let Value::Object(m) = &mut v {
                            m.insert("input".into(), json!(t.input));
                            m.insert("valid".into(), json!(true));
                        }
                        writeln!(out, "{v}")?;
                    }
                    (Err(e), true) => writeln!(
                        out,
                        "{}",
                        json!({"input": input_text(input), "valid": false, "error": e})
                    )?,
                    (Ok(t), false) => write_tree(out, t, *format)?,
                    (Err(e), false) => writeln!(out, "invalid: {e}")?,
                }
                Ok(tree.is_ok())
            })
        }
        Command::Parse { inputs } => {
            let mut first = true;
            each_input(inputs, |out, input| {
                // Records of several lines are separated by a blank line.
                if !cli.json && !std::mem::take(&mut first) {
                    writeln!(out)?;
                }
                let parsed = match input {
                    Ok(s) => Reference::<V>::parse(s).map_err(|e| e.to_string()),
                    Err(e) => Err(e.clone()),
                };
                match (&parsed, cli.json) {
                    (Ok(r), true) => writeln!(
                        out,
                        "{}",
                        json!({
                            "input": r.as_str(),
                            "scheme": r.scheme(),
                            "authority": r.authority(),
                            "userinfo": r.userinfo(),
                            "host": r.host(),
                            "host_kind": r.host_kind().map(HostKind::as_str),
                            "port": r.port(),
                            "path": r.path(),
                            "query": r.query(),
                            "fragment": r.fragment(),
                        })
                    )?,
                    (Ok(r), false) => {
                        let fields = [
                            ("scheme", r.scheme()),
                            ("userinfo", r.userinfo()),
                            ("host", r.host()),
                            ("host-kind", r.host_kind().map(HostKind::as_str)),
                            ("port", r.port()),
                            ("path", Some(r.path())),
                            ("query", r.query()),
                            ("fragment", r.fragment()),
                        ];
                        for (name, value) in fields {
                            if let Some(v) = value {
                                writeln!(out, "{name}: {v}")?;
                            }
                        }
                    }
                    (Err(e), true) => writeln!(
                        out,
                        "{}",
                        json!({"input": input_text(input), "valid": false, "error": e})
                    )?,
                    (Err(e), false) => writeln!(out, "invalid: {e}")?,
                }
                Ok(parsed.is_ok())
            })
        }
        Command::Resolve { base, references } => {
            let base = parse_base::<V>(base)?;
            each_reference::<V, V>(cli, references, "target", |r| {
                r.resolve(&base).map_err(|e| e.to_string())
            })
        }
        Command::Relativize { base, targets } => {
            let base = parse_base::<V>(base)?;
            each_reference::<V, V>(cli, targets, "reference", |t| {
                t.relativize(&base).map_err(|e| e.to_string())
            })
        }
        Command::ToUri { idna, inputs } => each_reference::<V, Uri>(cli, inputs, "uri", |r| {
            to_uri(&r, ToUri { idna: *idna }).map_err(|e| e.to_string())
        }),
        Command::ToIri { idna, inputs } => each_reference::<V, Iri>(cli, inputs, "iri", |r| {
            if V::NAME == VariantName::Leiri {
                leiri_to_iri(&r)
            } else {
                to_iri(&r, ToIri { idna: *idna })
            }
            .map_err(|e| e.to_string())
        }),
        Command::Prepare { multi, inputs } => each_input(inputs, |out, input| {
            let results: Vec<Result<String, String>> = match input {
                Ok(s) if *multi => prepare_multi(s)
                    .into_iter()
                    .map(|r| r.map(|r| r.to_string()).map_err(|e| e.to_string()))
                    .collect(),
                Ok(s) => vec![prepare(s).map(|r| r.to_string()).map_err(|e| e.to_string())],
                Err(e) => vec![Err(e.clone())],
            };
            let ok = results.iter().all(Result::is_ok);
            if cli.json {
                let prepared: Vec<Value> = results
                    .iter()
                    .map(|r| r.as_ref().map_or(Value::Null, |s| json!(s)))
                    .collect();
                let errors: Vec<&String> =
                    results.iter().filter_map(|r| r.as_ref().err()).collect();
                let prepared = if *multi {
                    json!(prepared)
                } else {
                    prepared[0].clone()
                };
                let mut v = json!({"input": input_text(input), "prepared": prepared});
                if !errors.is_empty() {
                    v["error"] = json!(errors
                        .iter()
                        .map(|e| e.as_str())
                        .collect::<Vec<_>>()
                        .join("; "));
                }
                writeln!(out, "{v}")?;
            } else if ok {
                let texts: Vec<&str> = results.iter().filter_map(|r| r.as_deref().ok()).collect();
                writeln!(out, "{}", texts.join(" "))?;
            } else {
                let errors: Vec<&str> = results
                    .iter()
                    .filter_map(|r| r.as_ref().err().map(String::as_str))
                    .collect();
                writeln!(out, "invalid: {}", errors.join("; "))?;
            }
            Ok(ok)
        }),
        Command::Normalize {
            level,
            nfc,
            nfkc,
            inputs,
        } => {
            if *level == LevelArg::Simple {
                return Err(Usage("normalize takes --level syntax or scheme (simple comparison has no normal form)".into()));
            }
            let options = NormOptions {
                chars: char_norm(*nfc, *nfkc),
                ignore_fragment: false,
            };
            each_reference::<V, V>(cli, inputs, "normalized", |r| {
                normalize(&r, level.level(), options).map_err(|e| e.to_string())
            })
        }
        Command::Compare {
            level,
            nfc,
            nfkc,
            ignore_fragment,
            pair,
        } => {
            let options = NormOptions {
                chars: char_norm(*nfc, *nfkc),
                ignore_fragment: *ignore_fragment,
            };
            let judge = |a: &str, b: &str| -> Comparison {
                match (Reference::<V>::parse(a), Reference::<V>::parse(b)) {
                    (Ok(x), Ok(y)) => compare(&x, &y, level.level(), options),
                    (Err(e), _) => Comparison::Unknown(format!("{a:?} is invalid: {e}")),
                    (_, Err(e)) => Comparison::Unknown(format!("{b:?} is invalid: {e}")),
                }
            };
            let write = |out: &mut dyn Write,
                         a: &str,
                         b: &str,
                         c: &Comparison|
             -> io::Result<bool> {
                if cli.json {
                    let (equivalent, reason) = match c {
                        Comparison::Equivalent => (json!(true), Value::Null),
                        Comparison::Different => (json!(false), Value::Null),
                        Comparison::Unknown(why) => (Value::Null, json!(why)),
                    };
                    writeln!(
                        out,
                        "{}",
                        json!({"input": [a, b], "a": a, "b": b, "equivalent": equivalent, "unknown": reason})
                    )?;
                } else {
                    match c {
                        Comparison::Equivalent => writeln!(out, "equivalent")?,
                        Comparison::Different => writeln!(out, "different")?,
                        Comparison::Unknown(why) => writeln!(out, "unknown: {why}")?,
                    }
                }
                Ok(*c == Comparison::Equivalent)
            };
            match pair.as_slice() {
                [a, b] => {
                    let stdout = io::stdout();
                    let mut out = BufWriter::new(stdout.lock());
                    let ok = write(&mut out, a, b, &judge(a, b)).unwrap_or(false);
                    let _ = out.flush();
                    Ok(ok)
                }
                [] => each_input(&[], |out, input| match input {
                    Ok(line) => match line.split_once('\t') {
                        Some((a, b)) => write(out, a, b, &judge(a, b)),
                        None => {
                            writeln!(out, "invalid: a line holds A, a TAB, and B")?;
                            Ok(false)
                        }
                    },
                    Err(e) => {
                        writeln!(out, "invalid: {e}")?;
                        Ok(false)
                    }
                }),
                _ => Err(Usage("compare takes two references, A and B (or none: A TAB B per line of standard input)".into())),
            }
        }
        Command::Lint {
            display,
            list,
            percent_encoded,
            inputs,
        } => {
            if *list {
                let stdout = io::stdout();
                let mut out = BufWriter::new(stdout.lock());
                let _ = if cli.json {
                    writeln!(out, "{}", lint::catalogue_json())
                } else {
                    write!(out, "{}", lint::catalogue_text())
                };
                let _ = out.flush();
                return Ok(true);
            }
            let options = lint::Options {
                check_percent_encoded: *percent_encoded,
                ..lint::Options::default()
            };
            each_input(inputs, |out, input| {
                let r = match input {
                    Ok(s) => Reference::<V>::parse(s).map_err(|e| e.to_string()),
                    Err(e) => Err(e.clone()),
                };
                let r = match r {
                    Ok(r) => r,
                    Err(e) => {
                        if cli.json {
                            writeln!(
                                out,
                                "{}",
                                json!({"input": input_text(input), "valid": false, "error": e})
                            )?;
                        } else {
                            writeln!(out, "invalid: {e}")?;
                        }
                        return Ok(false);
                    }
                };
                let findings = lint::lint(&r, &options);
                if cli.json {
                    let mut v =
                        json!({"input": r.as_str(), "findings": lint::findings_json(&findings)});
                    if *display {
                        v["display"] = json!(bidi::display_form(r.as_str()));
                    }
                    writeln!(out, "{v}")?;
                } else {
                    for f in &findings {
                        writeln!(out, "{f}")?;
                    }
                    if *display {
                        writeln!(out, "{}", bidi::display_form(r.as_str()))?;
                    }
                }
                Ok(!lint::has_errors(&findings))
            })
        }
        Command::Grammar { name, rust } => grammar_command::<V>(name.as_deref(), *rust, cli.json),
        Command::Generate { rule, n, seed } => {
            let r = rule_arg::<V>(Some(rule))?;
            let grammars = Grammars::builtin();
            let mut generator =
                iri_grammar::abnf::generate::Generator::new(&grammars, V::NAME, *seed);
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            for _ in 0..*n {
                // LEIRIs may contain line breaks (ucschar includes %x0-1F); one string a
                // line cannot carry them, so text output draws again. JSON escapes them.
                let mut s = String::new();
                for _ in 0..1000 {
                    s = generator
                        .generate(r.name::<V>())
                        .map_err(|e| Usage(e.to_string()))?;
                    if cli.json || !s.contains(['\n', '\r']) {
                        break;
                    }
                }
                let written = if cli.json {
                    writeln!(out, "{}", json!({"rule": r.name::<V>(), "generated": s}))
                } else {
                    writeln!(out, "{s}")
                };
                if written.is_err() {
                    break;
                }
            }
            let _ = out.flush();
            Ok(true)
        }
    }
}

/// Parses each input as a reference of `V`, applies `f`, and prints the resulting
/// reference (JSON: under `field`); an invalid input or a failed `f` is `invalid: `.
fn each_reference<V: Variant, W: Variant>(
    cli: &Cli,
    inputs: &[String],
    field: &str,
    f: impl Fn(Reference<'_, V>) -> Result<Reference<'static, W>, String>,
) -> Result<bool, Usage> {
    each_input(inputs, |out, input| {
        let result = match input {
            Ok(s) => Reference::<V>::parse(s)
                .map_err(|e| e.to_string())
                .and_then(&f),
            Err(e) => Err(e.clone()),
        };
        write_result(out, cli.json, input, field, &result)
    })
}

/// The base of `resolve` and `relativize`: a usage error if it is not a reference of
/// the grammar or has no scheme.
fn parse_base<V: Variant>(base: &str) -> Result<Reference<'static, V>, Usage> {
    let r = Reference::<V>::parse_owned(base.to_string())
        .map_err(|e| Usage(format!("the base {base:?} is invalid: {e}")))?;
    if r.scheme().is_none() {
        return Err(Usage(format!(
            "the base {base:?} has no scheme; RFC 3986 §5.1 needs an absolute IRI"
        )));
    }
    Ok(r)
}

/// One result line: the value, or `invalid: ` / `error: ` and why.
fn write_result<V0: Variant>(
    out: &mut dyn Write,
    json_out: bool,
    input: &Result<&str, String>,
    field: &str,
    result: &Result<Reference<'static, V0>, String>,
) -> io::Result<bool> {
    if json_out {
        let mut v = json!({"input": input_text(input)});
        match result {
            Ok(r) => v[field] = json!(r.as_str()),
            Err(e) => {
                v[field] = Value::Null;
                v["error"] = json!(e);
            }
        }
        writeln!(out, "{v}")?;
    } else {
        match result {
            Ok(r) => writeln!(out, "{r}")?,
            Err(e) => writeln!(out, "invalid: {e}")?,
        }
    }
    Ok(result.is_ok())
}

fn write_tree(out: &mut dyn Write, t: &ParseTree<'_>, format: Format) -> io::Result<()> {
    match format {
        Format::Text => write!(out, "{}", t.to_text()),
        Format::Json => writeln!(out, "{}", t.to_json()),
        Format::Dot => write!(out, "{}", t.to_dot()),
    }
}

fn grammar_command<V: Variant>(
    name: Option<&str>,
    rust: bool,
    json_out: bool,
) -> Result<bool, Usage> {
    let g = Grammars::builtin();
    let table = g.table(V::NAME);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let Some(name) = name else {
        for (n, r) in Rule::of(V::NAME) {
            let src = r.source();
            if json_out {
                let _ = writeln!(out, "{}", json!({"rule": n, "source": src}));
            } else {
                let _ = writeln!(out, "{n:<16} {src}");
            }
        }
        let _ = out.flush();
        return Ok(true);
    };
    let r = rule_arg::<V>(Some(name))?;
    let vname = r.name::<V>();
    // The definition as the variant's own document writes it (RFC 3986's text under Uri).
    let def = table
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(vname))
        .or_else(|| {
            table
                .iter()
                .find(|d| d.name.eq_ignore_ascii_case(r.iri_name()))
        });
    let (abnf, source) = match def {
        Some(d) => (d.text.clone(), d.source.to_string()),
        None => (r.abnf().to_string(), r.source().to_string()),
    };
    let mut notes = Vec::new();
    if !vname.eq_ignore_ascii_case(r.iri_name()) {
        notes.push(format!(
            "matched by the combinator of RFC 3987's {} under {:?}",
            r.iri_name(),
            V::NAME
        ));
    }
    let code = if rust {
        codegen::rule_source(&g, r.iri_name())
    } else {
        None
    };
    if json_out {
        let v =
            json!({"rule": vname, "abnf": abnf, "source": source, "notes": notes, "rust": code});
        let _ = writeln!(out, "{v}");
    } else {
        let _ = writeln!(out, "{abnf}");
        let _ = writeln!(out, "; {source}");
        for n in &notes {
            let _ = writeln!(out, "; {n}");
        }
        if let Some(code) = code {
            let _ = writeln!(out, "\n{code}");
        }
    }
    let _ = out.flush();
    Ok(true)
}

fn input_text(input: &Result<&str, String>) -> String {
    match input {
        Ok(s) => s.to_string(),
        Err(_) => String::new(),
    }
}

/// Runs `f` on each input, from the arguments or from standard input (one per line,
/// LF or CRLF stripped; a line that is not UTF-8 is an `Err` for that input only).
/// Output is flushed whenever no more input is waiting, so results stream.
fn each_input(
    inputs: &[String],
    mut f: impl FnMut(&mut dyn Write, &Result<&str, String>) -> io::Result<bool>,
) -> Result<bool, Usage> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut all_ok = true;
    let mut run = |out: &mut BufWriter<io::StdoutLock<'_>>, input: &Result<&str, String>| -> bool {
        match f(out, input) {
            Ok(ok) => {
                all_ok &= ok;
                true
            }
            // A closed pipe (e.g. `| head`) ends the run quietly.
            Err(_) => false,
        }
    };
    if !inputs.is_empty() {
        for s in inputs {
            if !run(&mut out, &Ok(s.as_str())) {
                break;
            }
        }
        let _ = out.flush();
        return Ok(all_ok);
    }
    let stdin = io::stdin();
    let mut reader = io::BufReader::with_capacity(64 * 1024, stdin.lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => return Err(Usage(format!("reading standard input: {e}"))),
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        let input = std::str::from_utf8(&line).map_err(|e| {
            format!(
                "the input is not UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            )
        });
        if !run(&mut out, &input) {
            break;
        }
        if reader.buffer().is_empty() {
            let _ = out.flush();
        }
    }
    let _ = out.flush();
    Ok(all_ok)
}
