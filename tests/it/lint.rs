//! `lint`: the bidi examples of RFC 3987 §4.4, one trigger and one near miss for
//! every catalogue code, the display form, and the split between `check` (the
//! grammar) and `lint` (the prose).

use iri_grammar::bidi::{check_display_conversion, display_form, is_lossless_display, DisplayLoss};
use iri_grammar::grammar::{check, is_match, Iri, Rule};
use iri_grammar::lint::{
    catalogue_text, entry, has_errors, lint_text, Finding, LintOptions, Severity, CATALOGUE,
};
use iri_grammar::reference::{Component, IriRef};
use iri_grammar::VariantName;

fn codes(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(Finding::code).collect()
}

fn lint_iri(text: &str) -> Vec<Finding> {
    lint_text(VariantName::Iri, text, &LintOptions::default()).unwrap()
}

/// The Bidi Notation of RFC 3987 §4.4: uppercase letters stand for right-to-left
/// letters. `first` is the letter A maps to; B..Z follow.
fn bidi_notation(logical: &str, first: char) -> String {
    logical
        .chars()
        .map(|c| match c {
            'A'..='Z' => char::from_u32(first as u32 + (c as u32 - 'A' as u32)).unwrap(),
            _ => c,
        })
        .collect()
}

const HEBREW_ALEF: char = '\u{05D0}'; // U+05D0-05E9: Bidi_Class R
const ARABIC_HAMZA: char = '\u{0621}'; // U+0621-063A: Bidi_Class AL

/// The ten examples of RFC 3987 §4.4 (logical representation), and whether the
/// RFC allows them.
const EXAMPLES: [(&str, bool); 10] = [
    ("http://ab.CDEFGH.ij/kl/mn/op.html", true),
    ("http://ab.CDE.FGH/ij/kl/mn/op.html", true),
    ("http://AB.CD.EF/GH/IJ/KL?MN=OP;QR=ST#UV", true),
    ("http://AB.CD.ef/gh/IJ/KL.html", true),
    ("http://ab.cd.EF/GH/ij/kl.html", true),
    ("http://ab.CD.EF/GH/IJ/kl.html", true),
    ("http://ab.CDE123FGH.ij/kl/mn/op.html", true),
    ("http://ab.cd.ef/GH1/2IJ/KL.html", false),
    ("http://ab.cd.ef/GH%31/%32IJ/KL.html", false),
    ("http://ab.CDEFGH.123/kl/mn/op.html", true),
];

#[test]
fn rfc3987_section_4_4_examples_in_hebrew_and_arabic() {
    for first in [HEBREW_ALEF, ARABIC_HAMZA] {
        for (n, (logical, allowed)) in EXAMPLES.iter().enumerate() {
            let text = bidi_notation(logical, first);
            assert!(
                is_match::<Iri>(Rule::IriReference, &text),
                "example {}",
                n + 1
            );
            let found = lint_iri(&text);
            if *allowed {
                assert!(found.is_empty(), "example {}: {found:?}", n + 1);
                continue;
            }
            // Examples 8 and 9: "GH1" / "GH%31" ends with a digit, "2IJ" / "%32IJ"
            // starts with one (or with "%").
            assert_eq!(
                codes(&found),
                ["bidi-component-edge", "bidi-component-edge"],
                "example {}",
                n + 1
            );
            assert!(found.iter().all(|f| f.severity() == Severity::Warning));
            assert!(found.iter().all(|f| f.component == Component::Path));
            let at: Vec<_> = found.iter().map(|f| f.char_offset).collect();
            let (end, start) = if n == 7 { (18, 20) } else { (20, 22) };
            assert_eq!(at, [end, start], "example {}", n + 1);
            assert_eq!(found[0].character, text.chars().nth(end));
        }
    }
}

#[test]
fn example_4_needs_extensions_as_components() {
    let text = bidi_notation("http://AB.CD.ef/gh/IJ/KL.html", HEBREW_ALEF);
    let whole = LintOptions {
        split_extensions: false,
        ..LintOptions::default()
    };
    let found = lint_text(VariantName::Iri, &text, &whole).unwrap();
    assert_eq!(
        codes(&found),
        [
            "bidi-mixed-direction",
            "mixed-script",
            "bidi-component-edge"
        ]
    );
    assert_eq!(found[0].char_offset, 25); // the "h" of "html"
}

