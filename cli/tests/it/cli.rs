//! The `iri` command line, driven as other programs drive it (the contract: README, "The `iri` command").

use crate::common;

use common::{iri, iri_stdin, stderr, stdout};

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn check_prints_one_verdict_per_input_and_exits_1_on_any_invalid() {
    let o = iri(&["check", "http://a/", "http://a/b c"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "valid");
    assert_eq!(
        lines[1],
        "invalid: at char 10 (U+0020 SPACE), in the path (isegment): expected ipchar, \"/\", \"#\", \"?\" or end of input"
    );
    assert_eq!(iri(&["check", "http://a/"]).status.code(), Some(0));
}

#[test]
fn an_error_is_one_short_line_and_explain_gives_all_of_it() {
    // The brief line: where, the component and the innermost rule, what would do.
    let o = iri(&["check", "http://a b/", "http://a:8x/"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "invalid: at char 8 (U+0020 SPACE), in the host (ireg-name): expected iunreserved, \
             pct-encoded, sub-delims, \":\", \"@\", \"/\", \"#\", \"?\" or end of input",
            // The blamed character is not where the grammar stops (it reads on as a
            // userinfo): what the port may hold, instead of what the grammar expects.
            "invalid: at char 10 (U+0078 'x'), in the port: a port holds digits only (RFC 3986 §3.2.3)",
        ]
    );
    // --explain: every rule's expectations with their definitions, the rules around.
    let o = iri(&["check", "--explain", "http://a b/"]);
    let long = stdout(&o);
    assert!(long.len() > 500, "{long}");
    assert!(
        long.starts_with(
            "invalid: at char 8 (U+0020 SPACE), in the host: a host is a registered name"
        ) && long.contains("The grammar stops there: ireg-name expects iunreserved (ALPHA / DIGIT")
            && long
                .trim_end()
                .ends_with("in ihost < iauthority < ihier-part < IRI < IRI-reference"),
        "{long}"
    );
    // JSON keeps the long message and its fields, with or without --explain.
    let o = iri(&["check", "--json", "http://a b/"]);
    assert!(stdout(&o).contains("\"message\":\"at char 8 (U+0020 SPACE), in the host: a host is"));
    // Every command that reports the grammar's errors says them so.
    for command in ["parse", "normalize", "to-uri", "lint", "trace"] {
        let o = iri(&[command, "http://a b/"]);
        let last = stdout(&o).lines().last().unwrap_or("").to_string();
        assert_eq!(last, lines[0], "{command}");
    }
}

#[test]
fn lint_caret_shows_each_finding_under_its_input() {
    let o = iri(&[
        "lint",
        "--caret",
        "HTTP://a/b",
        "http://ok/",
        "http://e.com/\u{202E}x",
    ]);
    assert_eq!(
        stdout(&o),
        "warning scheme-uppercase at char 0: scheme with uppercase letters: schemes are \
         case-insensitive and should be produced in lowercase [scheme, U+0048]\n  \
         HTTP://a/b\n  ^ column 1 (1-based)\n\
         error bidi-formatting-character at char 13: IRIs MUST NOT contain bidi formatting \
         characters (LRM, RLM, LRE, RLE, PDF, LRO, RLO) [path, U+202E RLO]\n  \
         http://e.com/⟨U+202E⟩x\n               ^ column 14 (1-based)\n"
    );
}

#[test]
fn rules_are_named_in_the_grammars_own_words() {
    let o = iri(&[
        "--grammar",
        "uri",
        "check",
        "--rule",
        "path-abempty",
        "/a/b",
    ]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    let o = iri(&[
        "--grammar",
        "uri",
        "check",
        "--rule",
        "ipath-abempty",
        "/a/b",
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "ipath-abempty is not an RFC 3986 rule"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("no rule named"));
    let o = iri(&[
        "--grammar",
        "leiri",
        "check",
        "--rule",
        "LEIRI-reference",
        "a b",
    ]);
    assert_eq!(stdout(&o), "valid\n");
    let o = iri(&[
        "--grammar",
        "iri",
        "check",
        "--rule",
        "iprivate",
        "\u{E000}",
    ]);
    assert_eq!(stdout(&o), "valid\n");
    let o = iri(&["--grammar", "uri", "check", "--rule", "gen-delims", "@"]);
    assert_eq!(stdout(&o), "valid\n");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        iri(&["--grammar", "klingon", "check", "x"]).status.code(),
        Some(2)
    );
    assert_eq!(iri(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        iri(&["tree", "--format", "svg", "x"]).status.code(),
        Some(2)
    );
}

#[test]
fn global_options_go_on_either_side_and_a_command_refuses_those_it_ignores() {
    // Was: `iri -H check` a usage error, and `iri book --json` silence.
    let after = iri(&["check", "-H", "--grammar", "uri", "http://a/", "a b"]);
    for args in [
        &["-H", "check", "--grammar", "uri", "http://a/", "a b"][..],
        &["-H", "--grammar", "uri", "check", "http://a/", "a b"],
        &["--grammar", "uri", "check", "-H", "http://a/", "a b"],
    ] {
        let o = iri(args);
        assert_eq!(
            (o.status.code(), &o.stdout),
            (after.status.code(), &after.stdout),
            "{args:?}"
        );
    }
    assert!(String::from_utf8_lossy(&after.stdout).starts_with("http://a/\tvalid\n"));
    let o = iri(&["-q", "check", "a b"]);
    assert_eq!((o.status.code(), o.stdout.len()), (Some(1), 0));
    assert_eq!(
        iri(&["--json", "check", "http://a/"]).stdout,
        iri(&["check", "--json", "http://a/"]).stdout
    );
    // Refused, saying why.
    for (args, says) in [
        (
            &["book", "--json", "--out", "x"][..],
            "book does not use --json",
        ),
        (
            &["--json", "suite", "--rule", "IRI", "--out", "x"],
            "suite does not use --json",
        ),
        (
            &["--grammar", "uri", "book", "--out", "x"],
            "book does not use --grammar",
        ),
        (
            &["-H", "grammar", "IRI"],
            "grammar does not use --with-input (-H)",
        ),
        (
            &["coverage", "-q", "x"],
            "coverage does not use --quiet (-q)",
        ),
        (
            &["--abnf", "grammar/rfc3986.abnf", "parse", "x"],
            "parse does not use --abnf",
        ),
        (
            &["--grammar", "uri", "diff-grammars", "uri", "iri"],
            "diff-grammars does not use --grammar",
        ),
        (
            &["-q", "check", "-H", "x"],
            "cannot be used with --with-input",
        ),
        (
            &[
                "--abnf",
                "grammar/rfc3986.abnf",
                "check",
                "--grammar",
                "uri",
                "x",
            ],
            "cannot be used with --grammar",
        ),
    ] {
        let o = iri(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    assert!(!std::path::Path::new("x").exists());
    // A command's help lists the options it takes, and --abnf in one line.
    let help = |args: &[&str]| String::from_utf8(iri(args).stdout).unwrap();
    let long = "RFC 7405's %s and %i";
    assert!(help(&["--help"]).contains(long));
    for command in ["check", "tree", "grammar"] {
        let h = help(&[command, "--help"]);
        assert!(
            h.contains("--abnf <FILE>") && !h.contains(long),
            "{command}: {h}"
        );
    }
    let h = help(&["book", "--help"]);
    for flag in ["--json", "--grammar", "--abnf", "--with-input", "--quiet"] {
        assert!(!h.contains(flag), "book --help shows {flag}: {h}");
    }
    assert!(help(&["check", "--help"]).contains("-H, --with-input"));
}

#[test]
fn a_misspelt_rule_name_gets_the_names_a_few_edits_away() {
    // Was: no suggestion for IPv6adress (a letter short), where ipchar got pchar.
    let o = iri(&["grammar", "IPv6adress"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("(did you mean IPv6address?)"),
        "{}",
        stderr(&o)
    );
    let o = iri(&["--grammar", "uri", "check", "--rule", "ipchar", "x"]);
    assert!(
        stderr(&o).contains("(did you mean pchar?)"),
        "{}",
        stderr(&o)
    );
    let o = iri(&["grammar", "zzzzzz"]);
    assert!(!stderr(&o).contains("did you mean"), "{}", stderr(&o));
}

#[test]
fn standard_input_one_per_line_crlf_and_bad_utf8() {
    let o = iri_stdin(&["check"], b"http://a/\r\nhttp://a/ b\n\xff\xfe\nfoo:bar");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(lines[0], "valid");
    assert!(lines[1].starts_with("invalid: "));
    assert_eq!(
        lines[2],
        "invalid: the input is not UTF-8 (invalid byte at offset 0)"
    );
    assert_eq!(lines[3], "valid");
}

/// Only LF and CRLF end a line: a CR that no LF follows is part of the line, also on the
/// last line, which needs no LF (as `str::lines` reads text). FUZZING.md finding 8 was
/// the fuzz target's model stripping such a CR, not the command line.
#[test]
fn a_cr_without_lf_stays_in_the_line() {
    for (stdin, inputs) in [
        (&b"a\r"[..], &["a\r"][..]),
        (b"a\r\r\n", &["a\r"]),
        (b"a\rb\nc\r\n", &["a\rb", "c"]),
        (b"[2\x91\r\r", &["[2\u{FFFD}\r\r"]),
        // An empty line keeps its hands off the CR of the line before it (finding 10:
        // the batched reader took it, and then panicked on the line's bounds).
        (b"a\r\r\n\nb\n", &["a\r", "", "b"]),
        (b"\r\n\r\n\r\r\n\r\n", &["", "", "\r", ""]),
    ] {
        for args in [&["--json", "check"][..], &["--json", "prepare", "--multi"]] {
            let o = iri_stdin(args, stdin);
            let out = stdout(&o);
            let seen: Vec<String> = out
                .lines()
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).unwrap();
                    v["input"].as_str().unwrap().to_string()
                })
                .collect();
            assert_eq!(seen, inputs, "{args:?} on {stdin:?}");
        }
    }
}

#[test]
fn json_lines() {
    let o = iri(&["--json", "check", "http://a/", "a b"]);
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["input"], "http://a/");
    assert_eq!(lines[0]["valid"], true);
    assert!(lines[0]["error"].is_null());
    assert_eq!(lines[1]["valid"], false);
    // The error is structured (issue 15); its message is the text output's.
    assert!(lines[1]["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("at char 1"));
    assert_eq!(lines[1]["error"]["char_offset"], 1);

    let o = iri(&["--json", "tree", "--rule", "ihost", "[::1]"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["input"], "[::1]");
    assert_eq!(v["rule"], "ihost");
    assert_eq!(v["start"], 0);
    assert_eq!(v["end"], 5);
    assert_eq!(v["children"][0]["rule"], "IP-literal");
    assert_eq!(v["children"][0]["children"][0]["rule"], "IPv6address");
    assert_eq!(v["children"][0]["children"][0]["text"], "::1");
}

#[test]
fn tree_formats() {
    let o = iri(&[
        "--grammar",
        "uri",
        "tree",
        "--rule",
        "authority",
        "user@host:80",
    ]);
    assert_eq!(
        stdout(&o),
        "authority 0..12 \"user@host:80\"\n  userinfo 0..4 \"user\"\n  host 5..9 \"host\"\n    \
         reg-name 5..9 \"host\"\n  port 10..12 \"80\"\n"
    );
    let o = iri(&["tree", "--format", "dot", "--rule", "scheme", "http"]);
    // Each graph is named for its input's place (issue 15: several graphs in one
    // stream must be told apart).
    assert!(stdout(&o).starts_with("digraph parse_tree_1 {"));
    // --format json and --json give the same shape: the record of the input, with
    // the root node's fields.
    let o = iri(&["tree", "--format", "json", "--rule", "port", "80"]);
    let want =
        r#"{"input":"80","valid":true,"rule":"port","text":"80","start":0,"end":2,"children":[]}"#;
    assert_eq!(stdout(&o).trim(), want);
    let o = iri(&["--json", "tree", "--rule", "port", "80"]);
    assert_eq!(stdout(&o).trim(), want);
    let o = iri(&["tree", "http://a/ b"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("invalid: at char 9"));
}

#[test]
fn grammar_shows_the_abnf_source_and_code() {
    let o = iri(&["--grammar", "uri", "grammar", "path-abempty", "--rust"]);
    let out = stdout(&o);
    assert!(
        out.starts_with("path-abempty  = *( \"/\" segment )\n; RFC 3986 §3.3"),
        "{out}"
    );
    assert!(
        out.contains("pub fn ipath_abempty<'a, V: Variant, M: Mode>"),
        "{out}"
    );
    let o = iri(&["grammar"]);
    assert!(stdout(&o).lines().any(|l| l.starts_with("ipath-abempty")));
}

#[test]
fn generated_strings_always_pass_check_for_every_rule_and_grammar() {
    for grammar in ["uri", "iri", "leiri"] {
        let list = stdout(&iri(&["--grammar", grammar, "grammar"]));
        for rule in list.lines().map(|l| l.split_whitespace().next().unwrap()) {
            let generated = iri(&[
                "--grammar",
                grammar,
                "generate",
                "--rule",
                rule,
                "-n",
                "25",
                "--seed",
                "11",
            ]);
            assert_eq!(generated.status.code(), Some(0));
            let checked = iri_stdin(
                &["--grammar", grammar, "check", "--rule", rule],
                &generated.stdout,
            );
            let verdicts = stdout(&checked);
            assert_eq!(verdicts.lines().count(), 25, "{grammar} {rule}");
            assert!(
                verdicts.lines().all(|l| l == "valid"),
                "{grammar} {rule}: generated strings that check rejects:\n{}\n{verdicts}",
                stdout(&generated)
            );
        }
    }
    // The same seed gives the same strings.
    let a = iri(&["generate", "--rule", "IRI", "-n", "5", "--seed", "3"]);
    let b = iri(&["generate", "--rule", "IRI", "-n", "5", "--seed", "3"]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn parse_prints_present_components() {
    let o = iri(&["parse", "http://user@résumé.example.org:8080/a?q#f", "a:b"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "scheme: http\nuserinfo: user\nhost: résumé.example.org\nhost-kind: reg-name\n\
         port: 8080\npath: /a\nquery: q\nfragment: f\n\nscheme: a\npath: b\n"
    );
    let o = iri(&["--json", "parse", "http://[::1]/?", "//a", "a b"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let v: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v[0]["host_kind"], "ipv6");
    assert_eq!(v[0]["query"], "");
    assert!(v[0]["fragment"].is_null() && v[0]["port"].is_null() && v[0]["userinfo"].is_null());
    assert_eq!(v[0]["authority"], "[::1]");
    assert_eq!(v[1]["scheme"], serde_json::Value::Null);
    assert_eq!(v[1]["path"], "");
    assert_eq!(v[2]["valid"], false);
}

#[test]
fn resolve_and_relativize() {
    let o = iri(&["resolve", "http://a/b/c/d;p?q", "g", "../g", "#s", "g:h"]);
    assert_eq!(
        stdout(&o),
        "http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?q#s\ng:h\n"
    );
    let o = iri(&["--json", "resolve", "http://a/b", "c"]);
    assert_eq!(
        stdout(&o).trim(),
        r#"{"input":"c","valid":true,"target":"http://a/c","error":null}"#
    );
    let o = iri(&[
        "relativize",
        "http://a/b/c/d;p?q",
        "http://a/b/g",
        "http://a/b/c/d;p?q#s",
    ]);
    assert_eq!(stdout(&o), "../g\n#s\n");
    let o = iri(&["--json", "relativize", "http://a/b", "http://a/c"]);
    assert_eq!(
        stdout(&o).trim(),
        r#"{"input":"http://a/c","valid":true,"reference":"c","error":null}"#
    );
    // A relative base is a usage error; an invalid reference is a failed input.
    assert_eq!(iri(&["resolve", "//a", "b"]).status.code(), Some(2));
    let o = iri(&["resolve", "http://a/", "a b"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("invalid: at char 1"));
    let o = iri_stdin(&["resolve", "http://a/b/"], b"c\r\n../d\n");
    assert_eq!(stdout(&o), "http://a/b/c\nhttp://a/d\n");
}

#[test]
fn conversions_and_prepare() {
    let o = iri(&["to-uri", "http://www.example.org/red%09rosé#red"]);
    assert_eq!(stdout(&o), "http://www.example.org/red%09ros%C3%A9#red\n");
    let o = iri(&["to-uri", "--idna", "http://résumé.example.org"]);
    assert_eq!(stdout(&o), "http://xn--rsum-bpad.example.org\n");
    let o = iri(&[
        "--grammar",
        "uri",
        "to-iri",
        "--idna",
        "http://xn--99zt52a.example.org/%e2%80%ae",
    ]);
    assert_eq!(stdout(&o), "http://納豆.example.org/%E2%80%AE\n");
    let o = iri(&[
        "--grammar",
        "leiri",
        "to-iri",
        "http://a/b c/\u{E000}?\u{E000}",
    ]);
    assert_eq!(stdout(&o), "http://a/b%20c/%EE%80%80?\u{E000}\n");
    let o = iri(&["--json", "--grammar", "uri", "to-iri", "http://a/%C3%A9"]);
    assert_eq!(
        stdout(&o).trim(),
        r#"{"input":"http://a/%C3%A9","valid":true,"iri":"http://a/é","error":null}"#
    );
    // A URI-grammar input that is no URI is an invalid input, exit 1.
    let o = iri(&["--grammar", "uri", "to-iri", "http://a/é"]);
    assert_eq!(o.status.code(), Some(1));
    let o = iri_stdin(&["prepare"], b" http://a/b c \n1x:y\n");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "http://a/b%20c");
    assert!(lines[1].starts_with("invalid: \"1x:\" looks like a scheme"));
    let o = iri(&["--json", "prepare", "--multi", "a b  c"]);
    assert_eq!(
        stdout(&o).trim(),
        r#"{"input":"a b  c","valid":true,"prepared":["a","b","c"],"error":null}"#
    );
}

/// The host's case at the syntax level is the grammar's document's: under the URI
/// grammar RFC 3986 §6.2.2.1 lowercases every host, under the IRI grammar RFC 3987
/// §5.3.2.1 only a US-ASCII one.
#[test]
fn normalize_lowercases_a_host_as_the_grammar_s_document_says() {
    let o = iri(&["--grammar", "uri", "normalize", "HTTP://EXAMPLE.%C3%BC/"]);
    assert_eq!(stdout(&o), "http://example.%C3%BC/\n");
    let o = iri(&["normalize", "HTTP://EXAMPLE.%C3%BC/"]);
    assert_eq!(stdout(&o), "http://EXAMPLE.ü/\n");
}

#[test]
fn normalize_and_compare() {
    let o = iri(&["normalize", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9"]);
    assert_eq!(stdout(&o), "example://a/b/c/%7Bfoo%7D/rosé\n");
    let o = iri(&[
        "normalize",
        "--level",
        "scheme",
        "HTTP://xn--rsum-bpad.Example.org:80",
    ]);
    assert_eq!(stdout(&o), "http://résumé.example.org/\n");
    let o = iri(&["--json", "normalize", "--nfc", "http://a/e\u{301}"]);
    assert_eq!(
        stdout(&o).trim(),
        "{\"input\":\"http://a/e\u{301}\",\"valid\":true,\"normalized\":\"http://a/\u{e9}\",\"error\":null}"
    );
    assert_eq!(
        iri(&["normalize", "--level", "simple", "a:b"])
            .status
            .code(),
        Some(2)
    );
    let o = iri(&[
        "compare",
        "--level",
        "scheme",
        "http://example.com",
        "http://example.com:80/",
    ]);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "equivalent\n")
    );
    let o = iri(&["compare", "http://example.com/", "http://example.com/?"]);
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(1), "different\n")
    );
    // Unknown has an exit status of its own (issue 15).
    let o = iri(&["compare", "a", "b"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).starts_with("unknown: "));
    let o = iri_stdin(&["--json", "compare"], b"http://a/%7e\thttp://a/~\n");
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["equivalent"], true);
    assert_eq!(iri(&["compare", "a:b"]).status.code(), Some(2));
}

#[test]
fn lint_is_separate_from_check() {
    // check judges the grammar alone: U+202E is a ucschar, so the IRI is valid.
    let o = iri(&["check", "http://a/\u{202E}"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    // lint judges the prose: RFC 3987 §4.1 forbids it.
    let o = iri(&["lint", "http://a/\u{202E}"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("error bidi-formatting-character at char 9: "),
        "{}",
        stdout(&o)
    );
    // A clean input prints nothing; warnings alone exit 0.
    let o = iri(&["lint", "http://a/b"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    let o = iri(&["lint", "HTTP://a/b"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("warning scheme-uppercase at char 0: "));
    let o = iri(&["--json", "lint", "--display", "http://a/\u{202E}"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["findings"][0]["code"], "bidi-formatting-character");
    assert_eq!(v["findings"][0]["severity"], "error");
    assert_eq!(v["findings"][0]["byte_offset"], 9);
    assert_eq!(v["findings"][0]["char_offset"], 9);
    assert_eq!(v["findings"][0]["section"], "RFC 3987 §4.1");
    assert!(v["display"].as_str().unwrap().starts_with('\u{202A}'));
    let o = iri(&["lint", "--list"]);
    assert!(stdout(&o).lines().count() >= 20);
    let o = iri(&["--grammar", "leiri", "lint", "http://a/b c"]);
    assert!(
        stdout(&o).starts_with("warning leiri-space at char 10: "),
        "{}",
        stdout(&o)
    );
}

#[test]
fn write_errors_are_reported_and_a_closed_pipe_is_not() {
    // /dev/full refuses every write: the command must say so and not exit 0.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        for args in [
            &["parse", "http://a/"][..],
            &["check", "http://a/"],
            &["grammar"],
            &["lint", "--list"],
            &["generate", "--rule", "IRI", "-n", "3"],
        ] {
            let o = Command::new(env!("CARGO_BIN_EXE_iri"))
                .args(args)
                .stdout(full.try_clone().unwrap())
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(74), "{args:?}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("writing standard output"), "{args:?}: {err}");
        }
    }
    // A reader that goes away early (`| head -1`) ends the run quietly.
    let mut child = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["check"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let lines = "http://example.org/a\n".repeat(200_000);
    // Our side of the pipe may break too once the child stops reading.
    let _ = stdin.write_all(lines.as_bytes());
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_long_tree_goes_out_while_it_is_written() {
    // The JSON of a path of one-byte segments is forty times the input: it is written
    // node by node, not held whole, and the errors of writing stay those of any record.
    let path = format!("http://a/{}", "b/".repeat(50_000));
    let line = format!("{path}\n");
    let o = iri_stdin(&["tree", "--format", "json"], line.as_bytes());
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["input"].as_str(), v["text"].as_str()),
        (Some(&path[..]), Some(&path[..]))
    );
    // IRI-reference > IRI > ihier-part > ipath-abempty: 50,000 segments and the
    // empty one after the last slash.
    let segments = &v["children"][0]["children"][1]["children"][1]["children"];
    assert_eq!(segments.as_array().map(Vec::len), Some(50_001));
    // The same as an argument.
    assert_eq!(iri(&["tree", "--format", "json", &path]).stdout, o.stdout);
    // /dev/full refuses the first piece.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let o = Command::new(env!("CARGO_BIN_EXE_iri"))
            .args(["tree", "--format", "json", &path])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(74));
        assert!(String::from_utf8_lossy(&o.stderr).contains("writing standard output"));
    }
    // A reader that has seen enough (`| head -c 100`) ends the run quietly.
    let mut child = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["tree", "--format", "json", &path])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0; 100];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut head).unwrap();
    assert!(head.starts_with(b"{\"input\":\"http://a/b/b/"));
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn an_unreadable_standard_input_is_an_io_error() {
    // A directory as standard input: reading it fails (EISDIR).
    let dir = std::fs::File::open(env!("CARGO_MANIFEST_DIR")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["check"])
        .stdin(dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(74));
    assert!(String::from_utf8_lossy(&o.stderr).contains("reading standard input"));
}

#[test]
fn the_oracle_refuses_lines_beyond_its_limit_and_says_what_to_use() {
    // The oracle's memory grows with the input (a 1 MB line took 1.8 GB): it judges
    // at most 4096 bytes. A valid 4096-byte line is judged; one byte more is refused
    // with a message naming the limit and the combinators; those judge it at once.
    let at_limit = format!("http://a/{}", "b".repeat(4096 - 9));
    let beyond = format!("{at_limit}c");
    let o = iri_stdin(
        &["check", "--oracle"],
        format!("{at_limit}\n{beyond}\n").as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "valid");
    assert!(
        lines[1].starts_with(
            "invalid: the input is 4097 bytes, beyond the oracle's limit of 4096 bytes"
        ),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("without --oracle"), "{}", lines[1]);
    let o = iri(&["check", &beyond]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    // The limit is documented where the option is.
    let help = stdout(&iri(&["check", "--help"]));
    assert!(help.contains("4096 bytes"), "{help}");
    // With --json the refusal is an ordinary invalid record.
    let o = iri(&["--json", "check", "--oracle", &beyond]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(v["error"]["kind"], "oracle-limit");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("oracle's limit"));
}

#[test]
fn the_library_runs_a_command_in_memory_as_the_binary_does() {
    // iri_cli::run_in_memory is what the fuzz target cli_lines drives.
    let stdin = b"http://a/\r\nhttp://a/ b\n\xff\n";
    let run = iri_cli::run_in_memory(["iri", "--json", "check"], stdin);
    let o = iri_stdin(&["--json", "check"], stdin);
    assert_eq!(Some(i32::from(run.status)), o.status.code());
    assert_eq!(run.stdout, o.stdout);
    let bad = iri_cli::run_in_memory(["iri", "check", "--rule", "nope", "x"], b"");
    assert_eq!(bad.status, 2);
    assert!(bad.stderr.contains("no rule named"), "{}", bad.stderr);
}

#[test]
fn compare_json_stays_json_for_lines_without_a_pair_or_not_utf8() {
    // Found by the fuzz target cli_lines: `iri --json compare` wrote a text line
    // ("invalid: ...") for a line without a TAB or not UTF-8, breaking JSON Lines.
    let o = iri_stdin(
        &["--json", "compare"],
        b"http://a/\thttp://a/\nno tab here\n\xff\xfe\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let records: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect();
    assert_eq!(records.len(), 3, "{out}");
    assert_eq!(records[0]["result"], "equivalent");
    assert_eq!(records[1]["input"], "no tab here");
    assert_eq!(records[1]["valid"], false);
    assert!(records[1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("TAB"));
    assert_eq!(records[2]["input"], "\u{FFFD}\u{FFFD}");
    assert_eq!(records[2]["error"]["kind"], "not-utf8");
    assert!(records[2]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not UTF-8"));
    // Text output is unchanged.
    let o = iri_stdin(&["compare"], b"no tab here\n");
    assert_eq!(stdout(&o), "invalid: a line holds A, a TAB, and B\n");
}

/// An argument that names a file is judged as a string (README: inputs are the
/// arguments, or the lines of standard input), and the command says so on standard
/// error, once, with how to judge the file's lines; the verdicts and exit status
/// are those of the string.
#[test]
fn an_argument_that_names_a_file_gets_a_note_and_its_verdict_as_a_string() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("file-arg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("urls.txt");
    std::fs::write(&file, "http://a b\n").unwrap();
    let name = file.to_str().unwrap();

    let o = iri(&["check", name]);
    assert_eq!(o.status.code(), Some(0), "the string is a valid reference");
    assert_eq!(stdout(&o), "valid\n");
    let err = stderr(&o);
    assert!(
        err.contains("is judged as a string, though it names a file")
            && err.contains(&format!("iri ... < {name}")),
        "{err}"
    );
    let o = iri(&["--grammar", "iri", "coverage", "--rule", "IRI", name, name]);
    let err = stderr(&o);
    assert_eq!(err.matches("iri: note:").count(), 1, "once a run: {err}");
    assert!(err.contains("(and 1 other argument)"), "{err}");

    // Strings that name no file, and standard input, get no note.
    let o = iri(&["check", "http://example.org/"]);
    assert_eq!(stderr(&o), "");
    let o = iri_stdin(&["check"], name.as_bytes());
    assert_eq!(stderr(&o), "");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A byte order mark opening standard input is the encoding's signature (RFC 3629
/// §6), not part of the first line: judged without it, as iri-sql judges a file's
/// first row. Anywhere else U+FEFF is a character, which no rule allows.
#[test]
fn a_byte_order_mark_opening_standard_input_is_not_part_of_the_first_line() {
    let o = iri_stdin(&["check"], b"\xef\xbb\xbfhttp://a\n\xef\xbb\xbfhttp://b\n");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "valid");
    assert!(lines[1].starts_with("invalid: at char 0 (U+FEFF"), "{out}");
    // An argument is judged as given.
    let o = iri(&["check", "\u{feff}http://a"]);
    assert_eq!(o.status.code(), Some(1));
    // Short and partial inputs.
    for (input, first) in [
        (&b"\xef\xbb\xbf"[..], None),
        (b"\xef\xbb", Some("invalid: the input is not UTF-8")),
        (b"a", Some("valid")),
    ] {
        let o = iri_stdin(&["check"], input);
        let out = stdout(&o);
        match first {
            None => assert_eq!(out, "", "a BOM alone is an empty input"),
            Some(f) => assert!(out.starts_with(f), "{input:?}: {out}"),
        }
    }
}

#[test]
fn version_names_the_commit_and_the_documents_of_the_grammars() {
    let long = stdout(&iri(&["--version"]));
    let first = format!("iri {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(long.starts_with(&first), "{long}");
    // A hash where the build had a git checkout, `unknown` where it had none.
    let commit = long[first.len()..].split(')').next().unwrap_or_default();
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{long}"
    );
    for document in [
        "RFC 3986 Appendix A",
        "RFC 3987 §2.2",
        "LEIRI note",
        "draft-masinter-url-i18n-07",
    ] {
        assert!(long.contains(document), "{document}: {long}");
    }
    // -V: the version alone, as scripts read it.
    assert_eq!(
        stdout(&iri(&["-V"])),
        format!("iri {}\n", env!("CARGO_PKG_VERSION"))
    );
}
