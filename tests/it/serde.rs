//! The `serde` feature: references serialize as strings; deserializing validates.
//! Run with `cargo test -p iri-grammar --features serde --test it serde::` (CI does).
#![cfg(feature = "serde")]

use iri_grammar::reference::{AbsoluteIri, IriRef, UriRef};

#[test]
fn round_trip_and_validation() {
    let r = IriRef::parse("http://résumé.example.org/a?b#c").unwrap();
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(json, r#""http://résumé.example.org/a?b#c""#);
    let back: IriRef<'static> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
    assert_eq!(back.host(), Some("résumé.example.org"));
    // Deserializing validates, in the target's grammar.
    let err = serde_json::from_str::<UriRef<'static>>(&json).unwrap_err();
    assert!(err.to_string().contains("at char 8"), "{err}");
    assert!(serde_json::from_str::<IriRef<'static>>(r#""a b""#).is_err());
    let list: Vec<IriRef<'static>> = serde_json::from_str(r##"["a:b", "#f", ""]"##).unwrap();
    assert_eq!(list[1].fragment(), Some("f"));
}

#[test]
fn absolute_iris_refuse_relative_references() {
    let base: AbsoluteIri<'static> = serde_json::from_str(r#""http://a/b""#).unwrap();
    assert_eq!(serde_json::to_string(&base).unwrap(), r#""http://a/b""#);
    let err = serde_json::from_str::<AbsoluteIri<'static>>(r#""/b""#).unwrap_err();
    assert!(err.to_string().starts_with("invalid IRI: "), "{err}");
}

/// `IriRef<'static>` is the owned type (`DeserializeOwned`: readers work); a field
/// can borrow its text from the input with `deserialize_borrowed`, and owns a copy
/// where the input has to be unescaped.
#[test]
fn references_borrow_from_the_input_when_asked() {
    #[derive(Debug, serde::Deserialize)]
    struct Link<'a> {
        #[serde(
            borrow,
            deserialize_with = "iri_grammar::reference::deserialize_borrowed"
        )]
        href: IriRef<'a>,
        #[serde(
            borrow,
            deserialize_with = "iri_grammar::reference::deserialize_borrowed"
        )]
        base: UriRef<'a>,
    }
    let json = r#"{"href": "r%C3%A9sum%C3%A9?q#f", "base": "http:\/\/a\/"}"#;
    let link: Link<'_> = serde_json::from_str(json).unwrap();
    let within = |s: &str| json.as_bytes().as_ptr_range().contains(&s.as_ptr());
    assert_eq!(
        (link.href.path(), link.href.fragment()),
        ("r%C3%A9sum%C3%A9", Some("f"))
    );
    assert!(within(link.href.as_str()), "borrowed");
    assert_eq!(link.base, "http://a/");
    assert!(!within(link.base.as_str()), "unescaped, so owned");
    let bad = serde_json::from_str::<Link<'_>>(r#"{"href": "a b", "base": "x:"}"#);
    assert!(bad.unwrap_err().to_string().contains("at char 1"));
    // The owned type reads from a reader, which lends nothing.
    let owned: IriRef<'static> = serde_json::from_reader(&br#""http://a/b""#[..]).unwrap();
    assert_eq!(owned.path(), "/b");
}
