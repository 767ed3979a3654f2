//! `iri conform --resolve -- COMMAND [ARGS…]`: tests a program's reference
//! resolution (RFC 3986 §5.2) against the library's, behind the resolution exchange
//! of docs/conform-protocol.md (`iri_grammar_conform::resolve` says how), and
//! reports where it parts, by step of §5.2.2–§5.2.4: as text, as one JSON object
//! (`--json`, cli/schemas/conform-resolve.schema.json) and as a self-contained HTML
//! page (`--html FILE`).

use super::conform::{plural, shown};
use crate::args::ConformArgs;
use crate::html;
use crate::io::{ended_by, Out, Outcome, RunError};
use iri_grammar::VariantName;
use iri_grammar_conform::resolve::{run as resolve, ResolveReport};
use iri_grammar_conform::subject::end_orphans;
use iri_grammar_conform::Options;
use std::fmt::Write as _;
use std::io::Write;

pub fn run(json: bool, grammar: VariantName, args: &ConformArgs) -> Outcome {
    // Options that mean nothing for pairs of base and reference are refused before
    // the program is started.
    let mut refused = Vec::new();
    if args.rule.is_some() {
        refused.push("--rule (the pairs are references of the grammar)");
    }
    if !args.corpus.is_empty() || !args.corpus_json.is_empty() {
        refused.push("--corpus and --corpus-json (the pairs are made from the grammar)");
    }
    if !refused.is_empty() {
        return Err(RunError::Usage(format!(
            "--resolve takes no {}",
            refused.join(", nor ")
        )));
    }
    let options = Options {
        grammar,
        rule: None,
        budget: args.budget,
        seed: args.seed,
        timeout: args.timeout,
        examples: args.examples.max(1),
        corpus: Vec::new(),
        corpus_skipped: 0,
    };
    let report = resolve(&options, &args.program);
    end_orphans();
    let report = report.map_err(|e| RunError::Usage(e.0))?;
    if let Some(path) = &args.html {
        std::fs::write(path, page(&report))
            .map_err(|e| RunError::Io(format!("writing {}: {e}", path.display())))?;
    }
    let mut out = Out::new();
    let written = if json {
        writeln!(out, "{}", report.to_json())
    } else {
        write_text(&mut out, &report)
    };
    match written {
        Ok(()) => out.finish(report.ok()),
        Err(e) => ended_by(e, report.ok()),
    }
}

fn target(t: &Option<String>) -> String {
    t.as_deref().map_or_else(|| "invalid".to_string(), shown)
}

/// The summary line's counts.
fn summary(r: &ResolveReport) -> String {
    let not_understood = r.unreadable.len() + r.unreadable_left_out;
    format!(
        "{}, {} agreed, {} in {}, {}, {}, {}",
        plural(r.inputs, "pair asked", "pairs asked"),
        r.agreed,
        plural(r.disagreements, "disagreement", "disagreements"),
        plural(r.groups.len(), "group", "groups"),
        plural(r.hangs.len(), "hang", "hangs"),
        plural(r.crashes.len(), "crash", "crashes"),
        plural(
            not_understood,
            "answer not understood",
            "answers not understood"
        ),
    )
}

