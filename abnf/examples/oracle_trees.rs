//! The oracle's parse tree and other parses (`Oracle::tree`, `Oracle::other_parses`,
//! what `iri serve`'s `/api/parses` answers with) of long IRI references of a few
//! shapes: the time, or one run to count under callgrind.
//!
//! ```sh
//! cargo run --profile profiling -p iri-grammar-abnf --example oracle_trees   # every shape, 256, 1,024, 4,095 characters
//! cargo build --profile profiling -p iri-grammar-abnf --example oracle_trees
//! valgrind --tool=callgrind target/profiling/examples/oracle_trees path 4095  # one shape, one length, once
//! ```

use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::{Grammars, VariantName};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The shapes: a head, then a unit repeated.
const SHAPES: [(&str, &str, &str); 5] = [
    ("path", "http://h/", "a/"),
    ("query", "http://h/p?", "a=b&"),
    ("percent-encoded", "http://h/", "%41"),
    ("host", "http://", "1.2.3."),
    ("non-ASCII", "http://例え.jp/", "résumé/"),
];

/// An input of `n` characters: `head`, then `unit` as often as it fits, then `a`s.
fn long(head: &str, unit: &str, n: usize) -> String {
    let mut s = head.to_string();
    let (mut len, u) = (head.chars().count(), unit.chars().count());
    while len + u <= n {
        s.push_str(unit);
        len += u;
    }
    s.extend(std::iter::repeat_n('a', n.saturating_sub(len)));
    s
}

/// The tree and the other parses of `input`, once.
fn once(oracle: &Oracle<'_>, input: &str) -> (Duration, Duration) {
    let t = Instant::now();
    let tree = oracle
        .tree("IRI-reference", input)
        .expect("the shapes are IRIs");
    let tree_time = t.elapsed();
    let t = Instant::now();
    let parses = oracle
        .other_parses("IRI-reference", input, 12)
        .expect("the shapes are IRIs");
    let parses_time = t.elapsed();
    assert_eq!(tree, parses.tree);
    (tree_time, parses_time)
}

fn main() -> ExitCode {
    let grammars = Grammars::builtin();
    let oracle = Oracle::new(&grammars, VariantName::Iri);
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [shape, n] = args.as_slice() {
        let (Some(&(_, head, unit)), Ok(n)) = (
            SHAPES
                .iter()
                .find(|(name, ..)| name.eq_ignore_ascii_case(shape)),
            n.parse::<usize>(),
        ) else {
            eprintln!("usage: oracle_trees [SHAPE CHARACTERS]; shapes: path, query, percent-encoded, host, non-ASCII");
            return ExitCode::FAILURE;
        };
        let (tree, parses) = once(&oracle, &long(head, unit, n));
        println!("{shape} {n}: tree {tree:?}, other_parses {parses:?}");
        return ExitCode::SUCCESS;
    }
    if !args.is_empty() {
        eprintln!("usage: oracle_trees [SHAPE CHARACTERS]");
        return ExitCode::FAILURE;
    }
    println!("IRI-reference, best of 5, ms");
    println!(
        "{:<16} {:>6} {:>9} {:>13}",
        "shape", "chars", "tree", "other_parses"
    );
    for (shape, head, unit) in SHAPES {
        for n in [256, 1024, 4095] {
            let input = long(head, unit, n);
            let (mut tree, mut parses) = (Duration::MAX, Duration::MAX);
            for _ in 0..5 {
                let (t, p) = once(&oracle, &input);
                (tree, parses) = (tree.min(t), parses.min(p));
            }
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            println!("{shape:<16} {n:>6} {:>9.2} {:>13.2}", ms(tree), ms(parses));
        }
    }
    ExitCode::SUCCESS
}