/// For every catalogue code: the grammar, an input that triggers it, and a near
/// miss that does not. Run with `check_percent_encoded` on.
const CASES: &[(&str, VariantName, &str, &str)] = &[
    (
        "bidi-formatting-character",
        VariantName::Iri,
        "http://a/\u{202E}",
        "http://a/%E2%80%AE",
    ),
    (
        "bidi-formatting-character-encoded",
        VariantName::Uri,
        "http://a/%E2%80%AE",
        "http://a/%E2%80%AF",
    ),
    (
        "bidi-control-character",
        VariantName::Iri,
        "http://a/\u{2067}x",
        "http://a/\u{2064}x",
    ),
    (
        "bidi-mixed-direction",
        VariantName::Iri,
        "http://a/\u{05D0}b",
        "http://a/\u{05D0}.b",
    ),
    (
        "bidi-component-edge",
        VariantName::Iri,
        "http://a/\u{05D0}1",
        "http://a/\u{05D0}1\u{05D1}",
    ),
    (
        "leiri-space",
        VariantName::Leiri,
        "http://a/b c",
        "http://a/b%20c",
    ),
    (
        "leiri-delimiter",
        VariantName::Leiri,
        "http://a/<b>",
        "http://a/%3Cb%3E",
    ),
    (
        "leiri-unwise",
        VariantName::Leiri,
        "http://a/{b}",
        "http://a/(b)",
    ),
    (
        "leiri-control",
        VariantName::Leiri,
        "http://a/b\tc",
        "http://a/b\u{A0}c",
    ),
    (
        "leiri-bidi-formatting",
        VariantName::Leiri,
        "http://a/\u{202E}",
        "http://a/\u{2067}",
    ),
    (
        "leiri-special",
        VariantName::Leiri,
        "http://a/\u{FFFD}",
        "http://a/\u{FFEF}",
    ),
    (
        "leiri-private-use",
        VariantName::Leiri,
        "http://a/\u{E000}",
        "http://a/?\u{E000}",
    ),
    (
        "leiri-tag",
        VariantName::Leiri,
        "http://a/\u{E0041}",
        "http://a/\u{E1000}",
    ),
    (
        "leiri-non-character",
        VariantName::Leiri,
        "http://a/\u{FDD0}",
        "http://a/\u{1FFFD}",
    ),
    (
        "lookalike-delimiter",
        VariantName::Iri,
        "http://a/b\u{2215}c",
        "http://a/b\u{2213}c",
    ),
    (
        "fullwidth-halfwidth",
        VariantName::Iri,
        "http://a/\u{FF41}bc",
        "http://a/\u{FF0F}bc",
    ),
    (
        "compatibility-character",
        VariantName::Iri,
        "http://a/\u{FB01}le",
        "http://a/file",
    ),
    (
        "not-nfc",
        VariantName::Iri,
        "http://a/re\u{301}sume",
        "http://a/r\u{E9}sume",
    ),
    (
        "mixed-script",
        VariantName::Iri,
        "http://a/pay\u{430}l",
        "http://a/\u{65E5}\u{672C}\u{30C6}",
    ),
    (
        "scheme-uppercase",
        VariantName::Uri,
        "HTTP://a/",
        "http://a/",
    ),
    (
        "password-in-userinfo",
        VariantName::Uri,
        "http://u:p@a/",
        "http://u%3Ap@a/",
    ),
    (
        "non-initial-dot-segment",
        VariantName::Uri,
        "a/../b",
        "../a/b",
    ),
];