fn write_text(out: &mut Out, r: &ResolveReport) -> std::io::Result<()> {
    writeln!(
        out,
        "{} ({} resolution, seed {}): {}",
        r.program.join(" "),
        r.grammar,
        r.seed,
        summary(r)
    )?;
    if let Some(why) = &r.stopped_early {
        writeln!(out, "stopped early: {why}")?;
    }
    for g in &r.groups {
        writeln!(
            out,
            "\n{} at {}: {} found",
            g.kind.as_str(),
            g.title,
            g.count
        )?;
        for e in &g.examples {
            writeln!(
                out,
                "  base {} reference {}: the library's {}, the program's {}",
                shown(&e.base),
                shown(&e.reference),
                target(&e.expected),
                target(&e.got)
            )?;
        }
        if let (Some(s), Some(url)) = (g.section, &g.section_url) {
            writeln!(out, "    RFC 3986 §{s}: {url}")?;
        }
    }
    if !(r.hangs.is_empty() && r.crashes.is_empty() && r.unreadable.is_empty()) {
        writeln!(out)?;
    }
    for h in r.hangs.iter().take(3) {
        writeln!(out, "no answer in time on {h}")?;
    }
    for c in r.crashes.iter().take(3) {
        let last = c.stderr.trim_end().lines().last().unwrap_or_default();
        writeln!(out, "exited on {} ({}; {})", c.input, c.status, shown(last))?;
    }
    if r.crashes.len() > 3 {
        writeln!(out, "and {} more exits", r.crashes.len() - 3)?;
    }
    for c in r.crashes.iter().filter(|c| c.minimized.is_some()) {
        let (status, last) = c.way();
        let m = c.minimized.as_deref().unwrap_or_default();
        writeln!(
            out,
            "shortest that exits so ({status}; {}): {m}",
            shown(last)
        )?;
    }
    for u in &r.unreadable {
        writeln!(
            out,
            "answer not understood for {}: {}: {}",
            u.input,
            u.why,
            shown(&u.line)
        )?;
    }
    if r.unreadable_left_out > 0 {
        writeln!(
            out,
            "and {} more not understood (only the first {} are kept)",
            r.unreadable_left_out,
            r.unreadable.len()
        )?;
    }
    Ok(())
}

/// The report as a page that needs nothing else: the summary, each group with its
/// examples and section, then the hangs, exits and answers not understood.
fn page(r: &ResolveReport) -> String {
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>iri conform --resolve</h1>\n<p class=\"mono\">{}</p>\n<p>{} resolution, seed {}: \
         <span id=\"summary\">{}</span></p>\n",
        html::esc(&r.program.join(" ")),
        html::esc(&r.grammar),
        r.seed,
        html::esc(&summary(r))
    );
    if let Some(why) = &r.stopped_early {
        let _ = writeln!(b, "<p class=\"note\">Stopped early: {}</p>", html::esc(why));
    }
    for g in &r.groups {
        let _ = write!(
            b,
            "<section class=\"group\">\n<h2>{} at {}</h2>\n<p>{} found</p>\n<ul class=\"examples\">\n",
            g.kind.as_str(),
            html::esc(g.title),
            g.count
        );
        for e in &g.examples {
            let _ = writeln!(
                b,
                "<li>base {} reference {}<span class=\"why\">the library's {}, the program's {}</span></li>",
                html::esc(&shown(&e.base)),
                html::esc(&shown(&e.reference)),
                html::esc(&target(&e.expected)),
                html::esc(&target(&e.got))
            );
        }
        b.push_str("</ul>\n");
        if let (Some(s), Some(url)) = (g.section, &g.section_url) {
            let _ = writeln!(b, "<p><a href=\"{}\">RFC 3986 §{s}</a></p>", html::esc(url));
        }
        b.push_str("</section>\n");
    }
    let lines: Vec<String> = r
        .hangs
        .iter()
        .map(|h| format!("no answer in time on {h}"))
        .chain(r.crashes.iter().map(|c| {
            let last = c.stderr.trim_end().lines().last().unwrap_or_default();
            format!("exited on {} ({}; {})", c.input, c.status, last)
        }))
        .chain(r.unreadable.iter().map(|u| {
            format!(
                "answer not understood for {}: {}: {}",
                u.input, u.why, u.line
            )
        }))
        .collect();
    if !lines.is_empty() {
        b.push_str("<h2>Hangs, exits, answers not understood</h2>\n<ul class=\"examples\">\n");
        for l in lines {
            let _ = writeln!(b, "<li>{}</li>", html::esc(&l));
        }
        b.push_str("</ul>\n");
    }
    html::page("iri conform --resolve", &b)
}
