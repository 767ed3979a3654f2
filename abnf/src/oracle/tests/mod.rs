//! The oracle's answers: the languages of built-in rules, names, offsets,
//! repetition bounds and case; [`bounds`] holds the tests of its limits.

use super::*;

pub(crate) mod bounds;

fn check(o: &Oracle<'_>, rule: &str, yes: &[&str], no: &[&str]) {
    for s in yes {
        assert!(
            o.matches(rule, s).unwrap(),
            "{rule} under {:?} should match {s:?}",
            o.variant()
        );
    }
    for s in no {
        assert!(
            !o.matches(rule, s).unwrap(),
            "{rule} under {:?} should not match {s:?}",
            o.variant()
        );
    }
}

#[test]
fn dec_octet() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Uri);
    check(
        &o,
        "dec-octet",
        &[
            "0", "9", "10", "99", "100", "199", "200", "249", "250", "255",
        ],
        &["256", "05", "1000", "", "-1", "300", "a"],
    );
}

#[test]
fn ipv6address() {
    let g = Grammars::builtin();
    for v in VariantName::ALL {
        let o = Oracle::new(&g, v);
        check(
            &o,
            "IPv6address",
            &[
                "::",
                "::1",
                "1::",
                "a::b",
                "1:2:3:4:5:6:7:8",
                "1:2:3:4:5:6:1.2.3.4",
                "::ffff:1.2.3.4",
                "1:2:3:4:5:6:7::",
                "1::2:3:4:5:6:7",
                "FFFF:ffff::",
            ],
            &[
                "1:2:3:4:5:6:7:8:9",
                "1::2::3",
                "1:2:3:4:5:6:7:1.2.3.4",
                ":",
                ":::",
                "12345::",
                "1:2:3:4:5:6:7:8::",
                "::1.2.3.256",
            ],
        );
    }
}

#[test]
fn host_gives_back_to_reg_name() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Iri);
    check(&o, "IRI", &["http://1.2.3.4.5/", "http://1.2.3.4/"], &[]);
    check(
        &o,
        "ihost",
        &["1.2.3.4.5", "1.2.3.4", "[::1]"],
        &["[::1", "a b"],
    );
    assert_eq!(o.ends("IPv4address", "1.2.3.4.5", 0).unwrap(), vec![7]);
}

#[test]
fn ucschar_by_variant() {
    let g = Grammars::builtin();
    let leiri = Oracle::new(&g, VariantName::Leiri);
    let iri = Oracle::new(&g, VariantName::Iri);
    check(
        &leiri,
        "ucschar",
        &[" ", "<", "\"", "\u{0}", "\u{10FFFF}", "\u{E000}"],
        &["a", "%", ""],
    );
    check(
        &iri,
        "ucschar",
        &["\u{A0}", "\u{10000}", "é"],
        &[" ", "<", "\u{E000}", "\u{FFFE}"],
    );
    assert!(Oracle::new(&g, VariantName::Uri)
        .matches("ucschar", " ")
        .is_err());
}

#[test]
fn path_empty_is_only_the_empty_string() {
    let g = Grammars::builtin();
    let uri = Oracle::new(&g, VariantName::Uri);
    check(&uri, "path-empty", &[""], &["a", "/", " "]);
    let iri = Oracle::new(&g, VariantName::Iri);
    check(&iri, "ipath-empty", &[""], &["a", "é"]);
}

#[test]
fn uri_and_iri_references() {
    let g = Grammars::builtin();
    let uri = Oracle::new(&g, VariantName::Uri);
    let iri = Oracle::new(&g, VariantName::Iri);
    check(
        &uri,
        "URI-reference",
        &["http://resume/", "../a?b#c", ""],
        &["http://résumé/"],
    );
    check(
        &iri,
        "IRI-reference",
        &["http://résumé/", "http://résumé/"],
        &["http://a b/"],
    );
    assert!(iri.matches("URI-reference", "http://resume/").unwrap());
    assert!(uri.matches("IRI-reference", "x").is_err());
}

#[test]
fn leiri_names_resolve() {
    let g = Grammars::builtin();
    let leiri = Oracle::new(&g, VariantName::Leiri);
    check(
        &leiri,
        "LEIRI-reference",
        &["http://a b/<c>", "x y", ""],
        &["http://a b/%zz", "#a#"],
    );
    check(
        &leiri,
        "LEIRI",
        &["file:///C:/My Documents/"],
        &["My Documents"],
    );
    check(&leiri, "absolute-LEIRI", &["a:b c?d"], &["a:b#c"]);
    assert_eq!(leiri.rule("LEIRI").unwrap().name, "IRI");
    let iri = Oracle::new(&g, VariantName::Iri);
    assert!(iri.rule("LEIRI").is_none());
    assert!(iri.matches("LEIRI-reference", "").is_err());
}

#[test]
fn names_are_case_insensitive() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Iri);
    assert!(o.matches("ipv6ADDRESS", "::").unwrap());
    assert!(o.matches("HexDig", "f").unwrap());
    assert!(o.matches("IPvFuture", "V1.x").unwrap());
    let Err(Unanswered::Unknown(err)) = o.matches("nope", "") else {
        panic!("nope is no rule")
    };
    assert_eq!(err.name, "nope");
    assert!(err.to_string().contains("iri grammar"));
}

#[test]
fn ends_report_byte_offsets() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Iri);
    // "é" is two bytes; isegment ends at 0 (empty), after "é" (2), and after "éa" (3).
    assert_eq!(o.ends("isegment", "éa/b", 0).unwrap(), vec![0, 2, 3]);
    assert_eq!(o.ends("isegment", "éa/b", 4).unwrap(), vec![4, 5]);
}

#[test]
fn repetition_bounds_and_give_back() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Uri);
    check(&o, "h16", &["0", "ffff", "AbC"], &["", "fffff", "g"]);
    // `*( "/" segment )` ends after any slash-led prefix.
    assert_eq!(
        o.ends("path-abempty", "/a//b", 0).unwrap(),
        vec![0, 1, 2, 3, 4, 5]
    );
    // 6( h16 ":" ) is exactly six.
    let e = crate::read("t", "x = 6( h16 \":\" )\n")
        .unwrap()
        .rules
        .remove(0);
    assert!(o.matches_element(&e.definition, "1:2:3:4:5:6:").unwrap());
    assert!(!o.matches_element(&e.definition, "1:2:3:4:5:").unwrap());
    assert!(!o.matches_element(&e.definition, "1:2:3:4:5:6:7:").unwrap());
    // Element referring to an unknown rule.
    let bad = crate::read("t", "x = nope\n").unwrap().rules.remove(0);
    assert!(o.matches_element(&bad.definition, "").is_err());
    // Repetition of something that matches the empty string terminates.
    let empty = crate::read("t", "x = 3*path-empty 2*5( [\"a\"] ) *( *\"b\" )\n")
        .unwrap()
        .rules
        .remove(0);
    assert!(o.matches_element(&empty.definition, "aabbb").unwrap());
    assert!(o.matches_element(&empty.definition, "").unwrap());
    assert!(!o.matches_element(&empty.definition, "aaaaaa").unwrap());
}

#[test]
fn case_sensitivity_of_strings() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Uri);
    let e = crate::read("t", "x = %s\"aB\" \"cD\"\n")
        .unwrap()
        .rules
        .remove(0);
    assert!(o.matches_element(&e.definition, "aBcd").unwrap());
    assert!(o.matches_element(&e.definition, "aBCD").unwrap());
    assert!(!o.matches_element(&e.definition, "abcd").unwrap());
}
