// Generated from grammar/*.abnf by abnf/src/codegen/mod.rs. Do not edit.
// To regenerate: IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar --test it generated

//! The combinators generated from `grammar/`, in two rule sets: one per rule of
//! RFC 3987 §2.2, of the RFC 3986 rules it uses unchanged and of the RFC 5234 core
//! rules (the grammars of references: URI, IRI, LEIRI); and in the module
//! `iri2001`, one per rule of the 2001 IRI draft. One `Rule` enum names them all.
//! Each carries its ABNF and its source; see `abnf/src/codegen/mod.rs` for how
//! ABNF becomes nom combinators, and `runtime/` for the combinators used.

use super::runtime::*;
use super::{Variant, VariantName, Uri, Iri, Leiri, Iri2001};

/// A rule of a generated rule set: RFC 3987's (named as in RFC 3987), then the 2001
/// draft's (named `Iri2001` and the draft's name); see [`Rule::name_in`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// `IRI`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 11).
    Iri,
    /// `ihier-part`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 15).
    IhierPart,
    /// `IRI-reference`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 21).
    IriReference,
    /// `absolute-IRI`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 24).
    AbsoluteIri,
    /// `irelative-ref`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 27).
    IrelativeRef,
    /// `irelative-part`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 30).
    IrelativePart,
    /// `iauthority`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 36).
    Iauthority,
    /// `iuserinfo`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 38).
    Iuserinfo,
    /// `ihost`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 40).
    Ihost,
    /// `ireg-name`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 43).
    IregName,
    /// `ipath`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 46).
    Ipath,
    /// `ipath-abempty`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 53).
    IpathAbempty,
    /// `ipath-absolute`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 55).
    IpathAbsolute,
    /// `ipath-noscheme`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 57).
    IpathNoscheme,
    /// `ipath-rootless`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 59).
    IpathRootless,
    /// `ipath-empty`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 61).
    IpathEmpty,
    /// `isegment`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 64).
    Isegment,
    /// `isegment-nz`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 66).
    IsegmentNz,
    /// `isegment-nz-nc`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 68).
    IsegmentNzNc,
    /// `ipchar`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 73).
    Ipchar,
    /// `iquery`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 77).
    Iquery,
    /// `ifragment`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 80).
    Ifragment,
    /// `iunreserved`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 83).
    Iunreserved,
    /// `ucschar`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 86).
    Ucschar,
    /// `iprivate`: RFC 3987 §2.2 (grammar/rfc3987.abnf line 94).
    Iprivate,
    /// `scheme`: RFC 3986 §3.1 (grammar/rfc3986.abnf line 32).
    Scheme,
    /// `port`: RFC 3986 §3.2.3 (grammar/rfc3986.abnf line 41).
    Port,
    /// `IP-literal`: RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 44).
    IpLiteral,
    /// `IPvFuture`: RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 47).
    Ipvfuture,
    /// `IPv6address`: RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 50).
    Ipv6address,
    /// `h16`: RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 61).
    H16,
    /// `ls32`: RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 63).
    Ls32,
    /// `IPv4address`: RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 65).
    Ipv4address,
    /// `dec-octet`: RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 68).
    DecOctet,
    /// `pct-encoded`: RFC 3986 §2.1 (grammar/rfc3986.abnf line 113).
    PctEncoded,
    /// `reserved`: RFC 3986 §2.2 (grammar/rfc3986.abnf line 118).
    Reserved,
    /// `gen-delims`: RFC 3986 §2.2 (grammar/rfc3986.abnf line 120).
    GenDelims,
    /// `sub-delims`: RFC 3986 §2.2 (grammar/rfc3986.abnf line 122).
    SubDelims,
    /// `unreserved`: RFC 3986 §2.3 (grammar/rfc3986.abnf line 116).
    Unreserved,
    /// `ALPHA`: RFC 5234 B.1 (grammar/core.abnf line 5).
    Alpha,
    /// `DIGIT`: RFC 5234 B.1 (grammar/core.abnf line 8).
    Digit,
    /// `HEXDIG`: RFC 5234 B.1 (grammar/core.abnf line 11).
    Hexdig,
    /// `DQUOTE`: RFC 5234 B.1 (grammar/core.abnf line 14).
    Dquote,
    /// `IRI-reference`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 47).
    Iri2001IriReference,
    /// `absoluteIRI`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 52).
    Iri2001Absoluteiri,
    /// `relativeIRI`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 57).
    Iri2001Relativeiri,
    /// `ihier_part`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 60).
    Iri2001IhierPart,
    /// `iopaque_part`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 64).
    Iri2001IopaquePart,
    /// `iric_no_slash`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 67).
    Iri2001IricNoSlash,
    /// `inet_path`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 71).
    Iri2001InetPath,
    /// `iabs_path`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 74).
    Iri2001IabsPath,
    /// `irel_path`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 77).
    Iri2001IrelPath,
    /// `irel_segment`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 80).
    Iri2001IrelSegment,
    /// `iauthority`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 84).
    Iri2001Iauthority,
    /// `ireg_name`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 87).
    Iri2001IregName,
    /// `ipath_segments`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 91).
    Iri2001IpathSegments,
    /// `isegment`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 94).
    Iri2001Isegment,
    /// `iparam`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 97).
    Iri2001Iparam,
    /// `ipchar`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 100).
    Iri2001Ipchar,
    /// `iquery`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 104).
    Iri2001Iquery,
    /// `ifragment`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 107).
    Iri2001Ifragment,
    /// `iric`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 110).
    Iri2001Iric,
    /// `iunreserved`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 113).
    Iri2001Iunreserved,
    /// `ichar`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 116).
    Iri2001Ichar,
    /// `reserved`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 153).
    Iri2001Reserved,
    /// `unreserved`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 157).
    Iri2001Unreserved,
    /// `mark`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 160).
    Iri2001Mark,
    /// `escaped`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 164).
    Iri2001Escaped,
    /// `server`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 167).
    Iri2001Server,
    /// `userinfo`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 170).
    Iri2001Userinfo,
    /// `hostport`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 174).
    Iri2001Hostport,
    /// `host`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 177).
    Iri2001Host,
    /// `ipv6reference`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 182).
    Iri2001Ipv6reference,
    /// `hostname`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 185).
    Iri2001Hostname,
    /// `domainlabel`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 188).
    Iri2001Domainlabel,
    /// `toplabel`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 191).
    Iri2001Toplabel,
    /// `IPv6address`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 194).
    Iri2001Ipv6address,
    /// `IPv4address`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 197).
    Iri2001Ipv4address,
    /// `IPv6prefix`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 200).
    Iri2001Ipv6prefix,
    /// `hexpart`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 203).
    Iri2001Hexpart,
    /// `hexseq`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 206).
    Iri2001Hexseq,
    /// `hex4`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 209).
    Iri2001Hex4,
    /// `port`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 212).
    Iri2001Port,
    /// `scheme`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 215).
    Iri2001Scheme,
    /// `alphanum`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 218).
    Iri2001Alphanum,
    /// `alpha`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 221).
    Iri2001Alpha,
    /// `lowalpha`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 224).
    Iri2001Lowalpha,
    /// `upalpha`: draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 232).
    Iri2001Upalpha,
    /// `digit`: draft-masinter-url-i18n-07 §2.2, not printed: RFC 2396 Appendix A (grammar/draft-masinter-url-i18n-07.abnf line 237).
    Iri2001Digit,
}

