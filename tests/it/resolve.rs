//! Reference resolution, RFC 3986 §5.2 (applied to IRIs unchanged by RFC 3987 §6.5),
//! and relativization.

use iri_grammar::reference::{IriRef, LeiriRef, UriRef};
use iri_grammar::{Iri, Reference, ResolveError};
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};

fn resolve(base: &str, r: &str) -> String {
    let base = IriRef::parse(base).unwrap();
    IriRef::parse(r)
        .unwrap()
        .resolve(&base)
        .unwrap()
        .to_string()
}

use crate::common::rfc3986;
use rfc3986::{ABNORMAL_EXAMPLES, BASE, NORMAL_EXAMPLES};

/// RFC 3986 §5.4.1, "Normal Examples".
#[test]
fn rfc3986_5_4_1_normal_examples() {
    for (r, want) in NORMAL_EXAMPLES {
        assert_eq!(resolve(BASE, r), want, "{r:?}");
    }
}

/// RFC 3986 §5.4.2, "Abnormal Examples" (strict parser).
#[test]
fn rfc3986_5_4_2_abnormal_examples() {
    for (r, want) in ABNORMAL_EXAMPLES {
        assert_eq!(resolve(BASE, r), want, "{r:?}");
    }
}

#[test]
fn iris_with_non_ascii_characters_in_every_component() {
    let base = "http://用户@例え.テスト:8080/パス/ファイル?問い#断片";
    assert_eq!(resolve(base, "../上"), "http://用户@例え.テスト:8080/上");
    assert_eq!(
        resolve(base, "下?質問#部分"),
        "http://用户@例え.テスト:8080/パス/下?質問#部分"
    );
    assert_eq!(resolve(base, "//ホスト/道"), "http://ホスト/道");
    assert_eq!(
        resolve(base, "?新"),
        "http://用户@例え.テスト:8080/パス/ファイル?新"
    );
    assert_eq!(
        resolve(base, "#新"),
        "http://用户@例え.テスト:8080/パス/ファイル?問い#新"
    );
    assert_eq!(resolve(base, "x:ß"), "x:ß");
    assert_eq!(resolve("x:/α/β/γ", "./δ/../ε"), "x:/α/β/ε");
}

#[test]
fn edge_cases_the_algorithm_decides() {
    // A base without authority: merge keeps the rootless path's directory, and
    // remove_dot_segments turns "a/../c" into "/c" (rule C writes "/" for "/..").
    assert_eq!(resolve("foo:a/b", "../c"), "foo:/c");
    assert_eq!(resolve("foo:a/b", "c"), "foo:a/c");
    assert_eq!(resolve("foo:a", "b"), "foo:b");
    assert_eq!(resolve("foo:/a/b", "../../c"), "foo:/c");
    // A base with an authority and an empty path: "/" + the reference (§5.2.3).
    assert_eq!(resolve("http://a", "b"), "http://a/b");
    assert_eq!(resolve("http://a", ""), "http://a");
    assert_eq!(resolve("http://a?q", "#f"), "http://a?q#f");
    // The empty reference is the base without its fragment.
    assert_eq!(resolve("http://a/b?q#frag", ""), "http://a/b?q");
    // A fragment-only reference keeps path and query.
    assert_eq!(resolve("http://a/b?q#frag", "#g"), "http://a/b?q#g");
    assert_eq!(resolve("http://a/b?q#frag", "#"), "http://a/b?q#");
    // Percent-encoded dots are not dot segments (§5.2.4 speaks of "." and "..").
    assert_eq!(resolve("http://a/b/c", "%2e%2e/d"), "http://a/b/%2e%2e/d");
    assert_eq!(resolve("http://a/b/c", "%2E/d"), "http://a/b/%2E/d");
    // More ".." than segments.
    assert_eq!(resolve("http://a/b", "../../../../x"), "http://a/x");
    assert_eq!(resolve("foo:a", "../../x"), "foo:x");
    // An empty query in the reference replaces the base's.
    assert_eq!(resolve("http://a/b?q", "?"), "http://a/b?");
    // A path that would begin with "//" without an authority keeps its meaning.
    assert_eq!(resolve("f:/a", ".//g"), "f:/.//g");
    assert_eq!(IriRef::parse("f:/.//g").unwrap().path(), "/.//g");
    // Dot segments in an absolute reference are removed too (strict).
    assert_eq!(resolve(BASE, "http://x/a/../b"), "http://x/b");
}

