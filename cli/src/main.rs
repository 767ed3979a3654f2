//! `iri`: the command line of iri-grammar. The commands live in the library of this
//! crate (`src/lib.rs`), so that they can also be driven in-process (fuzzing).

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(iri_cli::main_with(std::env::args_os()))
}
