//! Preparing arbitrary strings (IRI processing draft §4-5).

use iri_grammar::prepare::{prepare, prepare_multi, PrepareError};

use crate::common;

fn p(s: &str) -> String {
    prepare(s)
        .unwrap_or_else(|e| panic!("{s:?}: {e}"))
        .to_string()
}

#[test]
fn strips_only_the_four_ascii_white_space_characters() {
    assert_eq!(p(" \t\r\nhttp://a/\n\t "), "http://a/");
    // U+00A0 and U+3000 are not stripped: they are encoded where the grammar wants it.
    assert_eq!(p("\u{A0}a\u{3000}"), "\u{A0}a\u{3000}");
    assert_eq!(p("a\u{2028}\u{FFF0}"), "a\u{2028}%EF%BF%B0");
    assert!(matches!(prepare(" \t "), Err(PrepareError::Empty)));
}

#[test]
fn one_reference_encodes_spaces_several_split_on_them() {
    assert_eq!(p("http://a/my file.html"), "http://a/my%20file.html");
    let v: Vec<String> = prepare_multi("  a   b\tc  ")
        .into_iter()
        .map(|r| r.unwrap().to_string())
        .collect();
    assert_eq!(v, ["a", "b%09c"]);
}

#[test]
fn each_component_gets_what_its_grammar_allows() {
    assert_eq!(
        p("http://u s@a/p[1]?q=[1]&x=\u{E000}#f#g"),
        "http://u%20s@a/p%5B1%5D?q=%5B1%5D&x=\u{E000}#f%23g"
    );
    assert_eq!(p("http://a/\u{E000}"), "http://a/%EE%80%80");
    assert_eq!(p("http://a/100%"), "http://a/100%25");
    assert_eq!(p("http://a/%41%zz"), "http://a/%41%25zz");
    assert_eq!(
        p("http://a/\"<>\\^`{|}"),
        "http://a/%22%3C%3E%5C%5E%60%7B%7C%7D"
    );
    assert_eq!(
        p("http://a/\u{202E}"),
        "http://a/\u{202E}",
        "a grammar matter only: lint warns"
    );
}

#[test]
fn hosts() {
    assert_eq!(
        p("http://résumé.example.org/"),
        "http://xn--rsum-bpad.example.org/"
    );
    assert_eq!(p("HTTP://Bücher.example/"), "HTTP://xn--bcher-kva.example/");
    assert_eq!(
        p("urn://résumé/"),
        "urn://résumé/",
        "not a DNS scheme: an ireg-name"
    );
    assert_eq!(p("http://[::1]:8080/"), "http://[::1]:8080/");
    assert_eq!(p("http://1.2.3.4/"), "http://1.2.3.4/");
    assert!(matches!(
        prepare("http://a:80x/"),
        Err(PrepareError::BadPort(_))
    ));
    assert!(matches!(
        prepare("http://[::1x]/"),
        Err(PrepareError::BadIpLiteral(_))
    ));
    assert!(matches!(
        prepare("http://a\u{FFEF}b.org/"),
        Err(PrepareError::Idna { .. })
    ));
}

#[test]
fn a_scheme_like_prefix_that_is_not_a_scheme_is_an_error() {
    let e = prepare("1http://a").unwrap_err();
    assert!(
        matches!(&e, PrepareError::NotAScheme(s) if s == "1http:"),
        "{e}"
    );
    assert!(e.to_string().contains("looks like a scheme"));
    assert!(matches!(
        prepare("ré:sumé"),
        Err(PrepareError::NotAScheme(_))
    ));
    assert_eq!(p("./1http:a"), "./1http:a");
}

#[test]
fn results_are_always_iri_references() {
    // Every line of the corpus URL lists, when present, prepares to an IRI reference
    // or a stated error; never a panic, never an invalid result.
    let Some(dir) = common::corpus("urls") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap();
    let mut n = 0;
    for e in entries {
        let path = e.unwrap().path();
        if !path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("ada-")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().take(3000) {
            match prepare(line.trim_start_matches('\u{FEFF}')) {
                Ok(r) => assert!(iri_grammar::IriRef::parse(r.as_str()).is_ok()),
                Err(PrepareError::Invalid(e)) => panic!("{line:?}: {e}"),
                Err(_) => {}
            }
            n += 1;
        }
    }
    assert!(n > 1000);
}
