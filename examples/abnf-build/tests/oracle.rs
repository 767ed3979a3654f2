//! The generated parsers against the ABNF oracle on strings of every rule and near
//! misses: the code a build.rs gets is the grammar's language.

use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::Grammar;
use iri_grammar_abnf_example::{rfc3339, rfc6874};

/// A rule's name and its generated whole-input test.
type Rule<'a> = (&'a str, fn(&str) -> bool);

fn agree(files: &[&str], rules: &[Rule<'_>]) {
    let g = Grammar::read_files(files).unwrap();
    let oracle = Oracle::of(&g);
    let mut gen = Generator::of(&g, 3339);
    for (name, parser) in rules {
        let mut accepted = 0;
        for k in 0..2000 {
            let s = gen.generate(name).unwrap();
            let s = if k % 2 == 0 { s } else { gen.mutate(&s) };
            let abnf = oracle.matches(name, &s).unwrap();
            assert_eq!(parser(&s), abnf, "{name} {s:?}");
            accepted += usize::from(abnf);
        }
        assert!(
            accepted > 500 && accepted < 2000,
            "{name}: {accepted} of 2000 matched"
        );
    }
}

#[test]
fn rfc3339_parsers_are_the_abnf() {
    agree(
        &["grammars/rfc3339.abnf"],
        &[
            ("date-time", rfc3339::date_time_full),
            ("full-date", rfc3339::full_date_full),
            ("partial-time", rfc3339::partial_time_full),
            ("time-offset", rfc3339::time_offset_full),
        ],
    );
}

#[test]
fn rfc6874_parsers_are_the_abnf() {
    agree(
        &[
            "../../grammar/rfc3986.abnf",
            "../../tests/grammars/rfc6874.abnf",
        ],
        &[
            ("IP-literal", rfc6874::ip_literal_full),
            ("IPv6addrz", rfc6874::ipv6addrz_full),
            ("ZoneID", rfc6874::zoneid_full),
            ("URI-reference", rfc6874::uri_reference_full),
            ("host", rfc6874::host_full),
        ],
    );
}
