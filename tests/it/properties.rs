//! Properties of the operations on references, over generated and mutated references
//! of all three grammars, seeded so that a failure can be replayed:
//!
//! - normalization is idempotent at every level and character option, its result is
//!   equivalent to its input, and it keeps the components that are there;
//! - a host stays one host: no conversion, normalization or preparation turns a
//!   character into a delimiter (`@`, `/`, `?`, `#`, `:`) of the result, which keeps
//!   the components of its input (and the same number of path segments);
//! - round trips: `x.to_uri().to_iri()` is equivalent to `x`, `u.to_iri().to_uri()` is `u`
//!   up to hex case and encoded unreserved characters, relativize then resolve gives
//!   the target;
//! - every result parses in its grammar to the components the operation recorded.
//!
//! `cargo test` runs 100,000 cases. The long run (10 million; 5 min 25 s in release on
//! two shared cores, last result in the README's "Reliability" list):
//!
//! ```sh
//! IRI_PROPERTY_CASES=10000000 cargo test --release -p iri-grammar --test it properties -- --nocapture
//! ```

use iri_grammar::convert::{ConvertError, ToIri, ToUri};
use iri_grammar::normalize::{CharNorm, Comparison, Level, NormalizeOptions};
use iri_grammar::prepare::prepare;
use iri_grammar::reference::Component;
use iri_grammar::{Iri, Leiri, Reference, Uri, Variant};
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::common;

/// Characters that UTS 46 or NFKC map to ASCII delimiters, dots or letters, that
/// compose, or that stay percent-encoded: where the operations are most likely to
/// change a structure.
const SPICE: &[char] = &[
    '\u{FE6B}', '\u{FF20}', '\u{FF0F}', '\u{FE56}', '\u{FF1F}', '\u{FF03}', '\u{FE5F}', '\u{FF1A}',
    '\u{FE55}', '\u{FF05}', '\u{FE6A}', '\u{FF3B}', '\u{FF3D}', '\u{FF0E}', '\u{3002}', '\u{FF61}',
    '\u{2488}', '\u{2024}', '\u{212A}', '\u{212B}', '\u{FB01}', '\u{FF21}', '\u{FF41}', '\u{FF11}',
    '\u{0301}', '\u{0338}', '\u{FF1D}', '\u{FF1C}', '\u{FF1E}', '\u{2000}', '\u{00A0}', '\u{200D}',
    '\u{202E}', '\u{2067}', '\u{E000}', '\u{1100}', '\u{1161}', '\u{11A8}', '\u{0958}', 'é', 'ß',
    'İ', 'Σ', 'ς', '\u{05D0}',
];

/// Labels and pieces that exercise IDNA: ACE labels that decode, that do not, in
/// both cases, and percent-encoded UTF-8.
const PIECES: &[&str] = &[
    "xn--rsum-bpad",
    "XN--99ZT52A",
    "xn--xn----aa--aa--aa-nis",
    "xn--",
    "xn--a",
    "xn--zca",
    "%C3%A9",
    "%e2%80%ae",
    "%EF%BC%8F",
    "%EF%B9%AB",
    "%2E%2E",
    "%41",
    "%FF",
    "..",
    ".",
    "127.0.0.1",
    "%31.2.3.4",
];

const HOSTS: &[&str] = &[
    "example.org",
    "EXAMPLE.com:80",
    "résumé.example",
    "xn--rsum-bpad.example",
    "u@1.2.3.4:0080",
    "[::1]",
    "a\u{FF0E}b",
    "",
];

struct Cases<'g> {
    generator: Generator<'g>,
    rng: u64,
}

impl Cases<'_> {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64*: the generator has its own; this one only picks spices.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    /// A generated reference, forced half of the time to a scheme with rules, and
    /// spiced or mutated part of the time.
    fn next(&mut self, rule: &str) -> String {
        let mut s = self.generator.generate(rule).unwrap_or_default();
        if self.below(2) == 0 {
            if let Some(colon) = s.find(':').filter(|&c| !s[..c].contains(['/', '?', '#'])) {
                let scheme = ["http", "HTTPS", "ws", "ftp", "file"][self.below(5)];
                s = format!("{scheme}{}", &s[colon..]);
            }
        }
        if !s.contains("//") && self.below(3) == 0 {
            // An authority to work on.
            let host = HOSTS[self.below(HOSTS.len())];
            s = format!("http://{host}/{s}");
        }
        for _ in 0..self.below(4) {
            let at = self.boundary(&s);
            if self.below(3) == 0 {
                let piece = PIECES[self.below(PIECES.len())];
                s.insert_str(at, piece);
            } else {
                let c = SPICE[self.below(SPICE.len())];
                s.insert(at, c);
            }
        }
        if self.below(4) == 0 {
            s = self.generator.mutate(&s);
        }
        s
    }

    /// A char boundary of `s`, biased to the host.
    fn boundary(&mut self, s: &str) -> usize {
        let host_start = s.find("//").map(|k| k + 2);
        let mut at = match host_start {
            Some(h) if self.below(2) == 0 => h + self.below(s.len() - h + 1),
            _ => self.below(s.len() + 1),
        };
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        at
    }
}

