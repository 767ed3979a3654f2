//! The engine of `iri-grammar` as a WebAssembly module, for the npm package
//! `iri-grammar` (`js/`): plain `extern "C"` exports over the module's memory, read
//! by the hand-written glue `js/index.js` (no wasm-bindgen: why in js/README.md).
//!
//! The protocol: JavaScript writes the UTF-8 of its strings into the input buffer
//! (`iri_input` gives its address for a length), calls an export with the grammar,
//! the rule and the lengths, and gets a number back; an export with more to say
//! writes one JSON text into the output buffer (`iri_output`) and returns its length.
//! One call per string (or per batch): the boundary is crossed once.
//!
//! Two modules are built from this crate (`js/build.sh`). Without the feature
//! `full`, the package's core (`js/iri_grammar.wasm`, loaded at import, and all
//! that `iri-grammar/ajv` loads): the compiled automata (`iri_walk_tables`, walked
//! in JavaScript by `js/automata.js`), rules by name, and the reference exports of
//! `references` (components, resolution, conversions, normalization, comparison),
//! which refuse a string that does not match by saying only which one; it links
//! none of the combinators, so none of their explanations, and no IDNA or NFC
//! tables. With `full`, the full engine (`js/iri_grammar_full.wasm`), which the
//! glue loads when a call needs it: everything above, and the exports of `full`
//! (validation in the module, for the rules the automata leave to the combinators
//! and the 2001 draft's grammar; errors with their explanation), IDNA and NFC.
//!
//! Lone surrogates: a JavaScript string may hold them and UTF-8 cannot. The glue
//! writes each as U+FFFF, a code point no rule of any of the four grammars allows
//! (RFC 3987 §2.2 `ucschar` and `iprivate`, the LEIRI note's `ucschar`, the 2001
//! draft's `ichar` all stop at U+FFFD) — the stand-in the Python package uses — so
//! every answer stays exact and an error's offset is the surrogate's. The hot path
//! (`iri_is_valid`) leaves the encoding to `TextEncoder`, which writes U+FFFD
//! instead: it asks the glue to look again (answer 2) only when a string it
//! accepts holds U+FFFD, the one case where that can change the answer.

use std::cell::RefCell;

use iri_grammar::grammar::{self, Rule};
use iri_grammar::VariantName;

#[cfg(feature = "full")]
mod full;
mod references;

// ---------------------------------------------------------------------------
// The output buffer

thread_local! {
    /// What an export writes back: a JSON text, or a byte per string of a batch.
    pub(crate) static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The address of the output buffer, valid until the next export is called.
#[no_mangle]
pub extern "C" fn iri_output() -> usize {
    OUTPUT.with_borrow(|buf| buf.as_ptr() as usize)
}

// ---------------------------------------------------------------------------
// Grammars by number, and their automata

/// The grammars by the numbers the glue uses: 0 `uri` (RFC 3986), 1 `iri`
/// (RFC 3987), 2 `leiri` (the W3C note), 3 `iri-2001` (draft-masinter-url-i18n-07).
pub(crate) fn variant(g: u32) -> VariantName {
    match g {
        0 => VariantName::Uri,
        2 => VariantName::Leiri,
        3 => VariantName::Iri2001,
        _ => VariantName::Iri,
    }
}

/// The compiled automaton of grammar `g` for the glue's own walk (see
/// `iri_grammar::grammar::WalkTables`): 28 little-endian 32-bit words in the output,
/// the addresses and lengths of its tables in this memory and the constants of a
/// state: `classes`, `next`, its length, `starts`, its length, `ROW`, `ACCEPTS`,
/// `SCAN_SHIFT`, `DEAD`, the 16 scan tables, the number of the reference rule
/// (`IRI-reference`, `URI-reference`, `LEIRI-reference`), the number of byte
/// classes (the length of a row of `next`), and the number of the absolute rule
/// (`IRI`, `URI`, `LEIRI`). Returns the number of words, 0 for a grammar with no
/// automaton (iri-2001).
#[no_mangle]
pub extern "C" fn iri_walk_tables(g: u32) -> u32 {
    use grammar::WalkTables;
    let Some(t) = grammar::walk_tables(variant(g)) else {
        return 0;
    };
    let mut words = vec![
        t.classes.as_ptr() as usize as u32,
        t.next.as_ptr() as usize as u32,
        t.next.len() as u32,
        t.starts.as_ptr() as usize as u32,
        t.starts.len() as u32,
        WalkTables::ROW,
        WalkTables::ACCEPTS,
        WalkTables::SCAN_SHIFT,
        WalkTables::DEAD,
    ];
    words.extend(t.scan_tables.iter().map(|s| s.as_ptr() as usize as u32));
    let number = |rule| Rule::ALL.iter().position(|&r| r == rule);
    words.push(number(Rule::IriReference).map_or(u32::MAX, |i| i as u32));
    words.push(t.class_count as u32);
    words.push(number(Rule::Iri).map_or(u32::MAX, |i| i as u32));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    OUTPUT.with_borrow_mut(|out| *out = bytes);
    words.len() as u32
}
