//! The one writer of components that the operations share: it copies a component's
//! text run by run and treats only the bytes its table marks, decoding, encoding or
//! lowercasing each as the operation says. IRI → URI (RFC 3987 §3.1), URI → IRI
//! (§3.2), LEIRI → IRI (LEIRI note §3) and syntax-based normalization (§5.3.2, which
//! is `to_iri(to_uri(x))` in one pass) are each one [`Treatment`].

use crate::byte_search::{first_byte, first_looked_up, next_non_ascii};
use crate::chars::{
    iri_allows, is_formatting_character, leiri_only_ascii, may_decode, LEIRI_ONLY_ASCII_BYTES,
};
use crate::grammar::Component;
use crate::pct::{self, Decoded};
use alloc::string::String;

/// Bytes the per-component writer must look at (the others are copied in runs).
struct Attention {
    table: [bool; 256],
    /// Only the bytes beyond ASCII: found sixteen at a time ([`next_non_ascii`]).
    only_non_ascii: bool,
    /// Only `%` (§3.2's decoding of a URI): found eight at a time ([`first_byte`]).
    only_percent: bool,
}

/// The kinds of byte an [`Attention`] marks, named where a table is made.
#[derive(Clone, Copy)]
struct Marks {
    /// `%`, which begins a percent-encoding.
    percent: bool,
    /// Every byte of a character beyond US-ASCII.
    non_ascii: bool,
    /// The US-ASCII characters a LEIRI has and an IRI does not ([`LEIRI_ONLY_ASCII_BYTES`]).
    leiri_ascii: bool,
    /// The ASCII capital letters, for a writer that lowercases.
    upper: bool,
}

impl Marks {
    const NONE: Marks = Marks {
        percent: false,
        non_ascii: false,
        leiri_ascii: false,
        upper: false,
    };
}

impl Attention {
    const fn new(marks: Marks) -> Attention {
        let Marks {
            percent,
            non_ascii,
            leiri_ascii,
            upper,
        } = marks;
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            t[b] = (percent && b == b'%' as usize)
                || (non_ascii && b >= 0x80)
                || (leiri_ascii && LEIRI_ONLY_ASCII_BYTES[b])
                || (upper && (b as u8).is_ascii_uppercase());
            b += 1;
        }
        Attention {
            table: t,
            only_non_ascii: non_ascii && !percent && !leiri_ascii && !upper,
            only_percent: percent && !non_ascii && !leiri_ascii && !upper,
        }
    }

    /// Where the first byte to look at is in `bytes`. Most bytes need no attention.
    #[inline]
    fn find(&self, bytes: &[u8]) -> Option<usize> {
        if self.only_non_ascii {
            return next_non_ascii(bytes);
        }
        if self.only_percent {
            return first_byte(bytes, b'%');
        }
        first_looked_up(bytes, |b| self.table[usize::from(b)])
    }
}

/// How the one per-component writer treats each character: what to decode, what to
/// encode, what case to give.
pub(crate) struct Treatment<K: Fn(char) -> bool> {
    /// The bytes to look at; every other byte is copied as it is.
    attention: &'static Attention,
    /// `%HH` runs are decoded as RFC 3987 §3.2 steps 2-5 say ([`may_decode`]).
    /// Otherwise they are copied.
    decode: bool,
    /// Percent-encodings that stay are written in uppercase (otherwise an ASCII one
    /// that is not decoded keeps the case it was written with).
    upper_hex: bool,
    /// ASCII letters become lowercase (scheme, host).
    lowercase: bool,
    /// Characters that end up decoded but are not ASCII are percent-encoded instead
    /// (the output is a URI).
    ascii_only: bool,
    /// Whether a character written as itself (not percent-encoded) in the input may
    /// stay as it is; otherwise it is percent-encoded. Asked only for bytes the
    /// attention table marks.
    keep: K,
}

impl<K: Fn(char) -> bool> Treatment<K> {
    /// Appends `c`, decoded or written as itself, as this writer's output wants it.
    #[inline]
    fn emit(&self, c: char, out: &mut String) {
        if c.is_ascii() {
            out.push(if self.lowercase {
                c.to_ascii_lowercase()
            } else {
                c
            });
        } else if self.ascii_only {
            pct::encode_char(c, out);
        } else {
            out.push(c);
        }
    }

    /// Writes component `at` of text `s` to `out`.
    pub(crate) fn write(&self, s: &str, at: Component, out: &mut String) {
        self.write_noting(s, at, out);
    }

