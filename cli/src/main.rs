//! `iri`: the command line of iri-grammar. The contract (commands, output, exit
//! status) is in the README, "The `iri` command"; each command is a module of
//! `commands`, and `io` and `json` hold what they share.

mod args;
mod caret;
mod commands;
mod html;
mod io;
mod json;
mod literals;
mod teach;

use clap::Parser;
use io::Failure;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(&cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Failure::Usage(msg)) => {
            eprintln!("iri: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Io(msg)) => {
            eprintln!("iri: {msg}");
            ExitCode::from(74)
        }
    }
}
