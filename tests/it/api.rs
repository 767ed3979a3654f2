//! The library as a program that imports it sees it (issue 14): the typed host and
//! port, the absolute type and its resolution, conversions between the types, the
//! builder and the setters, the query as pairs, the encoding helpers, the methods
//! beside the free functions, and the error's accessors and messages.
//!
//! Properties run over references the ABNF generator makes, so that every part of
//! each grammar is met, not only the examples one thinks of.

use core::net::{Ipv4Addr, Ipv6Addr};
use iri_grammar::grammar::{check, Expectation, Rule};
use iri_grammar::pct::{self, EncodeSet};
use iri_grammar::reference::{
    AbsoluteIri, AbsoluteLeiri, AbsoluteUri, Component, Host, HostKind, IriRef, LeiriRef,
    ReferenceBuilder, UriRef,
};
use iri_grammar::{Iri, Leiri, Reference, Uri, Variant};
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};

/// `n` strings of rule `rule` in grammar `V`, from a fixed seed.
fn generated<V: Variant>(rule: &str, n: usize, seed: u64) -> Vec<String> {
    let grammars = Grammars::builtin();
    let mut g = Generator::new(&grammars, V::NAME, seed);
    (0..n).map(|_| g.generate(rule).unwrap()).collect()
}

/// The host's value agrees with the standard library's reading of the same text,
/// for every IPv6 and IPv4 address the generator writes (all the forms of RFC 3986
/// §3.2.2: "::" anywhere, an embedded IPv4address, hex in both cases).
#[test]
fn typed_hosts_agree_with_core_net() {
    for text in generated::<Uri>("IPv6address", 1500, 1) {
        let r = UriRef::parse_owned(format!("http://[{text}]/")).unwrap();
        let Some(Host::Ipv6(addr)) = r.host_parsed() else {
            panic!("{text}: {:?}", r.host_parsed());
        };
        // core's parser accepts every form the ABNF has.
        let want: Ipv6Addr = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(addr, want, "{text}");
    }
    for text in generated::<Uri>("IPv4address", 300, 2) {
        let r = UriRef::parse_owned(format!("http://{text}:1/")).unwrap();
        let want: Ipv4Addr = text.parse().unwrap();
        assert_eq!(r.host_parsed(), Some(Host::Ipv4(want)), "{text}");
    }
}

/// Every host of a generated reference has a value of the kind the grammar
/// found, and writing an IP value back gives an equal address.
#[test]
fn every_host_has_a_value_of_its_kind() {
    let mut kinds = [0usize; 4];
    for text in generated::<Iri>("IRI-reference", 3000, 3) {
        let r = IriRef::parse(&text).unwrap();
        let (Some(host), Some(kind)) = (r.host_parsed(), r.host_kind()) else {
            assert!(r.authority().is_none());
            continue;
        };
        assert_eq!(host.kind(), kind, "{text}");
        kinds[kind as usize] += 1;
        match host {
            Host::RegName(name) => assert_eq!(Some(name), r.host()),
            Host::IpvFuture { version, text: t } => {
                // "v" or "V": ABNF strings are case-insensitive.
                let host = r.host().unwrap();
                assert_eq!(&host[2..], format!("{version}.{t}]"), "{text}");
            }
            Host::Ipv4(_) | Host::Ipv6(_) => {
                let back = IriRef::parse_owned(format!("//{host}")).unwrap();
                assert_eq!(back.host_parsed(), Some(host), "{text}");
            }
        }
    }
    // The generator reaches every kind; otherwise this test proves less.
    assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
}

#[test]
fn ports_as_numbers() {
    let port = |s: &str| IriRef::parse(s).unwrap().port_number();
    assert_eq!(port("http://a:0/"), Ok(Some(0)));
    assert_eq!(port("http://a:65535/"), Ok(Some(65535)));
    assert_eq!(port("http://a:000000000443/"), Ok(Some(443)));
    assert!(port("http://a:65536/").is_err());
    assert!(port("http://a:99999999999999999999999999/").is_err());
    let default = |s: &str| IriRef::parse(s).unwrap().port_or_known_default();
    assert_eq!(default("wss://a"), Ok(Some(443)));
    assert_eq!(default("ftp://a:"), Ok(Some(21)));
    assert_eq!(default("file:///x"), Ok(None));
    assert!(default("http://a:70000").is_err());
    assert_eq!(HostKind::Ipv4 as usize, 1);
}

