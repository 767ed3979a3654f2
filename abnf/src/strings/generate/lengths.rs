//! What each rule can produce, as fixed points over the table: its shortest string's
//! length, its height, and why a rule that produces nothing produces nothing.

use super::rng::pick_valid;
use super::MAX_LENGTH;
use crate::model::table::{Expr, Table};
use crate::Element;

/// Why rule `k`, whose shortest string is `u64::MAX`, has no string: from the rule
/// down, the first element of each definition with no string (a concatenation's
/// item, an alternation's first alternative, a repetition's element), through the
/// rules it names, until prose, a value no string can hold, impossible bounds, or
/// a rule met again (a cycle with no way out).
pub(super) fn why_empty(table: &Table<'_>, k: usize, shortest: &[u64]) -> String {
    /// At most this many characters of an element are quoted.
    const QUOTE: usize = 60;
    let quote = |e: &Element| {
        let text = e.to_string();
        match text.char_indices().nth(QUOTE) {
            Some((at, _)) => format!("{}...", &text[..at]),
            None => text,
        }
    };
    let empty = |e: &Element| -> bool {
        let node = table.compile(e);
        length_of(&node, shortest) == u64::MAX
    };
    let mut path: Vec<usize> = vec![k];
    let mut seen = vec![false; table.rules.len()];
    seen[k] = true;
    let mut e: &Element = &table.rules[k].definition;
    let names = |path: &[usize]| {
        path.iter()
            .map(|&r| table.shown_name(r))
            .collect::<Vec<_>>()
            .join(" → ")
    };
    let reason = loop {
        match e {
            Element::Alternation(alts) => match alts.iter().find(|a| empty(a)) {
                Some(a) => e = a,
                None => break "an alternation with no alternative".to_string(),
            },
            Element::Concatenation(items) => match items.iter().find(|i| empty(i)) {
                Some(i) => e = i,
                None => break "a concatenation with no item".to_string(),
            },
            Element::Repetition { min, max, .. } if max.is_some_and(|m| m < *min) => {
                break format!(
                    "{} asks for at least {min} and at most {} repetitions",
                    quote(e),
                    max.unwrap_or_default()
                );
            }
            Element::Repetition { element, .. } => e = element,
            Element::Rule(name) => {
                let Some(r) = table.lookup(name) else {
                    break format!("{name} is not defined");
                };
                if seen[r] {
                    let from = path.iter().position(|&p| p == r).unwrap_or(0);
                    let mut cycle = path[from..].to_vec();
                    cycle.push(r);
                    path.truncate(from + 1);
                    break format!(
                        "every derivation of {} needs {} again ({}): a cycle with no \
                         alternative that ends it",
                        table.shown_name(r),
                        table.shown_name(r),
                        names(&cycle)
                    );
                }
                seen[r] = true;
                path.push(r);
                e = &table.rules[r].definition;
            }
            Element::Prose(_) => break format!("{} is prose, which matches no string", quote(e)),
            Element::Range(lo, hi) if (0xD800..=0xDFFF).contains(lo) && *hi <= 0xDFFF => {
                break format!(
                    "{} holds only surrogates (U+D800 to U+DFFF), which no string of \
                     Unicode characters can hold",
                    quote(e)
                );
            }
            Element::Range(..) | Element::Sequence(_) => {
                break format!("{} holds no Unicode character a string can hold", quote(e));
            }
            Element::CharVal { .. } => break format!("{} has no string", quote(e)),
        }
    };
    // The rules that lead to the reason, when it is not in the rule itself.
    if path.len() > 1 {
        const SHOWN: usize = 8;
        let shown = if path.len() > SHOWN {
            format!(
                "{} → ... → {}",
                names(&path[..SHOWN / 2]),
                names(&path[path.len() - SHOWN / 2..])
            )
        } else {
            names(&path)
        };
        format!("it needs {shown}, where {reason}")
    } else {
        reason
    }
}

