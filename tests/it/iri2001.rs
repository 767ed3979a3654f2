//! The 2001 IRI draft (draft-masinter-url-i18n-07 §2.2) as a grammar of the engine:
//! its rules by the draft's names, its fixes (`grammar/draft-masinter-url-i18n-07.abnf`,
//! "FIX n"), its `ichar`, and snapshots of its trees and errors (in `snapshots/`,
//! `tree-2001-*` and `error-2001-*`, like `tests/snapshots.rs`'s).
//!
//! Review a changed snapshot as a student of the documents would, then accept it with
//! `INSTA_UPDATE=always cargo test -p iri-grammar --test it iri2001`.

use iri_grammar::grammar::{check, is_match, Iri, Iri2001, Rule, Uri};
use iri_grammar::{parse_tree, VariantName};
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::Grammars;

fn rule(name: &str) -> Rule {
    Rule::named_in::<Iri2001>(name).unwrap_or_else(|| panic!("the 2001 draft has {name}"))
}

fn snap(name: &str, content: String, description: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings.bind(|| insta::assert_snapshot!(name, content));
}

fn header(rule: &str, input: &str) -> String {
    format!("input:   {input:?}\ngrammar: iri-2001\nrule:    {rule}\n\n")
}

fn snap_tree(name: &str, rule: &str, input: &str, description: &str) {
    let tree = parse_tree::<Iri2001>(rule, input)
        .unwrap_or_else(|e| panic!("{input:?} should match {rule}: {e}"));
    snap(name, header(rule, input) + &tree.to_text(), description);
}

fn snap_error(name: &str, rule_name: &str, input: &str, description: &str) {
    let e = check::<Iri2001>(rule(rule_name), input).expect_err(input);
    snap(
        name,
        header(rule_name, input) + "error: " + &e.message() + "\n",
        description,
    );
}

#[test]
fn a_bracket_in_the_query_is_the_first_difference() {
    // The example: RFC 2732 added "[" and "]" to RFC 2396's `reserved`, and
    // the draft's iquery is *iric, iric including reserved; RFC 3987's iquery has
    // no brackets (RFC 3986 §3.4).
    let input = "http://a/b;p?[x]";
    assert!(is_match::<Iri2001>(rule("IRI-reference"), input));
    assert!(!is_match::<Iri>(Rule::IriReference, input));
    snap_tree(
        "tree-2001-bracket-in-query",
        "IRI-reference",
        input,
        "draft-masinter-url-i18n-07 §2.2: iquery = *iric, iric = reserved | ..., and RFC 2732 put [ ] in reserved",
    );
}

#[test]
fn trees_of_the_draft() {
    snap_tree(
        "tree-2001-ipv6-hexpart",
        "IRI-reference",
        "http://[1::2:1.2.3.4]:80/a",
        "RFC 2732 §3 as the draft copies it: hexpart with \"::\" and an IPv4 tail (needs two characters of lookahead)",
    );
    snap_tree(
        "tree-2001-opaque",
        "IRI-reference",
        "mailto:résumé@example.org",
        "FIX 3: absoluteIRI = scheme \":\" ( ihier_part | iopaque_part )",
    );
    snap_tree(
        "tree-2001-relative-params",
        "IRI-reference",
        "../a;x=1/b;y#frag",
        "RFC 2396's segments with ;params (isegment = *ipchar *( \";\" iparam ))",
    );
    snap_tree(
        "tree-2001-reg-name",
        "IRI-reference",
        "//résumé.example.org/",
        "iauthority = server | ireg_name: a non-ASCII host is no hostname, but a registry-based name",
    );
}

#[test]
fn errors_of_the_draft() {
    snap_error(
        "error-2001-toplabel-digit",
        "hostname",
        "example.123",
        "RFC 2396 §3.2.2: toplabel = alpha | alpha *( alphanum | \"-\" ) alphanum",
    );
    snap_error(
        "error-2001-space",
        "IRI-reference",
        "http://a/b c",
        "no space in the draft's grammar (§3.1 b: it must be escaped as %20)",
    );
}

