//! Print the parse tree of an input: which rule of the ABNF matched which
//! characters.
//!
//! ```sh
//! cargo run --example tree
//! cargo run --example tree -- 'http://[::1]:8080/a?b#c'
//! cargo run --example tree -- --grammar uri --rule IPv6address '::ffff:1.2.3.4'
//! ```

use iri_grammar::{parse_tree, Iri, Leiri, ParseTree, Uri};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut grammar = String::from("iri");
    let mut rule = None;
    let mut input = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--grammar" => grammar = args.next().ok_or("--grammar needs a value")?,
            "--rule" => rule = Some(args.next().ok_or("--rule needs a value")?),
            _ => input = Some(a),
        }
    }
    let input = input.unwrap_or_else(|| "http://résumé.example.org/ros%C3%A9?q=1#f".into());
    // Each grammar names its reference rule in its own way.
    let tree: ParseTree<'_> = match grammar.as_str() {
        "uri" => parse_tree::<Uri>(rule.as_deref().unwrap_or("URI-reference"), &input)?,
        "iri" => parse_tree::<Iri>(rule.as_deref().unwrap_or("IRI-reference"), &input)?,
        "leiri" => parse_tree::<Leiri>(rule.as_deref().unwrap_or("LEIRI-reference"), &input)?,
        other => return Err(format!("unknown grammar {other:?}").into()),
    };
    print!("{}", tree.to_text());
    // The same tree, walked: the rules directly under the root.
    let names: Vec<_> = tree.root().children().map(|n| n.rule()).collect();
    println!("under {}: {}", tree.root().rule(), names.join(", "));
    Ok(())
}
