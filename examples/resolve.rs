//! Resolve references against a base and relativize them back (RFC 3986 §5.2).
//!
//! ```sh
//! cargo run --example resolve                                  # RFC 3986 §5.4.1
//! cargo run --example resolve -- http://a/b/c/d ../x //h/y '#f'
//! ```
//!
//! For each reference: the IRI it resolves to, and the shortest reference that
//! resolves back to that IRI from the same base.

use iri_grammar::{AbsoluteIri, IriRef};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (base, refs): (&str, Vec<&str>) = match args.split_first() {
        Some((base, refs)) => (base, refs.iter().map(String::as_str).collect()),
        // RFC 3986 §5.4.1, normal examples.
        None => (
            "http://a/b/c/d;p?q",
            vec![
                "g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x",
                "g;x", "g;x?y#s", "", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
            ],
        ),
    };
    // The base must be absolute (§5.1): the type says so, and the error says why not.
    let base = AbsoluteIri::parse(base)?;
    println!("base {base}");
    for r in refs {
        let reference = match IriRef::parse(r) {
            Ok(reference) => reference,
            Err(e) => {
                println!("{r:>10}  invalid: {e}");
                continue;
            }
        };
        let target = base.resolve(&reference);
        let back = match base.make_relative(&target) {
            Ok(back) => back.to_string(),
            Err(e) => format!("({e})"),
        };
        println!("{:>10}  ->  {target:<24}  <-  {back}", format!("{r:?}"));
    }
    Ok(())
}
