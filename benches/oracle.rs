//! The oracle (an interpreter of the rule table with exact ABNF semantics) beside
//! the generated combinators, on the same generated inputs: what exactness by
//! construction costs, and why the combinators exist.
//!
//! `cargo bench --bench oracle`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use iri_grammar::grammar::{is_match, Iri, Rule};
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};

fn oracle_vs_combinators(c: &mut Criterion) {
    let grammars = Grammars::builtin();
    let mut generator = Generator::new(&grammars, VariantName::Iri, 42);
    let inputs: Vec<String> = (0..200)
        .map(|k| {
            let s = generator.generate("IRI-reference").unwrap();
            if k % 4 == 3 {
                generator.mutate(&s)
            } else {
                s
            }
        })
        .collect();
    let bytes: usize = inputs.iter().map(String::len).sum();
    let oracle = Oracle::new(&grammars, VariantName::Iri);
    let mut group = c.benchmark_group("IRI-reference, 200 generated inputs");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("combinators (is_match)", |b| {
        b.iter(|| {
            inputs
                .iter()
                .filter(|s| is_match::<Iri>(Rule::IriReference, black_box(s)))
                .count()
        })
    });
    group.bench_function("oracle", |b| {
        b.iter(|| {
            inputs
                .iter()
                .filter(|s| oracle.matches("IRI-reference", black_box(s)).unwrap())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, oracle_vs_combinators);
criterion_main!(benches);
