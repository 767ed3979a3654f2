//! Normalization and comparison (RFC 3987 §5.3): `normalize` and `compare` at each
//! level and character option.
//!
//! Input: `A [0xFF B] [0xFF OPTIONS]`; the options pick the grammar, the level, the
//! character normalization and whether fragments are ignored. Properties:
//! - only IDNA refuses, and only at the scheme level;
//! - the normal form re-parses to the components it recorded, and keeps the
//!   components that are there (a scheme-level port may go);
//! - idempotence: `x.normalize().normalize() == x.normalize()`;
//! - `x.compare(&x.normalize()) == Equivalent` for an absolute x;
//! - comparison is symmetric, and the ladder is monotone: equivalent at a level
//!   means equivalent (or unknown) at every higher level (§5.3: each rung joins more).
#![no_main]

use arbitrary::Arbitrary;
use iri_fuzz::{reparses, structure, Grammar};
use iri_grammar::normalize::{CharNorm, Comparison, Level, NormalizeOptions};
use iri_grammar::{Reference, Variant};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Default, Clone, Copy, Arbitrary)]
enum LevelOption {
    #[default]
    Syntax,
    Scheme,
    Simple,
}

#[derive(Debug, Default, Clone, Copy, Arbitrary)]
enum Chars {
    #[default]
    None,
    Nfc,
    Nfkc,
}

#[derive(Debug, Default, Arbitrary)]
struct Options {
    grammar: Grammar,
    level: LevelOption,
    chars: Chars,
    ignore_fragment: bool,
}

fn kind(c: &Comparison) -> &'static str {
    match c {
        Comparison::Equivalent => "equivalent",
        Comparison::Different => "different",
        Comparison::Unknown(_) => "unknown",
    }
}

fn run<V: Variant>(a: &str, b: &str, level: Level, options: NormalizeOptions) {
    let Ok(x) = Reference::<V>::parse(a) else {
        return;
    };
    let what = format!("normalize {level:?} {options:?}");
    match x.normalize_with(level, options) {
        Ok(n) => {
            reparses(&n, &what, a);
            let again = n.normalize_with(level, options)
                .unwrap_or_else(|e| panic!("{what} of {a:?} gave {n}, which fails: {e}"));
            assert_eq!(
                again.as_str(),
                n.as_str(),
                "{what} of {a:?} is not idempotent"
            );
            if x.is_absolute() {
                assert_eq!(
                    x.compare_with(&n, level, options),
                    Comparison::Equivalent,
                    "{what}: {a:?} and {n}"
                );
            }
            let (s, t) = (structure(&x), structure(&n));
            for k in [0, 1, 2, 4, 5] {
                assert_eq!(s[k], t[k], "{what}: {a:?} -> {n} (part {k})");
            }
            if level != Level::Scheme {
                assert_eq!(s[3], t[3], "{what}: port of {a:?} -> {n}");
            }
        }
        Err(e) => assert_eq!(level, Level::Scheme, "{what} of {a:?}: {e}"),
    }
    let Ok(y) = Reference::<V>::parse(b) else {
        return;
    };
    let ladder = [Level::Simple, Level::Syntax, Level::Scheme].map(|l| x.compare_with(&y, l, options));
    for (k, l) in [Level::Simple, Level::Syntax, Level::Scheme]
        .into_iter()
        .enumerate()
    {
        let back = y.compare_with(&x, l, options);
        assert_eq!(
            kind(&ladder[k]),
            kind(&back),
            "{l:?}: {a:?} vs {b:?} is not symmetric"
        );
    }
    for k in 0..2 {
        if ladder[k] == Comparison::Equivalent {
            assert!(
                !matches!(ladder[k + 1], Comparison::Different),
                "{a:?} and {b:?} are equivalent at level {k} but different above"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let ([a, b], mut u) = iri_fuzz::split::<2>(data);
    let o: Options = iri_fuzz::options(&mut u);
    let level = match o.level {
        LevelOption::Simple => Level::Simple,
        LevelOption::Syntax => Level::Syntax,
        LevelOption::Scheme => Level::Scheme,
    };
    let options = NormalizeOptions {
        chars: match o.chars {
            Chars::None => CharNorm::None,
            Chars::Nfc => CharNorm::Nfc,
            Chars::Nfkc => CharNorm::Nfkc,
        },
        ignore_fragment: o.ignore_fragment,
    };
    iri_fuzz::with_variant!(o.grammar, V => run::<V>(&a, &b, level, options));
});
