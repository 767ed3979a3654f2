//! The components of a reference as the grammar finds them (RFC 3986 §3, RFC 3987
//! §2.2): which part of a text each is, from where the walk of the compiled grammar
//! entered each part of Appendix B's split ([`super::split::Boundaries`]), and which
//! alternative of `ihost` the host is. The typed references (`crate::reference`) are
//! built on these offsets, and a failing input is blamed on a component with them
//! ([`super::blame`]); they live with the grammar so that neither reaches up.

use super::split::Boundaries;
use super::{Iri, Rule};
use core::fmt;

/// What kind of host the grammar found (RFC 3986 §3.2.2, RFC 3987 §2.2 `ihost`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HostKind {
    /// `ireg-name` (`reg-name` in a URI): a registered name, e.g. a DNS name. Also
    /// `01.02.03.04`, which is no `IPv4address` (`dec-octet` has no leading zeros),
    /// and `1.2.3.4.5`.
    RegName,
    /// `IPv4address`: `1.2.3.4` (first match wins over `ireg-name`).
    Ipv4,
    /// `IP-literal` holding an `IPv6address`: `[::1]`.
    Ipv6,
    /// `IP-literal` holding an `IPvFuture`: `[v1.x]`.
    IpvFuture,
}

impl HostKind {
    /// `reg-name`, `ipv4`, `ipv6` or `ipvfuture`, as the `iri parse` command prints it.
    ///
    /// ```
    /// assert_eq!(iri_grammar::reference::HostKind::Ipv6.as_str(), "ipv6");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            HostKind::RegName => "reg-name",
            HostKind::Ipv4 => "ipv4",
            HostKind::Ipv6 => "ipv6",
            HostKind::IpvFuture => "ipvfuture",
        }
    }
}

/// The components of a reference (RFC 3986 §3, RFC 3987 §2.2), for the operations
/// that treat each by its own rule and for [`Reference::span`](crate::reference::Reference::span).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// `scheme`.
    Scheme,
    /// `iauthority` (`authority` in a URI): userinfo, host and port.
    Authority,
    /// `iuserinfo`.
    Userinfo,
    /// `ihost`.
    Host,
    /// `port`.
    Port,
    /// The path (`ipath-abempty`, `ipath-absolute`, `ipath-noscheme`,
    /// `ipath-rootless` or `ipath-empty`).
    Path,
    /// `iquery`.
    Query,
    /// `ifragment`.
    Fragment,
}

impl Component {
    /// Every component, in the order RFC 3986 §3 writes them.
    ///
    /// ```
    /// use iri_grammar::reference::Component;
    /// let names: Vec<&str> = Component::ALL.iter().map(|c| c.as_str()).collect();
    /// assert_eq!(names, ["scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"]);
    /// ```
    pub const ALL: [Component; 8] = [
        Component::Scheme,
        Component::Authority,
        Component::Userinfo,
        Component::Host,
        Component::Port,
        Component::Path,
        Component::Query,
        Component::Fragment,
    ];

    /// `scheme`, `authority`, `userinfo`, `host`, `port`, `path`, `query` or `fragment`.
    ///
    /// ```
    /// assert_eq!(iri_grammar::reference::Component::Query.as_str(), "query");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::Authority => "authority",
            Component::Userinfo => "userinfo",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Byte offsets of the components in the reference's text. `u32::MAX`: absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Components {
    pub(crate) scheme_end: u32,
    pub(crate) authority: (u32, u32),
    pub(crate) userinfo_end: u32,
    pub(crate) host: (u32, u32),
    pub(crate) port_start: u32,
    pub(crate) path: (u32, u32),
    pub(crate) query_start: u32,
    pub(crate) fragment_start: u32,
    pub(crate) host_kind: Option<HostKind>,
}

pub(crate) const ABSENT: u32 = u32::MAX;

