//! oxiri 0.3's resolution (`Iri::resolve`, RFC 3986 §5.2) behind `iri conform
//! --resolve` (docs/conform-protocol.md). oxiri has IRIs only: grammar `iri`.

use iri_conform_adapters::serve_resolve;
use std::process::ExitCode;

fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = oxiri::Iri::parse(base).ok()?;
    let reference = oxiri::IriRef::parse(reference).ok()?;
    base.resolve(&reference).ok().map(oxiri::Iri::into_inner)
}

fn main() -> ExitCode {
    serve_resolve("oxiri", &[("iri", resolve)])
}