/// Components as the reference records them, for comparing with a fresh parse.
fn shape<V: Variant>(r: &Reference<'_, V>) -> String {
    format!("{r:?}")
}

/// The result of an operation parses in its grammar to the components it recorded.
fn reparses<W: Variant>(r: &Reference<'_, W>, what: &str, input: &str) {
    let fresh = Reference::<W>::parse(r.as_str())
        .unwrap_or_else(|e| panic!("{what} of {input:?} gave {:?}, invalid: {e}", r.as_str()));
    assert_eq!(shape(&fresh), shape(r), "{what} of {input:?}");
}

/// Which components are present, and how many path segments: what an operation that
/// rewrites characters must keep.
fn structure<V: Variant>(r: &Reference<'_, V>) -> [usize; 7] {
    let has = |c| usize::from(r.get(c).is_some());
    [
        has(Component::Scheme),
        has(Component::Authority),
        has(Component::Userinfo),
        has(Component::Port),
        has(Component::Query),
        has(Component::Fragment),
        r.path_segments().count(),
    ]
}

const OPTIONS: [NormalizeOptions; 3] = [
    NormalizeOptions {
        chars: CharNorm::None,
        ignore_fragment: false,
    },
    NormalizeOptions {
        chars: CharNorm::Nfc,
        ignore_fragment: false,
    },
    NormalizeOptions {
        chars: CharNorm::Nfkc,
        ignore_fragment: false,
    },
];

static NORMALIZED: AtomicU64 = AtomicU64::new(0);
static REFUSED: AtomicU64 = AtomicU64::new(0);

