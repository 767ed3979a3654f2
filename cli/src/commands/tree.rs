//! `iri tree`: the parse tree of each input, as text, JSON or a Graphviz graph, as
//! the [`Engine`] builds it: the combinators', or the oracle's under `--abnf`. With
//! `--literals`, the literal text as leaves (see `crate::literals`); with `--caret`,
//! an invalid input is shown with a caret under the failing character.
//!
//! A tree is held whole while it is built (its nodes in one arena, 20 bytes each),
//! so each is built with a bound on its nodes (`--max-nodes`,
//! [`crate::args::MAX_NODES`]). A line whose tree has more is refused as soon as
//! the bound is passed, in memory, and the run ends with status 2.

use super::engine::{Engine, NoTree, Tree};
use super::{write_invalid_at, Spent};
use crate::args::Format;
use crate::io::{each_input, Judgement, Outcome, RunError, Sink, Style, Verdict};
use crate::json::{self, Object};
use crate::literals;
use crate::report::Problem;
use iri_grammar_abnf::oracle::explain::OracleNode;
use std::fmt;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What is shown besides the rules.
#[derive(Debug, Clone, Copy)]
pub struct Show {
    /// Literal leaves.
    pub literals: bool,
    /// The input and a caret under an error.
    pub caret: bool,
}

pub fn run(
    style: &Style,
    engine: &Engine<'_>,
    format: Format,
    show: Show,
    max_nodes: usize,
    inputs: &[String],
) -> Outcome {
    let json = style.json || format == Format::Json;
    // `--format json` makes the built-in grammars' run JSON Lines, its filters and
    // summary included; with `--abnf` it makes the records JSON and leaves the rest
    // as `--json` says.
    let style = &match engine {
        Engine::User { .. } => style.clone(),
        _ => Style {
            json,
            ..style.clone()
        },
    };
    super::caret_beside_copies(style, show.caret)?;
    let too_many = AtomicUsize::new(0);
    let spent = Spent::default();
    let verdicts = each_input(inputs, style, |input, out| {
        let tree = match engine.tree(input, max_nodes, &spent) {
            Ok(tree) => tree,
            Err(NoTree::Invalid(p)) => return write_invalid_at(out, json, input, &p, show.caret),
            Err(NoTree::TooManyNodes(e)) => {
                too_many.fetch_add(1, Ordering::Relaxed);
                let p = Problem::other(
                    "node-limit",
                    format!("{e}; raise --max-nodes (now {max_nodes}) for a larger tree"),
                );
                // The input matches: only its tree is refused.
                if json {
                    let o = input.json().bool("valid", true).raw("error", &p.json());
                    let _ = writeln!(out, "{}", o.finish());
                } else {
                    let _ = writeln!(out, "error: {}", p.message());
                }
                return out.failed(|| p.cause());
            }
        };
        match (&tree, json) {
            (Tree::Combinators(t), true) => {
                // The JSON of a long path is forty times its length: said valid first,
                // the record can go out while it is written, node by node.
                out.verdict(Verdict::Success);
                out.push_str("{\"input\":");
                json::string(t.input, out);
                // The root's fields follow the input's, in the same object.
                out.push_str(",\"valid\":true,");
                literals::node_members(t, t.root(), show.literals, None, out);
                out.push('\n');
            }
            (Tree::Combinators(t), false) => {
                // Text and DOT are many times the input too (each line quotes its
                // node's text): they go out line by line, as the JSON does.
                out.verdict(Verdict::Success);
                let out = &mut Spilling(out);
                let name = super::graph_name(input.index);
                let _ = match (format == Format::Dot, show.literals) {
                    (true, true) => literals::write_dot(t, out, &name),
                    (true, false) => t.write_dot(out, &name),
                    (false, true) => literals::write_text(t, out),
                    (false, false) => t.write_text(out),
                };
            }
            // The oracle's trees are of lines of at most ORACLE_MAX_BYTES: written
            // whole.
            (Tree::Oracle(t), true) => {
                out.push_str("{\"input\":");
                json::string(t.input, out);
                out.push_str(",\"valid\":true,");
                let mut node = String::new();
                node_json(t.input, &t.root, &mut node);
                // The root's fields follow the input's, in the same object.
                out.push_str(&node[1..]);
                out.push('\n');
            }
            (Tree::Oracle(t), false) if format == Format::Dot => {
                let _ = t.write_dot(&mut **out, &super::graph_name(input.index));
            }
            (Tree::Oracle(t), false) => {
                let _ = t.write_text(&mut **out);
            }
        }
        Judgement::success()
    });
    let status = spent.verdicts(verdicts)?;
    match too_many.into_inner() {
        0 => Ok(status),
        n => Err(RunError::Usage(format!(
            "the tree of {n} input{} has more than --max-nodes {max_nodes} nodes (see {}); \
             raise --max-nodes for a larger tree",
            if n == 1 { "" } else { "s" },
            if n == 1 {
                "its record"
            } else {
                "their records"
            },
        ))),
    }
}

