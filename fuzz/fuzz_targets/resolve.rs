//! Resolution and relativization (RFC 3986 §5.2, RFC 3987 §6.5).
//!
//! Input: `BASE 0xFF REFERENCE [0xFF TARGET] [0xFF OPTIONS]`; the option picks the
//! grammar. Properties:
//! - against a base without a scheme, resolution fails (§5.1); against an absolute
//!   one it succeeds, and the result is absolute, parses to the components it
//!   recorded, keeps the reference's fragment, and resolves to itself again (unless
//!   it kept the dot segments of the base's path, which §5.2.2 keeps for an empty
//!   reference path);
//! - round trip: if `t.relativize(&base)` is Ok, resolving it gives `t` back, and it
//!   is no longer than `t`; for the resolved reference and for TARGET.
#![no_main]

use arbitrary::Arbitrary;
use iri_fuzz::{reparses, Grammar};
use iri_grammar::{Reference, ResolveError, Variant};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Default, Arbitrary)]
struct Options {
    grammar: Grammar,
}

fn round_trip<V: Variant>(t: &Reference<'_, V>, base: &Reference<'_, V>) {
    match t.relativize(base) {
        Ok(rel) => {
            reparses(&rel, "relativize", t.as_str());
            let back = rel
                .resolve(base)
                .unwrap_or_else(|e| panic!("{rel} against {base}: {e}"));
            assert_eq!(
                back, *t,
                "relativize({t}, {base}) = {rel} resolves to {back}"
            );
            assert!(
                rel.as_str().len() <= t.as_str().len(),
                "{rel} is longer than {t}"
            );
        }
        Err(ResolveError::Unreachable { .. }) => {}
        Err(e) => panic!("relativize({t}, {base}): {e}"),
    }
}

fn run<V: Variant>(base: &str, reference: &str, target: &str) {
    let (Ok(b), Ok(r)) = (
        Reference::<V>::parse(base),
        Reference::<V>::parse(reference),
    ) else {
        return;
    };
    let t = match r.resolve(&b) {
        Ok(t) => t,
        Err(ResolveError::RelativeBase(_)) => {
            assert!(b.is_relative(), "{base} is absolute, yet a relative base");
            return;
        }
        Err(e) => panic!("resolve({reference}, {base}): {e}"),
    };
    assert!(b.is_absolute(), "resolved against a relative base {base}");
    reparses(&t, "resolve", reference);
    assert!(t.is_absolute(), "{t}");
    assert_eq!(
        t.fragment(),
        r.fragment(),
        "fragment of {reference} against {base}"
    );
    if r.is_absolute() {
        assert_eq!(t.scheme(), r.scheme());
    } else {
        assert_eq!(t.scheme(), b.scheme());
    }
    // Resolving the result again changes nothing, unless it kept dot segments of
    // the base's path: with an empty reference path, §5.2.2 takes the base's path
    // as it is (no remove_dot_segments; §5.2.1 leaves normalizing the base optional).
    let dots = |p: &str| p.split('/').any(|s| s == "." || s == "..");
    if !(r.path().is_empty() && r.authority().is_none() && r.scheme().is_none() && dots(b.path())) {
        let again = t.resolve(&b).unwrap();
        assert_eq!(again, t, "resolving {t} again against {base}");
    }
    round_trip(&t, &b);
    if let Ok(target) = Reference::<V>::parse(target) {
        if target.is_absolute() {
            round_trip(&target, &b);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let ([base, reference, target], mut u) = iri_fuzz::split::<3>(data);
    let options: Options = iri_fuzz::options(&mut u);
    iri_fuzz::with_variant!(options.grammar, V => run::<V>(&base, &reference, &target));
});
