//! The error module's tests: the ASCII literals, the offset `blame` asks for, and the
//! inputs an error keeps.

use super::*;

#[test]
fn ascii_literals_are_the_characters() {
    assert_eq!(ASCII.len(), 128);
    for b in 0..128u8 {
        assert_eq!(
            ascii_literal(char::from(b)),
            Some(&*char::from(b).to_string())
        );
    }
    assert_eq!(ascii_literal('é'), None);
}

/// `failure_offset` is the offset of the whole explanation, for the rules whose
/// failures `blame` places, on the pieces a component is made of.
#[test]
fn the_failure_offset_is_the_explanations() {
    fn each<V: Variant>() {
        let pieces = [
            "",
            "a",
            "[",
            "]",
            ":",
            "::",
            "[:",
            "1",
            "25",
            "256",
            ".",
            "v",
            "%",
            "%4",
            "@",
            " ",
            "é",
            "\u{10000}",
            "x",
        ];
        for rule in [
            Rule::Scheme,
            Rule::Iuserinfo,
            Rule::Ihost,
            Rule::Port,
            Rule::IriReference,
        ] {
            for a in pieces {
                for b in pieces {
                    for c in pieces {
                        let s = alloc::format!("{a}{b}{c}");
                        if let Err(e) = crate::grammar::check::<V>(rule, &s) {
                            assert_eq!(
                                failure_offset::<V>(rule, &s),
                                e.byte_offset(),
                                "{:?} {rule:?} {s:?}",
                                V::NAME
                            );
                        }
                    }
                }
            }
        }
    }
    each::<crate::grammar::Uri>();
    each::<crate::grammar::Iri>();
    each::<crate::grammar::Leiri>();
}

/// Inputs at either side of `Kept::INLINE`, some ending in a character of
/// several bytes.
fn around_inline() -> Vec<String> {
    let mut inputs = Vec::new();
    for len in Kept::INLINE - 3..=Kept::INLINE + 3 {
        for tail in ["x", "é", "\u{10000}"] {
            let mut input = String::from("http://a/ b");
            while input.len() + tail.len() <= len {
                input.push('p');
            }
            input.push_str(tail);
            inputs.push(input);
        }
    }
    inputs
}

/// Each is kept whole, in place or boxed by its length. (The `unsafe` of
/// `Kept::as_str` is checked by Miri on this test: `cargo +nightly miri test -p
/// iri-grammar --lib kept_inputs_are_the_inputs`.)
#[test]
fn kept_inputs_are_the_inputs() {
    for input in around_inline() {
        let kept = Kept::new(&input);
        assert_eq!(kept.as_str(), input);
        assert_eq!(
            matches!(kept, Kept::Inline { .. }),
            input.len() <= Kept::INLINE,
            "{} bytes",
            input.len()
        );
        assert_eq!(kept.clone().as_str(), input);
    }
}

/// An error keeps its input and explains it as the combinators do, in the
/// grammar it was made in.
#[test]
fn errors_keep_their_input_and_explain_it() {
    use crate::grammar::{Iri, Uri};
    for input in around_inline() {
        let e = MatchError::new::<Iri>(Rule::IriReference, &input);
        assert_eq!(e.input(), input);
        assert_eq!(*e.details(), explain_in::<Iri>(Rule::IriReference, &input));
        assert_eq!((e.byte_offset(), e.found()), (9, Some(' ')));
        assert_eq!(e.clone(), e);
        assert!(format!("{e:?}").contains(&input));
        let uri = MatchError::new::<Uri>(Rule::Iri, &input);
        assert_eq!(uri.grammar(), VariantName::Uri);
        assert_eq!(uri.start_rule(), "URI");
        assert_eq!(uri.byte_offset(), 9);
    }
}
