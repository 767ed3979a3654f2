//! What the fuzz targets (`fuzz/`, `FUZZING.md`) found, each as a test named after
//! what it shows. A finding in the command line is in `cli/tests/it/cli.rs`
//! (`compare_json_stays_json_for_lines_without_a_pair_or_not_utf8`).
//!
//! The two here were crashes of the `resolve` target whose property was too strong:
//! the library is right by RFC 3986, and the tests pin that behaviour, so that a
//! change to it is a decision and not an accident.

use iri_grammar::IriRef;

fn resolve(base: &str, r: &str) -> String {
    IriRef::parse(r)
        .unwrap()
        .resolve(&IriRef::parse(base).unwrap())
        .unwrap()
        .to_string()
}

/// Fuzz input `http://a/bb/ccc/.` 0xFF `` (an empty reference). RFC 3986 §5.2.2: when
/// the reference's path is empty, T.path = Base.path, with no remove_dot_segments
/// (§5.2.1 leaves normalizing the base optional). So the target keeps the base's dot
/// segments, and resolving that target again (its path now goes through
/// remove_dot_segments, as every path of a reference with a scheme does) removes them:
/// resolution is idempotent only on results without dot segments.
#[test]
fn an_empty_reference_keeps_the_dot_segments_of_the_base_path() {
    let base = "http://a/bb/ccc/.";
    let t = resolve(base, "");
    assert_eq!(t, "http://a/bb/ccc/.");
    assert_eq!(resolve(base, &t), "http://a/bb/ccc/");
    assert_eq!(resolve(base, "#f"), "http://a/bb/ccc/.#f");
    assert_eq!(resolve(base, "?q"), "http://a/bb/ccc/.?q");
    // A non-empty reference path is merged, and the merge has its dots removed.
    assert_eq!(resolve(base, "x"), "http://a/bb/ccc/x");
}

/// Fuzz input `a:/` 0xFF `.//.`: the path `//` (after remove_dot_segments) has no
/// authority before it, so the result is written `a:/.//` (otherwise `a://` would
/// read as an empty authority, RFC 3986 §3.3). That `/.` is a dot segment of the
/// result, but resolving it again gives the same string.
#[test]
fn a_result_path_starting_with_two_slashes_is_written_after_a_dot_segment_and_is_stable() {
    let t = resolve("a:/", ".//.");
    assert_eq!(t, "a:/.//");
    let r = IriRef::parse(&t).unwrap();
    assert_eq!((r.authority(), r.path()), (None, "/.//"));
    assert_eq!(resolve("a:/", &t), t);
    assert_eq!(resolve("f:/a", ".//g"), "f:/.//g");
}

/// Fuzz finding 6 (`convert`, 2026-11-23): `to_iri` with IDNA applied ToUnicode to each
/// label before decoding it, so a label that becomes an ACE label only once decoded
/// (`%52` is `R`) came out decoded but still in ACE form, and a second `to_iri` turned
/// it into Unicode. Decoding the host first makes the conversion idempotent.
#[test]
fn to_iri_with_idna_decodes_the_host_before_to_unicode_and_is_idempotent() {
    use iri_grammar::ToIri;
    let idna = ToIri { idna: true };
    for input in [
        "http://xn--99zooooooooooooooooooooooooooooo%52a.example.org/%E2%10%AE",
        "http://xn--99zt5%32a.example.org/",
        "http://a%2Exn--99zt52a.example.org/",
    ] {
        let once = IriRef::parse(input).unwrap().to_iri_with(idna).unwrap();
        let twice = once.to_iri_with(idna).unwrap();
        assert_eq!(once, twice, "{input:?}");
    }
    // The label that is ACE once decoded gets its Unicode form in the first pass.
    let r = IriRef::parse("http://xn--99zt5%32a.example.org/").unwrap();
    assert_eq!(r.to_iri_with(idna).unwrap(), "http://納豆.example.org/");
}