impl Rule {
    /// Every rule, in the order of the grammar files.
    pub const ALL: &'static [Rule] = &[
        Rule::Iri,
        Rule::IhierPart,
        Rule::IriReference,
        Rule::AbsoluteIri,
        Rule::IrelativeRef,
        Rule::IrelativePart,
        Rule::Iauthority,
        Rule::Iuserinfo,
        Rule::Ihost,
        Rule::IregName,
        Rule::Ipath,
        Rule::IpathAbempty,
        Rule::IpathAbsolute,
        Rule::IpathNoscheme,
        Rule::IpathRootless,
        Rule::IpathEmpty,
        Rule::Isegment,
        Rule::IsegmentNz,
        Rule::IsegmentNzNc,
        Rule::Ipchar,
        Rule::Iquery,
        Rule::Ifragment,
        Rule::Iunreserved,
        Rule::Ucschar,
        Rule::Iprivate,
        Rule::Scheme,
        Rule::Port,
        Rule::IpLiteral,
        Rule::Ipvfuture,
        Rule::Ipv6address,
        Rule::H16,
        Rule::Ls32,
        Rule::Ipv4address,
        Rule::DecOctet,
        Rule::PctEncoded,
        Rule::Reserved,
        Rule::GenDelims,
        Rule::SubDelims,
        Rule::Unreserved,
        Rule::Alpha,
        Rule::Digit,
        Rule::Hexdig,
        Rule::Dquote,
        Rule::Iri2001IriReference,
        Rule::Iri2001Absoluteiri,
        Rule::Iri2001Relativeiri,
        Rule::Iri2001IhierPart,
        Rule::Iri2001IopaquePart,
        Rule::Iri2001IricNoSlash,
        Rule::Iri2001InetPath,
        Rule::Iri2001IabsPath,
        Rule::Iri2001IrelPath,
        Rule::Iri2001IrelSegment,
        Rule::Iri2001Iauthority,
        Rule::Iri2001IregName,
        Rule::Iri2001IpathSegments,
        Rule::Iri2001Isegment,
        Rule::Iri2001Iparam,
        Rule::Iri2001Ipchar,
        Rule::Iri2001Iquery,
        Rule::Iri2001Ifragment,
        Rule::Iri2001Iric,
        Rule::Iri2001Iunreserved,
        Rule::Iri2001Ichar,
        Rule::Iri2001Reserved,
        Rule::Iri2001Unreserved,
        Rule::Iri2001Mark,
        Rule::Iri2001Escaped,
        Rule::Iri2001Server,
        Rule::Iri2001Userinfo,
        Rule::Iri2001Hostport,
        Rule::Iri2001Host,
        Rule::Iri2001Ipv6reference,
        Rule::Iri2001Hostname,
        Rule::Iri2001Domainlabel,
        Rule::Iri2001Toplabel,
        Rule::Iri2001Ipv6address,
        Rule::Iri2001Ipv4address,
        Rule::Iri2001Ipv6prefix,
        Rule::Iri2001Hexpart,
        Rule::Iri2001Hexseq,
        Rule::Iri2001Hex4,
        Rule::Iri2001Port,
        Rule::Iri2001Scheme,
        Rule::Iri2001Alphanum,
        Rule::Iri2001Alpha,
        Rule::Iri2001Lowalpha,
        Rule::Iri2001Upalpha,
        Rule::Iri2001Digit,
    ];

    /// The rule's own name: RFC 3987's (or RFC 3986's / RFC 5234's for the rules RFC 3987 uses unchanged), the 2001 draft's for its rules.
    #[inline]
    pub const fn iri_name(self) -> &'static str {
        match self {
            Rule::Iri => "IRI",
            Rule::IhierPart => "ihier-part",
            Rule::IriReference => "IRI-reference",
            Rule::AbsoluteIri => "absolute-IRI",
            Rule::IrelativeRef => "irelative-ref",
            Rule::IrelativePart => "irelative-part",
            Rule::Iauthority => "iauthority",
            Rule::Iuserinfo => "iuserinfo",
            Rule::Ihost => "ihost",
            Rule::IregName => "ireg-name",
            Rule::Ipath => "ipath",
            Rule::IpathAbempty => "ipath-abempty",
            Rule::IpathAbsolute => "ipath-absolute",
            Rule::IpathNoscheme => "ipath-noscheme",
            Rule::IpathRootless => "ipath-rootless",
            Rule::IpathEmpty => "ipath-empty",
            Rule::Isegment => "isegment",
            Rule::IsegmentNz => "isegment-nz",
            Rule::IsegmentNzNc => "isegment-nz-nc",
            Rule::Ipchar => "ipchar",
            Rule::Iquery => "iquery",
            Rule::Ifragment => "ifragment",
            Rule::Iunreserved => "iunreserved",
            Rule::Ucschar => "ucschar",
            Rule::Iprivate => "iprivate",
            Rule::Scheme => "scheme",
            Rule::Port => "port",
            Rule::IpLiteral => "IP-literal",
            Rule::Ipvfuture => "IPvFuture",
            Rule::Ipv6address => "IPv6address",
            Rule::H16 => "h16",
            Rule::Ls32 => "ls32",
            Rule::Ipv4address => "IPv4address",
            Rule::DecOctet => "dec-octet",
            Rule::PctEncoded => "pct-encoded",
            Rule::Reserved => "reserved",
            Rule::GenDelims => "gen-delims",
            Rule::SubDelims => "sub-delims",
            Rule::Unreserved => "unreserved",
            Rule::Alpha => "ALPHA",
            Rule::Digit => "DIGIT",
            Rule::Hexdig => "HEXDIG",
            Rule::Dquote => "DQUOTE",
            Rule::Iri2001IriReference => "IRI-reference",
            Rule::Iri2001Absoluteiri => "absoluteIRI",
            Rule::Iri2001Relativeiri => "relativeIRI",
            Rule::Iri2001IhierPart => "ihier_part",
            Rule::Iri2001IopaquePart => "iopaque_part",
            Rule::Iri2001IricNoSlash => "iric_no_slash",
            Rule::Iri2001InetPath => "inet_path",
            Rule::Iri2001IabsPath => "iabs_path",
            Rule::Iri2001IrelPath => "irel_path",
            Rule::Iri2001IrelSegment => "irel_segment",
            Rule::Iri2001Iauthority => "iauthority",
            Rule::Iri2001IregName => "ireg_name",
            Rule::Iri2001IpathSegments => "ipath_segments",
            Rule::Iri2001Isegment => "isegment",
            Rule::Iri2001Iparam => "iparam",
            Rule::Iri2001Ipchar => "ipchar",
            Rule::Iri2001Iquery => "iquery",
            Rule::Iri2001Ifragment => "ifragment",
            Rule::Iri2001Iric => "iric",
            Rule::Iri2001Iunreserved => "iunreserved",
            Rule::Iri2001Ichar => "ichar",
            Rule::Iri2001Reserved => "reserved",
            Rule::Iri2001Unreserved => "unreserved",
            Rule::Iri2001Mark => "mark",
            Rule::Iri2001Escaped => "escaped",
            Rule::Iri2001Server => "server",
            Rule::Iri2001Userinfo => "userinfo",
            Rule::Iri2001Hostport => "hostport",
            Rule::Iri2001Host => "host",
            Rule::Iri2001Ipv6reference => "ipv6reference",
            Rule::Iri2001Hostname => "hostname",
            Rule::Iri2001Domainlabel => "domainlabel",
            Rule::Iri2001Toplabel => "toplabel",
            Rule::Iri2001Ipv6address => "IPv6address",
            Rule::Iri2001Ipv4address => "IPv4address",
            Rule::Iri2001Ipv6prefix => "IPv6prefix",
            Rule::Iri2001Hexpart => "hexpart",
            Rule::Iri2001Hexseq => "hexseq",
            Rule::Iri2001Hex4 => "hex4",
            Rule::Iri2001Port => "port",
            Rule::Iri2001Scheme => "scheme",
            Rule::Iri2001Alphanum => "alphanum",
            Rule::Iri2001Alpha => "alpha",
            Rule::Iri2001Lowalpha => "lowalpha",
            Rule::Iri2001Upalpha => "upalpha",
            Rule::Iri2001Digit => "digit",
        }
    }

    /// The name in RFC 3986, or `None` if the URI grammar has no such rule.
    #[inline]
    pub const fn uri_name(self) -> Option<&'static str> {
        match self {
            Rule::Iri => Some("URI"),
            Rule::IhierPart => Some("hier-part"),
            Rule::IriReference => Some("URI-reference"),
            Rule::AbsoluteIri => Some("absolute-URI"),
            Rule::IrelativeRef => Some("relative-ref"),
            Rule::IrelativePart => Some("relative-part"),
            Rule::Iauthority => Some("authority"),
            Rule::Iuserinfo => Some("userinfo"),
            Rule::Ihost => Some("host"),
            Rule::IregName => Some("reg-name"),
            Rule::Ipath => Some("path"),
            Rule::IpathAbempty => Some("path-abempty"),
            Rule::IpathAbsolute => Some("path-absolute"),
            Rule::IpathNoscheme => Some("path-noscheme"),
            Rule::IpathRootless => Some("path-rootless"),
            Rule::IpathEmpty => Some("path-empty"),
            Rule::Isegment => Some("segment"),
            Rule::IsegmentNz => Some("segment-nz"),
            Rule::IsegmentNzNc => Some("segment-nz-nc"),
            Rule::Ipchar => Some("pchar"),
            Rule::Iquery => Some("query"),
            Rule::Ifragment => Some("fragment"),
            Rule::Iunreserved => Some("unreserved"),
            Rule::Ucschar => None,
            Rule::Iprivate => None,
            Rule::Scheme => Some("scheme"),
            Rule::Port => Some("port"),
            Rule::IpLiteral => Some("IP-literal"),
            Rule::Ipvfuture => Some("IPvFuture"),
            Rule::Ipv6address => Some("IPv6address"),
            Rule::H16 => Some("h16"),
            Rule::Ls32 => Some("ls32"),
            Rule::Ipv4address => Some("IPv4address"),
            Rule::DecOctet => Some("dec-octet"),
            Rule::PctEncoded => Some("pct-encoded"),
            Rule::Reserved => Some("reserved"),
            Rule::GenDelims => Some("gen-delims"),
            Rule::SubDelims => Some("sub-delims"),
            Rule::Unreserved => Some("unreserved"),
            Rule::Alpha => Some("ALPHA"),
            Rule::Digit => Some("DIGIT"),
            Rule::Hexdig => Some("HEXDIG"),
            Rule::Dquote => Some("DQUOTE"),
            Rule::Iri2001IriReference => None,
            Rule::Iri2001Absoluteiri => None,
            Rule::Iri2001Relativeiri => None,
            Rule::Iri2001IhierPart => None,
            Rule::Iri2001IopaquePart => None,
            Rule::Iri2001IricNoSlash => None,
            Rule::Iri2001InetPath => None,
            Rule::Iri2001IabsPath => None,
            Rule::Iri2001IrelPath => None,
            Rule::Iri2001IrelSegment => None,
            Rule::Iri2001Iauthority => None,
            Rule::Iri2001IregName => None,
            Rule::Iri2001IpathSegments => None,
            Rule::Iri2001Isegment => None,
            Rule::Iri2001Iparam => None,
            Rule::Iri2001Ipchar => None,
            Rule::Iri2001Iquery => None,
            Rule::Iri2001Ifragment => None,
            Rule::Iri2001Iric => None,
            Rule::Iri2001Iunreserved => None,
            Rule::Iri2001Ichar => None,
            Rule::Iri2001Reserved => None,
            Rule::Iri2001Unreserved => None,
            Rule::Iri2001Mark => None,
            Rule::Iri2001Escaped => None,
            Rule::Iri2001Server => None,
            Rule::Iri2001Userinfo => None,
            Rule::Iri2001Hostport => None,
            Rule::Iri2001Host => None,
            Rule::Iri2001Ipv6reference => None,
            Rule::Iri2001Hostname => None,
            Rule::Iri2001Domainlabel => None,
            Rule::Iri2001Toplabel => None,
            Rule::Iri2001Ipv6address => None,
            Rule::Iri2001Ipv4address => None,
            Rule::Iri2001Ipv6prefix => None,
            Rule::Iri2001Hexpart => None,
            Rule::Iri2001Hexseq => None,
            Rule::Iri2001Hex4 => None,
            Rule::Iri2001Port => None,
            Rule::Iri2001Scheme => None,
            Rule::Iri2001Alphanum => None,
            Rule::Iri2001Alpha => None,
            Rule::Iri2001Lowalpha => None,
            Rule::Iri2001Upalpha => None,
            Rule::Iri2001Digit => None,
        }
    }

    /// The name in RFC 3987, or `None` for the rules of another rule set.
    #[inline]
    const fn rfc3987_name(self) -> Option<&'static str> {
        match self {
            Rule::Iri => Some("IRI"),
            Rule::IhierPart => Some("ihier-part"),
            Rule::IriReference => Some("IRI-reference"),
            Rule::AbsoluteIri => Some("absolute-IRI"),
            Rule::IrelativeRef => Some("irelative-ref"),
            Rule::IrelativePart => Some("irelative-part"),
            Rule::Iauthority => Some("iauthority"),
            Rule::Iuserinfo => Some("iuserinfo"),
            Rule::Ihost => Some("ihost"),
            Rule::IregName => Some("ireg-name"),
            Rule::Ipath => Some("ipath"),
            Rule::IpathAbempty => Some("ipath-abempty"),
            Rule::IpathAbsolute => Some("ipath-absolute"),
            Rule::IpathNoscheme => Some("ipath-noscheme"),
            Rule::IpathRootless => Some("ipath-rootless"),
            Rule::IpathEmpty => Some("ipath-empty"),
            Rule::Isegment => Some("isegment"),
            Rule::IsegmentNz => Some("isegment-nz"),
            Rule::IsegmentNzNc => Some("isegment-nz-nc"),
            Rule::Ipchar => Some("ipchar"),
            Rule::Iquery => Some("iquery"),
            Rule::Ifragment => Some("ifragment"),
            Rule::Iunreserved => Some("iunreserved"),
            Rule::Ucschar => Some("ucschar"),
            Rule::Iprivate => Some("iprivate"),
            Rule::Scheme => Some("scheme"),
            Rule::Port => Some("port"),
            Rule::IpLiteral => Some("IP-literal"),
            Rule::Ipvfuture => Some("IPvFuture"),
            Rule::Ipv6address => Some("IPv6address"),
            Rule::H16 => Some("h16"),
            Rule::Ls32 => Some("ls32"),
            Rule::Ipv4address => Some("IPv4address"),
            Rule::DecOctet => Some("dec-octet"),
            Rule::PctEncoded => Some("pct-encoded"),
            Rule::Reserved => Some("reserved"),
            Rule::GenDelims => Some("gen-delims"),
            Rule::SubDelims => Some("sub-delims"),
            Rule::Unreserved => Some("unreserved"),
            Rule::Alpha => Some("ALPHA"),
            Rule::Digit => Some("DIGIT"),
            Rule::Hexdig => Some("HEXDIG"),
            Rule::Dquote => Some("DQUOTE"),
            Rule::Iri2001IriReference => None,
            Rule::Iri2001Absoluteiri => None,
            Rule::Iri2001Relativeiri => None,
            Rule::Iri2001IhierPart => None,
            Rule::Iri2001IopaquePart => None,
            Rule::Iri2001IricNoSlash => None,
            Rule::Iri2001InetPath => None,
            Rule::Iri2001IabsPath => None,
            Rule::Iri2001IrelPath => None,
            Rule::Iri2001IrelSegment => None,
            Rule::Iri2001Iauthority => None,
            Rule::Iri2001IregName => None,
            Rule::Iri2001IpathSegments => None,
            Rule::Iri2001Isegment => None,
            Rule::Iri2001Iparam => None,
            Rule::Iri2001Ipchar => None,
            Rule::Iri2001Iquery => None,
            Rule::Iri2001Ifragment => None,
            Rule::Iri2001Iric => None,
            Rule::Iri2001Iunreserved => None,
            Rule::Iri2001Ichar => None,
            Rule::Iri2001Reserved => None,
            Rule::Iri2001Unreserved => None,
            Rule::Iri2001Mark => None,
            Rule::Iri2001Escaped => None,
            Rule::Iri2001Server => None,
            Rule::Iri2001Userinfo => None,
            Rule::Iri2001Hostport => None,
            Rule::Iri2001Host => None,
            Rule::Iri2001Ipv6reference => None,
            Rule::Iri2001Hostname => None,
            Rule::Iri2001Domainlabel => None,
            Rule::Iri2001Toplabel => None,
            Rule::Iri2001Ipv6address => None,
            Rule::Iri2001Ipv4address => None,
            Rule::Iri2001Ipv6prefix => None,
            Rule::Iri2001Hexpart => None,
            Rule::Iri2001Hexseq => None,
            Rule::Iri2001Hex4 => None,
            Rule::Iri2001Port => None,
            Rule::Iri2001Scheme => None,
            Rule::Iri2001Alphanum => None,
            Rule::Iri2001Alpha => None,
            Rule::Iri2001Lowalpha => None,
            Rule::Iri2001Upalpha => None,
            Rule::Iri2001Digit => None,
        }
    }

    /// The name in the LEIRI note (`IRI` becomes `LEIRI`), or `None` for the rules of another rule set.
    #[inline]
    pub const fn leiri_name(self) -> Option<&'static str> {
        match self {
            Rule::Iri => Some("LEIRI"),
            Rule::IhierPart => Some("ihier-part"),
            Rule::IriReference => Some("LEIRI-reference"),
            Rule::AbsoluteIri => Some("absolute-LEIRI"),
            Rule::IrelativeRef => Some("irelative-ref"),
            Rule::IrelativePart => Some("irelative-part"),
            Rule::Iauthority => Some("iauthority"),
            Rule::Iuserinfo => Some("iuserinfo"),
            Rule::Ihost => Some("ihost"),
            Rule::IregName => Some("ireg-name"),
            Rule::Ipath => Some("ipath"),
            Rule::IpathAbempty => Some("ipath-abempty"),
            Rule::IpathAbsolute => Some("ipath-absolute"),
            Rule::IpathNoscheme => Some("ipath-noscheme"),
            Rule::IpathRootless => Some("ipath-rootless"),
            Rule::IpathEmpty => Some("ipath-empty"),
            Rule::Isegment => Some("isegment"),
            Rule::IsegmentNz => Some("isegment-nz"),
            Rule::IsegmentNzNc => Some("isegment-nz-nc"),
            Rule::Ipchar => Some("ipchar"),
            Rule::Iquery => Some("iquery"),
            Rule::Ifragment => Some("ifragment"),
            Rule::Iunreserved => Some("iunreserved"),
            Rule::Ucschar => Some("ucschar"),
            Rule::Iprivate => Some("iprivate"),
            Rule::Scheme => Some("scheme"),
            Rule::Port => Some("port"),
            Rule::IpLiteral => Some("IP-literal"),
            Rule::Ipvfuture => Some("IPvFuture"),
            Rule::Ipv6address => Some("IPv6address"),
            Rule::H16 => Some("h16"),
            Rule::Ls32 => Some("ls32"),
            Rule::Ipv4address => Some("IPv4address"),
            Rule::DecOctet => Some("dec-octet"),
            Rule::PctEncoded => Some("pct-encoded"),
            Rule::Reserved => Some("reserved"),
            Rule::GenDelims => Some("gen-delims"),
            Rule::SubDelims => Some("sub-delims"),
            Rule::Unreserved => Some("unreserved"),
            Rule::Alpha => Some("ALPHA"),
            Rule::Digit => Some("DIGIT"),
            Rule::Hexdig => Some("HEXDIG"),
            Rule::Dquote => Some("DQUOTE"),
            Rule::Iri2001IriReference => None,
            Rule::Iri2001Absoluteiri => None,
            Rule::Iri2001Relativeiri => None,
            Rule::Iri2001IhierPart => None,
            Rule::Iri2001IopaquePart => None,
            Rule::Iri2001IricNoSlash => None,
            Rule::Iri2001InetPath => None,
            Rule::Iri2001IabsPath => None,
            Rule::Iri2001IrelPath => None,
            Rule::Iri2001IrelSegment => None,
            Rule::Iri2001Iauthority => None,
            Rule::Iri2001IregName => None,
            Rule::Iri2001IpathSegments => None,
            Rule::Iri2001Isegment => None,
            Rule::Iri2001Iparam => None,
            Rule::Iri2001Ipchar => None,
            Rule::Iri2001Iquery => None,
            Rule::Iri2001Ifragment => None,
            Rule::Iri2001Iric => None,
            Rule::Iri2001Iunreserved => None,
            Rule::Iri2001Ichar => None,
            Rule::Iri2001Reserved => None,
            Rule::Iri2001Unreserved => None,
            Rule::Iri2001Mark => None,
            Rule::Iri2001Escaped => None,
            Rule::Iri2001Server => None,
            Rule::Iri2001Userinfo => None,
            Rule::Iri2001Hostport => None,
            Rule::Iri2001Host => None,
            Rule::Iri2001Ipv6reference => None,
            Rule::Iri2001Hostname => None,
            Rule::Iri2001Domainlabel => None,
            Rule::Iri2001Toplabel => None,
            Rule::Iri2001Ipv6address => None,
            Rule::Iri2001Ipv4address => None,
            Rule::Iri2001Ipv6prefix => None,
            Rule::Iri2001Hexpart => None,
            Rule::Iri2001Hexseq => None,
            Rule::Iri2001Hex4 => None,
            Rule::Iri2001Port => None,
            Rule::Iri2001Scheme => None,
            Rule::Iri2001Alphanum => None,
            Rule::Iri2001Alpha => None,
            Rule::Iri2001Lowalpha => None,
            Rule::Iri2001Upalpha => None,
            Rule::Iri2001Digit => None,
        }
    }

    /// The name in the 2001 IRI draft, or `None` if its grammar has no such rule.
    #[inline]
    pub const fn iri2001_name(self) -> Option<&'static str> {
        match self {
            Rule::Iri => None,
            Rule::IhierPart => None,
            Rule::IriReference => None,
            Rule::AbsoluteIri => None,
            Rule::IrelativeRef => None,
            Rule::IrelativePart => None,
            Rule::Iauthority => None,
            Rule::Iuserinfo => None,
            Rule::Ihost => None,
            Rule::IregName => None,
            Rule::Ipath => None,
            Rule::IpathAbempty => None,
            Rule::IpathAbsolute => None,
            Rule::IpathNoscheme => None,
            Rule::IpathRootless => None,
            Rule::IpathEmpty => None,
            Rule::Isegment => None,
            Rule::IsegmentNz => None,
            Rule::IsegmentNzNc => None,
            Rule::Ipchar => None,
            Rule::Iquery => None,
            Rule::Ifragment => None,
            Rule::Iunreserved => None,
            Rule::Ucschar => None,
            Rule::Iprivate => None,
            Rule::Scheme => None,
            Rule::Port => None,
            Rule::IpLiteral => None,
            Rule::Ipvfuture => None,
            Rule::Ipv6address => None,
            Rule::H16 => None,
            Rule::Ls32 => None,
            Rule::Ipv4address => None,
            Rule::DecOctet => None,
            Rule::PctEncoded => None,
            Rule::Reserved => None,
            Rule::GenDelims => None,
            Rule::SubDelims => None,
            Rule::Unreserved => None,
            Rule::Alpha => None,
            Rule::Digit => None,
            Rule::Hexdig => Some("HEXDIG"),
            Rule::Dquote => Some("DQUOTE"),
            Rule::Iri2001IriReference => Some("IRI-reference"),
            Rule::Iri2001Absoluteiri => Some("absoluteIRI"),
            Rule::Iri2001Relativeiri => Some("relativeIRI"),
            Rule::Iri2001IhierPart => Some("ihier_part"),
            Rule::Iri2001IopaquePart => Some("iopaque_part"),
            Rule::Iri2001IricNoSlash => Some("iric_no_slash"),
            Rule::Iri2001InetPath => Some("inet_path"),
            Rule::Iri2001IabsPath => Some("iabs_path"),
            Rule::Iri2001IrelPath => Some("irel_path"),
            Rule::Iri2001IrelSegment => Some("irel_segment"),
            Rule::Iri2001Iauthority => Some("iauthority"),
            Rule::Iri2001IregName => Some("ireg_name"),
            Rule::Iri2001IpathSegments => Some("ipath_segments"),
            Rule::Iri2001Isegment => Some("isegment"),
            Rule::Iri2001Iparam => Some("iparam"),
            Rule::Iri2001Ipchar => Some("ipchar"),
            Rule::Iri2001Iquery => Some("iquery"),
            Rule::Iri2001Ifragment => Some("ifragment"),
            Rule::Iri2001Iric => Some("iric"),
            Rule::Iri2001Iunreserved => Some("iunreserved"),
            Rule::Iri2001Ichar => Some("ichar"),
            Rule::Iri2001Reserved => Some("reserved"),
            Rule::Iri2001Unreserved => Some("unreserved"),
            Rule::Iri2001Mark => Some("mark"),
            Rule::Iri2001Escaped => Some("escaped"),
            Rule::Iri2001Server => Some("server"),
            Rule::Iri2001Userinfo => Some("userinfo"),
            Rule::Iri2001Hostport => Some("hostport"),
            Rule::Iri2001Host => Some("host"),
            Rule::Iri2001Ipv6reference => Some("ipv6reference"),
            Rule::Iri2001Hostname => Some("hostname"),
            Rule::Iri2001Domainlabel => Some("domainlabel"),
            Rule::Iri2001Toplabel => Some("toplabel"),
            Rule::Iri2001Ipv6address => Some("IPv6address"),
            Rule::Iri2001Ipv4address => Some("IPv4address"),
            Rule::Iri2001Ipv6prefix => Some("IPv6prefix"),
            Rule::Iri2001Hexpart => Some("hexpart"),
            Rule::Iri2001Hexseq => Some("hexseq"),
            Rule::Iri2001Hex4 => Some("hex4"),
            Rule::Iri2001Port => Some("port"),
            Rule::Iri2001Scheme => Some("scheme"),
            Rule::Iri2001Alphanum => Some("alphanum"),
            Rule::Iri2001Alpha => Some("alpha"),
            Rule::Iri2001Lowalpha => Some("lowalpha"),
            Rule::Iri2001Upalpha => Some("upalpha"),
            Rule::Iri2001Digit => Some("digit"),
        }
    }

    /// The ABNF text of the rule, as in its grammar file.
    #[inline]
    pub const fn abnf(self) -> &'static str {
        match self {
            Rule::Iri => "IRI            = scheme \":\" ihier-part [ \"?\" iquery ]\u{a}                 [ \"#\" ifragment ]",
            Rule::IhierPart => "ihier-part     = \"//\" iauthority ipath-abempty\u{a}               / ipath-absolute\u{a}               / ipath-rootless\u{a}               / ipath-empty",
            Rule::IriReference => "IRI-reference  = IRI / irelative-ref",
            Rule::AbsoluteIri => "absolute-IRI   = scheme \":\" ihier-part [ \"?\" iquery ]",
            Rule::IrelativeRef => "irelative-ref  = irelative-part [ \"?\" iquery ] [ \"#\" ifragment ]",
            Rule::IrelativePart => "irelative-part = \"//\" iauthority ipath-abempty\u{a}               / ipath-absolute\u{a}               / ipath-noscheme\u{a}               / ipath-empty",
            Rule::Iauthority => "iauthority     = [ iuserinfo \"@\" ] ihost [ \":\" port ]",
            Rule::Iuserinfo => "iuserinfo      = *( iunreserved / pct-encoded / sub-delims / \":\" )",
            Rule::Ihost => "ihost          = IP-literal / IPv4address / ireg-name",
            Rule::IregName => "ireg-name      = *( iunreserved / pct-encoded / sub-delims )",
            Rule::Ipath => "ipath          = ipath-abempty   ; begins with \"/\" or is empty\u{a}               / ipath-absolute  ; begins with \"/\" but not \"//\"\u{a}               / ipath-noscheme  ; begins with a non-colon segment\u{a}               / ipath-rootless  ; begins with a segment\u{a}               / ipath-empty     ; zero characters",
            Rule::IpathAbempty => "ipath-abempty  = *( \"/\" isegment )",
            Rule::IpathAbsolute => "ipath-absolute = \"/\" [ isegment-nz *( \"/\" isegment ) ]",
            Rule::IpathNoscheme => "ipath-noscheme = isegment-nz-nc *( \"/\" isegment )",
            Rule::IpathRootless => "ipath-rootless = isegment-nz *( \"/\" isegment )",
            Rule::IpathEmpty => "ipath-empty    = 0<ipchar>",
            Rule::Isegment => "isegment       = *ipchar",
            Rule::IsegmentNz => "isegment-nz    = 1*ipchar",
            Rule::IsegmentNzNc => "isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims\u{a}                     / \"@\" )\u{a}               ; non-zero-length segment without any colon \":\"",
            Rule::Ipchar => "ipchar         = iunreserved / pct-encoded / sub-delims / \":\"\u{a}               / \"@\"",
            Rule::Iquery => "iquery         = *( ipchar / iprivate / \"/\" / \"?\" )",
            Rule::Ifragment => "ifragment      = *( ipchar / \"/\" / \"?\" )",
            Rule::Iunreserved => "iunreserved    = ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\" / ucschar",
            Rule::Ucschar => "ucschar        = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF\u{a}               / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD\u{a}               / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD\u{a}               / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD\u{a}               / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD\u{a}               / %xD0000-DFFFD / %xE1000-EFFFD",
            Rule::Iprivate => "iprivate       = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD",
            Rule::Scheme => "scheme        = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )",
            Rule::Port => "port          = *DIGIT",
            Rule::IpLiteral => "IP-literal    = \"[\" ( IPv6address / IPvFuture  ) \"]\"",
            Rule::Ipvfuture => "IPvFuture     = \"v\" 1*HEXDIG \".\" 1*( unreserved / sub-delims / \":\" )",
            Rule::Ipv6address => "IPv6address   =                            6( h16 \":\" ) ls32\u{a}              /                       \"::\" 5( h16 \":\" ) ls32\u{a}              / [               h16 ] \"::\" 4( h16 \":\" ) ls32\u{a}              / [ *1( h16 \":\" ) h16 ] \"::\" 3( h16 \":\" ) ls32\u{a}              / [ *2( h16 \":\" ) h16 ] \"::\" 2( h16 \":\" ) ls32\u{a}              / [ *3( h16 \":\" ) h16 ] \"::\"    h16 \":\"   ls32\u{a}              / [ *4( h16 \":\" ) h16 ] \"::\"              ls32\u{a}              / [ *5( h16 \":\" ) h16 ] \"::\"              h16\u{a}              / [ *6( h16 \":\" ) h16 ] \"::\"",
            Rule::H16 => "h16           = 1*4HEXDIG",
            Rule::Ls32 => "ls32          = ( h16 \":\" h16 ) / IPv4address",
            Rule::Ipv4address => "IPv4address   = dec-octet \".\" dec-octet \".\" dec-octet \".\" dec-octet",
            Rule::DecOctet => "dec-octet     = DIGIT                 ; 0-9\u{a}              / %x31-39 DIGIT         ; 10-99\u{a}              / \"1\" 2DIGIT            ; 100-199\u{a}              / \"2\" %x30-34 DIGIT     ; 200-249\u{a}              / \"25\" %x30-35          ; 250-255",
            Rule::PctEncoded => "pct-encoded   = \"%\" HEXDIG HEXDIG",
            Rule::Reserved => "reserved      = gen-delims / sub-delims",
            Rule::GenDelims => "gen-delims    = \":\" / \"/\" / \"?\" / \"#\" / \"[\" / \"]\" / \"@\"",
            Rule::SubDelims => "sub-delims    = \"!\" / \"$\" / \"&\" / \"'\" / \"(\" / \")\"\u{a}              / \"*\" / \"+\" / \",\" / \";\" / \"=\"",
            Rule::Unreserved => "unreserved    = ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\"",
            Rule::Alpha => "ALPHA          =  %x41-5A / %x61-7A   ; A-Z / a-z",
            Rule::Digit => "DIGIT          =  %x30-39             ; 0-9",
            Rule::Hexdig => "HEXDIG         =  DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\"",
            Rule::Dquote => "DQUOTE         =  %x22                ; \" (Double Quote)",
            Rule::Iri2001IriReference => "IRI-reference  = [ absoluteIRI | relativeIRI ] [ \"#\" ifragment ]\u{a}               ; FIX 1: printed [ \"#\" fragment ]. RFC 2396's fragment is *uric,\u{a}               ; ASCII only; the draft defines ifragment for this place.",
            Rule::Iri2001Absoluteiri => "absoluteIRI    = scheme \":\" ( ihier_part | iopaque_part )\u{a}               ; FIX 2, FIX 3: printed ( hier_part | opaque_part ), the names\u{a}               ; of RFC 2396's absoluteURI, which the draft does not list.",
            Rule::Iri2001Relativeiri => "relativeIRI    = ( inet_path | iabs_path | irel_path ) [ \"?\" iquery ]",
            Rule::Iri2001IhierPart => "ihier_part     = ( inet_path | iabs_path ) [ \"?\" iquery ]\u{a}               ; FIX 4: printed [ \"?\" i-query ]; no rule is named i-query.",
            Rule::Iri2001IopaquePart => "iopaque_part   = iric_no_slash *iric",
            Rule::Iri2001IricNoSlash => "iric_no_slash  = iunreserved | escaped | \";\" | \"?\" | \":\" | \"@\" |\u{a}                 \"&\" | \"=\" | \"+\" | \"$\" | \",\"",
            Rule::Iri2001InetPath => "inet_path      = \"//\" iauthority [ iabs_path ]",
            Rule::Iri2001IabsPath => "iabs_path      = \"/\" ipath_segments",
            Rule::Iri2001IrelPath => "irel_path      = irel_segment [ iabs_path ]",
            Rule::Iri2001IrelSegment => "irel_segment   = 1*( iunreserved | escaped |\u{a}                     \";\" | \"@\" | \"&\" | \"=\" | \"+\" | \"$\" | \",\" )",
            Rule::Iri2001Iauthority => "iauthority     = server | ireg_name",
            Rule::Iri2001IregName => "ireg_name      = 1*( iunreserved | escaped | \"$\" | \",\" |\u{a}                     \";\" | \":\" | \"@\" | \"&\" | \"=\" | \"+\" )",
            Rule::Iri2001IpathSegments => "ipath_segments = isegment *( \"/\" isegment )",
            Rule::Iri2001Isegment => "isegment       = *ipchar *( \";\" iparam )",
            Rule::Iri2001Iparam => "iparam         = *ipchar",
            Rule::Iri2001Ipchar => "ipchar         = iunreserved | escaped |\u{a}                 \":\" | \"@\" | \"&\" | \"=\" | \"+\" | \"$\" | \",\"",
            Rule::Iri2001Iquery => "iquery         = *iric",
            Rule::Iri2001Ifragment => "ifragment      = *iric",
            Rule::Iri2001Iric => "iric           = reserved | iunreserved | escaped",
            Rule::Iri2001Iunreserved => "iunreserved    = ichar | unreserved",
            Rule::Iri2001Ichar => "ichar          = %xA0-2069 | %x206C-D7FF | %xF900-FFFD |\u{a}                 %x10000-1FFFD | %x20000-2FFFD | %x30000-3FFFD |\u{a}                 %x40000-4FFFD | %x50000-5FFFD | %x60000-6FFFD |\u{a}                 %x70000-7FFFD | %x80000-8FFFD | %x90000-9FFFD |\u{a}                 %xA0000-AFFFD | %xB0000-BFFFD | %xC0000-CFFFD |\u{a}                 %xD0000-DFFFD | %xE0080-EFFFD\u{a}               ; FIX 5: printed\u{a}               ;   ichar = << any character of UCS [ISO10646] beyond U+0080,\u{a}               ;             subject to limitations in Section 3.1. >>\u{a}               ; Prose matches nothing (RFC 5234 \u{a7}4), so as printed no IRI\u{a}               ; could have a non-ASCII character. The code points are those\u{a}               ; beyond ASCII that \u{a7}3.1 does not forbid with a MUST NOT:\u{a}               ; - not U+0080-009F: \u{a7}3.1 e, \"Control characters MUST NOT be\u{a}               ;   used\", names U+0080-U+009F (so \"beyond U+0080\" starts at\u{a}               ;   U+00A0);\u{a}               ; - not U+206A-206B: \u{a7}3.1 e names \"swapping\" characters, the\u{a}               ;   INHIBIT and ACTIVATE SYMMETRIC SWAPPING format controls (the\u{a}               ;   other four deprecated controls of U+206C-206F are not named\u{a}               ;   and stay);\u{a}               ; - not U+E0000-E007F: \u{a7}3.1 e, \"plane-14 language tag\u{a}               ;   characters\" (the Tags block, U+E0001 and U+E0020-E007F);\u{a}               ; - not U+D800-DFFF: \u{a7}3.1 f, \"Code points reserved for\u{a}               ;   surrogates MUST NOT be used\";\u{a}               ; - not U+E000-F8FF, U+F0000-FFFFD, U+100000-10FFFD: \u{a7}3.1 f,\u{a}               ;   \"Code points reserved for private use MUST NOT be used\";\u{a}               ; - not U+nFFFE-nFFFF in any plane: not characters of the UCS\u{a}               ;   (ISO 10646 never assigns them), and the prose says \"any\u{a}               ;   character\".\u{a}               ; Kept: unassigned code points (a grammar cannot follow the\u{a}               ; versions of Unicode), U+FDD0-FDEF (made noncharacters by\u{a}               ; Unicode 3.1 in March 2001, after the draft), and what \u{a7}3.1 b,\u{a}               ; c and d only say \"should\" be avoided (look-alikes, symbols,\u{a}               ; dingbats, full-width forms): a SHOULD is not a grammar rule.\u{a}               ; \u{a7}3.1 g (Normalization Form C) constrains sequences, not code\u{a}               ; points, and is not in the grammar either.",
            Rule::Iri2001Reserved => "reserved       = \";\" | \"/\" | \"?\" | \":\" | \"@\" | \"&\" | \"=\" | \"+\" |\u{a}                 \"$\" | \",\" | \"[\" | \"]\"",
            Rule::Iri2001Unreserved => "unreserved     = alphanum | mark",
            Rule::Iri2001Mark => "mark           = \"-\" | \"_\" | \".\" | \"!\" | \"~\" | \"*\" | \"'\" |\u{a}                 \"(\" | \")\"",
            Rule::Iri2001Escaped => "escaped        = \"%\" HEXDIG HEXDIG",
            Rule::Iri2001Server => "server         = [ [ userinfo \"@\" ] hostport ]",
            Rule::Iri2001Userinfo => "userinfo       = *( unreserved | escaped |\u{a}                    \";\" | \":\" | \"&\" | \"=\" | \"+\" | \"$\" | \",\" )",
            Rule::Iri2001Hostport => "hostport       = host [ \":\" port ]",
            Rule::Iri2001Host => "host           = hostname | IPv4address | IPv6reference\u{a}               ; Printed IPv6reference here and ipv6reference below, as in\u{a}               ; RFC 2732; rule names are case-insensitive, so it is one rule.",
            Rule::Iri2001Ipv6reference => "ipv6reference  = \"[\" IPv6address \"]\"",
            Rule::Iri2001Hostname => "hostname       = *( domainlabel \".\" ) toplabel [ \".\" ]",
            Rule::Iri2001Domainlabel => "domainlabel    = alphanum | alphanum *( alphanum | \"-\" ) alphanum",
            Rule::Iri2001Toplabel => "toplabel       = alpha | alpha *( alphanum | \"-\" ) alphanum",
            Rule::Iri2001Ipv6address => "IPv6address    = hexpart [ \":\" IPv4address ]",
            Rule::Iri2001Ipv4address => "IPv4address    = 1*3DIGIT \".\" 1*3DIGIT \".\" 1*3DIGIT \".\" 1*3DIGIT",
            Rule::Iri2001Ipv6prefix => "IPv6prefix     = hexpart \"/\" 1*2DIGIT",
            Rule::Iri2001Hexpart => "hexpart        = hexseq | hexseq \"::\" [ hexseq ] | \"::\" [ hexseq ]",
            Rule::Iri2001Hexseq => "hexseq         = hex4 *( \":\" hex4)",
            Rule::Iri2001Hex4 => "hex4           = 1*4HEXDIG",
            Rule::Iri2001Port => "port           = *DIGIT",
            Rule::Iri2001Scheme => "scheme         = alpha *( alpha | digit | \"+\" | \"-\" | \".\" )",
            Rule::Iri2001Alphanum => "alphanum       = alpha | digit",
            Rule::Iri2001Alpha => "alpha          = lowalpha | upalpha",
            Rule::Iri2001Lowalpha => "lowalpha       = \"a\" | \"b\" | \"c\" | \"d\" | \"e\" | \"f\" | \"g\" | \"h\" | \"i\" |\u{a}                 \"j\" | \"k\" | \"l\" | \"m\" | \"n\" | \"o\" | \"p\" | \"q\" | \"r\" |\u{a}                 \"s\" | \"t\" | \"u\" | \"v\" | \"w\" | \"x\" | \"y\" | \"z\"\u{a}               ; Quoted strings are case-insensitive (RFC 5234 \u{a7}2.3, as in\u{a}               ; RFC 822), so lowalpha matches \"A\" too; alpha, the one rule\u{a}               ; that uses it, is the same 52 letters either way.",
            Rule::Iri2001Upalpha => "upalpha        = \"A\" | \"B\" | \"C\" | \"D\" | \"E\" | \"F\" | \"G\" | \"H\" | \"I\" |\u{a}                 \"J\" | \"K\" | \"L\" | \"M\" | \"N\" | \"O\" | \"P\" | \"Q\" | \"R\" |\u{a}                 \"S\" | \"T\" | \"U\" | \"V\" | \"W\" | \"X\" | \"Y\" | \"Z\"",
            Rule::Iri2001Digit => "digit          = \"0\" | \"1\" | \"2\" | \"3\" | \"4\" | \"5\" | \"6\" | \"7\" |\u{a}                 \"8\" | \"9\"",
        }
    }

    /// Where the rule is defined: document, section, file and line.
    #[inline]
    pub const fn source(self) -> &'static str {
        match self {
            Rule::Iri => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 11)",
            Rule::IhierPart => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 15)",
            Rule::IriReference => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 21)",
            Rule::AbsoluteIri => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 24)",
            Rule::IrelativeRef => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 27)",
            Rule::IrelativePart => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 30)",
            Rule::Iauthority => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 36)",
            Rule::Iuserinfo => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 38)",
            Rule::Ihost => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 40)",
            Rule::IregName => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 43)",
            Rule::Ipath => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 46)",
            Rule::IpathAbempty => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 53)",
            Rule::IpathAbsolute => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 55)",
            Rule::IpathNoscheme => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 57)",
            Rule::IpathRootless => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 59)",
            Rule::IpathEmpty => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 61)",
            Rule::Isegment => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 64)",
            Rule::IsegmentNz => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 66)",
            Rule::IsegmentNzNc => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 68)",
            Rule::Ipchar => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 73)",
            Rule::Iquery => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 77)",
            Rule::Ifragment => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 80)",
            Rule::Iunreserved => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 83)",
            Rule::Ucschar => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 86)",
            Rule::Iprivate => "RFC 3987 \u{a7}2.2 (grammar/rfc3987.abnf line 94)",
            Rule::Scheme => "RFC 3986 \u{a7}3.1 (grammar/rfc3986.abnf line 32)",
            Rule::Port => "RFC 3986 \u{a7}3.2.3 (grammar/rfc3986.abnf line 41)",
            Rule::IpLiteral => "RFC 3986 \u{a7}3.2.2 (grammar/rfc3986.abnf line 44)",
            Rule::Ipvfuture => "RFC 3986 \u{a7}3.2.2 (grammar/rfc3986.abnf line 47)",
            Rule::Ipv6address => "RFC 3986 \u{a7}3.2.2 (grammar/rfc3986.abnf line 50)",
            Rule::H16 => "RFC 3986 \u{a7}3.2.2 (grammar/rfc3986.abnf line 61)",
            Rule::Ls32 => "RFC 3986 \u{a7}3.2.2 (grammar/rfc3986.abnf line 63)",
            Rule::Ipv4address => "RFC 3986 \u{a7}3.2.2 (grammar/rfc3986.abnf line 65)",
            Rule::DecOctet => "RFC 3986 \u{a7}3.2.2 (grammar/rfc3986.abnf line 68)",
            Rule::PctEncoded => "RFC 3986 \u{a7}2.1 (grammar/rfc3986.abnf line 113)",
            Rule::Reserved => "RFC 3986 \u{a7}2.2 (grammar/rfc3986.abnf line 118)",
            Rule::GenDelims => "RFC 3986 \u{a7}2.2 (grammar/rfc3986.abnf line 120)",
            Rule::SubDelims => "RFC 3986 \u{a7}2.2 (grammar/rfc3986.abnf line 122)",
            Rule::Unreserved => "RFC 3986 \u{a7}2.3 (grammar/rfc3986.abnf line 116)",
            Rule::Alpha => "RFC 5234 B.1 (grammar/core.abnf line 5)",
            Rule::Digit => "RFC 5234 B.1 (grammar/core.abnf line 8)",
            Rule::Hexdig => "RFC 5234 B.1 (grammar/core.abnf line 11)",
            Rule::Dquote => "RFC 5234 B.1 (grammar/core.abnf line 14)",
            Rule::Iri2001IriReference => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 47)",
            Rule::Iri2001Absoluteiri => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 52)",
            Rule::Iri2001Relativeiri => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 57)",
            Rule::Iri2001IhierPart => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 60)",
            Rule::Iri2001IopaquePart => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 64)",
            Rule::Iri2001IricNoSlash => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 67)",
            Rule::Iri2001InetPath => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 71)",
            Rule::Iri2001IabsPath => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 74)",
            Rule::Iri2001IrelPath => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 77)",
            Rule::Iri2001IrelSegment => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 80)",
            Rule::Iri2001Iauthority => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 84)",
            Rule::Iri2001IregName => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 87)",
            Rule::Iri2001IpathSegments => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 91)",
            Rule::Iri2001Isegment => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 94)",
            Rule::Iri2001Iparam => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 97)",
            Rule::Iri2001Ipchar => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 100)",
            Rule::Iri2001Iquery => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 104)",
            Rule::Iri2001Ifragment => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 107)",
            Rule::Iri2001Iric => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 110)",
            Rule::Iri2001Iunreserved => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 113)",
            Rule::Iri2001Ichar => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 116)",
            Rule::Iri2001Reserved => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 153)",
            Rule::Iri2001Unreserved => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 157)",
            Rule::Iri2001Mark => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 160)",
            Rule::Iri2001Escaped => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 164)",
            Rule::Iri2001Server => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 167)",
            Rule::Iri2001Userinfo => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 170)",
            Rule::Iri2001Hostport => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 174)",
            Rule::Iri2001Host => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 177)",
            Rule::Iri2001Ipv6reference => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 182)",
            Rule::Iri2001Hostname => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 185)",
            Rule::Iri2001Domainlabel => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 188)",
            Rule::Iri2001Toplabel => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 191)",
            Rule::Iri2001Ipv6address => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 194)",
            Rule::Iri2001Ipv4address => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 197)",
            Rule::Iri2001Ipv6prefix => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 200)",
            Rule::Iri2001Hexpart => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 203)",
            Rule::Iri2001Hexseq => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 206)",
            Rule::Iri2001Hex4 => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 209)",
            Rule::Iri2001Port => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 212)",
            Rule::Iri2001Scheme => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 215)",
            Rule::Iri2001Alphanum => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 218)",
            Rule::Iri2001Alpha => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 221)",
            Rule::Iri2001Lowalpha => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 224)",
            Rule::Iri2001Upalpha => "draft-masinter-url-i18n-07 \u{a7}2.2 (grammar/draft-masinter-url-i18n-07.abnf line 232)",
            Rule::Iri2001Digit => "draft-masinter-url-i18n-07 \u{a7}2.2, not printed: RFC 2396 Appendix A (grammar/draft-masinter-url-i18n-07.abnf line 237)",
        }
    }

    /// True for a rule that always matches exactly one character or one `pct-encoded`: parse trees fold it into its parent.
    #[inline]
    pub const fn is_character_rule(self) -> bool {
        match self {
            Rule::Iri => false,
            Rule::IhierPart => false,
            Rule::IriReference => false,
            Rule::AbsoluteIri => false,
            Rule::IrelativeRef => false,
            Rule::IrelativePart => false,
            Rule::Iauthority => false,
            Rule::Iuserinfo => false,
            Rule::Ihost => false,
            Rule::IregName => false,
            Rule::Ipath => false,
            Rule::IpathAbempty => false,
            Rule::IpathAbsolute => false,
            Rule::IpathNoscheme => false,
            Rule::IpathRootless => false,
            Rule::IpathEmpty => false,
            Rule::Isegment => false,
            Rule::IsegmentNz => false,
            Rule::IsegmentNzNc => false,
            Rule::Ipchar => true,
            Rule::Iquery => false,
            Rule::Ifragment => false,
            Rule::Iunreserved => true,
            Rule::Ucschar => true,
            Rule::Iprivate => true,
            Rule::Scheme => false,
            Rule::Port => false,
            Rule::IpLiteral => false,
            Rule::Ipvfuture => false,
            Rule::Ipv6address => false,
            Rule::H16 => false,
            Rule::Ls32 => false,
            Rule::Ipv4address => false,
            Rule::DecOctet => false,
            Rule::PctEncoded => false,
            Rule::Reserved => true,
            Rule::GenDelims => true,
            Rule::SubDelims => true,
            Rule::Unreserved => true,
            Rule::Alpha => true,
            Rule::Digit => true,
            Rule::Hexdig => true,
            Rule::Dquote => true,
            Rule::Iri2001IriReference => false,
            Rule::Iri2001Absoluteiri => false,
            Rule::Iri2001Relativeiri => false,
            Rule::Iri2001IhierPart => false,
            Rule::Iri2001IopaquePart => false,
            Rule::Iri2001IricNoSlash => true,
            Rule::Iri2001InetPath => false,
            Rule::Iri2001IabsPath => false,
            Rule::Iri2001IrelPath => false,
            Rule::Iri2001IrelSegment => false,
            Rule::Iri2001Iauthority => false,
            Rule::Iri2001IregName => false,
            Rule::Iri2001IpathSegments => false,
            Rule::Iri2001Isegment => false,
            Rule::Iri2001Iparam => false,
            Rule::Iri2001Ipchar => true,
            Rule::Iri2001Iquery => false,
            Rule::Iri2001Ifragment => false,
            Rule::Iri2001Iric => true,
            Rule::Iri2001Iunreserved => true,
            Rule::Iri2001Ichar => true,
            Rule::Iri2001Reserved => true,
            Rule::Iri2001Unreserved => true,
            Rule::Iri2001Mark => true,
            Rule::Iri2001Escaped => false,
            Rule::Iri2001Server => false,
            Rule::Iri2001Userinfo => false,
            Rule::Iri2001Hostport => false,
            Rule::Iri2001Host => false,
            Rule::Iri2001Ipv6reference => false,
            Rule::Iri2001Hostname => false,
            Rule::Iri2001Domainlabel => false,
            Rule::Iri2001Toplabel => false,
            Rule::Iri2001Ipv6address => false,
            Rule::Iri2001Ipv4address => false,
            Rule::Iri2001Ipv6prefix => false,
            Rule::Iri2001Hexpart => false,
            Rule::Iri2001Hexseq => false,
            Rule::Iri2001Hex4 => false,
            Rule::Iri2001Port => false,
            Rule::Iri2001Scheme => false,
            Rule::Iri2001Alphanum => true,
            Rule::Iri2001Alpha => true,
            Rule::Iri2001Lowalpha => true,
            Rule::Iri2001Upalpha => true,
            Rule::Iri2001Digit => true,
        }
    }

    /// The definition error messages show beside a character rule in RFC 3986, when it is a short list of alternatives (rules and quoted strings).
    #[inline]
    pub const fn short_definition_uri(self) -> Option<&'static str> {
        match self {
            Rule::Iri => None,
            Rule::IhierPart => None,
            Rule::IriReference => None,
            Rule::AbsoluteIri => None,
            Rule::IrelativeRef => None,
            Rule::IrelativePart => None,
            Rule::Iauthority => None,
            Rule::Iuserinfo => None,
            Rule::Ihost => None,
            Rule::IregName => None,
            Rule::Ipath => None,
            Rule::IpathAbempty => None,
            Rule::IpathAbsolute => None,
            Rule::IpathNoscheme => None,
            Rule::IpathRootless => None,
            Rule::IpathEmpty => None,
            Rule::Isegment => None,
            Rule::IsegmentNz => None,
            Rule::IsegmentNzNc => None,
            Rule::Ipchar => Some("unreserved / pct-encoded / sub-delims / \":\" / \"@\""),
            Rule::Iquery => None,
            Rule::Ifragment => None,
            Rule::Iunreserved => Some("ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\""),
            Rule::Ucschar => None,
            Rule::Iprivate => None,
            Rule::Scheme => None,
            Rule::Port => None,
            Rule::IpLiteral => None,
            Rule::Ipvfuture => None,
            Rule::Ipv6address => None,
            Rule::H16 => None,
            Rule::Ls32 => None,
            Rule::Ipv4address => None,
            Rule::DecOctet => None,
            Rule::PctEncoded => None,
            Rule::Reserved => Some("gen-delims / sub-delims"),
            Rule::GenDelims => Some("\":\" / \"/\" / \"?\" / \"#\" / \"[\" / \"]\" / \"@\""),
            Rule::SubDelims => Some("\"!\" / \"$\" / \"&\" / \"'\" / \"(\" / \")\" / \"*\" / \"+\" / \",\" / \";\" / \"=\""),
            Rule::Unreserved => Some("ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\""),
            Rule::Alpha => None,
            Rule::Digit => None,
            Rule::Hexdig => Some("DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\""),
            Rule::Dquote => None,
            Rule::Iri2001IriReference => None,
            Rule::Iri2001Absoluteiri => None,
            Rule::Iri2001Relativeiri => None,
            Rule::Iri2001IhierPart => None,
            Rule::Iri2001IopaquePart => None,
            Rule::Iri2001IricNoSlash => None,
            Rule::Iri2001InetPath => None,
            Rule::Iri2001IabsPath => None,
            Rule::Iri2001IrelPath => None,
            Rule::Iri2001IrelSegment => None,
            Rule::Iri2001Iauthority => None,
            Rule::Iri2001IregName => None,
            Rule::Iri2001IpathSegments => None,
            Rule::Iri2001Isegment => None,
            Rule::Iri2001Iparam => None,
            Rule::Iri2001Ipchar => None,
            Rule::Iri2001Iquery => None,
            Rule::Iri2001Ifragment => None,
            Rule::Iri2001Iric => None,
            Rule::Iri2001Iunreserved => None,
            Rule::Iri2001Ichar => None,
            Rule::Iri2001Reserved => None,
            Rule::Iri2001Unreserved => None,
            Rule::Iri2001Mark => None,
            Rule::Iri2001Escaped => None,
            Rule::Iri2001Server => None,
            Rule::Iri2001Userinfo => None,
            Rule::Iri2001Hostport => None,
            Rule::Iri2001Host => None,
            Rule::Iri2001Ipv6reference => None,
            Rule::Iri2001Hostname => None,
            Rule::Iri2001Domainlabel => None,
            Rule::Iri2001Toplabel => None,
            Rule::Iri2001Ipv6address => None,
            Rule::Iri2001Ipv4address => None,
            Rule::Iri2001Ipv6prefix => None,
            Rule::Iri2001Hexpart => None,
            Rule::Iri2001Hexseq => None,
            Rule::Iri2001Hex4 => None,
            Rule::Iri2001Port => None,
            Rule::Iri2001Scheme => None,
            Rule::Iri2001Alphanum => None,
            Rule::Iri2001Alpha => None,
            Rule::Iri2001Lowalpha => None,
            Rule::Iri2001Upalpha => None,
            Rule::Iri2001Digit => None,
        }
    }

    /// The definition error messages show beside a character rule in RFC 3987, when it is a short list of alternatives (rules and quoted strings).
    #[inline]
    pub const fn short_definition_iri(self) -> Option<&'static str> {
        match self {
            Rule::Iri => None,
            Rule::IhierPart => None,
            Rule::IriReference => None,
            Rule::AbsoluteIri => None,
            Rule::IrelativeRef => None,
            Rule::IrelativePart => None,
            Rule::Iauthority => None,
            Rule::Iuserinfo => None,
            Rule::Ihost => None,
            Rule::IregName => None,
            Rule::Ipath => None,
            Rule::IpathAbempty => None,
            Rule::IpathAbsolute => None,
            Rule::IpathNoscheme => None,
            Rule::IpathRootless => None,
            Rule::IpathEmpty => None,
            Rule::Isegment => None,
            Rule::IsegmentNz => None,
            Rule::IsegmentNzNc => None,
            Rule::Ipchar => Some("iunreserved / pct-encoded / sub-delims / \":\" / \"@\""),
            Rule::Iquery => None,
            Rule::Ifragment => None,
            Rule::Iunreserved => Some("ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\" / ucschar"),
            Rule::Ucschar => None,
            Rule::Iprivate => None,
            Rule::Scheme => None,
            Rule::Port => None,
            Rule::IpLiteral => None,
            Rule::Ipvfuture => None,
            Rule::Ipv6address => None,
            Rule::H16 => None,
            Rule::Ls32 => None,
            Rule::Ipv4address => None,
            Rule::DecOctet => None,
            Rule::PctEncoded => None,
            Rule::Reserved => Some("gen-delims / sub-delims"),
            Rule::GenDelims => Some("\":\" / \"/\" / \"?\" / \"#\" / \"[\" / \"]\" / \"@\""),
            Rule::SubDelims => Some("\"!\" / \"$\" / \"&\" / \"'\" / \"(\" / \")\" / \"*\" / \"+\" / \",\" / \";\" / \"=\""),
            Rule::Unreserved => Some("ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\""),
            Rule::Alpha => None,
            Rule::Digit => None,
            Rule::Hexdig => Some("DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\""),
            Rule::Dquote => None,
            Rule::Iri2001IriReference => None,
            Rule::Iri2001Absoluteiri => None,
            Rule::Iri2001Relativeiri => None,
            Rule::Iri2001IhierPart => None,
            Rule::Iri2001IopaquePart => None,
            Rule::Iri2001IricNoSlash => None,
            Rule::Iri2001InetPath => None,
            Rule::Iri2001IabsPath => None,
            Rule::Iri2001IrelPath => None,
            Rule::Iri2001IrelSegment => None,
            Rule::Iri2001Iauthority => None,
            Rule::Iri2001IregName => None,
            Rule::Iri2001IpathSegments => None,
            Rule::Iri2001Isegment => None,
            Rule::Iri2001Iparam => None,
            Rule::Iri2001Ipchar => None,
            Rule::Iri2001Iquery => None,
            Rule::Iri2001Ifragment => None,
            Rule::Iri2001Iric => None,
            Rule::Iri2001Iunreserved => None,
            Rule::Iri2001Ichar => None,
            Rule::Iri2001Reserved => None,
            Rule::Iri2001Unreserved => None,
            Rule::Iri2001Mark => None,
            Rule::Iri2001Escaped => None,
            Rule::Iri2001Server => None,
            Rule::Iri2001Userinfo => None,
            Rule::Iri2001Hostport => None,
            Rule::Iri2001Host => None,
            Rule::Iri2001Ipv6reference => None,
            Rule::Iri2001Hostname => None,
            Rule::Iri2001Domainlabel => None,
            Rule::Iri2001Toplabel => None,
            Rule::Iri2001Ipv6address => None,
            Rule::Iri2001Ipv4address => None,
            Rule::Iri2001Ipv6prefix => None,
            Rule::Iri2001Hexpart => None,
            Rule::Iri2001Hexseq => None,
            Rule::Iri2001Hex4 => None,
            Rule::Iri2001Port => None,
            Rule::Iri2001Scheme => None,
            Rule::Iri2001Alphanum => None,
            Rule::Iri2001Alpha => None,
            Rule::Iri2001Lowalpha => None,
            Rule::Iri2001Upalpha => None,
            Rule::Iri2001Digit => None,
        }
    }

    /// The definition error messages show beside a character rule in the LEIRI note, when it is a short list of alternatives (rules and quoted strings).
    #[inline]
    pub const fn short_definition_leiri(self) -> Option<&'static str> {
        match self {
            Rule::Iri => None,
            Rule::IhierPart => None,
            Rule::IriReference => None,
            Rule::AbsoluteIri => None,
            Rule::IrelativeRef => None,
            Rule::IrelativePart => None,
            Rule::Iauthority => None,
            Rule::Iuserinfo => None,
            Rule::Ihost => None,
            Rule::IregName => None,
            Rule::Ipath => None,
            Rule::IpathAbempty => None,
            Rule::IpathAbsolute => None,
            Rule::IpathNoscheme => None,
            Rule::IpathRootless => None,
            Rule::IpathEmpty => None,
            Rule::Isegment => None,
            Rule::IsegmentNz => None,
            Rule::IsegmentNzNc => None,
            Rule::Ipchar => Some("iunreserved / pct-encoded / sub-delims / \":\" / \"@\""),
            Rule::Iquery => None,
            Rule::Ifragment => None,
            Rule::Iunreserved => Some("ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\" / ucschar"),
            Rule::Ucschar => None,
            Rule::Iprivate => None,
            Rule::Scheme => None,
            Rule::Port => None,
            Rule::IpLiteral => None,
            Rule::Ipvfuture => None,
            Rule::Ipv6address => None,
            Rule::H16 => None,
            Rule::Ls32 => None,
            Rule::Ipv4address => None,
            Rule::DecOctet => None,
            Rule::PctEncoded => None,
            Rule::Reserved => Some("gen-delims / sub-delims"),
            Rule::GenDelims => Some("\":\" / \"/\" / \"?\" / \"#\" / \"[\" / \"]\" / \"@\""),
            Rule::SubDelims => Some("\"!\" / \"$\" / \"&\" / \"'\" / \"(\" / \")\" / \"*\" / \"+\" / \",\" / \";\" / \"=\""),
            Rule::Unreserved => Some("ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\""),
            Rule::Alpha => None,
            Rule::Digit => None,
            Rule::Hexdig => Some("DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\""),
            Rule::Dquote => None,
            Rule::Iri2001IriReference => None,
            Rule::Iri2001Absoluteiri => None,
            Rule::Iri2001Relativeiri => None,
            Rule::Iri2001IhierPart => None,
            Rule::Iri2001IopaquePart => None,
            Rule::Iri2001IricNoSlash => None,
            Rule::Iri2001InetPath => None,
            Rule::Iri2001IabsPath => None,
            Rule::Iri2001IrelPath => None,
            Rule::Iri2001IrelSegment => None,
            Rule::Iri2001Iauthority => None,
            Rule::Iri2001IregName => None,
            Rule::Iri2001IpathSegments => None,
            Rule::Iri2001Isegment => None,
            Rule::Iri2001Iparam => None,
            Rule::Iri2001Ipchar => None,
            Rule::Iri2001Iquery => None,
            Rule::Iri2001Ifragment => None,
            Rule::Iri2001Iric => None,
            Rule::Iri2001Iunreserved => None,
            Rule::Iri2001Ichar => None,
            Rule::Iri2001Reserved => None,
            Rule::Iri2001Unreserved => None,
            Rule::Iri2001Mark => None,
            Rule::Iri2001Escaped => None,
            Rule::Iri2001Server => None,
            Rule::Iri2001Userinfo => None,
            Rule::Iri2001Hostport => None,
            Rule::Iri2001Host => None,
            Rule::Iri2001Ipv6reference => None,
            Rule::Iri2001Hostname => None,
            Rule::Iri2001Domainlabel => None,
            Rule::Iri2001Toplabel => None,
            Rule::Iri2001Ipv6address => None,
            Rule::Iri2001Ipv4address => None,
            Rule::Iri2001Ipv6prefix => None,
            Rule::Iri2001Hexpart => None,
            Rule::Iri2001Hexseq => None,
            Rule::Iri2001Hex4 => None,
            Rule::Iri2001Port => None,
            Rule::Iri2001Scheme => None,
            Rule::Iri2001Alphanum => None,
            Rule::Iri2001Alpha => None,
            Rule::Iri2001Lowalpha => None,
            Rule::Iri2001Upalpha => None,
            Rule::Iri2001Digit => None,
        }
    }

    /// The definition error messages show beside a character rule in the 2001 IRI draft, when it is a short list of alternatives (rules and quoted strings).
    #[inline]
    pub const fn short_definition_iri2001(self) -> Option<&'static str> {
        match self {
            Rule::Iri => None,
            Rule::IhierPart => None,
            Rule::IriReference => None,
            Rule::AbsoluteIri => None,
            Rule::IrelativeRef => None,
            Rule::IrelativePart => None,
            Rule::Iauthority => None,
            Rule::Iuserinfo => None,
            Rule::Ihost => None,
            Rule::IregName => None,
            Rule::Ipath => None,
            Rule::IpathAbempty => None,
            Rule::IpathAbsolute => None,
            Rule::IpathNoscheme => None,
            Rule::IpathRootless => None,
            Rule::IpathEmpty => None,
            Rule::Isegment => None,
            Rule::IsegmentNz => None,
            Rule::IsegmentNzNc => None,
            Rule::Ipchar => None,
            Rule::Iquery => None,
            Rule::Ifragment => None,
            Rule::Iunreserved => None,
            Rule::Ucschar => None,
            Rule::Iprivate => None,
            Rule::Scheme => None,
            Rule::Port => None,
            Rule::IpLiteral => None,
            Rule::Ipvfuture => None,
            Rule::Ipv6address => None,
            Rule::H16 => None,
            Rule::Ls32 => None,
            Rule::Ipv4address => None,
            Rule::DecOctet => None,
            Rule::PctEncoded => None,
            Rule::Reserved => None,
            Rule::GenDelims => None,
            Rule::SubDelims => None,
            Rule::Unreserved => None,
            Rule::Alpha => None,
            Rule::Digit => None,
            Rule::Hexdig => Some("DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\""),
            Rule::Dquote => None,
            Rule::Iri2001IriReference => None,
            Rule::Iri2001Absoluteiri => None,
            Rule::Iri2001Relativeiri => None,
            Rule::Iri2001IhierPart => None,
            Rule::Iri2001IopaquePart => None,
            Rule::Iri2001IricNoSlash => Some("iunreserved / escaped / \";\" / \"?\" / \":\" / \"@\" / \"&\" / \"=\" / \"+\" / \"$\" / \",\""),
            Rule::Iri2001InetPath => None,
            Rule::Iri2001IabsPath => None,
            Rule::Iri2001IrelPath => None,
            Rule::Iri2001IrelSegment => None,
            Rule::Iri2001Iauthority => None,
            Rule::Iri2001IregName => None,
            Rule::Iri2001IpathSegments => None,
            Rule::Iri2001Isegment => None,
            Rule::Iri2001Iparam => None,
            Rule::Iri2001Ipchar => Some("iunreserved / escaped / \":\" / \"@\" / \"&\" / \"=\" / \"+\" / \"$\" / \",\""),
            Rule::Iri2001Iquery => None,
            Rule::Iri2001Ifragment => None,
            Rule::Iri2001Iric => Some("reserved / iunreserved / escaped"),
            Rule::Iri2001Iunreserved => Some("ichar / unreserved"),
            Rule::Iri2001Ichar => None,
            Rule::Iri2001Reserved => Some("\";\" / \"/\" / \"?\" / \":\" / \"@\" / \"&\" / \"=\" / \"+\" / \"$\" / \",\" / \"[\" / \"]\""),
            Rule::Iri2001Unreserved => Some("alphanum / mark"),
            Rule::Iri2001Mark => Some("\"-\" / \"_\" / \".\" / \"!\" / \"~\" / \"*\" / \"'\" / \"(\" / \")\""),
            Rule::Iri2001Escaped => None,
            Rule::Iri2001Server => None,
            Rule::Iri2001Userinfo => None,
            Rule::Iri2001Hostport => None,
            Rule::Iri2001Host => None,
            Rule::Iri2001Ipv6reference => None,
            Rule::Iri2001Hostname => None,
            Rule::Iri2001Domainlabel => None,
            Rule::Iri2001Toplabel => None,
            Rule::Iri2001Ipv6address => None,
            Rule::Iri2001Ipv4address => None,
            Rule::Iri2001Ipv6prefix => None,
            Rule::Iri2001Hexpart => None,
            Rule::Iri2001Hexseq => None,
            Rule::Iri2001Hex4 => None,
            Rule::Iri2001Port => None,
            Rule::Iri2001Scheme => None,
            Rule::Iri2001Alphanum => Some("alpha / digit"),
            Rule::Iri2001Alpha => Some("lowalpha / upalpha"),
            Rule::Iri2001Lowalpha => Some("\"a\" / \"b\" / \"c\" / \"d\" / \"e\" / \"f\" / \"g\" / \"h\" / \"i\" / \"j\" / \"k\" / \"l\" / \"m\" / \"n\" / \"o\" / \"p\" / \"q\" / \"r\" / \"s\" / \"t\" / \"u\" / \"v\" / \"w\" / \"x\" / \"y\" / \"z\""),
            Rule::Iri2001Upalpha => Some("\"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\" / \"G\" / \"H\" / \"I\" / \"J\" / \"K\" / \"L\" / \"M\" / \"N\" / \"O\" / \"P\" / \"Q\" / \"R\" / \"S\" / \"T\" / \"U\" / \"V\" / \"W\" / \"X\" / \"Y\" / \"Z\""),
            Rule::Iri2001Digit => Some("\"0\" / \"1\" / \"2\" / \"3\" / \"4\" / \"5\" / \"6\" / \"7\" / \"8\" / \"9\""),
        }
    }

    /// The name of the rule in a variant's grammar, or `None` if that grammar lacks it.
