//! What the teaching views of iri-grammar show, for every front end that shows it:
//! `iri book` (static pages), the page of `iri serve` (over HTTP) and the static
//! playground (`js/page`, the same page run by WebAssembly in the browser).
//!
//! - [`lesson`]: one grammar's rules as the views present them (definition,
//!   section, diagram, FIRST set, uses, generated code).
//! - [`page`]: the page's questions (`/api/tree`, `/api/rule`, ...) and their JSON
//!   answers, whichever back end carries them.
//! - [`literals`]: parse trees with the literals as leaves, as JSON and text.
//! - [`trace`]: a trace of the combinators as JSON.
//! - [`json`]: the JSON writer all of these, and the command line, use.
//! - [`assets`]: the page itself (HTML, script, style, worker), one source for both
//!   back ends.
//!
//! It depends on the library and the ABNF tooling only, and compiles for
//! `wasm32-unknown-unknown`: no threads, files or processes.

pub mod json;
pub mod lesson;
pub mod literals;
pub mod page;
pub mod trace;

/// The teaching page's files (`teach/assets/`): served by `iri serve`, written with
/// the static playground by `iri book --playground`.
pub mod assets {
    /// The page. Its `iri-backend` meta says where the answers come from: `server`
    /// as written here, `wasm` in the static playground ([`static_index_html`]).
    pub const INDEX_HTML: &str = include_str!("../assets/index.html");
    /// The page's script: one application over both back ends.
    pub const APP_JS: &str = include_str!("../assets/app.js");
    pub const APP_CSS: &str = include_str!("../assets/app.css");
    /// The static playground's back end: runs `iri_grammar_page.wasm` (`js/page`).
    pub const WORKER_JS: &str = include_str!("../assets/worker.js");
    /// The file name the worker loads the module from, beside itself.
    pub const PAGE_MODULE: &str = "iri_grammar_page.wasm";

    /// [`INDEX_HTML`] for the static playground: the answers from the worker.
    pub fn static_index_html() -> String {
        INDEX_HTML.replace(
            r#"<meta name="iri-backend" content="server">"#,
            r#"<meta name="iri-backend" content="wasm">"#,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::assets;

    #[test]
    fn the_static_page_asks_the_worker_and_the_served_page_the_server() {
        let backend = |html: &str| {
            let at = html.find(r#"<meta name="iri-backend" content=""#)?;
            let rest = &html[at + r#"<meta name="iri-backend" content=""#.len()..];
            Some(rest[..rest.find('"')?].to_string())
        };
        assert_eq!(backend(assets::INDEX_HTML).as_deref(), Some("server"));
        assert_eq!(
            backend(&assets::static_index_html()).as_deref(),
            Some("wasm")
        );
        assert!(assets::WORKER_JS.contains(assets::PAGE_MODULE));
    }
}