#[test]
fn every_code_has_a_trigger_and_a_near_miss() {
    let options = LintOptions {
        check_percent_encoded: true,
        ..LintOptions::default()
    };
    for e in CATALOGUE {
        let cases: Vec<_> = CASES.iter().filter(|c| c.0 == e.code).collect();
        assert_eq!(cases.len(), 1, "{}: one case in CASES, please", e.code);
        let (code, grammar, trigger, near_miss) = *cases[0];
        assert!(
            e.grammars.contains(&grammar),
            "{code} is not for {grammar:?}"
        );
        let found = lint_text(grammar, trigger, &options)
            .unwrap_or_else(|err| panic!("{code}: {trigger:?} does not parse: {err}"));
        assert!(
            codes(&found).contains(&code),
            "{code}: {trigger:?} gives {:?}",
            codes(&found)
        );
        let found = lint_text(grammar, near_miss, &options)
            .unwrap_or_else(|err| panic!("{code}: {near_miss:?} does not parse: {err}"));
        assert!(
            !codes(&found).contains(&code),
            "{code}: near miss {near_miss:?} gives it"
        );
    }
    for case in CASES {
        assert!(
            entry(case.0).is_some(),
            "{} is not in the catalogue",
            case.0
        );
    }
}

#[test]
fn check_stays_the_grammar_and_lint_reports_the_prose() {
    let text = "http://a/\u{202E}";
    assert!(is_match::<Iri>(Rule::IriReference, text));
    assert!(check::<Iri>(Rule::IriReference, text).is_ok());
    let found = IriRef::parse(text)
        .unwrap()
        .lint_with(&LintOptions::default());
    assert!(has_errors(&found));
    assert_eq!(found[0].severity(), Severity::Error);
    assert_eq!(found[0].section(), "RFC 3987 §4.1");
    // A LEIRI may contain it (the note lifts §4.1): a warning, not an error.
    let found = lint_text(VariantName::Leiri, text, &LintOptions::default()).unwrap();
    assert_eq!(codes(&found), ["leiri-bidi-formatting"]);
    assert!(!has_errors(&found));
}

