//! # iri-grammar-datafusion
//!
//! The operations of [`iri_grammar`] as SQL functions for Apache DataFusion, for
//! cleaning link data at scale: validation (RFC 3986, RFC 3987, the LEIRI note),
//! components, resolution, conversions, normalization, lint and preparation, over
//! Arrow string columns of any layout (`Utf8`, `LargeUtf8`, `Utf8View`).
//!
//! ```no_run
//! # async fn run() -> datafusion::error::Result<()> {
//! use datafusion::prelude::SessionContext;
//! let ctx = SessionContext::new();
//! iri_grammar_datafusion::register(&ctx);
//! iri_grammar_datafusion::tables::register_path(&ctx, "urls", "urls.txt").await?;
//! ctx.sql("SELECT iri_host(iri) AS host, count(*) AS n FROM urls \
//!          WHERE iri_is_valid(iri) GROUP BY host ORDER BY n DESC LIMIT 10")
//!     .await?
//!     .show()
//!     .await?;
//! # Ok(())
//! # }
//! ```
//!
//! ## Functions
//!
//! <!-- The function table, generated from datafusion/src/udf.rs; IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar-datafusion --lib rewrites it. -->
//! | function | returns | document |
//! |---|---|---|
//! | `iri_is_valid(s [, grammar])` | boolean | RFC 3987 §2.2, RFC 3986 App. A, LEIRI §2 |
//! | `iri_error(s [, grammar])` | struct {message, rule, component, byte_offset, char_offset, found, expected, within}, NULL if valid | RFC 3987 §2.2, RFC 3986 App. A, LEIRI §2 |
//! | `iri_parse(s [, grammar])` | struct {scheme, authority, userinfo, host, host_kind, port, path, query, fragment} | RFC 3986 §3 |
//! | `iri_scheme(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.1 |
//! | `iri_authority(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.2 |
//! | `iri_userinfo(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.2.1 |
//! | `iri_host(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.2.2 |
//! | `iri_port(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.2.3 |
//! | `iri_path(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.3 |
//! | `iri_query(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.4 |
//! | `iri_fragment(s [, grammar])` | string (absent: NULL, empty: `''`) | RFC 3986 §3.5 |
//! | `iri_host_kind(s [, grammar])` | string: `reg-name`, `ipv4`, `ipv6` or `ipvfuture` | RFC 3986 §3.2.2 |
//! | `iri_resolve(base, r)` | string | RFC 3986 §5.2 |
//! | `iri_relativize(base, target)` | string | RFC 3986 §5.2 |
//! | `iri_to_uri(s [, idna])` | string | RFC 3987 §3.1 |
//! | `iri_to_iri(s [, idna])` | string | RFC 3987 §3.2 |
//! | `iri_leiri_to_iri(s)` | string | LEIRI note §3 |
//! | `iri_normalize(s [, level])` | string | RFC 3987 §5.3 |
//! | `iri_compare(a, b [, level])` | boolean (NULL: unknown) | RFC 3987 §5.3, comparison draft §2 |
//! | `iri_lint(s [, grammar])` | list of strings (codes) | RFC 3987 §4, §6.1, §7.5 |
//! | `iri_prepare(s)` | string | IRI processing draft §4–5 |
//! <!-- End of the function table. -->
//!
//! Each function's documentation, with a SQL example, is in [`udf`] and in the
//! session (`SELECT * FROM information_schema.routines` lists them).
//!
//! ## NULLs and errors
//!
//! - NULL in any argument gives NULL (the functions are strict).
//! - An input that is no IRI reference in the grammar gives NULL from every function
//!   but `iri_is_valid` (false) and `iri_error` (the error). Where an operation fails
//!   on a valid input (IDNA rejects a host, a base without a scheme, a target no
//!   reference reaches), the result is NULL too: the data decides, the query goes on.
//! - An option that names nothing (`iri_normalize(s, 'fast')`) or that is a column
//!   rather than a constant is an error of the query: a mistake in the SQL.
//! - Grammar: RFC 3987 IRI references unless the function takes a `grammar`.
//! - Bytes that are not UTF-8 are no text, and no function sees them repaired: a
//!   line of a list that is not UTF-8 is a NULL `iri` with the reason in
//!   `utf8_error` (see [`tables`]), and CSV or JSON that is not UTF-8 stops the
//!   query ([`tables::explain_error`] says where).
//!
//! ## Strings out
//!
//! String results are `Utf8View`. Components are views into the input's own buffers:
//! `iri_host` over a billion rows copies no byte of the input and allocates nothing
//! per row (see the `out` module). Computed strings (normalization, conversions) are
//! allocated by the library, one per row; a result equal to its input is a view of
//! the input.
//!
//! ## Engines
//!
//! The functions depend on nothing but Arrow arrays: [`register`] adds them to a
//! `SessionContext`, [`register_state`] to a `SessionState` (what a Ballista
//! scheduler and executor are built from), and [`udf::udfs`] hands them out for any
//! other registry. With the `ballista` feature, the `ballista` module starts a
//! standalone Ballista cluster (scheduler and executor in this process) that carries
//! them, the scheduler and executor processes of a real cluster, and its client; the
//! `codec` module sends a list's table and scan to them, so that a cluster reads a
//! list as the embedded engine does.

#![warn(clippy::undocumented_unsafe_blocks)]

mod args;
#[cfg(feature = "ballista")]
pub mod ballista;
#[cfg(feature = "ballista")]
pub mod codec;
mod error;
mod functions;
mod out;
pub mod tables;
pub mod udf;

use datafusion::execution::SessionState;
use datafusion::prelude::SessionContext;

/// Registers every IRI function on `ctx`.
pub fn register(ctx: &SessionContext) {
    for f in udf::udfs() {
        ctx.register_udf((*f).clone());
    }
}

/// Registers every IRI function on a session state (for engines built from one,
/// such as a Ballista scheduler and its executors).
pub fn register_state(state: &mut SessionState) -> datafusion::error::Result<()> {
    use datafusion::execution::FunctionRegistry;
    for f in udf::udfs() {
        state.register_udf(f)?;
    }
    Ok(())
}

/// A session with the IRI functions, and `target_partitions` partitions (`None`:
/// one per core).
pub fn session(target_partitions: Option<usize>) -> SessionContext {
    let mut config = datafusion::prelude::SessionConfig::new().with_information_schema(true);
    if let Some(n) = target_partitions {
        config = config.with_target_partitions(n);
    }
    let ctx = SessionContext::new_with_config(config);
    register(&ctx);
    ctx
}
