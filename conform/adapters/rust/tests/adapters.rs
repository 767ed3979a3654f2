//! The adapters of `conform/adapters/` speak the `iri conform` protocol
//! (docs/conform-protocol.md): each is started as `iri conform` starts it, written
//! one input at a time and made to answer it before the next (an answer left in a
//! buffer fails here as it would hang there), and each answer is checked to be one
//! of the protocol's forms, one per input, in order. Verdicts that no reading of the
//! standards can dispute are checked too: a reference with every component is valid
//! and its components, where given, are its text; a space is refused by the strict
//! parsers; the empty string is a relative reference.
//!
//! An adapter whose runtime (python3, node, java, ruby, perl, go) or package is
//! missing is skipped with a line `SKIPPED <adapter>: <why>`, except under
//! `CI=true`, where it fails: .ci/run installs them. Python adapters run with the
//! interpreter named by `IRI_CONFORM_PYTHON` (.ci/run's venv), else `python3`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::Value;

/// How long an answer may take: the first includes starting a JVM that compiles
/// the source, or Lark building an Earley parser; a hang guard, not a measure.
const FIRST_ANSWER: Duration = Duration::from_secs(60);
const ANSWER: Duration = Duration::from_secs(20);

/// What an adapter is expected to decide, by the standard it follows.
struct Adapter {
    name: &'static str,
    /// Program and arguments, as a user runs it from the repository's root.
    command: Vec<String>,
    /// The grammars it is asked in (`IRI_CONFORM_GRAMMAR`).
    grammars: &'static [&'static str],
    /// Takes relative references (the WHATWG parsers take absolute URLs only).
    relative: bool,
    /// Refuses a space and a line feed (rfc3986 percent-encodes them first).
    strict: bool,
    /// Judges non-ASCII by the grammar: an IRI in `iri`, refused in `uri`.
    rfc_characters: bool,
    /// The rule asked (`IRI_CONFORM_RULE`), where not the grammar's reference rule.
    rule: Option<&'static str>,
    /// Accepts the reference with every component, `FULL` (validators wants a
    /// dotted host name and a query of `key=value` pairs).
    accepts_full: bool,
    /// Verdicts of its own, where its standard is its own.
    extra: &'static [(&'static str, bool)],
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn adapters() -> Vec<Adapter> {
    let rust = |name: &'static str, bin: &str, grammars, relative, strict, rfc| Adapter {
        name,
        command: vec![bin.to_owned()],
        grammars,
        relative,
        strict,
        rfc_characters: rfc,
        rule: None,
        accepts_full: true,
        extra: &[],
    };
    let python = std::env::var("IRI_CONFORM_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = |name: &'static str, file: &str, grammars, strict| Adapter {
        name,
        command: vec![
            python.clone(),
            root()
                .join("conform/adapters/python")
                .join(file)
                .display()
                .to_string(),
        ],
        grammars,
        relative: true,
        strict,
        rfc_characters: true,
        rule: None,
        accepts_full: true,
        extra: &[],
    };
    let both: &[&str] = &["uri", "iri"];
    vec![
        rust(
            "oxiri",
            env!("CARGO_BIN_EXE_oxiri"),
            &["iri"],
            true,
            true,
            true,
        ),
        rust(
            "fluent-uri",
            env!("CARGO_BIN_EXE_fluent-uri"),
            both,
            true,
            true,
            true,
        ),
        rust(
            "iri-string",
            env!("CARGO_BIN_EXE_iri-string"),
            both,
            true,
            true,
            true,
        ),
        rust("url", env!("CARGO_BIN_EXE_url"), both, false, false, false),
        script("rfc3987", "rfc3987_adapter.py", both, true),
        script("rfc3986", "rfc3986_adapter.py", &["uri"], false),
        script(
            "rfc3987-syntax",
            "rfc3987_syntax_adapter.py",
            &["iri"],
            true,
        ),
        script(
            "rfc3987-syntax2",
            "rfc3987_syntax2_adapter.py",
            &["iri"],
            true,
        ),
        Adapter {
            name: "node URL",
            command: vec![
                "node".to_owned(),
                root()
                    .join("conform/adapters/node/url.mjs")
                    .display()
                    .to_string(),
            ],
            grammars: both,
            relative: false,
            strict: false,
            rfc_characters: false,
            rule: None,
            accepts_full: true,
            extra: &[],
        },
        Adapter {
            name: "java.net.URI",
            command: vec![
                "java".to_owned(),
                root()
                    .join("conform/adapters/java/JavaNetUri.java")
                    .display()
                    .to_string(),
            ],
            grammars: both,
            relative: true,
            strict: true,
            rfc_characters: false,
            rule: None,
            accepts_full: true,
            extra: &[],
        },
    ]
    .into_iter()
    .chain(popular(&python))
    .collect()
}