/// `{"rule","text","start","end","alternative","of","children"}` of the oracle's
/// tree, as the built-in grammars' trees. With a stack of its own: a tree is as deep
/// as the input nests.
fn node_json(input: &str, root: &OracleNode, out: &mut String) {
    let open = |n: &OracleNode, out: &mut String| {
        let mut o = Object::new()
            .str("rule", &n.rule)
            .str("text", &input[n.start..n.end])
            .num("start", n.start)
            .num("end", n.end);
        if let Some((k, of)) = n.alternative {
            o = o.num("alternative", k).num("of", of);
        }
        let fields = o.finish();
        out.push_str(&fields[..fields.len() - 1]);
        out.push_str(",\"children\":[");
    };
    open(root, out);
    // Each node with the number of its children written.
    let mut stack: Vec<(&OracleNode, usize)> = vec![(root, 0)];
    while let Some((n, written)) = stack.last_mut() {
        match n.children.get(*written) {
            Some(c) => {
                if *written > 0 {
                    out.push(',');
                }
                *written += 1;
                open(c, out);
                stack.push((c, 0));
            }
            None => {
                out.push_str("]}");
                stack.pop();
            }
        }
    }
}

/// A [`Sink`] written through `fmt::Write`, where everything written is final: what
/// accumulates goes out in pieces ([`Sink::spill`]), not whole at the end.
struct Spilling<'s, 'w>(&'s mut Sink<'w>);

impl fmt::Write for Spilling<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.push_str(s);
        self.0.spill();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::io::set_spill_at;
    use crate::{run_in_memory, Run};

    /// `iri tree --format FORMAT` with `options`, on `inputs` as lines of standard
    /// input and, when they are few, as arguments; spilling at `spill_at` bytes.
    fn runs(format: &str, options: &[&str], inputs: &[Vec<u8>], spill_at: usize) -> Vec<Run> {
        set_spill_at(spill_at);
        let command = [&["iri", "tree", "--format", format][..], options].concat();
        let stdin: Vec<u8> = inputs
            .iter()
            .flat_map(|i| [&i[..], b"\n"].concat())
            .collect();
        let mut runs = vec![run_in_memory(&command, &stdin)];
        let args: Option<Vec<&str>> = inputs.iter().map(|i| std::str::from_utf8(i).ok()).collect();
        if let Some(args) = args.filter(|a| a.len() < 20 && a.iter().all(|a| !a.is_empty())) {
            runs.push(run_in_memory([&command[..], &args].concat(), b""));
        }
        runs
    }

    #[test]
    fn trees_go_out_in_pieces_as_they_would_whole() {
        let long = format!("http://a/{}", "b/".repeat(5_000)).into_bytes();
        let long8 = format!("x:{}", "bbbbbbb/".repeat(1_000)).into_bytes();
        let few: Vec<Vec<u8>> = vec![
            long.clone(),
            b"http://a b/".to_vec(),
            long8.clone(),
            b"%zz".to_vec(),
            b"mailto:a@b".to_vec(),
        ];
        let mut with_bytes = few.clone();
        with_bytes.insert(2, b"http://a/\xff".to_vec());
        with_bytes.insert(3, Vec::new());
        // Enough lines for a batch split among threads (--jobs 2): long ones in both
        // halves, the first written as rendered, the second kept until its turn.
        let many: Vec<Vec<u8>> = (0..600)
            .map(|k| match k % 150 {
                0 => long.clone(),
                1 => long8.clone(),
                2 => b"http://a b/".to_vec(),
                _ => format!("http://a/{k}").into_bytes(),
            })
            .collect();
        let all: [&[&str]; 9] = [
            &[],
            &["--with-input"],
            &["--valid-only"],
            &["--invalid-only"],
            &["--jobs", "2"],
            &["--summary", "--caret"],
            &["--literals", "-H", "--jobs", "2"],
            &["--valid-only", "--jobs", "2", "--summary"],
            &["--invalid-only", "--jobs", "2"],
        ];
        // JSON under every option and spill size; text and DOT, which go out through
        // the same sink, under those that change how pieces are ordered (not under
        // --with-input, which prefixes each of their lines with the input: 200 MB
        // for these).
        let some: [&[&str]; 4] = [
            &[],
            &["--jobs", "2"],
            &["--literals", "--jobs", "2"],
            &["--valid-only", "--jobs", "2", "--summary"],
        ];
        let cases = [
            (
                "json",
                &all[..],
                &[&few, &with_bytes, &many][..],
                [1, 64 * 1024],
            ),
            ("text", &some, &[&few, &many], [7, 64 * 1024]),
            ("dot", &some, &[&few, &many], [7, 64 * 1024]),
        ];
        for (format, options, inputs, spills) in cases {
            for (options, inputs) in options
                .iter()
                .flat_map(|o| inputs.iter().map(move |i| (*o, *i)))
            {
                let whole = runs(format, options, inputs, usize::MAX);
                assert!(whole[0].stdout.len() > 64 * 1024 || options.contains(&"--invalid-only"));
                for spill_at in spills {
                    assert!(
                        runs(format, options, inputs, spill_at) == whole,
                        "{format} {options:?}, {} inputs, spilling at {spill_at}",
                        inputs.len()
                    );
                }
            }
        }
    }
}
