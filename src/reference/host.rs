//! The host and the port as values: [`Host`] (RFC 3986 §3.2.2, RFC 3987 `ihost`)
//! and the port's number (RFC 3986 §3.2.3).
//!
//! The grammar has already decided what the host is (first match wins: `1.2.3.4` is
//! an `IPv4address`, `01.2.3.4` a `reg-name`), so reading its value cannot fail:
//! the text is a valid `IPv4address`, `IPv6address` or `IPvFuture` by the time it is
//! read here.

use super::HostKind;
use core::fmt;
use core::net::{Ipv4Addr, Ipv6Addr};

/// A host as a value: what `ihost` (`host` in RFC 3986) matched, typed.
///
/// ```
/// use iri_grammar::reference::{Host, IriRef};
/// use core::net::{Ipv4Addr, Ipv6Addr};
/// let host = |s| IriRef::parse(s).unwrap().host_parsed().map(|h| h.to_string());
/// let r = IriRef::parse("http://résumé.example/").unwrap();
/// assert_eq!(r.host_parsed(), Some(Host::RegName("résumé.example")));
/// let r = IriRef::parse("http://127.0.0.1:80/").unwrap();
/// assert_eq!(r.host_parsed(), Some(Host::Ipv4(Ipv4Addr::LOCALHOST)));
/// let r = IriRef::parse("http://[::1]/").unwrap();
/// assert_eq!(r.host_parsed(), Some(Host::Ipv6(Ipv6Addr::LOCALHOST)));
/// let r = IriRef::parse("http://[v7.a:b]/").unwrap();
/// assert_eq!(r.host_parsed(), Some(Host::IpvFuture { version: "7", text: "a:b" }));
/// // dec-octet has no leading zeros, so this is a reg-name (RFC 3986 §3.2.2).
/// let r = IriRef::parse("http://127.0.0.01/").unwrap();
/// assert_eq!(r.host_parsed(), Some(Host::RegName("127.0.0.01")));
/// assert_eq!(host("mailto:a@b"), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// `ireg-name` (`reg-name`): a registered name as written, percent-encodings
    /// and case included; possibly empty (`file:///x`).
    RegName(&'a str),
    /// `IPv4address`.
    Ipv4(Ipv4Addr),
    /// An `IP-literal` holding an `IPv6address` (the brackets are not part of it).
    Ipv6(Ipv6Addr),
    /// An `IP-literal` holding an `IPvFuture`: `"v" 1*HEXDIG "." 1*( unreserved /
    /// sub-delims / ":" )`, a format that has no meaning yet.
    IpvFuture {
        /// The version, the hexadecimal digits after `v`.
        version: &'a str,
        /// What follows the `.`.
        text: &'a str,
    },
}

impl<'a> Host<'a> {
    /// The value of a valid host's text, of the kind the grammar found.
    pub(crate) fn of_valid(text: &'a str, kind: HostKind) -> Host<'a> {
        match kind {
            HostKind::RegName => Host::RegName(text),
            HostKind::Ipv4 => Host::Ipv4(ipv4(text)),
            HostKind::Ipv6 => Host::Ipv6(ipv6(&text[1..text.len() - 1])),
            HostKind::IpvFuture => {
                // "[v" version "." text "]"
                let inner = &text[2..text.len() - 1];
                let (version, text) = inner.split_once('.').unwrap_or((inner, ""));
                Host::IpvFuture { version, text }
            }
        }
    }

    /// Which kind of host this is.
    pub fn kind(&self) -> HostKind {
        match self {
            Host::RegName(_) => HostKind::RegName,
            Host::Ipv4(_) => HostKind::Ipv4,
            Host::Ipv6(_) => HostKind::Ipv6,
            Host::IpvFuture { .. } => HostKind::IpvFuture,
        }
    }
}

impl fmt::Display for Host<'_> {
    /// The host as a reference writes it: IPv6 in brackets, in the text form of
    /// RFC 5952 (`core`'s), which may differ from the text it was read from
    /// (`[0:0::1]` is written `[::1]`); an `IPvFuture` with a lowercase `v`.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let r = IriRef::parse("http://[0:0:0::1]/").unwrap();
    /// assert_eq!(r.host_parsed().unwrap().to_string(), "[::1]");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::RegName(name) => f.write_str(name),
            Host::Ipv4(a) => write!(f, "{a}"),
            Host::Ipv6(a) => write!(f, "[{a}]"),
            Host::IpvFuture { version, text } => write!(f, "[v{version}.{text}]"),
        }
    }
}

/// A valid `IPv4address`: four `dec-octet`s, no leading zeros, each at most 255.
fn ipv4(text: &str) -> Ipv4Addr {
    let mut octets = [0u8; 4];
    for (slot, part) in octets.iter_mut().zip(text.split('.')) {
        *slot = part
            .bytes()
            .fold(0u8, |n, d| n.wrapping_mul(10).wrapping_add(d - b'0'));
    }
    Ipv4Addr::from(octets)
}

