//! The lint (RFC 3987 §4, §6.1, §7.5; the LEIRI note) and the bidi display form.
//!
//! Input: `TEXT [0xFF OPTIONS]`; the options pick the grammar and the lint options.
//! Properties:
//! - every finding points into the input at a character boundary, inside the range
//!   of the component it names, with a consistent character offset, and can be
//!   written;
//! - RFC 3987 §4.1: a bidi formatting character (LRM, RLM, LRE, RLE, PDF, LRO, RLO)
//!   written as itself anywhere in the reference gives a finding at its offset, an
//!   error in an IRI (a warning, `leiri-bidi-formatting`, in a LEIRI);
//! - the display form (§4.1, §7.6) holds no bidi formatting character or control
//!   but its own opening LRE and closing PDF;
//! - the display check of `to_iri` of a URI does not panic.
#![no_main]

use arbitrary::Arbitrary;
use iri_fuzz::Grammar;
use iri_grammar::bidi::{check_display_conversion, display_form, is_formatting_character};
use iri_grammar::convert::{ToIri};
use iri_grammar::lint::{has_errors, LintOptions};
use iri_grammar::{Reference, Uri, Variant, VariantName};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Default, Arbitrary)]
struct Options {
    grammar: Grammar,
    percent_encoded: bool,
    no_split_extensions: bool,
}

fn run<V: Variant>(s: &str, options: &LintOptions) {
    let Ok(r) = Reference::<V>::parse(s) else {
        return;
    };
    let findings = r.lint_with(options);
    for f in &findings {
        assert!(
            f.offset <= s.len() && s.is_char_boundary(f.offset),
            "{f:?} in {s:?}"
        );
        assert_eq!(
            f.char_offset,
            s[..f.offset].chars().count(),
            "{f:?} in {s:?}"
        );
        let range = &f.component_range;
        assert!(
            range.start <= range.end && range.end <= s.len(),
            "{f:?} in {s:?}"
        );
        assert!(
            s.is_char_boundary(range.start) && s.is_char_boundary(range.end),
            "{f:?}"
        );
        assert!(
            range.start <= f.offset && f.offset <= range.end,
            "{f:?}: offset outside its component in {s:?}"
        );
        let _ = f.to_string();
        let _ = (f.section(), f.character_label());
    }
    // Each bidi formatting character written as itself is reported where it is: an
    // error in an IRI (§4.1 MUST NOT), a warning in a LEIRI (the note §5 lets them
    // through, and says to take care); a URI cannot have one.
    for (k, c) in s
        .char_indices()
        .filter(|&(_, c)| is_formatting_character(c))
    {
        let code = match V::NAME {
            VariantName::Leiri => "leiri-bidi-formatting",
            _ => "bidi-formatting-character",
        };
        assert!(
            findings.iter().any(|f| f.code() == code && f.offset == k),
            "{:?}: {c:?} at {k} of {s:?} is not reported: {findings:?}",
            V::NAME
        );
        if V::NAME != VariantName::Leiri {
            assert!(has_errors(&findings));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let ([s], mut u) = iri_fuzz::split::<1>(data);
    let o: Options = iri_fuzz::options(&mut u);
    let options = LintOptions {
        check_percent_encoded: o.percent_encoded,
        split_extensions: !o.no_split_extensions,
    };
    iri_fuzz::with_variant!(o.grammar, V => run::<V>(&s, &options));
    let display = display_form(&s);
    let inner: Vec<char> = display.chars().collect();
    assert_eq!((inner[0], inner[inner.len() - 1]), ('\u{202A}', '\u{202C}'));
    for &c in &inner[1..inner.len() - 1] {
        assert!(
            !is_formatting_character(c) && !c.is_control(),
            "{c:?} in the display form of {s:?}"
        );
    }
    if let Ok(u) = Reference::<Uri>::parse(&s) {
        if let Ok(i) = u.to_iri_with(ToIri::default()) {
            let _ = check_display_conversion(&s, i.as_str());
        }
    }
});
