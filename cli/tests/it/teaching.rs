//! The teaching views of the command line (README, "People learning the ABNF"):
//! railroad diagrams as SVG, the book, trees with literal leaves, carets under errors,
//! and the server's API. What a browser shows is tested in `browser.rs`.
//!
//! SVG and the book's pages are checked with an XML parser (quick-xml): the diagrams
//! are SVG documents and the pages are written as polyglot XHTML (`cli/src/html.rs`),
//! so "well-formed" is a real check, not a guess about tag soup.

use crate::common;

use common::{http, http_as, iri, serve, stdout};
use quick_xml::events::Event;
use quick_xml::Reader;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A well-formed XML document, read: the name of its root, the attributes of every
/// element (element, name, value) and its text nodes (trimmed, unescaped). Panics with
/// `what` on any error, unclosed or mismatched tag.
struct Xml {
    root: String,
    attrs: Vec<(String, String, String)>,
    texts: Vec<String>,
}

fn xml(text: &str, what: &str) -> Xml {
    let mut r = Reader::from_str(text);
    r.config_mut().check_end_names = true;
    let mut root = None;
    let mut attrs = Vec::new();
    let mut texts = Vec::new();
    // Text comes in pieces: plain runs and character or entity references.
    let mut current = String::new();
    let flush = |current: &mut String, texts: &mut Vec<String>| {
        if !current.trim().is_empty() {
            texts.push(current.trim().to_string());
        }
        current.clear();
    };
    loop {
        match r.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                flush(&mut current, &mut texts);
                let name = String::from_utf8_lossy(e.name().as_ref()).to_string();
                root.get_or_insert(name.clone());
                for a in e.attributes() {
                    let a = a.unwrap_or_else(|err| panic!("{what}: attribute: {err}"));
                    let value = a
                        .unescape_value()
                        .unwrap_or_else(|err| panic!("{what}: attribute value: {err}"))
                        .to_string();
                    let key = String::from_utf8_lossy(a.key.as_ref()).to_string();
                    attrs.push((name.clone(), key, value));
                }
            }
            Ok(Event::End(_)) => flush(&mut current, &mut texts),
            Ok(Event::Text(t)) => current.push_str(
                &t.decode()
                    .unwrap_or_else(|err| panic!("{what}: text: {err}")),
            ),
            Ok(Event::GeneralRef(g)) => {
                let c = match g.resolve_char_ref() {
                    Ok(Some(c)) => c,
                    Ok(None) => match AsRef::<[u8]>::as_ref(&*g) {
                        b"amp" => '&',
                        b"lt" => '<',
                        b"gt" => '>',
                        b"quot" => '"',
                        b"apos" => '\'',
                        other => {
                            panic!("{what}: unknown entity {}", String::from_utf8_lossy(other))
                        }
                    },
                    Err(err) => panic!("{what}: reference: {err}"),
                };
                current.push(c);
            }
            Ok(_) => {}
            Err(e) => panic!(
                "{what} is not well-formed XML at byte {}: {e}",
                r.error_position()
            ),
        }
    }
    Xml {
        root: root.expect("a root element"),
        attrs,
        texts,
    }
}

#[test]
fn grammar_svg_prints_a_well_formed_svg_with_characters_for_terminals() {
    for (grammar, rule, label) in [
        ("uri", "dec-octet", "'0'–'5'"),
        ("uri", "IPv6address", "6 times"),
        ("iri", "IRI", "ihier-part"),
        ("leiri", "ucschar", "NUL–US"),
        ("leiri", "LEIRI-reference", "LEIRI"),
    ] {
        let o = iri(&["--grammar", grammar, "grammar", rule, "--svg"]);
        assert_eq!(o.status.code(), Some(0), "{grammar} {rule}");
        let svg = stdout(&o);
        let doc = xml(&svg, &format!("the diagram of {rule}"));
        assert_eq!(doc.root, "svg");
        assert!(
            doc.texts.iter().any(|t| t == label),
            "{grammar} {rule}: {label} in {:?}",
            doc.texts
        );
        assert!(
            !svg.contains("%x"),
            "{grammar} {rule}: terminals as characters"
        );
    }
    // The LEIRI grammar names its rules its own way, in the diagram too.
    let svg = stdout(&iri(&[
        "--grammar",
        "leiri",
        "grammar",
        "LEIRI-reference",
        "--svg",
    ]));
    let texts = xml(&svg, "LEIRI-reference").texts;
    assert!(texts.contains(&"LEIRI".to_string()) && !texts.contains(&"IRI".to_string()));
    // --svg needs a rule.
    assert_eq!(iri(&["grammar", "--svg"]).status.code(), Some(2));
}

