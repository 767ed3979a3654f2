//! Strings of a grammar's language and just outside it: drawn at random
//! ([`generate`]), one or two edits away ([`counterexamples`]), made as small as they
//! go while they still show something ([`shrink`]), the strings on which two
//! grammars disagree ([`diff`]) and the page that shows them ([`history`]).

pub mod counterexamples;
pub mod diff;
pub mod generate;
pub mod history;
pub mod shrink;
