//! Byte searches a word or a block at a time, for the scans the operations make over
//! a reference's text, which is mostly runs of ordinary ASCII.
//!
//! A 64-bit word holds eight bytes, and a few arithmetic steps mark those that have a
//! property. On x86-64 a block of sixteen is one SSE2 comparison (every x86-64
//! processor has SSE2): [`block_equal`] and [`first_byte`] for one byte value,
//! [`first_non_ascii`] for bytes beyond ASCII, and a [`Mark`] for any property that
//! can be told of a block and of a word. Where only a table can tell, lookups go four
//! at a time ([`first_looked_up`]).
//!
//! Users: the dot-segment and `/` searches of resolution (RFC 3986 §5.2), the `%` and
//! beyond-ASCII searches of the conversions (RFC 3987 §3.1, §3.2) and the writer's
//! attention tables. The combinators' runs are too short to gain from it; the walk of
//! the compiled grammar has its own skip (`grammar::automaton::skip_ascii`).

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

/// Which of the `B` bytes of `b` from `at` (a block of 8 or 16) are `c`: bit `k`
/// for the byte at `at + k`. Sixteen bytes are one SSE2 comparison on x86-64 (every
/// x86-64 processor has SSE2), two words elsewhere.
#[inline(always)]
pub(crate) fn block_equal<const B: usize>(b: &[u8], at: usize, c: u8) -> u32 {
    const { assert!(B == 8 || B == 16) };
    let m = Byte(c);
    if B == 8 {
        return high_bits(m.word(word_at(b, at)));
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8};
        let block = &b[at..at + 16];
        // SAFETY: SSE2 is enabled (the `cfg`), and the load reads the 16 bytes of
        // `block`.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            _mm_movemask_epi8(m.block(v)) as u32
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        high_bits(m.word(word_at(b, at))) | high_bits(m.word(word_at(b, at + 8))) << 8
    }
}