pub const fn name_in(self, variant: VariantName) -> Option<&'static str> {
match variant {
VariantName::Uri => self.uri_name(),
VariantName::Iri => self.rfc3987_name(),
VariantName::Leiri => self.leiri_name(),
VariantName::Iri2001 => self.iri2001_name(),
}
}

/// The short definition of [`Rule::short_definition_iri`] in a variant's grammar.
pub const fn short_definition(self, variant: VariantName) -> Option<&'static str> {
match variant {
VariantName::Uri => self.short_definition_uri(),
VariantName::Iri => self.short_definition_iri(),
VariantName::Leiri => self.short_definition_leiri(),
VariantName::Iri2001 => self.short_definition_iri2001(),
}
}
}

/// Runs the combinator of `rule`: the rule chosen at run time, e.g. by name.
pub fn parse_rule<'a, V: Variant, M: Mode>(rule: Rule, i: &'a str) -> PResult<'a, M> {
    match rule {
        Rule::Iri => iri::<V, M>(i),
        Rule::IhierPart => ihier_part::<V, M>(i),
        Rule::IriReference => iri_reference::<V, M>(i),
        Rule::AbsoluteIri => absolute_iri::<V, M>(i),
        Rule::IrelativeRef => irelative_ref::<V, M>(i),
        Rule::IrelativePart => irelative_part::<V, M>(i),
        Rule::Iauthority => iauthority::<V, M>(i),
        Rule::Iuserinfo => iuserinfo::<V, M>(i),
        Rule::Ihost => ihost::<V, M>(i),
        Rule::IregName => ireg_name::<V, M>(i),
        Rule::Ipath => ipath::<V, M>(i),
        Rule::IpathAbempty => ipath_abempty::<V, M>(i),
        Rule::IpathAbsolute => ipath_absolute::<V, M>(i),
        Rule::IpathNoscheme => ipath_noscheme::<V, M>(i),
        Rule::IpathRootless => ipath_rootless::<V, M>(i),
        Rule::IpathEmpty => ipath_empty::<V, M>(i),
        Rule::Isegment => isegment::<V, M>(i),
        Rule::IsegmentNz => isegment_nz::<V, M>(i),
        Rule::IsegmentNzNc => isegment_nz_nc::<V, M>(i),
        Rule::Ipchar => ipchar::<V, M>(i),
        Rule::Iquery => iquery::<V, M>(i),
        Rule::Ifragment => ifragment::<V, M>(i),
        Rule::Iunreserved => iunreserved::<V, M>(i),
        Rule::Ucschar => ucschar::<V, M>(i),
        Rule::Iprivate => iprivate::<V, M>(i),
        Rule::Scheme => scheme::<V, M>(i),
        Rule::Port => port::<V, M>(i),
        Rule::IpLiteral => ip_literal::<V, M>(i),
        Rule::Ipvfuture => ipvfuture::<V, M>(i),
        Rule::Ipv6address => ipv6address::<V, M>(i),
        Rule::H16 => h16::<V, M>(i),
        Rule::Ls32 => ls32::<V, M>(i),
        Rule::Ipv4address => ipv4address::<V, M>(i),
        Rule::DecOctet => dec_octet::<V, M>(i),
        Rule::PctEncoded => pct_encoded::<V, M>(i),
        Rule::Reserved => reserved::<V, M>(i),
        Rule::GenDelims => gen_delims::<V, M>(i),
        Rule::SubDelims => sub_delims::<V, M>(i),
        Rule::Unreserved => unreserved::<V, M>(i),
        Rule::Alpha => alpha::<V, M>(i),
        Rule::Digit => digit::<V, M>(i),
        Rule::Hexdig => hexdig::<V, M>(i),
        Rule::Dquote => dquote::<V, M>(i),
        Rule::Iri2001IriReference => iri2001::iri_reference::<V, M>(i),
        Rule::Iri2001Absoluteiri => iri2001::absoluteiri::<V, M>(i),
        Rule::Iri2001Relativeiri => iri2001::relativeiri::<V, M>(i),
        Rule::Iri2001IhierPart => iri2001::ihier_part::<V, M>(i),
        Rule::Iri2001IopaquePart => iri2001::iopaque_part::<V, M>(i),
        Rule::Iri2001IricNoSlash => iri2001::iric_no_slash::<V, M>(i),
        Rule::Iri2001InetPath => iri2001::inet_path::<V, M>(i),
        Rule::Iri2001IabsPath => iri2001::iabs_path::<V, M>(i),
        Rule::Iri2001IrelPath => iri2001::irel_path::<V, M>(i),
        Rule::Iri2001IrelSegment => iri2001::irel_segment::<V, M>(i),
        Rule::Iri2001Iauthority => iri2001::iauthority::<V, M>(i),
        Rule::Iri2001IregName => iri2001::ireg_name::<V, M>(i),
        Rule::Iri2001IpathSegments => iri2001::ipath_segments::<V, M>(i),
        Rule::Iri2001Isegment => iri2001::isegment::<V, M>(i),
        Rule::Iri2001Iparam => iri2001::iparam::<V, M>(i),
        Rule::Iri2001Ipchar => iri2001::ipchar::<V, M>(i),
        Rule::Iri2001Iquery => iri2001::iquery::<V, M>(i),
        Rule::Iri2001Ifragment => iri2001::ifragment::<V, M>(i),
        Rule::Iri2001Iric => iri2001::iric::<V, M>(i),
        Rule::Iri2001Iunreserved => iri2001::iunreserved::<V, M>(i),
        Rule::Iri2001Ichar => iri2001::ichar::<V, M>(i),
        Rule::Iri2001Reserved => iri2001::reserved::<V, M>(i),
        Rule::Iri2001Unreserved => iri2001::unreserved::<V, M>(i),
        Rule::Iri2001Mark => iri2001::mark::<V, M>(i),
        Rule::Iri2001Escaped => iri2001::escaped::<V, M>(i),
        Rule::Iri2001Server => iri2001::server::<V, M>(i),
        Rule::Iri2001Userinfo => iri2001::userinfo::<V, M>(i),
        Rule::Iri2001Hostport => iri2001::hostport::<V, M>(i),
        Rule::Iri2001Host => iri2001::host::<V, M>(i),
        Rule::Iri2001Ipv6reference => iri2001::ipv6reference::<V, M>(i),
        Rule::Iri2001Hostname => iri2001::hostname::<V, M>(i),
        Rule::Iri2001Domainlabel => iri2001::domainlabel::<V, M>(i),
        Rule::Iri2001Toplabel => iri2001::toplabel::<V, M>(i),
        Rule::Iri2001Ipv6address => iri2001::ipv6address::<V, M>(i),
        Rule::Iri2001Ipv4address => iri2001::ipv4address::<V, M>(i),
        Rule::Iri2001Ipv6prefix => iri2001::ipv6prefix::<V, M>(i),
        Rule::Iri2001Hexpart => iri2001::hexpart::<V, M>(i),
        Rule::Iri2001Hexseq => iri2001::hexseq::<V, M>(i),
        Rule::Iri2001Hex4 => iri2001::hex4::<V, M>(i),
        Rule::Iri2001Port => iri2001::port::<V, M>(i),
        Rule::Iri2001Scheme => iri2001::scheme::<V, M>(i),
        Rule::Iri2001Alphanum => iri2001::alphanum::<V, M>(i),
        Rule::Iri2001Alpha => iri2001::alpha::<V, M>(i),
        Rule::Iri2001Lowalpha => iri2001::lowalpha::<V, M>(i),
        Rule::Iri2001Upalpha => iri2001::upalpha::<V, M>(i),
        Rule::Iri2001Digit => iri2001::digit::<V, M>(i),
    }
}