fn normalization<V: Variant>(r: &Reference<'_, V>, s: &str) {
    for level in [Level::Syntax, Level::Scheme] {
        for options in OPTIONS {
            let what = format!("normalize {level:?} {:?}", options.chars);
            let n = match r.normalize_with(level, options) {
                Ok(n) => n,
                Err(_) => {
                    // Only IDNA refuses, and only at the scheme level.
                    assert_eq!(level, Level::Scheme, "{what} of {s:?}");
                    REFUSED.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
            };
            NORMALIZED.fetch_add(1, Ordering::Relaxed);
            reparses(&n, &what, s);
            let again = n
                .normalize_with(level, options)
                .unwrap_or_else(|e| panic!("{what} of {s:?} gave {n}, which fails: {e}"));
            assert_eq!(
                again.as_str(),
                n.as_str(),
                "{what} of {s:?} is not idempotent"
            );
            if r.is_absolute() {
                assert_eq!(
                    r.compare_with(&n, level, options),
                    Comparison::Equivalent,
                    "{what}: {s:?} and {n}"
                );
            }
            // The components that are there stay (a scheme-level port may go).
            let (a, b) = (structure(r), structure(&n));
            for k in [0, 1, 2, 4, 5] {
                assert_eq!(a[k], b[k], "{what}: {s:?} -> {n} (part {k})");
            }
            if level == Level::Syntax {
                assert_eq!(a[3], b[3], "{what}: port of {s:?} -> {n}");
            }
        }
    }
}

fn conversions<V: Variant>(r: &Reference<'_, V>, s: &str) {
    for idna in [false, true] {
        match r.to_uri_with(ToUri { idna }) {
            Ok(u) => {
                reparses(&u, "to_uri", s);
                assert_eq!(structure(&u), structure(r), "to_uri {idna} of {s:?}: {u}");
                let back = u.to_iri_with(ToIri { idna }).unwrap();
                reparses(&back, "to_iri", u.as_str());
                if r.is_absolute() {
                    let level = if idna { Level::Scheme } else { Level::Syntax };
                    // Compared as URIs: the normal form of a URI is a URI.
                    let as_uri = |n: &str| {
                        let n = Reference::<Leiri>::parse(n).unwrap();
                        n.to_uri_with(ToUri::default()).unwrap().to_string()
                    };
                    let (x, y) = (
                        r.normalize_with(level, OPTIONS[0]),
                        back.normalize_with(level, OPTIONS[0]),
                    );
                    // Under the URI grammar a host is lowercase whatever it holds
                    // (RFC 3986 §6.2.2.1); the IRI it maps to keeps the case of a host
                    // beyond US-ASCII (RFC 3987 §5.3.2.1): there the authorities are
                    // compared without case.
                    let folded = |n: String| match n.split_once("//") {
                        Some((head, rest)) if V::NAME == VariantName::Uri => {
                            let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                            let authority = rest[..end].to_ascii_lowercase();
                            format!("{head}//{authority}{}", &rest[end..])
                        }
                        _ => n,
                    };
                    if let (Ok(x), Ok(y)) = (x, y) {
                        assert_eq!(
                            folded(as_uri(x.as_str())),
                            folded(as_uri(y.as_str())),
                            "to_iri(to_uri({s:?}, idna {idna})) = {back} is not equivalent"
                        );
                    }
                }
            }
            Err(ConvertError::Idna(_)) => assert!(idna, "to_uri without IDNA failed on {s:?}"),
            Err(e) => panic!("to_uri of {s:?}: {e}"),
        }
        let i = r.to_iri_with(ToIri { idna }).unwrap();
        reparses(&i, "to_iri", s);
        assert_eq!(structure(&i), structure(r), "to_iri {idna} of {s:?}: {i}");
        if V::NAME == VariantName::Uri && !idna {
            let u = i.to_uri_with(ToUri::default()).unwrap();
            assert_eq!(
                common::hex_normal(u.as_str()),
                common::hex_normal(r.as_str()),
                "{s:?} -> {i}"
            );
        }
    }
    if V::NAME == VariantName::Leiri {
        let i = r.leiri_to_iri().unwrap();
        reparses(&i, "leiri_to_iri", s);
        assert_eq!(structure(&i), structure(r), "leiri_to_iri of {s:?}: {i}");
    }
}

fn resolution<V: Variant>(r: &Reference<'_, V>, base: &Reference<'_, V>, s: &str) {
    if let Ok(t) = r.resolve(base) {
        reparses(&t, "resolve", s);
        if let Ok(back) = t.relativize(base) {
            reparses(&back, "relativize", t.as_str());
            assert_eq!(back.resolve(base).unwrap(), t, "{s:?} against {base}");
        }
    }
}

/// The authority an RFC 3986 Appendix B split finds in `s` (after the white space
/// that preparation strips), and whether it has userinfo and a port.
fn appendix_b_authority(s: &str) -> Option<(bool, bool)> {
    let s = s.trim_matches([' ', '\t', '\r', '\n']);
    let before = s.split(['?', '#']).next().unwrap_or("");
    let rest = match before.find([':', '/']) {
        Some(k) if k > 0 && before.as_bytes()[k] == b':' => &before[k + 1..],
        _ => before,
    };
    let auth = rest.strip_prefix("//")?;
    let auth = &auth[..auth.find('/').unwrap_or(auth.len())];
    let hostport = auth.rsplit('@').next().unwrap_or("");
    let after_literal = hostport.rsplit(']').next().unwrap_or("");
    Some((auth.contains('@'), after_literal.contains(':')))
}

fn preparation(s: &str) {
    let Ok(p) = prepare(s) else { return };
    reparses(&p, "prepare", s);
    let Some((userinfo, port)) = appendix_b_authority(s) else {
        return;
    };
    assert_eq!(
        p.userinfo().is_some(),
        userinfo,
        "prepare({s:?}) = {p}: userinfo"
    );
    assert_eq!(p.port().is_some(), port, "prepare({s:?}) = {p}: port");
}

fn run<V: Variant>(rule: &str, cases: u64, seed: u64) {
    let grammars = Grammars::builtin();
    let mut cases_of = Cases {
        generator: Generator::new(&grammars, V::NAME, seed),
        rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
    };
    let mut base: Option<Reference<'static, V>> = None;
    for _ in 0..cases {
        let s = cases_of.next(rule);
        preparation(&s);
        let Ok(r) = Reference::<V>::parse(&s) else {
            continue;
        };
        normalization(&r, &s);
        conversions(&r, &s);
        if let Some(b) = &base {
            resolution(&r, b, &s);
        }
        if r.is_absolute() {
            base = Some(r.into_owned());
        }
    }
}

fn total() -> u64 {
    std::env::var("IRI_PROPERTY_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

#[test]
fn properties_of_the_operations() {
    let n = total();
    let threads = [
        std::thread::spawn(move || run::<Iri>("IRI-reference", n * 4 / 10, 1)),
        std::thread::spawn(move || run::<Uri>("URI-reference", n * 3 / 10, 2)),
        std::thread::spawn(move || run::<Leiri>("LEIRI-reference", n * 3 / 10, 3)),
    ];
    for t in threads {
        t.join().unwrap();
    }
    let (normalized, refused) = (
        NORMALIZED.load(Ordering::Relaxed),
        REFUSED.load(Ordering::Relaxed),
    );
    eprintln!("{n} cases: {normalized} normal forms checked, {refused} refused by IDNA");
    assert!(normalized > n, "too few valid cases: {normalized}");
}

/// The bugs of issue 10, each as it was reported.
mod regressions {
    use super::*;
    use iri_grammar::prepare::PrepareError;
    use iri_grammar::IriRef;

    fn norm(s: &str, level: Level, chars: CharNorm) -> Result<String, String> {
        let options = NormalizeOptions {
            chars,
            ignore_fragment: false,
        };
        IriRef::parse(s)
            .unwrap()
            .normalize_with(level, options)
            .map(|r| r.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn idna_never_makes_a_delimiter() {
        // U+FE6B SMALL COMMERCIAL AT: no "@", the host is not bank.example.
        let e = prepare("http://evil.example\u{FE6B}bank.example/login").unwrap_err();
        assert!(matches!(e, PrepareError::Idna(_)), "{e}");
        assert!(e.to_string().contains("evil.example@bank.example"), "{e}");
        let idna = ToUri { idna: true };
        for s in [
            "http://a\u{FF0F}b.c/x",
            "http://\u{FE56}.N",
            "http://e\u{FE56}x.c/",
        ] {
            let r = IriRef::parse(s).unwrap();
            assert!(
                matches!(r.to_uri_with(idna), Err(ConvertError::Idna(_))),
                "{s:?}"
            );
            assert!(
                r.normalize_with(Level::Scheme, OPTIONS[0]).is_err(),
                "{s:?}"
            );
            // Without IDNA the character is percent-encoded: one host.
            assert_eq!(
                r.to_uri_with(ToUri::default())
                    .unwrap()
                    .host()
                    .map(|h| h.contains('%')),
                Some(true)
            );
        }
        // U+FF05 FULLWIDTH PERCENT SIGN: no "%AA".
        assert!(norm("http://\u{FF05}aa/", Level::Scheme, CharNorm::None).is_err());
        let unknown = IriRef::parse("http://e\u{FE56}x.c/").unwrap().compare_with(
            &IriRef::parse("http://e/?x.c/").unwrap(),
            Level::Scheme,
            OPTIONS[0],
        );
        assert!(matches!(unknown, Comparison::Unknown(_)), "{unknown:?}");
    }

    #[test]
    fn to_iri_with_idna_on_a_label_with_xn_after_a_multibyte_character() {
        let r = IriRef::parse("http://aa\u{F900}xn--").unwrap();
        let i = r.to_iri_with(ToIri { idna: true }).unwrap();
        assert_eq!(i, "http://aa\u{F900}xn--");
    }

    #[test]
    fn character_normalization_comes_before_case_and_dots() {
        assert_eq!(
            norm("//\u{212A}", Level::Syntax, CharNorm::Nfc).unwrap(),
            "//k"
        );
        let a = IriRef::parse("http://\u{212A}/").unwrap();
        let b = IriRef::parse("http://k/").unwrap();
        let nfc = NormalizeOptions {
            chars: CharNorm::Nfc,
            ignore_fragment: false,
        };
        assert_eq!(
            a.compare_with(&b, Level::Syntax, nfc),
            Comparison::Equivalent
        );
        assert_eq!(
            norm(
                "http://a/b/\u{FF0E}\u{FF0E}/c",
                Level::Syntax,
                CharNorm::Nfkc
            )
            .unwrap(),
            "http://a/c"
        );
        // A combining mark after a percent-encoding composes with nothing.
        assert_eq!(
            norm("http://a/%3E\u{301}", Level::Syntax, CharNorm::Nfc).unwrap(),
            "http://a/%3E\u{301}"
        );
    }

    #[test]
    fn the_scheme_level_idna_form_passes_idna_itself() {
        let n = norm(
            "http://xn--xn----aa--aa--aa-nis",
            Level::Scheme,
            CharNorm::None,
        )
        .unwrap();
        assert_eq!(n, "http://xn--xn----aa--aa--aa-nis/");
        assert_eq!(norm(&n, Level::Scheme, CharNorm::None).unwrap(), n);
        let r = IriRef::parse("http://xn--xn----aa--aa--aa-nis").unwrap();
        let n = IriRef::parse(&n).unwrap();
        assert_eq!(
            r.compare_with(&n, Level::Scheme, OPTIONS[0]),
            Comparison::Equivalent
        );
    }
}
