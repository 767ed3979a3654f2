//! Railroad (syntax) diagrams of the rules, as SVG, drawn by the `railroad` crate.
//!
//! A diagram is read left to right along the track: a rounded box is a terminal (the
//! characters it stands for, shown as [`crate::teaching::label`] names them: `'0'–'5'` for
//! `%x30-35`, `SP` for `%x20`), a square box is a reference to another rule (a link,
//! when the caller gives one). The ABNF operators (RFC 5234) become track shapes:
//!
//! | ABNF | track |
//! |---|---|
//! | `a b` (§3.1) | boxes one after the other |
//! | `a / b` (§3.2) | parallel tracks |
//! | `[ a ]`, `*1 a` (§3.8) | a track that can go round `a` |
//! | `1*a` (§3.6) | `a`, then a loop back before it |
//! | `*a` | both: skip, or loop |
//! | `2a` (§3.7) | `a a`: small exact counts are written out |
//! | `6( a )`, `1*4a` | a loop labelled with its count |
//! | `0<prose>` | a comment: the empty string |
//!
//! The SVG carries its own stylesheet (the crate's light theme) and explicit width and
//! height, so it can be shown as it is, inline in a page or as a file.

use crate::teaching::label::terminal_label;
use crate::{Element, RuleDef};
use ::railroad::{
    Choice, Comment, Diagram, Empty, End, Link, Node, NonTerminal, Optional, Repeat, Sequence,
    Start, Terminal,
};

/// How rule references are drawn: the name to show and where the box links to.
pub trait Refer {
    /// The name shown for a reference to the rule `name` (as the table writes it).
    fn name(&self, name: &str) -> String {
        name.to_string()
    }
    /// Where a click on the box leads (`None`: no link).
    fn href(&self, _name: &str) -> Option<String> {
        None
    }
}

/// References drawn as the table names them, without links.
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl Refer for Plain {}

/// Counts up to this are drawn as copies (`2DIGIT` as `DIGIT DIGIT`): a student sees
/// two boxes at once; larger counts are a loop with a label.
const WRITE_OUT_UP_TO: u32 = 2;

/// The railroad diagram of a rule's definition, as a complete SVG document.
///
/// ```
/// use iri_grammar_abnf::{teaching::railroad::{svg, Plain}, Grammars};
/// let g = Grammars::builtin();
/// let dec_octet = g.rfc3986.get("dec-octet").unwrap();
/// let s = svg(dec_octet, &Plain);
/// assert!(s.starts_with("<svg"));
/// // '0'–'5', with the quotes escaped as XML character references.
/// assert!(s.contains("&#x27;0&#x27;–&#x27;5&#x27;"));
/// assert!(!s.contains("%x30"));
/// ```
pub fn svg(rule: &RuleDef, refer: &dyn Refer) -> String {
    element_svg(&rule.definition, refer)
}

/// The railroad diagram of any element (an alternative, say), as a complete SVG document.
pub fn element_svg(e: &Element, refer: &dyn Refer) -> String {
    let track: Vec<Box<dyn Node>> = vec![Box::new(Start), node(e, refer), Box::new(End)];
    let mut d = Diagram::new(Sequence::new(track));
    d.add_default_css();
    // The crate writes only a viewBox; without a size, a browser stretches a small
    // diagram to the width of its container.
    let (w, h) = (d.width(), d.height());
    d.attr("width".to_string()).or_insert(w.to_string());
    d.attr("height".to_string()).or_insert(h.to_string());
    d.to_string()
}

