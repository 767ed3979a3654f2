//! `iri serve` in a real browser: the page is started on a free loopback port, headless
//! Chromium is driven through chromedriver (W3C WebDriver, plain JSON over HTTP), an
//! input is typed, and the DOM is checked: the tree of `http://résumé.example.org/`
//! has `ireg-name` and its literal leaves spell the input, hovering a node highlights
//! its span, `http://a b/` shows the error with a caret under the space, clicking the
//! `IPv6address` of `http://[::ffff:1.2.3.4]/` says it took alternative 6 of 9 and why
//! the five before failed, the trace steps forward and backward with the input in
//! sight, `http://1.2.3.4/` shows its other parse (ireg-name beside IPv4address),
//! the rule `dec-octet` shows its railroad diagram, whose rule boxes are links, and
//! its FIRST set as `DIGIT`; the error messages use the diagrams' notation, a failing
//! input shows the tree of its longest matching beginning, the URI grammar keeps the
//! implementation note with the code, and the widest diagram (IPv6address) fits its
//! panel.
//!
//! Why WebDriver from Rust: the test runs in `cargo test` with nothing to install
//! besides Debian's `chromium` and `chromium-driver` (no Node packages, no browser
//! download), and WebDriver is small enough to speak with `std::net` and `serde_json`.
//!
//! Without Chromium the test says so and passes, except under `CI=true`, where it
//! fails: CI installs Chromium (`.ci/run`) and must really run it. The browser is found
//! on PATH (`chromium`, `chromium-browser`, `google-chrome`) or by `IRI_CHROMIUM` and
//! `IRI_CHROMEDRIVER`.
//!
//! Screenshots are written to `target/tmp/screenshots/`; with
//! `IRI_UPDATE_SCREENSHOTS=1` also to `docs/screenshots/`, the ones the README shows.

use crate::common;

use common::{http, serve, Killed};
use serde_json::{json, Value};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The W3C WebDriver key of an element reference (WebDriver §12.1).
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// How long any one wait may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium and chromedriver, or why the test cannot run.
fn browser() -> Result<(PathBuf, PathBuf), String> {
    let chromium = std::env::var_os("IRI_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| on_path(&["chromium", "chromium-browser", "google-chrome"]))
        .ok_or("no Chromium (chromium, chromium-browser or google-chrome) on PATH")?;
    let driver = std::env::var_os("IRI_CHROMEDRIVER")
        .map(PathBuf::from)
        .or_else(|| on_path(&["chromedriver"]))
        .ok_or("no chromedriver on PATH")?;
    Ok((chromium, driver))
}

/// Standard base64 (RFC 4648 §4), for WebDriver's screenshots.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let clean: Vec<u8> = text.bytes().filter(|&c| c != b'=' && c != b'\n').collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (k, &c) in chunk.iter().enumerate() {
            n |= value(c) << (18 - 6 * k);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    out
}

/// A WebDriver session.
struct Session {
    port: u16,
    id: String,
}

impl Session {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, text) = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.id),
            body.as_ref(),
        );
        let v: Value = serde_json::from_str(&text).expect("WebDriver answers JSON");
        assert!(status == 200, "WebDriver {method} {path}: {status} {text}");
        v["value"].clone()
    }

    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().expect("element").to_string()
    }

    /// Waits until `script` returns true; fails with `what` otherwise.
    fn wait(&self, what: &str, script: &str) {
        let start = Instant::now();
        loop {
            if self.run(script) == json!(true) {
                return;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "timed out waiting for {what}; page text:\n{}",
                self.run("return document.body.innerText")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn type_into(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call("POST", &format!("/element/{e}/clear"), Some(json!({})));
        self.call(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn click(&self, css: &str) {
        let e = self.find(css);
        self.call("POST", &format!("/element/{e}/click"), Some(json!({})));
    }

    fn hover(&self, css: &str) {
        let e = self.find(css);
        let actions = json!({"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "x": 0, "y": 0,
                         "origin": {ELEMENT: e}}]
        }]});
        self.call("POST", "/actions", Some(actions));
    }

    fn screenshot(&self, name: &str) {
        let png = base64(self.call("GET", "/screenshot", None).as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&tmp).unwrap();
        std::fs::write(tmp.join(name), &png).unwrap();
        if std::env::var_os("IRI_UPDATE_SCREENSHOTS").is_some() {
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots");
            std::fs::create_dir_all(&docs).unwrap();
            std::fs::write(docs.join(name), &png).unwrap();
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = http(self.port, "DELETE", &format!("/session/{}", self.id), None);
    }
}

/// A port free on the loopback address now (the driver is told to use it).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts chromedriver and a headless Chromium session.
fn session(chromium: &Path, driver: &Path, profile: &Path) -> (Killed, Session) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let child = Killed(child);
    let start = Instant::now();
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            let (_, text) = http(port, "GET", "/status", None);
            if text.contains("\"ready\":true") {
                break;
            }
        }
        assert!(start.elapsed() < PATIENCE, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let caps = json!({"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium.to_str().unwrap(),
            "args": [
                // The flags this machine's Chromium needs: no sandbox (root in a
                // container), no GPU, and no network of its own (the network is closed).
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage",
                format!("--user-data-dir={}", profile.display()),
                "--window-size=1280,1000",
            ]
        }
    }}});
    let (status, text) = http(port, "POST", "/session", Some(&caps));
    assert_eq!(status, 200, "new session: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let id = v["value"]["sessionId"].as_str().unwrap().to_string();
    (child, Session { port, id })
}

