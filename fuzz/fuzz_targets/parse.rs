//! `Reference::parse` in each grammar (`UriRef`, `IriRef`, `LeiriRef`).
//!
//! Properties, for every input and every grammar:
//! - parse succeeds exactly when `is_match` of the reference rule does;
//! - the components re-assemble to the input (RFC 3986 §5.3: scheme ":", "//"
//!   authority, path, "?" query, "#" fragment), and the authority to userinfo "@",
//!   host, ":" port; spans and `get` agree with the accessors; the path segments
//!   joined with "/" are the path;
//! - the grammars nest (RFC 3987 §2: every URI is an IRI; the LEIRI note §2: every
//!   IRI is a LEIRI), with the same components in each;
//! - an error's offsets point into the input, at a character boundary.
#![no_main]

use iri_fuzz::{components, parse_all, recompose, recompose_authority, GRAMMARS};
use iri_grammar::reference::Component;
use iri_grammar::{is_match, Reference, Rule, Variant};
use libfuzzer_sys::fuzz_target;

fn check<V: Variant>(s: &str) {
    let parsed = Reference::<V>::parse(s);
    assert_eq!(
        parsed.is_ok(),
        is_match::<V>(Rule::IriReference, s),
        "{:?} parse and is_match disagree on {s:?}",
        V::NAME
    );
    let r = match parsed {
        Ok(r) => r,
        Err(e) => {
            assert!(
                e.byte_offset() <= s.len() && s.is_char_boundary(e.byte_offset()),
                "{e:?}"
            );
            assert_eq!(
                e.char_offset(),
                s[..e.byte_offset()].chars().count(),
                "{s:?}"
            );
            assert_eq!(e.found(), s[e.byte_offset()..].chars().next(), "{s:?}");
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(recompose(&r), s, "{:?} components of {s:?}: {r:?}", V::NAME);
    assert_eq!(
        r.authority().map(str::to_string),
        recompose_authority(&r),
        "{s:?}"
    );
    for c in Component::ALL {
        let got = r.span(c).map(|span| &s[span]);
        assert_eq!(got, r.get(c), "{s:?} {c}");
    }
    let segments: Vec<&str> = r.path_segments().collect();
    let joined = segments.join("/");
    let path = r.path();
    assert_eq!(joined, path.strip_prefix('/').unwrap_or(path), "{s:?}");
    let spans: Vec<&str> = r.path_segment_spans().map(|span| &s[span]).collect();
    assert_eq!(spans, segments, "{s:?}");
    // Owned and borrowed parses are the same reference.
    let owned = Reference::<V>::parse_owned(s.to_string()).unwrap();
    assert_eq!(components(&owned), components(&r));
}

fuzz_target!(|data: &[u8]| {
    let ([s], _) = iri_fuzz::split::<1>(data);
    for g in GRAMMARS {
        iri_fuzz::with_variant!(g, V => check::<V>(&s));
    }
    // URI ⊂ IRI ⊂ LEIRI, with the same components.
    let [uri, iri, leiri] = parse_all(&s);
    if uri.is_some() {
        assert_eq!(uri, iri, "a URI that is not the same IRI: {s:?}");
    }
    if iri.is_some() {
        assert_eq!(iri, leiri, "an IRI that is not the same LEIRI: {s:?}");
    }
});