/// The parsers people run most: npm's (conform/adapters/node, `npm ci` there),
/// PyPI's, and Debian's Ruby, Perl and Go.
fn popular(python: &str) -> Vec<Adapter> {
    let uri: &[&str] = &["uri"];
    let both: &[&str] = &["uri", "iri"];
    let adapter =
        |name, program: &str, file: &str, grammars, rule, (relative, strict, rfc)| Adapter {
            name,
            command: vec![
                program.to_owned(),
                root()
                    .join("conform/adapters")
                    .join(file)
                    .display()
                    .to_string(),
            ],
            grammars,
            relative,
            strict,
            rfc_characters: rfc,
            rule,
            accepts_full: true,
            extra: &[],
        };
    // (relative, strict, rfc_characters): an RFC 3986 parser's, one that
    // percent-encodes or passes a space and non-ASCII, one of absolute URIs only.
    let rfc = (true, true, true);
    let lenient = (true, false, false);
    let absolute = (false, true, true);
    vec![
        adapter(
            "ajv-formats uri-reference",
            "node",
            "node/ajv-formats.mjs",
            uri,
            None,
            rfc,
        ),
        adapter(
            "ajv-formats uri",
            "node",
            "node/ajv-formats.mjs",
            uri,
            Some("URI"),
            absolute,
        ),
        adapter("fast-uri", "node", "node/fast-uri.mjs", uri, None, lenient),
        adapter("uri-js", "node", "node/uri-js.mjs", uri, None, lenient),
        adapter(
            "valid-url",
            "node",
            "node/valid-url.mjs",
            uri,
            Some("URI"),
            absolute,
        ),
        adapter(
            "rfc3986-validator URI-reference",
            python,
            "python/rfc3986_validator_adapter.py",
            uri,
            None,
            rfc,
        ),
        adapter(
            "rfc3986-validator URI",
            python,
            "python/rfc3986_validator_adapter.py",
            uri,
            Some("URI"),
            absolute,
        ),
        Adapter {
            accepts_full: false,
            extra: &[("http://a.example/b?c=d#e", true), ("a:b", false)],
            ..adapter(
                "validators",
                python,
                "python/validators_adapter.py",
                uri,
                Some("URI"),
                (false, true, false), // an IDN host is a host name to it
            )
        },
        // WHATWG: absolute URLs only, spaces at the ends forgiven, IDNA.
        adapter(
            "pydantic AnyUrl",
            python,
            "python/pydantic_adapter.py",
            uri,
            Some("URI"),
            (false, false, false),
        ),
        adapter(
            "hyperlink",
            python,
            "python/hyperlink_adapter.py",
            both,
            None,
            lenient,
        ),
        adapter(
            "ruby URI::RFC3986_PARSER",
            "ruby",
            "ruby/rfc3986_parser.rb",
            uri,
            None,
            rfc,
        ),
        adapter("perl URI", "perl", "perl/uri.pl", uri, None, rfc),
        adapter(
            "perl Data::Validate::URI",
            "perl",
            "perl/data_validate_uri.pl",
            uri,
            Some("URI"),
            absolute,
        ),
        adapter("go net/url", "sh", "go/neturl.sh", uri, None, lenient),
    ]
}

/// The reference with every component, and its components as written.
const FULL: &str = "http://u@a:8/b?c#d";
const FULL_PARTS: [(&str, &str); 8] = [
    ("scheme", "http"),
    ("authority", "u@a:8"),
    ("userinfo", "u"),
    ("host", "a"),
    ("port", "8"),
    ("path", "/b"),
    ("query", "c"),
    ("fragment", "d"),
];

/// The inputs, each with the verdict an adapter must give (`None`: any verdict).
fn cases(a: &Adapter, grammar: &str) -> Vec<(&'static str, Option<bool>)> {
    let strict = |v: bool| a.strict.then_some(v);
    let mut cases = vec![
        (FULL, Some(a.accepts_full)),
        ("a b", strict(false)),
        ("a\nb", strict(false)),
        (
            "http://r\u{e9}sum\u{e9}.example/",
            a.rfc_characters.then_some(grammar == "iri"),
        ),
        ("", Some(a.relative)),
        ("\u{1F600}", None),
        ("\"\\/\u{7f}", None),
    ];
    cases.extend(a.extra.iter().map(|&(input, valid)| (input, Some(valid))));
    cases
}