#[test]
fn every_rule_of_the_file_is_served_under_the_drafts_name() {
    let g = Grammars::builtin();
    for def in &g.draft2001.rules {
        let r = rule(&def.name);
        assert_eq!(r.name_in(VariantName::Iri2001), Some(def.name.as_str()));
        assert_eq!(r.name_in(VariantName::Iri), None, "{}", def.name);
        assert_eq!(r.abnf(), def.text);
    }
    // Rule names are case-insensitive: the draft's `digit` is the one DIGIT.
    assert_eq!(
        Rule::named(VariantName::Iri2001, "DIGIT"),
        Some(rule("digit"))
    );
    assert_eq!(
        Rule::named(VariantName::Iri2001, "HEXDIG"),
        Some(Rule::Hexdig)
    );
    assert_eq!(
        Rule::named(VariantName::Iri2001, "IPv6reference"),
        Some(rule("ipv6reference"))
    );
    // RFC 3987's rules are not the draft's, and the other way round.
    assert_eq!(Rule::named(VariantName::Iri2001, "ipath-abempty"), None);
    assert_eq!(Rule::named(VariantName::Iri, "ihier_part"), None);
    let names: Vec<&str> = Rule::of(VariantName::Iri2001).map(|(n, _)| n).collect();
    assert_eq!(
        names.len(),
        g.draft2001.rules.len() + 2,
        "+ HEXDIG and DQUOTE: {names:?}"
    );
}

#[test]
fn each_fix_is_what_makes_the_iri_rules_reachable() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Iri2001);
    let yes = |r: &str, s: &str| assert!(o.matches(r, s).unwrap(), "{r} {s:?}");
    // FIX 1: a non-ASCII fragment (RFC 2396's fragment is ASCII).
    yes("IRI-reference", "#résumé");
    // FIX 2 and FIX 4: an absolute IRI's hierarchical part with a non-ASCII query.
    yes("absoluteIRI", "http://a/?résumé");
    // FIX 3: an opaque part with non-ASCII characters.
    yes("absoluteIRI", "urn:résumé");
    // FIX 5: ichar.
    yes("ichar", "é");
    for (c, name) in [
        ('\u{80}', "a C1 control (§3.1 e)"),
        ('\u{9F}', "a C1 control (§3.1 e)"),
        ('\u{206A}', "a swapping control (§3.1 e)"),
        ('\u{E0001}', "a language tag (§3.1 e)"),
        ('\u{E000}', "private use (§3.1 f)"),
        ('\u{10FFFD}', "private use (§3.1 f)"),
        ('\u{FFFE}', "not a character"),
        ('\u{1FFFF}', "not a character"),
    ] {
        assert!(
            !o.matches("ichar", &c.to_string()).unwrap(),
            "{name}: U+{:04X}",
            c as u32
        );
        assert!(!is_match::<Iri2001>(rule("ichar"), &c.to_string()));
    }
    for c in [
        '\u{A0}',
        '\u{206C}',
        '\u{FDD0}',
        '\u{FFFD}',
        '\u{E0080}',
        '\u{EFFFD}',
    ] {
        assert!(
            o.matches("ichar", &c.to_string()).unwrap(),
            "U+{:04X}",
            c as u32
        );
    }
}

#[test]
fn the_draft_is_not_rfc_2396_nor_rfc_3987() {
    let draft = |s: &str| is_match::<Iri2001>(rule("IRI-reference"), s);
    // Where the draft and RFC 3986 part (more in docs/grammar-history.md).
    assert!(
        draft("http://a:80:90/"),
        "':' in a reg_name (RFC 2396 §3.2.1)"
    );
    assert!(!is_match::<Uri>(Rule::IriReference, "http://a:80:90/"));
    assert!(
        draft("http://1.2.3.999/"),
        "RFC 2732's IPv4address is 1*3DIGIT each"
    );
    assert!(draft("http://a_b/"), "a reg_name may have '_'");
    assert!(!draft("http://[v1.x]/"), "no IPvFuture before RFC 3986");
}
