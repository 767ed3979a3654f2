//! `iri book --out DIR`: a static site that teaches the three grammars, one page per
//! rule and grammar, plus an index per grammar and a front page.
//!
//! ```text
//! DIR/index.html            the three grammars, and how to read a railroad diagram
//! DIR/uri/index.html        RFC 3986's rules
//! DIR/uri/dec-octet.html    one rule: ABNF, section, diagram, FIRST set, uses and
//!                           used-by, examples, near misses, the generated combinator
//! DIR/iri/..., DIR/leiri/...
//! DIR/play/                 with --playground: the teaching page of `iri serve`,
//!                           answered in the browser by WebAssembly (js/page)
//! ```
//!
//! Pages link to each other relatively and load nothing (see `crate::html`), so the
//! folder can be opened from disk or put on any static host. The examples come from a
//! fixed seed: the same binary writes the same book.

use crate::html::{self, esc};
use crate::io::{Outcome, RunError, Verdict};
use crate::teach::{Facts, Lesson};
use iri_grammar::{check, Rule, VariantName};
use iri_grammar_abnf::teaching::documents::document_url;
use iri_grammar_abnf::Grammars;
use iri_grammar_teach::assets;
use std::fmt::Write as _;
use std::path::Path;

/// The folder of the static playground in the book.
const PLAY: &str = "play";

/// The file of a rule's page in its grammar's folder. ABNF names are case-insensitive
/// (RFC 5234 §2.1) and so are some file systems: lower case keeps both happy.
pub fn file_name(rule: &str) -> String {
    format!("{}.html", rule.to_ascii_lowercase())
}

/// The folder of a grammar, and how it is introduced.
fn grammar_title(v: VariantName) -> (&'static str, &'static str) {
    match v {
        VariantName::Uri => (
            "URI",
            "RFC 3986, Uniform Resource Identifier (URI): Generic Syntax",
        ),
        VariantName::Iri => (
            "IRI",
            "RFC 3987, Internationalized Resource Identifiers (IRIs)",
        ),
        VariantName::Leiri => (
            "LEIRI",
            "W3C Note, Legacy extended IRIs for XML resource identification",
        ),
        VariantName::Iri2001 => (
            "IRI-2001",
            "draft-masinter-url-i18n-07, Internationalized Resource Identifiers (IRI), 2001",
        ),
    }
}

pub fn run(out: &Path, examples: usize, seed: u64, playground: Option<&Path>) -> Outcome {
    // The module first: a wrong path is said before any page is written.
    let module = match playground {
        Some(path) => Some(page_module(path)?),
        None => None,
    };
    let g = Grammars::builtin();
    let mut pages = 0;
    let write = |path: &Path, text: String| -> Result<(), RunError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| RunError::Io(format!("creating {}: {e}", dir.display())))?;
        }
        std::fs::write(path, text)
            .map_err(|e| RunError::Io(format!("writing {}: {e}", path.display())))
    };
    let linked = module.is_some();
    if let Some(module) = module {
        let play = out.join(PLAY);
        write(&play.join("index.html"), assets::static_index_html())?;
        write(&play.join("app.js"), assets::APP_JS.to_string())?;
        write(&play.join("app.css"), assets::APP_CSS.to_string())?;
        write(&play.join("worker.js"), assets::WORKER_JS.to_string())?;
        std::fs::write(play.join(assets::PAGE_MODULE), module).map_err(|e| {
            RunError::Io(format!(
                "writing {}: {e}",
                play.join(assets::PAGE_MODULE).display()
            ))
        })?;
        pages += 1;
    }
    write(&out.join("index.html"), front_page(linked))?;
    pages += 1;
    for v in VariantName::ALL {
        let lesson = Lesson::new(&g, v);
        let dir = out.join(v.as_str());
        let rules = lesson.rules();
        write(&dir.join("index.html"), index_page(&lesson, &rules))?;
        pages += 1;
        for f in &rules {
            write(
                &dir.join(file_name(f.name)),
                rule_page(&lesson, f, examples, seed, linked),
            )?;
            pages += 1;
        }
    }
    crate::io::say(&format!(
        "{pages} pages written; open {}",
        out.join("index.html").display()
    ));
    Ok(Verdict::Success)
}