// Variant rules: the character classes each variant defines for itself.

/// The bit of the variant rule `ucschar` in a [`Class`].
pub const UCSCHAR: u32 = 1 << 0;

/// The bit of the variant rule `iprivate` in a [`Class`].
pub const IPRIVATE: u32 = 1 << 1;

/// ```abnf
/// ucschar        = " " / "<" / ">" / DQUOTE / "{" / "}"
///                / "|" / "\" / "^" / "`"
///                / %x0-1F / %x7F-D7FF / %xE000-FFFD
///                / %x10000-10FFFF
/// ```
///
/// W3C Working Group Note §2 (grammar/leiri.abnf line 12)
pub fn leiri_ucschar(c: char) -> bool {
    matches!(
        c as u32,
        0x0..=0x20
        | 0x22
        | 0x3C
        | 0x3E
        | 0x5C
        | 0x5E
        | 0x60
        | 0x7B..=0x7D
        | 0x7F..=0xD7FF
        | 0xE000..=0xFFFD
        | 0x10000..=0x10FFFF
    )
}

/// The ASCII characters of [`leiri_ucschar`].
const LEIRI_UCSCHAR_ASCII: u128 = 0xB80000015000000050000005FFFFFFFF;

/// ```abnf
/// iprivate       = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 94)
pub fn rfc3987_iprivate(c: char) -> bool {
    matches!(
        c as u32,
        0xE000..=0xF8FF
        | 0xF0000..=0xFFFFD
        | 0x100000..=0x10FFFD
    )
}