#[test]
fn percent_encoded_formatting_characters_only_when_asked() {
    // RFC 3987 §3.2's own example output keeps U+202E encoded.
    let text = "http://xn--99zt52a.example.org/%E2%80%AE";
    assert!(lint_iri(text).is_empty());
    let options = LintOptions {
        check_percent_encoded: true,
        ..LintOptions::default()
    };
    let found = lint_text(VariantName::Iri, text, &options).unwrap();
    assert_eq!(codes(&found), ["bidi-formatting-character-encoded"]);
    assert_eq!(found[0].offset, 31);
    assert_eq!(found[0].character, Some('\u{202E}'));
    // Not UTF-8, or another character: nothing.
    let found = lint_text(VariantName::Iri, "http://a/%E2%80%41%AE%C0%AF", &options).unwrap();
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn offsets_in_bytes_and_chars_and_components() {
    let found = lint_iri("http://r\u{E9}sum\u{E9}.example/\u{05D0}b?\u{FB01}=x#\u{200F}");
    let summary: Vec<_> = found
        .iter()
        .map(|f| (f.code(), f.offset, f.char_offset, f.component))
        .collect();
    assert_eq!(
        summary,
        [
            ("bidi-mixed-direction", 26, 23, Component::Path),
            ("bidi-component-edge", 26, 23, Component::Path),
            ("mixed-script", 26, 23, Component::Path),
            ("compatibility-character", 28, 25, Component::Query),
            ("bidi-formatting-character", 34, 29, Component::Fragment),
        ]
    );
    let f = &found[3];
    assert_eq!(f.component_range, 28..31); // the query name
    assert_eq!(f.character, Some('\u{FB01}'));
}

#[test]
fn one_character_finding_per_character() {
    // U+FF0F FULLWIDTH SOLIDUS: a look-alike of "/", full-width, and not NFKC; the
    // most specific finding wins.
    assert_eq!(
        codes(&lint_iri("http://a/b\u{FF0F}c")),
        ["lookalike-delimiter"]
    );
    // NO-BREAK SPACE and IDEOGRAPHIC SPACE look like a space.
    assert_eq!(codes(&lint_iri("a\u{A0}b")), ["lookalike-delimiter"]);
    assert_eq!(codes(&lint_iri("a\u{3000}b")), ["lookalike-delimiter"]);
    // U+2024 ONE DOT LEADER (NFKC "."), U+2044 FRACTION SLASH (no mapping).
    assert_eq!(codes(&lint_iri("a\u{2024}b")), ["lookalike-delimiter"]);
    assert_eq!(codes(&lint_iri("1\u{2044}2")), ["lookalike-delimiter"]);
    // Half-width Katakana.
    assert_eq!(
        codes(&lint_iri("\u{FF76}\u{FF85}")),
        ["fullwidth-halfwidth", "fullwidth-halfwidth"]
    );
}

#[test]
fn dot_segments_belong_at_the_start_of_relative_paths() {
    let dots = |s: &str| {
        lint_text(VariantName::Uri, s, &LintOptions::default())
            .unwrap()
            .iter()
            .filter(|f| f.code() == "non-initial-dot-segment")
            .map(|f| f.offset)
            .collect::<Vec<_>>()
    };
    assert_eq!(dots("./../a"), Vec::<usize>::new());
    assert_eq!(dots("../a/./b/.."), [5, 9]);
    assert_eq!(dots("/./a"), [1]);
    assert_eq!(dots("http://a/b/../c"), [11]);
    assert_eq!(dots("http://a/b/%2E%2E/c"), Vec::<usize>::new()); // RFC 3986 §5.2.4
}

#[test]
fn scripts_and_normalization() {
    // Japanese mixes Han, Hiragana and Katakana; each query value is its own component.
    assert!(
        lint_iri("http://a/\u{65E5}\u{672C}\u{8A9E}\u{306E}\u{30DA}\u{30FC}\u{30B8}").is_empty()
    );
    assert!(lint_iri("http://a/?q=\u{43C}\u{438}\u{440}&lang=ru").is_empty());
    // Cyrillic "а" in a Latin label.
    let found = lint_iri("http://p\u{430}ypal.com/");
    assert_eq!(codes(&found), ["mixed-script"]);
    assert_eq!((found[0].offset, found[0].component), (8, Component::Host));
    // e + COMBINING ACUTE ACCENT: not NFC, reported where the run starts.
    let found = lint_iri("http://a/caf\u{65}\u{301}");
    assert_eq!(codes(&found), ["not-nfc"]);
    assert_eq!(found[0].offset, 12);
}

#[test]
fn leiri_groups() {
    let groups =
        |s: &str| codes(&lint_text(VariantName::Leiri, s, &LintOptions::default()).unwrap());
    assert_eq!(
        groups("a b<c>\"{}|\\^`\u{0}\u{7F}\u{85}"),
        [
            "leiri-space",
            "leiri-delimiter",
            "leiri-delimiter",
            "leiri-delimiter",
            "leiri-unwise",
            "leiri-unwise",
            "leiri-unwise",
            "leiri-unwise",
            "leiri-unwise",
            "leiri-unwise",
            "leiri-control",
            "leiri-control",
            "leiri-control",
        ]
    );
    assert_eq!(
        groups("\u{200E}\u{FFF0}\u{F0000}\u{E007F}\u{FDEF}\u{2FFFF}?\u{100000}"),
        [
            "leiri-bidi-formatting",
            "leiri-special",
            "leiri-private-use",
            "leiri-tag",
            "leiri-non-character",
            "leiri-non-character",
        ]
    );
    // The same LEIRI with its characters percent-encoded (LEIRI -> IRI) is clean.
    assert!(groups("a%20b%3Cc%3E").is_empty());
}

#[test]
fn rendering_for_the_command_line() {
    let found = lint_iri("HTTP://u:p@a/");
    let lines: Vec<_> = found.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "scheme-uppercase 0 scheme with uppercase letters: schemes are case-insensitive \
             and should be produced in lowercase [scheme, char 0, U+0048]",
            "password-in-userinfo 8 userinfo of the form user:password: deprecated, the \
             password is in clear text (RFC 3987 §8) [userinfo, char 8, U+003A]",
        ]
    );
    let f = &found[1];
    assert_eq!(f.code(), "password-in-userinfo");
    assert_eq!((f.offset, f.char_offset), (8, 8));
    assert_eq!(f.severity().as_str(), "warning");
    assert_eq!(f.section(), "RFC 3986 §3.2.1, §7.5");
    assert_eq!(f.component.as_str(), "userinfo");
    assert_eq!(f.character_label().as_deref(), Some("U+003A"));
    assert!(f.message().starts_with("userinfo of the form"));
}

