//! `iri tree`: the parse tree of each input, as text, JSON or a Graphviz graph.

use super::{rule_arg, write_invalid};
use crate::args::Format;
use crate::io::{each_input, Outcome};
use crate::json::{self, Object};
use iri_grammar::tree::{tree_of, Node, ParseTree};
use iri_grammar::Variant;
use std::io::Write;

pub fn run<V: Variant>(
    json: bool,
    rule: Option<&str>,
    format: Format,
    inputs: &[String],
) -> Outcome {
    let rule = rule_arg::<V>(rule)?;
    let json = json || format == Format::Json;
    each_input(inputs, |out, input| {
        let tree = match &input.text {
            Ok(s) => tree_of::<V>(rule, s).map_err(|e| e.to_string()),
            Err(e) => Err(e.clone()),
        };
        match (&tree, json) {
            (Ok(t), true) => {
                let mut line = String::with_capacity(4 * t.input.len() + 64);
                line.push_str("{\"input\":");
                json::string(t.input, &mut line);
                line.push_str(",\"valid\":true,");
                node_fields(t, &t.root, &mut line);
                line.push('}');
                writeln!(out, "{line}")?;
            }
            (Ok(t), false) if format == Format::Dot => write!(out, "{}", t.to_dot())?,
            (Ok(t), false) => write!(out, "{}", t.to_text())?,
            (Err(e), _) => return write_invalid(out, json, input, e),
        }
        Ok(true)
    })
}

/// `"rule":..,"text":..,"start":..,"end":..,"children":[..]` of a node.
fn node_fields(t: &ParseTree<'_>, n: &Node, out: &mut String) {
    let fields = Object::new()
        .str("rule", n.rule)
        .str("text", t.text(n))
        .num("start", n.start)
        .num("end", n.end)
        .finish();
    // The fields without the closing brace; the children follow.
    out.push_str(&fields[1..fields.len() - 1]);
    out.push_str(",\"children\":[");
    for (k, c) in n.children.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push('{');
        node_fields(t, c, out);
        out.push('}');
    }
    out.push(']');
}