/// One answer line read as the protocol reads it: the verdict and, for a valid
/// JSON answer, the object. Panics on a line that is none of the forms.
fn read_answer(
    who: &str,
    input: &str,
    line: &str,
) -> (bool, Option<serde_json::Map<String, Value>>) {
    let line = line.strip_suffix('\r').unwrap_or(line);
    match line {
        "valid" => return (true, None),
        "invalid" => return (false, None),
        _ => {}
    }
    let value: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("{who}: answer to {input:?} is not understood ({e}): {line:?}"));
    let Value::Object(map) = value else {
        panic!("{who}: answer to {input:?} is neither a verdict nor an object: {line:?}");
    };
    let Some(Value::Bool(valid)) = map.get("valid") else {
        panic!("{who}: answer to {input:?} has no boolean \"valid\": {line:?}");
    };
    for (key, _) in FULL_PARTS {
        if let Some(v) = map.get(key) {
            assert!(
                v.is_string() || v.is_null(),
                "{who}: answer to {input:?}: {key} is neither a string nor null: {line:?}"
            );
        }
    }
    (*valid, Some(map))
}

/// A started adapter: its input, and its output lines as they come.
struct Running {
    child: Child,
    lines: Receiver<String>,
}

fn start(a: &Adapter, grammar: &str, rule: Option<&str>) -> std::io::Result<Running> {
    let mut command = Command::new(&a.command[0]);
    command
        .args(&a.command[1..])
        .current_dir(root())
        .env("IRI_CONFORM_PROTOCOL", "1")
        .env("IRI_CONFORM_GRAMMAR", grammar)
        .env_remove("IRI_CONFORM_RULE")
        // Python's output to a pipe is block-buffered unless this says otherwise: an
        // adapter must flush of itself, as it must where `iri conform` runs it.
        .env_remove("PYTHONUNBUFFERED")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(rule) = rule {
        command.env("IRI_CONFORM_RULE", rule);
    }
    let mut child = command.spawn()?;
    let stdout = BufReader::new(child.stdout.take().expect("piped"));
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    Ok(Running { child, lines })
}

/// Waits for the program to end and returns its status and standard error.
fn finish(mut r: Running, who: &str) -> (std::process::ExitStatus, String) {
    drop(r.child.stdin.take());
    for _ in 0..600 {
        if let Some(status) = r.child.try_wait().expect("wait") {
            let mut err = String::new();
            if let Some(mut e) = r.child.stderr.take() {
                std::io::Read::read_to_string(&mut e, &mut err).ok();
            }
            return (status, err);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    r.child.kill().ok();
    panic!("{who}: did not exit within 60 s of its input's end");
}

enum Outcome {
    Ran,
    Skipped(String),
}

/// Runs one adapter in one grammar through every case.
fn run(a: &Adapter, grammar: &str) -> Outcome {
    let who = format!("{} ({grammar})", a.name);
    let mut r = match start(a, grammar, a.rule) {
        Ok(r) => r,
        Err(e) => return Outcome::Skipped(format!("cannot start {}: {e}", a.command[0])),
    };
    let cases = cases(a, grammar);
    for (i, (input, expected)) in cases.iter().enumerate() {
        let line = serde_json::to_string(input).expect("a string");
        // The protocol writes ASCII only: serde_json leaves non-ASCII as it is.
        let line: String = line
            .encode_utf16()
            .map(|u| match u {
                0x20..=0x7e => char::from(u as u8).to_string(),
                _ => format!("\\u{u:04x}"),
            })
            .collect();
        let stdin = r.child.stdin.as_mut().expect("piped");
        if writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .is_err()
        {
            break; // It exited; `finish` says how.
        }
        let wait = if i == 0 { FIRST_ANSWER } else { ANSWER };
        let Ok(answer) = r.lines.recv_timeout(wait) else {
            let (status, err) = finish(r, &who);
            if i == 0 && status.code() == Some(3) && err.starts_with("needs:") {
                return Outcome::Skipped(err.trim().to_owned());
            }
            panic!("{who}: no answer to {input:?} (exit {status}); standard error:\n{err}");
        };
        let (valid, map) = read_answer(&who, input, &answer);
        if let Some(expected) = expected {
            assert_eq!(valid, *expected, "{who}: verdict on {input:?}: {answer}");
        }
        if *input == FULL {
            for (key, text) in FULL_PARTS {
                if let Some(v) = map.as_ref().and_then(|m| m.get(key)) {
                    assert_eq!(v.as_str(), Some(text), "{who}: {key} of {FULL}: {answer}");
                }
            }
        }
    }
    let (status, err) = finish(r, &who);
    assert!(
        status.success(),
        "{who}: exit {status} after its input ended; standard error:\n{err}"
    );
    Outcome::Ran
}

fn skip_or_fail(a: &Adapter, why: &str) {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "{}: {why} (CI=true: .ci/run installs every runtime and package)",
            a.name
        );
    }
    use std::io::Write as _;
    // Straight to standard error, which the harness does not capture: seen.
    let _ = writeln!(std::io::stderr(), "SKIPPED {}: {why}", a.name);
}

