//! What makes the ordered translation of ABNF exact and fast: tests of what may
//! follow a match, one or two characters deep ([`Ahead`], [`Ahead2`], [`First`]),
//! and runs of a character class by table ([`Class`], [`Scan`]).

use super::*;

/// The scan table of a set of ASCII characters, by bit.
const fn ascii_table(ascii: u128) -> ScanTable {
    scan_table([ascii as u64, (ascii >> 64) as u64, 0, 0])
}

/// What may follow a match two characters deep: pairs of a first and a second
/// character (the second, or the first, may be the end of input). [`Ahead2`] tests it
/// where one character cannot tell the alternatives apart (RFC 2373's `hexpart =
/// hexseq | hexseq "::" [ hexseq ]`: after `1`, a `:` may follow the first
/// alternative, but `::` only continues the second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Set2 {
    first: Set,
    pairs: &'static [(Set, Set)],
}

impl Set2 {
    /// `first`: every character that may come first (with the end of input if nothing
    /// may follow); `pairs`: the first and second characters of what may follow.
    pub const fn new(first: Set, pairs: &'static [(Set, Set)]) -> Set2 {
        Set2 { first, pairs }
    }

    /// Whether the input at `i` starts with one of the pairs (or ends, if allowed).
    #[inline]
    pub fn admits(&self, i: &str) -> bool {
        let Some(c) = i.chars().next() else {
            return self.first.admits(i);
        };
        let rest = &i[c.len_utf8()..];
        self.pairs
            .iter()
            .any(|(a, b)| a.admits(i) && b.admits(rest))
    }
}

/// [`Ahead`] with a two-character lookahead ([`Set2`]).
#[derive(Debug, Clone, Copy)]
pub struct Ahead2<P>(pub &'static Set2, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Ahead2<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match self.1.parse(i) {
            Ok((rest, out)) if self.0.admits(rest) => Ok((rest, out)),
            Ok((rest, out)) => error::<M>(M::fail_after(out, self.0.refusal::<M>(rest))),
            Err(e) => Err(e),
        }
    }
}

impl Set2 {
    /// Where and why `rest` is not admitted. When its first character may follow,
    /// the match goes on past it and stops at the second, which none of the pairs
    /// that start with the first admits: the failure is there (`hexseq` in `[1:2]H`
    /// is followed by `]`, and it is the `H` after it that nothing may follow), as
    /// the ABNF's farthest failure is. The sets are what may follow anywhere in the
    /// grammar, not here: where the first character may only follow elsewhere, the
    /// failure is placed one character past the ABNF's (the 2001 draft's
    /// `IPv6prefix = hexpart "/" ..` lets a `/` pass after `hexseq` in a host;
    /// `tests/it/oracle_explains.rs`).
    #[cold]
    fn refusal<M: Mode>(&'static self, rest: &str) -> Failure {
        let first = rest.chars().next().filter(|_| self.first.admits(rest));
        let Some(c) = first else {
            return M::fail(rest.len(), &[Expected::Follow(&self.first)]);
        };
        let after = &rest[c.len_utf8()..];
        if !M::EXPLAIN {
            return M::fail(after.len(), &[]);
        }
        let seconds: Vec<Expected> = self
            .pairs
            .iter()
            .filter(|(a, _)| a.admits(rest))
            .map(|(_, b)| Expected::Follow(b))
            .collect();
        M::fail(after.len(), &seconds)
    }
}

/// Accepts the match of `P` only if what follows it is in the set: the lookahead
/// that makes an ordered choice accept exactly the ABNF language (see
/// `abnf/src/codegen/mod.rs`).
#[derive(Debug, Clone, Copy)]
pub struct Ahead<P>(pub &'static Set, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Ahead<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match self.1.parse(i) {
            Ok((rest, out)) if self.0.admits(rest) => {
                if M::TRACE {
                    M::step(Step::Ahead {
                        rem: rest.len(),
                        follow: self.0,
                        admitted: true,
                    });
                }
                Ok((rest, out))
            }
            Ok((rest, out)) => {
                if M::TRACE {
                    M::step(Step::Ahead {
                        rem: rest.len(),
                        follow: self.0,
                        admitted: false,
                    });
                }
                error::<M>(M::fail_after(
                    out,
                    M::fail(rest.len(), &[Expected::Follow(self.0)]),
                ))
            }
            Err(e) => Err(e),
        }
    }
}

