//! The ABNF constructs of RFC 5234 as parsers: quoted strings, ranges,
//! concatenation, alternation, repetition and options, and the rule that names a
//! match.

use super::*;

/// A parser of the generated grammar, for variant `V` in mode `M`.
///
/// Functions `fn(&str) -> PResult<M>` (the generated combinators) are parsers,
/// and so they are also nom parsers: they can be used in any nom combinator.
pub trait Parse<'a, V: Variant, M: Mode> {
    /// Matches a prefix of `i`.
    fn parse(&self, i: &'a str) -> PResult<'a, M>;
    /// Whether this is a rule's alternation, a [`Choice`] (which tells
    /// [`Mode::chose`] the alternative that matched, for its rule's node).
    const IS_CHOICE: bool = false;
}

impl<'a, V: Variant, M: Mode, F> Parse<'a, V, M> for F
where
    F: Fn(&'a str) -> PResult<'a, M>,
{
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        self(i)
    }
}

/// Runs a rule's body and marks the match (or the failure) as that rule's.
#[inline(always)]
pub fn rule<'a, V: Variant, M: Mode, P: Parse<'a, V, M>>(
    rule: Rule,
    i: &'a str,
    body: P,
) -> PResult<'a, M> {
    if M::TRACE {
        M::step(Step::Enter { rule, rem: i.len() });
    }
    let open = M::open(rule);
    match body.parse(i) {
        Ok((rest, out)) => {
            if M::TRACE {
                M::step(Step::Match {
                    rule,
                    start_rem: i.len(),
                    end_rem: rest.len(),
                });
            }
            Ok((
                rest,
                M::node(rule, open, i.len(), rest.len(), out, P::IS_CHOICE),
            ))
        }
        Err(Err::Error(f)) => {
            if M::TRACE {
                M::step(Step::Fail {
                    rule,
                    start_rem: i.len(),
                    rem: f.rem,
                });
            }
            error::<M>(M::exit_failed(rule, i.len(), f))
        }
        Err(e) => Err(e),
    }
}

/// `"abc"`: a quoted string, ASCII case-insensitive (RFC 5234 §2.3).
#[derive(Debug, Clone, Copy)]
pub struct Lit(pub &'static str);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Lit {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let want = self.0.as_bytes();
        // Without letters, case-insensitive is equal: a plain compare (the literals
        // are constants, so this test folds away).
        let letters = want.iter().any(u8::is_ascii_alphabetic);
        match i.as_bytes().get(..want.len()) {
            // A matched prefix equals an ASCII-only string, so it ends on a char boundary.
            Some(have)
                if (letters && have.eq_ignore_ascii_case(want)) || (!letters && have == want) =>
            {
                if M::TRACE {
                    M::step(Step::Terminal {
                        start_rem: i.len(),
                        end_rem: i.len() - want.len(),
                    });
                }
                Ok((&i[want.len()..], M::empty()))
            }
            _ => error::<M>(M::fail(i.len(), &[Expected::Lit(self.0)])),
        }
    }
}

/// `%s"abc"` or `%x0D.0A`: an exact string (RFC 7405, RFC 5234 §2.3).
#[derive(Debug, Clone, Copy)]
pub struct LitCs(pub &'static str);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for LitCs {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match i.strip_prefix(self.0) {
            Some(rest) => {
                if M::TRACE {
                    M::step(Step::Terminal {
                        start_rem: i.len(),
                        end_rem: rest.len(),
                    });
                }
                Ok((rest, M::empty()))
            }
            None => error::<M>(M::fail(i.len(), &[Expected::Lit(self.0)])),
        }
    }
}

/// `%xLO-HI`: one character in a range of code points (RFC 5234 §3.4).
#[derive(Debug, Clone, Copy)]
pub struct Range(pub u32, pub u32);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Range {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match i.chars().next() {
            Some(c) if (self.0..=self.1).contains(&(c as u32)) => {
                if M::TRACE {
                    M::step(Step::Terminal {
                        start_rem: i.len(),
                        end_rem: i.len() - c.len_utf8(),
                    });
                }
                Ok((&i[c.len_utf8()..], M::empty()))
            }
            _ => error::<M>(M::fail(i.len(), &[Expected::Range(self.0, self.1)])),
        }
    }
}

/// `<prose>`: text the grammar cannot express; it matches nothing (RFC 5234 §4).
#[derive(Debug, Clone, Copy)]
pub struct Prose(pub &'static str);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Prose {
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        error::<M>(M::fail(i.len(), &[Expected::Abnf(self.0)]))
    }
}

/// Zero repetitions (`0<pchar>`): matches the empty string.
#[derive(Debug, Clone, Copy)]
pub struct Empty;

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Empty {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        Ok((i, M::empty()))
    }
}