/// The high bit of each byte of `m` (a mask of [`bytes_equal`]) as one bit each, the
/// first byte's lowest. Multiplying gathers them: the high bit of byte `j`, moved to
/// bit `8j`, times the constant's bit `7(8 - j)` lands on bit `56 + j`, and no two
/// products land on the same bit, so nothing carries.
#[inline(always)]
fn high_bits(m: u64) -> u32 {
    ((m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// How many bytes of `bytes` are beyond ASCII: eight at a time, each byte's high bit
/// moved to its low bit and the eight summed into the top byte by one multiplication
/// (the sum is at most 8, so nothing carries out of a byte).
pub(crate) fn count_non_ascii(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut words = bytes.chunks_exact(8);
    let mut n = 0;
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        n += (((w >> 7) & ONES).wrapping_mul(ONES) >> 56) as usize;
    }
    n + words.remainder().iter().filter(|b| !b.is_ascii()).count()
}

/// Where the first byte beyond ASCII is in `bytes`, a text where there may be none
/// or it may be far: 64 at a time with SSE2 (four blocks of sixteen, or-ed, one
/// `pmovmskb` to read the high bits of all of them), eight elsewhere and in texts
/// shorter than sixteen bytes. Most IRIs are ASCII and shorter than 64 bytes: one test
/// says so, with no branch per block whose way depends on the text's length.
#[inline]
pub(crate) fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    first_in_blocks::<4>(bytes, BeyondAscii)
}

/// Where the next byte beyond ASCII is in `bytes`, which follows one (the rest of a
/// text being encoded): sixteen at a time with SSE2, eight elsewhere and in texts
/// shorter than sixteen bytes; the next character beyond ASCII is often near, where
/// four blocks would test bytes for nothing.
#[inline]
pub(crate) fn next_non_ascii(bytes: &[u8]) -> Option<usize> {
    first_in_blocks::<1>(bytes, BeyondAscii)
}

/// Where the first byte `c` is in `bytes`: sixteen at a time with SSE2, eight
/// elsewhere and in texts shorter than sixteen bytes (the `%` of a URI being
/// decoded, which is where `to_iri` spends its time on URIs with a `%`).
#[inline]
pub(crate) fn first_byte(bytes: &[u8], c: u8) -> Option<usize> {
    first_in_blocks::<1>(bytes, Byte(c))
}

/// A property of bytes that a few steps tell for many bytes at once, each byte that
/// has it marked by its high bit: in a word of eight, in a block of sixteen.
trait Mark: Copy {
    /// The high bit of each byte of `w` that has the property, and no other bit.
    fn word(self, w: u64) -> u64;
    /// The high bit of each byte of `v` that has the property.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    fn block(self, v: core::arch::x86_64::__m128i) -> core::arch::x86_64::__m128i;
    /// Whether `b` has it.
    fn byte(self, b: u8) -> bool;
}

/// Bytes beyond ASCII: their own high bit.
#[derive(Clone, Copy)]
struct BeyondAscii;

impl Mark for BeyondAscii {
    #[inline(always)]
    fn word(self, w: u64) -> u64 {
        w & 0x8080_8080_8080_8080
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn block(self, v: core::arch::x86_64::__m128i) -> core::arch::x86_64::__m128i {
        v
    }
    #[inline(always)]
    fn byte(self, b: u8) -> bool {
        b >= 0x80
    }
}

/// One byte value.
#[derive(Clone, Copy)]
struct Byte(u8);

impl Mark for Byte {
    #[inline(always)]
    fn word(self, w: u64) -> u64 {
        bytes_equal(w, self.0)
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn block(self, v: core::arch::x86_64::__m128i) -> core::arch::x86_64::__m128i {
        use core::arch::x86_64::{_mm_cmpeq_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is enabled (the `cfg`).
        unsafe { _mm_cmpeq_epi8(v, _mm_set1_epi8(self.0 as i8)) }
    }
    #[inline(always)]
    fn byte(self, b: u8) -> bool {
        b == self.0
    }
}

/// Where the first byte `m` marks is in `bytes`, `BLOCKS` (one or more) blocks of
/// sixteen bytes at a time with SSE2.
#[inline(always)]
fn first_in_blocks<const BLOCKS: usize>(bytes: &[u8], m: impl Mark) -> Option<usize> {
    const { assert!(BLOCKS >= 1) };
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if bytes.len() >= 16 {
        use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128};
        let n = bytes.len();
        // Where the block of sixteen bytes from `at` starts: there, or sixteen from
        // the end where fewer are left (it may overlap the one before it, whose
        // bytes are then tested twice).
        let start = |at: usize| at.min(n - 16);
        let block = |at: usize| -> __m128i {
            let block = &bytes[start(at)..][..16];
            // SAFETY: SSE2 is enabled (the `cfg`), and the load reads the 16 bytes
            // of `block`.
            unsafe { _mm_loadu_si128(block.as_ptr().cast::<__m128i>()) }
        };
        let high = |v: __m128i| {
            // SAFETY: SSE2 is enabled (the `cfg`).
            unsafe { _mm_movemask_epi8(v) }
        };
        let or = |a: __m128i, b: __m128i| {
            // SAFETY: SSE2 is enabled (the `cfg`).
            unsafe { _mm_or_si128(a, b) }
        };
        let mut at = 0;
        loop {
            let blocks: [__m128i; BLOCKS] = core::array::from_fn(|k| m.block(block(at + 16 * k)));
            let any = blocks[1..].iter().fold(blocks[0], |all, &v| or(all, v));
            if high(any) != 0 {
                // The first block with a marked byte holds the first of them:
                // the blocks start in order, each at most sixteen after the last.
                for (k, &v) in blocks.iter().enumerate() {
                    let b = high(v);
                    if b != 0 {
                        return Some(start(at + 16 * k) + b.trailing_zeros() as usize);
                    }
                }
            }
            if at + 16 * BLOCKS >= n {
                return None;
            }
            at += 16 * BLOCKS;
        }
    }
    first_marked(bytes, m)
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

/// Where the first byte is that `m` marks: words of eight, then the last bytes one
/// at a time.
#[inline(always)]
fn first_marked(bytes: &[u8], m: impl Mark) -> Option<usize> {
    // `chunks_exact` rather than `word_at` in a loop: its bounds checks fold away.
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        if let Ok(word) = <[u8; 8]>::try_from(word) {
            let marked = m.word(u64::from_le_bytes(word));
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
        .position(|&b| m.byte(b))
        .map(|k| at + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length up to two chunks of 64 and a bit, each byte of interest at every
    /// place (or none), beside bytes that differ from it in one bit; a byte beyond
    /// ASCII also with another at the end.
    #[test]
    fn word_searches_find_what_a_byte_loop_finds() {
        for len in 0..140 {
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
                let beyond = bytes.iter().position(|&b| b >= 0x80);
                assert_eq!(first_non_ascii(&bytes), beyond, "{len} {at}");
                assert_eq!(next_non_ascii(&bytes), beyond, "{len} {at}");
                if let Some(last) = bytes.last_mut() {
                    *last = 0xA9;
                }
                let beyond = bytes.iter().position(|&b| b >= 0x80);
                assert_eq!(first_non_ascii(&bytes), beyond, "{len} {at} and the last");
                assert_eq!(next_non_ascii(&bytes), beyond, "{len} {at} and the last");
                assert_eq!(
                    first_looked_up(&bytes, |b| b >= 0x80),
                    bytes.iter().position(|&b| b >= 0x80)
                );
            }
        }
    }

    /// Blocks of 8 and 16 bytes from every offset of generated texts, each byte
    /// value among them, against a byte loop.
    #[test]
    fn block_equal_marks_exactly_the_equal_bytes() {
        let mut next = crate::testing::numbers(7);
        // Under Miri (which checks the SSE2 loads for reads outside the text), a
        // sample.
        for _ in 0..if cfg!(miri) { 3 } else { 2_000 } {
            let bytes: Vec<u8> = (0..40).map(|_| next(256) as u8).collect();
            for c in [bytes[3], bytes[20], b'/', 0, 0x80, 0xFF] {
                for at in 0..=24 {
                    let by_loop = |len: usize| {
                        (0..len).fold(0u32, |m, k| m | u32::from(bytes[at + k] == c) << k)
                    };
                    assert_eq!(block_equal::<16>(&bytes, at, c), by_loop(16));
                    assert_eq!(block_equal::<8>(&bytes, at, c), by_loop(8));
                }
            }
        }
    }

    /// Generated texts of every length up to 40, from every offset, bytes beyond ASCII
    /// at random places (none, some, all), against a byte loop.
    #[test]
    fn count_non_ascii_counts_what_a_byte_loop_counts() {
        let mut next = crate::testing::numbers(11);
        for _ in 0..500 {
            let density = next(5);
            let bytes: Vec<u8> = (0..40)
                .map(|_| {
                    let b = next(128) as u8;
                    if next(4) < density {
                        b | 0x80
                    } else {
                        b
                    }
                })
                .collect();
            for at in 0..=bytes.len() {
                let rest = &bytes[at..];
                let expected = rest.iter().filter(|&&b| b >= 0x80).count();
                assert_eq!(count_non_ascii(rest), expected, "{rest:?}");
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