/// `base.resolve(&r)` is `r.resolve(&base)`, and `base.join(s)` parses then
/// resolves, over generated references and bases.
#[test]
fn absolute_resolution_is_reference_resolution() {
    let bases = generated::<Iri>("IRI", 60, 4);
    let refs = generated::<Iri>("IRI-reference", 60, 5);
    for b in &bases {
        let base = AbsoluteIri::parse(b).unwrap();
        let base_ref = IriRef::parse(b).unwrap();
        for s in &refs {
            let r = IriRef::parse(s).unwrap();
            let want = r.resolve(&base_ref).unwrap();
            assert_eq!(base.resolve(&r), want, "{b} + {s}");
            assert_eq!(base.join(s).unwrap(), want, "{b} + {s}");
            // A Reference resolves against an AbsoluteReference as against its base.
            assert_eq!(r.resolve(&base).unwrap(), want);
            assert!(want.is_absolute());
        }
    }
}

#[test]
fn absolute_parsing_and_conversions() {
    // What is and is not absolute.
    assert!(AbsoluteIri::parse("a:").is_ok());
    assert!(AbsoluteIri::parse("a:b#f").is_ok());
    for relative in ["", "#f", "//a", "/a:b", "a/b:c", "./a:b"] {
        let e = AbsoluteIri::parse(relative).unwrap_err();
        assert_eq!(e.start_rule(), "IRI", "{relative:?}");
    }
    assert_eq!(
        AbsoluteLeiri::parse("/x").unwrap_err().start_rule(),
        "LEIRI"
    );
    // Invalid as a reference too: the error is still the IRI rule's.
    assert_eq!(AbsoluteIri::parse("a b").unwrap_err().start_rule(), "IRI");

    // TryFrom a reference keeps the reference when it is relative.
    let rel = IriRef::parse("g?q").unwrap();
    let back = AbsoluteIri::try_from(rel).unwrap_err().into_reference();
    assert_eq!(back.query(), Some("q"));

    // URI ⊂ IRI ⊂ LEIRI, with the same components.
    let u = UriRef::parse("http://u@h:1/p?q#f").unwrap();
    let i: IriRef = u.clone().into();
    let l: LeiriRef = i.clone().into();
    for part in Component::ALL {
        assert_eq!(u.get(part), i.get(part));
        assert_eq!(i.get(part), l.get(part));
    }
    let l2: LeiriRef = UriRef::parse("a").unwrap().into();
    assert_eq!(l2, "a");
    // And back when the text allows it.
    assert_eq!(UriRef::try_from(i).unwrap(), u);
    assert!(IriRef::try_from(LeiriRef::parse("a b").unwrap()).is_err());
    assert!(UriRef::try_from(LeiriRef::parse("é").unwrap()).is_err());
    let au: AbsoluteUri = AbsoluteUri::parse("http://a/").unwrap();
    let ai: AbsoluteIri = au.into();
    assert_eq!(AbsoluteUri::try_from(ai).unwrap(), "http://a/");
    assert!(AbsoluteUri::try_from(AbsoluteIri::parse("http://é/").unwrap()).is_err());

    // Parsed and owned forms.
    let owned: AbsoluteIri<'static> = "http://a/b#c".parse().unwrap();
    assert_eq!(owned.without_fragment(), "http://a/b");
    assert!(owned.without_fragment().is_absolute_iri());
    assert_eq!(String::from(owned), "http://a/b#c");
}

#[test]
fn make_relative_is_the_inverse_of_resolve() {
    let base = AbsoluteIri::parse("http://a/b/c/d;p?q").unwrap();
    for s in [
        "g",
        "../g",
        "/x/y",
        "//other/x",
        "?y",
        "#s",
        "ftp://a/b",
        "",
    ] {
        let target = base.join(s).unwrap();
        let rel = base.make_relative(&target).unwrap();
        assert_eq!(base.resolve(&rel), target, "{s:?} -> {rel}");
    }
    let dots = AbsoluteIri::parse("http://a/b/../c").unwrap();
    assert!(base.make_relative(&dots).is_err());
}