    /// [`Self::write`], and whether `s` holds a percent-encoding or a character
    /// beyond US-ASCII (which the attention table of every writer marks): what
    /// the host at the syntax level asks, in the same pass.
    pub(crate) fn write_noting(&self, s: &str, at: Component, out: &mut String) -> bool {
        let bytes = s.as_bytes();
        let mut copied = 0;
        let mut k = 0;
        let mut met = false;
        while let Some(p) = self.attention.find(&bytes[k..]) {
            k += p;
            out.push_str(&s[copied..k]);
            let b = bytes[k];
            met |= b == b'%' || b >= 0x80;
            if b == b'%' {
                k += self.percent_run(&s[k..], at, out);
            } else if b >= 0x80 && self.ascii_only {
                // Every character beyond ASCII ends up as `%HH` of its UTF-8 octets
                // (RFC 3987 §3.1 step 2), whatever `keep` says: the whole run at once.
                k = encode_run_beyond_ascii(bytes, k, out);
            } else if b.is_ascii_uppercase() && self.lowercase {
                out.push(char::from(b.to_ascii_lowercase()));
                k += 1;
            } else {
                let c = s[k..].chars().next().unwrap_or('\0');
                if (self.keep)(c) {
                    self.emit(c, out);
                } else {
                    pct::encode_char(c, out);
                }
                k += c.len_utf8();
            }
            copied = k;
        }
        out.push_str(&s[copied..]);
        met
    }

    /// Writes the run of `pct-encoded` at the start of `s`; returns its length.
    pub(crate) fn percent_run(&self, s: &str, at: Component, out: &mut String) -> usize {
        if !self.decode {
            // A valid reference has two hex digits after every "%".
            let triplet = &s[..3.min(s.len())];
            if self.upper_hex {
                out.push_str(&triplet.to_ascii_uppercase());
            } else {
                out.push_str(triplet);
            }
            return triplet.len();
        }
        let mut pos = 0;
        let n = pct::decode_run(s.as_bytes(), |d| {
            match d {
                Decoded::Char(c, _) if may_decode(c, at) => self.emit(c, out),
                Decoded::Char(c, n) if c.is_ascii() && !self.upper_hex => {
                    // %, reserved and disallowed US-ASCII: kept as written.
                    out.push_str(&s[pos..pos + n]);
                }
                Decoded::Char(c, _) => pct::encode_char(c, out),
                Decoded::Octet(o) => pct::encode_octet(o, out),
            }
            pos += match d {
                Decoded::Char(_, n) => n,
                Decoded::Octet(_) => 3,
            };
        });
        debug_assert!(n > 0, "a valid reference has two hex digits after %");
        n.max(1)
    }
}

/// The writers of the operations, each named after what it writes.
impl Treatment<fn(char) -> bool> {
    /// The writer of syntax-based normalization (RFC 3987 §5.3.2): every character in
    /// the one form `to_iri(to_uri(x))` gives it (decoded where §3.2 decodes it, `%HH`
    /// in uppercase elsewhere), ASCII letters lowercase if `lowercase`, and a URI
    /// (non-ASCII encoded) if `ascii_only`.
    pub(crate) fn aligned(
        at: Component,
        lowercase: bool,
        ascii_only: bool,
    ) -> Treatment<impl Fn(char) -> bool> {
        Treatment {
            attention: if lowercase {
                &ATTEND_ALL_UPPER
            } else {
                &ATTEND_ALL
            },
            decode: true,
            upper_hex: true,
            lowercase,
            ascii_only,
            keep: move |c: char| {
                if c.is_ascii() {
                    !leiri_only_ascii(c)
                } else {
                    may_decode(c, at)
                }
            },
        }
    }

    /// The writer of IRI → URI (RFC 3987 §3.1) outside an IDNA host: characters beyond ASCII, and from
    /// a LEIRI the ASCII a URI forbids, percent-encoded.
    pub(crate) fn to_uri(leiri: bool) -> Treatment<impl Fn(char) -> bool> {
        Treatment {
            attention: if leiri {
                &ATTEND_NON_ASCII_LEIRI
            } else {
                &ATTEND_NON_ASCII
            },
            decode: false,
            upper_hex: false,
            lowercase: false,
            ascii_only: true,
            keep: move |c: char| c.is_ascii() && !leiri_only_ascii(c),
        }
    }

