//! The `iri` command's line processing, end to end and in-process: the fuzz input is
//! standard input, run through a command of the real CLI (`iri_cli::run_in_memory`,
//! the library target of `cli/`; the binary is the same code with the process's
//! streams). This covers what the library targets do not: splitting lines (LF,
//! CRLF), lines that are not UTF-8, the JSON writer, each command's output format.
//!
//! Input: `STDIN [0xFF OPTIONS]` (raw bytes: not read as UTF-8 here); the options
//! pick the command, its flags and the grammar. Properties:
//! - the exit status is 0 or 1 (never a usage error, I/O error or panic), with
//!   nothing on standard error;
//! - standard output is UTF-8;
//! - with `--json`, exactly one JSON object per input line, whose `input` is the line
//!   (lossy for a line that is not UTF-8; `compare` gives the pair);
//! - the one-line-per-input commands (check, resolve, relativize, to-uri, to-iri,
//!   normalize, compare, prepare) write one line per input in text mode too.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use iri_grammar::{Rule, VariantName};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
enum Cmd {
    Check {
        rule: u8,
        oracle: bool,
    },
    Parse,
    Tree {
        rule: u8,
        format: u8,
    },
    Resolve {
        base: u8,
    },
    Relativize {
        base: u8,
    },
    ToUri {
        idna: bool,
    },
    ToIri {
        idna: bool,
    },
    Normalize {
        level: u8,
        chars: u8,
    },
    Compare {
        level: u8,
        ignore_fragment: bool,
    },
    Lint {
        display: bool,
        percent_encoded: bool,
    },
    Prepare {
        multi: bool,
    },
}

#[derive(Debug, Arbitrary)]
struct Options {
    cmd: Cmd,
    grammar: u8,
    json: bool,
}

const BASES: [&str; 5] = [
    "http://a/b/c/d;p?q",
    "f:/a",
    "foo:a/b",
    "http://résumé.example/x/y?z#f",
    "file:///",
];
/// A rule of the grammar by index (its own names: `host` is `ihost` in an IRI), or
/// none (the default rule) for index 0.
fn rule_name(variant: VariantName, k: u8) -> Option<&'static str> {
    let names: Vec<&'static str> = Rule::of(variant).map(|(n, _)| n).collect();
    (k != 0).then(|| names[usize::from(k) % names.len()])
}

const LEVELS: [&str; 3] = ["simple", "syntax", "scheme"];
/// The levels `normalize` takes: `simple` comparison has no normal form but the input,
/// so `iri normalize --level simple` is a usage error (status 2), rightly.
const NORMALIZE_LEVELS: [&str; 2] = ["syntax", "scheme"];

