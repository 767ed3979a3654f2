//! `iri lint`: the prose rules on top of the grammar, as coded findings.

use super::{parse_input, write_invalid};
use crate::io::{each_input, Out, Outcome};
use crate::json::{self, Object};
use iri_grammar::bidi::display_form;
use iri_grammar::lint::{self, Entry, Finding, LintOptions, CATALOGUE};
use iri_grammar::Variant;
use std::io::Write;

pub fn run<V: Variant>(
    json: bool,
    display: bool,
    list: bool,
    percent_encoded: bool,
    inputs: &[String],
) -> Outcome {
    if list {
        return catalogue(json);
    }
    let options = LintOptions {
        check_percent_encoded: percent_encoded,
        ..LintOptions::default()
    };
    each_input(inputs, |out, input| {
        let r = match parse_input::<V>(input) {
            Ok(r) => r,
            Err(e) => return write_invalid(out, json, input, &e),
        };
        let findings = lint::lint(&r, &options);
        if json {
            let mut o = Object::new()
                .str("input", r.as_str())
                .raw("findings", &json::array(findings.iter().map(finding_json)));
            if display {
                o = o.str("display", &display_form(r.as_str()));
            }
            writeln!(out, "{}", o.finish())?;
        } else {
            for f in &findings {
                writeln!(out, "{f}")?;
            }
            if display {
                writeln!(out, "{}", display_form(r.as_str()))?;
            }
        }
        Ok(!lint::has_errors(&findings))
    })
}

/// A finding as JSON: `code`, `offset` (bytes), `char_offset`, `severity`, `message`,
/// `section`, `component`, `character` (`U+XXXX`, or null).
fn finding_json(f: &Finding) -> String {
    Object::new()
        .str("code", f.code())
        .num("offset", f.offset)
        .num("char_offset", f.char_offset)
        .str("severity", f.severity().as_str())
        .str("message", f.message())
        .str("section", &f.section())
        .str("component", f.component.as_str())
        .opt_str("character", f.character_label().as_deref())
        .finish()
}

/// `iri lint --list`: the catalogue.
fn catalogue(json: bool) -> Outcome {
    let mut out = Out::new();
    let written = if json {
        writeln!(out, "{}", json::array(CATALOGUE.iter().map(entry_json)))
    } else {
        write!(out, "{}", lint::catalogue_text())
    };
    match written {
        Ok(()) => out.finish(true),
        Err(e) => crate::io::ended_by(e, true),
    }
}

/// A catalogue entry as JSON: `code`, `severity`, `document`, `section` (the
/// citation), `grammars`, `message`.
fn entry_json(e: &Entry) -> String {
    Object::new()
        .str("code", e.code)
        .str("severity", e.severity.as_str())
        .str("document", e.document)
        .str("section", &e.citation())
        .strs("grammars", e.grammars.iter().map(|g| g.as_str()))
        .str("message", e.message)
        .finish()
}
