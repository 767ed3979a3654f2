//! `iri serve`: one page on 127.0.0.1 to explore the grammars, and the JSON endpoints it
//! calls, all answered by this binary.
//!
//! | path | answer |
//! |---|---|
//! | `/` , `/app.js`, `/app.css` | the page (`cli/assets/`, compiled in with `include_str!`) |
//! | `/api/rules?grammar=G` | the grammar's rule names and its reference rule |
//! | `/api/tree?grammar=G&rule=R&input=S` | the tree of S, literals as leaves, or the error |
//! | `/api/trace?grammar=G&rule=R&input=S` | the numbered steps of the combinators on S (`iri trace --json`'s) |
//! | `/api/rule?grammar=G&name=R` | the rule: ABNF, its alternatives, section, diagram, FIRST set, code |
//!
//! Offsets in `/api/tree` are given twice: `start`/`end` in bytes (as `iri tree --json`)
//! and `from`/`to` in characters (code points), which is how the page indexes the
//! input (`Array.from(text)`); JavaScript's own string indices are UTF-16 units and
//! would be off after any character beyond U+FFFF.
//!
//! The server listens on the loopback address only and answers only requests whose
//! `Host` is that address or `localhost` with its port: another site open in the same
//! browser cannot read it by rebinding a name of its own to 127.0.0.1 (DNS rebinding).
//! The HTTP layer ([`http`]) bounds what any one client can hold (the head, the time,
//! the connections, the answers not yet read) and answers on worker threads, each
//! with its own [`App`], so that one client cannot stall another.

mod http;

use crate::io::{Failure, Outcome, Sink};
use crate::json::{self, Object};
use crate::literals::{self, CharIndex};
use crate::teach::Lesson;
use http::{Request, Response};
use iri_grammar::trace::trace_of;
use iri_grammar::tree::tree_of;
use iri_grammar::{Iri, Leiri, MatchError, Rule, Uri, Variant, VariantName};
use iri_grammar_abnf::{Element, Grammars};
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::Write as _;

const INDEX_HTML: &str = include_str!("../../../assets/index.html");
const APP_JS: &str = include_str!("../../../assets/app.js");
const APP_CSS: &str = include_str!("../../../assets/app.css");

/// Inputs longer than this are refused: the page is for reading trees, and a tree of
/// a megabyte is not read.
const MAX_INPUT_CHARS: usize = 4096;

pub fn run(port: u16, open: bool) -> Outcome {
    let server = http::Server::bind(port)
        .map_err(|e| Failure::Io(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let port = server.port().unwrap_or(port);
    let url = format!("http://127.0.0.1:{port}/");
    // The first line of standard output is the address: tests and scripts read it.
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "iri serve: listening on {url} (Ctrl-C to stop)");
    let _ = stdout.flush();
    if open {
        open_browser(&url);
    }
    // Two workers at least, so that a slow first answer of a rule (its generated
    // code is worked out once) does not hold up the trees; more would only hold more
    // copies of the grammars.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
    for _ in 0..workers {
        let jobs = server.jobs();
        std::thread::Builder::new()
            .name("iri-serve-worker".to_string())
            .spawn(move || work(&jobs, port))
            .map_err(|e| Failure::Io(format!("cannot start a worker thread: {e}")))?;
    }
    server
        .run(move |request| quick(port, request))
        .map_err(|e| Failure::Io(format!("iri serve stopped: {e}")))?;
    Ok(true)
}

/// A worker: its own grammars and caches, answering requests until the server stops.
fn work(jobs: &http::Jobs, port: u16) {
    let grammars = Grammars::builtin();
    let app = App::new(&grammars, port);
    while let Some(job) = jobs.next() {
        // A defect in one answer must not take the worker, and with it every later
        // request, away: it becomes a 500 for that request alone.
        let answer =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.answer(&job.request)))
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
        eprintln!("iri serve: could not open a browser ({cmd}: {e}); open {url}");
    }
}

/// What the server knows: the three grammars, ready to show, and the rule answers
/// already computed (a rule's answer never changes while the server runs).
struct App<'g> {
    lessons: [Lesson<'g>; 3],
    port: u16,
    rule_cache: RefCell<HashMap<(VariantName, &'static str), String>>,
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

fn json_error(status: u16, message: &str) -> Answer {
    json_reply(status, &Object::new().str("error", message).finish())
}

/// `application/x-www-form-urlencoded` decoding (URL Standard §5.1), as the page's
/// `URLSearchParams` encodes: `+` is a space, `%XX` a byte; the bytes must be UTF-8.
fn form_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'+' => out.push(b' '),
            b'%' if k + 2 < b.len()
                && b[k + 1].is_ascii_hexdigit()
                && b[k + 2].is_ascii_hexdigit() =>
            {
                let hex = std::str::from_utf8(&b[k + 1..k + 3]).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                k += 2;
            }
            c => out.push(c),
        }
        k += 1;
    }
    String::from_utf8(out).ok()
}