/// Rebuilding a reference from its components gives it back, with the same
/// components: every component passes its own rule in its context, in each
/// grammar, and the builder records the boundaries the parser finds.
#[test]
fn builder_round_trip() {
    fn round_trip<V: Variant>(rule: &str, seed: u64) {
        for text in generated::<V>(rule, 1500, seed) {
            let r = Reference::<V>::parse(&text).unwrap();
            let b = r
                .to_builder()
                .build()
                .unwrap_or_else(|e| panic!("{text:?}: {e:#}"));
            assert_eq!(b, r, "{text:?}");
            for part in [Component::Authority, Component::Host, Component::Path] {
                assert_eq!(b.span(part), r.span(part), "{text:?} {part}");
            }
            assert_eq!(b.host_kind(), r.host_kind());
            // With encoding on, valid text is left as it is.
            let e = r.to_builder().encode(true).build().unwrap();
            assert_eq!(e, r, "{text:?}");
        }
    }
    round_trip::<Uri>("URI-reference", 6);
    round_trip::<Iri>("IRI-reference", 7);
    round_trip::<Leiri>("LEIRI-reference", 8);
}

#[test]
fn builder_checks_each_component_by_its_rule() {
    let err = |b: ReferenceBuilder<'_, Iri>| b.build().unwrap_err();
    let e = err(IriRef::builder().scheme("1http"));
    assert_eq!(
        (e.component(), e.error().start_rule()),
        (Component::Scheme, "scheme")
    );
    let e = err(IriRef::builder().host("a b"));
    assert_eq!(e.component(), Component::Host);
    let e = err(IriRef::builder().host("[::1"));
    assert_eq!(e.component(), Component::Host);
    let e = err(IriRef::builder().host("a").port_text("8a"));
    assert_eq!(
        (e.component(), e.error().char_offset()),
        (Component::Port, 1)
    );
    let e = err(IriRef::builder().host("a").path("b"));
    assert_eq!(e.error().start_rule(), "ipath-abempty");
    let e = err(IriRef::builder().scheme("s").path("//b"));
    assert_eq!(
        (e.error().start_rule(), e.error().char_offset()),
        ("ipath-absolute", 1)
    );
    let e = err(IriRef::builder().path("a:b"));
    assert_eq!(e.error().start_rule(), "ipath-noscheme");
    let e = err(IriRef::builder().path("/x").query("\u{202E}#"));
    assert_eq!(
        (e.component(), e.error().char_offset()),
        (Component::Query, 1)
    );
    // A private-use character is allowed in the query only (RFC 3987 §2.2).
    assert!(IriRef::builder().query("\u{E000}").build().is_ok());
    assert!(IriRef::builder().fragment("\u{E000}").build().is_err());
    // The same character in URIs: never.
    assert!(UriRef::builder().query("é").build().is_err());

    // Encoding mends what can be mended.
    let r = IriRef::builder()
        .userinfo("us er")
        .host("exa mple")
        .path("/a:b/c d")
        .query("x y#z")
        .fragment("100%")
        .encode(true)
        .build()
        .unwrap();
    assert_eq!(r, "//us%20er@exa%20mple/a:b/c%20d?x%20y%23z#100%25");
    let r = IriRef::builder()
        .path("a:b/c:d")
        .encode(true)
        .build()
        .unwrap();
    assert_eq!(r, "a%3Ab/c:d");
    let r = UriRef::builder().path("/ü").encode(true).build().unwrap();
    assert_eq!(r, "/%C3%BC");
    // What encoding cannot mend.
    assert!(IriRef::builder().host("[x").encode(true).build().is_err());
    assert!(IriRef::builder()
        .host("a")
        .path("b")
        .encode(true)
        .build()
        .is_err());

    // The empty builder: the empty reference; userinfo or port alone: empty host.
    assert_eq!(IriRef::builder().build().unwrap(), "");
    assert_eq!(
        IriRef::builder().userinfo("u").port(1).build().unwrap(),
        "//u@:1"
    );
    // Removing the host removes the authority.
    let r = IriRef::parse("http://u@a:1/p").unwrap();
    assert_eq!(r.to_builder().host(None).build().unwrap(), "http:/p");
}