/// A valid `IPv6address` (RFC 3986 §3.2.2): up to eight `h16` pieces separated by
/// `:`, at most one `::` standing for one or more pieces of zeros, and possibly an
/// `IPv4address` as the last two pieces (`ls32`).
fn ipv6(text: &str) -> Ipv6Addr {
    let mut head = [0u16; 8];
    let mut tail = [0u16; 8];
    let (h, t) = match text.split_once("::") {
        Some((h, t)) => (h, Some(t)),
        None => (text, None),
    };
    let n_head = pieces(h, &mut head);
    let mut out = head;
    if let Some(t) = t {
        let n_tail = pieces(t, &mut tail);
        // The "::" fills what the two sides leave: the tail goes to the end.
        out[8 - n_tail..].copy_from_slice(&tail[..n_tail]);
        debug_assert!(n_head + n_tail < 8, "{text}");
    } else {
        debug_assert_eq!(n_head, 8, "{text}");
    }
    Ipv6Addr::from(out)
}

/// The 16-bit pieces of one side of a `::`, written to `out`; how many.
fn pieces(side: &str, out: &mut [u16; 8]) -> usize {
    let mut n = 0;
    if side.is_empty() {
        return 0;
    }
    for piece in side.split(':') {
        if piece.contains('.') {
            let [a, b, c, d] = ipv4(piece).octets();
            out[n] = u16::from_be_bytes([a, b]);
            out[n + 1] = u16::from_be_bytes([c, d]);
            n += 2;
        } else {
            // `h16 = 1*4HEXDIG`.
            out[n] = piece.bytes().fold(0u16, |v, d| {
                (v << 4) | u16::from(crate::pct::hex_value(d).unwrap_or(0))
            });
            n += 1;
        }
        if n >= 8 {
            break;
        }
    }
    n
}

/// A port that is valid ABNF (`port = *DIGIT`) but has no `u16` value: more than
/// 65535. RFC 3986 §3.2.3 gives `port` no upper bound; TCP and UDP ports are 16
/// bits. See [`crate::reference::Reference::port_number`].
///
/// ```
/// use iri_grammar::IriRef;
/// let r = IriRef::parse("http://a:65536/").unwrap();
/// let e = r.port_number().unwrap_err();
/// assert_eq!(e.to_string(), "the port 65536 is above 65535");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PortOutOfRange {
    /// The value without its leading zeros, saturated (a port of twenty digits is
    /// `u64::MAX` here); for the message.
    value: u64,
}

impl fmt::Display for PortOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value == u64::MAX {
            write!(f, "the port is above 65535")
        } else {
            write!(f, "the port {} is above 65535", self.value)
        }
    }
}

impl core::error::Error for PortOutOfRange {}

/// The number of a `port` (`*DIGIT`, valid): `None` when empty; leading zeros are
/// ignored (a port is a decimal number: `080` is 80).
pub(crate) fn port_number(port: &str) -> Result<Option<u16>, PortOutOfRange> {
    if port.is_empty() {
        return Ok(None);
    }
    let value = port.bytes().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    u16::try_from(value)
        .map(Some)
        .map_err(|_| PortOutOfRange { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_forms() {
        let v6 = |s: &str| ipv6(s);
        assert_eq!(v6("::"), Ipv6Addr::UNSPECIFIED);
        assert_eq!(v6("::1"), Ipv6Addr::LOCALHOST);
        assert_eq!(v6("1::"), Ipv6Addr::new(1, 0, 0, 0, 0, 0, 0, 0));
        assert_eq!(v6("1:2:3:4:5:6:7:8"), Ipv6Addr::new(1, 2, 3, 4, 5, 6, 7, 8));
        // "::" standing for one piece (valid ABNF; RFC 5952 would not write it).
        assert_eq!(v6("1:2:3:4:5:6::8"), Ipv6Addr::new(1, 2, 3, 4, 5, 6, 0, 8));
        assert_eq!(
            v6("::ffff:1.2.3.4"),
            Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304)
        );
        assert_eq!(
            v6("1:2:3:4:5:6:255.255.255.255"),
            Ipv6Addr::new(1, 2, 3, 4, 5, 6, 0xffff, 0xffff)
        );
        assert_eq!(
            v6("ABCD::Ef"),
            Ipv6Addr::new(0xabcd, 0, 0, 0, 0, 0, 0, 0xef)
        );
    }

    #[test]
    fn ports() {
        assert_eq!(port_number(""), Ok(None));
        assert_eq!(port_number("0"), Ok(Some(0)));
        assert_eq!(port_number("00080"), Ok(Some(80)));
        assert_eq!(port_number("65535"), Ok(Some(65535)));
        assert_eq!(port_number("65536"), Err(PortOutOfRange { value: 65536 }));
        assert_eq!(
            port_number("99999999999999999999999"),
            Err(PortOutOfRange { value: u64::MAX })
        );
    }
}
