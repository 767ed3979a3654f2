//! The teaching page's back end as a WebAssembly module: the static playground
//! (`js/site.sh`) runs it in a Web Worker (`cli/assets/worker.js`), where it answers
//! the page's questions as `iri serve` does, by the same
//! [`Page`]. No server: the site is static files.
//!
//! The protocol, plain exports as `js/engine`'s (no wasm-bindgen): the worker writes
//! the UTF-8 of a request (`/api/tree?grammar=iri&rule=...`, the query form-encoded
//! as the page's `URLSearchParams` writes it) at `page_input(len)`, calls
//! `page_answer(len)`, and reads that many bytes of JSON at `page_output()`, with the
//! HTTP status the server would have given from `page_status()`.

use iri_grammar_abnf::Grammars;
use iri_grammar_teach::page::{Answer, Page};
use std::cell::{OnceCell, RefCell};

thread_local! {
    /// What the worker writes: the request of one call.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The answer of the last call.
    static OUTPUT: RefCell<Answer> = const { RefCell::new(Answer { status: 0, json: String::new() }) };
    /// The grammars and what has been worked out of them, made at the first call and
    /// kept while the worker lives (a rule's answer never changes).
    static PAGE: OnceCell<Page<'static>> = const { OnceCell::new() };
}

/// The address of an input buffer of at least `len` bytes; 0 when the memory cannot
/// grow that far.
#[no_mangle]
pub extern "C" fn page_input(len: u32) -> usize {
    INPUT.with_borrow_mut(|buf| {
        let want = len as usize;
        if buf.len() < want && buf.try_reserve_exact(want - buf.len()).is_err() {
            return 0;
        }
        buf.resize(want.max(buf.len()), 0);
        buf.as_mut_ptr() as usize
    })
}

/// Answers the request in the first `len` input bytes; returns the length of the
/// JSON answer (at [`page_output`]).
#[no_mangle]
pub extern "C" fn page_answer(len: u32) -> u32 {
    let request = INPUT.with_borrow(|buf| {
        String::from_utf8_lossy(&buf[..(len as usize).min(buf.len())]).into_owned()
    });
    let (path, query) = request.split_once('?').unwrap_or((&request, ""));
    let answer = PAGE.with(|page| {
        // The grammars live as long as the module: one leak, once.
        page.get_or_init(|| Page::new(Box::leak(Box::new(Grammars::builtin()))))
            .answer(path, query)
    });
    let n = answer.json.len() as u32;
    OUTPUT.with_borrow_mut(|out| *out = answer);
    n
}

/// The address of the last answer's JSON, valid until the next call.
#[no_mangle]
pub extern "C" fn page_output() -> usize {
    OUTPUT.with_borrow(|out| out.json.as_ptr() as usize)
}

/// The HTTP status of the last answer, as `iri serve` gives it (200, 400, 404, 413).
#[no_mangle]
pub extern "C" fn page_status() -> u32 {
    u32::from(OUTPUT.with_borrow(|out| out.status))
}