fuzz_target!(|data: &[u8]| {
    let (stdin, rest) = match data.iter().position(|&b| b == 0xFF) {
        Some(k) => (&data[..k], &data[k + 1..]),
        None => (data, &[][..]),
    };
    let mut u = Unstructured::new(rest);
    let o = Options::arbitrary(&mut u).unwrap_or(Options {
        cmd: Cmd::Check {
            rule: 0,
            oracle: false,
        },
        grammar: 0,
        json: true,
    });
    let grammar = ["iri", "uri", "leiri"][usize::from(o.grammar % 3)];
    let variant =
        [VariantName::Iri, VariantName::Uri, VariantName::Leiri][usize::from(o.grammar % 3)];
    let mut args: Vec<String> = vec!["iri".into()];
    if o.json {
        args.push("--json".into());
    }
    let mut one_line = true;
    let mut is_compare = false;
    // Every command here but `prepare` reads with a grammar; `prepare` refuses
    // `--grammar` (a usage error, status 2: cli/src/args.rs, `uses`).
    let mut uses_grammar = true;
    match o.cmd {
        Cmd::Check { rule, oracle } => {
            args.push("check".into());
            if let Some(rule) = rule_name(variant, rule) {
                args.extend(["--rule".into(), rule.into()]);
            }
            // The oracle is slow on long inputs (its limit is 4 KiB); keep runs fast.
            if oracle && stdin.len() <= 256 {
                args.push("--oracle".into());
            }
        }
        Cmd::Parse => {
            args.push("parse".into());
            one_line = false;
        }
        Cmd::Tree { rule, format } => {
            args.push("tree".into());
            if let Some(rule) = rule_name(variant, rule) {
                args.extend(["--rule".into(), rule.into()]);
            }
            args.extend([
                "--format".into(),
                ["text", "json", "dot"][usize::from(format % 3)].into(),
            ]);
            one_line = false;
        }
        Cmd::Resolve { base } | Cmd::Relativize { base } => {
            let name = if matches!(o.cmd, Cmd::Resolve { .. }) {
                "resolve"
            } else {
                "relativize"
            };
            let base = BASES[usize::from(base) % BASES.len()];
            if grammar == "uri" && !base.is_ascii() {
                return;
            }
            args.extend([name.into(), base.into()]);
        }
        Cmd::ToUri { idna } | Cmd::ToIri { idna } => {
            args.push(
                if matches!(o.cmd, Cmd::ToUri { .. }) {
                    "to-uri"
                } else {
                    "to-iri"
                }
                .into(),
            );
            if idna {
                args.push("--idna".into());
            }
        }
        Cmd::Normalize { level, chars } => {
            args.extend([
                "normalize".into(),
                "--level".into(),
                NORMALIZE_LEVELS[usize::from(level % 2)].into(),
            ]);
            match chars % 3 {
                1 => args.push("--nfc".into()),
                2 => args.push("--nfkc".into()),
                _ => {}
            }
        }
        Cmd::Compare {
            level,
            ignore_fragment,
        } => {
            args.extend([
                "compare".into(),
                "--level".into(),
                LEVELS[usize::from(level % 3)].into(),
            ]);
            if ignore_fragment {
                args.push("--ignore-fragment".into());
            }
            is_compare = true;
        }
        Cmd::Lint {
            display,
            percent_encoded,
        } => {
            args.push("lint".into());
            if display {
                args.push("--display".into());
            }
            if percent_encoded {
                args.push("--percent-encoded".into());
            }
            one_line = false;
        }
        Cmd::Prepare { multi } => {
            uses_grammar = false;
            args.push("prepare".into());
            if multi {
                args.push("--multi".into());
            }
        }
    }
    if uses_grammar {
        args.splice(1..1, ["--grammar".to_string(), grammar.to_string()]);
    }
    let run = iri_cli::run_in_memory(&args, stdin);
    assert!(
        run.status <= 1,
        "{args:?}: status {}: {}",
        run.status,
        run.stderr
    );
    assert!(run.stderr.is_empty(), "{args:?}: {}", run.stderr);
    let out = std::str::from_utf8(&run.stdout).expect("standard output is UTF-8");
    // The input lines as the CLI reads them: LF or CRLF ends a line; the last line
    // needs no LF, and a CR that no LF follows is part of its line (finding 8 was this
    // model stripping it from an unterminated last line).
    let mut lines: Vec<&[u8]> = stdin.split(|&b| b == b'\n').collect();
    let unterminated = match lines.pop() {
        Some(last) if !last.is_empty() => Some(last),
        _ => None,
    };
    let lines: Vec<&[u8]> = lines
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .chain(unterminated)
        .collect();
    let records: Vec<&str> = out.lines().collect();
    if o.json {
        assert_eq!(records.len(), lines.len(), "{args:?}: {out}");
        for (record, line) in records.iter().zip(&lines) {
            let v: serde_json::Value = serde_json::from_str(record)
                .unwrap_or_else(|e| panic!("{args:?}: {record:?} is no JSON: {e}"));
            let line = String::from_utf8_lossy(line);
            match &v["input"] {
                serde_json::Value::String(s) => assert_eq!(*s, line, "{args:?}"),
                serde_json::Value::Array(pair) if is_compare => {
                    let joined = format!(
                        "{}\t{}",
                        pair[0].as_str().unwrap(),
                        pair[1].as_str().unwrap()
                    );
                    assert_eq!(joined, line, "{args:?}");
                }
                other => panic!("{args:?}: input is {other}"),
            }
        }
    } else if one_line {
        assert_eq!(records.len(), lines.len(), "{args:?}: {out:?}");
    }
});