#[test]
fn setters_keep_the_other_components() {
    let mut r = IriRef::parse("http://u@[::1]:8/a/b?q#f").unwrap();
    r.set_path("/c").unwrap();
    r.set_query(Some("")).unwrap();
    assert_eq!(r, "http://u@[::1]:8/c?#f");
    assert_eq!(r.host_parsed(), Some(Host::Ipv6(Ipv6Addr::LOCALHOST)));
    r.set_fragment(None).unwrap();
    r.set_query(None).unwrap();
    assert_eq!(r, "http://u@[::1]:8/c");
    r.set_path("").unwrap();
    assert_eq!(r.path(), "");
    assert!(r.set_path("x").is_err());
    assert_eq!(r, "http://u@[::1]:8");

    // A borrowed reference can be edited (its new text is owned).
    let text = String::from("a:b");
    let mut borrowed = IriRef::parse(&text).unwrap();
    borrowed.set_fragment(Some("x")).unwrap();
    assert_eq!((borrowed.as_str(), text.as_str()), ("a:b#x", "a:b"));

    let mut abs = AbsoluteIri::parse("urn:a").unwrap();
    abs.set_path("b:c").unwrap();
    assert_eq!(abs.scheme(), "urn");
    assert_eq!(abs, "urn:b:c");
}

#[test]
fn query_pairs_round_trip() {
    let pairs = [
        ("a b", Some("c&d=e")),
        ("", Some("")),
        ("ünï", None),
        ("x+y", Some("%")),
    ];
    let r = IriRef::builder().query_pairs(pairs).build().unwrap();
    let back: Vec<_> = r
        .query_pairs()
        .map(|p| {
            (
                p.decoded_name().into_owned(),
                p.decoded_value().map(|v| v.into_owned()),
            )
        })
        .collect();
    // The empty name with an empty value is written "=", read back the same.
    let want: Vec<_> = pairs
        .iter()
        .map(|(n, v)| (n.to_string(), v.map(str::to_string)))
        .collect();
    assert_eq!(back, want, "{r}");
    // No pairs: no query, not an empty one.
    let empty: [(&str, Option<&str>); 0] = [];
    assert_eq!(
        IriRef::builder()
            .query_pairs(empty)
            .build()
            .unwrap()
            .query(),
        None
    );
    assert_eq!(IriRef::parse("a").unwrap().query_pairs().count(), 0);
}

/// Encoding for a set gives text that matches the set's rule in that grammar, and
/// decodes back to the text, for arbitrary text.
#[test]
fn encoding_fits_the_rule_and_decodes_back() {
    let texts = [
        "plain",
        "a b/c?d#e%f",
        "100%25",
        "\u{0}\u{7F}\u{202E}\u{E000}\u{10FFFF}",
        "ü&=+:@[]",
        "\u{FDD0}\u{1FFFE}",
    ];
    fn one<V: Variant>(text: &str) {
        for (set, rule) in [
            (EncodeSet::Userinfo, Rule::Iuserinfo),
            (EncodeSet::RegName, Rule::IregName),
            (EncodeSet::Segment, Rule::Isegment),
            (EncodeSet::SegmentNoColon, Rule::IsegmentNz),
            (EncodeSet::Query, Rule::Iquery),
            (EncodeSet::QueryPair, Rule::Iquery),
            (EncodeSet::Fragment, Rule::Ifragment),
        ] {
            let e = pct::encode::<V>(text, set);
            if !e.is_empty() {
                check::<V>(rule, &e).unwrap_or_else(|err| panic!("{set:?} {e:?}: {err:#}"));
            }
            assert_eq!(pct::decode(&e), text, "{set:?}");
            if set == EncodeSet::Segment {
                assert!(!e.contains('/'));
            }
        }
        let p = pct::encode::<V>(text, EncodeSet::Path);
        check::<V>(Rule::IpathAbempty, &format!("/{p}")).unwrap();
    }
    for t in texts {
        one::<Uri>(t);
        one::<Iri>(t);
        one::<Leiri>(t);
    }
}

