//! The oracle's trees and errors (`iri_grammar_abnf::oracle::explain`, what `iri --abnf`
//! shows for a user's grammar) against the combinators' for the built-in grammars:
//! the same tree for every generated string, the same failing position for every
//! near miss. 300 strings a grammar in `cargo test`; long mode:
//! `IRI_ORACLE_CASES=100000 cargo test --release -p iri-grammar --test it oracle_explains --
//! --nocapture` (with one known limit in the 2001 draft's grammar: see
//! `two_character_lookahead_fails_where_the_abnf_does`).

use iri_grammar::grammar::{check, Iri, Iri2001, Leiri, Rule, Uri, Variant};
use iri_grammar::tree::tree_of;
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};

fn compare<V: Variant>(cases: usize) {
    let g = Grammars::builtin();
    let oracle = Oracle::new(&g, V::NAME);
    let rule = Rule::named_in::<V>(Rule::IriReference.name::<V>()).unwrap();
    let name = rule.name::<V>();
    let mut gen = Generator::new(&g, V::NAME, 2001);
    let mut late = 0;
    for _ in 0..cases {
        let s = gen.generate(name).unwrap();
        let ours = oracle.tree(name, &s).unwrap().to_text();
        let theirs = tree_of::<V>(rule, &s).unwrap().to_text();
        assert_eq!(ours, theirs, "{:?} {s:?}", V::NAME);
        let m = gen.mutate(&s);
        if let Err(e) = check::<V>(rule, &m) {
            let o = oracle.explain(name, &m).unwrap();
            if known_limit(V::NAME, &m, o.char_offset, e.char_offset()) {
                late += 1;
                continue;
            }
            assert_eq!(
                o.char_offset,
                e.char_offset(),
                "{:?} {m:?}: oracle {o}, combinators {e}",
                V::NAME
            );
        }
    }
    println!("{:?}: {cases} strings and near misses, {late} refusals one character late at a `/` (the known limit)", V::NAME);
}

/// The limit `two_character_lookahead_fails_where_the_abnf_does` shows: in the 2001
/// draft, a `/` that the lookahead after `hexseq` admits (it may follow `hexpart` in
/// `IPv6prefix`) where the ABNF's failure is.
fn known_limit(v: VariantName, m: &str, oracle_offset: usize, offset: usize) -> bool {
    v == VariantName::Iri2001
        && m.chars().nth(oracle_offset) == Some('/')
        && offset == oracle_offset + 1
}

/// Strings a grammar: `IRI_ORACLE_CASES`, or 300.
fn cases() -> usize {
    std::env::var("IRI_ORACLE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300)
}

#[test]
fn oracle_trees_and_error_positions_are_the_combinators() {
    compare::<Uri>(cases());
    compare::<Iri>(cases());
    compare::<Leiri>(cases());
    compare::<Iri2001>(cases());
    let _ = VariantName::EVERY;
}

/// Near misses found by a run of 100,000 cases a grammar: in the 2001 draft, `hexpart =
/// hexseq | hexseq "::" [ hexseq ]` needs two characters of lookahead after `hexseq`,
/// and where they are refused the ABNF's farthest failure is the second when the first
/// may follow (`[1:2]H` fails at the `H`). Were the first refused instead, each of these
/// would be placed one character early.
#[test]
fn two_character_lookahead_fails_where_the_abnf_does() {
    let g = Grammars::builtin();
    let oracle = Oracle::new(&g, VariantName::Iri2001);
    let rule = Rule::named_in::<Iri2001>("IRI-reference").unwrap();
    // Each near miss, and how many characters past the ABNF's failure ours is.
    // Known limit, the last: FOLLOW(hexpart) holds "/" because `IPv6prefix = hexpart
    // "/" 1*2DIGIT`, a rule of the draft that no reference reaches; so in `[7B6F:D//`
    // the first `/` passes the lookahead and the failure is placed at the second, one
    // character past the ABNF's (9).
    for (m, late) in [
        ("//[1:2]H", 0),
        ("//[Bb5:DAef:C:b]H:82614?\u{efffc}#%aC", 0),
        ("//@[C]1a6:573.5.755.496]:83#", 0),
        ("//[f]6:65?\u{602a}+#", 0),
        ("//[7B6F:D//", 1),
    ] {
        let o = oracle.explain("IRI-reference", m).unwrap();
        let e = check::<Iri2001>(rule, m).unwrap_err();
        assert_eq!(
            o.char_offset + late,
            e.char_offset(),
            "{m:?}: oracle {o}, combinators {e}"
        );
    }
    assert_eq!(
        oracle
            .explain("IRI-reference", "//[7B6F:D//")
            .unwrap()
            .char_offset,
        9
    );
}

/// The oracle's tree of a whole IRI, written as text, is the combinators' to the
/// letter (`abnf/src/oracle/explain/` writes its trees in the format of `ParseTree::to_text`).
#[test]
fn a_whole_iri_has_the_combinators_tree() {
    let g = Grammars::builtin();
    let iri = Oracle::new(&g, VariantName::Iri);
    let input = "http://résumé.example.org/ros%C3%A9?q=1#f";
    let ours = iri.tree("IRI-reference", input).unwrap().to_text();
    let theirs = iri_grammar::parse_tree::<Iri>("IRI-reference", input)
        .unwrap()
        .to_text();
    assert_eq!(ours, theirs);
}
