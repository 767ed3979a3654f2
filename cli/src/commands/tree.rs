//! `iri tree`: the parse tree of each input, as text, JSON or a Graphviz graph; with
//! `--literals`, the literal text as leaves (see `crate::literals`); with `--caret`,
//! an invalid input is shown with a caret under the failing character.

use super::{rule_arg, write_invalid_at};
use crate::args::Format;
use crate::io::{each_input, Judged, Style, Verdicts};
use crate::json;
use crate::literals;
use crate::report::Problem;
use iri_grammar::tree::tree_of;
use iri_grammar::Variant;

/// What is shown besides the rules.
#[derive(Debug, Clone, Copy)]
pub struct Show {
    /// Literal leaves.
    pub literals: bool,
    /// The input and a caret under an error.
    pub caret: bool,
}

pub fn run<V: Variant>(
    style: &Style,
    rule: Option<&str>,
    format: Format,
    show: Show,
    inputs: &[String],
) -> Verdicts {
    let rule = rule_arg::<V>(rule)?;
    let json = style.json || format == Format::Json;
    let style = &Style {
        json,
        ..style.clone()
    };
    each_input(inputs, style, |input, out| {
        let tree = match &input.text {
            Ok(s) => tree_of::<V>(rule, s).map_err(|e| Problem::of_match(&e)),
            Err(e) => Err(Problem::not_utf8(input, e)),
        };
        match (&tree, json) {
            (Ok(t), true) => {
                out.push_str("{\"input\":");
                json::string(t.input, out);
                out.push_str(",\"valid\":true");
                // The root's fields follow the input's, in the same object: its own
                // brace becomes the comma between them. Written in place, not built
                // aside and copied: the JSON of a long path is forty times its length.
                let root = out.len();
                literals::node_json(t, t.root(), show.literals, None, out);
                out.replace_range(root..root + 1, ",");
                out.push('\n');
            }
            (Ok(t), false) if format == Format::Dot => {
                let dot = if show.literals {
                    literals::to_dot(t)
                } else {
                    t.to_dot()
                };
                super::write_dot_named(out, &dot, input.index);
            }
            (Ok(t), false) if show.literals => out.push_str(&literals::to_text(t)),
            (Ok(t), false) => out.push_str(&t.to_text()),
            (Err(p), _) => return write_invalid_at(out, json, input, p, show.caret),
        }
        Judged::success()
    })
}