#[test]
fn every_adapter_answers_each_input_in_order() {
    for a in adapters() {
        for grammar in a.grammars {
            if let Outcome::Skipped(why) = run(&a, grammar) {
                skip_or_fail(&a, &why);
                break;
            }
        }
    }
}

/// A rule the adapter does not answer is refused before any answer, with a
/// message on standard error and a non-zero status (the protocol's "The program is
/// started").
#[test]
fn every_adapter_refuses_a_rule_it_cannot_answer() {
    for a in adapters() {
        let who = a.name;
        let mut r = match start(&a, a.grammars[0], Some("no-such-rule")) {
            Ok(r) => r,
            Err(e) => {
                skip_or_fail(&a, &format!("cannot start {}: {e}", a.command[0]));
                continue;
            }
        };
        // It may already have exited and closed its input.
        let stdin = r.child.stdin.as_mut().expect("piped");
        writeln!(stdin, "{}", serde_json::to_string(FULL).unwrap()).ok();
        let answered = r.lines.recv_timeout(FIRST_ANSWER);
        let (status, err) = finish(r, who);
        if status.code() == Some(3) && err.starts_with("needs:") {
            skip_or_fail(&a, err.trim());
            continue;
        }
        assert!(
            answered.is_err(),
            "{who}: answered a rule it cannot: {answered:?}"
        );
        assert_eq!(
            status.code(),
            Some(2),
            "{who}: exit status on an unknown rule; stderr: {err}"
        );
        assert!(
            err.contains("no-such-rule"),
            "{who}: its message does not name the rule: {err}"
        );
    }
}

/// The protocol page's example adapter is the committed file, character for
/// character, so that the two cannot drift apart.
#[test]
fn the_protocol_page_shows_the_rfc3987_adapter_as_committed() {
    let page = std::fs::read_to_string(root().join("docs/conform-protocol.md")).expect("the page");
    let path = "conform/adapters/python/rfc3987_adapter.py";
    let file = std::fs::read_to_string(root().join(path)).expect("the adapter");
    let section = page
        .split_once("## An adapter, whole")
        .expect("the page's section \"An adapter, whole\"")
        .1;
    assert!(
        section.contains(&format!("`{path}`")),
        "the section names another file"
    );
    let block = section
        .split_once("```python\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a python block in the section")
        .0;
    assert_eq!(
        block, file,
        "docs/conform-protocol.md's example differs from {path}"
    );
}

// The resolution adapters (`iri conform --resolve`, the protocol's "Resolution").

/// A resolution adapter: its name, its command from the repository's root, and the
/// grammar it is asked in.
fn resolvers() -> Vec<(&'static str, Vec<String>, &'static str)> {
    let python = std::env::var("IRI_CONFORM_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let file = |dir: &str, name: &str| {
        root()
            .join("conform/adapters")
            .join(dir)
            .join(name)
            .display()
            .to_string()
    };
    vec![
        (
            "oxiri",
            vec![env!("CARGO_BIN_EXE_oxiri-resolve").to_owned()],
            "iri",
        ),
        (
            "fluent-uri",
            vec![env!("CARGO_BIN_EXE_fluent-uri-resolve").to_owned()],
            "iri",
        ),
        (
            "iri-string",
            vec![env!("CARGO_BIN_EXE_iri-string-resolve").to_owned()],
            "iri",
        ),
        (
            "url",
            vec![env!("CARGO_BIN_EXE_url-resolve").to_owned()],
            "iri",
        ),
        (
            "node URL",
            vec!["node".to_owned(), file("node", "url-resolve.mjs")],
            "iri",
        ),
        (
            "urljoin",
            vec![python.clone(), file("python", "urljoin_adapter.py")],
            "iri",
        ),
        (
            "rfc3986 resolve_with",
            vec![python, file("python", "rfc3986_resolve_adapter.py")],
            "uri",
        ),
        (
            "java.net.URI resolve",
            vec!["java".to_owned(), file("java", "JavaNetUriResolve.java")],
            "uri",
        ),
        (
            "ruby URI",
            vec!["ruby".to_owned(), file("ruby", "uri_resolve.rb")],
            "uri",
        ),
        (
            "perl URI",
            vec!["perl".to_owned(), file("perl", "uri_resolve.pl")],
            "uri",
        ),
    ]
}

