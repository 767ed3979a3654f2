//! `iri grammar`: the rules of a grammar, or one rule's ABNF, source and generated
//! combinator, or its railroad diagram as SVG.

use super::rule_arg;
use crate::io::{ended_by, Out, Outcome};
use crate::json::Object;
use crate::teach::Lesson;
use iri_grammar::{Rule, Variant};
use iri_grammar_abnf::{codegen, Grammars, RuleDef};
use std::io::Write;

pub fn run<V: Variant>(json: bool, name: Option<&str>, rust: bool, svg: bool) -> Outcome {
    let mut out = Out::new();
    let written = match name {
        None => list::<V>(&mut out, json),
        Some(name) if svg => {
            let rule = rule_arg::<V>(Some(name))?;
            diagram::<V>(&mut out, json, rule)
        }
        Some(name) => {
            let rule = rule_arg::<V>(Some(name))?;
            one::<V>(&mut out, json, rule, rust)
        }
    };
    match written {
        Ok(()) => out.finish(true),
        Err(e) => ended_by(e, true),
    }
}

/// The railroad diagram of a rule, as an SVG document (JSON: under `"svg"`), its
/// references named as the grammar names them.
fn diagram<V: Variant>(out: &mut Out, json: bool, r: Rule) -> std::io::Result<()> {
    let g = Grammars::builtin();
    let lesson = Lesson::new(&g, V::NAME);
    let Some(f) = lesson.named(r.name::<V>()) else {
        // Every rule of Rule::of has a definition in the table (tests/it/names.rs).
        return Ok(());
    };
    let svg = lesson.svg(&f, &|_| None);
    if json {
        let o = Object::new().str("rule", f.name).str("svg", &svg);
        writeln!(out, "{}", o.finish())
    } else {
        writeln!(out, "{}", svg.trim_end())
    }
}

/// Every rule of the grammar with its source: where the variant's own document
/// defines it (RFC 3986 for a URI rule, though one combinator matches it under
/// every grammar).
fn list<V: Variant>(out: &mut Out, json: bool) -> std::io::Result<()> {
    let g = Grammars::builtin();
    let table = g.table(V::NAME);
    for (n, r) in Rule::of(V::NAME) {
        let own = own_definition::<V>(&table, r).map(|d| d.source.to_string());
        let src = own.as_deref().unwrap_or(r.source());
        if json {
            writeln!(
                out,
                "{}",
                Object::new().str("rule", n).str("source", src).finish()
            )?;
        } else {
            writeln!(out, "{n:<16} {src}")?;
        }
    }
    Ok(())
}

/// The definition of `r` as the variant's own document writes it (RFC 3986's text
/// under Uri), else RFC 3987's.
fn own_definition<'g, V: Variant>(table: &[&'g RuleDef], r: Rule) -> Option<&'g RuleDef> {
    let vname = r.name::<V>();
    table
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(vname))
        .or_else(|| {
            table
                .iter()
                .find(|d| d.name.eq_ignore_ascii_case(r.iri_name()))
        })
        .copied()
}

/// One rule: its ABNF as its own document writes it, its source, and with `rust`
/// the combinator generated from it.
fn one<V: Variant>(out: &mut Out, json: bool, r: Rule, rust: bool) -> std::io::Result<()> {
    let g = Grammars::builtin();
    let table = g.table(V::NAME);
    let vname = r.name::<V>();
    let def = own_definition::<V>(&table, r);
    let (abnf, source) = match def {
        Some(d) => (d.text.clone(), d.source.to_string()),
        None => (r.abnf().to_string(), r.source().to_string()),
    };
    let mut notes = Vec::new();
    if !vname.eq_ignore_ascii_case(r.iri_name()) {
        notes.push(format!(
            "matched by the combinator of RFC 3987's {} under {:?}",
            r.iri_name(),
            V::NAME
        ));
    }
    let code = if rust {
        codegen::rule_source(&g, &format!("{r:?}"))
    } else {
        None
    };
    if json {
        let o = Object::new()
            .str("rule", vname)
            .str("abnf", &abnf)
            .str("source", &source)
            .strs("notes", notes.iter().map(String::as_str))
            .opt_str("rust", code.as_deref());
        writeln!(out, "{}", o.finish())?;
    } else {
        writeln!(out, "{abnf}")?;
        writeln!(out, "; {source}")?;
        for n in &notes {
            writeln!(out, "; {n}")?;
        }
        if let Some(code) = code {
            writeln!(out, "\n{code}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::run_in_memory;

    /// Each rule of the list is labelled with the document of the grammar asked
    /// for: under `--grammar uri`, RFC 3986 (its §3, §4.1 ...), never RFC 3987's
    /// §2.2, though the combinators are RFC 3987's; the LEIRI note's own `ucschar`.
    #[test]
    fn the_list_names_the_grammar_s_own_document() {
        let run = run_in_memory(["iri", "--grammar", "uri", "grammar"], b"");
        let list = String::from_utf8(run.stdout).unwrap();
        assert_eq!(run.status, 0);
        assert!(list.lines().count() >= 40, "{list}");
        let from_3987: Vec<_> = list.lines().filter(|l| l.contains("RFC 3987")).collect();
        assert!(from_3987.is_empty(), "{from_3987:#?}");
        assert!(list.starts_with("URI              RFC 3986 §3 (grammar/rfc3986.abnf line 8)\n"));
        let run = run_in_memory(["iri", "--grammar", "leiri", "grammar"], b"");
        let list = String::from_utf8(run.stdout).unwrap();
        let ucschar = list.lines().find(|l| l.starts_with("ucschar ")).unwrap();
        assert!(ucschar.contains("grammar/leiri.abnf"), "{ucschar}");
        // The single-rule view agreed already; both read the same definition.
        let run = run_in_memory(["iri", "--grammar", "uri", "grammar", "URI"], b"");
        let one = String::from_utf8(run.stdout).unwrap();
        assert!(
            one.contains("; RFC 3986 §3 (grammar/rfc3986.abnf line 8)"),
            "{one}"
        );
    }
}