/// `a b c`: concatenation (RFC 5234 §3.1), a tuple of parsers.
#[derive(Debug, Clone, Copy)]
pub struct Cat<T>(pub T);

/// `a / b / c`: alternation (RFC 5234 §3.2), tried in order: first match wins
/// (RFC 3987 §2.2); the generator adds [`Ahead`] where order alone would be wrong.
#[derive(Debug, Clone, Copy)]
pub struct Alt<T>(pub T);

macro_rules! tuples {
    ($($P:ident $p:ident),+) => {
        impl<'a, V: Variant, M: Mode, $($P: Parse<'a, V, M>),+> Parse<'a, V, M> for Cat<($($P,)+)> {
            #[inline(always)]
            fn parse(&self, i: &'a str) -> PResult<'a, M> {
                let ($($p,)+) = &self.0;
                let mut out = M::empty();
                let mut rest = i;
                $(
                    match $p.parse(rest) {
                        Ok((r, o)) => {
                            rest = r;
                            out = M::join(out, o);
                        }
                        Err(Err::Error(f)) => return error::<M>(M::fail_after(out, f)),
                        Err(e) => return Err(e),
                    }
                )+
                Ok((rest, out))
            }
        }

        impl<'a, V: Variant, M: Mode, $($P: Parse<'a, V, M>),+> Parse<'a, V, M> for Alt<($($P,)+)> {
            #[inline(always)]
            fn parse(&self, i: &'a str) -> PResult<'a, M> {
                let ($($p,)+) = &self.0;
                let mut failed: Option<Failure> = None;
                let mark = M::mark();
                $(
                    match $p.parse(i) {
                        Ok((r, o)) => {
                            let o = match failed {
                                Some(f) if M::EXPLAIN => M::carry(o, f),
                                _ => o,
                            };
                            return Ok((r, o));
                        }
                        Err(Err::Error(f)) => {
                            M::rewind(mark);
                            failed = Some(match failed {
                                Some(g) if M::EXPLAIN => Failure::merge(g, f),
                                // Only Explain mode reads failures; keep the cheapest one.
                                Some(g) => g,
                                None => f,
                            });
                        }
                        Err(e) => return Err(e),
                    }
                )+
                error::<M>(failed.unwrap_or(Failure { rem: i.len(), diag: None }))
            }
        }
    };
}

/// A rule's alternation (`a / b / c` at the top of its definition): an [`Alt`] that
/// also tells the mode which alternative matched, `base + k` of `of` (1-based), so
/// that a tree can say "alternative 6 of 9". A definition with more alternatives
/// than a tuple holds nests the rest in a last `Choice` with a higher `base`; the
/// outer one then leaves the telling to it (`tail`).
#[derive(Debug, Clone, Copy)]
pub struct Choice<T> {
    /// How many alternatives come before this tuple's first.
    pub base: u16,
    /// How many alternatives the definition has.
    pub of: u16,
    /// Whether the tuple's last element is a nested `Choice` of the rest.
    pub tail: bool,
    /// The alternatives.
    pub alternatives: T,
}

impl<T> Choice<T> {
    /// The `of` alternatives of a rule, in one tuple.
    pub const fn of(of: u16, alternatives: T) -> Choice<T> {
        Choice {
            base: 0,
            of,
            tail: false,
            alternatives,
        }
    }

    /// The alternatives from `base + 1` on, the last element of the tuple nesting
    /// the rest when `tail`.
    pub const fn from(base: u16, of: u16, tail: bool, alternatives: T) -> Choice<T> {
        Choice {
            base,
            of,
            tail,
            alternatives,
        }
    }
}

macro_rules! choices {
    ($n:expr; $($P:ident $p:ident $k:expr),+) => {
        impl<'a, V: Variant, M: Mode, $($P: Parse<'a, V, M>),+> Parse<'a, V, M> for Choice<($($P,)+)> {
            const IS_CHOICE: bool = true;
            #[inline(always)]
            fn parse(&self, i: &'a str) -> PResult<'a, M> {
                let ($($p,)+) = &self.alternatives;
                let mut failed: Option<Failure> = None;
                let mark = M::mark();
                $(
                    // A nested Choice of the rest (`tail`) tells its own steps.
                    let own = !(self.tail && $k == $n);
                    if M::TRACE && own {
                        M::step(Step::Try { k: self.base + $k, of: self.of, rem: i.len() });
                    }
                    match $p.parse(i) {
                        Ok((r, o)) => {
                            if own {
                                M::chose(self.base + $k, self.of);
                            }
                            let o = match failed {
                                Some(f) if M::EXPLAIN => M::carry(o, f),
                                _ => o,
                            };
                            return Ok((r, o));
                        }
                        Err(Err::Error(f)) => {
                            M::rewind(mark);
                            if M::TRACE && own {
                                M::step(Step::Backtrack { k: self.base + $k, of: self.of, rem: i.len() });
                            }
                            failed = Some(match failed {
                                Some(g) if M::EXPLAIN => Failure::merge(g, f),
                                Some(g) => g,
                                None => f,
                            });
                        }
                        Err(e) => return Err(e),
                    }
                )+
                error::<M>(failed.unwrap_or(Failure { rem: i.len(), diag: None }))
            }
        }
    };
}

