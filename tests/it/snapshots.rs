//! Snapshot tests of parse trees and error messages, kept in the top-level `snapshots/`
//! folder and reviewed like code (README, "Testing").
//!
//! Organized like tree-sitter corpus tests: every snapshot starts with the input, the
//! grammar and the rule, and shows below them the tree the ABNF gives (one rule a line:
//! `rule start..end "text"`, byte offsets) or the error message. The snapshot's
//! `description` names the document the input comes from or what it tests.
//!
//! - `tree-*` snapshots: [`iri_grammar::parse_tree`] rendered with `to_text()`.
//! - `error-*` snapshots: the long message ([`MatchError::message`]) of
//!   [`iri_grammar::grammar::check`]'s error.
//!
//! Review a changed snapshot as a student of the RFCs would, then accept it with
//! `INSTA_UPDATE=always cargo test -p iri-grammar --test it snapshots` (or `cargo insta review`).

use iri_grammar::grammar::{check, Iri, Leiri, MatchError, Rule, Uri, Variant};
use iri_grammar::parse_tree;

/// Runs `f` with the settings every snapshot of this file shares.
fn with_settings(description: &str, f: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings.bind(f);
}

/// The lines every snapshot starts with: what was matched against what.
fn header<V: Variant>(rule: &str, input: &str) -> String {
    format!(
        "input:   {input:?}\ngrammar: {}\nrule:    {rule}\n\n",
        V::NAME.as_str()
    )
}

/// Snapshots the parse tree of `input` matched against the rule named `rule` in `V`.
fn snap_tree<V: Variant>(name: &str, rule: &str, input: &str, description: &str) {
    let tree = parse_tree::<V>(rule, input)
        .unwrap_or_else(|e| panic!("{input:?} should match {rule} ({}): {e}", V::NAME.as_str()));
    let content = header::<V>(rule, input) + &tree.to_text();
    with_settings(description, || insta::assert_snapshot!(name, content));
}

/// Snapshots the message of the error of `input` matched against the rule named `rule` in `V`.
fn snap_error<V: Variant>(name: &str, rule: &str, input: &str, description: &str) {
    let r = Rule::named_in::<V>(rule)
        .unwrap_or_else(|| panic!("the {} grammar has a rule {rule}", V::NAME.as_str()));
    let err = check::<V>(r, input).unwrap_err_or_panic(input, rule);
    let content = header::<V>(rule, input) + "error: " + &err + "\n";
    with_settings(description, || insta::assert_snapshot!(name, content));
}

trait UnwrapErr {
    fn unwrap_err_or_panic(self, input: &str, rule: &str) -> String;
}

impl UnwrapErr for Result<(), MatchError> {
    fn unwrap_err_or_panic(self, input: &str, rule: &str) -> String {
        match self {
            Ok(()) => panic!("{input:?} should not match {rule}"),
            Err(e) => e.message(),
        }
    }
}

/// `tree!(test_name, Variant, "rule", input, "description")`: one test, one snapshot
/// named `tree-<test_name>` (underscores become hyphens).
macro_rules! tree {
    ($name:ident, $v:ty, $rule:literal, $input:expr, $description:expr) => {
        #[test]
        fn $name() {
            let name = format!("tree-{}", stringify!($name).replace('_', "-"));
            snap_tree::<$v>(&name, $rule, &$input, $description);
        }
    };
}

/// `error!(test_name, Variant, "rule", input, "description")`: one test, one snapshot
/// named `error-<test_name>`. A message that reads wrong is a library bug to fix, not a
/// snapshot to accept.
macro_rules! error {
    ($name:ident, $v:ty, $rule:literal, $input:expr, $description:expr) => {
        #[test]
        fn $name() {
            let name = format!("error-{}", stringify!($name).replace('_', "-"));
            snap_error::<$v>(&name, $rule, &$input, $description);
        }
    };
}