/// The teaching page's engine at `path`: a WebAssembly module (its magic number
/// checked, so that a wrong file is refused here rather than in the reader's browser).
fn page_module(path: &Path) -> Result<Vec<u8>, RunError> {
    let bytes = std::fs::read(path).map_err(|e| {
        RunError::Io(format!(
            "reading the playground's module {}: {e} (bash js/build.sh writes it)",
            path.display()
        ))
    })?;
    if !bytes.starts_with(b"\0asm") {
        return Err(RunError::Usage(format!(
            "{} is not a WebAssembly module (--playground takes js/iri_grammar_page.wasm, \
             which bash js/build.sh writes)",
            path.display()
        )));
    }
    Ok(bytes)
}

/// The front page: the grammars, and how to read the pages.
fn front_page(linked: bool) -> String {
    let mut b = String::new();
    b.push_str("<h1>The ABNF of URIs, IRIs and LEIRIs</h1>\n");
    b.push_str(
        "<p>Every rule of three grammars, one page each: the ABNF as its document writes \
         it, a railroad diagram of it, the characters it can start with, the rules it uses \
         and is used by, strings it matches and near misses it rejects, and the Rust \
         combinator that <code>iri-grammar</code> generates from it.</p>\n<ul>\n",
    );
    for v in VariantName::ALL {
        let (short, long) = grammar_title(v);
        let _ = writeln!(
            b,
            "<li><a href=\"{}/index.html\">{short}</a>: {}</li>",
            v.as_str(),
            esc(long)
        );
    }
    b.push_str("</ul>\n");
    if linked {
        let _ = writeln!(
            b,
            "<p><a href=\"{PLAY}/index.html\">The playground</a>: type a URI, IRI or LEIRI \
             and see its tree, the alternative each rule took, the other parses the ABNF \
             allows, and the parser's steps, in your browser.</p>"
        );
    }
    b.push_str(LEGEND);
    html::page("iri-grammar: the ABNF of URIs, IRIs and LEIRIs", &b)
}

/// How to read a railroad diagram and the other parts of a rule page.
const LEGEND: &str = r#"<h2>How to read a rule page</h2>
<p>A <b>railroad diagram</b> is read from left to right along the track, as a train would
go: every path from the left end to the right end spells a string the rule matches.</p>
<table>
<tr><th>on the track</th><th>ABNF (RFC 5234)</th><th>means</th></tr>
<tr><td>rounded box <code>'0'–'5'</code></td><td><code>%x30-35</code> (§3.4)</td><td>one character in that range</td></tr>
<tr><td>rounded box <code>"//"</code></td><td><code>"//"</code> (§2.3)</td><td>these characters; letters in either case: <code>"v" or "V"</code></td></tr>
<tr><td>rounded box <code>SP</code>, <code>NUL–US</code>, <code>U+00A0–U+D7FF</code></td><td><code>%x20</code>, <code>%x0-1F</code>, <code>%xA0-D7FF</code></td><td>characters that cannot be shown are named (ASCII control names) or numbered</td></tr>
<tr><td>square box <code>h16</code></td><td><code>h16</code></td><td>a match of another rule (click it)</td></tr>
<tr><td>boxes in a row</td><td><code>a b</code> (§3.1)</td><td>one after the other</td></tr>
<tr><td>parallel tracks</td><td><code>a / b</code> (§3.2)</td><td>any one of them (ABNF does not order them)</td></tr>
<tr><td>a track around a box</td><td><code>[ a ]</code> (§3.8)</td><td>optional</td></tr>
<tr><td>a loop back</td><td><code>1*a</code>, <code>*a</code> (§3.6)</td><td>again, as often as you like; with a label: that many times</td></tr>
</table>
<p>The <b>FIRST set</b> lists the characters a match can start with; it is what a parser
looks at to decide which alternative to try. The <b>near misses</b> are strings one or
two edits away from an example that the rule rejects, with the character where the
match fails marked and the library's message.</p>
"#;