choices!(2; A a 1, B b 2);
choices!(3; A a 1, B b 2, C c 3);
choices!(4; A a 1, B b 2, C c 3, D d 4);
choices!(5; A a 1, B b 2, C c 3, D d 4, E e 5);
choices!(6; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6);
choices!(7; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7);
choices!(8; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8);
choices!(9; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9);
choices!(10; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9, J j 10);
choices!(11; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9, J j 10, K k 11);
choices!(12; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9, J j 10, K k 11, L l 12);

tuples!(A a, B b);
tuples!(A a, B b, C c);
tuples!(A a, B b, C c, D d);
tuples!(A a, B b, C c, D d, E e);
tuples!(A a, B b, C c, D d, E e, F f);
tuples!(A a, B b, C c, D d, E e, F f, G g);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_, J j);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_, J j, K k);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_, J j, K k, L l);

/// `min*max element` (RFC 5234 §3.6): as many as possible, at least `min`.
#[derive(Debug, Clone, Copy)]
pub struct Repeat<P>(pub u32, pub u32, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Repeat<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let Repeat(min, max, p) = self;
        let mut out = M::empty();
        let mut rest = i;
        let mut n = 0;
        while n < *max {
            let mark = M::mark();
            match p.parse(rest) {
                Ok((r, o)) => {
                    out = M::join(out, o);
                    if r.len() == rest.len() {
                        // An empty match repeats forever: the remaining required
                        // repetitions all match here too.
                        break;
                    }
                    rest = r;
                    n += 1;
                }
                Err(Err::Error(f)) => {
                    M::rewind(mark);
                    if n >= *min {
                        return Ok((rest, M::carry(out, f)));
                    }
                    return error::<M>(M::fail_after(out, f));
                }
                Err(e) => return Err(e),
            }
        }
        Ok((rest, out))
    }
}

/// `*( "c" r )` where the definition of the rule `r` is a run of a class, `*class`
/// (`ipath-abempty = *( "/" isegment )`, `isegment = *ipchar`): the repetition `P`
/// (`Repeat(0, INF, Cat((Lit("c"), r)))`, which the generator writes inside) matched
/// in one loop, each `c` and the run after it without a call of `r`'s combinator, a
/// result through memory and a mark per repetition. The match and the nodes are
/// `P`'s: `r`'s node for each run (each run is matched by [`rule`], inlined), the
/// run's percent-encodings inside it. Explain and Trace modes run `P` itself, whose
/// failures and steps are those of the operators the ABNF is written with.
///
/// So a path's segments are built without the operators' per-character steps, which
/// is most of the tree of a long path (BENCHMARKS.md, `tree`).
#[derive(Debug, Clone, Copy)]
pub struct Delimited<P> {
    /// The one-byte literal before each run (not a letter, so that case does not
    /// matter).
    pub delimiter: u8,
    /// The rule whose definition is the run.
    pub rule: Rule,
    /// The run's class.
    pub class: &'static Class,
    /// The repetition as the ABNF writes it.
    pub repetition: P,
}

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Delimited<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        if M::EXPLAIN || M::TRACE {
            return self.repetition.parse(i);
        }
        debug_assert!(!self.delimiter.is_ascii_alphabetic());
        let run = Scan(self.class, 0, INF);
        let mut rest = i;
        let mut out = M::empty();
        while rest.as_bytes().first() == Some(&self.delimiter) {
            // An ASCII byte ends a character. A run of at least none does not fail;
            // were it to, so would `P`.
            let (end, node) = rule::<V, M, _>(self.rule, &rest[1..], run)?;
            out = M::join(out, node);
            rest = end;
        }
        Ok((rest, out))
    }
}

/// `[ element ]`: optional (RFC 5234 §3.8).
#[derive(Debug, Clone, Copy)]
pub struct Opt<P>(pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Opt<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let mark = M::mark();
        match self.0.parse(i) {
            Ok(ok) => Ok(ok),
            Err(Err::Error(f)) => {
                M::rewind(mark);
                Ok((i, M::carry(M::empty(), f)))
            }
            Err(e) => Err(e),
        }
    }
}
