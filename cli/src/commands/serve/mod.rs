//! `iri serve`: one page on 127.0.0.1 to explore the grammars, and the JSON endpoints it
//! calls, all answered by this binary.
//!
//! | path | answer |
//! |---|---|
//! | `/` , `/app.js`, `/app.css` | the page (`teach/assets/`, compiled in: `iri_grammar_teach::assets`) |
//! | `/api/...` | the page's questions, answered by [`Page`] (`iri_grammar_teach::page`, which lists them) |
//!
//! The same page runs with no server at all, from static files, its questions then
//! answered by the same [`Page`] compiled to WebAssembly (`js/page`, `js/site.sh`).
//!
//! The server listens on the loopback address only and answers only requests whose
//! `Host` is that address or `localhost` with its port: another site open in the same
//! browser cannot read it by rebinding a name of its own to 127.0.0.1 (DNS rebinding).
//! Nor does it answer another site's page, which a browser lets send requests to any
//! address (and which could otherwise keep the page's workers busy while the student
//! reads it): a request whose `Origin` (RFC 6454 §7) is not this server, or whose
//! `Sec-Fetch-Site` (Fetch Metadata Request Headers §2.4) is `cross-site` or
//! `same-site` (another port of the same host is the same site), is refused with
//! `403`. Requests with neither header (a typed address, `curl`, the tests) are
//! answered.
//!
//! The HTTP layer ([`http`]) bounds what any one client can hold (the head, the time,
//! the connections, the answers not yet read) and answers on worker threads, each
//! with its own [`Page`], so that one client cannot stall another. Each request's work
//! is estimated before it is queued ([`cost`]): cheap ones (trees, rule pages, traces
//! and comparisons of short inputs) have a lane of workers of their own, which the
//! heavy ones (traces and comparisons of long inputs) never hold up.

mod http;

use crate::io::{Outcome, RunError, Verdict};
use crate::json::Object;
use http::{Request, Response};
use iri_grammar_abnf::Grammars;
use iri_grammar_teach::page::{self, Page, Params, MAX_INPUT_CHARS};
use std::io::Write as _;

use iri_grammar_teach::assets::{APP_CSS, APP_JS, INDEX_HTML};

/// The estimated work of a request, in characters of tree building (a tree of the
/// input is one per character), up to which it runs in the cheap lane
/// ([`http::Lane`]): a tree of the longest input is cheap.
const CHEAP_COST: u64 = MAX_INPUT_CHARS as u64;

/// A trace is a tree's work and more per character: a step for each try,
/// backtrack and match, each sent as a line of JSON.
const TRACE_COST_PER_CHAR: u64 = 16;

/// A comparison of parses: a tree, then for each node the ends of its later
/// alternatives (see [`page::MAX_COMPARED_CHARS`]): the square of the input, divided by
/// this.
const PARSES_SQUARE_DIVISOR: u64 = 128;

/// A rule page: worked out once per worker and kept, whatever the input.
const RULE_COST: u64 = 1;

pub fn run(port: u16, open: bool) -> Outcome {
    let open_files = http::open_files();
    let slots = http::connection_slots(open_files);
    let server = http::Server::bind(port, slots)
        .map_err(|e| RunError::Io(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let port = server.port().unwrap_or(port);
    let url = format!("http://127.0.0.1:{port}/");
    // The first line of standard output is the address: tests and scripts read it.
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "iri serve: listening on {url} (Ctrl-C to stop)");
    let _ = stdout.flush();
    match open_files {
        Some(n) if n != usize::MAX => crate::io::tell(&format!(
            "iri serve: up to {slots} connections at once (open files: {n}, {} kept for \
             the rest)",
            http::RESERVED_DESCRIPTORS
        )),
        _ => crate::io::tell(&format!("iri serve: up to {slots} connections at once")),
    }
    if open {
        open_browser(&url);
    }
    // Two workers for the cheap lane, so that a slow first answer of a rule (its
    // generated code is worked out once) does not hold up the trees; one or two for
    // the heavy lane, by the cores there are. More would only hold more copies of
    // the grammars.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let lanes = [
        (http::Lane::Cheap, 2),
        (http::Lane::Heavy, (cores / 2).clamp(1, 2)),
    ];
    for (lane, workers) in lanes {
        for _ in 0..workers {
            let jobs = server.jobs(lane);
            std::thread::Builder::new()
                .name("iri-serve-worker".to_string())
                .spawn(move || work(&jobs, port))
                .map_err(|e| RunError::Io(format!("cannot start a worker thread: {e}")))?;
        }
    }
    server
        .run(move |request| triage(port, request))
        .map_err(|e| RunError::Io(format!("iri serve stopped: {e}")))?;
    Ok(Verdict::Success)
}

/// A worker: its own grammars and caches, answering requests until the server stops.
fn work(jobs: &http::Jobs, port: u16) {
    let grammars = Grammars::builtin();
    let page = Page::new(&grammars);
    while let Some(job) = jobs.next() {
        // A defect in one answer must not take the worker, and with it every later
        // request, away: it becomes a 500 for that request alone.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            answer(&page, port, &job.request)
        }))
        .unwrap_or_else(|_| reply(500, TEXT, "iri serve failed on this request\n"));
        job.answer(answer);
    }
}

