//! Validate a file of IRI references, one per line, and show where each invalid one
//! fails.
//!
//! ```sh
//! cargo run --example validate -- examples/iris.txt
//! cargo run --example validate -- --grammar uri examples/iris.txt
//! ```
//!
//! Prints each invalid line with the grammar's message and a caret under the
//! character where the match failed (`{:#}` of the error), then a count. Exit
//! status: 0 when every line is valid, 1 when one is not, 2 for a usage error.

use iri_grammar::{MatchError, Reference, Variant};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let grammar = match args.iter().position(|a| a == "--grammar") {
        Some(k) if k + 1 < args.len() => {
            let g = args.remove(k + 1);
            args.remove(k);
            g
        }
        Some(_) => return usage("--grammar needs uri, iri or leiri"),
        None => "iri".to_string(),
    };
    let [path] = args.as_slice() else {
        return usage("one file, please");
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return usage(&format!("{path}: {e}")),
    };
    let check: fn(&str) -> Result<(), MatchError> = match grammar.as_str() {
        "uri" => valid::<iri_grammar::Uri>,
        "iri" => valid::<iri_grammar::Iri>,
        "leiri" => valid::<iri_grammar::Leiri>,
        other => return usage(&format!("unknown grammar {other:?}")),
    };
    let (mut good, mut bad) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        // Blank lines and comments are not references here.
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match check(line) {
            Ok(()) => good += 1,
            Err(e) => {
                bad += 1;
                println!("{path}:{}: {e:#}", n + 1);
            }
        }
    }
    println!("{good} valid, {bad} invalid ({grammar})");
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Whether `line` is a reference of grammar `V`: parsing allocates nothing for a
/// valid one and explains an invalid one only when asked.
fn valid<V: Variant>(line: &str) -> Result<(), MatchError> {
    Reference::<V>::parse(line).map(|_| ())
}

fn usage(why: &str) -> ExitCode {
    eprintln!("validate: {why}\nusage: validate [--grammar uri|iri|leiri] FILE");
    ExitCode::from(2)
}
