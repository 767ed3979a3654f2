//! Validation allocates nothing: `is_match` (the `Check` mode of the generated
//! combinators) is run under a counting global allocator, for every rule, every
//! variant, and valid as well as invalid inputs (percent-encodings, IP literals,
//! non-ASCII, long paths, and every prefix of each input as a stock of failures).
//! Nor does `Reference::parse`, of a reference or of a short non-reference.
//!
//! The counter is per thread, so the test harness (which allocates on its own
//! threads while tests run) cannot disturb the count of the thread under test.

use iri_grammar::combinators::{rule as combinator, Check};
use iri_grammar::grammar::{check, is_match, Iri, Leiri, Rule, Uri, Variant};
use iri_grammar::reference::Reference;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// `System`, counting the allocations (and reallocations) of each thread.
struct Counting;

thread_local! {
    // `const` initialisation: no lazy registration, no destructor, so reading
    // it from inside the allocator cannot recurse into the allocator.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the thread-local may already be gone while a thread exits.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded unchanged to `System`; counting has no effect
// on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations this thread made while running `f`, and `f`'s result.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    let after = ALLOCATIONS.with(Cell::get);
    (after - before, out)
}

/// Inputs chosen to walk every part of the grammar, matching and failing.
fn inputs() -> Vec<String> {
    let mut v: Vec<String> = [
        // valid URIs and IRIs
        "http://example.org/",
        "https://user:pa%20ss@www.example.com:8080/a/b/c;p=1?q=a&r=b#frag",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "http://[::1]:80/",
        "http://[1:2:3:4:5:6:7:8]/",
        "http://[1:2:3:4:5:6:1.2.3.4]/",
        "http://[::ffff:192.168.0.1]/x",
        "http://[fe80::1:2]/",
        "http://[v7.abc:def]/",
        "http://192.168.0.1:8080/path",
        "http://1.2.3.4.5/",
        "http://256.256.256.256/",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "file:///etc/passwd",
        "http://r\u{e9}sum\u{e9}.example.org/ros%C3%A9?q=\u{E000}#\u{10000}",
        "http://\u{7d0d}\u{8c46}.example/\u{1F600}/\u{4e2d}\u{6587}",
        "http://example.org/%E2%82%AC/%7Euser/%41%42%43",
        // relative references
        "",
        "g",
        "./g",
        "../../g",
        "//g",
        "?y",
        "#s",
        "g;x=1/../y",
        "/a/b/c/./../../g",
        "a:b/c",
        // invalid for all three grammars
        "http://exa mple.org/",
        "http://[::1/",
        "http://[1:2:3:4:5:6:7:8:9]/",
        "http://[g::1]/",
        "http://a/%zz",
        "http://a/%4",
        "http://a/b#c#d",
        "http://a:b:c@d:e/",
        ":no-scheme",
        "1http://a/",
        "http://a/\u{202E}b\u{0}",
        // valid only for some grammars
        "http://a/ b<c>{d}|e\\f^g`h",
        "http://a/\u{E000}",
        "http://a/\u{FFFF}",
        "http://a/\u{D7FF}\u{FDD0}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Long inputs: many segments, long runs of each kind of character.
    v.push(format!("http://example.org{}", "/segment".repeat(5_000)));
    v.push(format!("http://example.org/{}", "%C3%A9".repeat(5_000)));
    v.push(format!(
        "http://example.org/{}",
        "\u{e9}\u{4e2d}\u{1F600}".repeat(3_000)
    ));
    v.push(format!("http://example.org/?{}", "k=v&".repeat(5_000)));
    v.push(format!("{}#x", "a/".repeat(5_000)));
    v.push(format!("http://{}example.org/", "sub.".repeat(2_000)));
    v.push(format!("http://example.org{} /", "/segment".repeat(5_000)));
    v.push(format!("http://[{}]/", "1:".repeat(2_000)));
    v
}

/// Every prefix of `s` that ends on a character boundary (mostly invalid inputs,
/// failing at every point of the grammar).
fn prefixes(s: &str) -> impl Iterator<Item = &str> {
    s.char_indices().map(move |(k, _)| &s[..k])
}

fn assert_no_allocation<V: Variant>(rule: Rule, input: &str) {
    let (n, matched) = allocations(|| is_match::<V>(rule, input));
    assert_eq!(
        n,
        0,
        "is_match::<{:?}>({}, {input:?}) = {matched} allocated {n} time(s)",
        V::NAME,
        rule.name::<V>()
    );
    let (n, _) = allocations(|| combinator::<V, Check>(rule)(input).is_ok());
    assert_eq!(
        n,
        0,
        "combinators::rule::<{:?}, Check>({})({input:?}) allocated",
        V::NAME,
        rule.name::<V>()
    );
    if matched {
        // `check` of a match is `is_match`: it must not allocate either.
        let (n, ok) = allocations(|| check::<V>(rule, input).is_ok());
        assert!(ok);
        assert_eq!(
            n,
            0,
            "check::<{:?}>({}, {input:?}) allocated",
            V::NAME,
            rule.name::<V>()
        );
    }
}

/// `Reference::parse` allocates nothing for a reference, nor for a refusal of at
/// most 70 bytes (the error keeps such an input in place; `MatchError`'s documentation
/// says so); a longer refusal copies its input once.
fn assert_parse_allocates_nothing<V: Variant>(input: &str) {
    let (n, parsed) = allocations(|| Reference::<V>::parse(input).is_ok());
    let most = usize::from(!parsed && input.len() > 70);
    assert!(
        n <= most,
        "Reference::<{:?}>::parse({input:?}) = {parsed} allocated {n} time(s)",
        V::NAME
    );
}

fn run_variant<V: Variant>() -> (usize, usize) {
    let inputs = inputs();
    let (mut matched, mut total) = (0, 0);
    for input in &inputs {
        assert_parse_allocates_nothing::<V>(input);
        for rule in Rule::ALL.iter().copied() {
            assert_no_allocation::<V>(rule, input);
            matched += usize::from(is_match::<V>(rule, input));
            total += 1;
        }
        // The whole-reference rules also on every prefix (skipping the very long inputs,
        // whose prefixes would only repeat the same work).
        if input.len() < 200 {
            for p in prefixes(input) {
                for rule in [
                    Rule::IriReference,
                    Rule::Iri,
                    Rule::AbsoluteIri,
                    Rule::IrelativeRef,
                    Rule::Iauthority,
                ] {
                    assert_no_allocation::<V>(rule, p);
                }
                assert_parse_allocates_nothing::<V>(p);
            }
        }
    }
    (matched, total)
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations(|| Vec::<u8>::with_capacity(1));
    assert!(
        n >= 1,
        "the counting allocator saw no allocation for Vec::with_capacity(1)"
    );
    drop(v);
    let (n, s) = allocations(|| String::from("x").repeat(100));
    assert!(n >= 1);
    drop(s);
    // And it does see the allocations of explaining a failure (so a zero below means
    // something): the message of an invalid input's error is built when asked for.
    let (n, r) =
        allocations(|| check::<Iri>(Rule::IriReference, "http://a/b c").map_err(|e| e.to_string()));
    assert!(r.is_err());
    assert!(
        n >= 1,
        "explaining a failure allocates, and the counter must see it"
    );
}

#[test]
fn is_match_allocates_nothing_uri() {
    let (matched, total) = run_variant::<Uri>();
    // Both outcomes were exercised.
    assert!(matched > 0 && matched < total);
}

#[test]
fn is_match_allocates_nothing_iri() {
    let (matched, total) = run_variant::<Iri>();
    assert!(matched > 0 && matched < total);
}

#[test]
fn is_match_allocates_nothing_leiri() {
    let (matched, total) = run_variant::<Leiri>();
    assert!(matched > 0 && matched < total);
}

#[test]
fn the_inputs_cover_valid_and_invalid_references() {
    // The inputs above are what they claim to be (valid and invalid IRI references),
    // so the allocation tests cover both outcomes of the main rule.
    let valid = |s: &str| is_match::<Iri>(Rule::IriReference, s);
    assert!(valid("http://[::ffff:192.168.0.1]/x"));
    assert!(valid(
        "http://r\u{e9}sum\u{e9}.example.org/ros%C3%A9?q=\u{E000}#\u{10000}"
    ));
    assert!(valid(&format!(
        "http://example.org{}",
        "/segment".repeat(5_000)
    )));
    assert!(!valid("http://[1:2:3:4:5:6:7:8:9]/"));
    assert!(!valid("http://a/%4"));
    assert!(!valid(&format!(
        "http://example.org{} /",
        "/segment".repeat(5_000)
    )));
    assert!(!is_match::<Uri>(Rule::IriReference, "http://a/\u{e9}"));
    assert!(is_match::<Leiri>(
        Rule::IriReference,
        "http://a/ b<c>{d}|e\\f^g`h"
    ));
    assert!(!valid("http://a/ b<c>{d}|e\\f^g`h"));
}