/// Chromium and chromedriver, or `None` after saying why the test is skipped (a
/// failure under `CI=true`, where CI installs them).
fn browser_or_skip() -> Option<(PathBuf, PathBuf)> {
    match browser() {
        Ok(found) => Some(found),
        Err(why) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true but the browser test cannot run: {why} (.ci/run installs chromium and chromium-driver)")
        }
        Err(why) => {
            // Straight to standard error: the test harness hides what a passing test
            // prints with eprintln!, and a skip must be seen.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED the browser test: {why}. Install Debian's chromium and \
                 chromium-driver to run it (CI does)."
            );
            None
        }
    }
}

/// The report page of `iri conform --html`, opened from its file: it loads with
/// nothing from elsewhere and shows its groups, each with its examples and ABNF.
#[cfg(unix)]
#[test]
fn the_conform_page_shows_its_groups_in_a_real_browser() {
    let Some((chromium, driver)) = browser_or_skip() else {
        return;
    };
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("conform-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("yes.sh");
    std::fs::write(&program, "while read l; do echo valid; done\n").unwrap();
    let page = dir.join("report.html");
    let status = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args([
            "--grammar",
            "uri",
            "conform",
            "--rule",
            "IPv4address",
            "--budget",
            "100",
            "--html",
        ])
        .arg(&page)
        .args(["--", "sh"])
        .arg(&program)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1), "disagreements");
    let profile = dir.join("profile");
    let (_driver, s) = session(&chromium, &driver, &profile);
    s.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("file://{}", page.display()) })),
    );
    s.wait(
        "the report's groups",
        "return document.querySelectorAll('section.group li').length > 0",
    );
    let summary = s.run("return document.getElementById('summary').textContent");
    assert!(
        summary.as_str().unwrap().contains("disagreements"),
        "{summary}"
    );
    let abnf = s.run("return document.querySelector('section.group pre.abnf').textContent");
    assert!(abnf.as_str().unwrap().contains("dec-octet"), "{abnf}");
    let failed = s.run("return performance.getEntriesByType('resource').map(r => r.name)");
    assert_eq!(failed, json!([]), "nothing loaded from elsewhere");
}

#[test]
fn the_page_shows_trees_errors_and_diagrams_in_a_real_browser() {
    let Some((chromium, driver)) = browser_or_skip() else {
        return;
    };
    let started = Instant::now();
    let (_server, url) = serve();
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("chromium-profile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let (_driver, s) = session(&chromium, &driver, &profile);
    the_page_checks(&s, &url, Some("serve"));
    let _ = writeln!(
        std::io::stderr(),
        "browser test: {:.1} s with {}",
        started.elapsed().as_secs_f64(),
        chromium.display()
    );
    drop(s);
    let _ = std::fs::remove_dir_all(&profile);
}

/// The page's engine compiled to WebAssembly (`js/build.sh` writes it), or `None`
/// after saying why the static test is skipped (a failure under `CI=true`, where
/// `.ci/run` builds it before the tests).
fn page_module_or_skip() -> Option<PathBuf> {
    let module = std::env::var_os("IRI_PAGE_WASM")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../js/iri_grammar_page.wasm")
        });
    if module.is_file() {
        return Some(module);
    }
    let why = format!("no page module at {}", module.display());
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but the static playground test cannot run: {why} (.ci/run runs js/build.sh first)");
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED the static playground test: {why}. Run `bash js/build.sh` to build it."
    );
    None
}