/// The rules that refer to each rule, by index.
pub(super) fn users(table: &Table<'_>) -> Vec<Vec<usize>> {
    let mut users = vec![Vec::new(); table.rules.len()];
    for (k, node) in table.nodes.iter().enumerate() {
        let mut stack = vec![node];
        while let Some(e) = stack.pop() {
            match e {
                Expr::Rule(r) => users[*r].push(k),
                Expr::Alt(items) | Expr::Cat(items) => stack.extend(items),
                Expr::Rep { node, .. } => stack.push(node),
                _ => {}
            }
        }
    }
    users
}

/// The fixed point of one value per rule, `eval` of its definition, from `init`,
/// each rule's value replaced when `improves` says the new one is better. A work
/// list re-evaluates only the rules that refer to a rule whose value changed: going
/// over all the rules until none changed would take as many passes as a chain of
/// rules is long, quadratic in the size of a grammar.
pub(super) fn fixed_point<T: Copy>(
    table: &Table<'_>,
    init: T,
    eval: impl Fn(&Expr, &[T]) -> T,
    improves: impl Fn(T, T) -> bool,
) -> Vec<T> {
    let users = users(table);
    let n = table.rules.len();
    let mut values = vec![init; n];
    let mut queued = vec![true; n];
    let mut queue: std::collections::VecDeque<usize> = (0..n).collect();
    while let Some(k) = queue.pop_front() {
        queued[k] = false;
        let new = eval(&table.nodes[k], &values);
        if improves(new, values[k]) {
            values[k] = new;
            for &u in &users[k] {
                if !queued[u] {
                    queued[u] = true;
                    queue.push_back(u);
                }
            }
        }
    }
    values
}

/// The length of the shortest string of `node`, given the rules' (`u64::MAX`:
/// none); repetition bounds are multiplied, not counted out.
pub(super) fn length_of(node: &Expr, shortest: &[u64]) -> u64 {
    #[cfg(test)]
    super::tests::LOOKED_AT.with(|n| n.set(n.get() + 1));
    match node {
        Expr::Alt(alts) => alts
            .iter()
            .map(|a| length_of(a, shortest))
            .min()
            .unwrap_or(u64::MAX),
        Expr::Cat(items) => items
            .iter()
            .map(|a| length_of(a, shortest))
            .fold(0, u64::saturating_add),
        Expr::Rep { min: 0, .. } => 0,
        Expr::Rep { min, max, node } => {
            if max.is_some_and(|m| m < *min) {
                u64::MAX
            } else {
                length_of(node, shortest).saturating_mul(u64::from(*min))
            }
        }
        Expr::Rule(k) => shortest[*k],
        Expr::Missing(_) | Expr::Prose => u64::MAX,
        Expr::Chars(text, _) => text.len() as u64,
        Expr::Seq(cps) if cps.iter().all(|&c| char::from_u32(c).is_some()) => cps.len() as u64,
        Expr::Range(lo, hi) if pick_valid(*lo, *hi, *lo).is_some() => 1,
        Expr::Seq(_) | Expr::Range(..) => u64::MAX,
    }
}

/// The height of the shortest derivation of `node`, given the rules' (`u32::MAX`: none).
pub(super) fn height_of(node: &Expr, height: &[u32]) -> u32 {
    match node {
        Expr::Alt(alts) => alts
            .iter()
            .map(|a| height_of(a, height))
            .min()
            .unwrap_or(u32::MAX),
        Expr::Cat(items) => items
            .iter()
            .map(|a| height_of(a, height))
            .max()
            .unwrap_or(0),
        Expr::Rep { min: 0, .. } => 0,
        Expr::Rep { min, max, node } => {
            if max.is_some_and(|m| m < *min) {
                u32::MAX
            } else {
                height_of(node, height)
            }
        }
        Expr::Rule(k) => height[*k],
        Expr::Missing(_) | Expr::Prose => u32::MAX,
        Expr::Chars(..) | Expr::Seq(_) | Expr::Range(..) => 0,
    }
}

/// Whether `node` can produce a string of at most [`MAX_LENGTH`] characters, given
/// the rules' shortest strings.
pub(super) fn can_generate(node: &Expr, shortest: &[u64]) -> bool {
    length_of(node, shortest) <= MAX_LENGTH
}
