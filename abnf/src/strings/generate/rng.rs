//! The random numbers: xoshiro256** seeded with splitmix64, written out here so that
//! a seed gives the same strings on every platform and every version of the crate's
//! dependencies; the characters worth drawing more often than others, and the
//! nearest character to a code point in a range.

use crate::model::table::Expr;

/// xoshiro256** (Blackman and Vigna), seeded by splitmix64: small, fast, and fixed.
#[derive(Debug, Clone)]
pub(super) struct Rng {
    pub(super) s: [u64; 4],
}

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut splitmix = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng {
            s: [splitmix(), splitmix(), splitmix(), splitmix()],
        }
    }

    pub(super) fn next(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-shift (the tiny bias is fine here).
    pub(super) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    pub(super) fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent`/100.
    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Characters worth trying in a near miss whatever the grammar: delimiters, space,
/// controls, hex letters, non-ASCII (BMP and not), private use, bidi controls,
/// non-characters and the characters only LEIRIs allow.
pub(super) const ALWAYS_INTERESTING: &[char] = &[
    ':',
    '/',
    '?',
    '#',
    '[',
    ']',
    '@',
    '%',
    ' ',
    '.',
    '-',
    '_',
    '~',
    '!',
    '$',
    '&',
    '\'',
    '(',
    ')',
    '*',
    '+',
    ',',
    ';',
    '=',
    '<',
    '>',
    '"',
    '{',
    '}',
    '|',
    '\\',
    '^',
    '`',
    '0',
    '1',
    '2',
    '5',
    '6',
    '9',
    'a',
    'f',
    'g',
    'A',
    'F',
    'G',
    'v',
    'V',
    'x',
    'z',
    '\0',
    '\t',
    '\n',
    '\r',
    '\u{7F}',
    '\u{80}',
    '\u{9F}',
    '\u{A0}',
    'é',
    'ß',
    'ı',
    '\u{212A}',
    '\u{200E}',
    '\u{200F}',
    '\u{202A}',
    '\u{202E}',
    '\u{D7FF}',
    '\u{E000}',
    '\u{F8FF}',
    '\u{F900}',
    '\u{FDCF}',
    '\u{FDD0}',
    '\u{FDEF}',
    '\u{FDF0}',
    '\u{FEFF}',
    '\u{FFEF}',
    '\u{FFF0}',
    '\u{FFFD}',
    '\u{FFFE}',
    '\u{FFFF}',
    '\u{10000}',
    '\u{10300}',
    '\u{1F600}',
    '\u{1FFFE}',
    '\u{1FFFF}',
    '\u{E0001}',
    '\u{E0FFF}',
    '\u{E1000}',
    '\u{EFFFD}',
    '\u{F0000}',
    '\u{FFFFD}',
    '\u{100000}',
    '\u{10FFFD}',
    '\u{10FFFF}',
    '納',
    'ا',
];

/// `c` if it is a character in `lo..=hi`, else the nearest one (skipping surrogates).
pub(super) fn pick_valid(lo: u32, hi: u32, c: u32) -> Option<char> {
    let hi = hi.min(0x10_FFFF);
    if lo > hi {
        return None;
    }
    let c = c.clamp(lo, hi);
    char::from_u32(c)
        .or_else(|| char::from_u32(0xD7FF).filter(|_| lo <= 0xD7FF))
        .or_else(|| char::from_u32(0xE000).filter(|_| hi >= 0xE000))
}

/// Adds the characters at and just beyond the edges of every range and literal.
pub(super) fn collect_edges(node: &Expr, out: &mut Vec<char>) {
    let mut near = |c: u32| {
        for d in [c.wrapping_sub(1), c, c.wrapping_add(1)] {
            if let Some(ch) = char::from_u32(d) {
                out.push(ch);
            }
        }
    };
    match node {
        Expr::Alt(items) | Expr::Cat(items) => {
            for n in items {
                collect_edges(n, out);
            }
        }
        Expr::Rep { node, .. } => collect_edges(node, out),
        Expr::Range(lo, hi) => {
            near(*lo);
            near(*hi);
        }
        Expr::Seq(cps) => cps.iter().for_each(|&c| near(c)),
        Expr::Chars(text, _) => {
            for c in text {
                near(*c as u32);
                near(c.to_ascii_uppercase() as u32);
                near(c.to_ascii_lowercase() as u32);
            }
        }
        Expr::Rule(_) | Expr::Missing(_) | Expr::Prose => {}
    }
}
