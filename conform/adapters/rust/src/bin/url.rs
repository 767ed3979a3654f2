//! The `url` crate (2.x) behind the `iri conform` protocol (docs/conform-protocol.md).
//!
//! `url` follows another standard: the WHATWG URL Standard, not RFC 3986 or
//! RFC 3987. Its parser accepts absolute URLs only (a relative reference needs a
//! base, which the protocol does not give), forgives what the RFCs refuse (spaces
//! and tabs at the ends, backslashes, a missing `//`), and normalizes what it keeps
//! (lowercase scheme and host, IDNA, percent-encoding, default ports dropped, dot
//! segments removed). So it is asked the RFCs' reference rule and `URI`/`IRI` alike,
//! and the report shows where the two standards part.
//!
//! Components are given only when `url` changed nothing, that is when its
//! serialization is the input itself, so that they are read from the input's text;
//! otherwise the answer is the verdict alone, never components it rewrote. One
//! place where even then the Standard's components are not the RFCs': a path that
//! starts with `//` without a host is serialized behind `/.` (`f:/.//g`), which its
//! path (`//g`) does not include; the report shows it.

use iri_conform_adapters::{serve, Components, Key, Rule};
use std::process::ExitCode;
use url::Url;

fn whatwg(s: &str) -> Option<Components> {
    let u = Url::parse(s).ok()?;
    if u.as_str() != s {
        return Some(Components::new());
    }
    let port = u.port().map(|p| p.to_string());
    let found = Components::new()
        .set(Key::Scheme, Some(u.scheme()))
        .set(Key::Authority, u.has_authority().then(|| u.authority()))
        .set(Key::Port, port.as_deref())
        .set(Key::Path, Some(u.path()))
        .set(Key::Query, u.query())
        .set(Key::Fragment, u.fragment());
    // `host_str` is `None` both without an authority and for the empty host of
    // `file:///x`: say "absent" only in the first case, and nothing in the second.
    Some(match (u.has_authority(), u.host_str()) {
        (false, _) => found.set(Key::Host, None),
        (true, Some(host)) => found.set(Key::Host, Some(host)),
        (true, None) => found,
    })
}

fn main() -> ExitCode {
    serve(
        "url",
        &[
            Rule::new("uri", "URI-reference", whatwg),
            Rule::new("uri", "URI", whatwg),
            Rule::new("iri", "IRI-reference", whatwg),
            Rule::new("iri", "IRI", whatwg),
        ],
    )
}