/// Tries `P` only if the next character can start it (its FIRST set): a one-byte
/// test instead of a call that would fail. Explain mode always tries `P`, to collect
/// what it expected.
#[derive(Debug, Clone, Copy)]
pub struct First<P>(pub &'static Set, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for First<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        if !M::EXPLAIN && !self.0.admits(i) {
            if M::TRACE {
                M::step(Step::Skip {
                    rem: i.len(),
                    first: self.0,
                });
            }
            return error::<M>(Failure {
                rem: i.len(),
                diag: None,
            });
        }
        self.1.parse(i)
    }
}

/// A character class: ASCII characters by bit, ranges beyond ASCII, `pct-encoded`,
/// and variant rules (`ucschar`, `iprivate`), with what to name when it fails.
#[derive(Debug, Clone, Copy)]
pub struct Class {
    ascii: u128,
    /// The same ASCII members as a scan table (no byte >= 0x80 in it): the run of
    /// members is skipped sixteen bytes at a time where the processor can.
    table: ScanTable,
    beyond: &'static [(u32, u32)],
    pct: bool,
    /// The rule of its percent triplets, for trees: `pct-encoded`, or the 2001
    /// draft's `escaped`.
    pct_rule: Rule,
    variant: u32,
    expected: &'static [Expected],
}

impl Class {
    /// The empty class.
    pub const fn new() -> Class {
        Class {
            ascii: 0,
            table: ascii_table(0),
            beyond: &[],
            pct: false,
            pct_rule: Rule::PctEncoded,
            variant: 0,
            expected: &[],
        }
    }
    /// Adds ASCII characters.
    pub const fn chars(mut self, s: &str) -> Class {
        self.ascii |= Set::new().chars(s).ascii_bits();
        self.table = ascii_table(self.ascii);
        self
    }
    /// Adds the ASCII range `lo..=hi`.
    pub const fn range(mut self, lo: u8, hi: u8) -> Class {
        self.ascii |= Set::new().range(lo, hi).ascii_bits();
        self.table = ascii_table(self.ascii);
        self
    }
    /// Adds code point ranges beyond ASCII.
    pub const fn beyond_ascii(mut self, ranges: &'static [(u32, u32)]) -> Class {
        self.beyond = ranges;
        self
    }
    /// Adds `pct-encoded` (`"%" HEXDIG HEXDIG`, RFC 3986 §2.1).
    pub const fn pct_encoded(mut self) -> Class {
        self.pct = true;
        self
    }
    /// Adds a rule of the shape of `pct-encoded` under another name (RFC 2396's
    /// `escaped`, in the 2001 draft's rule set), which trees show.
    pub const fn pct_encoded_as(mut self, rule: Rule) -> Class {
        self.pct = true;
        self.pct_rule = rule;
        self
    }
    /// Adds a variant rule, by its bit.
    pub const fn variant_rule(mut self, bit: u32) -> Class {
        self.variant |= bit;
        self
    }
    /// Names what the class stands for in error messages.
    pub const fn expecting(mut self, expected: &'static [Expected]) -> Class {
        self.expected = expected;
        self
    }
}

impl Default for Class {
    fn default() -> Self {
        Class::new()
    }
}