#[test]
fn methods_beside_the_free_functions() {
    use iri_grammar::convert::{ToIri, ToUri};
    use iri_grammar::normalize::{Comparison, Level, NormalizeOptions};
    let r = IriRef::parse("HTTP://résumé.example:80/a/../b%7e?%E2%82%AC").unwrap();
    // Without options, the forms that cannot fail: no Result to unwrap.
    let uri: UriRef<'static> = r.to_uri();
    assert_eq!(uri, r.to_uri_with(ToUri::default()).unwrap());
    assert_eq!(
        uri,
        "HTTP://r%C3%A9sum%C3%A9.example:80/a/../b%7e?%E2%82%AC"
    );
    let iri: IriRef<'static> = uri.to_iri();
    assert_eq!(iri, uri.to_iri_with(ToIri::default()).unwrap());
    let syntax: IriRef<'static> = r.normalize();
    assert_eq!(
        syntax,
        r.normalize_with(Level::Syntax, NormalizeOptions::default())
            .unwrap()
    );
    // With options, the forms that can.
    let idna = ToUri { idna: true };
    assert_eq!(r.to_uri_with(idna).unwrap(), r.to_uri_with(idna).unwrap());
    let idna = ToIri { idna: true };
    assert_eq!(
        uri.to_iri_with(idna).unwrap(),
        uri.to_iri_with(idna).unwrap()
    );
    for level in [Level::Simple, Level::Syntax, Level::Scheme] {
        assert_eq!(
            r.normalize_with(level, NormalizeOptions::default())
                .unwrap(),
            r.normalize_with(level, NormalizeOptions::default())
                .unwrap()
        );
    }
    let n = r
        .normalize_with(Level::Scheme, NormalizeOptions::default())
        .unwrap();
    assert_eq!(r.compare(&n, Level::Scheme), Comparison::Equivalent);
    assert_eq!(r.compare(&n, Level::Simple), Comparison::Different);
    let f = IriRef::parse("http://a/\u{202E}").unwrap().lint();
    assert_eq!(f[0].code(), "bidi-formatting-character");
}

/// An error blames the component a person reads: the port holding the `x` of
/// `http://a:8x/`, not the `/` where the grammar's longest match (a userinfo that
/// might still meet an `@`) stopped; a relative reference given where a scheme is
/// needed is said to be one. The grammar's explanation follows, unchanged.
#[test]
fn errors_blame_the_component() {
    let e = IriRef::parse("http://a:8x/").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid IRI-reference: unexpected U+0078 'x' at char 10, in the port: a port \
         holds digits only (RFC 3986 §3.2.3)"
    );
    assert_eq!(format!("{e:#}").lines().nth(2), Some("            ^"));
    assert!(e.message().starts_with(
        "at char 10 (U+0078 'x'), in the port: a port holds digits only (RFC 3986 \
         §3.2.3). The grammar stops at char 11 (U+002F '/'): iuserinfo expects"
    ));
    assert_eq!((e.char_offset(), e.rule()), (11, Some("iuserinfo")));
    let c = e.component().unwrap();
    assert_eq!(
        (c.component(), c.rule(), c.byte_offset(), c.found()),
        (Component::Port, "port", 10, Some('x'))
    );
    // In each grammar, by its rule names, and with bytes beside characters.
    let e = UriRef::parse("http://é@h:8x/").unwrap_err();
    let c = e.component().unwrap();
    assert_eq!((c.component(), c.rule()), (Component::Userinfo, "userinfo"));
    let e = IriRef::parse("http://é@h:8x/").unwrap_err();
    let c = e.component().unwrap();
    assert_eq!(
        (c.component(), c.char_offset(), c.byte_offset()),
        (Component::Port, 12, 13)
    );
    assert!(e
        .message()
        .starts_with("at char 12 (byte 13, U+0078 'x'), in the port"));
    let host = |s: &str| {
        IriRef::parse(s)
            .unwrap_err()
            .component()
            .map(|c| (c.component(), c.char_offset()))
    };
    assert_eq!(host("http://a@b@c/"), Some((Component::Host, 10)));
    assert_eq!(host("http://u s@h/"), Some((Component::Userinfo, 8)));
    assert_eq!(host("http://[::1]x/"), Some((Component::Host, 12)));
    assert_eq!(host("1http://a/"), Some((Component::Scheme, 0)));
    // Not in a component: the grammar's explanation alone.
    let e = IriRef::parse("http://a/b c").unwrap_err();
    assert_eq!(e.component(), None);
    assert_eq!(
        e.to_string(),
        "invalid IRI-reference: unexpected U+0020 SPACE at char 10, in isegment"
    );
    // No scheme where the rule needs one.
    let e = AbsoluteIri::parse("rel/only").unwrap_err();
    let c = e.component().unwrap();
    assert!(c.is_missing_scheme() && c.is_relative_reference());
    assert_eq!(
        e.to_string(),
        "invalid IRI: at char 0: a relative reference (RFC 3986 §4.2), with no scheme; \
         IRI begins with a scheme and \":\" (RFC 3986 §3)"
    );
    let e = AbsoluteUri::parse("//a:8x/").unwrap_err();
    let c = e.component().unwrap();
    assert!(c.is_missing_scheme() && !c.is_relative_reference());
    assert!(e
        .to_string()
        .starts_with("invalid URI: at char 0: no scheme; URI begins"));
    // A component's own rule is explained as before.
    let e = iri_grammar::grammar::check::<Iri>(Rule::Port, "8x").unwrap_err();
    assert_eq!(e.component(), None);
}

