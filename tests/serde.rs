//! The `serde` feature: references serialize as strings; deserializing validates.
//! Run with `cargo test --features serde --test serde` (CI does).
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
