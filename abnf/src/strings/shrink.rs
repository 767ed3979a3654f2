//! Making a string that shows something as small and plain as it goes while it still
//! shows it: the delta-debugging minimizer (Zeller and Hildebrandt 2002) behind
//! `iri diff-grammars` ([`crate::strings::diff::minimize`]) and `iri conform`.
//!
//! What "still shows it" means is the caller's predicate, `keeps`: it is asked about
//! smaller and plainer candidates and must say whether each still shows the same
//! thing (the same difference, at the same place). The shrinking is greedy and
//! deterministic: the same string and predicate give the same result.

/// `s`, made as short and plain as it goes while `keeps` holds of it: first by
/// deleting characters, runs of them halving in length down to one; then, once the
/// string is short ([`EVERY_CUT_UP_TO`] characters), by deleting any run at all,
/// the longest first, so that a unit the halving offsets straddle goes in one cut
/// (`a://[::]` + LF, where only the whole `//[::]` may go, becomes `a:` + LF); then
/// by replacing each remaining character with a plainer one (`a`, `0`) where that
/// keeps it; then deleting again, for at most three rounds or until a round changes
/// nothing. `keeps(s)` is assumed; it is never asked about `s` itself, nor twice
/// about one candidate.
///
/// ```
/// use iri_grammar_abnf::strings::shrink::shrink;
/// // The shortest, plainest string with a `%` followed by two characters.
/// let m = shrink("http://x/%7Ey", |t| t.find('%').is_some_and(|k| t.len() >= k + 3));
/// assert_eq!(m, "%aa");
/// ```
pub fn shrink(s: &str, mut keeps: impl FnMut(&str) -> bool) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    // Each candidate asked once: the passes and rounds meet the same strings again,
    // and a predicate may be a round trip to another program (`iri conform`).
    let mut asked = std::collections::HashMap::<String, bool>::new();
    let mut candidate = |c: &[char]| {
        let t: String = c.iter().collect();
        if let Some(&answer) = asked.get(&t) {
            return answer;
        }
        let answer = keeps(&t);
        asked.insert(t, answer);
        answer
    };
    for _round in 0..3 {
        let before = chars.clone();
        // Delete runs, halving their length.
        let mut size = chars.len().div_ceil(2).max(1);
        loop {
            let mut at = 0;
            while at < chars.len() {
                let end = (at + size).min(chars.len());
                let mut shorter = chars[..at].to_vec();
                shorter.extend_from_slice(&chars[end..]);
                if candidate(&shorter) {
                    chars = shorter;
                } else {
                    at += size;
                }
            }
            if size == 1 {
                break;
            }
            size = size.div_ceil(2);
        }
        // Any run, the longest first, while the string is short.
        'cut: while chars.len() <= EVERY_CUT_UP_TO {
            for len in (1..chars.len()).rev() {
                for at in 0..=chars.len() - len {
                    let mut shorter = chars[..at].to_vec();
                    shorter.extend_from_slice(&chars[at + len..]);
                    if candidate(&shorter) {
                        chars = shorter;
                        continue 'cut;
                    }
                }
            }
            break;
        }
        // Plainer characters.
        for k in 0..chars.len() {
            for plain in ['a', '0'] {
                if chars[k] == 'a' || chars[k] == plain {
                    break;
                }
                let mut t = chars.clone();
                t[k] = plain;
                if candidate(&t) {
                    chars = t;
                    break;
                }
            }
        }
        if chars == before {
            break;
        }
    }
    chars.into_iter().collect()
}

/// The longest string whose every run is tried for deletion: n(n-1)/2 candidates
/// for n characters, 276 at most, each asked once.
pub const EVERY_CUT_UP_TO: usize = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrinks_to_what_the_predicate_needs() {
        // Two separate characters needed: both stay, in order, and nothing else.
        let m = shrink("xx[yy]zz", |t| t.contains('[') && t.contains(']'));
        assert_eq!(m, "[]");
        // Plainer characters: a digit class keeps a digit, `0`.
        let m = shrink("Z9", |t| t.chars().any(|c| c.is_ascii_digit()));
        assert_eq!(m, "0");
        // A predicate that keeps only the string itself leaves it as it is.
        let m = shrink("abc", |t| t == "abc");
        assert_eq!(m, "abc");
    }

    #[test]
    fn never_asks_about_the_string_itself() {
        let mut asked = Vec::new();
        let m = shrink("ab", |t| {
            asked.push(t.to_string());
            false
        });
        assert_eq!(m, "ab");
        assert!(!asked.contains(&"ab".to_string()), "{asked:?}");
    }

    #[test]
    fn deletes_a_unit_the_halving_offsets_straddle() {
        // Only whole units may go: `[::]`, then `//`. Halving tries runs of 5, 3, 2
        // and 1 at multiples of their length, none of which is either unit.
        let keeps = |t: &str| ["a://[::]\n", "a://\n", "a:\n"].contains(&t);
        assert_eq!(shrink("a://[::]\n", keeps), "a:\n");
        // A port the subject refuses, behind a host that is one (empty or `[::]`):
        // the host goes whole.
        let keeps = |t: &str| {
            t.strip_prefix("//")
                .and_then(|rest| rest.strip_suffix(":70000"))
                .is_some_and(|host| host.is_empty() || host == "[::]")
        };
        assert_eq!(shrink("//[::]:70000", keeps), "//:70000");
    }

    #[test]
    fn asks_about_each_candidate_once() {
        let mut asked = std::collections::HashSet::new();
        shrink("a://[::]/b?c#d\n", |t| {
            assert!(asked.insert(t.to_string()), "asked twice: {t:?}");
            t.contains('?')
        });
    }
}
