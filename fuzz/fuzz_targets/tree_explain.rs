//! Parse trees (`tree::tree_of`) and error explanations (`check(..)` errors).
//!
//! For a rule chosen as in `grammar_oracle` (option bytes, or a hash of the text) and
//! each grammar's reference rule, in each grammar:
//! - a tree exists exactly when `is_match` holds; its root covers the whole input,
//!   every node lies inside its parent, children are in order and do not overlap,
//!   every offset is a character boundary; the text, DOT and node texts can be written;
//! - otherwise the error (the same from `tree_of` and `check`) points into the input at
//!   a character boundary, names the character found there, and its message (which
//!   must not panic) says where.
#![no_main]

use iri_grammar::grammar::{check, is_match, Rule};
use iri_grammar::tree::{tree_of, Node, ParseTree};
use iri_grammar::Variant;
use libfuzzer_sys::fuzz_target;

fn nested(t: &ParseTree<'_>, n: Node<'_>) {
    let s = t.input;
    assert!(n.start() <= n.end() && n.end() <= s.len(), "{n:?} in {s:?}");
    assert!(
        s.is_char_boundary(n.start()) && s.is_char_boundary(n.end()),
        "{n:?} in {s:?}"
    );
    let _ = n.text();
    if let Some((k, of)) = n.alternative() {
        assert!(1 <= k && k <= of, "{n:?}");
    }
    let mut at = n.start();
    for c in n.children() {
        assert!(
            c.start() >= at && c.end() <= n.end(),
            "{c:?} outside or before its place in {n:?}, {s:?}"
        );
        at = c.end();
        nested(t, c);
    }
}

fn one<V: Variant>(rule: Rule, s: &str) {
    let matched = is_match::<V>(rule, s);
    match tree_of::<V>(rule, s) {
        Ok(t) => {
            assert!(matched, "{:?} tree without a match: {s:?}", V::NAME);
            assert_eq!(
                (t.root().start(), t.root().end()),
                (0, s.len()),
                "root of {s:?}"
            );
            assert_eq!(t.root().id(), rule);
            nested(&t, t.root());
            let _ = t.to_text();
            let _ = t.to_dot();
        }
        Err(e) => {
            assert!(
                !matched,
                "{:?} {} matches {s:?} but has no tree: {e}",
                V::NAME,
                rule.name::<V>()
            );
            let c = check::<V>(rule, s).unwrap_err();
            assert_eq!(c, e, "check and tree_of explain {s:?} differently");
            assert!(
                e.byte_offset() <= s.len() && s.is_char_boundary(e.byte_offset()),
                "{e:?}"
            );
            assert_eq!(
                e.char_offset(),
                s[..e.byte_offset()].chars().count(),
                "{s:?}"
            );
            assert_eq!(e.found(), s[e.byte_offset()..].chars().next(), "{s:?}");
            let message = e.message();
            assert!(
                message.starts_with(&format!("at char {}", e.char_offset())),
                "{message}"
            );
            let _ = format!("{e} {e:#}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let ([s], mut u) = iri_fuzz::split::<1>(data);
    let pick: usize = if u.is_empty() {
        s.bytes().fold(7usize, |h, b| {
            h.wrapping_mul(31).wrapping_add(usize::from(b))
        })
    } else {
        u.arbitrary().unwrap_or(0)
    };
    for g in iri_fuzz::GRAMMARS {
        let rules: Vec<Rule> = Rule::of(g.name()).map(|(_, r)| r).collect();
        let rule = rules[pick % rules.len()];
        iri_fuzz::with_variant!(g, V => {
            one::<V>(rule, &s);
            one::<V>(Rule::IriReference, &s);
        });
    }
});