/// A plain static file server on a free loopback port, serving `root` (the files as
/// they are, a type by extension): what any static host does, and nothing of
/// `iri serve`. Runs until the test process ends.
fn static_server(root: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let root = root.clone();
            std::thread::spawn(move || serve_file(&root, stream));
        }
    });
    format!("http://127.0.0.1:{port}/")
}

fn serve_file(root: &Path, mut stream: TcpStream) {
    use std::io::{BufRead, BufReader};
    let Ok(read) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The rest of the head: read and ignored.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let file = root.join(path.trim_start_matches('/'));
    let file = if file.is_dir() {
        file.join("index.html")
    } else {
        file
    };
    let (status, body) = match std::fs::read(&file) {
        Ok(b) if !path.contains("..") => ("200 OK", b),
        _ => ("404 Not Found", b"not found".to_vec()),
    };
    let kind = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(&body);
}

/// The same page, written as a static site by `iri book --playground` and served
/// by a plain static file server (no `iri serve` anywhere): the answers come from
/// the page's engine in a Web Worker, and every check of the served page holds.
#[test]
fn the_static_playground_passes_the_same_checks_with_no_server() {
    let Some((chromium, driver)) = browser_or_skip() else {
        return;
    };
    let Some(module) = page_module_or_skip() else {
        return;
    };
    let started = Instant::now();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("site-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let status = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["book", "--examples", "2", "--out"])
        .arg(&dir)
        .arg("--playground")
        .arg(&module)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "iri book --playground");
    let url = static_server(dir.clone());
    let profile = dir.join("chromium-profile");
    let (_driver, s) = session(&chromium, &driver, &profile);

    // First paint and the tree of an 80-character IRI on the session's first page:
    // the module fetched, compiled and asked. Said, not asserted (time is the
    // machine's); the budget is a second.
    let input =
        "http://user@r\u{e9}sum\u{e9}.example.org:8080/a/b/c/d;p?q=1&r=2#fragment-with-some-text-to";
    assert_eq!(input.chars().count(), 80);
    let fresh = Instant::now();
    let query = format!(
        "play/index.html?grammar=iri&rule=IRI-reference&input={}",
        form(input)
    );
    s.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("{url}{query}") })),
    );
    s.wait(
        "the tree of the 80-character IRI",
        "const t = document.getElementById('tree');\
         return document.body.dataset.ready === 'true' && \
         !!t.querySelector('.node[data-rule=\"ireg-name\"]')",
    );
    let first_tree = fresh.elapsed();

    // The book links to the playground, on the rule of the page.
    s.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("{url}iri/ipath-abempty.html") })),
    );
    s.click("a[href^=\"../play/\"]");
    s.wait(
        "the playground on the book's rule",
        "return document.body.dataset.ready === 'true' && \
         document.getElementById('rule').value === 'ipath-abempty' && \
         document.querySelector('meta[name=\"iri-backend\"]').content === 'wasm'",
    );

    the_page_checks(&s, &format!("{url}play/index.html"), None);
    let _ = writeln!(
        std::io::stderr(),
        "static playground test: {:.1} s; first paint and the tree of an 80-character \
         IRI in {} ms (navigation included)",
        started.elapsed().as_secs_f64(),
        first_tree.as_millis()
    );
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The npm package (`js/`) in a browser, from a plain static file server: the core
/// module loads at import and answers validation, components, resolution,
/// conversion and normalization; an error says where (the automaton's stop, the
/// offsets the full module gives) and says that the rest needs `loadFull()`; once
/// that is awaited, errors are explained and NFC works; `iri-grammar/ajv` validates.
/// The page is `js/test/browser.html`; it needs the modules `js/build.sh` writes.
#[test]
fn the_npm_package_runs_in_a_real_browser() {
    let Some((chromium, driver)) = browser_or_skip() else {
        return;
    };
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("../js");
    let Some(_) = page_module_or_skip() else {
        return;
    };
    for module in ["iri_grammar.wasm", "iri_grammar_full.wasm"] {
        assert!(
            package.join(module).is_file(),
            "js/{module} is missing: bash js/build.sh writes it with the page's"
        );
    }
    let url = static_server(package);
    let profile =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("npm-profile-{}", std::process::id()));
    let (_driver, s) = session(&chromium, &driver, &profile);
    s.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("{url}test/browser.html") })),
    );
    s.wait(
        "the package's answers",
        "return !!(document.body.dataset.result || document.body.dataset.error)",
    );
    let error = s.run("return document.body.dataset.error || null");
    assert_eq!(error, Value::Null, "the page threw");
    let r: Value = serde_json::from_str(
        s.run("return document.body.dataset.result")
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(r["valid"], json!([true, false, false]));
    assert_eq!(r["parse"]["userinfo"], "u");
    assert_eq!(r["parse"]["port"], "8");
    assert_eq!(r["parse"]["fragment"], "f");
    assert_eq!(r["resolve"], "http://a/b/g");
    assert_eq!(r["toUri"], "http://%C3%A9/");
    assert_eq!(r["normalize"], "http://a/~");
    // Before loadFull: where, from the automaton, in every unit, and no why.
    let before = &r["check"];
    assert_eq!(before["name"], "IriError");
    assert_eq!(
        before["message"],
        "invalid IRI-reference: unexpected U+0020 SPACE at char 2"
    );
    assert_eq!(
        (
            &before["offset"],
            &before["codePointOffset"],
            &before["byteOffset"]
        ),
        (&json!(3), &json!(2), &json!(6))
    );
    assert_eq!(before["found"], " ");
    assert_eq!(before["startRule"], "IRI-reference");
    assert_eq!(before["explained"], false);
    assert_eq!(before["rule"], Value::Null);
    assert_eq!(r["parseError"]["offset"], 8);
    assert_eq!(r["parseError"]["explained"], false);
    let needs = r["needsFull"].as_str().unwrap();
    assert!(needs.contains("await loadFull()"), "{needs}");
    // After: the same offsets, explained.
    let after = &r["checkExplained"];
    assert_eq!(
        (
            &after["offset"],
            &after["codePointOffset"],
            &after["byteOffset"]
        ),
        (&json!(3), &json!(2), &json!(6))
    );
    assert_eq!(after["explained"], true);
    assert!(after["rule"].is_string() && !after["expected"].as_array().unwrap().is_empty());
    assert_eq!(r["parseErrorExplained"]["offset"], 8);
    assert_eq!(r["parseErrorExplained"]["explained"], true);
    assert_eq!(r["nfc"], "http://a/\u{e9}");
    assert_eq!(r["ajv"], json!([true, false]));
}

