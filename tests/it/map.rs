//! IRI → URI (RFC 3987 §3.1), URI → IRI (§3.2), LEIRI → IRI (LEIRI note §3).

use iri_grammar::convert::{ConvertError, ToIri, ToUri};
use iri_grammar::reference::{IriRef, LeiriRef, UriRef};
use iri_grammar::{Iri, Leiri, Reference, Uri, Variant};
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};

use crate::common;

fn uri(s: &str) -> String {
    IriRef::parse(s)
        .unwrap()
        .to_uri_with(ToUri::default())
        .unwrap()
        .to_string()
}

fn iri(s: &str) -> String {
    UriRef::parse(s)
        .unwrap()
        .to_iri_with(ToIri::default())
        .unwrap()
        .to_string()
}

#[test]
fn rfc3987_3_1_examples() {
    assert_eq!(
        uri("http://www.example.org/red%09rosé#red"),
        "http://www.example.org/red%09ros%C3%A9#red"
    );
    // Non-BMP: U+10300 OLD ITALIC LETTER A, U+10301, U+10302.
    assert_eq!(
        uri("http://example.com/\u{10300}\u{10301}\u{10302}"),
        "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"
    );
    assert_eq!(
        uri("http://www.example.org/résumé.html"),
        "http://www.example.org/r%C3%A9sum%C3%A9.html"
    );
    // Private use in the query (allowed there by the IRI grammar) is encoded too.
    assert_eq!(uri("http://a/?\u{E000}"), "http://a/?%EE%80%80");
    // Existing percent-encodings stay exactly, hex case included.
    assert_eq!(uri("http://a/%e9%C3%A9é"), "http://a/%e9%C3%A9%C3%A9");
}

#[test]
fn to_uri_idna_for_dns_schemes() {
    let u = |s: &str| IriRef::parse(s).unwrap().to_uri_with(ToUri { idna: true });
    assert_eq!(
        u("http://résumé.example.org").unwrap(),
        "http://xn--rsum-bpad.example.org"
    );
    assert_eq!(
        u("https://納豆.example.org/パス").unwrap(),
        "https://xn--99zt52a.example.org/%E3%83%91%E3%82%B9"
    );
    // Not a DNS scheme: percent-encoded as §3.1 step 2 says.
    assert_eq!(u("urn://résumé/").unwrap(), "urn://r%C3%A9sum%C3%A9/");
    // A label ToASCII rejects is an error, not silently kept.
    assert!(
        matches!(u("http://a\u{FFEF}b.org/"), Err(ConvertError::Idna { .. })),
        "{:?}",
        u("http://a\u{FFEF}b.org/")
    );
}

#[test]
fn leiri_input_also_encodes_the_ascii_a_uri_forbids() {
    let l = LeiriRef::parse("http://a/b c<d>\"{|}\\^`\u{1}\u{7F}#f g").unwrap();
    let u = l.to_uri_with(ToUri::default()).unwrap();
    assert_eq!(u, "http://a/b%20c%3Cd%3E%22%7B%7C%7D%5C%5E%60%01%7F#f%20g");
}

#[test]
fn rfc3987_3_2_1_examples() {
    assert_eq!(
        iri("http://www.example.org/D%C3%BCrst"),
        "http://www.example.org/Dürst"
    );
    assert_eq!(
        iri("http://www.example.org/D%FCrst"),
        "http://www.example.org/D%FCrst"
    );
    assert_eq!(
        iri("http://xn--99zt52a.example.org/%e2%80%ae"),
        "http://xn--99zt52a.example.org/%E2%80%AE"
    );
    let t = UriRef::parse("http://xn--99zt52a.example.org/%e2%80%ae")
        .unwrap()
        .to_iri_with(ToIri { idna: true });
    assert_eq!(t.unwrap(), "http://納豆.example.org/%E2%80%AE");
    // Never guess a non-UTF-8 encoding (§3.2).
    assert_eq!(
        iri("http://www.example.org/r%E9sum%E9.html"),
        "http://www.example.org/r%E9sum%E9.html"
    );
}

#[test]
fn uri_to_iri_steps() {
    // Step 2: %, reserved and disallowed US-ASCII stay encoded; unreserved are decoded.
    assert_eq!(
        iri("http://a/%25%2F%3F%23%20%41%7e"),
        "http://a/%25%2F%3F%23%20A~"
    );
    // Step 3: overlong, surrogate, truncated, beyond U+10FFFF stay encoded.
    assert_eq!(iri("http://a/%C0%AF"), "http://a/%C0%AF");
    assert_eq!(iri("http://a/%ED%A0%80"), "http://a/%ED%A0%80");
    assert_eq!(iri("http://a/%E2%82"), "http://a/%E2%82");
    assert_eq!(iri("http://a/%F4%90%80%80"), "http://a/%F4%90%80%80");
    assert_eq!(iri("http://a/%C3%A9%E2%82x"), "http://a/é%E2%82x");
    // Step 4: iprivate only in the query; non-characters and specials never.
    assert_eq!(
        iri("http://a/%EE%80%80?%EE%80%80#%EE%80%80"),
        "http://a/%EE%80%80?\u{E000}#%EE%80%80"
    );
    assert_eq!(
        iri("http://a/%EF%B7%90%EF%BF%BD"),
        "http://a/%EF%B7%90%EF%BF%BD"
    );
    // Bidi formatting characters (§4.1) and the choices of §6.1 stay encoded.
    assert_eq!(
        iri("http://a/%E2%80%8F%C2%A0%E3%80%80"),
        "http://a/%E2%80%8F%C2%A0%E3%80%80"
    );
    // Every component.
    assert_eq!(
        iri("http://r%C3%A9@r%C3%A9sum%C3%A9.org/p%C3%A9?q%C3%A9#f%C3%A9"),
        "http://ré@résumé.org/pé?qé#fé"
    );
}

