//! Snapshots of `iri tree --literals`: trees whose leaves are the literal text, so that
//! read left to right they spell the input. Kept with the library's snapshots in the
//! top-level `snapshots/` folder and organized the same way (`tests/it/snapshots.rs`):
//! each starts with the input, the grammar and the rule; `literals-*` names them.
//!
//! A leaf line starts with a quote: `"http" 0..4` is the text at byte offsets 0..4 that
//! no rule below its parent covers. A rule line ends with the alternative its rule took
//! when the definition is an alternation (`(alternative 6 of 9)`). Review a changed snapshot, then accept it with
//! `INSTA_UPDATE=always cargo test -p iri-cli --test it snapshots::` (or `cargo insta review`).
//!
//! Snapshots of `iri trace` (`trace-*`) sit beside them: the steps of the combinators,
//! numbered, with the byte offset of each.

use std::process::Command;

/// Asserts the snapshot `name` in `snapshots/`: the input, the grammar and the rule,
/// then what the command printed.
fn keep(name: &str, grammar: &str, rule: &str, input: &str, printed: &str, description: &str) {
    let content = format!("input:   {input:?}\ngrammar: {grammar}\nrule:    {rule}\n\n{printed}");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings.bind(|| insta::assert_snapshot!(name, content));
}

/// Snapshots `iri --grammar G tree --literals --rule R INPUT`.
fn snap(name: &str, grammar: &str, rule: &str, input: &str, description: &str) {
    let o = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args([
            "--grammar",
            grammar,
            "tree",
            "--literals",
            "--rule",
            rule,
            input,
        ])
        .output()
        .expect("run iri");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{input:?} should match {rule} ({grammar})"
    );
    let tree = String::from_utf8(o.stdout).unwrap();
    keep(name, grammar, rule, input, &tree, description);
}

#[test]
fn literals_iri_with_percent_encoding() {
    snap(
        "literals-iri-reference",
        "iri",
        "IRI-reference",
        "http://résumé.example.org/ros%C3%A9?q=1#f",
        "The README's tree with literal leaves: the delimiters \":\", \"//\", \"?\", \"#\" \
         belong to the rules that write them",
    );
}

#[test]
fn literals_ipv6_with_embedded_ipv4() {
    snap(
        "literals-ipv6-embedded-ipv4",
        "uri",
        "IP-literal",
        "[::ffff:192.0.2.1]",
        "RFC 3986 §3.2.2: \"::\" is a literal of IPv6address, the dots of the IPv4address are \
         literals between its dec-octets",
    );
}

#[test]
fn literals_uri_with_userinfo_and_port() {
    snap(
        "literals-userinfo-port",
        "uri",
        "URI",
        "ftp://anonymous:pw@ftp.example.org:21/pub",
        "RFC 3986 §3.2: \"@\" and \":\" are literals of authority, not of userinfo or port",
    );
}

#[test]
fn literals_relative_reference() {
    snap(
        "literals-relative-reference",
        "iri",
        "IRI-reference",
        "../g;x?y#s",
        "RFC 3986 §5.4.1: a relative reference; folded character rules leave their \
         characters to their parents' literals",
    );
}

#[test]
fn literals_leiri_with_space() {
    snap(
        "literals-leiri-space",
        "leiri",
        "LEIRI",
        "http://example.org/a b<c>",
        "LEIRI note §2: space, \"<\" and \">\" are ucschar, inside the literal of isegment",
    );
}

#[test]
fn literals_empty_reference() {
    snap(
        "literals-empty-reference",
        "uri",
        "URI-reference",
        "",
        "RFC 3986 §4.1: the empty string is a reference (path-empty): no leaves at all",
    );
}

/// Snapshots `iri --grammar G trace --rule R INPUT`: the numbered steps of the
/// combinators, then the verdict (`valid` says which exit status is expected).
fn trace_snap(name: &str, grammar: &str, rule: &str, input: &str, valid: bool, description: &str) {
    let o = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["--grammar", grammar, "trace", "--rule", rule, input])
        .output()
        .expect("run iri");
    assert_eq!(
        o.status.code(),
        Some(if valid { 0 } else { 1 }),
        "{input:?} against {rule} ({grammar})"
    );
    let trace = String::from_utf8(o.stdout).unwrap();
    keep(name, grammar, rule, input, &trace, description);
}

#[test]
fn trace_ipv6_alternative_6_of_9() {
    trace_snap(
        "trace-ipv6-embedded-ipv4",
        "uri",
        "IPv6address",
        "::ffff:1.2.3.4",
        true,
        "RFC 3986 §3.2.2: alternatives 1 to 5 of IPv6address are tried and given up \
         (a first character that cannot start one, a \".\" where \":\" was expected) \
         before 6 matches",
    );
}

#[test]
fn trace_ipv4_refused_by_lookahead() {
    trace_snap(
        "trace-ihost-ipv4-then-reg-name",
        "iri",
        "ihost",
        "1.2.3.4x",
        true,
        "RFC 3986 §3.2.2: IPv4address matches \"1.2.3.4\", but \"x\" may not follow it \
         (the Ahead decision), so ihost backtracks and ireg-name takes the whole input",
    );
}

#[test]
fn trace_dec_octet_256_fails() {
    trace_snap(
        "trace-dec-octet-256",
        "uri",
        "dec-octet",
        "256",
        false,
        "RFC 3986 §3.2.2: \"25\" then \"6\" is not \"25\" %x30-35; every alternative of \
         dec-octet fails, and the trace shows where each stopped",
    );
}