impl Components {
    /// The components of a valid reference from where its walk entered each part
    /// (see `crate::grammar::split`). The parts come in §3's order, so a component ends where the
    /// first of the parts that may follow it begins: the authority at the path, the
    /// query or the fragment, whichever the walk entered (`min`, absent being
    /// `u32::MAX`), or at the end of the text.
    #[inline]
    pub(crate) fn from_boundaries(text: &str, b: &Boundaries) -> Components {
        use crate::grammar::split::Part;
        let len = text.len() as u32;
        let query = b.at(Part::Query);
        let fragment = b.at(Part::Fragment);
        let after = |x: u32| if x == ABSENT { ABSENT } else { x + 1 };
        let mut c = Components::NONE;
        c.scheme_end = b.at(Part::AfterScheme);
        c.query_start = after(query);
        c.fragment_start = after(fragment);
        let path_end = query.min(fragment).min(len);
        let authority_slash = b.at(Part::Authority);
        let path_start = if authority_slash != ABSENT {
            let start = authority_slash + 1;
            let end = b.at(Part::Path).min(path_end);
            c.authority = (start, end);
            // The `@` ends the userinfo (a host has none, and §3.2.1 allows one);
            let at = b.at(Part::Host);
            c.userinfo_end = at;
            // the port starts after a `:` after the host, or after the first `:` of
            // an authority with no `@` (with one, that `:` was in the password).
            let colon = match b.at(Part::Port) {
                ABSENT if at == ABSENT => b.at(Part::AuthorityColon),
                port => port,
            };
            let host_end = if colon != ABSENT {
                c.port_start = colon + 1;
                colon
            } else {
                end
            };
            let host_start = if at == ABSENT { start } else { at + 1 };
            c.host = (host_start, host_end);
            let (hs, he) = (host_start as usize, host_end as usize);
            debug_assert!(text.is_char_boundary(hs) && text.is_char_boundary(he));
            // SAFETY: the host begins after `//` or `@` and ends at the end of the
            // text or before one of the ASCII delimiters `:` `/` `?` `#`, so both are
            // character boundaries, in order, within the text.
            c.host_kind = Some(host_kind(unsafe { text.get_unchecked(hs..he) }));
            end
        } else if c.scheme_end != ABSENT {
            c.scheme_end + 1
        } else {
            0
        };
        c.path = (path_start, path_end);
        c
    }

    /// Moves every boundary at or after `at` by `by` bytes (right if positive): what
    /// inserting `by` bytes before `at`, or removing `-by` bytes just before it, does to
    /// them (an operation that only rewrites text inside components, such as
    /// percent-encoding or decoding, keeps the structure). Every boundary is tested,
    /// with no branch: which ones move depends on the text, so a walk from the last
    /// boundary that stops at the first before `at` mispredicts, and the conversions
    /// move them once per run they rewrite.
    #[inline]
    pub(crate) fn shift_from(&mut self, at: u32, by: i64) {
        // A valid text is shorter than 4 GiB, before and after: `by` as a u32 added
        // with wrap-around is the signed move.
        let by = by as u32;
        for p in self.boundaries_mut() {
            let moves = *p != ABSENT && *p >= at;
            *p = p.wrapping_add(if moves { by } else { 0 });
        }
    }

    /// Every boundary, absent ones included, in the order they come in every
    /// reference's text (§5.3's order of the components; a present boundary is never
    /// before one named earlier).
    pub(crate) fn boundaries_mut(&mut self) -> [&mut u32; 11] {
        [
            &mut self.scheme_end,
            &mut self.authority.0,
            &mut self.userinfo_end,
            &mut self.host.0,
            &mut self.host.1,
            &mut self.port_start,
            &mut self.authority.1,
            &mut self.path.0,
            &mut self.path.1,
            &mut self.query_start,
            &mut self.fragment_start,
        ]
    }

    /// The component that offset `at` of the text is in (`at` not a delimiter).
    pub(crate) fn component_at(&self, at: usize) -> Component {
        let at = at as u32;
        let from = |start: u32| start != ABSENT && at >= start;
        if from(self.fragment_start) {
            Component::Fragment
        } else if from(self.query_start) {
            Component::Query
        } else if from(self.path.0) {
            Component::Path
        } else if from(self.port_start) {
            Component::Port
        } else if from(self.host.0) {
            Component::Host
        } else if from(self.authority.0) {
            Component::Userinfo
        } else {
            Component::Scheme
        }
    }

    /// No component yet (the start of a `Recomposer`).
    pub(crate) const NONE: Components = Components {
        scheme_end: ABSENT,
        authority: (ABSENT, ABSENT),
        userinfo_end: ABSENT,
        host: (ABSENT, ABSENT),
        port_start: ABSENT,
        path: (ABSENT, ABSENT),
        query_start: ABSENT,
        fragment_start: ABSENT,
        host_kind: None,
    };
}

/// The kind of a valid host from its text, as `ihost` decides it: an `IP-literal`
/// starts with `[` (an `IPvFuture` with `v`), an `IPv4address` comes before
/// `ireg-name` (first match wins, RFC 3986 §3.2.2).
///
/// Inlined into every parse: most hosts are names, told apart by their first
/// byte; only a host that starts with a digit is matched against `IPv4address`,
/// out of line.
#[inline(always)]
pub(crate) fn host_kind(host: &str) -> HostKind {
    match host.as_bytes() {
        [b'[', b'v' | b'V', ..] => HostKind::IpvFuture,
        [b'[', ..] => HostKind::Ipv6,
        [b'0'..=b'9', ..] => dotted_or_name(host),
        _ => HostKind::RegName,
    }
}

/// The kind of a host that starts with a digit: `IPv4address` if it is one.
#[inline(never)]
fn dotted_or_name(host: &str) -> HostKind {
    if super::is_compiled_match!(Iri, Rule::Ipv4address, host) {
        HostKind::Ipv4
    } else {
        HostKind::RegName
    }
}
