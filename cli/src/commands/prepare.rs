//! `iri prepare`: arbitrary strings made IRI references (IRI processing draft §4-5).

use crate::io::{each_input, Outcome};
use crate::json::{self, Object};
use iri_grammar::prepare::{prepare, prepare_multi};
use std::io::Write;

pub fn run(json: bool, multi: bool, inputs: &[String]) -> Outcome {
    each_input(inputs, |out, input| {
        let results: Vec<Result<String, String>> = match &input.text {
            Ok(s) if multi => prepare_multi(s)
                .into_iter()
                .map(|r| r.map(|r| r.to_string()).map_err(|e| e.to_string()))
                .collect(),
            Ok(s) => vec![prepare(s).map(|r| r.to_string()).map_err(|e| e.to_string())],
            Err(e) => vec![Err(e.clone())],
        };
        let ok = results.iter().all(Result::is_ok);
        let errors: Vec<&str> = results
            .iter()
            .filter_map(|r| r.as_ref().err().map(String::as_str))
            .collect();
        if json {
            let value = |r: &Result<String, String>| match r {
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
            let mut o = Object::new()
                .str("input", &input.lossy())
                .raw("prepared", &prepared);
            if !errors.is_empty() {
                o = o.str("error", &errors.join("; "));
            }
            writeln!(out, "{}", o.finish())?;
        } else if ok {
            let texts: Vec<&str> = results.iter().filter_map(|r| r.as_deref().ok()).collect();
            writeln!(out, "{}", texts.join(" "))?;
        } else {
            writeln!(out, "invalid: {}", errors.join("; "))?;
        }
        Ok(ok)
    })
}
