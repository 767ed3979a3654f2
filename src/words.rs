//! Searching bytes eight at a time: one 64-bit word holds eight bytes, and a few
//! arithmetic steps mark the bytes of a word that have a property, so that the text
//! of an IRI (mostly runs of ordinary ASCII) is scanned at a fraction of a byte loop's
//! cost. Used where a byte loop showed in the profiles: the dot-segment and `/`
//! searches of reference resolution (RFC 3986 §5.2), the `%` and non-ASCII searches of
//! the conversions (RFC 3987 §3.1, §3.2); and, for properties only a table can tell,
//! lookups four at a time (the conversions' attention; not the combinators' runs,
//! which are too short for it: a tree cost 3 % more with it. Those skip sixteen
//! bytes at a time where the processor can, `grammar::automaton::skip_ascii`).

/// The eight bytes of `b` from `i` as one word, the first in the low byte.
#[inline(always)]
pub(crate) fn word_at(b: &[u8], i: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

/// The high bit of each byte of `w` that is `c`, and no other bit. Exact: `x & 0x7F`
/// plus `0x7F` sets a byte's high bit iff its low seven bits are not all 0 and cannot
/// carry into the next byte; with `x`'s own high bit, that marks every byte of `x`
/// that is not 0, that is every byte of `w` that is not `c`.
#[inline(always)]
pub(crate) fn bytes_equal(w: u64, c: u8) -> u64 {
    const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = w ^ (u64::from(c) * 0x0101_0101_0101_0101);
    !(((x & LOW) + LOW) | x | LOW)
}

/// Where the first byte beyond ASCII is in `bytes`.
pub(crate) fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    first_marked(bytes, |w| w & 0x8080_8080_8080_8080, |b| b >= 0x80)
}

/// Where the first byte `c` is in `bytes`.
pub(crate) fn first_byte(bytes: &[u8], c: u8) -> Option<usize> {
    first_marked(bytes, |w| bytes_equal(w, c), |b| b == c)
}

/// Where the first byte is that `is` says yes to, for a test that is a table
/// lookup (no word arithmetic can do it): four at a time while none of the four is
/// (their lookups are independent, so they overlap), then one at a time.
#[inline(always)]
pub(crate) fn first_looked_up(bytes: &[u8], is: impl Fn(u8) -> bool) -> Option<usize> {
    let mut quads = bytes.chunks_exact(4);
    let mut at = 0;
    for q in &mut quads {
        if is(q[0]) | is(q[1]) | is(q[2]) | is(q[3]) {
            break;
        }
        at += 4;
    }
    bytes[at..].iter().position(|&b| is(b)).map(|k| at + k)
}

/// Where the first byte is that `mark` marks in its word (its high bit set) and `is`
/// says yes to: words of eight, then the last bytes one at a time.
#[inline(always)]
fn first_marked(bytes: &[u8], mark: impl Fn(u64) -> u64, is: impl Fn(u8) -> bool) -> Option<usize> {
    // `chunks_exact` rather than `word_at` in a loop: its bounds fold away (with
    // `word_at`, `to_uri` on non-ASCII IRIs took 23 instructions more an IRI).
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        if let Ok(word) = <[u8; 8]>::try_from(word) {
            let marked = mark(u64::from_le_bytes(word));
            if marked != 0 {
                // Little-endian: the first byte is the lowest.
                return Some(at + marked.trailing_zeros() as usize / 8);
            }
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| is(b))
        .map(|k| at + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to three words, each byte of interest at every place (or
    /// none), beside bytes that differ from it in one bit.
    #[test]
    fn word_searches_find_what_a_byte_loop_finds() {
        for len in 0..24 {
            for at in 0..=len {
                for (c, filler) in [
                    (b'%', b'%' ^ 1),
                    (b'%', b'%' ^ 0x80),
                    (b'/', b'.'),
                    (0, 0x80),
                ] {
                    let mut bytes = vec![filler; len];
                    if at < len {
                        bytes[at] = c;
                    }
                    let expected = bytes.iter().position(|&b| b == c);
                    assert_eq!(first_byte(&bytes, c), expected, "{len} {at} {c}");
                }
                let mut bytes = vec![b'a'; len];
                if at < len {
                    bytes[at] = 0xC3;
                }
                assert_eq!(
                    first_non_ascii(&bytes),
                    bytes.iter().position(|&b| b >= 0x80)
                );
                assert_eq!(
                    first_looked_up(&bytes, |b| b >= 0x80),
                    bytes.iter().position(|&b| b >= 0x80)
                );
            }
        }
    }

    #[test]
    fn bytes_equal_marks_exactly_the_equal_bytes() {
        for c in 0..=255u8 {
            for b in 0..=255u8 {
                let w = u64::from_le_bytes([b, c, b, c, 0, 255, b ^ c, c]);
                let marked = bytes_equal(w, c);
                for (k, &x) in w.to_le_bytes().iter().enumerate() {
                    assert_eq!(marked >> (8 * k + 7) & 1 == 1, x == c, "{b} {c} {k}");
                }
                assert_eq!(marked & !0x8080_8080_8080_8080, 0);
            }
        }
    }
}