/// A grammar's index: every rule with its section and definition.
fn index_page(lesson: &Lesson<'_>, rules: &[Facts<'_>]) -> String {
    let (short, long) = grammar_title(lesson.variant);
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<nav><a href=\"../index.html\">Book</a> › {short}</nav>\n<h1>{short}</h1>\n<p>{}.",
        esc(long)
    );
    if let Some(url) = document_url(match lesson.variant {
        VariantName::Uri => "rfc3986.abnf",
        VariantName::Iri => "rfc3987.abnf",
        VariantName::Leiri => "leiri.abnf",
        VariantName::Iri2001 => "draft-masinter-url-i18n-07.abnf",
    }) {
        let _ = write!(b, " <a href=\"{}\">Read the document</a>.", esc(&url));
    }
    b.push_str("</p>\n<table>\n<tr><th>rule</th><th>defined in</th><th>can start with</th></tr>\n");
    for f in rules {
        let (src, url) = lesson.source(f);
        let section = match url {
            Some(u) => format!("<a href=\"{}\">{}</a>", esc(&u), esc(&section_text(src))),
            None => esc(&section_text(src)),
        };
        let (first, nullable) = lesson.first(f);
        let mut starts = first.join(" ");
        if starts.chars().count() > 60 {
            starts = format!("{}…", starts.chars().take(60).collect::<String>());
        }
        if nullable {
            starts.push_str(if first.is_empty() {
                "(empty)"
            } else {
                " or empty"
            });
        }
        let _ = writeln!(
            b,
            "<tr><td class=\"mono\"><a href=\"{}\">{}</a></td><td>{section}</td><td class=\"mono muted\">{}</td></tr>",
            esc(&file_name(f.name)),
            esc(f.name),
            esc(&starts)
        );
    }
    b.push_str("</table>\n");
    html::page(&format!("{short} grammar — iri-grammar"), &b)
}

/// `RFC 3986 §3.2.2`, without the file and line.
fn section_text(s: &iri_grammar_abnf::Source) -> String {
    match &s.section {
        Some(sec) if sec.starts_with(|c: char| c.is_ascii_digit()) => {
            format!("{} §{sec}", s.document)
        }
        Some(sec) => format!("{} {sec}", s.document),
        None => s.document.clone(),
    }
}

/// Whether the runtime rejects `s` as `rule`, and where: (character offset, message).
fn runtime_error(v: VariantName, rule: Rule, s: &str) -> Option<(usize, String)> {
    let r = iri_grammar::with_variant!(v, V => check::<V>(rule, s));
    r.err().map(|e| (e.char_offset(), e.message()))
}

