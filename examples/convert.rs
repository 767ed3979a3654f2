//! Convert between URIs and IRIs (RFC 3987 §3.1, §3.2) and compare IRIs up the
//! ladder of RFC 3987 §5.3.
//!
//! ```sh
//! cargo run --example convert
//! cargo run --example convert -- 'http://résumé.example.org/rosé' 'HTTP://xn--rsum-bpad.example.org:80/ros%C3%A9'
//! ```

use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::normalize::{Level, NormalizeOptions};
use iri_grammar::IriRef;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs: Vec<&str> = if args.is_empty() {
        vec![
            "http://résumé.example.org/rosé?q=ü#fragment",
            "HTTP://xn--rsum-bpad.example.org:80/ros%C3%A9?q=%C3%BC#fragment",
            "http://www.example.org/D%C3%BCrst/%E2%80%AE",
        ]
    } else {
        args.iter().map(String::as_str).collect()
    };
    let mut parsed = Vec::new();
    for input in &inputs {
        let iri = IriRef::parse(input)?;
        println!("{iri}");
        // IRI -> URI: what is not ASCII is percent-encoded; with IDNA the host
        // becomes its ToASCII form instead (idna feature).
        println!("  to URI        {}", iri.to_uri());
        match iri.to_uri_with(ToUri { idna: true }) {
            Ok(uri) => println!("  to URI, IDNA  {uri}"),
            Err(e) => println!("  to URI, IDNA  {e}"),
        }
        // URI -> IRI: percent-encoded UTF-8 decoded where §3.2 allows (U+202E
        // stays encoded: a bidi formatting character, §4.1).
        println!("  to IRI, IDNA  {}", iri.to_iri_with(ToIri { idna: true })?);
        for level in [Level::Syntax, Level::Scheme] {
            let name = format!("{level:?}");
            match iri.normalize_with(level, NormalizeOptions::default()) {
                Ok(n) => println!("  {name:<13} {n}"),
                Err(e) => println!("  {name:<13} {e}"),
            }
        }
        parsed.push(iri);
    }
    for (k, a) in parsed.iter().enumerate() {
        for b in &parsed[k + 1..] {
            println!("{a}\n{b}");
            for level in [Level::Simple, Level::Syntax, Level::Scheme] {
                println!("  {level:?}: {:?}", a.compare(b, level));
            }
        }
    }
    Ok(())
}