/// The ASCII characters of [`rfc3987_iprivate`].
const RFC3987_IPRIVATE_ASCII: u128 = 0x0;

/// ```abnf
/// ucschar        = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
///                / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
///                / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
///                / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
///                / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
///                / %xD0000-DFFFD / %xE1000-EFFFD
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 86)
pub fn rfc3987_ucschar(c: char) -> bool {
    matches!(
        c as u32,
        0xA0..=0xD7FF
        | 0xF900..=0xFDCF
        | 0xFDF0..=0xFFEF
        | 0x10000..=0x1FFFD
        | 0x20000..=0x2FFFD
        | 0x30000..=0x3FFFD
        | 0x40000..=0x4FFFD
        | 0x50000..=0x5FFFD
        | 0x60000..=0x6FFFD
        | 0x70000..=0x7FFFD
        | 0x80000..=0x8FFFD
        | 0x90000..=0x9FFFD
        | 0xA0000..=0xAFFFD
        | 0xB0000..=0xBFFFD
        | 0xC0000..=0xCFFFD
        | 0xD0000..=0xDFFFD
        | 0xE1000..=0xEFFFD
    )
}

/// The ASCII characters of [`rfc3987_ucschar`].
const RFC3987_UCSCHAR_ASCII: u128 = 0x0;

/// The variant rules as RFC 3986 defines them.
impl Variant for Uri {
    const NAME: VariantName = VariantName::Uri;

    #[inline]
    fn variant_char(rules: u32, c: char) -> bool {
        let _ = (rules, c);
        false
    }

    #[inline]
    fn variant_ascii(rules: u32) -> u128 {
        let _ = rules;
        0
    }
}

/// The variant rules as RFC 3987 defines them.
impl Variant for Iri {
    const NAME: VariantName = VariantName::Iri;

    #[inline]
    fn variant_char(rules: u32, c: char) -> bool {
        (rules & UCSCHAR != 0 && rfc3987_ucschar(c))
            || (rules & IPRIVATE != 0 && rfc3987_iprivate(c))
    }

    #[inline]
    fn variant_ascii(rules: u32) -> u128 {
        (if rules & UCSCHAR != 0 { RFC3987_UCSCHAR_ASCII } else { 0 })
            | (if rules & IPRIVATE != 0 { RFC3987_IPRIVATE_ASCII } else { 0 })
    }
}

/// The variant rules as the LEIRI note defines them.
impl Variant for Leiri {
    const NAME: VariantName = VariantName::Leiri;

    #[inline]
    fn variant_char(rules: u32, c: char) -> bool {
        (rules & UCSCHAR != 0 && leiri_ucschar(c))
            || (rules & IPRIVATE != 0 && rfc3987_iprivate(c))
    }

    #[inline]
    fn variant_ascii(rules: u32) -> u128 {
        (if rules & UCSCHAR != 0 { LEIRI_UCSCHAR_ASCII } else { 0 })
            | (if rules & IPRIVATE != 0 { RFC3987_IPRIVATE_ASCII } else { 0 })
    }
}

/// The variant rules as the 2001 IRI draft defines them.
impl Variant for Iri2001 {
    const NAME: VariantName = VariantName::Iri2001;

    #[inline]
    fn variant_char(rules: u32, c: char) -> bool {
        let _ = (rules, c);
        false
    }

    #[inline]
    fn variant_ascii(rules: u32) -> u128 {
        let _ = rules;
        0
    }
}

// The combinators, one per rule, in the order of the grammar files.

/// ```abnf
/// IRI            = scheme ":" ihier-part [ "?" iquery ]
///                  [ "#" ifragment ]
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 11)
pub fn iri<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri, i, Cat((
        scheme::<V, M>,
        Lit(":"),
        ihier_part::<V, M>,
        Opt(Cat((Lit("?"), iquery::<V, M>))),
        Opt(Cat((Lit("#"), ifragment::<V, M>))),
    )))
}

/// ```abnf
/// ihier-part     = "//" iauthority ipath-abempty
///                / ipath-absolute
///                / ipath-rootless
///                / ipath-empty
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 15)
pub fn ihier_part<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IhierPart, i, Choice::of(4, (
        First(&IHIER_PART_FIRST_1, Ahead(&IHIER_PART_AHEAD_0, Cat((Lit("//"), iauthority::<V, M>, ipath_abempty::<V, M>)))),
        First(&IHIER_PART_FIRST_2, ipath_absolute::<V, M>),
        First(&IHIER_PART_FIRST_3, ipath_rootless::<V, M>),
        ipath_empty::<V, M>,
    )))
}

/// What may follow `"//" iauthority ipath-abempty` in `ihier-part`.
const IHIER_PART_AHEAD_0: Set = Set::new().chars("#?").end_of_input();

/// What can start `"//" iauthority ipath-abempty` in `ihier-part`.
const IHIER_PART_FIRST_1: Set = Set::new().chars("/");

/// What can start `ipath-absolute` in `ihier-part`.
const IHIER_PART_FIRST_2: Set = Set::new().chars("/");

/// What can start `ipath-rootless` in `ihier-part`.
const IHIER_PART_FIRST_3: Set = Set::new().range(0x00, 0x22).range(0x24, 0x2E).range(0x30, 0x3E).range(0x40, 0x5A).range(0x5C, 0x5C).range(0x5E, 0x7F).non_ascii();

/// ```abnf
/// IRI-reference  = IRI / irelative-ref
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 21)
pub fn iri_reference<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IriReference, i, Choice::of(2, (
        First(&IRI_REFERENCE_FIRST_1, Ahead(&IRI_REFERENCE_AHEAD_0, iri::<V, M>)),
        irelative_ref::<V, M>,
    )))
}

/// What may follow `IRI` in `IRI-reference`.
const IRI_REFERENCE_AHEAD_0: Set = Set::new().end_of_input();

/// What can start `IRI` in `IRI-reference`.
const IRI_REFERENCE_FIRST_1: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// ```abnf
/// absolute-IRI   = scheme ":" ihier-part [ "?" iquery ]
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 24)
pub fn absolute_iri<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::AbsoluteIri, i, Cat((
        scheme::<V, M>,
        Lit(":"),
        ihier_part::<V, M>,
        Opt(Cat((Lit("?"), iquery::<V, M>))),
    )))
}

/// ```abnf
/// irelative-ref  = irelative-part [ "?" iquery ] [ "#" ifragment ]
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 27)
pub fn irelative_ref<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IrelativeRef, i, Cat((
        irelative_part::<V, M>,
        Opt(Cat((Lit("?"), iquery::<V, M>))),
        Opt(Cat((Lit("#"), ifragment::<V, M>))),
    )))
}

/// ```abnf
/// irelative-part = "//" iauthority ipath-abempty
///                / ipath-absolute
///                / ipath-noscheme
///                / ipath-empty
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 30)
pub fn irelative_part<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IrelativePart, i, Choice::of(4, (
        First(&IRELATIVE_PART_FIRST_1, Ahead(&IRELATIVE_PART_AHEAD_0, Cat((Lit("//"), iauthority::<V, M>, ipath_abempty::<V, M>)))),
        First(&IRELATIVE_PART_FIRST_2, ipath_absolute::<V, M>),
        First(&IRELATIVE_PART_FIRST_3, ipath_noscheme::<V, M>),
        ipath_empty::<V, M>,
    )))
}

/// What may follow `"//" iauthority ipath-abempty` in `irelative-part`.
const IRELATIVE_PART_AHEAD_0: Set = Set::new().chars("#?").end_of_input();

/// What can start `"//" iauthority ipath-abempty` in `irelative-part`.
const IRELATIVE_PART_FIRST_1: Set = Set::new().chars("/");

/// What can start `ipath-absolute` in `irelative-part`.
const IRELATIVE_PART_FIRST_2: Set = Set::new().chars("/");

/// What can start `ipath-noscheme` in `irelative-part`.
const IRELATIVE_PART_FIRST_3: Set = Set::new().range(0x00, 0x22).range(0x24, 0x2E).range(0x30, 0x39).range(0x3B, 0x3E).range(0x40, 0x5A).range(0x5C, 0x5C).range(0x5E, 0x7F).non_ascii();

/// ```abnf
/// iauthority     = [ iuserinfo "@" ] ihost [ ":" port ]
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 36)
pub fn iauthority<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iauthority, i, Cat((
        Opt(Ahead(&IAUTHORITY_AHEAD_0, Cat((iuserinfo::<V, M>, Lit("@"))))),
        ihost::<V, M>,
        Opt(Cat((Lit(":"), port::<V, M>))),
    )))
}

/// What may follow `[ iuserinfo "@" ]` in `iauthority`.
const IAUTHORITY_AHEAD_0: Set = Set::new().range(0x00, 0x3F).range(0x41, 0x5C).range(0x5E, 0x7F).non_ascii().end_of_input();

/// ```abnf
/// iuserinfo      = *( iunreserved / pct-encoded / sub-delims / ":" )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 38)
pub fn iuserinfo<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iuserinfo, i, Scan(&IUSERINFO_CHARS_0, 0, INF))
}

/// The characters of `iunreserved / pct-encoded / sub-delims / ":"`.
const IUSERINFO_CHARS_0: Class = Class::new().chars("!$=_~").range(0x26, 0x2E).range(0x30, 0x3B).range(0x41, 0x5A).range(0x61, 0x7A).pct_encoded().variant_rule(UCSCHAR)
    .expecting(&[Expected::Rule(Rule::Iunreserved), Expected::Rule(Rule::PctEncoded), Expected::Rule(Rule::SubDelims), Expected::Lit(":")]);

/// ```abnf
/// ihost          = IP-literal / IPv4address / ireg-name
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 40)
pub fn ihost<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ihost, i, Choice::of(3, (
        First(&IHOST_FIRST_0, ip_literal::<V, M>),
        First(&IHOST_FIRST_2, Ahead(&IHOST_AHEAD_1, ipv4address::<V, M>)),
        ireg_name::<V, M>,
    )))
}

/// What can start `IP-literal` in `ihost`.
const IHOST_FIRST_0: Set = Set::new().chars("[");

/// What may follow `IPv4address` in `ihost`.
const IHOST_AHEAD_1: Set = Set::new().chars("#/:?").end_of_input();

/// What can start `IPv4address` in `ihost`.
const IHOST_FIRST_2: Set = Set::new().range(0x30, 0x39);

/// ```abnf
/// ireg-name      = *( iunreserved / pct-encoded / sub-delims )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 43)
pub fn ireg_name<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IregName, i, Scan(&IREG_NAME_CHARS_0, 0, INF))
}

/// The characters of `iunreserved / pct-encoded / sub-delims`.
const IREG_NAME_CHARS_0: Class = Class::new().chars("!$;=_~").range(0x26, 0x2E).range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A).pct_encoded().variant_rule(UCSCHAR)
    .expecting(&[Expected::Rule(Rule::Iunreserved), Expected::Rule(Rule::PctEncoded), Expected::Rule(Rule::SubDelims)]);

/// ```abnf
/// ipath          = ipath-abempty   ; begins with "/" or is empty
///                / ipath-absolute  ; begins with "/" but not "//"
///                / ipath-noscheme  ; begins with a non-colon segment
///                / ipath-rootless  ; begins with a segment
///                / ipath-empty     ; zero characters
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 46)
pub fn ipath<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ipath, i, Choice::of(5, (
        Ahead(&IPATH_AHEAD_0, ipath_abempty::<V, M>),
        First(&IPATH_FIRST_1, ipath_absolute::<V, M>),
        First(&IPATH_FIRST_3, Ahead(&IPATH_AHEAD_2, ipath_noscheme::<V, M>)),
        First(&IPATH_FIRST_4, ipath_rootless::<V, M>),
        ipath_empty::<V, M>,
    )))
}

/// What may follow `ipath-abempty` in `ipath`.
const IPATH_AHEAD_0: Set = Set::new().end_of_input();

/// What can start `ipath-absolute` in `ipath`.
const IPATH_FIRST_1: Set = Set::new().chars("/");

/// What may follow `ipath-noscheme` in `ipath`.
const IPATH_AHEAD_2: Set = Set::new().end_of_input();

/// What can start `ipath-noscheme` in `ipath`.
const IPATH_FIRST_3: Set = Set::new().range(0x00, 0x22).range(0x24, 0x2E).range(0x30, 0x39).range(0x3B, 0x3E).range(0x40, 0x5A).range(0x5C, 0x5C).range(0x5E, 0x7F).non_ascii();

/// What can start `ipath-rootless` in `ipath`.
const IPATH_FIRST_4: Set = Set::new().range(0x00, 0x22).range(0x24, 0x2E).range(0x30, 0x3E).range(0x40, 0x5A).range(0x5C, 0x5C).range(0x5E, 0x7F).non_ascii();

/// ```abnf
/// ipath-abempty  = *( "/" isegment )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 53)
pub fn ipath_abempty<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathAbempty, i, Delimited {
        delimiter: b'/',
        rule: Rule::Isegment,
        class: &IPCHAR_CHARS,
        repetition: Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))),
    })
}

/// The characters of `ipchar`.
const IPCHAR_CHARS: Class = Class::new().chars("!$=_~").range(0x26, 0x2E).range(0x30, 0x3B).range(0x40, 0x5A).range(0x61, 0x7A).pct_encoded().variant_rule(UCSCHAR)
    .expecting(&[Expected::Rule(Rule::Ipchar)]);

/// ```abnf
/// ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 55)
pub fn ipath_absolute<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathAbsolute, i, Cat((
        Lit("/"),
        Opt(Cat((
            isegment_nz::<V, M>,
            Delimited {
                delimiter: b'/',
                rule: Rule::Isegment,
                class: &IPCHAR_CHARS,
                repetition: Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))),
            },
        ))),
    )))
}

/// ```abnf
/// ipath-noscheme = isegment-nz-nc *( "/" isegment )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 57)
pub fn ipath_noscheme<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathNoscheme, i, Cat((
        isegment_nz_nc::<V, M>,
        Delimited {
            delimiter: b'/',
            rule: Rule::Isegment,
            class: &IPCHAR_CHARS,
            repetition: Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))),
        },
    )))
}