#[test]
fn the_catalogue_lists_every_code_once() {
    let text = catalogue_text();
    assert_eq!(text.lines().count(), CATALOGUE.len());
    for (e, line) in CATALOGUE.iter().zip(text.lines()) {
        assert!(line.starts_with(e.code), "{line}");
        assert!(
            line.contains(&e.citation()) && line.contains(e.message),
            "{line}"
        );
    }
    assert!(CATALOGUE.iter().any(|e| e.severity == Severity::Error));
    let mut codes: Vec<_> = CATALOGUE.iter().map(|e| e.code).collect();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), CATALOGUE.len());
}

#[test]
fn display_form_wraps_in_an_embedding() {
    let iri = bidi_notation("http://ab.CDEFGH.ij/kl/mn/op.html", HEBREW_ALEF);
    let shown = display_form(&iri);
    assert!(shown.starts_with('\u{202A}') && shown.ends_with('\u{202C}'));
    assert_eq!(&shown[3..shown.len() - 3], iri);
    // Nothing inside can end the embedding early.
    let shown = display_form("a/\u{202C}\u{202E}b\nc\u{2069}");
    assert_eq!(shown, "\u{202A}a/%E2%80%AC%E2%80%AEb%0Ac%E2%81%A9\u{202C}");
}

#[test]
fn display_conversion_is_lossless_only_when_it_round_trips() {
    // RFC 3987 §3.2 examples.
    assert!(is_lossless_display(
        "http://www.example.org/D%C3%BCrst",
        "http://www.example.org/D\u{FC}rst"
    ));
    assert!(is_lossless_display(
        "http://www.example.org/D%FCrst",
        "http://www.example.org/D%FCrst"
    ));
    assert!(is_lossless_display(
        "http://xn--99zt52a.example.org/%e2%80%ae",
        "http://xn--99zt52a.example.org/%E2%80%AE"
    ));
    assert_eq!(
        check_display_conversion(
            "http://xn--99zt52a.example.org/%e2%80%ae",
            "http://xn--99zt52a.example.org/\u{202E}"
        ),
        Err(DisplayLoss::BidiFormatting { offset: 31 })
    );
    // Decoding an unreserved character is allowed; a reserved one is not.
    assert!(is_lossless_display("http://a/%7Euser", "http://a/~user"));
    assert_eq!(
        check_display_conversion("http://a/b%2Fc", "http://a/b/c"),
        Err(DisplayLoss::Changed { offset: 10 })
    );
    // Not UTF-8 decoded as Latin-1.
    assert!(!is_lossless_display(
        "http://a/r%E9sum%E9",
        "http://a/r\u{E9}sum\u{E9}"
    ));
    // A space is not an IRI character.
    assert!(matches!(
        check_display_conversion("http://a/b%20c", "http://a/b c"),
        Err(DisplayLoss::NotAnIri(_))
    ));
    // Example 8 decoded from percent-encoded Hebrew: its display is ambiguous.
    let display = bidi_notation("http://ab.cd.ef/GH1/2IJ/KL.html", HEBREW_ALEF);
    let uri: String = display
        .chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                let mut b = [0; 4];
                c.encode_utf8(&mut b)
                    .bytes()
                    .map(|x| format!("%{x:02X}"))
                    .collect()
            }
        })
        .collect();
    assert_eq!(
        check_display_conversion(&uri, &display),
        Err(DisplayLoss::BidiComponent { offset: 20 })
    );
}

#[test]
fn long_inputs_take_linear_time() {
    let text = format!("http://a/{}", " ".repeat(200_000));
    let found = lint_text(VariantName::Leiri, &text, &LintOptions::default()).unwrap();
    assert_eq!(found.len(), 200_000);
    assert_eq!(found.last().unwrap().char_offset, 200_008);
    let text = format!("http://a/{}", "\u{05D0}b".repeat(100_000));
    assert_eq!(
        codes(&lint_iri(&text)),
        [
            "bidi-mixed-direction",
            "mixed-script",
            "bidi-component-edge"
        ]
    );
}