#[test]
fn leiri_to_iri_by_component() {
    let l = |s: &str| {
        LeiriRef::parse(s)
            .unwrap()
            .leiri_to_iri()
            .unwrap()
            .to_string()
    };
    assert_eq!(l("http://a/my file.xml"), "http://a/my%20file.xml");
    assert_eq!(
        l("http://a/\u{E000}?\u{E000}#\u{E000}"),
        "http://a/%EE%80%80?\u{E000}#%EE%80%80"
    );
    assert_eq!(l("http://a/\u{202E}x"), "http://a/%E2%80%AEx");
    assert_eq!(
        l("http://a/\u{FDD0}\u{1FFFE}\u{E0001}\u{1}"),
        "http://a/%EF%B7%90%F0%9F%BF%BE%F3%A0%80%81%01"
    );
    assert_eq!(l("a b#c d"), "a%20b#c%20d");
    assert_eq!(l("http://a/résumé"), "http://a/résumé");
}

/// Properties over generated references of each grammar.
fn property<V: Variant>(rule: &str) {
    let grammars = Grammars::builtin();
    let mut g = Generator::new(&grammars, V::NAME, 5);
    for _ in 0..3000 {
        let s = g.generate(rule).unwrap();
        let r = Reference::<V>::parse(&s).unwrap();
        // to_uri always gives a URI, and is idempotent.
        let u = r.to_uri_with(ToUri::default()).unwrap();
        assert_eq!(u.to_uri_with(ToUri::default()).unwrap(), u, "{s:?}");
        // to_iri always gives an IRI; u.to_iri().to_uri() == u up to hex case and
        // percent-encoded unreserved characters.
        let i = u.to_iri_with(ToIri::default()).unwrap();
        let back = i.to_uri_with(ToUri::default()).unwrap();
        assert_eq!(
            common::hex_normal(back.as_str()),
            common::hex_normal(u.as_str()),
            "{s:?} -> {u} -> {i}"
        );
        if V::NAME == VariantName::Leiri {
            let li = r.leiri_to_iri().unwrap();
            assert!(IriRef::parse(li.as_str()).is_ok());
        }
    }
}

#[test]
fn properties_on_generated_references() {
    property::<Uri>("URI-reference");
    property::<Iri>("IRI-reference");
    property::<Leiri>("LEIRI-reference");
}

/// The conversion vectors of other libraries in `../shared/corpus/vectors/`: rows whose
/// source converted hosts with IDNA are compared with the `idna` option on.
#[test]
fn corpus_conversion_vectors() {
    let Some(dir) = common::corpus("vectors") else {
        return;
    };
    let mut report = Vec::new();
    let mut n = 0;
    for (file, forward) in [
        ("iri2uri-iri-string.tsv", true),
        ("iri2uri-python-rfc3986.tsv", true),
        ("iri2uri-uri-js.tsv", true),
        ("uri2iri-uri-js.tsv", false),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text.lines().skip(1) {
            let c: Vec<&str> = line.split('\t').collect();
            let (i, u, source) = (c[0], c[1], c[2]);
            let idna = source.contains("idna") || source.contains("domainHost");
            let (input, want) = if forward { (i, u) } else { (u, i) };
            let got = if forward {
                IriRef::parse(input)
                    .map_err(|e| e.to_string())
                    .and_then(|r| {
                        r.to_uri_with(ToUri { idna })
                            .map(|x| x.to_string())
                            .map_err(|e| e.to_string())
                    })
            } else {
                UriRef::parse(input)
                    .map_err(|e| e.to_string())
                    .and_then(|r| {
                        r.to_iri_with(ToIri { idna })
                            .map(|x| x.to_string())
                            .map_err(|e| e.to_string())
                    })
            };
            n += 1;
            let documented = DOCUMENTED
                .iter()
                .find(|(f, inp, _, _)| *f == file && *inp == input);
            match (documented, got) {
                (Some((_, _, ours, _)), Ok(g)) if g == *ours => {}
                (None, Ok(g)) if g == want => {}
                (_, g) => report.push(format!("{file}: {input:?}: want {want:?}, got {g:?}")),
            }
        }
    }
    eprintln!("{n} conversion rows");
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// Rows where the source's answer is not RFC 3987's: (file, input, ours, why).
const DOCUMENTED: &[(&str, &str, &str, &str)] = &[
    (
        "iri2uri-uri-js.tsv",
        "uri://résumé.example.org",
        "uri://r%C3%A9sum%C3%A9.example.org",
        "uri-js was told the host is a DNS name (domainHost); RFC 3987 §3.1 allows ToASCII \
         only for schemes known to use DNS, and uri: is none, so step 2 percent-encodes",
    ),
    (
        "uri2iri-uri-js.tsv",
        "uri://xn--rsum-bpad.example.org",
        "uri://xn--rsum-bpad.example.org",
        "the same: ToUnicode only for DNS schemes (§3.2); the label stays as it is",
    ),
];
