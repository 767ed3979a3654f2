//! Conversions between the grammars: `to_uri` (RFC 3987 §3.1), `to_iri` (§3.2) and
//! `leiri_to_iri` (LEIRI note §3), with and without IDNA.
//!
//! Input: `TEXT [0xFF OPTIONS]`; the option picks the grammar. Both IDNA settings
//! are tried. Properties:
//! - outputs re-parse in their grammar with the components they recorded;
//! - a host stays one host: the output has the same presence of scheme, authority,
//!   userinfo, port, query and fragment, and the same number of path segments;
//! - only IDNA may refuse (`to_uri` with `idna`); `to_iri` never fails;
//! - `to_uri` and `to_iri` are idempotent, and from a URI, `u.to_iri().to_uri()` is
//!   `u` up to hex case and encoded unreserved characters (RFC 3986 §6.2.2.1-2).
#![no_main]

use arbitrary::Arbitrary;
use iri_fuzz::{reparses, structure, Grammar};
use iri_grammar::convert::{ConvertError, ToIri, ToUri};
use iri_grammar::{Reference, Variant, VariantName};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Default, Arbitrary)]
struct Options {
    grammar: Grammar,
}

/// Hex digits in uppercase and encoded unreserved characters decoded.
fn hex_normal(s: &str) -> String {
    let mut out = String::new();
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'%' {
            let v = u8::from_str_radix(&s[k + 1..k + 3], 16).unwrap();
            let c = v as char;
            if c.is_ascii_alphanumeric() || "-._~".contains(c) {
                out.push(c);
            } else {
                out.push_str(&format!("%{v:02X}"));
            }
            k += 3;
        } else {
            let c = s[k..].chars().next().unwrap();
            out.push(c);
            k += c.len_utf8();
        }
    }
    out
}

fn run<V: Variant>(s: &str) {
    let Ok(r) = Reference::<V>::parse(s) else {
        return;
    };
    for idna in [false, true] {
        match r.to_uri_with(ToUri { idna }) {
            Ok(u) => {
                reparses(&u, "to_uri", s);
                assert_eq!(
                    structure(&u),
                    structure(&r),
                    "to_uri idna {idna} of {s:?}: {u}"
                );
                let again = u.to_uri_with(ToUri { idna }).unwrap();
                assert_eq!(again, u, "to_uri is not idempotent on {s:?}");
            }
            Err(ConvertError::Idna(e)) => assert!(idna, "to_uri without IDNA failed on {s:?}: {e}"),
            Err(e) => panic!("to_uri of {s:?}: {e}"),
        }
        let i = r.to_iri_with(ToIri { idna })
            .unwrap_or_else(|e| panic!("to_iri idna {idna} of {s:?}: {e}"));
        reparses(&i, "to_iri", s);
        assert_eq!(
            structure(&i),
            structure(&r),
            "to_iri idna {idna} of {s:?}: {i}"
        );
        let again = i.to_iri_with(ToIri { idna }).unwrap();
        assert_eq!(again, i, "to_iri idna {idna} is not idempotent on {s:?}");
        if V::NAME == VariantName::Uri && !idna {
            let u = i.to_uri_with(ToUri::default()).unwrap();
            assert_eq!(hex_normal(u.as_str()), hex_normal(s), "{s:?} -> {i} -> {u}");
        }
    }
    if V::NAME == VariantName::Leiri {
        let i = r.leiri_to_iri().unwrap();
        reparses(&i, "leiri_to_iri", s);
        assert_eq!(structure(&i), structure(&r), "leiri_to_iri of {s:?}: {i}");
    }
}

fuzz_target!(|data: &[u8]| {
    let ([s], mut u) = iri_fuzz::split::<1>(data);
    let options: Options = iri_fuzz::options(&mut u);
    iri_fuzz::with_variant!(options.grammar, V => run::<V>(&s));
});
