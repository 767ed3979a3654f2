//! `iri tree`: the parse tree of each input, as text, JSON or a Graphviz graph; with
//! `--literals`, the literal text as leaves (see `crate::literals`); with `--caret`,
//! an invalid input is shown with a caret under the failing character.

use super::{rule_arg, write_invalid_at};
use crate::args::Format;
use crate::io::{each_input, Outcome};
use crate::json;
use crate::literals;
use iri_grammar::tree::tree_of;
use iri_grammar::Variant;
use std::io::Write;

/// What is shown besides the rules.
#[derive(Debug, Clone, Copy)]
pub struct Show {
    /// Literal leaves.
    pub literals: bool,
    /// The input and a caret under an error.
    pub caret: bool,
}

pub fn run<V: Variant>(
    json: bool,
    rule: Option<&str>,
    format: Format,
    show: Show,
    inputs: &[String],
) -> Outcome {
    let rule = rule_arg::<V>(rule)?;
    let json = json || format == Format::Json;
    each_input(inputs, |out, input| {
        let tree = match &input.text {
            Ok(s) => tree_of::<V>(rule, s).map_err(|e| (e.message(), Some(e.char_offset()))),
            Err(e) => Err((e.clone(), None)),
        };
        match (&tree, json) {
            (Ok(t), true) => {
                let mut node = String::with_capacity(4 * t.input.len() + 64);
                literals::node_json(t, t.root(), show.literals, None, &mut node);
                let mut line = String::with_capacity(node.len() + t.input.len() + 32);
                line.push_str("{\"input\":");
                json::string(t.input, &mut line);
                line.push_str(",\"valid\":true,");
                // The root's fields follow the input's, in the same object.
                line.push_str(&node[1..]);
                writeln!(out, "{line}")?;
            }
            (Ok(t), false) if format == Format::Dot && show.literals => {
                write!(out, "{}", literals::to_dot(t))?
            }
            (Ok(t), false) if format == Format::Dot => write!(out, "{}", t.to_dot())?,
            (Ok(t), false) if show.literals => write!(out, "{}", literals::to_text(t))?,
            (Ok(t), false) => write!(out, "{}", t.to_text())?,
            (Err((e, at)), _) => return write_invalid_at(out, json, input, e, *at, show.caret),
        }
        Ok(true)
    })
}
