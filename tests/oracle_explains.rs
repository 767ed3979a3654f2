//! The oracle's trees and errors (`iri_grammar_abnf::explain`, what `iri --abnf`
//! shows for a user's grammar) against the combinators' for the built-in grammars:
//! the same tree for every generated string, the same failing position for every
//! near miss.

use iri_grammar::grammar::{check, Iri, Iri2001, Leiri, Rule, Uri, Variant};
use iri_grammar::tree::tree_of;
use iri_grammar_abnf::generate::Generator;
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::{Grammars, VariantName};

fn compare<V: Variant>(cases: usize) {
    let g = Grammars::builtin();
    let oracle = Oracle::new(&g, V::NAME);
    let rule = Rule::named_in::<V>(Rule::IriReference.name::<V>()).unwrap();
    let name = rule.name::<V>();
    let mut gen = Generator::new(&g, V::NAME, 2001);
    for _ in 0..cases {
        let s = gen.generate(name).unwrap();
        let ours = oracle.tree(name, &s).unwrap().to_text();
        let theirs = tree_of::<V>(rule, &s).unwrap().to_text();
        assert_eq!(ours, theirs, "{:?} {s:?}", V::NAME);
        let m = gen.mutate(&s);
        if let Err(e) = check::<V>(rule, &m) {
            let o = oracle.explain(name, &m).unwrap();
            assert_eq!(
                o.char_offset,
                e.char_offset(),
                "{:?} {m:?}: oracle {o}, combinators {e}",
                V::NAME
            );
        }
    }
}

#[test]
fn oracle_trees_and_error_positions_are_the_combinators() {
    compare::<Uri>(300);
    compare::<Iri>(300);
    compare::<Leiri>(300);
    compare::<Iri2001>(300);
    let _ = VariantName::EVERY;
}
