//! `iri conform -- COMMAND [ARGS…]`: tests a URI or IRI parser, run as a program
//! behind the line protocol of docs/conform-protocol.md, against the ABNF
//! (`iri_grammar_conform` says how), and reports where it parts from it: as text,
//! as one JSON object (`--json`, cli/schemas/conform.schema.json) and as a
//! self-contained HTML page (`--html FILE`).

use crate::args::ConformArgs;
use crate::html;
use crate::io::{ended_by, Out, Outcome, RunError};
use iri_grammar::VariantName;
use iri_grammar_conform::protocol::string_literal;
use iri_grammar_conform::subject::end_orphans;
use iri_grammar_conform::{run as conform, Crash, Group, Options, Report};
use std::fmt::Write as _;
use std::io::Write;

pub fn run(json: bool, grammar: VariantName, args: &ConformArgs) -> Outcome {
    if args.resolve {
        return super::conform_resolve::run(json, grammar, args);
    }
    let mut corpus = Corpus::default();
    let files = args.corpus.iter().map(|p| (p, false));
    for (path, json) in files.chain(args.corpus_json.iter().map(|p| (p, true))) {
        let file = std::fs::File::open(path)
            .map_err(|e| RunError::Usage(format!("reading {}: {e}", path.display())))?;
        corpus.json = json;
        corpus
            .read(file, args.budget)
            .map_err(|e| RunError::Usage(format!("reading {}: {e}", path.display())))?;
    }
    let options = Options {
        grammar,
        rule: args.rule.clone(),
        budget: args.budget,
        seed: args.seed,
        timeout: args.timeout,
        examples: args.examples.max(1),
        corpus: corpus.lines,
        corpus_skipped: corpus.skipped,
    };
    let report = conform(&options, &args.program);
    // Nothing of the program's is left behind, even what it started and hid.
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

/// How many inputs of a hang or a way of exiting are shown, the shortest first.
const SHOWN: usize = 3;

/// The crashes by the way the program exited ([`Crash::way`]), the most frequent
/// first.
fn crash_ways(crashes: &[Crash]) -> Vec<((&str, &str), Vec<&Crash>)> {
    let mut ways: Vec<((&str, &str), Vec<&Crash>)> = Vec::new();
    for c in crashes {
        match ways.iter_mut().find(|(w, _)| *w == c.way()) {
            Some((_, list)) => list.push(c),
            None => ways.push((c.way(), vec![c])),
        }
    }
    ways.sort_by_key(|w| std::cmp::Reverse(w.1.len()));
    ways
}

/// The shortest `n` of `inputs` as JSON string literals, and how many more.
fn some_of(inputs: &[&str], n: usize) -> String {
    let mut sorted = inputs.to_vec();
    sorted.sort_by_key(|s| (s.chars().count(), *s));
    let mut out: Vec<String> = sorted.iter().take(n).map(|s| shown(s)).collect();
    if sorted.len() > n {
        out.push(format!("and {} more", sorted.len() - n));
    }
    out.join(", ")
}

/// A string as a JSON string literal, the protocol's own form (docs/conform-protocol.md):
/// controls, and characters other than letters beyond ASCII (formatting, bidi,
/// private use, unassigned), as `\uXXXX` escapes, in UTF-16 pairs beyond U+FFFF,
/// so the example reads the same in a terminal, on the page and in `--corpus`.
pub(super) fn shown(s: &str) -> String {
    string_literal(s, |c| {
        c.is_ascii_graphic() || c == ' ' || (!c.is_ascii() && c.is_alphabetic())
    })
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The summary line.
fn summary(r: &Report) -> String {
    format!(
        "{}, {} agreed, {} in {}, {}, {}, {}",
        plural(r.inputs, "input asked", "inputs asked"),
        r.agreed,
        plural(r.disagreements, "disagreement", "disagreements"),
        plural(r.groups.len(), "group", "groups"),
        plural(r.hangs.len(), "hang", "hangs"),
        plural(r.crashes.len(), "crash", "crashes"),
        plural(
            r.not_understood(),
            "answer not understood",
            "answers not understood"
        ),
    )
}

/// `accepts-invalid in dec-octet (alternative 5 of 5)`.
fn heading(g: &Group) -> String {
    let mut h = g.kind.as_str().to_string();
    if let Some(c) = g.component {
        let _ = write!(h, " {c}");
    }
    let _ = write!(h, " in {}", g.rule);
    if let (Some(a), Some(n)) = (g.alternative, g.alternatives) {
        let _ = write!(h, " (alternative {a} of {n})");
    }
    h
}

/// `RFC 3986 §3.2.2`.
fn source(g: &Group) -> String {
    match &g.section {
        Some(s) if s.starts_with(|c: char| c.is_ascii_digit()) => {
            format!("{} §{s}", g.document)
        }
        Some(s) => format!("{} Appendix {s}", g.document),
        None => g.document.clone(),
    }
}

fn component(v: &Option<String>) -> String {
    v.as_deref().map_or_else(|| "absent".to_string(), shown)
}

fn write_text(out: &mut Out, r: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "{} ({} {}, seed {}): {}",
        r.program.join(" "),
        r.grammar,
        r.rule,
        r.seed,
        summary(r)
    )?;
    if let Some(why) = &r.stopped_early {
        writeln!(out, "stopped early: {why}")?;
    }
    for g in &r.groups {
        writeln!(
            out,
            "\n{}: {} found, {} minimized",
            heading(g),
            g.count,
            g.minimized
        )?;
        for e in &g.examples {
            if g.component.is_some() {
                writeln!(
                    out,
                    "  {}: the grammar's {}, the program's {}",
                    shown(&e.input),
                    component(&e.expected),
                    component(&e.got)
                )?;
            } else {
                writeln!(out, "  {}", shown(&e.input))?;
            }
        }
        for line in g.abnf.lines() {
            writeln!(out, "    {line}")?;
        }
        match &g.section_url {
            Some(url) => writeln!(out, "    {}: {url}", source(g))?,
            None => writeln!(out, "    {}", source(g))?,
        }
    }
    if !(r.hangs.is_empty() && r.crashes.is_empty() && r.unreadable.is_empty()) {
        writeln!(out)?;
    }
    if !r.hangs.is_empty() {
        let inputs: Vec<&str> = r.hangs.iter().map(String::as_str).collect();
        writeln!(
            out,
            "no answer in time on {}: {}",
            plural(inputs.len(), "input", "inputs"),
            some_of(&inputs, SHOWN)
        )?;
    }
    // One line per way of exiting, not per input: a program that crashes on a
    // character crashes on every input that holds it.
    for (way, crashes) in crash_ways(&r.crashes) {
        let inputs: Vec<&str> = crashes.iter().map(|c| c.input.as_str()).collect();
        write!(
            out,
            "exited on {} ({}; {}): {}",
            plural(inputs.len(), "input", "inputs"),
            way.0,
            shown(way.1),
            some_of(&inputs, SHOWN)
        )?;
        match crashes.iter().find_map(|c| c.minimized.as_deref()) {
            Some(m) => writeln!(out, "; shortest that exits so: {}", shown(m))?,
            None => writeln!(out)?,
        }
    }
    for u in &r.unreadable {
        writeln!(
            out,
            "answer not understood for {}: {}: {}",
            shown(&u.input),
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
    if !r.unreached.is_empty() {
        writeln!(
            out,
            "\nnot reached by the covering suite: {}",
            r.unreached.join(", ")
        )?;
    }
    Ok(())
}

/// The report as a page that needs nothing else: the summary, each group with its
/// examples, ABNF and section, then the hangs, crashes and answers not understood.
fn page(r: &Report) -> String {
    let mut b = String::new();
    let program = r.program.join(" ");
    let _ = write!(
        b,
        "<h1>iri conform</h1>\n<p class=\"mono\">{}</p>\n<p>{} <span class=\"mono\">{}</span>, seed {}: \
         <span id=\"summary\">{}</span></p>\n",
        html::esc(&program),
        html::esc(&r.grammar),
        html::esc(&r.rule),
        r.seed,
        html::esc(&summary(r))
    );
    if let Some(why) = &r.stopped_early {
        let _ = writeln!(b, "<p class=\"note\">Stopped early: {}</p>", html::esc(why));
    }
    for g in &r.groups {
        let _ = write!(
            b,
            "<section class=\"group\">\n<h2>{}</h2>\n<p>{} found, {} minimized</p>\n<ul class=\"examples\">\n",
            html::esc(&heading(g)),
            g.count,
            g.minimized
        );
        for e in &g.examples {
            let _ = write!(b, "<li>{}", html::esc(&shown(&e.input)));
            if g.component.is_some() {
                let _ = write!(
                    b,
                    "<span class=\"why\">the grammar's {}, the program's {}</span>",
                    html::esc(&component(&e.expected)),
                    html::esc(&component(&e.got))
                );
            }
            b.push_str("</li>\n");
        }
        let _ = write!(
            b,
            "</ul>\n<pre class=\"abnf\">{}</pre>\n",
            html::esc(&g.abnf)
        );
        let src = html::esc(&source(g));
        match &g.section_url {
            Some(url) => {
                let _ = writeln!(b, "<p><a href=\"{}\">{src}</a></p>", html::esc(url));
            }
            None => {
                let _ = writeln!(b, "<p>{src}</p>");
            }
        }
        b.push_str("</section>\n");
    }
    let list = |b: &mut String, title: &str, items: Vec<String>| {
        if items.is_empty() {
            return;
        }
        let _ = write!(
            b,
            "<h2>{}</h2>\n<ul class=\"examples\">\n",
            html::esc(title)
        );
        for i in items {
            let _ = writeln!(b, "<li>{i}</li>");
        }
        b.push_str("</ul>\n");
    };
    list(
        &mut b,
        "No answer in time",
        r.hangs.iter().map(|h| html::esc(&shown(h))).collect(),
    );
    list(
        &mut b,
        "Exited",
        crash_ways(&r.crashes)
            .into_iter()
            .map(|((status, _), crashes)| {
                let inputs: Vec<&str> = crashes.iter().map(|c| c.input.as_str()).collect();
                let minimized = crashes
                    .iter()
                    .find_map(|c| c.minimized.as_deref())
                    .map(|m| format!("; shortest that exits so: {}", html::esc(&shown(m))))
                    .unwrap_or_default();
                format!(
                    "{}{minimized}<span class=\"why\">{}, on {}</span><pre>{}</pre>",
                    html::esc(&some_of(&inputs, SHOWN)),
                    html::esc(status),
                    plural(inputs.len(), "input", "inputs"),
                    html::text(&crashes[0].stderr)
                )
            })
            .collect(),
    );
    list(
        &mut b,
        "Answers not understood",
        r.unreadable
            .iter()
            .map(|u| {
                format!(
                    "{}<span class=\"why\">{}: {}</span>",
                    html::esc(&shown(&u.input)),
                    html::string(&u.why, None),
                    html::esc(&shown(&u.line))
                )
            })
            .chain(
                (r.unreadable_left_out > 0)
                    .then(|| format!("and {} more, counted only", r.unreadable_left_out)),
            )
            .collect(),
    );
    html::page(&format!("iri conform: {program}"), &b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_corpus_gives_back_the_examples_the_report_writes() {
        let mut c = Corpus {
            json: true,
            ..Corpus::default()
        };
        let file = "\"a b\"\n\"\\n\"\n\n\"\\u0000x\\uD83D\\uDE00\"\r\n";
        c.read(file.as_bytes(), 10).unwrap();
        assert_eq!(c.lines, ["a b", "\n", "\u{0}x\u{1F600}"]);
        // Each example as the report shows it reads back as itself.
        for s in ["\"x\u{7}\"", "\u{202E}", "é\t"] {
            let mut c = Corpus {
                json: true,
                ..Corpus::default()
            };
            c.read(format!("{}\n", super::shown(s)).as_bytes(), 10)
                .unwrap();
            assert_eq!(c.lines, [s]);
        }
        let mut c = Corpus {
            json: true,
            ..Corpus::default()
        };
        let e = c.read("\"ok\"\nnot json\n".as_bytes(), 10).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 2 is not a JSON string literal"),
            "{e}"
        );
    }
}

/// The lines of the `--corpus` files, read a block at a time. The inputs take at
/// most a quarter of the budget from them, each of at most
/// [`iri_grammar_conform::inputs::MAX_INPUT`] bytes: a longer line is counted and
/// skipped while it is read, never held, and no more lines are kept than the budget,
/// so that a file of any size, or without line ends, takes bounded memory.
#[derive(Default)]
struct Corpus {
    lines: Vec<String>,
    skipped: usize,
    /// Each line of the file being read is a JSON string literal (`--corpus-json`).
    json: bool,
}

impl Corpus {
    fn read(&mut self, file: impl std::io::Read, budget: usize) -> std::io::Result<()> {
        use std::io::BufRead;
        const MAX: usize = iri_grammar_conform::inputs::MAX_INPUT;
        let mut reader = std::io::BufReader::with_capacity(64 * 1024, file);
        let mut line = Vec::new();
        // Whether the line being read has passed MAX: the rest of it is dropped.
        let mut over = false;
        let mut number = 0usize;
        loop {
            let block = reader.fill_buf()?;
            if block.is_empty() {
                break;
            }
            let (piece, ended) = match memchr::memchr(b'\n', block) {
                Some(k) => (&block[..k], Some(k + 1)),
                None => (block, None),
            };
            if !over {
                if line.len() + piece.len() > MAX + 1 {
                    over = true;
                    line.clear();
                } else {
                    line.extend_from_slice(piece);
                }
            }
            let used = ended.unwrap_or(block.len());
            reader.consume(used);
            if ended.is_some() {
                number += 1;
                self.end_line(&mut line, &mut over, number, budget)?;
            }
        }
        if over || !line.is_empty() {
            number += 1;
            self.end_line(&mut line, &mut over, number, budget)?;
        }
        Ok(())
    }

    /// Keeps or counts the line just read (LF or CRLF stripped, as `str::lines`).
    fn end_line(
        &mut self,
        line: &mut Vec<u8>,
        over: &mut bool,
        number: usize,
        budget: usize,
    ) -> std::io::Result<()> {
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if *over || line.len() > iri_grammar_conform::inputs::MAX_INPUT {
            self.skipped += 1;
        } else if self.lines.len() < budget {
            let text = String::from_utf8(std::mem::take(line)).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "line {number} is not UTF-8 (invalid byte at offset {})",
                        e.utf8_error().valid_up_to()
                    ),
                )
            })?;
            if !self.json {
                self.lines.push(text);
            } else if !text.trim().is_empty() {
                let input: String = serde_json::from_str(&text).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("line {number} is not a JSON string literal ({e})"),
                    )
                })?;
                if input.len() > iri_grammar_conform::inputs::MAX_INPUT {
                    self.skipped += 1;
                } else {
                    self.lines.push(input);
                }
            }
        }
        line.clear();
        *over = false;
        Ok(())
    }
}
