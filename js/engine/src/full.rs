//! The exports only the full module has (the feature `full`,
//! `js/iri_grammar_full.wasm`): validation in the module (for the rules the automata
//! leave to the combinators, and the 2001 draft's grammar, which has none), and
//! errors with their explanation. The glue loads it when a call needs it.

use iri_grammar::grammar::{self, describe_char};
use iri_grammar::{with_variant, MatchError};

use iri_grammar::grammar::Rule;

use crate::references::{answer, with_input, Json};
use crate::{variant, OUTPUT};

/// The rule numbered `r` (its index in `Rule::ALL`); the reference rule
/// (`IRI-reference`, `URI-reference`, `LEIRI-reference`) for anything else.
pub(crate) fn rule(r: u32) -> Rule {
    Rule::ALL
        .get(r as usize)
        .copied()
        .unwrap_or(Rule::IriReference)
}

// ---------------------------------------------------------------------------
// Validation

/// Whether `text` may hold a lone surrogate that TextEncoder wrote as U+FFFD.
fn has_replacement(text: &str) -> bool {
    text.contains('\u{FFFD}')
}

/// Whether all of the `len` input bytes match rule `r` of grammar `g`: 1 or 0, or 2
/// when they match and hold U+FFFD while `may_hold_surrogates` (the glue wrote
/// non-ASCII with TextEncoder): the glue then looks for lone surrogates itself.
/// Runs the compiled automaton (`grammar::matches_dyn`), not a parse.
#[no_mangle]
pub extern "C" fn iri_is_valid(g: u32, r: u32, len: u32, may_hold_surrogates: u32) -> u32 {
    with_input(0..len as usize, |text| {
        if !grammar::matches_dyn(variant(g), rule(r), text) {
            0
        } else if may_hold_surrogates != 0 && has_replacement(text) {
            2
        } else {
            1
        }
    })
}

/// The separator of a batch: U+FFFF, which no valid string holds (see the module
/// docs), written as UTF-8.
const SEPARATOR: &str = "\u{FFFF}";

/// `iri_is_valid` for `n` strings joined by U+FFFF in the `len` input bytes: one
/// byte per string in the output (0, 1, or 2 as above), and `n`; -1 when the text
/// has another number of pieces (a string held U+FFFF itself: the glue then asks
/// string by string).
#[no_mangle]
pub extern "C" fn iri_is_valid_many(g: u32, r: u32, len: u32, n: u32) -> i32 {
    let (v, rule) = (variant(g), rule(r));
    let verdicts = with_input(0..len as usize, |text| {
        let mut verdicts = Vec::with_capacity(n as usize);
        for piece in text.split(SEPARATOR) {
            if verdicts.len() == n as usize {
                return None;
            }
            verdicts.push(if !grammar::matches_dyn(v, rule, piece) {
                0
            } else if has_replacement(piece) {
                2
            } else {
                1
            });
        }
        (verdicts.len() == n as usize).then_some(verdicts)
    });
    match verdicts {
        Some(bytes) => {
            OUTPUT.with_borrow_mut(|out| *out = bytes);
            n as i32
        }
        None => -1,
    }
}

/// Whether all of the `len` input bytes match rule `r` of grammar `g`: 0, or the
/// length of a JSON error in the output (see `error_json`).
#[no_mangle]
pub extern "C" fn iri_check(g: u32, r: u32, len: u32) -> u32 {
    let v = variant(g);
    let result = with_input(0..len as usize, |text| {
        with_variant!(v, V => grammar::check::<V>(rule(r), text))
            .map_err(|e| error_json(&e, text, 0))
    });
    match result {
        Ok(()) => 0,
        Err(json) => answer(json),
    }
}

// ---------------------------------------------------------------------------
// Errors out

/// Offsets into `text` at byte `b`: UTF-16 code units (JavaScript's string index;
/// a U+FFFF stand-in is one unit, like the surrogate it stands for) and code points.
fn offsets(text: &str, b: usize) -> (usize, usize) {
    let before = text.get(..b).unwrap_or(text);
    before
        .chars()
        .fold((0, 0), |(u, c), ch| (u + ch.len_utf16(), c + 1))
}

/// A match error as a JSON object: `message` (one line), `explanation` (what each
/// rule expected), `offset` (UTF-16), `codePointOffset`, `byteOffset` (UTF-8),
/// `rule`, `startRule`, `grammar`, `expected`, `foundDescription` (as the messages
/// describe the character, so that the glue can name a lone surrogate instead),
/// `component` (the one to blame, or `null`), `input` (which input of the call).
pub(crate) fn error_json(e: &MatchError, text: &str, which: u32) -> String {
    let (units, points) = offsets(text, e.byte_offset());
    let mut j = Json::default();
    j.open('{');
    j.field("message", Some(&e.to_string()));
    j.field("explanation", Some(&e.message()));
    j.number("offset", units);
    j.number("codePointOffset", points);
    j.number("byteOffset", e.byte_offset());
    j.field("rule", e.rule());
    j.field("startRule", Some(e.start_rule()));
    j.field("grammar", Some(e.grammar().as_str()));
    j.key("expected");
    j.open('[');
    for x in e.expected() {
        j.item();
        j.string(&x.to_string());
    }
    j.close(']');
    j.field("foundDescription", e.found().map(describe_char).as_deref());
    j.field("component", e.component().map(|c| c.component().as_str()));
    j.number("input", which as usize);
    j.close('}');
    j.0
}
