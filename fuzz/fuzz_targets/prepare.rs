//! Preparing arbitrary strings (IRI processing draft §4-5): `prepare`, `prepare_multi`.
//!
//! Input: any bytes (read lossily as UTF-8). Properties:
//! - a result is a valid IRI reference that parses to the components it recorded;
//! - a host stays one host: the result has userinfo exactly when the authority that
//!   an RFC 3986 Appendix B split finds in the input has an `@`, and a port exactly
//!   when it has a `:` after the host (IDNA mapping U+FE6B SMALL COMMERCIAL AT to `@`
//!   must be refused, not obeyed);
//! - preparing a prepared reference changes nothing;
//! - every result of `prepare_multi` is valid.
#![no_main]

use iri_fuzz::{appendix_b_authority, reparses};
use iri_grammar::prepare::{prepare, prepare_multi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ([s], _) = iri_fuzz::split::<1>(data);
    if let Ok(p) = prepare(&s) {
        reparses(&p, "prepare", &s);
        if let Some((userinfo, port)) = appendix_b_authority(&s) {
            assert_eq!(
                p.userinfo().is_some(),
                userinfo,
                "prepare({s:?}) = {p}: userinfo"
            );
            assert_eq!(p.port().is_some(), port, "prepare({s:?}) = {p}: port");
        }
        let again = prepare(p.as_str()).unwrap_or_else(|e| panic!("prepare({p}): {e}"));
        assert_eq!(again, p, "prepare is not idempotent on {s:?}");
    }
    for p in prepare_multi(&s).into_iter().flatten() {
        reparses(&p, "prepare_multi", &s);
    }
});
