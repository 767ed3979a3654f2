//! fluent-uri 0.4's resolution (`resolve_against`, RFC 3986 §5.2) behind `iri
//! conform --resolve` (docs/conform-protocol.md): `Iri`/`IriRef` for grammar `iri`,
//! `Uri`/`UriRef` for `uri`.

use iri_conform_adapters::serve_resolve;
use std::process::ExitCode;

fn iri(base: &str, reference: &str) -> Option<String> {
    let base = fluent_uri::Iri::parse(base).ok()?;
    let reference = fluent_uri::IriRef::parse(reference).ok()?;
    reference.resolve_against(&base).ok().map(|t| t.to_string())
}

fn uri(base: &str, reference: &str) -> Option<String> {
    let base = fluent_uri::Uri::parse(base).ok()?;
    let reference = fluent_uri::UriRef::parse(reference).ok()?;
    reference.resolve_against(&base).ok().map(|t| t.to_string())
}

fn main() -> ExitCode {
    serve_resolve("fluent-uri", &[("iri", iri), ("uri", uri)])
}