/// ```abnf
/// ipath-rootless = isegment-nz *( "/" isegment )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 59)
pub fn ipath_rootless<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathRootless, i, Cat((
        isegment_nz::<V, M>,
        Delimited {
            delimiter: b'/',
            rule: Rule::Isegment,
            class: &IPCHAR_CHARS,
            repetition: Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))),
        },
    )))
}

/// ```abnf
/// ipath-empty    = 0<ipchar>
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 61)
pub fn ipath_empty<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathEmpty, i, Empty)
}

/// ```abnf
/// isegment       = *ipchar
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 64)
pub fn isegment<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Isegment, i, Scan(&IPCHAR_CHARS, 0, INF))
}

/// ```abnf
/// isegment-nz    = 1*ipchar
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 66)
pub fn isegment_nz<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IsegmentNz, i, Scan(&IPCHAR_CHARS, 1, INF))
}

/// ```abnf
/// isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims
///                      / "@" )
///                ; non-zero-length segment without any colon ":"
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 68)
pub fn isegment_nz_nc<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IsegmentNzNc, i, Scan(&ISEGMENT_NZ_NC_CHARS_0, 1, INF))
}

/// The characters of `iunreserved / pct-encoded / sub-delims / "@"`.
const ISEGMENT_NZ_NC_CHARS_0: Class = Class::new().chars("!$;=_~").range(0x26, 0x2E).range(0x30, 0x39).range(0x40, 0x5A).range(0x61, 0x7A).pct_encoded().variant_rule(UCSCHAR)
    .expecting(&[Expected::Rule(Rule::Iunreserved), Expected::Rule(Rule::PctEncoded), Expected::Rule(Rule::SubDelims), Expected::Lit("@")]);

/// ```abnf
/// ipchar         = iunreserved / pct-encoded / sub-delims / ":"
///                / "@"
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 73)
pub fn ipchar<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ipchar, i, Choice::of(5, (
        First(&IPCHAR_FIRST_0, iunreserved::<V, M>),
        First(&IPCHAR_FIRST_1, pct_encoded::<V, M>),
        First(&IPCHAR_FIRST_2, sub_delims::<V, M>),
        Lit(":"),
        Lit("@"),
    )))
}

/// What can start `iunreserved` in `ipchar`.
const IPCHAR_FIRST_0: Set = Set::new().chars("-.<>").range(0x00, 0x20).range(0x22, 0x22).range(0x30, 0x39).range(0x41, 0x5A).range(0x5C, 0x5C).range(0x5E, 0x7F).non_ascii();

/// What can start `pct-encoded` in `ipchar`.
const IPCHAR_FIRST_1: Set = Set::new().chars("%");

/// What can start `sub-delims` in `ipchar`.
const IPCHAR_FIRST_2: Set = Set::new().chars("!$;=").range(0x26, 0x2C);

/// ```abnf
/// iquery         = *( ipchar / iprivate / "/" / "?" )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 77)
pub fn iquery<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iquery, i, Scan(&IQUERY_CHARS_0, 0, INF))
}

/// The characters of `ipchar / iprivate / "/" / "?"`.
const IQUERY_CHARS_0: Class = Class::new().chars("!$=_~").range(0x26, 0x3B).range(0x3F, 0x5A).range(0x61, 0x7A).pct_encoded().variant_rule(UCSCHAR).variant_rule(IPRIVATE)
    .expecting(&[Expected::Rule(Rule::Ipchar), Expected::Rule(Rule::Iprivate), Expected::Lit("/"), Expected::Lit("?")]);

/// ```abnf
/// ifragment      = *( ipchar / "/" / "?" )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 80)
pub fn ifragment<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ifragment, i, Scan(&IFRAGMENT_CHARS_0, 0, INF))
}

/// The characters of `ipchar / "/" / "?"`.
const IFRAGMENT_CHARS_0: Class = Class::new().chars("!$=_~").range(0x26, 0x3B).range(0x3F, 0x5A).range(0x61, 0x7A).pct_encoded().variant_rule(UCSCHAR)
    .expecting(&[Expected::Rule(Rule::Ipchar), Expected::Lit("/"), Expected::Lit("?")]);

/// ```abnf
/// iunreserved    = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 83)
pub fn iunreserved<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iunreserved, i, Choice::of(7, (
        First(&IUNRESERVED_FIRST_0, alpha::<V, M>),
        First(&IUNRESERVED_FIRST_1, digit::<V, M>),
        Lit("-"),
        Lit("."),
        Lit("_"),
        Lit("~"),
        First(&IUNRESERVED_FIRST_2, ucschar::<V, M>),
    )))
}

/// What can start `ALPHA` in `iunreserved`.
const IUNRESERVED_FIRST_0: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `DIGIT` in `iunreserved`.
const IUNRESERVED_FIRST_1: Set = Set::new().range(0x30, 0x39);

/// What can start `ucschar` in `iunreserved`.
const IUNRESERVED_FIRST_2: Set = Set::new().chars("<>^`").range(0x00, 0x20).range(0x22, 0x22).range(0x5C, 0x5C).range(0x7B, 0x7D).range(0x7F, 0x7F).non_ascii();

/// ```abnf
/// ucschar        = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
///                / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
///                / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
///                / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
///                / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
///                / %xD0000-DFFFD / %xE1000-EFFFD
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 86)
///
/// A variant rule: empty under `Uri`; `Iri` uses RFC 3987 §2.2 (grammar/rfc3987.abnf line 86); `Leiri` uses W3C Working Group Note §2 (grammar/leiri.abnf line 12); empty under `Iri2001`.
pub fn ucschar<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ucschar, i, Scan(&UCSCHAR_CHARS, 1, 1))
}

/// The characters of `ucschar`.
const UCSCHAR_CHARS: Class = Class::new().variant_rule(UCSCHAR)
    .expecting(&[Expected::Rule(Rule::Ucschar)]);

/// ```abnf
/// iprivate       = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 94)
///
/// A variant rule: empty under `Uri`; `Iri` uses RFC 3987 §2.2 (grammar/rfc3987.abnf line 94); `Leiri` uses RFC 3987 §2.2 (grammar/rfc3987.abnf line 94); empty under `Iri2001`.
pub fn iprivate<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iprivate, i, Scan(&IPRIVATE_CHARS, 1, 1))
}

/// The characters of `iprivate`.
const IPRIVATE_CHARS: Class = Class::new().variant_rule(IPRIVATE)
    .expecting(&[Expected::Rule(Rule::Iprivate)]);

/// ```abnf
/// scheme        = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
/// ```
///
/// RFC 3986 §3.1 (grammar/rfc3986.abnf line 32)
pub fn scheme<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Scheme, i, Cat((alpha::<V, M>, Scan(&SCHEME_CHARS_0, 0, INF))))
}

/// The characters of `ALPHA / DIGIT / "+" / "-" / "."`.
const SCHEME_CHARS_0: Class = Class::new().chars("+-.").range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A)
    .expecting(&[Expected::Rule(Rule::Alpha), Expected::Rule(Rule::Digit), Expected::Lit("+"), Expected::Lit("-"), Expected::Lit(".")]);

/// ```abnf
/// port          = *DIGIT
/// ```
///
/// RFC 3986 §3.2.3 (grammar/rfc3986.abnf line 41)
pub fn port<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Port, i, Scan(&DIGIT_CHARS, 0, INF))
}

/// The characters of `DIGIT`.
const DIGIT_CHARS: Class = Class::new().range(0x30, 0x39)
    .expecting(&[Expected::Rule(Rule::Digit)]);

/// ```abnf
/// IP-literal    = "[" ( IPv6address / IPvFuture  ) "]"
/// ```
///
/// RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 44)
pub fn ip_literal<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpLiteral, i, Cat((
        Lit("["),
        Alt((
            First(&IP_LITERAL_FIRST_0, ipv6address::<V, M>),
            First(&IP_LITERAL_FIRST_1, ipvfuture::<V, M>),
        )),
        Lit("]"),
    )))
}

/// What can start `IPv6address` in `IP-literal`.
const IP_LITERAL_FIRST_0: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// What can start `IPvFuture` in `IP-literal`.
const IP_LITERAL_FIRST_1: Set = Set::new().chars("Vv");

/// ```abnf
/// IPvFuture     = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
/// ```
///
/// RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 47)
pub fn ipvfuture<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ipvfuture, i, Cat((
        Lit("v"),
        Scan(&HEXDIG_CHARS, 1, INF),
        Lit("."),
        Scan(&IPVFUTURE_CHARS_0, 1, INF),
    )))
}

/// The characters of `HEXDIG`.
const HEXDIG_CHARS: Class = Class::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66)
    .expecting(&[Expected::Rule(Rule::Hexdig)]);

/// The characters of `unreserved / sub-delims / ":"`.
const IPVFUTURE_CHARS_0: Class = Class::new().chars("!$=_~").range(0x26, 0x2E).range(0x30, 0x3B).range(0x41, 0x5A).range(0x61, 0x7A)
    .expecting(&[Expected::Rule(Rule::Unreserved), Expected::Rule(Rule::SubDelims), Expected::Lit(":")]);

/// ```abnf
/// IPv6address   =                            6( h16 ":" ) ls32
///               /                       "::" 5( h16 ":" ) ls32
///               / [               h16 ] "::" 4( h16 ":" ) ls32
///               / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
///               / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
///               / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
///               / [ *4( h16 ":" ) h16 ] "::"              ls32
///               / [ *5( h16 ":" ) h16 ] "::"              h16
///               / [ *6( h16 ":" ) h16 ] "::"
/// ```
///
/// RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 50)
pub fn ipv6address<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ipv6address, i, Choice::of(9, (
        First(&IPV6ADDRESS_FIRST_1, Ahead(&IPV6ADDRESS_AHEAD_0, Cat((Repeat(6, 6, Cat((h16::<V, M>, Lit(":")))), ls32::<V, M>)))),
        First(&IPV6ADDRESS_FIRST_3, Ahead(&IPV6ADDRESS_AHEAD_2, Cat((Lit("::"), Repeat(5, 5, Cat((h16::<V, M>, Lit(":")))), ls32::<V, M>)))),
        First(&IPV6ADDRESS_FIRST_5, Ahead(&IPV6ADDRESS_AHEAD_4, Cat((
            Opt(h16::<V, M>),
            Lit("::"),
            Repeat(4, 4, Cat((h16::<V, M>, Lit(":")))),
            ls32::<V, M>,
        )))),
        First(&IPV6ADDRESS_FIRST_8, Ahead(&IPV6ADDRESS_AHEAD_7, Cat((
            Opt(Cat((
                Repeat(0, 1, Ahead(&IPV6ADDRESS_AHEAD_6, Cat((h16::<V, M>, Lit(":"))))),
                h16::<V, M>,
            ))),
            Lit("::"),
            Repeat(3, 3, Cat((h16::<V, M>, Lit(":")))),
            ls32::<V, M>,
        )))),
        First(&IPV6ADDRESS_FIRST_11, Ahead(&IPV6ADDRESS_AHEAD_10, Cat((
            Opt(Cat((
                Repeat(0, 2, Ahead(&IPV6ADDRESS_AHEAD_9, Cat((h16::<V, M>, Lit(":"))))),
                h16::<V, M>,
            ))),
            Lit("::"),
            Repeat(2, 2, Cat((h16::<V, M>, Lit(":")))),
            ls32::<V, M>,
        )))),
        First(&IPV6ADDRESS_FIRST_14, Ahead(&IPV6ADDRESS_AHEAD_13, Cat((
            Opt(Cat((
                Repeat(0, 3, Ahead(&IPV6ADDRESS_AHEAD_12, Cat((h16::<V, M>, Lit(":"))))),
                h16::<V, M>,
            ))),
            Lit("::"),
            h16::<V, M>,
            Lit(":"),
            ls32::<V, M>,
        )))),
        First(&IPV6ADDRESS_FIRST_17, Ahead(&IPV6ADDRESS_AHEAD_16, Cat((
            Opt(Cat((
                Repeat(0, 4, Ahead(&IPV6ADDRESS_AHEAD_15, Cat((h16::<V, M>, Lit(":"))))),
                h16::<V, M>,
            ))),
            Lit("::"),
            ls32::<V, M>,
        )))),
        First(&IPV6ADDRESS_FIRST_20, Ahead(&IPV6ADDRESS_AHEAD_19, Cat((
            Opt(Cat((
                Repeat(0, 5, Ahead(&IPV6ADDRESS_AHEAD_18, Cat((h16::<V, M>, Lit(":"))))),
                h16::<V, M>,
            ))),
            Lit("::"),
            h16::<V, M>,
        )))),
        First(&IPV6ADDRESS_FIRST_22, Cat((
            Opt(Cat((
                Repeat(0, 6, Ahead(&IPV6ADDRESS_AHEAD_21, Cat((h16::<V, M>, Lit(":"))))),
                h16::<V, M>,
            ))),
            Lit("::"),
        ))),
    )))
}

/// What may follow `6( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_AHEAD_0: Set = Set::new().chars("]").end_of_input();

/// What can start `6( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_FIRST_1: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `"::" 5( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_AHEAD_2: Set = Set::new().chars("]").end_of_input();

/// What can start `"::" 5( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_FIRST_3: Set = Set::new().chars(":");

/// What may follow `[ h16 ] "::" 4( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_AHEAD_4: Set = Set::new().chars("]").end_of_input();

/// What can start `[ h16 ] "::" 4( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_FIRST_5: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `*1( h16 ":" )` in `IPv6address`.
const IPV6ADDRESS_AHEAD_6: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `[ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_AHEAD_7: Set = Set::new().chars("]").end_of_input();

/// What can start `[ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_FIRST_8: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `*2( h16 ":" )` in `IPv6address`.
const IPV6ADDRESS_AHEAD_9: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `[ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_AHEAD_10: Set = Set::new().chars("]").end_of_input();

/// What can start `[ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32` in `IPv6address`.
const IPV6ADDRESS_FIRST_11: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `*3( h16 ":" )` in `IPv6address`.
const IPV6ADDRESS_AHEAD_12: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `[ *3( h16 ":" ) h16 ] "::" h16 ":" ls32` in `IPv6address`.
const IPV6ADDRESS_AHEAD_13: Set = Set::new().chars("]").end_of_input();

/// What can start `[ *3( h16 ":" ) h16 ] "::" h16 ":" ls32` in `IPv6address`.
const IPV6ADDRESS_FIRST_14: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `*4( h16 ":" )` in `IPv6address`.
const IPV6ADDRESS_AHEAD_15: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `[ *4( h16 ":" ) h16 ] "::" ls32` in `IPv6address`.
const IPV6ADDRESS_AHEAD_16: Set = Set::new().chars("]").end_of_input();

/// What can start `[ *4( h16 ":" ) h16 ] "::" ls32` in `IPv6address`.
const IPV6ADDRESS_FIRST_17: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `*5( h16 ":" )` in `IPv6address`.
const IPV6ADDRESS_AHEAD_18: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `[ *5( h16 ":" ) h16 ] "::" h16` in `IPv6address`.
const IPV6ADDRESS_AHEAD_19: Set = Set::new().chars("]").end_of_input();

/// What can start `[ *5( h16 ":" ) h16 ] "::" h16` in `IPv6address`.
const IPV6ADDRESS_FIRST_20: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// What may follow `*6( h16 ":" )` in `IPv6address`.
const IPV6ADDRESS_AHEAD_21: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What can start `[ *6( h16 ":" ) h16 ] "::"` in `IPv6address`.
const IPV6ADDRESS_FIRST_22: Set = Set::new().range(0x30, 0x3A).range(0x41, 0x46).range(0x61, 0x66);

/// ```abnf
/// h16           = 1*4HEXDIG
/// ```
///
/// RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 61)
pub fn h16<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::H16, i, Scan(&HEXDIG_CHARS, 1, 4))
}

/// ```abnf
/// ls32          = ( h16 ":" h16 ) / IPv4address
/// ```
///
/// RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 63)
pub fn ls32<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ls32, i, Choice::of(2, (
        First(&LS32_FIRST_1, Ahead(&LS32_AHEAD_0, Cat((h16::<V, M>, Lit(":"), h16::<V, M>)))),
        First(&LS32_FIRST_2, ipv4address::<V, M>),
    )))
}

/// What may follow `h16 ":" h16` in `ls32`.
const LS32_AHEAD_0: Set = Set::new().chars("]").end_of_input();

/// What can start `h16 ":" h16` in `ls32`.
const LS32_FIRST_1: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What can start `IPv4address` in `ls32`.
const LS32_FIRST_2: Set = Set::new().range(0x30, 0x39);

/// ```abnf
/// IPv4address   = dec-octet "." dec-octet "." dec-octet "." dec-octet
/// ```
///
/// RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 65)
pub fn ipv4address<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Ipv4address, i, Cat((
        dec_octet::<V, M>,
        Lit("."),
        dec_octet::<V, M>,
        Lit("."),
        dec_octet::<V, M>,
        Lit("."),
        dec_octet::<V, M>,
    )))
}

/// ```abnf
/// dec-octet     = DIGIT                 ; 0-9
///               / %x31-39 DIGIT         ; 10-99
///               / "1" 2DIGIT            ; 100-199
///               / "2" %x30-34 DIGIT     ; 200-249
///               / "25" %x30-35          ; 250-255
/// ```
///
/// RFC 3986 §3.2.2 (grammar/rfc3986.abnf line 68)
pub fn dec_octet<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::DecOctet, i, Choice::of(5, (
        First(&DEC_OCTET_FIRST_1, Ahead(&DEC_OCTET_AHEAD_0, digit::<V, M>)),
        First(&DEC_OCTET_FIRST_3, Ahead(&DEC_OCTET_AHEAD_2, Cat((Range(0x31, 0x39), digit::<V, M>)))),
        First(&DEC_OCTET_FIRST_4, Cat((Lit("1"), Scan(&DIGIT_CHARS, 2, 2)))),
        First(&DEC_OCTET_FIRST_6, Ahead(&DEC_OCTET_AHEAD_5, Cat((Lit("2"), Range(0x30, 0x34), digit::<V, M>)))),
        First(&DEC_OCTET_FIRST_7, Cat((Lit("25"), Range(0x30, 0x35)))),
    )))
}

/// What may follow `DIGIT` in `dec-octet`.
const DEC_OCTET_AHEAD_0: Set = Set::new().chars("#./:?]").end_of_input();

/// What can start `DIGIT` in `dec-octet`.
const DEC_OCTET_FIRST_1: Set = Set::new().range(0x30, 0x39);

/// What may follow `%x31-39 DIGIT` in `dec-octet`.
const DEC_OCTET_AHEAD_2: Set = Set::new().chars("#./:?]").end_of_input();

/// What can start `%x31-39 DIGIT` in `dec-octet`.
const DEC_OCTET_FIRST_3: Set = Set::new().range(0x31, 0x39);

/// What can start `"1" 2DIGIT` in `dec-octet`.
const DEC_OCTET_FIRST_4: Set = Set::new().chars("1");

/// What may follow `"2" %x30-34 DIGIT` in `dec-octet`.
const DEC_OCTET_AHEAD_5: Set = Set::new().chars("#./:?]").end_of_input();

/// What can start `"2" %x30-34 DIGIT` in `dec-octet`.
const DEC_OCTET_FIRST_6: Set = Set::new().chars("2");

/// What can start `"25" %x30-35` in `dec-octet`.
const DEC_OCTET_FIRST_7: Set = Set::new().chars("2");

/// ```abnf
/// pct-encoded   = "%" HEXDIG HEXDIG
/// ```
///
/// RFC 3986 §2.1 (grammar/rfc3986.abnf line 113)
pub fn pct_encoded<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::PctEncoded, i, Cat((Lit("%"), hexdig::<V, M>, hexdig::<V, M>)))
}

/// ```abnf
/// reserved      = gen-delims / sub-delims
/// ```
///
/// RFC 3986 §2.2 (grammar/rfc3986.abnf line 118)
pub fn reserved<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Reserved, i, Choice::of(2, (
        First(&RESERVED_FIRST_0, gen_delims::<V, M>),
        First(&RESERVED_FIRST_1, sub_delims::<V, M>),
    )))
}

/// What can start `gen-delims` in `reserved`.
const RESERVED_FIRST_0: Set = Set::new().chars("#/:?@[]");

/// What can start `sub-delims` in `reserved`.
const RESERVED_FIRST_1: Set = Set::new().chars("!$;=").range(0x26, 0x2C);