/// `min*max class`: a run of characters of a class, scanned with table lookups
/// (ASCII; sixteen bytes at a time where the processor can) and range tests
/// (beyond), not one combinator call per character.
/// Used where the generator proved that greedy is exact (nothing that may follow
/// the run can start with a member of the class).
#[derive(Debug, Clone, Copy)]
pub struct Scan(pub &'static Class, pub u32, pub u32);

#[inline(always)]
fn is_hex(b: Option<&u8>) -> bool {
    b.is_some_and(|b| b.is_ascii_hexdigit())
}

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Scan {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let Scan(class, min, max) = *self;
        // ASCII members: the class's byte table, plus the variant's ASCII characters
        // (only LEIRI's ucschar has any; for the other variants `extra` folds to 0).
        let extra = V::variant_ascii(class.variant);
        let table = &class.table.bytes;
        let is_member = |b: u8| table[b as usize] || (b < 0x80 && extra >> b & 1 != 0);
        let bytes = i.as_bytes();
        let mut pos = 0;
        let mut n: u32 = 0;
        let mut out = M::empty();
        // Set in Explain mode when a "%" is not followed by two hex digits.
        let mut bad_pct: Option<Failure> = None;
        // An unbounded run with at most one required (every one the generator
        // writes) needs no count: it has one member iff it moved.
        let uncounted = max == INF && min <= 1;
        while uncounted || n < max {
            if max == INF {
                // An unbounded run: skip plain ASCII members without counting each.
                let start = pos;
                pos = if extra == 0 {
                    skip_ascii(&class.table, bytes, pos)
                } else {
                    let rest = &bytes[pos..];
                    pos + rest
                        .iter()
                        .position(|&b| !is_member(b))
                        .unwrap_or(rest.len())
                };
                if !uncounted {
                    n = n.saturating_add(u32::try_from(pos - start).unwrap_or(u32::MAX));
                }
            }
            let Some(&b) = bytes.get(pos) else { break };
            if b < 0x80 {
                if is_member(b) {
                    pos += 1;
                } else if b == b'%' && class.pct {
                    if is_hex(bytes.get(pos + 1)) && is_hex(bytes.get(pos + 2)) {
                        let open = M::open(class.pct_rule);
                        let pct = M::node(
                            class.pct_rule,
                            open,
                            i.len() - pos,
                            i.len() - pos - 3,
                            M::empty(),
                            false,
                        );
                        out = M::join(out, pct);
                        pos += 3;
                    } else {
                        if M::EXPLAIN {
                            let at = if is_hex(bytes.get(pos + 1)) {
                                pos + 2
                            } else {
                                pos + 1
                            };
                            let f = M::fail(i.len() - at, &[Expected::Rule(Rule::Hexdig)]);
                            bad_pct = Some(M::exit_failed(class.pct_rule, i.len() - pos, f));
                        }
                        break;
                    }
                } else {
                    break;
                }
            } else {
                // Not ASCII: decode one character (the input is a &str, so it is valid UTF-8).
                let c = i[pos..].chars().next().unwrap_or('\0');
                let cp = c as u32;
                let member = (class.variant != 0 && V::variant_char(class.variant, c))
                    || class.beyond.iter().any(|&(lo, hi)| lo <= cp && cp <= hi);
                if !member {
                    break;
                }
                pos += c.len_utf8();
            }
            if !uncounted {
                n += 1;
            }
        }
        let too_few = if uncounted {
            min == 1 && pos == 0
        } else {
            n < min
        };
        if too_few {
            let mut f = M::fail(i.len() - pos, class.expected);
            if let Some(b) = bad_pct {
                f = Failure::merge(f, b);
            }
            return error::<M>(M::fail_after(out, f));
        }
        if M::EXPLAIN && n < max {
            out = M::carry(out, M::fail(i.len() - pos, class.expected));
            if let Some(b) = bad_pct {
                out = M::carry(out, b);
            }
        }
        if M::TRACE {
            M::step(Step::Scan {
                start_rem: i.len(),
                end_rem: i.len() - pos,
                class: class.expected,
            });
        }
        Ok((&i[pos..], out))
    }
}
