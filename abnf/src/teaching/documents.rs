//! Where the documents the grammar files transcribe can be read: a link to the section
//! that defines a rule, for pages that show the rule next to its source.
//!
//! RFCs link to the RFC Editor's HTML rendering, whose anchors are `section-3.2.2` and
//! `appendix-B.1`; the LEIRI note links to the W3C's latest version (its anchors are
//! generated names, not section numbers, so the link is to the note as a whole).

use crate::Source;

/// The RFC Editor's HTML rendering of an RFC.
fn rfc(number: u32) -> String {
    format!("https://www.rfc-editor.org/rfc/rfc{number}.html")
}

/// The address of the document a grammar file transcribes, by file name.
///
/// ```
/// use iri_grammar_abnf::teaching::documents::document_url;
/// assert_eq!(document_url("rfc3986.abnf").as_deref(),
///            Some("https://www.rfc-editor.org/rfc/rfc3986.html"));
/// assert_eq!(document_url("leiri.abnf").as_deref(), Some("https://www.w3.org/TR/leiri/"));
/// assert_eq!(document_url("other.abnf"), None);
/// ```
pub fn document_url(file: &str) -> Option<String> {
    match file {
        "core.abnf" => Some(rfc(5234)),
        "rfc3986.abnf" => Some(rfc(3986)),
        "rfc3987.abnf" => Some(rfc(3987)),
        "leiri.abnf" => Some("https://www.w3.org/TR/leiri/".to_string()),
        "draft-masinter-url-i18n-07.abnf" => {
            Some("https://datatracker.ietf.org/doc/html/draft-masinter-url-i18n-07".to_string())
        }
        _ => None,
    }
}

/// The address of the section that defines a rule: the document's address with the
/// section's anchor (RFCs only).
///
/// ```
/// use iri_grammar_abnf::{teaching::documents::section_url, Grammars};
/// let g = Grammars::builtin();
/// let s = &g.rfc3986.get("dec-octet").unwrap().source;
/// assert_eq!(section_url(s).as_deref(),
///            Some("https://www.rfc-editor.org/rfc/rfc3986.html#section-3.2.2"));
/// let s = &g.core.get("ALPHA").unwrap().source;
/// assert_eq!(section_url(s).as_deref(),
///            Some("https://www.rfc-editor.org/rfc/rfc5234.html#appendix-B.1"));
/// ```
pub fn section_url(source: &Source) -> Option<String> {
    let doc = document_url(&source.file)?;
    if !doc.starts_with("https://www.rfc-editor.org/") {
        return Some(doc);
    }
    match source.section.as_deref() {
        Some(s) if s.starts_with(|c: char| c.is_ascii_digit()) => {
            Some(format!("{doc}#section-{s}"))
        }
        Some(s) if s.starts_with(|c: char| c.is_ascii_uppercase()) => {
            Some(format!("{doc}#appendix-{s}"))
        }
        _ => Some(doc),
    }
}
