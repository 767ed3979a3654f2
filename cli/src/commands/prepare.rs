//! `iri prepare`: arbitrary strings made IRI references (IRI processing draft §4-5).

use crate::io::{each_input, Judgement, Outcome, Style};
use crate::json;
use crate::report::Problem;
use iri_grammar::prepare::{prepare, prepare_multi};
use std::fmt::Write;

pub fn run(style: &Style, multi: bool, inputs: &[String]) -> Outcome {
    let json = style.json;
    each_input(inputs, style, |input, out| {
        let results: Vec<Result<String, Problem>> = match &input.text {
            Ok(s) if multi => prepare_multi(s)
                .into_iter()
                .map(|r| {
                    r.map(|r| r.to_string())
                        .map_err(|e| Problem::other("prepare", e.to_string()))
                })
                .collect(),
            Ok(s) => vec![prepare(s)
                .map(|r| r.to_string())
                .map_err(|e| Problem::other("prepare", e.to_string()))],
            Err(e) => vec![Err(Problem::not_utf8(input, e))],
        };
        let first_error = results.iter().find_map(|r| r.as_ref().err());
        let errors: Vec<std::borrow::Cow<'_, str>> = results
            .iter()
            .filter_map(|r| r.as_ref().err().map(|p| p.message()))
            .collect();
        if json {
            let value = |r: &Result<String, Problem>| match r {
                Ok(s) => {
                    let mut v = String::new();
                    json::string(s, &mut v);
                    v
                }
                Err(_) => "null".to_string(),
            };
            let prepared = if multi {
                json::array(results.iter().map(value))
            } else {
                value(&results[0])
            };
            let mut o = input
                .json()
                .bool("valid", first_error.is_none())
                .raw("prepared", &prepared);
            o = match first_error {
                // Several references of one input may each fail: the first error's
                // fields, and every message.
                Some(p) => o.raw("error", &p.clone().with_message(errors.join("; ")).json()),
                None => o.null("error"),
            };
            let _ = writeln!(out, "{}", o.finish());
        } else if first_error.is_none() {
            let texts: Vec<&str> = results.iter().filter_map(|r| r.as_deref().ok()).collect();
            let _ = writeln!(out, "{}", texts.join(" "));
        } else {
            let _ = writeln!(out, "invalid: {}", errors.join("; "));
        }
        match first_error {
            None => Judgement::success(),
            Some(p) => out.failed(|| p.cause()),
        }
    })
}