/// One rule's page.
fn rule_page(
    lesson: &Lesson<'_>,
    f: &Facts<'_>,
    examples: usize,
    seed: u64,
    linked: bool,
) -> String {
    let (short, _) = grammar_title(lesson.variant);
    let href = |name: &str| file_name(name);
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<nav><a href=\"../index.html\">Book</a> › <a href=\"index.html\">{short}</a> › {}</nav>",
        esc(f.name)
    );
    let _ = writeln!(b, "<h1>{}</h1>", esc(f.name));

    // Where it comes from.
    let (src, url) = lesson.source(f);
    let where_ = match &url {
        Some(u) => format!("<a href=\"{}\">{}</a>", esc(u), esc(&section_text(src))),
        None => esc(&section_text(src)),
    };
    let _ = writeln!(
        b,
        "<p>Defined in {where_} (<code>grammar/{}</code> line {}).</p>",
        esc(&src.file),
        src.line
    );
    for n in &f.notes {
        let _ = writeln!(b, "<p class=\"note\">{}</p>", esc(n));
    }
    if linked {
        let _ = writeln!(
            b,
            "<p><a href=\"../{PLAY}/index.html?grammar={}&amp;rule={}\">Try {} in the \
             playground</a>.</p>",
            lesson.variant.as_str(),
            esc(f.name),
            esc(f.name)
        );
    }
    // The same rule in the other grammars.
    let others: Vec<String> = VariantName::ALL
        .into_iter()
        .filter(|&o| o != lesson.variant)
        .filter_map(|o| {
            let name = f.rule.name_in(o)?;
            (Rule::named(o, name) == Some(f.rule)).then(|| {
                format!(
                    "<a href=\"../{}/{}\">{} in {}</a>",
                    o.as_str(),
                    esc(&file_name(name)),
                    esc(name),
                    grammar_title(o).0
                )
            })
        })
        .collect();
    if !others.is_empty() {
        let _ = writeln!(b, "<p class=\"muted\">Compare: {}.</p>", others.join(", "));
    }

    let _ = writeln!(
        b,
        "<h2>ABNF</h2>\n<pre class=\"abnf\">{}</pre>",
        html::abnf(&f.def.text, f.name, lesson, &href)
    );
    let _ = writeln!(
        b,
        "<h2>Railroad diagram</h2>\n<div class=\"diagram\">{}</div>",
        lesson.svg(f, &|n| Some(file_name(n)))
    );

    // FIRST set.
    let (first, nullable) = lesson.first(f);
    b.push_str("<h2>Can start with (FIRST set)</h2>\n");
    if first.is_empty() {
        b.push_str("<p>No character: this rule only matches the empty string.</p>\n");
    } else {
        b.push_str("<ul class=\"chars\">");
        for c in &first {
            let _ = write!(b, "<li>{}</li>", esc(c));
        }
        b.push_str("</ul>\n");
    }
    if nullable && !first.is_empty() {
        b.push_str(
            "<p>It can also match the empty string, so what follows it can come first.</p>\n",
        );
    }

    // Uses and used by.
    let links = |names: Vec<String>| -> String {
        if names.is_empty() {
            return "<span class=\"muted\">none</span>".to_string();
        }
        names
            .iter()
            .map(|n| {
                format!(
                    "<a class=\"mono\" href=\"{}\">{}</a>",
                    esc(&file_name(n)),
                    esc(n)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        b,
        "<h2>Uses and used by</h2>\n<p>Uses: {}.</p>\n<p>Used by: {}.</p>",
        links(lesson.uses(f)),
        links(lesson.used_by(f))
    );

    // Examples and near misses.
    let (good, bad) = lesson.examples(f, examples, seed);
    b.push_str("<h2>Examples</h2>\n<p class=\"muted\">Generated from the grammar (characters that cannot be seen are shown by code point).</p>\n<ul class=\"examples\">\n");
    for s in &good {
        let shown = if s.is_empty() {
            "<span class=\"muted\">(the empty string)</span>".to_string()
        } else {
            html::string(s, None)
        };
        let _ = writeln!(b, "<li>{shown}</li>");
    }
    b.push_str("</ul>\n<h2>Near misses</h2>\n<p class=\"muted\">Small edits of the examples that the rule rejects, the failing character marked.</p>\n<ul class=\"examples\">\n");
    for s in &bad {
        let (mark, why) = match runtime_error(lesson.variant, f.rule, s) {
            Some((at, msg)) => (Some(at), msg),
            // The oracle rejects it; the combinators must too (tests/it/differential.rs).
            None => (
                None,
                "accepted by the combinators: please report".to_string(),
            ),
        };
        let shown = if s.is_empty() {
            "<span class=\"muted\">(the empty string)</span>".to_string()
        } else {
            html::string(s, mark)
        };
        let _ = writeln!(
            b,
            "<li>{shown}<span class=\"why\">{}</span></li>",
            esc(&why)
        );
    }
    if bad.is_empty() {
        b.push_str("<li class=\"muted\">none found</li>\n");
    }
    b.push_str("</ul>\n");

    // The generated combinator.
    if let Some(code) = lesson.rust(f) {
        let _ = writeln!(
            b,
            "<h2>The generated combinator</h2>\n<p class=\"muted\">From <code>src/grammar/generated.rs</code>: the rule as a nom parser, generic over the grammar (<code>V</code>) and the mode (<code>M</code>: check, tree or explain).</p>"
        );
        if let Some(note) = &f.code_note {
            let _ = writeln!(b, "<p class=\"note\">{}</p>", esc(note));
        }
        let _ = writeln!(b, "<pre>{}</pre>", esc(&code));
    }
    html::page(&format!("{} — {short} grammar — iri-grammar", f.name), &b)
}