#[test]
fn the_base_must_be_absolute() {
    let base = IriRef::parse("//a/b").unwrap();
    let r = IriRef::parse("c").unwrap();
    assert_eq!(
        r.resolve(&base),
        Err(ResolveError::RelativeBase("//a/b".into()))
    );
}

#[test]
fn results_are_valid_in_the_same_variant_with_the_same_components() {
    // Reference::from_parts checks this in debug builds; check it here in any build.
    for (base, r) in [
        (BASE, "../g?x#y"),
        ("f:/a", ".//g"),
        ("http://[::1]:80/a", "b"),
        ("http://u@h/a?q", "#f"),
        ("foo:a/b", "../../c"),
    ] {
        let t = IriRef::parse(r)
            .unwrap()
            .resolve(&IriRef::parse(base).unwrap())
            .unwrap();
        let again = IriRef::parse(t.as_str()).unwrap();
        assert_eq!(format!("{t:?}"), format!("{again:?}"));
    }
    let base = UriRef::parse("http://a/b").unwrap();
    let t = UriRef::parse("c%20d").unwrap().resolve(&base).unwrap();
    assert_eq!(t, "http://a/c%20d");
    let base = LeiriRef::parse("http://a/b c/d").unwrap();
    let t = LeiriRef::parse("e f").unwrap().resolve(&base).unwrap();
    assert_eq!(t, "http://a/b c/e f");
}

#[test]
fn relativize_examples() {
    let base = IriRef::parse(BASE).unwrap();
    let rel = |t: &str| {
        IriRef::parse(t)
            .unwrap()
            .relativize(&base)
            .unwrap()
            .to_string()
    };
    assert_eq!(rel("http://a/b/c/g"), "g");
    assert_eq!(rel("http://a/b/c/"), "./");
    assert_eq!(rel("http://a/b/"), "../");
    assert_eq!(rel("http://a/b/g"), "../g");
    assert_eq!(rel("http://a/g"), "/g");
    assert_eq!(rel("http://a/b/c/d;p?q"), "");
    assert_eq!(rel("http://a/b/c/d;p?y"), "?y");
    assert_eq!(rel("http://a/b/c/d;p"), "d;p");
    assert_eq!(rel("http://a/b/c/d;p?q#s"), "#s");
    assert_eq!(rel("http://g"), "//g");
    assert_eq!(rel("g:h"), "g:h");
    assert_eq!(rel("http://a/b/c/g:h"), "./g:h");
    assert_eq!(rel("http://a"), "//a");
    // Dot segments cannot come out of resolution.
    let dotted = IriRef::parse("http://a/b/../c").unwrap();
    assert!(matches!(
        dotted.relativize(&base),
        Err(ResolveError::Unreachable { .. })
    ));
}

/// `resolve(relativize(t, b), b) == t` for targets and bases generated from the grammar.
#[test]
fn relativize_round_trips_on_generated_inputs() {
    let grammars = Grammars::builtin();
    let mut g = Generator::new(&grammars, VariantName::Iri, 2026);
    let mut checked = 0;
    for _ in 0..3000 {
        let base = g.generate("absolute-IRI").unwrap();
        let other = g.generate("IRI-reference").unwrap();
        let Ok(base) = Reference::<Iri>::parse(&base) else {
            continue;
        };
        // A target reachable by resolution: resolve a generated reference, sometimes
        // against the base itself so that scheme and authority are shared.
        let Ok(r) = Reference::<Iri>::parse(&other) else {
            continue;
        };
        let target = r.resolve(&base).unwrap();
        let shortest = target.relativize(&base).unwrap_or_else(|e| panic!("{e}"));
        let back = shortest.resolve(&base).unwrap();
        assert_eq!(
            back, target,
            "base {base}, target {target}, relative {shortest}"
        );
        assert!(shortest.as_str().len() <= target.as_str().len());
        checked += 1;
    }
    assert!(checked > 2500, "{checked}");
}
