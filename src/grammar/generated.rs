// Generated from grammar/*.abnf by abnf/src/codegen/mod.rs. Do not edit.
// To regenerate: IRI_GRAMMAR_REGENERATE=1 cargo test --test generated

//! The combinators generated from `grammar/`: one per rule of RFC 3987 §2.2,
//! of the RFC 3986 rules it uses unchanged, and of the RFC 5234 core rules.
//! Each carries its ABNF and its source; see `abnf/src/codegen/mod.rs` for how
//! ABNF becomes nom combinators, and `runtime.rs` for the combinators used.

use super::runtime::*;
use super::{Variant, VariantName, Uri, Iri, Leiri};

/// A rule of the generated rule set (named as in RFC 3987; see [`Rule::name_in`]).
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
    ];

    /// The name in RFC 3987 (or in RFC 3986 / RFC 5234 for rules RFC 3987 uses unchanged).
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
        }
    }

    /// The name in RFC 3986, or `None` if the URI grammar has no such rule.
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
        }
    }

    /// The name in the LEIRI note (`IRI` becomes `LEIRI`).
    pub const fn leiri_name(self) -> &'static str {
        match self {
            Rule::Iri => "LEIRI",
            Rule::IhierPart => "ihier-part",
            Rule::IriReference => "LEIRI-reference",
            Rule::AbsoluteIri => "absolute-LEIRI",
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
        }
    }

    /// The ABNF text of the rule, as in its grammar file.
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
        }
    }

    /// Where the rule is defined: document, section, file and line.
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
        }
    }

    /// True for a rule that always matches exactly one character or one `pct-encoded`: parse trees fold it into its parent.
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
        }
    }

    /// The definition error messages show beside a character rule in RFC 3986, when it is a short list of alternatives (rules and quoted strings).
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
        }
    }

    /// The definition error messages show beside a character rule in RFC 3987, when it is a short list of alternatives (rules and quoted strings).
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
        }
    }

    /// The definition error messages show beside a character rule in the LEIRI note, when it is a short list of alternatives (rules and quoted strings).
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
        }
    }

    /// The name of the rule in a variant's grammar, or `None` if that grammar lacks it.
pub const fn name_in(self, variant: VariantName) -> Option<&'static str> {
match variant {
VariantName::Uri => self.uri_name(),
VariantName::Iri => Some(self.iri_name()),
VariantName::Leiri => Some(self.leiri_name()),
}
}

/// The short definition of [`Rule::short_definition_iri`] in a variant's grammar.
pub const fn short_definition(self, variant: VariantName) -> Option<&'static str> {
match variant {
VariantName::Uri => self.short_definition_uri(),
VariantName::Iri => self.short_definition_iri(),
VariantName::Leiri => self.short_definition_leiri(),
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
    rule::<V, M, _>(Rule::IpathAbempty, i, Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))))
}

/// ```abnf
/// ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 55)
pub fn ipath_absolute<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathAbsolute, i, Cat((
        Lit("/"),
        Opt(Cat((isegment_nz::<V, M>, Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>)))))),
    )))
}

/// ```abnf
/// ipath-noscheme = isegment-nz-nc *( "/" isegment )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 57)
pub fn ipath_noscheme<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathNoscheme, i, Cat((isegment_nz_nc::<V, M>, Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))))))
}

/// ```abnf
/// ipath-rootless = isegment-nz *( "/" isegment )
/// ```
///
/// RFC 3987 §2.2 (grammar/rfc3987.abnf line 59)
pub fn ipath_rootless<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {
    rule::<V, M, _>(Rule::IpathRootless, i, Cat((isegment_nz::<V, M>, Repeat(0, INF, Cat((Lit("/"), isegment::<V, M>))))))
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

/// The characters of `ipchar`.
const IPCHAR_CHARS: Class = Class::new().chars("!$=_~").range(0x26, 0x2E).range(0x30, 0x3B).range(0x40, 0x5A).range(0x61, 0x7A).pct_encoded().variant_rule(UCSCHAR)
    .expecting(&[Expected::Rule(Rule::Ipchar)]);

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
/// A variant rule: empty under `Uri`; `Iri` uses RFC 3987 §2.2 (grammar/rfc3987.abnf line 86); `Leiri` uses W3C Working Group Note §2 (grammar/leiri.abnf line 12).
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
/// A variant rule: empty under `Uri`; `Iri` uses RFC 3987 §2.2 (grammar/rfc3987.abnf line 94); `Leiri` uses RFC 3987 §2.2 (grammar/rfc3987.abnf line 94).
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
