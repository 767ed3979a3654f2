//! Each grammar keeps its own rule names (README, "One rule set, three grammars"):
//! RFC 3986 names under `Uri`, RFC 3987 names under `Iri`, LEIRI names under `Leiri`.

use iri_grammar::grammar::Rule;
use iri_grammar_abnf::{Grammars, VariantName};

#[test]
fn every_name_mapped_for_uri_exists_in_rfc3986() {
    let g = Grammars::builtin();
    for &r in Rule::ALL {
        if let Some(name) = r.uri_name() {
            assert!(
                g.rfc3986.get(name).is_some() || g.core.get(name).is_some(),
                "{:?} is named {name:?} under Uri, which grammar/rfc3986.abnf does not define",
                r
            );
        }
    }
}

#[test]
fn every_rule_of_each_document_is_served_under_its_own_name() {
    let g = Grammars::builtin();
    for rule in g.rfc3986.rules.iter().chain(&g.core.rules) {
        let r = Rule::named(VariantName::Uri, &rule.name)
            .unwrap_or_else(|| panic!("RFC 3986's {} has no combinator under Uri", rule.name));
        assert_eq!(r.uri_name(), Some(rule.name.as_str()));
    }
    for rule in g.rfc3987.rules.iter().chain(&g.core.rules) {
        let r = Rule::named(VariantName::Iri, &rule.name)
            .unwrap_or_else(|| panic!("RFC 3987's {} has no combinator under Iri", rule.name));
        assert_eq!(r.iri_name(), rule.name);
    }
    for name in [
        "LEIRI",
        "LEIRI-reference",
        "absolute-LEIRI",
        "ucschar",
        "ipath",
        "iprivate",
    ] {
        assert!(
            Rule::named(VariantName::Leiri, name).is_some(),
            "{name} under Leiri"
        );
    }
    // A grammar does not answer to another's names.
    assert_eq!(Rule::named(VariantName::Leiri, "IRI-reference"), None);
    assert_eq!(Rule::named(VariantName::Uri, "ipchar"), None);
    assert_eq!(Rule::named(VariantName::Uri, "ucschar"), None);
    assert_eq!(Rule::named(VariantName::Iri, "LEIRI"), None);
    // Names are case-insensitive (RFC 5234 §2.1).
    assert_eq!(
        Rule::named(VariantName::Uri, "ipv6ADDRESS"),
        Some(Rule::Ipv6address)
    );
}

#[test]
fn rule_lists_have_each_name_once() {
    for v in VariantName::ALL {
        let names: Vec<&str> = Rule::of(v).map(|(n, _)| n).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{v:?}");
    }
    assert_eq!(
        Rule::of(VariantName::Uri).count(),
        40,
        "36 RFC 3986 rules + 4 core rules"
    );
}

#[test]
fn trees_carry_the_variants_names() {
    use iri_grammar::{parse_tree, Leiri, Uri};
    let t = parse_tree::<Uri>("URI-reference", "http://a/b").unwrap();
    fn child(n: iri_grammar::Node<'_>, k: usize) -> iri_grammar::Node<'_> {
        n.children().nth(k).unwrap()
    }
    assert_eq!(t.root().rule(), "URI-reference");
    assert_eq!(child(t.root(), 0).rule(), "URI");
    assert_eq!(child(child(t.root(), 0), 1).rule(), "hier-part");
    let t = parse_tree::<Leiri>("LEIRI-reference", "http://a/b c").unwrap();
    assert_eq!(child(t.root(), 0).rule(), "LEIRI");
}