/// Every `.html` file under `dir`.
fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(pages(&p));
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn the_book_is_well_formed_self_contained_and_its_links_resolve() {
    // The folder's name sets a terminal's title and resets it, if printed raw (it
    // was: the "pages written" line quoted it as it is).
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "book-{}-\u{1b}]0;PWN\u{7}\u{1b}c",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    let o = iri(&["book", "--out", out.to_str().unwrap(), "--examples", "3"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for written in [&o.stdout, &o.stderr] {
        assert!(
            !written.iter().any(|&b| b == 0x1b || b == 0x07),
            "{}",
            String::from_utf8_lossy(written)
        );
    }
    assert!(
        stdout(&o).contains("\\u001B]0;PWN\\u0007\\u001Bc"),
        "{}",
        stdout(&o)
    );

    // One page per rule and grammar, an index per grammar, a front page.
    let mut expected = 1;
    for g in ["uri", "iri", "leiri"] {
        let rules = stdout(&iri(&["--grammar", g, "grammar"])).lines().count();
        assert!(rules > 30, "{g}");
        expected += 1 + rules;
    }
    let all = pages(&out);
    assert_eq!(all.len(), expected);
    assert!(stdout(&o).starts_with(&format!("{expected} pages written")));

    let mut external = BTreeSet::new();
    for page in &all {
        let text = std::fs::read_to_string(page).unwrap();
        let what = page.strip_prefix(&out).unwrap().display().to_string();
        let doc = xml(&text, &what);
        assert_eq!(doc.root, "html", "{what}");
        for (element, key, value) in doc.attrs {
            // Nothing is loaded: no scripts, images, frames or style sheets.
            assert!(
                !(key == "src" || element == "link" || element == "script"),
                "{what}: <{element} {key}={value:?}> loads something"
            );
            if key != "href" && key != "xlink:href" {
                continue;
            }
            if value.starts_with("https://") {
                external.insert(value.split('#').next().unwrap().to_string());
                continue;
            }
            // Internal links resolve to pages of the book.
            let file = value.split('#').next().unwrap();
            let target = page.parent().unwrap().join(file);
            assert!(target.is_file(), "{what}: broken link {value:?}");
        }
    }
    // External links only to the documents themselves.
    let documents: BTreeSet<String> = [
        "https://www.rfc-editor.org/rfc/rfc3986.html",
        "https://www.rfc-editor.org/rfc/rfc3987.html",
        "https://www.rfc-editor.org/rfc/rfc5234.html",
        "https://www.w3.org/TR/leiri/",
    ]
    .map(String::from)
    .into();
    assert_eq!(external, documents);

    // A page has what issue 16 asks for.
    let page = std::fs::read_to_string(out.join("uri/dec-octet.html")).unwrap();
    for part in [
        "https://www.rfc-editor.org/rfc/rfc3986.html#section-3.2.2",
        "<svg",
        "&#x27;0&#x27;–&#x27;5&#x27;", // the diagram's terminal
        "<li>DIGIT</li>",              // the FIRST set, by its class
        "<a class=\"mono\" href=\"ipv4address.html\">IPv4address</a>", // used by
        "pub fn dec_octet",            // the generated combinator
        "Near misses",
        "<mark>",
    ] {
        assert!(page.contains(part), "dec-octet.html lacks {part:?}");
    }
    // Near misses that teach: just past the top (256), a leading zero (00), past
    // the hundreds (300); no character a reader cannot see.
    let misses = near_misses(&page);
    assert_eq!(misses, ["256", "00", "300"], "{page}");
    let page = std::fs::read_to_string(out.join("uri/ipv4address.html")).unwrap();
    let misses = near_misses(&page);
    assert_eq!(
        misses[0].split('.').count(),
        3,
        "three octets first: {misses:?}"
    );
    // The implementation note stays with the code, after the grammar's parts.
    let page = std::fs::read_to_string(out.join("uri/path-abempty.html")).unwrap();
    let note = page.find("Matched by the combinator").unwrap();
    assert!(note > page.find("<h2>The generated combinator</h2>").unwrap());
    let _ = std::fs::remove_dir_all(&out);
}

/// The near misses of a rule page of the book, as text.
fn near_misses(page: &str) -> Vec<String> {
    let list = page.split("<h2>Near misses</h2>").nth(1).unwrap();
    let list = &list[list.find("<ul class=\"examples\">").unwrap()..list.find("</ul>").unwrap()];
    list.split("<li>")
        .skip(1)
        .map(|li| {
            let li = li.split("<span class=\"why\">").next().unwrap();
            let mut text = String::new();
            let mut tag = false;
            for c in li.chars() {
                match c {
                    '<' => tag = true,
                    '>' => tag = false,
                    c if !tag => text.push(c),
                    _ => {}
                }
            }
            text.trim().to_string()
        })
        .collect()
}

/// The literal leaves of a `tree --json --literals` node, in order.
fn leaves(node: &Value, out: &mut String) {
    if let Some(l) = node["literal"].as_str() {
        out.push_str(l);
        return;
    }
    for c in node["children"].as_array().unwrap() {
        leaves(c, out);
    }
}

#[test]
fn literal_leaves_spell_the_input() {
    for (grammar, rule, input) in [
        (
            "iri",
            "IRI-reference",
            "http://résumé.example.org/ros%C3%A9?q=1#f",
        ),
        ("iri", "IRI-reference", "../g;x?y#s"),
        ("iri", "IRI-reference", ""),
        ("uri", "URI", "http://user@[::ffff:1.2.3.4]:80/a//b?q#f"),
        ("uri", "IPv6address", "1:2:3:4:5:6:7:8"),
        ("uri", "host", "[v7.a:b]"),
        ("leiri", "LEIRI-reference", "http://a/ b<c>{d}"),
    ] {
        let o = iri(&[
            "--grammar",
            grammar,
            "--json",
            "tree",
            "--literals",
            "--rule",
            rule,
            input,
        ]);
        assert_eq!(o.status.code(), Some(0), "{input}");
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let mut spelled = String::new();
        leaves(&v, &mut spelled);
        assert_eq!(spelled, input, "{grammar} {rule}");
    }
    // Without --literals, the JSON is the library's tree, unchanged.
    let o = iri(&["--grammar", "uri", "--json", "tree", "--rule", "port", "80"]);
    assert_eq!(
        stdout(&o).trim(),
        r#"{"input":"80","valid":true,"rule":"port","text":"80","start":0,"end":2,"children":[]}"#
    );
    let o = iri(&[
        "--grammar",
        "uri",
        "tree",
        "--literals",
        "--format",
        "dot",
        "--rule",
        "port",
        "80",
    ]);
    assert!(stdout(&o).contains("n1 [shape=plaintext, label=\"\\\"80\\\"\"];"));
}

#[test]
fn errors_show_a_caret_under_the_failing_character() {
    let o = iri(&["check", "--caret", "http://a b/", "http://a/"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("invalid: at char 8 (U+0020 SPACE)"));
    assert_eq!(lines[1], "  http://a b/");
    assert_eq!(lines[2], "          ^ column 9 (1-based)");
    assert_eq!(lines[3], "valid");
    // The end of the input, in tree's invalid output.
    let o = iri(&[
        "--grammar",
        "uri",
        "tree",
        "--caret",
        "--rule",
        "IPv4address",
        "1.2.3",
    ]);
    let text = stdout(&o);
    assert!(
        text.ends_with("  1.2.3\n       ^ column 6 (1-based), the end of the input\n"),
        "{text}"
    );
    // JSON: the column, 1-based.
    let o = iri(&["--json", "check", "--caret", "http://a b/"]);
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["column"], 9);
    // Without --caret, one line per input, as before.
    let o = iri(&["check", "http://a b/"]);
    assert_eq!(stdout(&o).lines().count(), 1);
}

#[test]
fn the_server_answers_its_api_on_loopback_only() {
    let (_server, url) = serve();
    let port: u16 = url
        .trim_start_matches("http://127.0.0.1:")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let (status, page) = http(port, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"app.js\">"));
    assert_eq!(http(port, "GET", "/app.js", None).0, 200);
    assert_eq!(http(port, "GET", "/app.css", None).0, 200);
    assert_eq!(http(port, "GET", "/nothing", None).0, 404);
    assert_eq!(http(port, "POST", "/api/tree", None).0, 405);
    // DNS rebinding: a name that is not this server's is refused.
    assert_eq!(http_as("evil.example:80", port, "GET", "/", None).0, 421);
    assert_eq!(
        http_as(&format!("localhost:{port}"), port, "GET", "/", None).0,
        200
    );

    let get = |path: &str| -> (u16, Value) {
        let (status, body) = http(port, "GET", path, None);
        (status, serde_json::from_str(&body).unwrap())
    };
    let (_, v) = get("/api/rules?grammar=uri");
    assert_eq!(v["default"], "URI-reference");
    assert!(v["rules"].as_array().unwrap().contains(&"dec-octet".into()));

    // A tree, literals as leaves, character offsets beside byte offsets.
    let (_, v) = get("/api/tree?grammar=iri&rule=ihost&input=r%C3%A9sum%C3%A9.org");
    assert_eq!(v["valid"], true);
    assert_eq!(v["tree"]["rule"], "ihost");
    assert_eq!(
        (v["tree"]["end"].as_u64(), v["tree"]["to"].as_u64()),
        (Some(12), Some(10))
    );
    let mut spelled = String::new();
    leaves(&v["tree"], &mut spelled);
    assert_eq!(spelled, "résumé.org");

    // An error: where, counted from 0 as the message counts (no 1-based column
    // beside it), the message, and the tree of the longest matching beginning.
    let (_, v) = get("/api/tree?grammar=iri&input=http%3A%2F%2Fa+b%2F");
    assert_eq!(v["valid"], false);
    assert_eq!(v["at"].as_u64(), Some(8));
    assert!(v.get("column").is_none());
    assert_eq!(v["partial"]["text"], "http://a");
    assert_eq!(v["partial_to"], 8);
    assert!(v["error"]
        .as_str()
        .unwrap()
        .starts_with("at char 8 (U+0020 SPACE)"));

    // A rule: ABNF, section and its link, diagram, FIRST set, code.
    let (_, v) = get("/api/rule?grammar=uri&name=dec-octet");
    assert!(v["abnf"].as_str().unwrap().starts_with("dec-octet"));
    assert_eq!(v["section"], "RFC 3986 §3.2.2");
    assert_eq!(
        v["url"],
        "https://www.rfc-editor.org/rfc/rfc3986.html#section-3.2.2"
    );
    assert!(v["svg"]
        .as_str()
        .unwrap()
        .contains("xlink:href=\"#rule=DIGIT\""));
    // FIRST sets by the grammar's classes, not code-point ranges.
    assert_eq!(v["first"], serde_json::json!(["DIGIT"]));
    assert!(v["rust"].as_str().unwrap().contains("pub fn dec_octet"));
    let (_, v) = get("/api/rule?grammar=leiri&name=LEIRI");
    assert_eq!(v["rule"], "LEIRI");
    // The note takes LEIRI's text from RFC 3987: the link goes where the text is.
    assert_eq!(
        v["url"],
        "https://www.rfc-editor.org/rfc/rfc3987.html#section-2.2"
    );
    assert_eq!(v["notes"].as_array().unwrap().len(), 1);

    // The URI grammar's rules carry no note about the combinator that matches them,
    // but their code does.
    let (_, v) = get("/api/rule?grammar=uri&name=path-abempty");
    assert_eq!(v["notes"], serde_json::json!([]));
    assert!(v["rust_note"]
        .as_str()
        .unwrap()
        .contains("RFC 3987's ipath-abempty"));
    // FIRST sets name the classes that cover them: ucschar, not sixteen ranges;
    // RFC 3986's unreserved, which RFC 3987 keeps (IPvFuture uses it).
    let (_, v) = get("/api/rule?grammar=iri&name=iunreserved");
    assert_eq!(v["first"], serde_json::json!(["ucschar", "unreserved"]));
    let (_, v) = get("/api/rule?grammar=iri&name=ireg-name");
    assert_eq!(
        v["first"],
        serde_json::json!(["iunreserved", "sub-delims", "'%'"])
    );

    // Other parses: 1.2.3.4 is an IPv4address, and a reg-name too (RFC 3986
    // §3.2.2); "a" is both ipath-noscheme and ipath-rootless.
    let (_, v) = get("/api/parses?grammar=uri&rule=URI&input=http%3A%2F%2F1.2.3.4%2F");
    assert_eq!(v["valid"], true);
    let fork = &v["forks"][0];
    assert_eq!(fork["rule"], "host");
    assert_eq!(fork["text"], "1.2.3.4");
    assert_eq!(fork["abnf"], "IPv4address");
    assert_eq!(fork["others"][0]["abnf"], "reg-name");
    assert_eq!(fork["others"][0]["tree"]["children"][0]["rule"], "reg-name");
    let (_, v) = get("/api/parses?grammar=iri&rule=ipath&input=a");
    assert_eq!(v["forks"][0]["abnf"], "ipath-noscheme");
    assert_eq!(v["forks"][0]["others"][0]["abnf"], "ipath-rootless");
    // The IPv6 alternatives do not overlap: one parse.
    let (_, v) = get("/api/parses?grammar=iri&rule=IPv6address&input=%3A%3Affff%3A1.2.3.4");
    assert_eq!(v["forks"], serde_json::json!([]));
    let (_, v) = get("/api/parses?grammar=iri&rule=IRI&input=a+b");
    assert_eq!(v["valid"], false);

    // Unknown rules and grammars are errors the page can show.
    assert_eq!(get("/api/rule?grammar=uri&name=ucschar").0, 404);
    assert_eq!(get("/api/tree?grammar=html").0, 400);
}

/// `iri book --playground`: the module is checked before anything is written, and
/// the site holds the page (answered by the worker), the module as given, and links
/// from the book's front page and rule pages.
#[test]
fn the_playground_is_written_with_its_module_and_linked_from_the_book() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("play-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("site");
    let site = out.to_str().unwrap();

    let missing = dir.join("none.wasm");
    let o = iri(&[
        "book",
        "--out",
        site,
        "--playground",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(74));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("none.wasm") && err.contains("js/build.sh"),
        "{err}"
    );
    assert!(!out.exists(), "nothing written before the module is read");

    let text = dir.join("not.wasm");
    std::fs::write(&text, "not a module").unwrap();
    let o = iri(&[
        "book",
        "--out",
        site,
        "--playground",
        text.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is not a WebAssembly module"), "{err}");

    // A module's magic number and version (the site copies it as it is).
    let module = dir.join("page.wasm");
    let bytes = b"\0asm\x01\0\0\0".to_vec();
    std::fs::write(&module, &bytes).unwrap();
    let o = iri(&[
        "book",
        "--out",
        site,
        "--examples",
        "1",
        "--playground",
        module.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let play = out.join("play");
    assert_eq!(
        std::fs::read(play.join("iri_grammar_page.wasm")).unwrap(),
        bytes
    );
    let index = std::fs::read_to_string(play.join("index.html")).unwrap();
    assert!(index.contains(r#"<meta name="iri-backend" content="wasm">"#));
    for f in ["app.js", "app.css", "worker.js"] {
        assert!(play.join(f).is_file(), "{f}");
    }
    let page = std::fs::read_to_string(out.join("iri/ipath-abempty.html")).unwrap();
    assert!(
        page.contains(r#"href="../play/index.html?grammar=iri&amp;rule=ipath-abempty""#),
        "the rule page links to the playground on its rule"
    );
    assert!(std::fs::read_to_string(out.join("index.html"))
        .unwrap()
        .contains(r#"href="play/index.html""#));
    let _ = std::fs::remove_dir_all(&dir);
}