/// The query parameters of a request path.
fn params(query: &str) -> Option<HashMap<String, String>> {
    let mut out = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        out.insert(form_decode(k)?, form_decode(v)?);
    }
    Some(out)
}

const GRAMMAR_PARAM: &str = "grammar must be uri, iri or leiri";

fn variant(name: Option<&String>) -> Option<VariantName> {
    match name.map(String::as_str) {
        Some("uri") => Some(VariantName::Uri),
        Some("iri") | None => Some(VariantName::Iri),
        Some("leiri") => Some(VariantName::Leiri),
        _ => None,
    }
}

impl<'g> App<'g> {
    fn new(g: &'g Grammars, port: u16) -> App<'g> {
        App {
            lessons: VariantName::ALL.map(|v| Lesson::new(g, v)),
            port,
            rule_cache: RefCell::new(HashMap::new()),
        }
    }

    fn lesson(&self, v: VariantName) -> &Lesson<'g> {
        &self.lessons[VariantName::ALL.iter().position(|&x| x == v).unwrap_or(1)]
    }

    fn answer(&self, request: &Request) -> Answer {
        if let Some(answer) = quick(self.port, request) {
            return answer;
        }
        let url = request.target.as_str();
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let Some(q) = params(query) else {
            return json_error(400, "the query is not UTF-8 form-encoded text");
        };
        match path {
            "/api/tree" => self.api(&q, |v, q| self.tree(v, q)),
            "/api/rule" => self.api(&q, |v, q| self.rule(v, q)),
            "/api/trace" => self.api(&q, |v, q| self.trace(v, q)),
            _ => reply(404, TEXT, "not found\n"),
        }
    }
}

/// Whether the request names this server in its `Host` (see the module's doc).
fn host_ok(port: u16, request: &Request) -> bool {
    let host = request.host.as_deref().map(str::to_ascii_lowercase);
    matches!(host, Some(h) if h == format!("127.0.0.1:{port}") || h == format!("localhost:{port}"))
}

/// The answers that need no grammar work (refusals, the page's files, the rule
/// names): the HTTP layer gives them on the connections' own thread, so that a queue
/// of heavy requests never delays them. `None` for a tree, trace or rule page.
fn quick(port: u16, request: &Request) -> Option<Answer> {
    if !host_ok(port, request) {
        return Some(reply(
            421,
            TEXT,
            "iri serve answers 127.0.0.1 and localhost only\n",
        ));
    }
    if request.method != "GET" {
        return Some(reply(405, TEXT, "GET only\n"));
    }
    let url = request.target.as_str();
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let Some(q) = params(query) else {
        return Some(json_error(400, "the query is not UTF-8 form-encoded text"));
    };
    Some(match path {
        "/" | "/index.html" => reply(200, "text/html; charset=utf-8", INDEX_HTML),
        "/app.js" => reply(200, "text/javascript; charset=utf-8", APP_JS),
        "/app.css" => reply(200, "text/css; charset=utf-8", APP_CSS),
        "/api/rules" => match variant(q.get("grammar")) {
            Some(v) => json_reply(200, &rules(v)),
            None => json_error(400, GRAMMAR_PARAM),
        },
        "/api/tree" | "/api/rule" | "/api/trace" => return None,
        _ => reply(404, TEXT, "not found\n"),
    })
}

impl<'g> App<'g> {
    /// An API answer: the grammar parameter checked, then `f`'s JSON or its error.
    fn api(
        &self,
        q: &HashMap<String, String>,
        f: impl Fn(VariantName, &HashMap<String, String>) -> Result<String, (u16, String)>,
    ) -> Answer {
        let Some(v) = variant(q.get("grammar")) else {
            return json_error(400, GRAMMAR_PARAM);
        };
        match f(v, q) {
            Ok(body) => json_reply(200, &body),
            Err((status, message)) => json_error(status, &message),
        }
    }

    fn rule_param(
        v: VariantName,
        q: &HashMap<String, String>,
        key: &str,
    ) -> Result<Rule, (u16, String)> {
        let name = q
            .get(key)
            .map(String::as_str)
            .unwrap_or(Rule::IriReference.name_in(v).unwrap_or("IRI-reference"));
        Rule::named(v, name).ok_or_else(|| {
            (
                404,
                format!("the {} grammar has no rule named {name:?}", v.as_str()),
            )
        })
    }

