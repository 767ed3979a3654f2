//! oxiri 0.3 behind the `iri conform` protocol (docs/conform-protocol.md).
//!
//! oxiri parses RFC 3987 IRIs only (no URI grammar): `IriRef` for `IRI-reference`,
//! `Iri` for `IRI`. It exposes the scheme, authority, path, query and fragment, not
//! the user information, host or port, whose keys are left out.

use iri_conform_adapters::{serve, Components, Key, Rule};
use std::process::ExitCode;

fn iri_reference(s: &str) -> Option<Components> {
    let r = oxiri::IriRef::parse(s).ok()?;
    Some(
        Components::new()
            .set(Key::Scheme, r.scheme())
            .set(Key::Authority, r.authority())
            .set(Key::Path, Some(r.path()))
            .set(Key::Query, r.query())
            .set(Key::Fragment, r.fragment()),
    )
}

fn iri(s: &str) -> Option<Components> {
    oxiri::Iri::parse(s).ok().map(|_| Components::new())
}

fn main() -> ExitCode {
    serve(
        "oxiri",
        &[
            Rule::new("iri", "IRI-reference", iri_reference),
            Rule::new("iri", "IRI", iri),
        ],
    )
}
