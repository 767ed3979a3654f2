//! Typed references: components, host kinds, conventions.

use iri_grammar::reference::{HostKind, IriRef, LeiriRef, UriRef};
use iri_grammar::tree::tree_of;
use iri_grammar::{Iri, Rule};
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};
use std::collections::{BTreeSet, HashSet};

#[test]
fn absent_and_empty_components_differ() {
    let r = IriRef::parse("http://a/?").unwrap();
    assert_eq!((r.query(), r.fragment()), (Some(""), None));
    let r = IriRef::parse("http://a/").unwrap();
    assert_eq!((r.query(), r.fragment()), (None, None));
    let r = IriRef::parse("http://@:/#").unwrap();
    assert_eq!(r.userinfo(), Some(""));
    assert_eq!(r.host(), Some(""));
    assert_eq!(r.port(), Some(""));
    assert_eq!(r.fragment(), Some(""));
    let r = IriRef::parse("").unwrap();
    assert_eq!((r.scheme(), r.authority(), r.path()), (None, None, ""));
}

#[test]
fn host_kinds_are_decided_by_the_grammar() {
    let kind = |s: &str| IriRef::parse(s).unwrap().host_kind();
    assert_eq!(kind("http://1.2.3.4/"), Some(HostKind::Ipv4));
    assert_eq!(kind("http://01.02.03.04/"), Some(HostKind::RegName));
    assert_eq!(kind("http://1.2.3.4.5/"), Some(HostKind::RegName));
    assert_eq!(kind("http://256.1.1.1/"), Some(HostKind::RegName));
    assert_eq!(kind("http://[::ffff:1.2.3.4]/"), Some(HostKind::Ipv6));
    assert_eq!(kind("http://[v1.fe80::a+en1]/"), Some(HostKind::IpvFuture));
    assert_eq!(kind("http:///"), Some(HostKind::RegName));
    assert_eq!(kind("mailto:x@y"), None);
}

#[test]
fn iri_and_absolute_iri_are_distinguishable() {
    let r = IriRef::parse("a:b#c").unwrap();
    assert!(r.is_absolute() && !r.is_absolute_iri());
    let r = IriRef::parse("a:b").unwrap();
    assert!(r.is_absolute() && r.is_absolute_iri());
    let r = IriRef::parse("b#c").unwrap();
    assert!(r.is_relative() && !r.is_absolute_iri());
}

#[test]
fn conventions() {
    let a: IriRef<'static> = "http://a/b".parse().unwrap();
    let b = IriRef::try_from("http://a/b").unwrap();
    assert_eq!(a, b);
    let c = IriRef::try_from(String::from("HTTP://a/b")).unwrap();
    assert_ne!(
        a, c,
        "simple string comparison: case matters (RFC 3987 §5.3.1)"
    );
    let set: HashSet<IriRef<'_>> = [a.clone(), b.clone()].into_iter().collect();
    assert_eq!(set.len(), 1);
    assert!(
        set.contains("http://a/b"),
        "Borrow<str> agrees with Hash and Eq"
    );
    let sorted: BTreeSet<IriRef<'_>> = [c.clone(), a.clone()].into_iter().collect();
    assert_eq!(sorted.iter().next().unwrap().as_str(), "HTTP://a/b");
    assert_eq!(a.to_string(), "http://a/b");
    assert_eq!(AsRef::<str>::as_ref(&a), "http://a/b");
    let debug = format!("{a:?}");
    assert!(
        debug.contains("scheme: Some(\"http\")") && debug.contains("path: \"/b\""),
        "{debug}"
    );
    let e = "http://a b".parse::<IriRef<'static>>().unwrap_err();
    assert_eq!(e.byte_offset(), 8);
    let _: &dyn std::error::Error = &e;
    assert!(UriRef::parse("http://é").is_err());
    assert!(LeiriRef::parse("http://a/{b}").is_ok());
}

/// The components the compiled grammar finds (in its walk, RFC 3986 Appendix B run
/// in step) are those of the parse tree, for thousands of generated references of
/// each kind.
#[test]
fn components_agree_with_the_parse_tree() {
    let grammars = Grammars::builtin();
    let mut g = Generator::new(&grammars, VariantName::Iri, 99);
    for k in 0..5000 {
        let s = if k % 3 == 0 {
            g.generate("irelative-ref").unwrap()
        } else {
            g.generate("IRI").unwrap()
        };
        let r = IriRef::parse(&s).unwrap();
        let tree = tree_of::<Iri>(Rule::IriReference, &s).unwrap();
        let nodes: Vec<(&str, usize, usize)> = tree
            .nodes()
            .map(|n| (n.rule(), n.start(), n.end()))
            .collect();
        let span = |rule: &str| {
            nodes
                .iter()
                .find(|(n, _, _)| *n == rule)
                .map(|&(_, a, b)| &s[a..b])
        };
        assert_eq!(r.scheme(), span("scheme"), "{s:?}");
        assert_eq!(r.authority(), span("iauthority"), "{s:?}");
        assert_eq!(r.userinfo(), span("iuserinfo"), "{s:?}");
        assert_eq!(r.host(), span("ihost"), "{s:?}");
        assert_eq!(r.port(), span("port"), "{s:?}");
        assert_eq!(r.query(), span("iquery"), "{s:?}");
        assert_eq!(r.fragment(), span("ifragment"), "{s:?}");
        let path = [
            "ipath-abempty",
            "ipath-absolute",
            "ipath-noscheme",
            "ipath-rootless",
            "ipath-empty",
        ]
        .iter()
        .find_map(|p| span(p));
        assert_eq!(Some(r.path()), path, "{s:?}");
        let kind = if span("IPv6address").is_some() {
            Some(HostKind::Ipv6)
        } else if span("IPvFuture").is_some() {
            Some(HostKind::IpvFuture)
        } else if span("IPv4address").is_some() {
            Some(HostKind::Ipv4)
        } else if span("ireg-name").is_some() {
            Some(HostKind::RegName)
        } else {
            None
        };
        assert_eq!(r.host_kind(), kind, "{s:?}");
    }
}