    /// The tree of the input, literals as leaves, or where and why it fails.
    fn tree(&self, v: VariantName, q: &HashMap<String, String>) -> Result<String, (u16, String)> {
        let rule = Self::rule_param(v, q, "rule")?;
        let input = q.get("input").map(String::as_str).unwrap_or("");
        if input.chars().count() > MAX_INPUT_CHARS {
            return Err((
                413,
                format!("inputs of more than {MAX_INPUT_CHARS} characters are not shown"),
            ));
        }
        Ok(match v {
            VariantName::Uri => tree_json::<Uri>(rule, input),
            VariantName::Iri => tree_json::<Iri>(rule, input),
            VariantName::Leiri => tree_json::<Leiri>(rule, input),
            VariantName::Iri2001 => tree_json::<iri_grammar::Iri2001>(rule, input),
        })
    }

    /// The steps of the combinators on the input, offsets also in characters.
    fn trace(&self, v: VariantName, q: &HashMap<String, String>) -> Result<String, (u16, String)> {
        let rule = Self::rule_param(v, q, "rule")?;
        let input = q.get("input").map(String::as_str).unwrap_or("");
        if input.chars().count() > MAX_INPUT_CHARS {
            return Err((
                413,
                format!("inputs of more than {MAX_INPUT_CHARS} characters are not traced"),
            ));
        }
        Ok(match v {
            VariantName::Uri => trace_json::<Uri>(rule, input),
            VariantName::Iri => trace_json::<Iri>(rule, input),
            VariantName::Leiri => trace_json::<Leiri>(rule, input),
            VariantName::Iri2001 => trace_json::<iri_grammar::Iri2001>(rule, input),
        })
    }

    /// Everything the page shows of a rule (cached: it never changes).
    fn rule(&self, v: VariantName, q: &HashMap<String, String>) -> Result<String, (u16, String)> {
        let rule = Self::rule_param(v, q, "name")?;
        let name = rule.name_in(v).unwrap_or(rule.iri_name());
        if let Some(hit) = self.rule_cache.borrow().get(&(v, name)) {
            return Ok(hit.clone());
        }
        let lesson = self.lesson(v);
        let f = lesson
            .named(name)
            .ok_or_else(|| (404, format!("no definition of {name}")))?;
        let (src, url) = lesson.source(&f);
        let (first, nullable) = lesson.first(&f);
        // Rule boxes in the diagram link to `#rule=NAME`: the page shows that rule.
        let svg = lesson.svg(&f, &|n| Some(format!("#rule={n}")));
        let section = match &src.section {
            Some(s) if s.starts_with(|c: char| c.is_ascii_digit()) => {
                format!("{} §{s}", src.document)
            }
            Some(s) => format!("{} {s}", src.document),
            None => src.document.clone(),
        };
        // The alternatives of a definition that is an alternation, in order: a tree
        // node says which one it took ("6 of 9"), and the page shows that one's ABNF.
        let alternatives: Vec<String> = match &f.def.definition {
            Element::Alternation(alts) => alts.iter().map(|a| a.to_string()).collect(),
            _ => Vec::new(),
        };
        let body = Object::new()
            .str("grammar", v.as_str())
            .str("rule", f.name)
            .str("abnf", &f.def.text)
            .strs("alternatives", alternatives.iter().map(String::as_str))
            .str("section", &section)
            .str("source", &src.to_string())
            .opt_str("url", url.as_deref())
            .strs("notes", f.notes.iter().map(String::as_str))
            .strs("first", first.iter().map(String::as_str))
            .bool("nullable", nullable)
            .strs("uses", lesson.uses(&f).iter().map(String::as_str))
            .strs("used_by", lesson.used_by(&f).iter().map(String::as_str))
            .str("svg", &svg)
            .opt_str("rust", lesson.rust(&f).as_deref())
            .finish();
        self.rule_cache.borrow_mut().insert((v, name), body.clone());
        Ok(body)
    }
}

/// `{"grammar","default","rules":[..]}`.
fn rules(v: VariantName) -> String {
    Object::new()
        .str("grammar", v.as_str())
        .opt_str("default", Rule::IriReference.name_in(v))
        .strs("rules", Rule::of(v).map(|(n, _)| n))
        .finish()
}