/// Opens `url` with the platform's opener; says so on standard error if it cannot.
fn open_browser(url: &str) {
    let (cmd, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    if let Err(e) = std::process::Command::new(cmd).args(&args).spawn() {
        crate::io::tell(&format!(
            "iri serve: could not open a browser ({cmd}: {e}); open {url}"
        ));
    }
}

type Answer = Response;

const TEXT: &str = "text/plain; charset=utf-8";

/// The headers of every answer of the page.
const HEADERS: &[(&str, &str)] = &[
    ("cache-control", "no-store"),
    ("x-content-type-options", "nosniff"),
    // Only this server's own script and style; inline style for the diagrams'
    // <style> elements; nothing else loads.
    (
        "content-security-policy",
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
         frame-ancestors 'none'",
    ),
];

fn reply(status: u16, content_type: &'static str, body: &str) -> Answer {
    Response {
        status,
        content_type,
        headers: HEADERS,
        body: body.to_string(),
    }
}

fn json_reply(status: u16, body: &str) -> Answer {
    reply(status, "application/json; charset=utf-8", body)
}

fn page_reply(answer: page::Answer) -> Answer {
    json_reply(answer.status, &answer.json)
}

/// A worker's answer: the [`Page`]'s, once the request has passed [`triage`].
fn answer(page: &Page<'_>, port: u16, request: &Request) -> Answer {
    if let http::Triage::Answer(answer) = triage(port, request) {
        return answer;
    }
    let url = request.target.as_str();
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    page_reply(page.answer(path, query))
}

fn json_error(status: u16, message: &str) -> Answer {
    json_reply(status, &Object::new().str("error", message).finish())
}

/// Whether the request names this server in its `Host` (see the module's doc).
fn host_ok(port: u16, request: &Request) -> bool {
    let host = request.host.as_deref().map(str::to_ascii_lowercase);
    matches!(host, Some(h) if h == format!("127.0.0.1:{port}") || h == format!("localhost:{port}"))
}

/// Whether a browser says the request was sent by another site's page (see the
/// module's doc): its `Sec-Fetch-Site` is neither `same-origin` nor `none` (typed
/// by the user), or its `Origin` is not this server.
fn cross_site(port: u16, request: &Request) -> bool {
    let site = request.fetch_site.as_deref().map(str::to_ascii_lowercase);
    if matches!(site, Some(s) if s != "same-origin" && s != "none") {
        return true;
    }
    let origin = request.origin.as_deref().map(str::to_ascii_lowercase);
    matches!(origin, Some(o) if o != format!("http://127.0.0.1:{port}")
        && o != format!("http://localhost:{port}"))
}

/// The estimated work of a request for `path` with the query `q`, in characters of
/// tree building (see [`CHEAP_COST`]).
fn cost(path: &str, q: &Params) -> u64 {
    let n = q
        .get("input")
        .map_or(0, |s| u64::try_from(s.chars().count()).unwrap_or(u64::MAX));
    match path {
        "/api/trace" => n.saturating_mul(TRACE_COST_PER_CHAR),
        "/api/parses" => n.saturating_add(n.saturating_mul(n) / PARSES_SQUARE_DIVISOR),
        "/api/rule" => RULE_COST,
        _ => n,
    }
}

/// The answers that need no grammar work (refusals, the page's files, the rule
/// names): the HTTP layer gives them on the connections' own thread, so that a queue
/// of heavy requests never delays them. A tree, trace, rule page or comparison is
/// work, for the lane its estimated [`cost`] says.
fn triage(port: u16, request: &Request) -> http::Triage {
    http::Triage::Answer(match quick(port, request) {
        Ok(answer) => answer,
        Err(lane) => return http::Triage::Work(lane),
    })
}

fn quick(port: u16, request: &Request) -> Result<Answer, http::Lane> {
    if !host_ok(port, request) {
        return Ok(reply(
            421,
            TEXT,
            "iri serve answers 127.0.0.1 and localhost only\n",
        ));
    }
    if cross_site(port, request) {
        return Ok(reply(
            403,
            TEXT,
            "iri serve answers its own page only, not requests sent by another site's \
             page (Origin, Sec-Fetch-Site)\n",
        ));
    }
    if request.method != "GET" {
        return Ok(reply(405, TEXT, "GET only\n"));
    }
    let url = request.target.as_str();
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let Some(q) = page::params(query) else {
        return Ok(json_error(400, "the query is not UTF-8 form-encoded text"));
    };
    Ok(match path {
        "/" | "/index.html" => reply(200, "text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => reply(200, "text/javascript; charset=utf-8", APP_JS),
        "/app.css" => reply(200, "text/css; charset=utf-8", APP_CSS),
        "/api/rules" | "/api/tree" | "/api/rule" | "/api/trace" | "/api/parses" => {
            // The rule names, and an input beyond its path's cap, are answered
            // here, not queued.
            if let Some(answer) = page::quick(path, &q) {
                return Ok(page_reply(answer));
            }
            return Err(if cost(path, &q) <= CHEAP_COST {
                http::Lane::Cheap
            } else {
                http::Lane::Heavy
            });
        }
        _ => reply(404, TEXT, "not found\n"),
    })
}
