//! fluent-uri 0.4 behind the `iri conform` protocol (docs/conform-protocol.md).
//!
//! `UriRef` and `Uri` parse RFC 3986's `URI-reference` and `URI`; `IriRef` and `Iri`
//! RFC 3987's `IRI-reference` and `IRI`. The reference types expose every component
//! of the protocol, as slices of the input.

use iri_conform_adapters::{serve, Components, Key, Rule};
use std::process::ExitCode;

/// The components of a parsed `UriRef` or `IriRef`: the two types have the same
/// accessors but no trait in common.
macro_rules! components {
    ($r:expr) => {{
        let r = $r;
        let a = r.authority();
        Components::new()
            .set(Key::Scheme, r.scheme().map(|v| v.as_str()))
            .set(Key::Authority, a.map(|a| a.as_str()))
            .set(
                Key::Userinfo,
                a.and_then(|a| a.userinfo()).map(|v| v.as_str()),
            )
            .set(Key::Host, a.map(|a| a.host()))
            .set(Key::Port, a.and_then(|a| a.port()).map(|v| v.as_str()))
            .set(Key::Path, Some(r.path().as_str()))
            .set(Key::Query, r.query().map(|v| v.as_str()))
            .set(Key::Fragment, r.fragment().map(|v| v.as_str()))
    }};
}

fn uri_reference(s: &str) -> Option<Components> {
    fluent_uri::UriRef::parse(s).ok().map(|r| components!(r))
}

fn uri(s: &str) -> Option<Components> {
    fluent_uri::Uri::parse(s).ok().map(|_| Components::new())
}

fn iri_reference(s: &str) -> Option<Components> {
    fluent_uri::IriRef::parse(s).ok().map(|r| components!(r))
}

fn iri(s: &str) -> Option<Components> {
    fluent_uri::Iri::parse(s).ok().map(|_| Components::new())
}

fn main() -> ExitCode {
    serve(
        "fluent-uri",
        &[
            Rule::new("uri", "URI-reference", uri_reference),
            Rule::new("uri", "URI", uri),
            Rule::new("iri", "IRI-reference", iri_reference),
            Rule::new("iri", "IRI", iri),
        ],
    )
}
