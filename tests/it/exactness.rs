//! The traps where a naive ordered (PEG) translation of the ABNF accepts a different
//! language than the ABNF (README, "ABNF is not PEG"), each pinned down.

use iri_grammar::grammar::{is_match, Iri, Leiri, Rule, Uri};
use iri_grammar::tree::tree_of;
use iri_grammar::{Node, ParseTree};

fn nodes<'t>(t: &'t ParseTree<'_>, rule: &str) -> Vec<Node<'t>> {
    t.nodes().filter(|n| n.rule() == rule).collect()
}

#[test]
fn a_prefix_that_is_ipv4_does_not_make_the_host_ipv4() {
    // `IPv4address` matches "1.2.3.4" of "1.2.3.4.5": the host is a reg-name.
    let t = tree_of::<Iri>(Rule::Iri, "http://1.2.3.4.5/").unwrap();
    let hosts = nodes(&t, "ihost");
    assert_eq!(hosts.len(), 1);
    let inside: Vec<Node<'_>> = hosts[0].children().collect();
    assert_eq!(inside.len(), 1);
    assert_eq!(inside[0].rule(), "ireg-name");
    assert_eq!(inside[0].text(), "1.2.3.4.5");
    assert!(nodes(&t, "IPv4address").is_empty());
}

#[test]
fn a_dotted_quad_is_an_ipv4_host_and_not_a_reg_name() {
    // First match wins (RFC 3987 §2.2; RFC 3986 §3.2.2: IPv4address takes precedence).
    let t = tree_of::<Iri>(Rule::Iri, "http://1.2.3.4/").unwrap();
    assert_eq!(nodes(&t, "IPv4address").len(), 1);
    assert!(nodes(&t, "ireg-name").is_empty());
    let t = tree_of::<Uri>(Rule::Iri, "http://1.2.3.4/").unwrap();
    assert_eq!(nodes(&t, "IPv4address").len(), 1);
    assert!(nodes(&t, "reg-name").is_empty());
    // 01.02.03.04 is no IPv4address (dec-octet has no leading zeros): a reg-name.
    let t = tree_of::<Uri>(Rule::Iri, "http://01.02.03.04/").unwrap();
    assert!(nodes(&t, "IPv4address").is_empty());
    assert_eq!(nodes(&t, "reg-name").len(), 1);
}

#[test]
fn dec_octet() {
    for ok in [
        "0", "9", "10", "99", "100", "199", "200", "249", "250", "255",
    ] {
        assert!(is_match::<Uri>(Rule::DecOctet, ok), "{ok} is a dec-octet");
    }
    for bad in ["256", "05", "1000", "", "00", "260", "300", "-1", "1a"] {
        assert!(
            !is_match::<Uri>(Rule::DecOctet, bad),
            "{bad} is not a dec-octet"
        );
    }
}

#[test]
fn ipv6address() {
    for ok in [
        "::",
        "::1",
        "1::",
        "a::b",
        "1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:1.2.3.4",
        "::ffff:1.2.3.4",
        "1:2:3:4:5:6:7::",
        "::2:3:4:5:6:7:8",
        "1::8",
        "1:2::7:8",
        "1:2:3:4:5::1.2.3.4",
        "ABCD:ef01::",
        "::1.2.3.4",
        "1::1.2.3.4",
        "1:2:3:4::5:6",
    ] {
        assert!(
            is_match::<Uri>(Rule::Ipv6address, ok),
            "{ok} is an IPv6address"
        );
    }
    for bad in [
        "1:2:3:4:5:6:7:8:9",
        "1::2::3",
        "1:2:3:4:5:6:7:1.2.3.4",
        ":",
        ":1",
        "1:",
        "12345::",
        "1:2:3:4:5:6:7:8::",
        "::1.2.3.256",
        "1:2:3:4:5:6:7",
        ":::",
        "::1:2:3:4:5:6:7:8",
        "g::",
    ] {
        assert!(
            !is_match::<Uri>(Rule::Ipv6address, bad),
            "{bad} is not an IPv6address"
        );
    }
}

#[test]
fn every_path_form() {
    // `ipath` lists five alternatives; a nullable first one must not hide the others.
    let t = |s: &str| {
        let tree = tree_of::<Iri>(Rule::Ipath, s).unwrap();
        let rule = tree.root().children().next().unwrap().rule();
        rule
    };
    assert_eq!(t(""), "ipath-abempty");
    assert_eq!(t("/a/b"), "ipath-abempty");
    assert_eq!(t("a/b"), "ipath-noscheme");
    assert_eq!(t("a:b/c"), "ipath-rootless");
    assert!(is_match::<Iri>(Rule::IpathAbsolute, "/a//b"));
    assert!(!is_match::<Iri>(Rule::IpathAbsolute, "//a"));
    assert!(!is_match::<Iri>(Rule::IpathNoscheme, "a:b"));
    assert!(is_match::<Iri>(Rule::IpathEmpty, ""));
    assert!(!is_match::<Iri>(Rule::IpathEmpty, "a"));
}

#[test]
fn the_variants_differ_only_in_their_characters() {
    let cases = [
        ("http://résumé.example.org/", false, true, true),
        ("http://example.org/?q=\u{E000}", false, true, true),
        ("http://example.org/\u{E000}", false, false, true),
        ("http://example.org/a b", false, false, true),
        ("http://example.org/<a>{|}\\^`\"", false, false, true),
        ("http://example.org/\u{202E}", false, true, true),
        ("http://example.org/%zz", false, false, false),
        ("http://example.org/#a#b", false, false, false),
        ("http://[::1]/", true, true, true),
    ];
    for (s, uri, iri, leiri) in cases {
        assert_eq!(
            is_match::<Uri>(Rule::IriReference, s),
            uri,
            "{s:?} under Uri"
        );
        assert_eq!(
            is_match::<Iri>(Rule::IriReference, s),
            iri,
            "{s:?} under Iri"
        );
        assert_eq!(
            is_match::<Leiri>(Rule::IriReference, s),
            leiri,
            "{s:?} under Leiri"
        );
    }
}