    /// The writer of URI → IRI (RFC 3987 §3.2): §3.2 decoding; from a LEIRI, characters an IRI cannot
    /// have in component `at` are encoded.
    pub(crate) fn to_iri(at: Component, leiri: bool) -> Treatment<impl Fn(char) -> bool> {
        Treatment {
            attention: if leiri {
                &ATTEND_PERCENT_LEIRI
            } else {
                &ATTEND_PERCENT
            },
            decode: true,
            upper_hex: false,
            lowercase: false,
            ascii_only: false,
            keep: move |c: char| !leiri || leiri_keeps(c, at),
        }
    }

    /// The writer of LEIRI → IRI (LEIRI note §3): characters an IRI cannot have in
    /// component `at` are encoded, nothing is decoded.
    pub(crate) fn leiri_to_iri(at: Component) -> Treatment<impl Fn(char) -> bool> {
        Treatment {
            attention: &ATTEND_NON_ASCII_LEIRI,
            decode: false,
            upper_hex: false,
            lowercase: false,
            ascii_only: false,
            keep: move |c: char| leiri_keeps(c, at),
        }
    }
}

static ATTEND_NON_ASCII: Attention = Attention::new(Marks {
    non_ascii: true,
    ..Marks::NONE
});
static ATTEND_NON_ASCII_LEIRI: Attention = Attention::new(Marks {
    non_ascii: true,
    leiri_ascii: true,
    ..Marks::NONE
});
static ATTEND_PERCENT: Attention = Attention::new(Marks {
    percent: true,
    ..Marks::NONE
});
static ATTEND_PERCENT_LEIRI: Attention = Attention::new(Marks {
    percent: true,
    non_ascii: true,
    leiri_ascii: true,
    ..Marks::NONE
});
static ATTEND_ALL: Attention = Attention::new(Marks {
    percent: true,
    non_ascii: true,
    leiri_ascii: true,
    ..Marks::NONE
});
static ATTEND_ALL_UPPER: Attention = Attention::new(Marks {
    percent: true,
    non_ascii: true,
    leiri_ascii: true,
    upper: true,
});

/// Writes `%HH` of the run of octets beyond ASCII that starts at `start`; returns where
/// the run ends. A run ends at an ASCII byte (or the end), so it is whole characters.
/// Octet by octet: runs are short (a character or a word), too short to repay a
/// staging buffer or a search for the run's end first.
#[inline]
pub(crate) fn encode_run_beyond_ascii(bytes: &[u8], start: usize, out: &mut String) -> usize {
    let mut k = start;
    while let Some(&b) = bytes.get(k).filter(|b| !b.is_ascii()) {
        pct::encode_octet(b, out);
        k += 1;
    }
    k
}

/// Whether LEIRI → IRI keeps `c` as it is in component `at`.
fn leiri_keeps(c: char, at: Component) -> bool {
    if c.is_ascii() {
        !leiri_only_ascii(c)
    } else {
        iri_allows(c, at) && !is_formatting_character(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attention_tables_cover_what_the_rules_judge() {
        // Every byte the writers treat specially is in their tables.
        for b in 0..=255u8 {
            assert_eq!(
                ATTEND_ALL.table[b as usize],
                b == b'%' || b >= 0x80 || LEIRI_ONLY_ASCII_BYTES[b as usize]
            );
            assert_eq!(ATTEND_PERCENT.table[b as usize], b == b'%');
        }
    }

    #[test]
    fn attention_finds_what_its_table_finds() {
        assert!(ATTEND_NON_ASCII.only_non_ascii && ATTEND_PERCENT.only_percent);
        assert!(!ATTEND_NON_ASCII_LEIRI.only_non_ascii && !ATTEND_PERCENT.only_non_ascii);
        assert!(!ATTEND_NON_ASCII.only_percent && !ATTEND_PERCENT_LEIRI.only_percent);
        // Every length up to three words, a byte to attend to at every place (or none).
        for attention in [&ATTEND_NON_ASCII, &ATTEND_PERCENT, &ATTEND_NON_ASCII_LEIRI] {
            for special in [0xC3, b'%', b' ', b'A'] {
                for len in 0..24 {
                    for at in 0..=len {
                        let mut bytes = vec![b'a'; len];
                        if at < len {
                            bytes[at] = special;
                        }
                        let table = bytes.iter().position(|&b| attention.table[usize::from(b)]);
                        assert_eq!(attention.find(&bytes), table, "{len} {at} {special}");
                    }
                }
            }
        }
    }
}