/// The setters of scheme, userinfo, host and port check each against its rule, and
/// the path against the rule its new context asks for; on error the reference is
/// unchanged, components and all.
#[test]
fn setters_of_the_authority_and_scheme() {
    let mut r = IriRef::parse("http://u@a:1/p?q#f").unwrap();
    r.set_scheme(Some("https")).unwrap();
    r.set_userinfo(Some("user:pw")).unwrap();
    r.set_host(Some("résumé.example")).unwrap();
    r.set_port(Some(8443)).unwrap();
    assert_eq!(r, "https://user:pw@résumé.example:8443/p?q#f");
    assert_eq!(
        (r.scheme(), r.userinfo(), r.host(), r.port(), r.path()),
        (
            Some("https"),
            Some("user:pw"),
            Some("résumé.example"),
            Some("8443"),
            "/p"
        )
    );
    let before = r.clone();
    let refused = [
        r.set_scheme(Some("ht tp")).unwrap_err(),
        r.set_userinfo(Some("a@b")).unwrap_err(),
        r.set_host(Some("a/b")).unwrap_err(),
        r.set_host(Some("[::1")).unwrap_err(),
    ];
    let components: Vec<_> = refused.iter().map(|e| e.component()).collect();
    assert_eq!(
        components,
        [
            Component::Scheme,
            Component::Userinfo,
            Component::Host,
            Component::Host
        ]
    );
    assert_eq!(refused[1].error().char_offset(), 1);
    assert_eq!(r, before);
    assert_eq!((r.host(), r.port()), (Some("résumé.example"), Some("8443")));
    // Removing: the userinfo and port alone; the host with the whole authority.
    r.set_userinfo(None).unwrap();
    r.set_port(None).unwrap();
    assert_eq!(r, "https://résumé.example/p?q#f");
    r.set_host(None).unwrap();
    assert_eq!((r.as_str(), r.authority()), ("https:/p?q#f", None));
    // The path decides too: "//x" needs an authority, "a:b" a scheme.
    let mut r = IriRef::parse("http://h//x").unwrap();
    assert_eq!(r.set_host(None).unwrap_err().component(), Component::Path);
    assert_eq!(r, "http://h//x");
    let mut r = IriRef::parse("urn:a:b").unwrap();
    assert_eq!(r.set_scheme(None).unwrap_err().component(), Component::Path);
    assert_eq!(
        r.set_port(Some(1)).unwrap_err().component(),
        Component::Path
    );
    assert_eq!(r, "urn:a:b");
    // An authority where there was none: the empty host.
    let mut r = IriRef::parse("file:/etc").unwrap();
    r.set_port(Some(0)).unwrap();
    assert_eq!((r.as_str(), r.host()), ("file://:0/etc", Some("")));
    // Absolute references keep a scheme.
    let mut a = AbsoluteUri::parse("http://a/").unwrap();
    a.set_scheme("ws").unwrap();
    a.set_host(Some("127.0.0.1")).unwrap();
    assert_eq!(a, "ws://127.0.0.1/");
    assert!(a.set_scheme("").is_err());
    assert!(a.set_host(Some("é")).is_err()); // no URI host
    assert_eq!(a, "ws://127.0.0.1/");
}

