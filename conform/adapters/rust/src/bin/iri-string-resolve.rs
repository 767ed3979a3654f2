//! iri-string 0.7's resolution (`resolve_against`, RFC 3986 §5.2) behind `iri
//! conform --resolve` (docs/conform-protocol.md): `IriStr` for grammar `iri`,
//! `UriStr` for `uri`. Its base is an absolute IRI without fragment: a base with
//! one is given as `to_absolute()`, the crate's own way to drop it (RFC 3986 §5.1).

use iri_conform_adapters::serve_resolve;
use iri_string::types::{IriReferenceStr, IriStr, UriReferenceStr, UriStr};
use std::process::ExitCode;

fn iri(base: &str, reference: &str) -> Option<String> {
    let base = IriStr::new(base).ok()?;
    let reference = IriReferenceStr::new(reference).ok()?;
    Some(reference.resolve_against(base.to_absolute()).to_string())
}

fn uri(base: &str, reference: &str) -> Option<String> {
    let base = UriStr::new(base).ok()?;
    let reference = UriReferenceStr::new(reference).ok()?;
    Some(reference.resolve_against(base.to_absolute()).to_string())
}

fn main() -> ExitCode {
    serve_resolve("iri-string", &[("iri", iri), ("uri", uri)])
}
