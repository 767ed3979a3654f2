//! iri-string 0.7 behind the `iri conform` protocol (docs/conform-protocol.md).
//!
//! One string type per rule: `UriReferenceStr`, `UriStr`, `UriAbsoluteStr` and
//! `UriRelativeStr` for RFC 3986's `URI-reference`, `URI`, `absolute-URI` and
//! `relative-ref`; the `Iri…` types for RFC 3987's `i`-rules. The reference types
//! expose every component of the protocol, as slices of the input.

use iri_conform_adapters::{serve, Components, Key, Rule};
use iri_string::types::{
    IriAbsoluteStr, IriReferenceStr, IriRelativeStr, IriStr, UriAbsoluteStr, UriReferenceStr,
    UriRelativeStr, UriStr,
};
use std::process::ExitCode;

/// The components of a `UriReferenceStr` or `IriReferenceStr` (one generic type,
/// `RiReferenceStr<Spec>`, whose accessors are written for each spec).
macro_rules! components {
    ($r:expr) => {{
        let r = $r;
        let a = r.authority_components();
        Components::new()
            .set(Key::Scheme, r.scheme_str())
            .set(Key::Authority, r.authority_str())
            .set(Key::Userinfo, a.as_ref().and_then(|a| a.userinfo()))
            .set(Key::Host, a.as_ref().map(|a| a.host()))
            .set(Key::Port, a.as_ref().and_then(|a| a.port()))
            .set(Key::Path, Some(r.path_str()))
            .set(Key::Query, r.query_str())
            .set(Key::Fragment, r.fragment_str())
    }};
}

fn uri_reference(s: &str) -> Option<Components> {
    UriReferenceStr::new(s).ok().map(|r| components!(r))
}

fn iri_reference(s: &str) -> Option<Components> {
    IriReferenceStr::new(s).ok().map(|r| components!(r))
}

/// A rule answered by validity alone: whether `new` accepts the input.
macro_rules! validity {
    ($ty:ty) => {
        |s: &str| <$ty>::new(s).ok().map(|_| Components::new())
    };
}

fn main() -> ExitCode {
    serve(
        "iri-string",
        &[
            Rule::new("uri", "URI-reference", uri_reference),
            Rule::new("uri", "URI", validity!(UriStr)),
            Rule::new("uri", "absolute-URI", validity!(UriAbsoluteStr)),
            Rule::new("uri", "relative-ref", validity!(UriRelativeStr)),
            Rule::new("iri", "IRI-reference", iri_reference),
            Rule::new("iri", "IRI", validity!(IriStr)),
            Rule::new("iri", "absolute-IRI", validity!(IriAbsoluteStr)),
            Rule::new("iri", "irelative-ref", validity!(IriRelativeStr)),
        ],
    )
}
