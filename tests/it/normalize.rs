//! The comparison ladder (RFC 3987 §5.3, IRI comparison draft).

use iri_grammar::normalize::{CharNorm, Comparison, Level, NormalizeOptions};
use iri_grammar::reference::{IriRef, UriRef};
use iri_grammar::{Iri, Leiri, Reference, Uri, Variant};
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::Grammars;

const O: NormalizeOptions = NormalizeOptions {
    chars: CharNorm::None,
    ignore_fragment: false,
};

fn cmp(a: &str, b: &str, level: Level) -> Comparison {
    IriRef::parse(a)
        .unwrap()
        .compare_with(&IriRef::parse(b).unwrap(), level, O)
}

fn norm(s: &str, level: Level) -> String {
    IriRef::parse(s)
        .unwrap()
        .normalize_with(level, O)
        .unwrap()
        .to_string()
}

use Comparison::{Different, Equivalent};

#[test]
fn rfc3987_syntax_example() {
    let a = "example://a/b/c/%7Bfoo%7D/rosé";
    let b = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9";
    assert_eq!(cmp(a, b, Level::Simple), Different);
    assert_eq!(cmp(a, b, Level::Syntax), Equivalent);
    assert_eq!(norm(b, Level::Syntax), a);
}

#[test]
fn case_and_percent_encoding() {
    assert_eq!(
        cmp(
            "HTTP://www.EXAMPLE.com/",
            "http://www.example.com/",
            Level::Syntax
        ),
        Equivalent
    );
    assert_eq!(
        cmp("http://a/~user", "http://a/%7euser", Level::Syntax),
        Equivalent
    );
    assert_eq!(
        cmp("http://a/%7euser", "http://a/%7Euser", Level::Syntax),
        Equivalent
    );
    assert_eq!(
        cmp("http://a/%7euser", "http://a/%7Euser", Level::Simple),
        Different
    );
    // Reserved characters stay encoded; only their hex case is normalized.
    assert_eq!(norm("http://a/%2f%3a", Level::Syntax), "http://a/%2F%3A");
    assert_eq!(
        cmp("http://a/b%2Fc", "http://a/b/c", Level::Scheme),
        Different
    );
    // Path case is not normalized (only scheme and host).
    assert_eq!(cmp("http://a/X", "http://a/x", Level::Scheme), Different);
    // A bidi formatting character and its percent-encoding: one form (§3.2 keeps it encoded).
    assert_eq!(
        cmp("http://a/\u{202E}", "http://a/%E2%80%AE", Level::Syntax),
        Equivalent
    );
    assert_eq!(
        norm("http://a/\u{202E}", Level::Syntax),
        "http://a/%E2%80%AE"
    );
}

#[test]
fn scheme_based_http_forms() {
    let forms = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ];
    for a in forms {
        for b in forms {
            assert_eq!(cmp(a, b, Level::Scheme), Equivalent, "{a} {b}");
        }
        assert_eq!(norm(a, Level::Scheme), "http://example.com/");
    }
    assert_eq!(cmp(forms[0], forms[3], Level::Syntax), Different);
    assert_eq!(
        cmp("http://example.com/", "http://example.com/?", Level::Scheme),
        Different
    );
    assert_eq!(
        cmp("http://example.com/", "http://example.com/#", Level::Scheme),
        Different
    );
    assert_eq!(
        cmp("https://a:443/x", "https://a/x", Level::Scheme),
        Equivalent
    );
    assert_eq!(
        cmp("https://a:80/x", "https://a/x", Level::Scheme),
        Different
    );
    // Unknown schemes keep their ports and empty paths.
    assert_eq!(cmp("foo://a", "foo://a/", Level::Scheme), Different);
}

#[test]
fn idn_labels_and_their_punycode() {
    let a = "http://résumé.example.org";
    let b = "http://xn--rsum-bpad.example.org";
    assert_eq!(cmp(a, b, Level::Syntax), Different);
    assert_eq!(cmp(a, b, Level::Scheme), Equivalent);
    // The documented output form: Unicode.
    assert_eq!(norm(b, Level::Scheme), "http://résumé.example.org/");
    assert_eq!(
        norm("http://R%C3%89SUM%C3%89.example.org/", Level::Scheme),
        "http://résumé.example.org/"
    );
    // An IDN that fails ToASCII: the answer is unknown, not a guess.
    assert!(matches!(
        cmp("http://a\u{FFEF}b.org/", "http://x/", Level::Scheme),
        Comparison::Unknown(_)
    ));
}