/// The node of an element.
fn node(e: &Element, refer: &dyn Refer) -> Box<dyn Node> {
    if let Some(label) = terminal_label(e) {
        return Box::new(Terminal::new(label));
    }
    match e {
        Element::Alternation(alts) => Box::new(Choice::new(
            alts.iter().map(|a| node(a, refer)).collect::<Vec<_>>(),
        )),
        Element::Concatenation(items) => Box::new(Sequence::new(
            items.iter().map(|a| node(a, refer)).collect::<Vec<_>>(),
        )),
        Element::Rule(name) => {
            let nt = NonTerminal::new(refer.name(name));
            match refer.href(name) {
                Some(href) => Box::new(Link::new(nt, href)),
                None => Box::new(nt),
            }
        }
        Element::Prose(p) => Box::new(Comment::new(format!("<{p}>"))),
        Element::Repetition {
            min, max, element, ..
        } => repetition(*min, *max, element, refer),
        // Terminals were handled above.
        Element::CharVal { .. } | Element::Range(..) | Element::Sequence(_) => {
            unreachable!("terminals have labels")
        }
    }
}

/// `min*max element` (RFC 5234 §3.6, §3.7, §3.8).
fn repetition(min: u32, max: Option<u32>, e: &Element, refer: &dyn Refer) -> Box<dyn Node> {
    match (min, max) {
        // `0<pchar>` (RFC 3986 path-empty): zero of anything is the empty string.
        (_, Some(0)) => Box::new(Comment::new(format!("empty: 0 × {e}"))),
        // `[ a ]` or `*1 a`.
        (0, Some(1)) => Box::new(Optional::new(node(e, refer))),
        // `*a`: skip it, or go round as often as you like.
        (0, None) => Box::new(Optional::new(Repeat::new(node(e, refer), Empty))),
        // `1*a`.
        (1, None) => Box::new(Repeat::new(node(e, refer), Empty)),
        // `n*a`.
        (n, None) => Box::new(Repeat::new(
            node(e, refer),
            Comment::new(format!("{n} or more times")),
        )),
        // `2a`: written out.
        (n, Some(m)) if n == m && n <= WRITE_OUT_UP_TO => Box::new(Sequence::new(
            (0..n).map(|_| node(e, refer)).collect::<Vec<_>>(),
        )),
        // `6( h16 ":" )`.
        (n, Some(m)) if n == m => Box::new(Repeat::new(
            node(e, refer),
            Comment::new(format!("{n} times")),
        )),
        // `*4 a`: skip, or 1 to 4.
        (0, Some(m)) => Box::new(Optional::new(Repeat::new(
            node(e, refer),
            Comment::new(format!("up to {m} times")),
        ))),
        // `1*4HEXDIG`.
        (n, Some(m)) => Box::new(Repeat::new(
            node(e, refer),
            Comment::new(format!("{n} to {m} times")),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grammars, VariantName};

    struct Linked;
    impl Refer for Linked {
        fn name(&self, name: &str) -> String {
            name.to_uppercase()
        }
        fn href(&self, name: &str) -> Option<String> {
            Some(format!("{name}.html"))
        }
    }

    #[test]
    fn every_rule_of_every_grammar_has_a_diagram() {
        let g = Grammars::builtin();
        for v in VariantName::ALL {
            for r in g.table(v) {
                let s = svg(r, &Plain);
                assert!(s.starts_with("<svg"), "{}", r.name);
                assert!(s.trim_end().ends_with("</svg>"), "{}", r.name);
                assert!(s.contains("width=\""), "{}", r.name);
            }
        }
    }

    #[test]
    fn references_are_named_and_linked_by_the_caller() {
        let g = Grammars::builtin();
        let s = svg(g.rfc3986.get("IPv4address").unwrap(), &Linked);
        assert!(s.contains("DEC-OCTET"));
        assert!(s.contains("dec-octet.html"));
    }

    #[test]
    fn terminals_show_characters_not_abnf() {
        let g = Grammars::builtin();
        let s = svg(g.leiri.get("ucschar").unwrap(), &Plain);
        assert!(s.contains("NUL–US"), "{s}");
        assert!(s.contains("\nSP</text>"), "{s}");
        let s = svg(g.rfc3986.get("h16").unwrap(), &Plain);
        assert!(s.contains("1 to 4 times"), "{s}");
    }
}
