//! The grammars beyond the three built-in ones, from the command line (issue 17):
//! `--grammar iri-2001`, `diff-grammars`, and `--abnf` with a grammar of one's own
//! (RFC 6874's zone identifiers on RFC 3986, `tests/grammars/rfc6874.abnf`).

use crate::common;

use common::{iri, stderr, stdout};

use std::io::Write;
use std::path::PathBuf;
use std::process::Output;

/// A file of the workspace, from the cli crate where the tests run.
fn file(path: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", path].iter().collect();
    p.to_str().unwrap().to_string()
}

/// `--abnf grammar/rfc3986.abnf --abnf tests/grammars/rfc6874.abnf` and `args`.
fn zone(args: &[&str]) -> Output {
    let (a, b) = (
        file("grammar/rfc3986.abnf"),
        file("tests/grammars/rfc6874.abnf"),
    );
    let mut all = vec!["--abnf", &a, "--abnf", &b];
    all.extend_from_slice(args);
    iri(&all)
}

#[test]
fn brackets_in_a_query_are_2001_not_rfc_3987() {
    let o = iri(&["--grammar", "iri-2001", "check", "http://a/b;p?[x]"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    let o = iri(&["--grammar", "iri", "check", "http://a/b;p?[x]"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("invalid: at char 13 (U+005B '['), in the query (iquery): expected"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn diff_grammars_finds_the_query_brackets_and_exits_1() {
    let o = iri(&["diff-grammars", "iri-2001", "iri", "-n", "300"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("in iri-2001 IRI-reference and not in iri IRI-reference: "),
        "{out}"
    );
    assert!(
        out.contains("\n  iquery (iri-2001) / iquery (iri): \"a?[\""),
        "{out}"
    );
    assert!(
        out.contains("\nin iri IRI-reference and not in iri-2001 IRI-reference: "),
        "{out}"
    );
    // One JSON object per example.
    let o = iri(&["--json", "diff-grammars", "iri-2001", "iri", "-n", "300"]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.iter().any(|v| v["only_in"] == "iri-2001"
        && v["not_in"] == "iri"
        && v["input"] == "a?["
        && v["rule"] == "iquery"));
}

#[test]
fn diff_grammars_of_a_grammar_and_itself_exits_0() {
    let o = iri(&["diff-grammars", "uri", "uri", "-n", "100"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "in uri URI-reference and not in uri URI-reference: none found\n\
         in uri URI-reference and not in uri URI-reference: none found\n"
    );
    // Rules by name, and an ABNF file as a side.
    let o = iri(&[
        "diff-grammars",
        "iri-2001",
        &file("grammar/rfc3986.abnf"),
        "--rule-a",
        "IPv4address",
        "--rule-b",
        "IPv4address",
        "-n",
        "200",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("IPv4address (iri-2001) / "),
        "{}",
        stdout(&o)
    );
    let o = iri(&["diff-grammars", "iri", &file("grammar/rfc3986.abnf")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--rule-b names its rule"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn abnf_check_tree_and_generate_serve_rfc_6874() {
    let o = zone(&[
        "check",
        "--explain",
        "--rule",
        "IP-literal",
        "[fe80::1%25eth0]",
        "[fe80::1%eth0]",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "valid");
    assert!(
        lines[1].starts_with("invalid: at char 8 (U+0025 '%'): ")
            && lines[1].contains("IPv6addrz expects \"%25\""),
        "{}",
        lines[1]
    );
    let o = zone(&["tree", "--rule", "IP-literal", "[fe80::1%25eth0]"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "IP-literal 0..16 \"[fe80::1%25eth0]\"\n  IPv6addrz 1..15 \"fe80::1%25eth0\"\n    \
         IPv6address 1..8 \"fe80::1\"\n      h16 1..5 \"fe80\"\n      h16 7..8 \"1\"\n    \
         ZoneID 11..15 \"eth0\"\n"
    );
    let o = zone(&["generate", "--rule", "IPv6addrz", "-n", "20", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0));
    let generated: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(generated.len(), 20);
    let mut args = vec!["check", "--rule", "IP-literal"];
    let bracketed: Vec<String> = generated.iter().map(|s| format!("[{s}]")).collect();
    args.extend(bracketed.iter().map(String::as_str));
    let o = zone(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Without --rule, or with a rule it lacks, the grammar's names are offered.
    let o = zone(&["check", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--rule names the rule"),
        "{}",
        stderr(&o)
    );
    let o = zone(&["check", "--rule", "zone", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean ZoneID"), "{}", stderr(&o));
}

#[test]
fn abnf_grammar_rust_runs_the_code_generator() {
    let o = zone(&["grammar", "--rust"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let code = stdout(&o);
    assert!(code.contains("pub mod rfc6874 {"));
    assert!(code.contains("pub fn ipv6addrz(i: &str) -> IResult<&str, &str>"));
}

#[test]
fn left_recursion_is_refused_by_the_generator_and_served_by_the_oracle() {
    let dir = std::env::temp_dir().join(format!("iri-left-recursion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("expr.abnf");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(b"expr = expr \"+\" term / term\r\nterm = 1*DIGIT\r\n")
        .unwrap();
    drop(f);
    let p = path.to_str().unwrap();
    let o = iri(&["--abnf", p, "grammar", "--rust"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .starts_with("iri: the code generator refuses expr.abnf: left recursion: expr → expr"),
        "{}",
        stderr(&o)
    );
    let o = iri(&["--abnf", p, "check", "--rule", "expr", "1+22+3", "1+"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "valid\ninvalid: at char 2 (end of input), in term: expected DIGIT\n"
    );
    let o = iri(&["--abnf", p, "tree", "--rule", "expr", "1+2"]);
    assert_eq!(
        stdout(&o),
        "expr 0..3 \"1+2\"\n  expr 0..1 \"1\"\n    term 0..1 \"1\"\n  term 2..3 \"2\"\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn abnf_check_speaks_the_scripts_contract() {
    // The options for scripts (issue 15) mean the same with a grammar of one's own:
    // -H, --summary, and the structured JSON error, read from the oracle's error.
    let o = zone(&[
        "check",
        "-H",
        "--summary",
        "--rule",
        "IP-literal",
        "[fe80::1%25eth0]",
        "[fe80::1%eth0]",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "[fe80::1%25eth0]\tvalid");
    assert!(
        lines[1].starts_with("[fe80::1%eth0]\tinvalid: at char 8"),
        "{out}"
    );
    assert_eq!(lines[2], "summary: 2 inputs, 1 valid, 1 invalid");
    let o = zone(&["--json", "check", "--rule", "IP-literal", "[fe80::1%eth0]"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["valid"], false);
    let e = &v["error"];
    assert_eq!(e["kind"], "grammar");
    assert_eq!(
        (e["byte_offset"].as_u64(), e["char_offset"].as_u64()),
        (Some(8), Some(8))
    );
    assert_eq!(e["found"], "%");
    let expected: Vec<&str> = e["expected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    // Each expectation once, though several rules expect ":" there.
    assert!(expected.contains(&"\"%25\""), "{expected:?}");
    let mut unique = expected.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), expected.len(), "{expected:?}");
}