/// `application/x-www-form-urlencoded` of a query value.
fn form(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The checks of the teaching page, whichever back end answers it: the served page
/// (`iri serve`) and the static playground run the same. `shots`: the screenshots'
/// name prefix, for the served page only (the README shows them).
fn the_page_checks(s: &Session, url: &str, shots: Option<&str>) {
    let shot = |name: &str| {
        if let Some(prefix) = shots {
            s.screenshot(&format!("{prefix}-{name}"));
        }
    };
    s.call("POST", "/url", Some(json!({ "url": url })));
    s.wait(
        "the page to start",
        "return document.body.dataset.ready === 'true'",
    );

    // 1. A tree as you type: ireg-name for a host with non-ASCII letters, and literal
    //    leaves that spell the input.
    let input = "http://résumé.example.org/";
    s.type_into("#input", input);
    s.wait(
        "the tree of the IRI",
        "const t = document.getElementById('tree');\
         return t.dataset.input === 'http://résumé.example.org/' && \
         !!t.querySelector('.node[data-rule=\"ireg-name\"]')",
    );
    let spelled = s.run(
        "return Array.from(document.querySelectorAll('#tree .lit'))\
         .map(e => e.textContent.slice(1, -1)).join('')",
    );
    assert_eq!(spelled, json!(input), "the leaves spell the input");
    assert_eq!(
        s.run("return document.getElementById('status').textContent"),
        json!("valid: the whole input matches IRI-reference")
    );
    // Hovering a node highlights the characters it matched. The trace comes after
    // the tree and clears any highlight when it is shown (its own marks replace
    // them): wait for it first, or a slow trace undoes the hover (CI failed so on
    // a loaded machine).
    s.wait(
        "the trace of the IRI",
        "return document.getElementById('trace-panel').dataset.input === \
         'http://résumé.example.org/'",
    );
    s.hover("#tree .node[data-rule=\"ireg-name\"]");
    s.wait(
        "the host to be highlighted",
        "return Array.from(document.querySelectorAll('#echo .ch.hl'))\
         .map(e => e.textContent).join('') === 'résumé.example.org'",
    );
    // Clicking it shows its definition, section and diagram.
    s.click("#tree .node[data-rule=\"ireg-name\"]");
    s.wait(
        "the ireg-name rule",
        "return document.getElementById('rule-title').textContent === 'ireg-name' && \
         document.getElementById('rule-abnf').textContent.startsWith('ireg-name') && \
         document.querySelector('#rule-source a').href.endsWith('rfc3987.html#section-2.2') && \
         !!document.querySelector('#rule-diagram svg')",
    );
    shot("tree.png");

    // 2. An invalid input: the error, and a caret under the space, counted as the
    //    message counts (char 8, from 0), and the tree of the longest beginning that
    //    matches, "http://a".
    s.type_into("#input", "http://a b/");
    s.wait(
        "the error",
        "return !document.getElementById('error').hidden && \
         document.getElementById('error').textContent.startsWith('at char 8 (U+0020 SPACE)')",
    );
    assert_eq!(
        s.run("return document.querySelector('#caret-row .label').textContent"),
        json!("char 8")
    );
    assert_eq!(
        s.run(
            "return Array.from(document.querySelectorAll('#tree ul.partial .lit'))\
             .map(e => e.textContent.slice(1, -1)).join('')"
        ),
        json!("http://a"),
        "the partial tree spells the matching beginning"
    );
    assert!(
        !s.run("return document.body.innerText")
            .as_str()
            .unwrap()
            .contains("1-based"),
        "one way of counting on the page"
    );
    // The caret stands under the failing character, whatever the font.
    let dx = s.run(
        "const c = document.getElementById('caret').getBoundingClientRect();\
         const b = document.querySelector('#echo .ch.bad').getBoundingClientRect();\
         return Math.abs(c.left - b.left)",
    );
    assert!(dx.as_f64().unwrap() < 2.0, "caret {dx} px off");
    assert_eq!(
        s.run("return document.querySelector('#echo .ch.bad').textContent"),
        json!(" ")
    );
    shot("error.png");

    // 3. Which alternative a node took: `::ffff:1.2.3.4` is alternative 6 of the 9 of
    //    IPv6address (RFC 3986 §3.2.2), `[ *3( h16 ":" ) h16 ] "::" h16 ":" ls32` with
    //    the optional part empty; the 5 before it failed.
    s.type_into("#input", "http://[::ffff:1.2.3.4]/");
    s.wait(
        "the tree with IPv6address",
        "const t = document.getElementById('tree');\
         return t.dataset.input === 'http://[::ffff:1.2.3.4]/' && \
         !!t.querySelector('.node[data-rule=\"IPv6address\"]')",
    );
    s.click("#tree .node[data-rule=\"IPv6address\"]");
    s.wait(
        "the alternative taken",
        "const p = document.getElementById('alternatives-panel');\
         return document.getElementById('rule-title').textContent === 'IPv6address' && \
         !p.hidden && document.getElementById('alternative-taken').textContent\
         .includes('by alternative 6 of 9')",
    );
    assert_eq!(
        s.run("return document.querySelector('#alternative-list li.taken').textContent"),
        json!("[ *3( h16 \":\" ) h16 ] \"::\" h16 \":\" ls32"),
        "the ABNF of the alternative taken"
    );
    assert_eq!(
        s.run("return document.querySelectorAll('#alternative-list li.failed').length"),
        json!(5)
    );
    // Which alternative each node took shows in the tree itself, without a click.
    assert_eq!(
        s.run(
            "const n = document.querySelector('#tree .node[data-rule=\"IPv6address\"]');\
             return getComputedStyle(n, '::after').content"
        ),
        json!("\" 6/9\"")
    );
    // The address names the selected node: a link shows the same view again.
    let here = s.run("return location.href");
    let here = here.as_str().unwrap();
    assert!(here.contains("node=IPv6address%40"), "{here}");
    s.call("POST", "/url", Some(json!({ "url": here })));
    s.wait(
        "the linked view, its node selected",
        "const p = document.getElementById('alternatives-panel');\
         return document.body.dataset.ready === 'true' && !p.hidden && \
         document.querySelector('#tree .node.selected[data-rule=\"IPv6address\"]') !== null && \
         document.getElementById('alternative-taken').textContent.includes('by alternative 6 of 9')",
    );
    // Why the earlier ones failed, from the trace: alternative 1 cannot start with ":".
    s.wait(
        "the reasons of the failed alternatives",
        "const w = document.querySelectorAll('#alternative-list li.failed .why');\
         return w.length === 5 && w[0].textContent === 'failed: \":\" cannot start it'",
    );
    // The reason links into the trace, at the step that gave alternative 2 up.
    s.click("#alternative-list li.failed:nth-child(2) .why");
    s.wait(
        "the trace at the backtrack of alternative 2",
        "return document.getElementById('trace-now').textContent\
         .includes('backtrack: alternative 2 of 9 failed')",
    );
    s.run("document.getElementById('alternatives-panel').scrollIntoView({block: 'center'})");
    shot("alternative.png");

    // 4. The trace steps forward and backward, and shows where each step is.
    s.click("#trace-first");
    s.wait(
        "the first step",
        "const p = document.getElementById('trace-panel');\
         return p.dataset.step === '1' && \
         document.getElementById('trace-now').textContent === '1. at char 0: enter IRI-reference'",
    );
    s.click("#trace-next");
    s.click("#trace-next");
    s.wait(
        "the third step",
        "return document.getElementById('trace-panel').dataset.step === '3'",
    );
    s.click("#trace-back");
    s.wait(
        "the second step again",
        "return document.getElementById('trace-panel').dataset.step === '2' && \
         document.querySelector('#trace-steps li.now').textContent.trim() === 'try alternative 1 of 2'",
    );
    s.click("#trace-last");
    s.wait(
        "the last step, the whole match",
        "return document.getElementById('trace-now').textContent\
         .endsWith('match IRI-reference 0..24 \"http://[::ffff:1.2.3.4]/\"') && \
         document.querySelectorAll('#echo .ch.hl').length === 24",
    );
    // The input is in sight beside the steps: with the step list in view, the
    // trace's own copy of the input is on screen, the step's span marked.
    s.run("document.getElementById('trace-steps').scrollIntoView({block: 'end'})");
    let seen = s.run(
        "const r = document.getElementById('trace-input').getBoundingClientRect();\
         return r.top >= 0 && r.bottom <= window.innerHeight && \
         document.querySelectorAll('#trace-input .ch.hl').length === 24",
    );
    assert_eq!(seen, json!(true), "the input is visible while stepping");
    shot("trace.png");
    // The IPv6 address has one parse: its nine alternatives never overlap.
    s.wait(
        "the parses of the IPv6 address",
        "const p = document.getElementById('ambiguity-panel');\
         return p.dataset.input === 'http://[::ffff:1.2.3.4]/' && \
         document.getElementById('parses-summary').textContent.startsWith('One parse')",
    );

    // 5. Other parses: a host that is an IPv4 address is also a reg-name; the tree
    //    takes IPv4address (first match wins), the panel shows both.
    s.type_into("#input", "http://1.2.3.4/");
    s.wait(
        "the other parse of the host",
        "const p = document.getElementById('ambiguity-panel');\
         return p.dataset.input === 'http://1.2.3.4/' && \
         document.querySelectorAll('#parses-list .fork').length === 1",
    );
    let fork = s.run(
        "const f = document.querySelector('#parses-list .fork');\
         return [f.dataset.rule,\
           f.querySelector('.parse.taken .tree .node + .text + ul .node').textContent,\
           f.querySelector('.parse.other .tree .node + .text + ul .node').textContent,\
           f.querySelector('.parse.other h3').textContent]",
    );
    assert_eq!(
        fork,
        json!([
            "ihost",
            "IPv4address",
            "ireg-name",
            "Also matches: alternative 3 of 3"
        ])
    );
    s.run("document.getElementById('ambiguity-panel').scrollIntoView({block: 'start'})");
    shot("ambiguity.png");

    // 6. Another grammar and rule: dec-octet of RFC 3986, and its railroad diagram.
    s.click("#grammar option[value=\"uri\"]");
    s.wait(
        "the URI rules",
        "return !!document.querySelector('#rule option[value=\"dec-octet\"]')",
    );
    s.click("#rule option[value=\"dec-octet\"]");
    s.type_into("#input", "255");
    s.wait(
        "the dec-octet tree and diagram",
        "const t = document.getElementById('tree');\
         return document.getElementById('rule-title').textContent === 'dec-octet' && \
         !!document.querySelector('#rule-diagram svg') && \
         t.dataset.input === '255' && t.dataset.rule === 'dec-octet' && \
         !!t.querySelector('.node[data-rule=\"dec-octet\"]')",
    );
    let labels = s.run(
        "return Array.from(document.querySelectorAll('#rule-diagram svg text'))\
         .map(t => t.textContent.trim())",
    );
    let labels: Vec<&str> = labels
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"'0'–'5'"),
        "terminals as characters: {labels:?}"
    );
    assert!(labels.contains(&"DIGIT"), "rule boxes: {labels:?}");
    assert!(
        !labels.iter().any(|l| l.contains("%x")),
        "no %x: {labels:?}"
    );
    // Its FIRST set by name, as the diagram names DIGIT, not as a range.
    assert_eq!(
        s.run(
            "return Array.from(document.querySelectorAll('#rule-first li')).map(l => l.textContent)"
        ),
        json!(["DIGIT"])
    );
    // The message in the diagram's notation: '0'–'5', not %x30-35.
    s.type_into("#input", "256");
    s.wait(
        "the error of 256",
        "const e = document.getElementById('error');\
         return !e.hidden && e.textContent.includes(\"dec-octet expects '0'–'5'\") && \
         !e.textContent.includes('%x')",
    );
    shot("diagram.png");

    // A rule box of the diagram is a link: it shows that rule.
    s.click("#rule-diagram a");
    s.wait(
        "the DIGIT rule",
        "return document.getElementById('rule-title').textContent === 'DIGIT'",
    );

    // 7. The URI grammar's rules say what RFC 3986 says; that RFC 3987's combinator
    //    matches them is said beside the code only.
    s.click("#rule option[value=\"path-abempty\"]");
    s.wait(
        "path-abempty",
        "return document.getElementById('rule-title').textContent === 'path-abempty'",
    );
    assert_eq!(
        s.run("return document.getElementById('rule-notes').textContent"),
        json!("")
    );
    assert!(s
        .run("return document.getElementById('rule-rust-note').textContent")
        .as_str()
        .unwrap()
        .starts_with("Matched by the combinator generated from RFC 3987's ipath-abempty"));
    // FIRST sets name the grammar's classes: no code-point ranges.
    let first = s.run(
        "return Array.from(document.querySelectorAll('#rule-first li')).map(l => l.textContent)",
    );
    assert_eq!(first, json!(["'/'"]));

    // 8. The widest diagram, IPv6address, fits its panel.
    s.click("#rule option[value=\"IPv6address\"]");
    s.wait(
        "the IPv6address diagram",
        "return document.getElementById('rule-title').textContent === 'IPv6address' && \
         !!document.querySelector('#rule-diagram svg')",
    );
    let overflow = s.run(
        "const d = document.querySelector('#rule-diagram svg').getBoundingClientRect();\
         const p = document.getElementById('rule-panel').getBoundingClientRect();\
         return d.right - p.right",
    );
    assert!(
        overflow.as_f64().unwrap() <= 0.5,
        "the diagram sticks out of its panel by {overflow} px"
    );
    s.run("document.getElementById('rule-diagram').scrollIntoView({block: 'center'})");
    shot("ipv6-diagram.png");

    // 9. Every grammar of the engine, the 2001 draft's too, on its own rules.
    s.click("#grammar option[value=\"iri-2001\"]");
    s.wait(
        "the 2001 draft's rules",
        "return !!document.querySelector('#rule option[value=\"absoluteIRI\"]')",
    );
    s.click("#rule option[value=\"IRI-reference\"]");
    s.type_into("#input", "http://a/b");
    s.wait(
        "the 2001 draft's tree",
        "const t = document.getElementById('tree');\
         return document.getElementById('rule').value === 'IRI-reference' && \
         t.dataset.grammar === 'iri-2001' && t.dataset.input === 'http://a/b' && \
         !!t.querySelector('.node[data-rule=\"absoluteIRI\"]')",
    );
    assert_eq!(
        s.run("return Array.from(document.querySelectorAll('#grammar option')).map(o => o.value)"),
        json!(["uri", "iri", "leiri", "iri-2001"])
    );
}
