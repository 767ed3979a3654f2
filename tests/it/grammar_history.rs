//! `docs/grammar-history.md`, the differences between the 2001 draft, RFC 3986, RFC
//! 3987 and the LEIRI note shown by strings, is generated (`abnf/src/strings/history.rs`,
//! the search of `iri diff-grammars`). Regenerating it is a search of a few thousand
//! strings per comparison, too slow for every `cargo test` in debug; so this test
//! checks every example the committed page shows instead: each is still in the one
//! grammar's rule and not in the other's, by the oracles and by the combinators.
//! After changing a grammar, rewrite the page with
//!
//! ```text
//! IRI_GRAMMAR_REGENERATE=1 cargo test --release -p iri-grammar --test it grammar_history
//! ```

use iri_grammar::grammar::{matches_dyn, Rule};
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::{strings::history, Grammars, VariantName};
use std::path::Path;

const PAGE: &str = "docs/grammar-history.md";

fn variant(name: &str) -> VariantName {
    VariantName::EVERY
        .into_iter()
        .find(|v| v.as_str() == name)
        .unwrap_or_else(|| panic!("unknown grammar {name}"))
}

#[test]
fn every_example_of_the_history_page_is_a_difference() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(PAGE);
    let g = Grammars::builtin();
    if std::env::var_os("IRI_GRAMMAR_REGENERATE").is_some() {
        std::fs::write(&path, history::page(&g)).expect("write the page");
    }
    let text = std::fs::read_to_string(&path).expect("the page is committed");
    let mut checked = 0;
    for line in text.lines() {
        let Some(body) = line
            .trim()
            .strip_prefix("<!-- example: ")
            .and_then(|l| l.strip_suffix(" -->"))
        else {
            continue;
        };
        let parts: Vec<&str> = body.splitn(3, " | ").collect();
        let [yes, no, json] = parts[..] else {
            panic!("malformed example comment: {line}")
        };
        let input: String = serde_json::from_str(json).expect("a JSON string");
        for (side, expected) in [(yes, true), (no, false)] {
            let (grammar, rule) = side.split_once(' ').expect("grammar and rule");
            let v = variant(grammar);
            let oracle = Oracle::new(&g, v);
            assert_eq!(
                oracle.matches(rule, &input).unwrap(),
                expected,
                "{PAGE}: {input:?} in {side} should be {expected} (regenerate the page?)"
            );
            let r = Rule::named(v, rule).expect("served by the combinators");
            assert_eq!(matches_dyn(v, r, &input), expected, "{input:?} in {side}");
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} examples on {PAGE}");
    // The issue's example (#17): brackets in a 2001 query, not in RFC 3987's `iquery`;
    // the search finds its minimized form.
    for line in [
        r#"<!-- example: iri-2001 IRI-reference | iri IRI-reference | "http://a/b;p?[x]" -->"#,
        r#"<!-- example: iri-2001 IRI-reference | iri IRI-reference | "a?[" -->"#,
    ] {
        assert!(text.contains(line), "{PAGE} lacks {line}");
    }
    assert!(text.contains("- `iquery` (the 2001 draft) / `iquery` (RFC 3987): `\"a?[\"`"));
}