/// Pairs of RFC 3986 §5.4.1 that every resolver reads alike, with their targets,
/// and one the strict parsers refuse (a space), whose answer is only read.
const RESOLVED: [(&str, &str, Option<&str>); 5] = [
    ("http://a/b/c/d;p?q", "g", Some("http://a/b/c/g")),
    ("http://a/b/c/d;p?q", "../g", Some("http://a/b/g")),
    ("http://a/b/c/d;p?q", "g?y#s", Some("http://a/b/c/g?y#s")),
    (
        "http://a/b/c/d;p?q",
        "g;x?y#s",
        Some("http://a/b/c/g;x?y#s"),
    ),
    ("http://a/b/c/d;p?q", "a b", None),
];

fn start_resolver(command: &[String], grammar: &str, mode: &str) -> std::io::Result<Running> {
    let mut c = Command::new(&command[0]);
    c.args(&command[1..])
        .current_dir(root())
        .env("IRI_CONFORM_PROTOCOL", "2")
        .env("IRI_CONFORM_MODE", mode)
        .env("IRI_CONFORM_GRAMMAR", grammar)
        .env(
            "IRI_CONFORM_RULE",
            if grammar == "uri" {
                "URI-reference"
            } else {
                "IRI-reference"
            },
        )
        .env_remove("PYTHONUNBUFFERED")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn()?;
    let stdout = BufReader::new(child.stdout.take().expect("piped"));
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    Ok(Running { child, lines })
}

/// Each resolution adapter answers each pair before the next, with a JSON string
/// literal or `invalid`; the pairs no resolver disputes get their RFC target.
#[test]
fn every_resolution_adapter_answers_each_pair_in_order() {
    'adapters: for (name, command, grammar) in resolvers() {
        let a = Adapter {
            name,
            command: command.clone(),
            grammars: &[],
            relative: true,
            strict: true,
            rfc_characters: true,
            rule: None,
            accepts_full: true,
            extra: &[],
        };
        let mut r = match start_resolver(&command, grammar, "resolve") {
            Ok(r) => r,
            Err(e) => {
                skip_or_fail(&a, &format!("cannot start {}: {e}", command[0]));
                continue;
            }
        };
        for (i, (base, reference, target)) in RESOLVED.iter().enumerate() {
            let line = serde_json::to_string(&[base, reference]).expect("strings");
            let stdin = r.child.stdin.as_mut().expect("piped");
            if writeln!(stdin, "{line}")
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
            let wait = if i == 0 { FIRST_ANSWER } else { ANSWER };
            let Ok(answer) = r.lines.recv_timeout(wait) else {
                let (status, err) = finish(r, name);
                if i == 0 && status.code() == Some(3) && err.starts_with("needs:") {
                    skip_or_fail(&a, err.trim());
                    continue 'adapters;
                }
                panic!("{name}: no answer to {line} (exit {status}); standard error:\n{err}");
            };
            let got: Option<String> = if answer == "invalid" {
                None
            } else {
                Some(serde_json::from_str(&answer).unwrap_or_else(|e| {
                    panic!("{name}: {answer:?} for {line} is neither invalid nor a string: {e}")
                }))
            };
            if let Some(t) = target {
                assert_eq!(got.as_deref(), Some(*t), "{name}: {line}");
            }
        }
        let (status, err) = finish(r, name);
        assert!(
            status.success(),
            "{name}: exit {status}; standard error:\n{err}"
        );
    }
}

/// A resolution adapter asked to validate says so and exits 2 before any answer.
#[test]
fn every_resolution_adapter_refuses_validation() {
    for (name, command, grammar) in resolvers() {
        let Ok(mut r) = start_resolver(&command, grammar, "validate") else {
            continue; // The test above says why.
        };
        let stdin = r.child.stdin.as_mut().expect("piped");
        writeln!(stdin, "\"http://a/\"").ok();
        let answered = r.lines.recv_timeout(FIRST_ANSWER);
        let (status, err) = finish(r, name);
        if status.code() == Some(3) && err.starts_with("needs:") {
            continue;
        }
        assert!(answered.is_err(), "{name}: validated: {answered:?}");
        assert_eq!(status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("--resolve"), "{name}: {err}");
    }
}