/// Query pairs decode two ways: RFC 3986's percent-decoding, where `+` is a `+`,
/// and `application/x-www-form-urlencoded`, where it is a space.
#[test]
fn query_pairs_decode_by_the_rfc_or_as_a_form() {
    let r = IriRef::parse("http://a/?a+b=c+%2B+d&e=%FF+&f").unwrap();
    let rfc: Vec<_> = r
        .query_pairs()
        .map(|p| (p.decoded_name(), p.decoded_value()))
        .collect();
    let form: Vec<_> = r
        .query_pairs()
        .map(|p| (p.form_decoded_name(), p.form_decoded_value()))
        .collect();
    let text = |v: &[(std::borrow::Cow<str>, Option<std::borrow::Cow<str>>)]| {
        v.iter()
            .map(|(n, v)| (n.to_string(), v.as_deref().map(str::to_string)))
            .collect::<Vec<_>>()
    };
    let own = |n: &str, v: Option<&str>| (n.to_string(), v.map(str::to_string));
    assert_eq!(
        text(&rfc),
        [
            own("a+b", Some("c+++d")),
            own("e", Some("%FF+")),
            own("f", None)
        ]
    );
    assert_eq!(
        text(&form),
        [
            own("a b", Some("c + d")),
            own("e", Some("%FF ")),
            own("f", None)
        ]
    );
}

#[test]
fn the_error_as_data() {
    let e = IriRef::parse("http://résumé.example/a b").unwrap_err();
    assert_eq!(e.input(), "http://résumé.example/a b");
    assert_eq!((e.byte_offset(), e.char_offset()), (25, 23));
    assert_eq!(e.found(), Some(' '));
    assert_eq!(e.rule(), Some("isegment"));
    assert_eq!(e.start_rule(), "IRI-reference");
    assert_eq!(e.start_rule_id(), Rule::IriReference);
    assert_eq!(e.grammar(), VariantName::Iri);
    assert_eq!(
        e.within(),
        ["ipath-abempty", "ihier-part", "IRI", "IRI-reference"]
    );
    let by: Vec<_> = e.expected_by().iter().map(|g| g.rule()).collect();
    assert_eq!(by, ["isegment", "ipath-abempty", "IRI-reference"]);
    assert!(matches!(
        e.expected_by()[0].expected()[0],
        Expectation::Rule {
            name: "ipchar",
            definition: Some(_),
            ..
        }
    ));
    assert_eq!(e.expected_by()[1].expected(), [Expectation::Literal("/")]);
    assert_eq!(e.expected().last(), Some(&Expectation::EndOfInput));
    // Every expectation is one of the flat list, in order.
    let flat: Vec<_> = e
        .expected_by()
        .iter()
        .flat_map(|g| g.expected().iter().copied())
        .collect();
    assert_eq!(flat, e.expected());

    // The three messages.
    assert_eq!(
        e.to_string(),
        "invalid IRI-reference: unexpected U+0020 SPACE at char 23, in isegment"
    );
    assert!(e
        .message()
        .starts_with("at char 23 (byte 25, U+0020 SPACE): isegment expects ipchar"));
    let alt = format!("{e:#}");
    let lines: Vec<_> = alt.lines().collect();
    assert_eq!(lines[0], e.message());
    assert_eq!(lines[1], "  http://résumé.example/a b");
    assert_eq!(lines[2].find('^'), Some(2 + 23));
    // An error at the end of the input points after it.
    let e = check::<Uri>(Rule::Ipv4address, "1.2.3").unwrap_err();
    assert_eq!(e.found(), None);
    assert_eq!(
        e.to_string(),
        "invalid IPv4address: unexpected end of input at char 5, in IPv4address"
    );
    assert_eq!(format!("{e:#}").lines().nth(2), Some("       ^"));
    // A program can box it, send it between threads, and compare it.
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e.clone());
    assert_eq!(boxed.to_string(), e.to_string());
    assert_eq!(e, check::<Uri>(Rule::Ipv4address, "1.2.3").unwrap_err());
}