/// `{"valid":true,"tree":{..}}` or `{"valid":false,"error","at","column",..}`.
fn tree_json<V: Variant>(rule: Rule, input: &str) -> String {
    match tree_of::<V>(rule, input) {
        Ok(t) => {
            let ci = CharIndex::new(input);
            let mut node = Sink::default();
            literals::node_json(&t, t.root(), true, Some(&ci), &mut node);
            Object::new()
                .bool("valid", true)
                .raw("tree", &node)
                .finish()
        }
        Err(e) => error_json(&e),
    }
}

/// `{"valid","rule","cut","steps":[..]}`: the steps as `iri trace --json` gives them,
/// with character offsets for the page.
fn trace_json<V: Variant>(rule: Rule, input: &str) -> String {
    let t = trace_of::<V>(rule, input);
    let ci = CharIndex::new(input);
    Object::new()
        .bool("valid", t.matched)
        .str("rule", t.rule)
        .bool("cut", t.cut)
        .raw("steps", &super::trace::steps_json(&t, Some(&ci)))
        .finish()
}

fn error_json(e: &MatchError) -> String {
    let mut found = String::new();
    match e.found() {
        Some(c) => json::string(&c.to_string(), &mut found),
        None => found.push_str("null"),
    }
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    Object::new()
        .bool("valid", false)
        .str("error", &e.message())
        .num("at", e.char_offset())
        .num("column", e.char_offset() + 1)
        .raw("found", &found)
        .opt_str("rule", e.rule())
        .strs("within", e.within().iter().copied())
        .strs("expected", expected.iter().map(String::as_str))
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_decoding() {
        assert_eq!(form_decode("a+b%20c%C3%A9").as_deref(), Some("a b cé"));
        assert_eq!(form_decode("%2B").as_deref(), Some("+"));
        // A lone "%" (never sent by URLSearchParams, which writes %25) stays itself.
        assert_eq!(form_decode("%").as_deref(), Some("%"));
        assert_eq!(form_decode("%FF"), None);
    }

    #[test]
    fn trees_carry_character_offsets_and_literals() {
        let j = tree_json::<Iri>(Rule::Ihost, "é.x");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["valid"], true);
        assert_eq!(v["tree"]["to"], 3);
        assert_eq!(v["tree"]["end"], 4);
        let leaf = &v["tree"]["children"][0]["children"][0];
        assert_eq!(leaf["literal"], "é.x");
    }

    #[test]
    fn rules_carry_their_alternatives_in_the_order_trees_count_them() {
        let g = Grammars::builtin();
        let app = App::new(&g, 0);
        let q: HashMap<String, String> = [("name".to_string(), "IPv6address".to_string())].into();
        let v: serde_json::Value =
            serde_json::from_str(&app.rule(VariantName::Iri, &q).unwrap()).unwrap();
        let alternatives = v["alternatives"].as_array().unwrap();
        // The tree of ::ffff:1.2.3.4 says 6 of 9: the rule table must have 9, and the
        // sixth must be the one with `"::" h16 ":" ls32`.
        let t = tree_of::<Iri>(Rule::Ipv6address, "::ffff:1.2.3.4").unwrap();
        assert_eq!(t.root().alternative(), Some((6, alternatives.len())));
        assert_eq!(
            alternatives[5],
            "[ *3( h16 \":\" ) h16 ] \"::\" h16 \":\" ls32"
        );
        // A rule that is not an alternation has none.
        let q: HashMap<String, String> = [("name".to_string(), "IP-literal".to_string())].into();
        let v: serde_json::Value =
            serde_json::from_str(&app.rule(VariantName::Iri, &q).unwrap()).unwrap();
        assert_eq!(v["alternatives"], serde_json::json!([]));
    }

    #[test]
    fn traces_say_why_earlier_alternatives_failed() {
        let j = trace_json::<Iri>(Rule::Ipv6address, "::ffff:1.2.3.4");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["valid"], true);
        let steps = v["steps"].as_array().unwrap();
        let backtracks: Vec<_> = steps
            .iter()
            .filter(|s| s["step"] == "backtrack" && s["rule"] == "IPv6address")
            .collect();
        assert_eq!(backtracks.len(), 5);
        assert_eq!(backtracks[0]["why"], "\":\" cannot start it");
        let last = steps.last().unwrap();
        assert_eq!(
            (last["step"].as_str(), last["end_char"].as_u64()),
            (Some("match"), Some(14))
        );
    }

    #[test]
    fn errors_carry_the_column() {
        let j = tree_json::<Iri>(Rule::IriReference, "http://a b/");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["valid"], false);
        assert_eq!(v["at"], 8);
        assert_eq!(v["column"], 9);
        assert_eq!(v["found"], " ");
    }
}