/// RFC 3987 §5.3.2.1 (comparison draft §4.2.1): "the scheme and US-ASCII only host"
/// are case-insensitive; a host beyond ASCII keeps every letter's case at the syntax
/// level, and is case-folded by IDNA at the scheme level (§5.3.3).
#[test]
fn only_a_us_ascii_host_is_lowercased_by_syntax() {
    assert_eq!(
        norm("HTTP://RÉSUMÉ.example/", Level::Syntax),
        "http://RÉSUMÉ.example/"
    );
    assert_eq!(
        norm("HTTP://RÉSUMÉ.example/", Level::Scheme),
        "http://résumé.example/"
    );
    assert_eq!(
        cmp(
            "http://RÉSUMÉ.example/",
            "http://rÉsumÉ.example/",
            Level::Syntax
        ),
        Different
    );
    assert_eq!(
        cmp(
            "http://RÉSUMÉ.example/",
            "http://rÉsumÉ.example/",
            Level::Scheme
        ),
        Equivalent
    );
    // An IRI's host is judged by the characters it stands for: percent-encoded
    // UTF-8 beyond ASCII keeps the case too.
    assert_eq!(
        norm("foo://R%C3%89SUM%C3%89.Example/", Level::Syntax),
        "foo://RÉSUMÉ.Example/"
    );
}

/// Under the URI grammar RFC 3986 §6.2.2.1 decides: "the scheme and host are
/// case-insensitive and therefore should be normalized to lowercase", every host,
/// its percent-encodings' hex digits in uppercase (RFC 3987 §5.3.2.1's restriction to
/// US-ASCII only hosts is the IRI rule).
#[test]
fn a_uri_host_is_lowercased_whatever_it_holds() {
    let uri = UriRef::parse("foo://R%c3%89SUM%C3%89.Example/").unwrap();
    assert_eq!(
        uri.normalize_with(Level::Syntax, O).unwrap(),
        "foo://r%C3%89sum%C3%89.example/"
    );
    let uri = UriRef::parse("HTTP://EXAMPLE.%C3%BC/").unwrap();
    assert_eq!(
        uri.normalize_with(Level::Syntax, O).unwrap(),
        "http://example.%C3%BC/"
    );
    assert_eq!(
        uri.compare_with(
            &UriRef::parse("http://example.%c3%bc/").unwrap(),
            Level::Syntax,
            O
        ),
        Equivalent
    );
    // The IRI it maps to keeps the case of a host beyond ASCII (RFC 3987 §5.3.2.1).
    assert_eq!(
        norm("HTTP://EXAMPLE.%C3%BC/", Level::Syntax),
        "http://EXAMPLE.ü/"
    );
    // An ASCII host is lowercase under either grammar.
    let uri = UriRef::parse("foo://LOCAL%0aHOST/").unwrap();
    assert_eq!(
        uri.normalize_with(Level::Syntax, O).unwrap(),
        "foo://local%0Ahost/"
    );
    // US-ASCII only, with its percent-encodings: lowercase, the hex digits aside.
    assert_eq!(
        norm("foo://LOCAL%0aHOST/", Level::Syntax),
        "foo://local%0Ahost/"
    );
    assert_eq!(
        norm("HTTP://WWW.Example.COM/", Level::Syntax),
        "http://www.example.com/"
    );
}

/// A DNS scheme's host with a percent-encoded ASCII character no host name holds
/// (a control, a space, a delimiter) is no DNS name: the scheme level needs no IDNA
/// step for it (RFC 3986 §6.2.3; RFC 3987 §5.3.3's IDN equivalence is for IDNs) and
/// applies the scheme's other rules. What IDNA still refuses says what is there.
#[test]
fn a_host_with_an_encoded_control_is_no_dns_name() {
    assert_eq!(
        norm("http://local%0ahost/", Level::Syntax),
        "http://local%0Ahost/"
    );
    assert_eq!(
        norm("http://local%0ahost", Level::Scheme),
        "http://local%0Ahost/"
    );
    assert_eq!(
        cmp(
            "http://LOCAL%0aHOST:80",
            "http://local%0Ahost/",
            Level::Scheme
        ),
        Equivalent
    );
    // An encoded sub-delim is not the sub-delim (RFC 3986 §2.2).
    assert_eq!(
        cmp("http://a%21b/", "http://a!b/", Level::Scheme),
        Different
    );
    let refused = |s: &str| {
        IriRef::parse(s)
            .unwrap()
            .normalize_with(Level::Scheme, O)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refused("http://r\u{E9}sum\u{E9}%0a.example/"),
        "the host has no IDNA form (\"résumé%0A.example\" holds U+000A LINE FEED \
         percent-encoded, which no IDNA label can hold), so its scheme-based normal \
         form cannot be determined"
    );
    assert!(refused("http://a%FFb/").contains("octets that are not UTF-8"));
    assert!(refused("http://a%C2%ADb/").contains("U+00AD percent-encoded, as it stays"));
}

#[test]
fn character_normalization_only_when_asked() {
    let pre = "http://a/r\u{E9}sum\u{E9}";
    let de = "http://a/re\u{301}sume\u{301}";
    assert_eq!(cmp(pre, de, Level::Scheme), Different);
    let nfc = NormalizeOptions {
        chars: CharNorm::Nfc,
        ignore_fragment: false,
    };
    let c =
        IriRef::parse(pre)
            .unwrap()
            .compare_with(&IriRef::parse(de).unwrap(), Level::Syntax, nfc);
    assert_eq!(c, Equivalent);
    // NFKC joins compatibility characters, and never makes a delimiter.
    let nfkc = NormalizeOptions {
        chars: CharNorm::Nfkc,
        ignore_fragment: false,
    };
    let n = IriRef::parse("http://a/\u{FB01}le\u{FF0F}x")
        .unwrap()
        .normalize_with(Level::Syntax, nfkc)
        .unwrap();
    assert_eq!(n, "http://a/file%2Fx");
}