/// RFC 3987 §4.4 writes its bidi examples in Bidi Notation, upper-case letters standing
/// for right-to-left letters; its [BidiEx] page also shows them in Hebrew. This maps
/// `A`..`V` to the 22 Hebrew letters in alphabetical order (alef, bet, ..., tav; no final
/// forms) so that the examples are real bidi IRIs.
fn hebrew(bidi_notation: &str) -> String {
    const LETTERS: [char; 22] = [
        'א', 'ב', 'ג', 'ד', 'ה', 'ו', 'ז', 'ח', 'ט', 'י', 'כ', 'ל', 'מ', 'נ', 'ס', 'ע', 'פ', 'צ',
        'ק', 'ר', 'ש', 'ת',
    ];
    bidi_notation
        .chars()
        .map(|c| match c {
            'A'..='V' => LETTERS[(c as u32 - 'A' as u32) as usize],
            'W'..='Z' => panic!("no Hebrew letter for {c} in Bidi Notation"),
            c => c,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Trees: the examples of RFC 3987.
// ---------------------------------------------------------------------------------------

tree!(
    rfc3987_red_rose_uri,
    Uri,
    "URI",
    "http://www.example.org/red%09ros%C3%A9#red",
    "RFC 3987 §3.1: the URI that the IRI http://www.example.org/red%09rosé#red maps to"
);
tree!(
    rfc3987_red_rose_iri,
    Iri,
    "IRI",
    "http://www.example.org/red%09rosé#red",
    "RFC 3987 §3.1: an IRI with a percent-encoding (kept) and a non-ASCII character"
);
tree!(
    rfc3987_old_italic_iri,
    Iri,
    "IRI",
    "http://example.com/𐌀𐌁𐌂",
    "RFC 3987 §3.1: non-BMP characters (U+10300..U+10302, 4 bytes each) in a path"
);
tree!(
    rfc3987_old_italic_uri,
    Uri,
    "URI",
    "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82",
    "RFC 3987 §3.1: the URI of http://example.com/𐌀𐌁𐌂"
);
tree!(
    rfc3987_resume_host_iri,
    Iri,
    "IRI",
    "http://résumé.example.org",
    "RFC 3987 §3.1: an ireg-name with non-ASCII characters; the path is ipath-abempty, empty"
);
tree!(
    rfc3987_resume_host_pct_uri,
    Uri,
    "URI",
    "http://r%C3%A9sum%C3%A9.example.org",
    "RFC 3987 §3.1: the percent-encoded form of http://résumé.example.org"
);
tree!(
    rfc3987_resume_host_punycode_uri,
    Uri,
    "URI",
    "http://xn--rsum-bpad.example.org",
    "RFC 3987 §3.1: the ToASCII (punycode) form of http://résumé.example.org"
);
tree!(
    rfc3987_durst_uri,
    Uri,
    "URI",
    "http://www.example.org/D%C3%BCrst",
    "RFC 3987 §3.2.1: a URI whose percent-encodings are UTF-8"
);
tree!(
    rfc3987_durst_iri,
    Iri,
    "IRI",
    "http://www.example.org/Dürst",
    "RFC 3987 §3.2.1: the IRI of http://www.example.org/D%C3%BCrst"
);
tree!(
    rfc3987_durst_latin1_uri,
    Uri,
    "URI",
    "http://www.example.org/D%FCrst",
    "RFC 3987 §3.2.1: a percent-encoding that is not UTF-8 is still a pct-encoded"
);
tree!(
    rfc3987_natto_uri,
    Uri,
    "URI",
    "http://xn--99zt52a.example.org/%e2%80%ae",
    "RFC 3987 §3.2.1: lower-case hex digits in a pct-encoded (HEXDIG is case-insensitive)"
);
tree!(
    rfc3987_natto_iri,
    Iri,
    "IRI",
    "http://納豆.example.org/%E2%80%AE",
    "RFC 3987 §3.2.1: the IRI with the host 納豆 (ToUnicode of xn--99zt52a)"
);
tree!(
    rfc3987_resume_html_iri,
    Iri,
    "IRI",
    "http://www.example.org/résumé.html",
    "RFC 3987 §3.2 and §6.4: résumé in a path"
);
tree!(
    rfc3987_resume_latin1_fragment_iri,
    Iri,
    "IRI",
    "http://www.example.org/r%E9sum%E9.xml#résumé",
    "RFC 3987 §6.4: a legacy (ISO 8859-1) percent-encoded path and a UTF-8 fragment"
);
tree!(
    rfc3987_tilde_pct_uri,
    Uri,
    "URI",
    "http://example.org/%7euser",
    "RFC 3987 §5.3.2.3: %7e is a pct-encoded, equivalent to ~ after normalization"
);
tree!(
    rfc3987_case_uri,
    Uri,
    "URI",
    "HTTP://www.EXAMPLE.com/",
    "RFC 3987 §5.3.2.1: scheme and host in upper case"
);
tree!(
    rfc3987_normalization_a_iri,
    Iri,
    "IRI",
    "example://a/b/c/%7Bfoo%7D/rosé",
    "RFC 3987 §5.3.2: the first of two IRIs equivalent after syntax-based normalization"
);
tree!(
    rfc3987_normalization_b_iri,
    Iri,
    "IRI",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9",
    "RFC 3987 §5.3.2: the second; dot-segments are plain isegments for the grammar"
);

// RFC 3987 §4.4, Examples 1-10, logical order, upper case letters as Hebrew letters.
tree!(
    rfc3987_bidi_example_1,
    Iri,
    "IRI",
    hebrew("http://ab.CDEFGH.ij/kl/mn/op.html"),
    "RFC 3987 §4.4 Example 1 (Bidi Notation http://ab.CDEFGH.ij/kl/mn/op.html, A-V as Hebrew letters)"
);
tree!(
    rfc3987_bidi_example_2,
    Iri,
    "IRI",
    hebrew("http://ab.CDE.FGH/ij/kl/mn/op.html"),
    "RFC 3987 §4.4 Example 2 (Bidi Notation http://ab.CDE.FGH/ij/kl/mn/op.html, A-V as Hebrew letters)"
);
tree!(
    rfc3987_bidi_example_3,
    Iri,
    "IRI",
    hebrew("http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV"),
    "RFC 3987 §4.4 Example 3 (Bidi Notation http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV, A-V as Hebrew letters)"
);
tree!(
    rfc3987_bidi_example_4,
    Iri,
    "IRI",
    hebrew("http://AB.CD.ef/gh/IJ/KL.html"),
    "RFC 3987 §4.4 Example 4 (Bidi Notation http://AB.CD.ef/gh/IJ/KL.html, A-V as Hebrew letters)"
);
tree!(
    rfc3987_bidi_example_5,
    Iri,
    "IRI",
    hebrew("http://ab.cd.EF/GH/ij/kl.html"),
    "RFC 3987 §4.4 Example 5 (Bidi Notation http://ab.cd.EF/GH/ij/kl.html, A-V as Hebrew letters)"
);
tree!(
    rfc3987_bidi_example_6,
    Iri,
    "IRI",
    hebrew("http://ab.CD.EF/GH/IJ/kl.html"),
    "RFC 3987 §4.4 Example 6 (Bidi Notation http://ab.CD.EF/GH/IJ/kl.html, A-V as Hebrew letters)"
);
tree!(
    rfc3987_bidi_example_7,
    Iri,
    "IRI",
    hebrew("http://ab.CDE123FGH.ij/kl/mn/op.html"),
    "RFC 3987 §4.4 Example 7 (Bidi Notation http://ab.CDE123FGH.ij/kl/mn/op.html, A-V as Hebrew letters)"
);
tree!(
    rfc3987_bidi_example_8,
    Iri,
    "IRI",
    hebrew("http://ab.cd.ef/GH1/2IJ/KL.html"),
    "RFC 3987 §4.4 Example 8 (Bidi Notation http://ab.cd.ef/GH1/2IJ/KL.html, A-V as Hebrew letters): \
     not allowed by §4.2, but the grammar (check) accepts it; the bidi rules are lint's"
);
tree!(
    rfc3987_bidi_example_9,
    Iri,
    "IRI",
    hebrew("http://ab.cd.ef/GH%31/%32IJ/KL.html"),
    "RFC 3987 §4.4 Example 9 (Bidi Notation http://ab.cd.ef/GH%31/%32IJ/KL.html, A-V as Hebrew letters): \
     not allowed by §4.2, but the grammar (check) accepts it; the bidi rules are lint's"
);
tree!(
    rfc3987_bidi_example_10,
    Iri,
    "IRI",
    hebrew("http://ab.CDEFGH.123/kl/mn/op.html"),
    "RFC 3987 §4.4 Example 10 (Bidi Notation http://ab.CDEFGH.123/kl/mn/op.html, A-V as Hebrew letters): \
     allowed but not recommended"
);

// ---------------------------------------------------------------------------------------
// Trees: the examples of RFC 3986 §1.1.2 (URI) and §5.4 (URI-reference).
// ---------------------------------------------------------------------------------------

tree!(
    rfc3986_ftp,
    Uri,
    "URI",
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "RFC 3986 §1.1.2"
);
tree!(
    rfc3986_http,
    Uri,
    "URI",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "RFC 3986 §1.1.2"
);
tree!(
    rfc3986_ldap,
    Uri,
    "URI",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "RFC 3986 §1.1.2: an IP-literal host; \"?\" inside a query"
);
tree!(
    rfc3986_mailto,
    Uri,
    "URI",
    "mailto:John.Doe@example.com",
    "RFC 3986 §1.1.2: no authority; the path is path-rootless"
);
tree!(
    rfc3986_news,
    Uri,
    "URI",
    "news:comp.infosystems.www.servers.unix",
    "RFC 3986 §1.1.2: path-rootless"
);
tree!(
    rfc3986_tel,
    Uri,
    "URI",
    "tel:+1-816-555-1212",
    "RFC 3986 §1.1.2: path-rootless beginning with a sub-delim"
);
tree!(
    rfc3986_telnet,
    Uri,
    "URI",
    "telnet://192.0.2.16:80/",
    "RFC 3986 §1.1.2: an IPv4address host and a port"
);
tree!(
    rfc3986_urn,
    Uri,
    "URI",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "RFC 3986 §1.1.2: colons inside a path-rootless segment"
);
tree!(
    rfc3986_ref_scheme_g_h,
    Uri,
    "URI-reference",
    "g:h",
    "RFC 3986 §5.4.1: a reference with a scheme is a URI"
);
tree!(
    rfc3986_ref_g,
    Uri,
    "URI-reference",
    "g",
    "RFC 3986 §5.4.1: path-noscheme"
);
tree!(
    rfc3986_ref_dot_g,
    Uri,
    "URI-reference",
    "./g",
    "RFC 3986 §5.4.1: a dot-segment is a segment for the grammar"
);
tree!(
    rfc3986_ref_absolute_path,
    Uri,
    "URI-reference",
    "/g",
    "RFC 3986 §5.4.1: path-absolute"
);
tree!(
    rfc3986_ref_network_path,
    Uri,
    "URI-reference",
    "//g",
    "RFC 3986 §5.4.1: a network-path reference; the path is path-abempty, empty"
);
tree!(
    rfc3986_ref_query,
    Uri,
    "URI-reference",
    "?y",
    "RFC 3986 §5.4.1: path-empty and a query"
);
tree!(
    rfc3986_ref_fragment,
    Uri,
    "URI-reference",
    "#s",
    "RFC 3986 §5.4.1: path-empty and a fragment"
);
tree!(
    rfc3986_ref_params_query_fragment,
    Uri,
    "URI-reference",
    "g;x?y#s",
    "RFC 3986 §5.4.1: \";\" is a sub-delim inside a segment"
);
tree!(
    rfc3986_ref_empty,
    Uri,
    "URI-reference",
    "",
    "RFC 3986 §5.4.1: the empty reference is a relative-ref with path-empty"
);
tree!(
    rfc3986_ref_dot_dot_g,
    Uri,
    "URI-reference",
    "../g",
    "RFC 3986 §5.4.1"
);
tree!(
    rfc3986_ref_dot_dot_dot_dot,
    Uri,
    "URI-reference",
    "../..",
    "RFC 3986 §5.4.1"
);
tree!(
    rfc3986_ref_http_g,
    Uri,
    "URI-reference",
    "http:g",
    "RFC 3986 §5.4.2: a URI with path-rootless (\"for backward compatibility\")"
);

// ---------------------------------------------------------------------------------------
// Trees: hosts.
// ---------------------------------------------------------------------------------------

tree!(
    host_ipv4,
    Uri,
    "URI",
    "http://1.2.3.4/",
    "RFC 3986 §3.2.2: a dotted quad is an IPv4address (first match wins), not a reg-name"
);
tree!(
    host_ipv4_prefix_is_reg_name,
    Uri,
    "URI",
    "http://1.2.3.4.5/",
    "RFC 3986 §3.2.2: IPv4address matches only a prefix of 1.2.3.4.5, so the host is a reg-name"
);
tree!(
    host_leading_zeros_is_reg_name,
    Iri,
    "IRI",
    "http://01.02.03.004/",
    "RFC 3986 §3.2.2: dec-octet has no leading zeros, so the host is an ireg-name"
);
tree!(
    host_ipv4_extremes,
    Uri,
    "authority",
    "0.9.99.255:65535",
    "dec-octet at its bounds: 0, 9, 99, 255"
);
tree!(
    host_ipv6_loopback,
    Uri,
    "URI",
    "http://[::1]/",
    "RFC 3986 §3.2.2: [ *5( h16 \":\" ) h16 ] \"::\" h16 with nothing before the \"::\""
);
tree!(
    host_ipv6_unspecified,
    Iri,
    "IRI",
    "http://[::]/",
    "RFC 3986 §3.2.2: the last alternative, \"::\" alone"
);
tree!(
    host_ipv6_full,
    Uri,
    "URI",
    "http://[2001:db8:85a3:0:0:8a2e:370:7334]:8080/",
    "RFC 3986 §3.2.2: 6( h16 \":\" ) ls32, uncompressed, and a port"
);
tree!(
    host_ipv6_embedded_ipv4,
    Uri,
    "URI",
    "http://[::ffff:192.0.2.128]/",
    "RFC 3986 §3.2.2: an IPv4-mapped address, ls32 as IPv4address"
);
tree!(
    host_ipv6_embedded_ipv4_full,
    Leiri,
    "LEIRI",
    "http://[1:2:3:4:5:6:7.8.9.10]/",
    "RFC 3986 §3.2.2: 6( h16 \":\" ) ls32 with ls32 an IPv4address"
);
tree!(
    host_ipvfuture,
    Uri,
    "URI",
    "http://[v7.abc:def]/",
    "RFC 3986 §3.2.2: IPvFuture"
);
tree!(
    host_ipvfuture_upper_v,
    Iri,
    "IRI",
    "http://[V1F.a-b~c!$&'()*+,;=:]/",
    "RFC 3986 §3.2.2: \"v\" is case-insensitive in ABNF; every character IPvFuture allows"
);

// ---------------------------------------------------------------------------------------
// Trees: userinfo and port.
// ---------------------------------------------------------------------------------------

tree!(
    userinfo_and_port_uri,
    Uri,
    "URI",
    "ftp://user:pa%20ss@ftp.example.org:2121/pub",
    "RFC 3986 §3.2.1 and §3.2.3: userinfo with a colon and a pct-encoded, a port"
);
tree!(
    userinfo_and_port_iri,
    Iri,
    "IRI",
    "http://ñandú:contraseña@例え.jp:443/パス",
    "RFC 3987 §2.2: iuserinfo and ihost with non-ASCII characters"
);
tree!(
    empty_port_and_userinfo,
    Uri,
    "URI",
    "http://@example.org:/",
    "RFC 3986 §3.2: an empty userinfo and an empty port (port = *DIGIT)"
);

// ---------------------------------------------------------------------------------------
// Trees: every form of path, through the ipath rule and through references.
// ---------------------------------------------------------------------------------------

tree!(
    ipath_abempty,
    Iri,
    "ipath",
    "/a/b",
    "RFC 3987 §2.2: ipath-abempty is the first alternative of ipath to match all of /a/b"
);
tree!(
    ipath_abempty_double_slash,
    Iri,
    "ipath",
    "//a",
    "RFC 3987 §2.2: ipath-abempty allows an empty first segment (ipath-absolute does not)"
);
tree!(
    ipath_empty_input,
    Iri,
    "ipath",
    "",
    "RFC 3987 §2.2: ipath-abempty matches the empty string and comes before ipath-empty \
     (first match wins)"
);
tree!(
    ipath_noscheme,
    Iri,
    "ipath",
    "a/b:c",
    "RFC 3987 §2.2: ipath-noscheme (no colon in the first segment only)"
);
tree!(
    ipath_rootless,
    Iri,
    "ipath",
    "a:b/c",
    "RFC 3987 §2.2: a colon in the first segment: ipath-rootless"
);
tree!(
    path_noscheme_uri,
    Uri,
    "path",
    "a/b",
    "RFC 3986 §3.3: path-noscheme, RFC 3986 names"
);
tree!(
    ipath_absolute_in_iri,
    Iri,
    "IRI",
    "file:/etc/hosts",
    "RFC 3987 §2.2: ihier-part with ipath-absolute (no \"//\", so no authority)"
);
tree!(
    ipath_absolute_slash_only,
    Uri,
    "URI",
    "s:/",
    "RFC 3986 §3.3: path-absolute is \"/\" with the optional part absent"
);
tree!(
    ipath_empty_in_iri,
    Iri,
    "IRI",
    "about:",
    "RFC 3987 §2.2: ihier-part with ipath-empty"
);
tree!(
    ipath_empty_in_query_reference,
    Iri,
    "IRI-reference",
    "?ü=1",
    "RFC 3987 §2.2: irelative-part with ipath-empty and an iquery"
);
tree!(
    ipath_rootless_in_iri,
    Iri,
    "IRI",
    "urn:isbn:978-3-16-148410-0",
    "RFC 3987 §2.2: ihier-part with ipath-rootless"
);
tree!(
    ipath_noscheme_in_reference,
    Iri,
    "IRI-reference",
    "résumé/ü",
    "RFC 3987 §2.2: irelative-ref with ipath-noscheme"
);
tree!(
    path_abempty_rule,
    Uri,
    "path-abempty",
    "/a//b/",
    "RFC 3986 §3.3: path-abempty with empty segments"
);

// ---------------------------------------------------------------------------------------
// Trees: relative references.
// ---------------------------------------------------------------------------------------

tree!(
    irelative_ref_path_query_fragment,
    Iri,
    "irelative-ref",
    "../ros%C3%A9/ü?q=é#frag",
    "RFC 3987 §2.2: irelative-ref with every component but the authority"
);
tree!(
    irelative_ref_network_path,
    Iri,
    "irelative-ref",
    "//例.jp/パス",
    "RFC 3987 §2.2: a network-path reference with non-ASCII host and path"
);
tree!(
    relative_ref_uri,
    Uri,
    "relative-ref",
    "//[::1]:80?#",
    "RFC 3986 §4.2: relative-ref with authority, empty path, empty query and fragment"
);

// ---------------------------------------------------------------------------------------
// Trees: characters only LEIRIs allow, and private use in an IRI query.
// ---------------------------------------------------------------------------------------

tree!(
    leiri_space_and_delimiters,
    Leiri,
    "LEIRI-reference",
    "http://example.org/a b/<c>/\"d\"",
    "LEIRI §2: space, \"<\", \">\" and DQUOTE are in the LEIRI ucschar"
);
tree!(
    leiri_unwise,
    Leiri,
    "LEIRI-reference",
    "http://example.org/{x}|y\\z^`?{q}#`f`",
    "LEIRI §2: the unwise characters { } | \\ ^ ` in path, query and fragment"
);
tree!(
    leiri_controls,
    Leiri,
    "LEIRI-reference",
    "http://example.org/\u{0}\t\u{1F}\u{7F}\u{85}",
    "LEIRI §2: C0 controls (%x0-1F), DEL and C1 controls (%x7F-D7FF) in a path"
);
tree!(
    leiri_private_use_in_path,
    Leiri,
    "LEIRI-reference",
    "http://example.org/\u{E000}\u{F8FF}/\u{10FFFD}",
    "LEIRI §2: private-use characters (%xE000-FFFD, %x10000-10FFFF) in a path, \
     which an IRI allows only in the query"
);
tree!(
    leiri_relative,
    Leiri,
    "LEIRI-reference",
    "my file.xml#a b",
    "LEIRI §2: a relative LEIRI reference with spaces (an XML system identifier)"
);
tree!(
    leiri_bidi_formatting,
    Leiri,
    "LEIRI",
    "http://example.org/\u{202E}abc\u{202C}",
    "LEIRI §2: bidi formatting characters are in the LEIRI ucschar (RFC 3987 §4.1 lifted)"
);
tree!(
    iri_private_use_in_query,
    Iri,
    "IRI",
    "http://example.org/p?q=\u{E000}\u{F8FF}&r=\u{F0000}\u{10FFFD}",
    "RFC 3987 §2.2: iprivate is allowed in iquery"
);

// ---------------------------------------------------------------------------------------
// Trees: single rules by name (RFC 3986 names under Uri).
// ---------------------------------------------------------------------------------------

tree!(
    rule_dec_octet_255,
    Uri,
    "dec-octet",
    "255",
    "RFC 3986 §3.2.2: \"25\" %x30-35"
);
tree!(
    rule_dec_octet_249,
    Uri,
    "dec-octet",
    "249",
    "RFC 3986 §3.2.2: \"2\" %x30-34 DIGIT"
);
tree!(
    rule_dec_octet_0,
    Uri,
    "dec-octet",
    "0",
    "RFC 3986 §3.2.2: DIGIT"
);
tree!(
    rule_ipv6address_rfc3986_example,
    Uri,
    "IPv6address",
    "2001:db8::7",
    "RFC 3986 §1.1.2 and §3.2.2: [ *5( h16 \":\" ) h16 ] \"::\" h16"
);
tree!(
    rule_ipv6address_a_b,
    Uri,
    "IPv6address",
    "a::b",
    "RFC 3986 §3.2.2: a trap for ordered choice: [ *1( h16 \":\" ) h16 ] \"::\" must not \
     take \"a:\" as h16 \":\""
);
tree!(
    rule_ipv6address_7_groups_compressed,
    Uri,
    "IPv6address",
    "1:2:3:4:5:6::",
    "RFC 3986 §3.2.2: [ *6( h16 \":\" ) h16 ] \"::\""
);
tree!(
    rule_ipv6address_embedded_ipv4,
    Uri,
    "IPv6address",
    "64:ff9b::192.0.2.33",
    "RFC 3986 §3.2.2: compressed, ending in an IPv4address as ls32"
);
tree!(
    rule_ls32_ipv4,
    Uri,
    "ls32",
    "10.0.0.1",
    "RFC 3986 §3.2.2: ls32 = ( h16 \":\" h16 ) / IPv4address"
);
tree!(
    rule_ls32_h16_pair,
    Uri,
    "ls32",
    "ffff:0",
    "RFC 3986 §3.2.2: ls32 as h16 \":\" h16"
);
tree!(
    rule_pct_encoded,
    Uri,
    "pct-encoded",
    "%7e",
    "RFC 3986 §2.1: \"%\" HEXDIG HEXDIG, lower-case hex allowed"
);
tree!(
    rule_scheme,
    Uri,
    "scheme",
    "svn+ssh",
    "RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )"
);

// ---------------------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------------------

error!(
    space_in_path,
    Uri, "URI", "http://example.org/a b", "RFC 3986 §3.3: a space is not a pchar"
);
error!(
    pct_not_hex,
    Uri, "URI", "http://example.org/%zz", "RFC 3986 §2.1: pct-encoded needs two HEXDIG"
);
error!(
    pct_one_digit,
    Iri,
    "IRI",
    "http://example.org/%4",
    "RFC 3986 §2.1: pct-encoded needs two HEXDIG; the input ends after one"
);
error!(
    two_fragments,
    Iri, "IRI-reference", "#a#b", "RFC 3986 §3.5: \"#\" is not allowed inside a fragment"
);
error!(
    ipv6_two_double_colons,
    Uri, "URI", "http://[1::2::3]/", "RFC 3986 §3.2.2: \"::\" may appear only once"
);
error!(
    ipv6_nine_groups,
    Uri, "URI", "http://[1:2:3:4:5:6:7:8:9]/", "RFC 3986 §3.2.2: at most eight h16"
);
error!(
    ipv6_unclosed,
    Uri, "URI", "http://[::1", "RFC 3986 §3.2.2: an IP-literal ends with \"]\""
);
error!(
    ipv6_unclosed_with_path,
    Iri, "IRI", "http://[::1/a", "RFC 3986 §3.2.2: an IP-literal ends with \"]\""
);
error!(
    ipv6_zone_id,
    Iri,
    "IRI",
    "http://[fe80::1%25eth0]/",
    "RFC 3987 §2.2: the syntax does not support IPv6 zone identifiers"
);
error!(
    port_not_digits,
    Uri, "URI", "http://a:8x/", "RFC 3986 §3.2.3: port = *DIGIT"
);
error!(
    relative_reference_for_iri,
    Iri,
    "IRI",
    "rel/only",
    "RFC 3986 §4.2: a relative reference has no scheme, which IRI begins with (§3)"
);
error!(
    port_not_digits_after_userinfo,
    Uri,
    "URI",
    "http://u@a:8x/",
    "RFC 3986 §3.2.3: port = *DIGIT (with the userinfo given, \"x\" can only be in the port)"
);
error!(
    non_ascii_host_in_uri,
    Uri, "URI", "http://résumé/", "RFC 3986: a URI is ASCII; é is a ucschar of RFC 3987 only"
);
error!(
    private_use_in_iri_path,
    Iri,
    "IRI",
    "http://example.org/\u{E000}",
    "RFC 3987 §2.2: iprivate is allowed only in the query"
);
error!(
    less_than_in_iri,
    Iri,
    "IRI",
    "http://example.org/<a>",
    "RFC 3987 §2.2: \"<\" is in neither ipchar nor ucschar (a LEIRI allows it)"
);
error!(
    scheme_starts_with_digit,
    Iri, "IRI", "1http://a", "RFC 3986 §3.1: a scheme starts with ALPHA"
);
error!(
    scheme_starts_with_digit_reference,
    Uri,
    "URI-reference",
    "1http://a",
    "RFC 3986 §4.2: not a URI, and as a relative-ref the first segment may not have a colon"
);
error!(
    colon_in_first_segment,
    Iri,
    "irelative-ref",
    "a:b/c",
    "RFC 3987 §2.2: ipath-noscheme's first segment has no colon (use ./a:b/c)"
);
error!(
    dec_octet_256,
    Uri, "dec-octet", "256", "RFC 3986 §3.2.2: dec-octet is at most 255"
);
error!(
    ipv4_octet_256,
    Uri, "IPv4address", "1.2.3.256", "RFC 3986 §3.2.2: dec-octet is at most 255"
);
error!(
    control_in_iri_path,
    Iri,
    "IRI",
    "http://example.org/a\tb",
    "RFC 3987 §2.2: controls are not IRI characters (a LEIRI allows them)"
);
error!(
    control_c1_in_iri_path,
    Iri,
    "IRI",
    "http://example.org/\u{85}",
    "RFC 3987 §2.2: ucschar starts at U+00A0; U+0085 is a C1 control"
);
error!(
    del_in_uri_query,
    Uri, "URI", "http://example.org/?a\u{7F}", "RFC 3986 §3.4: DEL is not a query character"
);
error!(
    empty_scheme,
    Uri, "scheme", "", "RFC 3986 §3.1: a scheme has at least one character"
);
error!(
    empty_iri,
    Iri, "IRI", "", "RFC 3987 §2.2: an IRI has a scheme; the empty string is only an IRI-reference"
);
error!(
    leiri_lone_percent,
    Leiri,
    "LEIRI",
    "http://a/%",
    "LEIRI §2: \"%\" is not in the LEIRI ucschar; it must start a pct-encoded"
);
error!(
    leiri_hash_in_fragment,
    Leiri, "LEIRI-reference", "a b#c#d", "LEIRI §2: \"#\" stays a delimiter in a LEIRI"
);
error!(
    rfc3987_charset_label,
    Iri,
    "IRI",
    "http://www.example.org/ros[iso-8859-1]é",
    "RFC 3987 Appendix A.4: a rejected design; \"[\" is not allowed in a path"
);
