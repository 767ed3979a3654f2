//! Making a string that shows something as small and plain as it goes while it still
//! shows it: the delta-debugging minimizer (Zeller and Hildebrandt 2002) behind
//! `iri diff-grammars` ([`crate::diff::minimize`]) and `iri conform`.
//!
//! What "still shows it" means is the caller's predicate, `keeps`: it is asked about
//! smaller and plainer candidates and must say whether each still shows the same
//! thing (the same difference, at the same place). The shrinking is greedy and
//! deterministic: the same string and predicate give the same result.

/// `s`, made as short and plain as it goes while `keeps` holds of it: first by
/// deleting characters, runs of them halving in length down to one, then by
/// replacing each remaining character with a plainer one (`a`, `0`) where that keeps
/// it, then deleting again, for at most three rounds or until a round changes
/// nothing. `keeps(s)` is assumed; it is never asked about `s` itself.
///
/// ```
/// use iri_grammar_abnf::shrink::shrink;
/// // The shortest, plainest string with a `%` followed by two characters.
/// let m = shrink("http://x/%7Ey", |t| t.find('%').is_some_and(|k| t.len() >= k + 3));
/// assert_eq!(m, "%aa");
/// ```
pub fn shrink(s: &str, mut keeps: impl FnMut(&str) -> bool) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    let mut candidate = |c: &[char]| keeps(&c.iter().collect::<String>());
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
}
