//! What may come next: a set of characters, exact for ASCII, and whether the input
//! may end. The generator (`iri-grammar-abnf`) computes FIRST and FOLLOW sets as these
//! and writes the ones the combinators test as `Set::new().chars(..)..` constants,
//! which the runtime (`iri-grammar`) evaluates at compile time and tests with
//! [`Set::admits`].

use alloc::vec::Vec;

/// A set of characters that may come next, and whether the input may end: exact for
/// ASCII, one member for "any character beyond ASCII". The generator computes FIRST
/// and FOLLOW sets as these and writes the ones the combinators test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Set {
    ascii: u128,
    non_ascii: bool,
    end: bool,
}

impl Set {
    /// The empty set.
    #[inline]
    pub const fn new() -> Set {
        Set {
            ascii: 0,
            non_ascii: false,
            end: false,
        }
    }
    /// Adds ASCII characters.
    #[inline]
    pub const fn chars(mut self, s: &str) -> Set {
        self.ascii |= ascii_bits(s);
        self
    }
    /// Adds the ASCII range `lo..=hi`.
    #[inline]
    pub const fn range(mut self, lo: u8, hi: u8) -> Set {
        self.ascii |= range_bits(lo, hi);
        self
    }
    /// Adds every non-ASCII character.
    #[inline]
    pub const fn non_ascii(mut self) -> Set {
        self.non_ascii = true;
        self
    }
    /// Adds the end of the input.
    #[inline]
    pub const fn end_of_input(mut self) -> Set {
        self.end = true;
        self
    }
    /// Adds the range `lo..=hi` of code points: its ASCII part, and "any non-ASCII
    /// character" if it goes beyond.
    #[inline]
    pub const fn code_points(mut self, lo: u32, hi: u32) -> Set {
        if lo < 0x80 {
            let top = if hi < 0x80 { hi } else { 0x7F };
            self.ascii |= range_bits(lo as u8, top as u8);
        }
        if hi >= 0x80 {
            self.non_ascii = true;
        }
        self
    }
    /// Adds a character in both ASCII cases (a quoted string's first character,
    /// RFC 5234 §2.3).
    #[inline]
    pub const fn char_either_case(self, c: char) -> Set {
        if c.is_ascii() {
            let (l, u) = (c.to_ascii_lowercase() as u32, c.to_ascii_uppercase() as u32);
            self.code_points(l, l).code_points(u, u)
        } else {
            self.non_ascii()
        }
    }
    /// Both sets' members.
    #[inline]
    pub const fn union(self, o: Set) -> Set {
        Set {
            ascii: self.ascii | o.ascii,
            non_ascii: self.non_ascii || o.non_ascii,
            end: self.end || o.end,
        }
    }
    /// Whether the two sets share a member.
    #[inline]
    pub const fn intersects(self, o: Set) -> bool {
        self.ascii & o.ascii != 0 || (self.non_ascii && o.non_ascii) || (self.end && o.end)
    }
    /// The ASCII members, one bit per character.
    #[inline]
    pub const fn ascii_bits(self) -> u128 {
        self.ascii
    }
    /// Whether any character beyond ASCII is a member.
    #[inline]
    pub const fn has_non_ascii(self) -> bool {
        self.non_ascii
    }
    /// Whether the end of the input is a member.
    #[inline]
    pub const fn has_end(self) -> bool {
        self.end
    }
    /// The members: ASCII characters, whether any non-ASCII one, whether the end.
    pub fn members(&self) -> (Vec<char>, bool, bool) {
        let ascii = (0u8..0x80)
            .filter(|&b| self.ascii >> b & 1 != 0)
            .map(char::from)
            .collect();
        (ascii, self.non_ascii, self.end)
    }
    /// Whether the input `i` starts with a member (or is empty and the end is a member).
    #[inline(always)]
    pub fn admits(&self, i: &str) -> bool {
        match i.as_bytes().first() {
            None => self.end,
            Some(&b) if b < 0x80 => self.ascii >> b & 1 != 0,
            Some(_) => self.non_ascii,
        }
    }
}

impl Default for Set {
    fn default() -> Self {
        Set::new()
    }
}

const fn ascii_bits(s: &str) -> u128 {
    let b = s.as_bytes();
    let mut bits = 0u128;
    let mut k = 0;
    while k < b.len() {
        assert!(b[k] < 0x80, "ASCII only");
        bits |= 1u128 << b[k];
        k += 1;
    }
    bits
}

const fn range_bits(lo: u8, hi: u8) -> u128 {
    let mut bits = 0u128;
    let mut c = lo;
    while c <= hi {
        bits |= 1u128 << c;
        if c == 0x7f {
            break;
        }
        c += 1;
    }
    bits
}
