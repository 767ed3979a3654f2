//! The placer's tests: planted programs and where their disagreements are named.

use super::*;
use iri_grammar_abnf::model::builtin::files;
use iri_grammar_abnf::{strings::counterexamples, Grammar, Grammars, VariantName};

/// Valid strings of every part of a URI reference, to try rules in.
const POOL: &[&str] = &[
    "http://user:pw@example.com:80/a/b?q=1#f",
    "//1.2.3.4/x",
    "//[::1.2.3.4]",
    "//[v1.x]/a",
    "a/b;c",
    "/~x/'y'",
    "?a/b",
    "//h~/p",
    "urn:x",
    "ftp://h",
    "a+b:c",
];

fn placer<'o, 'g>(o: &'o Oracle<'g>, g: &Grammars, v: VariantName, rule: &str) -> Placer<'o, 'g> {
    Placer::new(o, rule, &counterexamples::alphabet(g, v), POOL)
}

#[test]
fn a_larger_dec_octet_is_found_in_dec_octet() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Iri);
    // A program whose dec-octet takes 256, and leading zeros.
    let program = |t: &str| {
        let t = t
            .replace("256", "255")
            .replace(".00", ".0")
            .replace("[::00", "[::0");
        o.matches("IRI-reference", &t).ok()
    };
    let mut p = placer(&o, &g, VariantName::Iri, "IRI-reference");
    for s in ["//[::256.0.0.0]", "//[::0.0.0.00]", "//[::00.0.0.0]"] {
        assert_eq!(p.accepted(s, &mut |t| program(t)).rule, "dec-octet", "{s}");
    }
}

#[test]
fn a_longer_h16_is_found_in_h16_wherever_it_is() {
    // A program whose h16 takes five digits (`1*5HEXDIG`): `[::aaaaa]` is mended
    // by deleting an `a` (an `h16`) and by inserting a `:` (`a:aaaa`, an
    // `ls32`); the deletion says where the program let the digit through, so
    // that both examples make one group.
    let places = accepted_by_planted(
        "h16 = 1*5HEXDIG\n",
        &["//[1:2::3]", "//[1::2:3]", "//[1:2::1.2.3.4]", "//[ab::]"],
        &["//[::aaaaa]", "//[aaaaa::]"],
    );
    for (s, place) in places {
        assert_eq!(place.rule, "h16", "{s}");
    }
}

/// Where the placer names each of `accepted`, invalid strings that a program with
/// `planted` layered over RFC 3986 accepts; `pool` adds valid strings to try rules
/// in.
fn accepted_by_planted<'s>(
    planted: &str,
    pool: &[&str],
    accepted: &[&'s str],
) -> Vec<(&'s str, Place)> {
    (accepted.iter())
        .map(|&s| (s, accepted_among_by_planted(planted, pool, s).0))
        .collect()
}

/// [`Placer::accepted_among`] of `s` under a program with `planted` layered over
/// RFC 3986.
fn accepted_among_by_planted(planted: &str, pool: &[&str], s: &str) -> (Place, Vec<String>) {
    let g = Grammar::from_abnf(&[
        ("core.abnf", files::CORE),
        ("rfc3986.abnf", files::RFC3986),
        ("planted.abnf", planted),
    ])
    .unwrap();
    let program = Oracle::of(&g);
    let builtin = Grammars::builtin();
    let o = Oracle::new(&builtin, VariantName::Uri);
    let alphabet = counterexamples::alphabet(&builtin, VariantName::Uri);
    let pool: Vec<&str> = POOL.iter().chain(pool).copied().collect();
    let mut p = Placer::new(&o, "URI-reference", &alphabet, &pool);
    p.accepted_among(s, &mut |t| program.matches("URI-reference", t).ok())
}

#[test]
fn a_fragment_taking_a_hash_is_not_named_at_a_rule_it_did_not_begin() {
    // `##` fails where a `pct-encoded` of the fragment could begin: the piece
    // before it, `#`, begins none, though a `#` put for a `pct-encoded` just
    // before a fragment (`/a%41#`) is let through. `pchar` and `fragment` taking
    // `#` take the same strings.
    let places = accepted_by_planted(
        "fragment = *( pchar / \"/\" / \"?\" / \"#\" )\n",
        &["/a%41#", "?%41#b", "a:%41#", "/%41#c"],
        &["##"],
    );
    let place = &places[0].1;
    assert!(
        ["fragment", "pchar"].contains(&place.rule.as_str()),
        "{place:?}"
    );
}

#[test]
fn a_bare_ipv6_host_is_named_at_the_authority() {
    // A program whose host takes an IPv6 address without brackets: `//@::` is
    // mended by no edit that keeps `::` a host; the oracle fails at the second
    // `:`, in the `authority` it reads `//@:` with, and `@::` put for an
    // authority is let through. A `:` put for a `reg-name` before a port's `:`
    // is let through too, but the oracle reads it as the port's `:` and fails
    // after it (no `reg-name` begins with `:`): with the `authority` around it
    // let through, that says nothing of the `reg-name`.
    let places = accepted_by_planted(
        "host = IP-literal / IPv4address / reg-name / IPv6address\n",
        &["//a:1/", "//u@h:2", "//b:3?q", "//x@y:4#f"],
        &["//::", "//@::"],
    );
    for (s, place) in places {
        assert!(
            ["authority", "host"].contains(&place.rule.as_str()),
            "{s}: {place:?}"
        );
    }
}