#[test]
fn fragments_and_relative_references() {
    let ignore = NormalizeOptions {
        chars: CharNorm::None,
        ignore_fragment: true,
    };
    let (a, b) = (
        IriRef::parse("http://a/#x").unwrap(),
        IriRef::parse("http://a/#y").unwrap(),
    );
    assert_eq!(a.compare_with(&b, Level::Syntax, O), Different);
    assert_eq!(a.compare_with(&b, Level::Syntax, ignore), Equivalent);
    assert_eq!(a.compare_with(&b, Level::Simple, ignore), Equivalent);
    let rel = IriRef::parse("../x").unwrap();
    assert!(matches!(
        rel.compare_with(&rel, Level::Syntax, O),
        Comparison::Unknown(_)
    ));
}

#[test]
fn uri_normal_forms_stay_uris() {
    let u = UriRef::parse("HTTP://A/%c3%a9/./x").unwrap();
    assert_eq!(
        u.normalize_with(Level::Syntax, O).unwrap(),
        "http://a/%C3%A9/x"
    );
}

/// Properties over generated references of each grammar.
fn properties<V: Variant>(rule: &str) {
    let grammars = Grammars::builtin();
    let mut g = Generator::new(&grammars, V::NAME, 17);
    let levels = [Level::Simple, Level::Syntax, Level::Scheme];
    let mut previous: Option<Reference<'static, V>> = None;
    for k in 0..1500 {
        let mut s = g.generate(rule).unwrap();
        // A third of the cases get a scheme with rules (default port, DNS host).
        if k % 3 == 0 {
            if let Some(colon) = s.find(':') {
                s = format!("{}{}", ["http", "HTTPS", "ws"][k % 9 / 3], &s[colon..]);
            }
        }
        let r = Reference::<V>::parse_owned(s.clone()).unwrap();
        // Half the time, compare with a variant of the same string that is likely
        // equivalent at some level.
        let other = if k % 2 == 0 {
            let mut t = s.to_ascii_uppercase();
            if Reference::<V>::parse(&t).is_err() {
                t = s.clone();
            }
            Reference::<V>::parse_owned(t).unwrap()
        } else {
            previous.clone().unwrap_or_else(|| r.clone())
        };
        let mut joined_below = false;
        for level in levels {
            let n = match r.normalize_with(level, O) {
                Ok(n) => n,
                Err(_) => continue,
            };
            // Idempotent, and valid in the same grammar (the type says so; parse again).
            assert_eq!(n.normalize_with(level, O).unwrap(), n, "{level:?} {s:?}");
            assert!(Reference::<V>::parse(n.as_str()).is_ok());
            let ab = r.compare_with(&other, level, O);
            let ba = other.compare_with(&r, level, O);
            assert_eq!(ab, ba, "symmetric at {level:?}: {s:?} / {other}");
            if r.is_absolute() {
                assert_eq!(
                    r.compare_with(&r, level, O),
                    Comparison::Equivalent,
                    "reflexive {s:?}"
                );
            }
            if let (Comparison::Equivalent | Comparison::Different, Ok(no)) =
                (&ab, other.normalize_with(level, O))
            {
                if r.is_absolute() && other.is_absolute() {
                    assert_eq!(
                        ab == Comparison::Equivalent,
                        no == n,
                        "consistent at {level:?}: {s:?} / {other}"
                    );
                }
            }
            // A higher level never separates what a lower level joined.
            if joined_below {
                assert_ne!(
                    ab,
                    Comparison::Different,
                    "{level:?} separates {s:?} / {other}"
                );
            }
            joined_below |= ab == Comparison::Equivalent;
        }
        previous = Some(r);
    }
}

#[test]
fn ladder_properties_on_generated_references() {
    properties::<Iri>("IRI");
    properties::<Uri>("URI");
    properties::<Leiri>("LEIRI");
}

#[test]
fn ports_at_the_scheme_level() {
    assert_eq!(
        norm("http://example.org:080", Level::Scheme),
        "http://example.org/"
    );
    assert_eq!(
        norm("HTTP://EXAMPLE.ORG:00080/", Level::Scheme),
        "http://example.org/"
    );
    assert_eq!(
        norm("http://example.org:0081/", Level::Scheme),
        "http://example.org:81/"
    );
    assert_eq!(
        norm("http://example.org:00/", Level::Scheme),
        "http://example.org:0/"
    );
    // An empty port goes whatever the scheme (RFC 3986 §3.2.3); other ports of
    // unknown schemes stay as written.
    assert_eq!(norm("foo://h:/", Level::Scheme), "foo://h/");
    assert_eq!(norm("foo://h:0080/", Level::Scheme), "foo://h:0080/");
    assert_eq!(norm("foo://h:/", Level::Syntax), "foo://h:/");
}