/// ```abnf
/// gen-delims    = ":" / "/" / "?" / "#" / "[" / "]" / "@"
/// ```
///
/// RFC 3986 §2.2 (grammar/rfc3986.abnf line 120)
pub fn gen_delims<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::GenDelims, i, Choice::of(7, (Lit(":"), Lit("/"), Lit("?"), Lit("#"), Lit("["), Lit("]"), Lit("@"))))
}

/// ```abnf
/// sub-delims    = "!" / "$" / "&" / "'" / "(" / ")"
///               / "*" / "+" / "," / ";" / "="
/// ```
///
/// RFC 3986 §2.2 (grammar/rfc3986.abnf line 122)
pub fn sub_delims<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::SubDelims, i, Choice::of(11, (
        Lit("!"),
        Lit("$"),
        Lit("&"),
        Lit("'"),
        Lit("("),
        Lit(")"),
        Lit("*"),
        Lit("+"),
        Lit(","),
        Lit(";"),
        Lit("="),
    )))
}

/// ```abnf
/// unreserved    = ALPHA / DIGIT / "-" / "." / "_" / "~"
/// ```
///
/// RFC 3986 §2.3 (grammar/rfc3986.abnf line 116)
pub fn unreserved<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Unreserved, i, Choice::of(6, (
        First(&UNRESERVED_FIRST_0, alpha::<V, M>),
        First(&UNRESERVED_FIRST_1, digit::<V, M>),
        Lit("-"),
        Lit("."),
        Lit("_"),
        Lit("~"),
    )))
}

/// What can start `ALPHA` in `unreserved`.
const UNRESERVED_FIRST_0: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `DIGIT` in `unreserved`.
const UNRESERVED_FIRST_1: Set = Set::new().range(0x30, 0x39);

/// ```abnf
/// ALPHA          =  %x41-5A / %x61-7A   ; A-Z / a-z
/// ```
///
/// RFC 5234 B.1 (grammar/core.abnf line 5)
pub fn alpha<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Alpha, i, Choice::of(2, (Range(0x41, 0x5A), Range(0x61, 0x7A))))
}

/// ```abnf
/// DIGIT          =  %x30-39             ; 0-9
/// ```
///
/// RFC 5234 B.1 (grammar/core.abnf line 8)
pub fn digit<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Digit, i, Range(0x30, 0x39))
}

/// ```abnf
/// HEXDIG         =  DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
/// ```
///
/// RFC 5234 B.1 (grammar/core.abnf line 11)
pub fn hexdig<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Hexdig, i, Choice::of(7, (
        First(&HEXDIG_FIRST_0, digit::<V, M>),
        Lit("A"),
        Lit("B"),
        Lit("C"),
        Lit("D"),
        Lit("E"),
        Lit("F"),
    )))
}

/// What can start `DIGIT` in `HEXDIG`.
const HEXDIG_FIRST_0: Set = Set::new().range(0x30, 0x39);

/// ```abnf
/// DQUOTE         =  %x22                ; " (Double Quote)
/// ```
///
/// RFC 5234 B.1 (grammar/core.abnf line 14)
pub fn dquote<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Dquote, i, LitCs("\""))
}

/// The combinators of draft-masinter-url-i18n-07 §2.2 (the 2001 IRI draft) with the RFC 2396 and RFC 2732 rules it reprints: a rule set of its own, named as the
/// document names its rules.
pub mod iri2001 {
use super::super::runtime::*;
use super::{Rule, Variant};

/// ```abnf
/// IRI-reference  = [ absoluteIRI | relativeIRI ] [ "#" ifragment ]
///                ; FIX 1: printed [ "#" fragment ]. RFC 2396's fragment is *uric,
///                ; ASCII only; the draft defines ifragment for this place.
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 47)
pub fn iri_reference<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IriReference, i, Cat((
        Opt(Alt((
            First(&IRI_REFERENCE_FIRST_1, Ahead(&IRI_REFERENCE_AHEAD_0, absoluteiri::<V, M>)),
            First(&IRI_REFERENCE_FIRST_2, relativeiri::<V, M>),
        ))),
        Opt(Cat((Lit("#"), ifragment::<V, M>))),
    )))
}

/// What may follow `absoluteIRI` in `IRI-reference`.
const IRI_REFERENCE_AHEAD_0: Set = Set::new().chars("#").end_of_input();

/// What can start `absoluteIRI` in `IRI-reference`.
const IRI_REFERENCE_FIRST_1: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `relativeIRI` in `IRI-reference`.
const IRI_REFERENCE_FIRST_2: Set = Set::new().chars("!;=_~").range(0x24, 0x39).range(0x40, 0x5A).range(0x61, 0x7A).non_ascii();

/// ```abnf
/// absoluteIRI    = scheme ":" ( ihier_part | iopaque_part )
///                ; FIX 2, FIX 3: printed ( hier_part | opaque_part ), the names
///                ; of RFC 2396's absoluteURI, which the draft does not list.
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 52)
pub fn absoluteiri<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Absoluteiri, i, Cat((
        scheme::<V, M>,
        Lit(":"),
        Alt((
            First(&ABSOLUTEIRI_FIRST_0, ihier_part::<V, M>),
            First(&ABSOLUTEIRI_FIRST_1, iopaque_part::<V, M>),
        )),
    )))
}

/// What can start `ihier_part` in `absoluteIRI`.
const ABSOLUTEIRI_FIRST_0: Set = Set::new().chars("/");

/// What can start `iopaque_part` in `absoluteIRI`.
const ABSOLUTEIRI_FIRST_1: Set = Set::new().chars("!=_~").range(0x24, 0x2E).range(0x30, 0x3B).range(0x3F, 0x5A).range(0x61, 0x7A).non_ascii();

/// ```abnf
/// relativeIRI    = ( inet_path | iabs_path | irel_path ) [ "?" iquery ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 57)
pub fn relativeiri<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Relativeiri, i, Cat((
        Alt((
            First(&RELATIVEIRI_FIRST_1, Ahead(&RELATIVEIRI_AHEAD_0, inet_path::<V, M>)),
            First(&RELATIVEIRI_FIRST_2, iabs_path::<V, M>),
            First(&RELATIVEIRI_FIRST_3, irel_path::<V, M>),
        )),
        Opt(Cat((Lit("?"), iquery::<V, M>))),
    )))
}

/// What may follow `inet_path` in `relativeIRI`.
const RELATIVEIRI_AHEAD_0: Set = Set::new().chars("#?").end_of_input();

/// What can start `inet_path` in `relativeIRI`.
const RELATIVEIRI_FIRST_1: Set = Set::new().chars("/");

/// What can start `iabs_path` in `relativeIRI`.
const RELATIVEIRI_FIRST_2: Set = Set::new().chars("/");

/// What can start `irel_path` in `relativeIRI`.
const RELATIVEIRI_FIRST_3: Set = Set::new().chars("!;=_~").range(0x24, 0x2E).range(0x30, 0x39).range(0x40, 0x5A).range(0x61, 0x7A).non_ascii();

/// ```abnf
/// ihier_part     = ( inet_path | iabs_path ) [ "?" iquery ]
///                ; FIX 4: printed [ "?" i-query ]; no rule is named i-query.
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 60)
pub fn ihier_part<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IhierPart, i, Cat((
        Alt((
            First(&IHIER_PART_FIRST_1, Ahead(&IHIER_PART_AHEAD_0, inet_path::<V, M>)),
            First(&IHIER_PART_FIRST_2, iabs_path::<V, M>),
        )),
        Opt(Cat((Lit("?"), iquery::<V, M>))),
    )))
}

/// What may follow `inet_path` in `ihier_part`.
const IHIER_PART_AHEAD_0: Set = Set::new().chars("#?").end_of_input();

/// What can start `inet_path` in `ihier_part`.
const IHIER_PART_FIRST_1: Set = Set::new().chars("/");

/// What can start `iabs_path` in `ihier_part`.
const IHIER_PART_FIRST_2: Set = Set::new().chars("/");

/// ```abnf
/// iopaque_part   = iric_no_slash *iric
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 64)
pub fn iopaque_part<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IopaquePart, i, Cat((iric_no_slash::<V, M>, Scan(&IRIC_CHARS, 0, INF))))
}

/// The characters of `iric`.
const IRIC_CHARS: Class = Class::new().chars("!$=]_~").range(0x26, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).beyond_ascii(&[(0xA0, 0x2069), (0x206C, 0xD7FF), (0xF900, 0xFFFD), (0x10000, 0x1FFFD), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD), (0x40000, 0x4FFFD), (0x50000, 0x5FFFD), (0x60000, 0x6FFFD), (0x70000, 0x7FFFD), (0x80000, 0x8FFFD), (0x90000, 0x9FFFD), (0xA0000, 0xAFFFD), (0xB0000, 0xBFFFD), (0xC0000, 0xCFFFD), (0xD0000, 0xDFFFD), (0xE0080, 0xEFFFD)]).pct_encoded_as(Rule::Iri2001Escaped)
    .expecting(&[Expected::Rule(Rule::Iri2001Iric)]);

/// ```abnf
/// iric_no_slash  = iunreserved | escaped | ";" | "?" | ":" | "@" |
///                  "&" | "=" | "+" | "$" | ","
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 67)
pub fn iric_no_slash<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IricNoSlash, i, Choice::of(11, (
        First(&IRIC_NO_SLASH_FIRST_0, iunreserved::<V, M>),
        First(&IRIC_NO_SLASH_FIRST_1, escaped::<V, M>),
        Lit(";"),
        Lit("?"),
        Lit(":"),
        Lit("@"),
        Lit("&"),
        Lit("="),
        Lit("+"),
        Lit("$"),
        Lit(","),
    )))
}

/// What can start `iunreserved` in `iric_no_slash`.
const IRIC_NO_SLASH_FIRST_0: Set = Set::new().chars("!-._~").range(0x27, 0x2A).range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A).non_ascii();

/// What can start `escaped` in `iric_no_slash`.
const IRIC_NO_SLASH_FIRST_1: Set = Set::new().chars("%");

/// ```abnf
/// inet_path      = "//" iauthority [ iabs_path ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 71)
pub fn inet_path<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001InetPath, i, Cat((Lit("//"), iauthority::<V, M>, Opt(iabs_path::<V, M>))))
}

/// ```abnf
/// iabs_path      = "/" ipath_segments
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 74)
pub fn iabs_path<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IabsPath, i, Cat((Lit("/"), ipath_segments::<V, M>)))
}

/// ```abnf
/// irel_path      = irel_segment [ iabs_path ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 77)
pub fn irel_path<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IrelPath, i, Cat((irel_segment::<V, M>, Opt(iabs_path::<V, M>))))
}

/// ```abnf
/// irel_segment   = 1*( iunreserved | escaped |
///                      ";" | "@" | "&" | "=" | "+" | "$" | "," )
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 80)
pub fn irel_segment<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IrelSegment, i, Scan(&IREL_SEGMENT_CHARS_0, 1, INF))
}

/// The characters of `iunreserved / escaped / ";" / "@" / "&" / "=" / "+" / "$" / ","`.
const IREL_SEGMENT_CHARS_0: Class = Class::new().chars("!$;=_~").range(0x26, 0x2E).range(0x30, 0x39).range(0x40, 0x5A).range(0x61, 0x7A).beyond_ascii(&[(0xA0, 0x2069), (0x206C, 0xD7FF), (0xF900, 0xFFFD), (0x10000, 0x1FFFD), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD), (0x40000, 0x4FFFD), (0x50000, 0x5FFFD), (0x60000, 0x6FFFD), (0x70000, 0x7FFFD), (0x80000, 0x8FFFD), (0x90000, 0x9FFFD), (0xA0000, 0xAFFFD), (0xB0000, 0xBFFFD), (0xC0000, 0xCFFFD), (0xD0000, 0xDFFFD), (0xE0080, 0xEFFFD)]).pct_encoded_as(Rule::Iri2001Escaped)
    .expecting(&[Expected::Rule(Rule::Iri2001Iunreserved), Expected::Rule(Rule::Iri2001Escaped), Expected::Lit(";"), Expected::Lit("@"), Expected::Lit("&"), Expected::Lit("="), Expected::Lit("+"), Expected::Lit("$"), Expected::Lit(",")]);

/// ```abnf
/// iauthority     = server | ireg_name
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 84)
pub fn iauthority<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Iauthority, i, Choice::of(2, (
        Ahead(&IAUTHORITY_AHEAD_0, server::<V, M>),
        First(&IAUTHORITY_FIRST_1, ireg_name::<V, M>),
    )))
}

/// What may follow `server` in `iauthority`.
const IAUTHORITY_AHEAD_0: Set = Set::new().chars("#/?").end_of_input();

/// What can start `ireg_name` in `iauthority`.
const IAUTHORITY_FIRST_1: Set = Set::new().chars("!=_~").range(0x24, 0x2E).range(0x30, 0x3B).range(0x40, 0x5A).range(0x61, 0x7A).non_ascii();

/// ```abnf
/// ireg_name      = 1*( iunreserved | escaped | "$" | "," |
///                      ";" | ":" | "@" | "&" | "=" | "+" )
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 87)
pub fn ireg_name<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IregName, i, Scan(&IREG_NAME_CHARS_0, 1, INF))
}

/// The characters of `iunreserved / escaped / "$" / "," / ";" / ":" / "@" / "&" / "=" / "+"`.
const IREG_NAME_CHARS_0: Class = Class::new().chars("!$=_~").range(0x26, 0x2E).range(0x30, 0x3B).range(0x40, 0x5A).range(0x61, 0x7A).beyond_ascii(&[(0xA0, 0x2069), (0x206C, 0xD7FF), (0xF900, 0xFFFD), (0x10000, 0x1FFFD), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD), (0x40000, 0x4FFFD), (0x50000, 0x5FFFD), (0x60000, 0x6FFFD), (0x70000, 0x7FFFD), (0x80000, 0x8FFFD), (0x90000, 0x9FFFD), (0xA0000, 0xAFFFD), (0xB0000, 0xBFFFD), (0xC0000, 0xCFFFD), (0xD0000, 0xDFFFD), (0xE0080, 0xEFFFD)]).pct_encoded_as(Rule::Iri2001Escaped)
    .expecting(&[Expected::Rule(Rule::Iri2001Iunreserved), Expected::Rule(Rule::Iri2001Escaped), Expected::Lit("$"), Expected::Lit(","), Expected::Lit(";"), Expected::Lit(":"), Expected::Lit("@"), Expected::Lit("&"), Expected::Lit("="), Expected::Lit("+")]);

/// ```abnf
/// ipath_segments = isegment *( "/" isegment )
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 91)
pub fn ipath_segments<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001IpathSegments, i, Cat((isegment::<V, M>, Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))))))
}

/// ```abnf
/// isegment       = *ipchar *( ";" iparam )
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 94)
pub fn isegment<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Isegment, i, Cat((
        Scan(&IPCHAR_CHARS, 0, INF),
        Delimited {
            delimiter: b';',
            rule: Rule::Iri2001Iparam,
            class: &IPCHAR_CHARS,
            repetition: Repeat(0, INF, Cat((Lit(";"), iparam::<V, M>))),
        },
    )))
}

/// The characters of `ipchar`.
const IPCHAR_CHARS: Class = Class::new().chars("!$=_~").range(0x26, 0x2E).range(0x30, 0x3A).range(0x40, 0x5A).range(0x61, 0x7A).beyond_ascii(&[(0xA0, 0x2069), (0x206C, 0xD7FF), (0xF900, 0xFFFD), (0x10000, 0x1FFFD), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD), (0x40000, 0x4FFFD), (0x50000, 0x5FFFD), (0x60000, 0x6FFFD), (0x70000, 0x7FFFD), (0x80000, 0x8FFFD), (0x90000, 0x9FFFD), (0xA0000, 0xAFFFD), (0xB0000, 0xBFFFD), (0xC0000, 0xCFFFD), (0xD0000, 0xDFFFD), (0xE0080, 0xEFFFD)]).pct_encoded_as(Rule::Iri2001Escaped)
    .expecting(&[Expected::Rule(Rule::Iri2001Ipchar)]);

/// ```abnf
/// iparam         = *ipchar
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 97)
pub fn iparam<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Iparam, i, Scan(&IPCHAR_CHARS, 0, INF))
}

/// ```abnf
/// ipchar         = iunreserved | escaped |
///                  ":" | "@" | "&" | "=" | "+" | "$" | ","
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 100)
pub fn ipchar<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Ipchar, i, Choice::of(9, (
        First(&IPCHAR_FIRST_0, iunreserved::<V, M>),
        First(&IPCHAR_FIRST_1, escaped::<V, M>),
        Lit(":"),
        Lit("@"),
        Lit("&"),
        Lit("="),
        Lit("+"),
        Lit("$"),
        Lit(","),
    )))
}

/// What can start `iunreserved` in `ipchar`.
const IPCHAR_FIRST_0: Set = Set::new().chars("!-._~").range(0x27, 0x2A).range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A).non_ascii();

/// What can start `escaped` in `ipchar`.
const IPCHAR_FIRST_1: Set = Set::new().chars("%");

/// ```abnf
/// iquery         = *iric
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 104)
pub fn iquery<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Iquery, i, Scan(&IRIC_CHARS, 0, INF))
}

/// ```abnf
/// ifragment      = *iric
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 107)
pub fn ifragment<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Ifragment, i, Scan(&IRIC_CHARS, 0, INF))
}

/// ```abnf
/// iric           = reserved | iunreserved | escaped
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 110)
pub fn iric<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Iric, i, Choice::of(3, (
        First(&IRIC_FIRST_0, reserved::<V, M>),
        First(&IRIC_FIRST_1, iunreserved::<V, M>),
        First(&IRIC_FIRST_2, escaped::<V, M>),
    )))
}

/// What can start `reserved` in `iric`.
const IRIC_FIRST_0: Set = Set::new().chars("$&+,/:;=?@[]");

/// What can start `iunreserved` in `iric`.
const IRIC_FIRST_1: Set = Set::new().chars("!-._~").range(0x27, 0x2A).range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A).non_ascii();

/// What can start `escaped` in `iric`.
const IRIC_FIRST_2: Set = Set::new().chars("%");

/// ```abnf
/// iunreserved    = ichar | unreserved
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 113)
pub fn iunreserved<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Iunreserved, i, Choice::of(2, (
        First(&IUNRESERVED_FIRST_0, ichar::<V, M>),
        First(&IUNRESERVED_FIRST_1, unreserved::<V, M>),
    )))
}

/// What can start `ichar` in `iunreserved`.
const IUNRESERVED_FIRST_0: Set = Set::new().non_ascii();