#[test]
fn a_rejected_string_is_found_where_the_edits_bring_agreement() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Uri);
    let mut p = placer(&o, &g, VariantName::Uri, "URI-reference");
    // A program that rejects a port of more than 4 digits: deleting a digit of
    // the port brings agreement back; deleting a `/` of `//` does too, but moves
    // the parse to another alternative of relative-part, and does not count.
    let mut short_ports = |t: &str| {
        let port_ok = o.tree("URI-reference", t).ok().is_none_or(|_| {
            t.rsplit_once(':')
                .is_none_or(|(_, p)| p.len() < 5 || !p.bytes().all(|b| b.is_ascii_digit()))
        });
        Some(o.matches("URI-reference", t).unwrap() && port_ok)
    };
    assert_eq!(p.rejected("//:00000", &mut short_ports).rule, "port");
    assert_eq!(p.rejected("a:b", &mut |_| Some(false)).rule, "URI");
    // A program that refuses `~` in a host only is named at reg-name; one that
    // refuses it everywhere, at unreserved.
    let mut no_tilde_in_host = |t: &str| {
        let host = t
            .strip_prefix("//")
            .map(|r| r.split('/').next().unwrap_or(""));
        Some(o.matches("URI-reference", t).unwrap() && !host.is_some_and(|h| h.contains('~')))
    };
    assert_eq!(p.rejected("//~", &mut no_tilde_in_host).rule, "reg-name");
    let mut no_tilde = |t: &str| Some(o.matches("URI-reference", t).unwrap() && !t.contains('~'));
    assert_eq!(p.rejected("~", &mut no_tilde).rule, "unreserved");
}

#[test]
fn an_accepted_scheme_character_is_named_at_scheme() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Uri);
    let mut p = placer(&o, &g, VariantName::Uri, "URI-reference");
    // A program whose scheme takes `_`: `a_:` is a scheme to it, not a path.
    let mut program = |t: &str| {
        let t = match t.split_once(':') {
            Some((scheme, rest)) => format!("{}:{rest}", scheme.replace('_', "a")),
            None => t.to_string(),
        };
        o.matches("URI-reference", &t).ok()
    };
    assert_eq!(p.accepted("a_:", &mut program).rule, "scheme");
}

#[test]
fn a_component_is_named_by_its_rule() {
    use iri_grammar::Component;
    assert_eq!(
        component_place(Component::Port, VariantName::Uri).rule,
        "port"
    );
    assert_eq!(
        component_place(Component::Host, VariantName::Iri).rule,
        "ihost"
    );
    assert_eq!(
        component_place(Component::Path, VariantName::Uri).rule,
        "path"
    );
}

#[test]
fn a_program_reading_a_path_for_an_authority_is_named_where_it_chooses() {
    // A program whose path-absolute may begin with an empty segment reads `//:a`
    // as a path. `:a` is let through wherever an authority is put (every
    // authority follows `//`), but `a` for a port is refused after `[::1]`, where
    // deleting a `/` makes no path: the program reads the string one character
    // away, and the rule choosing between authority and path is named.
    let places = accepted_by_planted(
        "path-absolute = \"/\" [ segment *( \"/\" segment ) ]\n",
        &[
            "//[::1]:5/a",
            "a://[::2]:80",
            "//[v1.x]:6",
            "b://[::3]:7?q",
            "//a:1/",
            "//u@h:2",
            "//b:3?q",
            "//x@y:4#f",
        ],
        &["//:a"],
    );
    for (s, place) in places {
        assert!(
            ["relative-part", "path-absolute"].contains(&place.rule.as_str()),
            "{s}: {place:?}"
        );
    }
}

#[test]
fn a_first_segment_taking_a_colon_is_named_at_its_rule() {
    // A program whose segment-nz-nc takes `:`. `:` put for an `unreserved` makes
    // an invalid string only in a first segment, so the `unreserved` says nothing
    // that `segment-nz-nc` does not. `a:`, put for another first segment, makes a
    // scheme: the `:` its neighbour `aa//:a` replaced is put back instead
    // (`~x:`), and `a://:a` is let through at `segment-nz-nc` too.
    let planted = "segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / \"@\" / \":\" )\n";
    let pool = ["~x/y", "-a?q", "%41b/c", "_/d#f", ".e", "//h~/p", "//ab/c"];
    let places = accepted_by_planted(planted, &pool, &[":"]);
    assert_eq!(places[0].1.rule, "segment-nz-nc", "{:?}", places[0]);
    let (_, among) = accepted_among_by_planted(planted, &pool, "a://:a");
    assert!(among.iter().any(|r| r == "segment-nz-nc"), "{among:?}");
}
