//! The `url` crate's resolution (`Url::join`) behind `iri conform --resolve`
//! (docs/conform-protocol.md). `url` follows the WHATWG URL Standard: its base is
//! an absolute URL, the targets are normalized (lowercase scheme and host,
//! percent-encoding, default ports dropped, `/` for the empty path of a special
//! scheme), and what it forgives differs from the RFCs'. Answered for any grammar.

use iri_conform_adapters::serve_resolve;
use std::process::ExitCode;
use url::Url;

fn resolve(base: &str, reference: &str) -> Option<String> {
    let base = Url::parse(base).ok()?;
    base.join(reference).ok().map(String::from)
}

fn main() -> ExitCode {
    serve_resolve(
        "url",
        &[("iri", resolve), ("uri", resolve), ("leiri", resolve)],
    )
}
