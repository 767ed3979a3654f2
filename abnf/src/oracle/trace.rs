//! The record of a run that explains a failure (RFC 5234 defines no error, so this
//! is what the oracle can say): the farthest position a terminal was tried at, the
//! terminals tried there and the rules that tried them. [`super::explain`] reads it.

use crate::model::table::Expr;

/// One terminal tried where the input ended up failing.
#[derive(Debug, Clone)]
pub(crate) struct Expectation {
    /// The terminal, as ABNF.
    pub(crate) what: String,
    /// The rules being matched, innermost first, each with where it started.
    pub(crate) chain: Vec<(usize, usize)>,
}

/// The record of a run that explains a failure: the farthest position a terminal
/// was tried at, and the terminals tried there.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trace {
    pub(crate) farthest: usize,
    pub(crate) expected: Vec<Expectation>,
    /// The rules being matched now, outermost first, with their starts.
    pub(crate) stack: Vec<(usize, usize)>,
}

impl Trace {
    pub(crate) fn enter(&mut self, rule: usize, start: usize) {
        self.stack.push((rule, start));
    }

    pub(crate) fn leave(&mut self) {
        self.stack.pop();
    }

    pub(crate) fn failed(&mut self, at: usize, node: &Expr) {
        if at < self.farthest {
            return;
        }
        if at > self.farthest {
            self.farthest = at;
            self.expected.clear();
        }
        let what = match node {
            Expr::Chars(cs, true) => format!("%s{:?}", cs.iter().collect::<String>()),
            Expr::Chars(cs, false) => format!("{:?}", cs.iter().collect::<String>()),
            Expr::Seq(cps) => format!(
                "%x{}",
                cps.iter()
                    .map(|c| format!("{c:X}"))
                    .collect::<Vec<_>>()
                    .join(".")
            ),
            Expr::Range(lo, hi) if lo == hi => format!("%x{lo:X}"),
            Expr::Range(lo, hi) => format!("%x{lo:X}-{hi:X}"),
            _ => "prose".to_string(),
        };
        let chain: Vec<(usize, usize)> = self.stack.iter().rev().copied().collect();
        if !self
            .expected
            .iter()
            .any(|e| e.what == what && e.chain.first() == chain.first())
        {
            self.expected.push(Expectation { what, chain });
        }
    }
}
