//! What this library knows of particular schemes: default ports, empty paths, DNS
//! hosts, each rule with its source. Used by IRI → URI (whether IDNA applies, RFC 3987
//! §3.1) and by scheme-based normalization (RFC 3987 §5.3.3).

/// A scheme's normalization rules (§5.3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemeRules {
    /// The scheme, lowercase.
    pub scheme: &'static str,
    /// Its default port, removed when given.
    pub default_port: Option<&'static str>,
    /// An empty path with an authority is `/`.
    pub empty_path_is_root: bool,
    /// The host is a DNS name (IDNA applies).
    pub dns_host: bool,
    /// Where the rules come from.
    pub source: &'static str,
}

/// The schemes this library knows, with the source of each rule.
pub const SCHEMES: &[SchemeRules] = &[
    SchemeRules {
        scheme: "http",
        default_port: Some("80"),
        empty_path_is_root: true,
        dns_host: true,
        source: "RFC 9110 §4.2.1, §4.2.3; RFC 3986 §6.2.3",
    },
    SchemeRules {
        scheme: "https",
        default_port: Some("443"),
        empty_path_is_root: true,
        dns_host: true,
        source: "RFC 9110 §4.2.2, §4.2.3",
    },
    SchemeRules {
        scheme: "ws",
        default_port: Some("80"),
        empty_path_is_root: true,
        dns_host: true,
        source: "RFC 6455 §3 (\"/\" when the path is empty)",
    },
    SchemeRules {
        scheme: "wss",
        default_port: Some("443"),
        empty_path_is_root: true,
        dns_host: true,
        source: "RFC 6455 §3",
    },
    SchemeRules {
        scheme: "ftp",
        default_port: Some("21"),
        empty_path_is_root: true,
        dns_host: true,
        source: "RFC 1738 §3.2 (port 21), §3.1 (host)",
    },
    SchemeRules {
        scheme: "file",
        default_port: None,
        empty_path_is_root: true,
        dns_host: true,
        source: "RFC 8089 §2 (path-absolute; the host is a DNS name or empty)",
    },
];

/// The rules of a scheme (case-insensitive), if it is in [`SCHEMES`].
///
/// ```
/// use iri_grammar::schemes::scheme_rules;
/// assert_eq!(scheme_rules("HTTPS").unwrap().default_port, Some("443"));
/// assert!(scheme_rules("urn").is_none());
/// ```
pub fn scheme_rules(scheme: &str) -> Option<&'static SchemeRules> {
    SCHEMES
        .iter()
        .find(|s| s.scheme.eq_ignore_ascii_case(scheme))
}

/// Whether a scheme is known to use DNS host names (case-insensitive): the schemes of
/// [`SCHEMES`] with a DNS host (http, https, ws, wss, ftp, file). IRI → URI
/// (RFC 3987 §3.1), URI → IRI (§3.2) and preparation apply IDNA to their hosts only.
///
/// ```
/// assert!(iri_grammar::schemes::uses_dns("HTTPS"));
/// assert!(iri_grammar::schemes::uses_dns("https"));
/// assert!(!iri_grammar::schemes::uses_dns("urn"));
/// ```
pub fn uses_dns(scheme: &str) -> bool {
    scheme_rules(scheme).is_some_and(|r| r.dns_host)
}