/// What can start `unreserved` in `iunreserved`.
const IUNRESERVED_FIRST_1: Set = Set::new().chars("!-._~").range(0x27, 0x2A).range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// ```abnf
/// ichar          = %xA0-2069 | %x206C-D7FF | %xF900-FFFD |
///                  %x10000-1FFFD | %x20000-2FFFD | %x30000-3FFFD |
///                  %x40000-4FFFD | %x50000-5FFFD | %x60000-6FFFD |
///                  %x70000-7FFFD | %x80000-8FFFD | %x90000-9FFFD |
///                  %xA0000-AFFFD | %xB0000-BFFFD | %xC0000-CFFFD |
///                  %xD0000-DFFFD | %xE0080-EFFFD
///                ; FIX 5: printed
///                ;   ichar = << any character of UCS [ISO10646] beyond U+0080,
///                ;             subject to limitations in Section 3.1. >>
///                ; Prose matches nothing (RFC 5234 §4), so as printed no IRI
///                ; could have a non-ASCII character. The code points are those
///                ; beyond ASCII that §3.1 does not forbid with a MUST NOT:
///                ; - not U+0080-009F: §3.1 e, "Control characters MUST NOT be
///                ;   used", names U+0080-U+009F (so "beyond U+0080" starts at
///                ;   U+00A0);
///                ; - not U+206A-206B: §3.1 e names "swapping" characters, the
///                ;   INHIBIT and ACTIVATE SYMMETRIC SWAPPING format controls (the
///                ;   other four deprecated controls of U+206C-206F are not named
///                ;   and stay);
///                ; - not U+E0000-E007F: §3.1 e, "plane-14 language tag
///                ;   characters" (the Tags block, U+E0001 and U+E0020-E007F);
///                ; - not U+D800-DFFF: §3.1 f, "Code points reserved for
///                ;   surrogates MUST NOT be used";
///                ; - not U+E000-F8FF, U+F0000-FFFFD, U+100000-10FFFD: §3.1 f,
///                ;   "Code points reserved for private use MUST NOT be used";
///                ; - not U+nFFFE-nFFFF in any plane: not characters of the UCS
///                ;   (ISO 10646 never assigns them), and the prose says "any
///                ;   character".
///                ; Kept: unassigned code points (a grammar cannot follow the
///                ; versions of Unicode), U+FDD0-FDEF (made noncharacters by
///                ; Unicode 3.1 in March 2001, after the draft), and what §3.1 b,
///                ; c and d only say "should" be avoided (look-alikes, symbols,
///                ; dingbats, full-width forms): a SHOULD is not a grammar rule.
///                ; §3.1 g (Normalization Form C) constrains sequences, not code
///                ; points, and is not in the grammar either.
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 116)
pub fn ichar<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Ichar, i, Choice::from(0, 17, true, (
        Ahead(&ICHAR_AHEAD_0, Range(0xA0, 0x2069)),
        Ahead(&ICHAR_AHEAD_1, Range(0x206C, 0xD7FF)),
        Ahead(&ICHAR_AHEAD_2, Range(0xF900, 0xFFFD)),
        Ahead(&ICHAR_AHEAD_3, Range(0x10000, 0x1FFFD)),
        Ahead(&ICHAR_AHEAD_4, Range(0x20000, 0x2FFFD)),
        Ahead(&ICHAR_AHEAD_5, Range(0x30000, 0x3FFFD)),
        Ahead(&ICHAR_AHEAD_6, Range(0x40000, 0x4FFFD)),
        Ahead(&ICHAR_AHEAD_7, Range(0x50000, 0x5FFFD)),
        Ahead(&ICHAR_AHEAD_8, Range(0x60000, 0x6FFFD)),
        Ahead(&ICHAR_AHEAD_9, Range(0x70000, 0x7FFFD)),
        Ahead(&ICHAR_AHEAD_10, Range(0x80000, 0x8FFFD)),
        Choice::from(11, 17, false, (
            Ahead(&ICHAR_AHEAD_11, Range(0x90000, 0x9FFFD)),
            Ahead(&ICHAR_AHEAD_12, Range(0xA0000, 0xAFFFD)),
            Ahead(&ICHAR_AHEAD_13, Range(0xB0000, 0xBFFFD)),
            Ahead(&ICHAR_AHEAD_14, Range(0xC0000, 0xCFFFD)),
            Ahead(&ICHAR_AHEAD_15, Range(0xD0000, 0xDFFFD)),
            Range(0xE0080, 0xEFFFD),
        )),
    )))
}

/// What may follow `%xA0-2069` in `ichar`.
const ICHAR_AHEAD_0: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x206C-D7FF` in `ichar`.
const ICHAR_AHEAD_1: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%xF900-FFFD` in `ichar`.
const ICHAR_AHEAD_2: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x10000-1FFFD` in `ichar`.
const ICHAR_AHEAD_3: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x20000-2FFFD` in `ichar`.
const ICHAR_AHEAD_4: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x30000-3FFFD` in `ichar`.
const ICHAR_AHEAD_5: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x40000-4FFFD` in `ichar`.
const ICHAR_AHEAD_6: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x50000-5FFFD` in `ichar`.
const ICHAR_AHEAD_7: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x60000-6FFFD` in `ichar`.
const ICHAR_AHEAD_8: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x70000-7FFFD` in `ichar`.
const ICHAR_AHEAD_9: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x80000-8FFFD` in `ichar`.
const ICHAR_AHEAD_10: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%x90000-9FFFD` in `ichar`.
const ICHAR_AHEAD_11: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%xA0000-AFFFD` in `ichar`.
const ICHAR_AHEAD_12: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%xB0000-BFFFD` in `ichar`.
const ICHAR_AHEAD_13: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%xC0000-CFFFD` in `ichar`.
const ICHAR_AHEAD_14: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What may follow `%xD0000-DFFFD` in `ichar`.
const ICHAR_AHEAD_15: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// ```abnf
/// reserved       = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" |
///                  "$" | "," | "[" | "]"
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 153)
pub fn reserved<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Reserved, i, Choice::of(12, (
        Lit(";"),
        Lit("/"),
        Lit("?"),
        Lit(":"),
        Lit("@"),
        Lit("&"),
        Lit("="),
        Lit("+"),
        Lit("$"),
        Lit(","),
        Lit("["),
        Lit("]"),
    )))
}

/// ```abnf
/// unreserved     = alphanum | mark
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 157)
pub fn unreserved<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Unreserved, i, Choice::of(2, (
        First(&UNRESERVED_FIRST_0, alphanum::<V, M>),
        First(&UNRESERVED_FIRST_1, mark::<V, M>),
    )))
}

/// What can start `alphanum` in `unreserved`.
const UNRESERVED_FIRST_0: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `mark` in `unreserved`.
const UNRESERVED_FIRST_1: Set = Set::new().chars("!-._~").range(0x27, 0x2A);

/// ```abnf
/// mark           = "-" | "_" | "." | "!" | "~" | "*" | "'" |
///                  "(" | ")"
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 160)
pub fn mark<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Mark, i, Choice::of(9, (
        Lit("-"),
        Lit("_"),
        Lit("."),
        Lit("!"),
        Lit("~"),
        Lit("*"),
        Lit("'"),
        Lit("("),
        Lit(")"),
    )))
}

/// ```abnf
/// escaped        = "%" HEXDIG HEXDIG
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 164)
pub fn escaped<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Escaped, i, Cat((Lit("%"), super::hexdig::<V, M>, super::hexdig::<V, M>)))
}

/// ```abnf
/// server         = [ [ userinfo "@" ] hostport ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 167)
pub fn server<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Server, i, Opt(Cat((
        Opt(Ahead(&SERVER_AHEAD_0, Cat((userinfo::<V, M>, Lit("@"))))),
        hostport::<V, M>,
    ))))
}

/// What may follow `[ userinfo "@" ]` in `server`.
const SERVER_AHEAD_0: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5B).range(0x61, 0x7A);

/// ```abnf
/// userinfo       = *( unreserved | escaped |
///                     ";" | ":" | "&" | "=" | "+" | "$" | "," )
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 170)
pub fn userinfo<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Userinfo, i, Scan(&USERINFO_CHARS_0, 0, INF))
}

/// The characters of `unreserved / escaped / ";" / ":" / "&" / "=" / "+" / "$" / ","`.
const USERINFO_CHARS_0: Class = Class::new().chars("!$=_~").range(0x26, 0x2E).range(0x30, 0x3B).range(0x41, 0x5A).range(0x61, 0x7A).pct_encoded_as(Rule::Iri2001Escaped)
    .expecting(&[Expected::Rule(Rule::Iri2001Unreserved), Expected::Rule(Rule::Iri2001Escaped), Expected::Lit(";"), Expected::Lit(":"), Expected::Lit("&"), Expected::Lit("="), Expected::Lit("+"), Expected::Lit("$"), Expected::Lit(",")]);

/// ```abnf
/// hostport       = host [ ":" port ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 174)
pub fn hostport<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Hostport, i, Cat((host::<V, M>, Opt(Cat((Lit(":"), port::<V, M>))))))
}

/// ```abnf
/// host           = hostname | IPv4address | IPv6reference
///                ; Printed IPv6reference here and ipv6reference below, as in
///                ; RFC 2732; rule names are case-insensitive, so it is one rule.
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 177)
pub fn host<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Host, i, Choice::of(3, (
        First(&HOST_FIRST_1, Ahead(&HOST_AHEAD_0, hostname::<V, M>)),
        First(&HOST_FIRST_2, ipv4address::<V, M>),
        First(&HOST_FIRST_3, ipv6reference::<V, M>),
    )))
}

/// What may follow `hostname` in `host`.
const HOST_AHEAD_0: Set = Set::new().chars("#/:?").end_of_input();

/// What can start `hostname` in `host`.
const HOST_FIRST_1: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `IPv4address` in `host`.
const HOST_FIRST_2: Set = Set::new().range(0x30, 0x39);

/// What can start `IPv6reference` in `host`.
const HOST_FIRST_3: Set = Set::new().chars("[");

/// ```abnf
/// ipv6reference  = "[" IPv6address "]"
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 182)
pub fn ipv6reference<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Ipv6reference, i, Cat((Lit("["), ipv6address::<V, M>, Lit("]"))))
}

/// ```abnf
/// hostname       = *( domainlabel "." ) toplabel [ "." ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 185)
pub fn hostname<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Hostname, i, Cat((
        Repeat(0, INF, Ahead(&HOSTNAME_AHEAD_0, Cat((domainlabel::<V, M>, Lit("."))))),
        toplabel::<V, M>,
        Scan(&HOSTNAME_CHARS_1, 0, 1),
    )))
}

/// What may follow `*( domainlabel "." )` in `hostname`.
const HOSTNAME_AHEAD_0: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// The characters of `"."`.
const HOSTNAME_CHARS_1: Class = Class::new().chars(".")
    .expecting(&[Expected::Lit(".")]);

/// ```abnf
/// domainlabel    = alphanum | alphanum *( alphanum | "-" ) alphanum
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 188)
pub fn domainlabel<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Domainlabel, i, Choice::of(2, (
        First(&DOMAINLABEL_FIRST_1, Ahead(&DOMAINLABEL_AHEAD_0, alphanum::<V, M>)),
        First(&DOMAINLABEL_FIRST_4, Cat((
            alphanum::<V, M>,
            Repeat(0, INF, Ahead(&DOMAINLABEL_AHEAD_3, Alt((First(&DOMAINLABEL_FIRST_2, alphanum::<V, M>), Lit("-"))))),
            alphanum::<V, M>,
        ))),
    )))
}

/// What may follow `alphanum` in `domainlabel`.
const DOMAINLABEL_AHEAD_0: Set = Set::new().chars(".").end_of_input();

/// What can start `alphanum` in `domainlabel`.
const DOMAINLABEL_FIRST_1: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `alphanum` in `domainlabel`.
const DOMAINLABEL_FIRST_2: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// What may follow `*( alphanum / "-" )` in `domainlabel`.
const DOMAINLABEL_AHEAD_3: Set = Set::new().chars("-").range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `alphanum *( alphanum / "-" ) alphanum` in `domainlabel`.
const DOMAINLABEL_FIRST_4: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// ```abnf
/// toplabel       = alpha | alpha *( alphanum | "-" ) alphanum
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 191)
pub fn toplabel<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Toplabel, i, Choice::of(2, (
        First(&TOPLABEL_FIRST_1, Ahead(&TOPLABEL_AHEAD_0, alpha::<V, M>)),
        First(&TOPLABEL_FIRST_4, Cat((
            alpha::<V, M>,
            Repeat(0, INF, Ahead(&TOPLABEL_AHEAD_3, Alt((First(&TOPLABEL_FIRST_2, alphanum::<V, M>), Lit("-"))))),
            alphanum::<V, M>,
        ))),
    )))
}

/// What may follow `alpha` in `toplabel`.
const TOPLABEL_AHEAD_0: Set = Set::new().chars("#./:?").end_of_input();

/// What can start `alpha` in `toplabel`.
const TOPLABEL_FIRST_1: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `alphanum` in `toplabel`.
const TOPLABEL_FIRST_2: Set = Set::new().range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// What may follow `*( alphanum / "-" )` in `toplabel`.
const TOPLABEL_AHEAD_3: Set = Set::new().chars("-").range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `alpha *( alphanum / "-" ) alphanum` in `toplabel`.
const TOPLABEL_FIRST_4: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// ```abnf
/// IPv6address    = hexpart [ ":" IPv4address ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 194)
pub fn ipv6address<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Ipv6address, i, Cat((hexpart::<V, M>, Opt(Cat((Lit(":"), ipv4address::<V, M>))))))
}

/// ```abnf
/// IPv4address    = 1*3DIGIT "." 1*3DIGIT "." 1*3DIGIT "." 1*3DIGIT
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 197)
pub fn ipv4address<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Ipv4address, i, Cat((
        Scan(&DIGIT_CHARS, 1, 3),
        Lit("."),
        Scan(&DIGIT_CHARS, 1, 3),
        Lit("."),
        Scan(&DIGIT_CHARS, 1, 3),
        Lit("."),
        Scan(&DIGIT_CHARS, 1, 3),
    )))
}

/// The characters of `DIGIT`.
const DIGIT_CHARS: Class = Class::new().range(0x30, 0x39)
    .expecting(&[Expected::Rule(Rule::Iri2001Digit)]);

/// ```abnf
/// IPv6prefix     = hexpart "/" 1*2DIGIT
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 200)
pub fn ipv6prefix<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Ipv6prefix, i, Cat((hexpart::<V, M>, Lit("/"), Scan(&DIGIT_CHARS, 1, 2))))
}

/// ```abnf
/// hexpart        = hexseq | hexseq "::" [ hexseq ] | "::" [ hexseq ]
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 203)
pub fn hexpart<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Hexpart, i, Choice::of(3, (
        First(&HEXPART_FIRST_1, Ahead2(&HEXPART_AHEAD_0, hexseq::<V, M>)),
        First(&HEXPART_FIRST_2, Cat((hexseq::<V, M>, Lit("::"), Opt(hexseq::<V, M>)))),
        First(&HEXPART_FIRST_3, Cat((Lit("::"), Opt(hexseq::<V, M>)))),
    )))
}

/// What may follow `hexseq` in `hexpart`, two characters deep: one character
/// cannot tell it from a longer alternative.
const HEXPART_AHEAD_0: Set2 = Set2::new(Set::new().chars("/:]").end_of_input(), &[
    (Set::new().chars("/:"), Set::new().range(0x30, 0x39)),
    (Set::new().chars("]"), Set::new().chars("#/:?").end_of_input()),
]);

/// What can start `hexseq` in `hexpart`.
const HEXPART_FIRST_1: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What can start `hexseq "::" [ hexseq ]` in `hexpart`.
const HEXPART_FIRST_2: Set = Set::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66);

/// What can start `"::" [ hexseq ]` in `hexpart`.
const HEXPART_FIRST_3: Set = Set::new().chars(":");

/// ```abnf
/// hexseq         = hex4 *( ":" hex4)
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 206)
pub fn hexseq<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Hexseq, i, Cat((
        hex4::<V, M>,
        Repeat(0, INF, Ahead(&HEXSEQ_AHEAD_0, Cat((Lit(":"), hex4::<V, M>)))),
    )))
}

/// What may follow `*( ":" hex4 )` in `hexseq`.
const HEXSEQ_AHEAD_0: Set = Set::new().chars("/:]").end_of_input();

/// ```abnf
/// hex4           = 1*4HEXDIG
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 209)
pub fn hex4<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Hex4, i, Scan(&HEXDIG_CHARS, 1, 4))
}

/// The characters of `HEXDIG`.
const HEXDIG_CHARS: Class = Class::new().range(0x30, 0x39).range(0x41, 0x46).range(0x61, 0x66)
    .expecting(&[Expected::Rule(Rule::Hexdig)]);

/// ```abnf
/// port           = *DIGIT
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 212)
pub fn port<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Port, i, Scan(&DIGIT_CHARS, 0, INF))
}

/// ```abnf
/// scheme         = alpha *( alpha | digit | "+" | "-" | "." )
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 215)
pub fn scheme<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Scheme, i, Cat((alpha::<V, M>, Scan(&SCHEME_CHARS_0, 0, INF))))
}

/// The characters of `alpha / digit / "+" / "-" / "."`.
const SCHEME_CHARS_0: Class = Class::new().chars("+-.").range(0x30, 0x39).range(0x41, 0x5A).range(0x61, 0x7A)
    .expecting(&[Expected::Rule(Rule::Iri2001Alpha), Expected::Rule(Rule::Iri2001Digit), Expected::Lit("+"), Expected::Lit("-"), Expected::Lit(".")]);

/// ```abnf
/// alphanum       = alpha | digit
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 218)
pub fn alphanum<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Alphanum, i, Choice::of(2, (
        First(&ALPHANUM_FIRST_0, alpha::<V, M>),
        First(&ALPHANUM_FIRST_1, digit::<V, M>),
    )))
}

/// What can start `alpha` in `alphanum`.
const ALPHANUM_FIRST_0: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `digit` in `alphanum`.
const ALPHANUM_FIRST_1: Set = Set::new().range(0x30, 0x39);

/// ```abnf
/// alpha          = lowalpha | upalpha
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 221)
pub fn alpha<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Alpha, i, Choice::of(2, (
        First(&ALPHA_FIRST_1, Ahead(&ALPHA_AHEAD_0, lowalpha::<V, M>)),
        First(&ALPHA_FIRST_2, upalpha::<V, M>),
    )))
}

/// What may follow `lowalpha` in `alpha`.
const ALPHA_AHEAD_0: Set = Set::new().chars("!=]_~").range(0x23, 0x3B).range(0x3F, 0x5B).range(0x61, 0x7A).non_ascii().end_of_input();

/// What can start `lowalpha` in `alpha`.
const ALPHA_FIRST_1: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// What can start `upalpha` in `alpha`.
const ALPHA_FIRST_2: Set = Set::new().range(0x41, 0x5A).range(0x61, 0x7A);

/// ```abnf
/// lowalpha       = "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i" |
///                  "j" | "k" | "l" | "m" | "n" | "o" | "p" | "q" | "r" |
///                  "s" | "t" | "u" | "v" | "w" | "x" | "y" | "z"
///                ; Quoted strings are case-insensitive (RFC 5234 §2.3, as in
///                ; RFC 822), so lowalpha matches "A" too; alpha, the one rule
///                ; that uses it, is the same 52 letters either way.
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 224)
pub fn lowalpha<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Lowalpha, i, Choice::from(0, 26, true, (
        Lit("a"),
        Lit("b"),
        Lit("c"),
        Lit("d"),
        Lit("e"),
        Lit("f"),
        Lit("g"),
        Lit("h"),
        Lit("i"),
        Lit("j"),
        Lit("k"),
        Choice::from(11, 26, true, (
            Lit("l"),
            Lit("m"),
            Lit("n"),
            Lit("o"),
            Lit("p"),
            Lit("q"),
            Lit("r"),
            Lit("s"),
            Lit("t"),
            Lit("u"),
            Lit("v"),
            Choice::from(22, 26, false, (Lit("w"), Lit("x"), Lit("y"), Lit("z"))),
        )),
    )))
}

/// ```abnf
/// upalpha        = "A" | "B" | "C" | "D" | "E" | "F" | "G" | "H" | "I" |
///                  "J" | "K" | "L" | "M" | "N" | "O" | "P" | "Q" | "R" |
///                  "S" | "T" | "U" | "V" | "W" | "X" | "Y" | "Z"
/// ```
///
/// draft-masinter-url-i18n-07 §2.2 (grammar/draft-masinter-url-i18n-07.abnf line 232)
pub fn upalpha<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Upalpha, i, Choice::from(0, 26, true, (
        Lit("A"),
        Lit("B"),
        Lit("C"),
        Lit("D"),
        Lit("E"),
        Lit("F"),
        Lit("G"),
        Lit("H"),
        Lit("I"),
        Lit("J"),
        Lit("K"),
        Choice::from(11, 26, true, (
            Lit("L"),
            Lit("M"),
            Lit("N"),
            Lit("O"),
            Lit("P"),
            Lit("Q"),
            Lit("R"),
            Lit("S"),
            Lit("T"),
            Lit("U"),
            Lit("V"),
            Choice::from(22, 26, false, (Lit("W"), Lit("X"), Lit("Y"), Lit("Z"))),
        )),
    )))
}

/// ```abnf
/// digit          = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" |
///                  "8" | "9"
/// ```
///
/// draft-masinter-url-i18n-07 §2.2, not printed: RFC 2396 Appendix A (grammar/draft-masinter-url-i18n-07.abnf line 237)
pub fn digit<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::Iri2001Digit, i, Choice::of(10, (
        Lit("0"),
        Lit("1"),
        Lit("2"),
        Lit("3"),
        Lit("4"),
        Lit("5"),
        Lit("6"),
        Lit("7"),
        Lit("8"),
        Lit("9"),
    )))
}
}
