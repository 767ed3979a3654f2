//! `iri`: the command line of iri-grammar. The contract (commands, output, exit
//! status) is in the README, "The `iri` command"; each command is a module of
//! `commands`, and `io` and `json` hold what they share.

// Errors are per input and off the fast path: their size (report::Problem) costs
// nothing that matters, and boxing them would only add an allocation.
#![allow(clippy::result_large_err)]

mod args;
mod caret;
mod commands;
mod html;
mod io;
mod json;
mod literals;
mod report;
mod teach;

use clap::Parser;
use io::{Failure, Status};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(&cli) {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::Failed) => ExitCode::from(1),
        // Only `compare` answers "unknown" (and only when no input failed).
        Ok(Status::Unknown) => ExitCode::from(3),
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
