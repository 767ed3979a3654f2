//! `iri lint`: the prose rules on top of the grammar, as coded findings.

use super::{parse_input, write_invalid};
use crate::io::{each_input, Cause, Judgement, Out, Outcome, Style, Verdict};
use crate::json::{self, Object};
use iri_grammar::bidi::display_form;
use iri_grammar::lint::{self, Entry, Finding, LintOptions, Severity, CATALOGUE};
use iri_grammar::Variant;
use std::fmt::Write as _;
use std::io::Write;

/// What text output shows beside the findings.
pub struct Show {
    /// Each input's display form for a bidi context (`--display`).
    pub display: bool,
    /// The input with a caret under each finding's character (`--caret`).
    pub caret: bool,
}

pub fn run<V: Variant>(
    style: &Style,
    show: Show,
    list: bool,
    percent_encoded: bool,
    inputs: &[String],
) -> Outcome {
    if list {
        return catalogue(style.json);
    }
    let Show { display, caret } = show;
    super::caret_beside_copies(style, caret)?;
    let options = LintOptions {
        check_percent_encoded: percent_encoded,
        ..LintOptions::default()
    };
    let json = style.json;
    each_input(inputs, style, |input, out| {
        let r = match parse_input::<V>(input) {
            Ok(r) => r,
            Err(p) => return write_invalid(out, json, input, &p),
        };
        let findings = r.lint_with(&options);
        let failed = lint::has_errors(&findings);
        if json {
            let mut o = input
                .json()
                .bool("valid", !failed)
                .raw("findings", &json::array(findings.iter().map(finding_json)));
            if display {
                o = o.str("display", &display_form(r.as_str()));
            }
            let _ = writeln!(out, "{}", o.null("error").finish());
        } else {
            for f in &findings {
                finding_text(f, out);
                if caret {
                    out.push_str(&crate::caret::caret(r.as_str(), f.char_offset, "  "));
                }
            }
            if display {
                let _ = writeln!(out, "{}", display_form(r.as_str()));
            }
        }
        match findings.iter().find(|f| f.severity() == Severity::Error) {
            Some(f) => Judgement {
                verdict: Verdict::Failed,
                cause: Some(Cause::Reason(f.code().to_string())),
            },
            None => Judgement::success(),
        }
    })
}

/// A finding as a line: `SEVERITY CODE at char N: message [component, character]`,
/// the offset in characters (code points) from 0, as `check`'s messages count.
fn finding_text(f: &Finding, out: &mut String) {
    let _ = write!(
        out,
        "{} {} at char {}: {} [{}",
        f.severity().as_str(),
        f.code(),
        f.char_offset,
        f.message(),
        f.component
    );
    if let Some(c) = f.character_label() {
        let _ = write!(out, ", {c}");
    }
    out.push_str("]\n");
}

/// A finding as JSON: `code`, `severity`, `section`, `byte_offset`, `char_offset`,
/// `message`, `component`, `character` (`U+XXXX` and its name, or null).
fn finding_json(f: &Finding) -> String {
    Object::new()
        .str("code", f.code())
        .str("severity", f.severity().as_str())
        .str("section", &f.section())
        .num("byte_offset", f.offset)
        .num("char_offset", f.char_offset)
        .str("message", f.message())
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
