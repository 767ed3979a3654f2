//! Paths: `remove_dot_segments` (RFC 3986 §5.2.4) and the searches it and the
//! merge of §5.2.3 are made of, shared by resolution and syntax-based normalization
//! (RFC 3986 §6.2.2.3). Only the literal segments `.` and `..` are dot segments:
//! `%2E%2E` is not.

use crate::byte_search::block_equal;
use alloc::string::String;

/// `remove_dot_segments` (RFC 3986 §5.2.4). Only the literal segments `.` and `..`
/// are dot segments: `%2E%2E` is not.
///
/// ```
/// use iri_grammar::resolve::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// assert_eq!(remove_dot_segments("/a/%2E%2E/b"), "/a/%2E%2E/b");
/// // The RFC's loop, followed exactly: a relative path loses its leading "../",
/// // and ".." after a first segment leaves the "/" that followed it.
/// assert_eq!(remove_dot_segments("../a"), "a");
/// assert_eq!(remove_dot_segments("a/../b"), "/b");
/// ```
pub fn remove_dot_segments(path: &str) -> String {
    let mut output = String::with_capacity(path.len());
    remove_dot_segments_into(["", path], &mut output);
    output
}

/// [`remove_dot_segments`] of the path `first + second`, appended to `output` (the
/// `..` steps remove only what this call appended). `first` is empty or ends with
/// `/`, as the two halves of a §5.2.3 merge do, so no segment straddles them and
/// the merged path is never built.
///
/// The RFC states the algorithm as a loop over an input buffer (rules A to E). Read
/// segment by segment, the path `p0 "/" p1 "/" … "/" pn` goes through it thus:
/// - while the input is relative (`p0` is not empty): a `.` or `..` followed by `/`
///   is removed (rule A), a lone `.` or `..` ends the path (D), and any other first
///   segment is moved to the output without a `/` (E);
/// - then every following segment `pi`: `.` is dropped (B), `..` removes the output's
///   last `/` and what follows it, or all of the output if it has no `/` (C), any
///   other segment is appended with its `/` (E); a `.` or `..` as the last segment
///   leaves a final `/` (B and C turn `/.` and `/..` into `/`, which E then moves).
///
/// The segments before the first dot segment are therefore copied as they are, in
/// one piece. The unit tests check this function against the RFC's loop, written
/// out literally, on every path of up to nine characters over `/`, `.` and `a`.
#[inline]
pub(crate) fn remove_dot_segments_into(path: [&str; 2], output: &mut String) {
    let [first, second] = path;
    debug_assert!(first.is_empty() || first.ends_with('/'));
    let floor = output.len();
    // Where the first dot segment starts, as an offset into `first + second`.
    let dot = match first_dot_segment(first) {
        Some(d) => d,
        None if !first.is_empty()
            && second.starts_with('.')
            && leading_dots_only(first, second, output) =>
        {
            return;
        }
        None => match first_dot_segment(second) {
            Some(d) => first.len() + d,
            None => {
                output.push_str(first);
                output.push_str(second);
                return;
            }
        },
    };
    // Copy what comes before it (without the "/" in front of it, which is read as
    // part of the segment), and go on from there.
    if dot > 0 {
        let end = dot - 1;
        let in_first = end.min(first.len());
        output.push_str(&first[..in_first]);
        output.push_str(&second[..end - in_first]);
    }
    let rest = if dot < first.len() {
        [&first[dot..], second]
    } else {
        ["", &second[dot - first.len()..]]
    };
    let mut segments = Segments::new(rest);
    if dot == 0 {
        // A relative path that starts with a dot segment: rules A, D, then E.
        loop {
            match segments.next() {
                Some("." | "..") if !segments.done => {}
                Some("." | "..") | None => return,
                Some(segment) => {
                    output.push_str(segment);
                    break;
                }
            }
        }
    }
    while let Some(segment) = segments.next() {
        match segment {
            "." => {}
            ".." => {
                let last = last_slash(&output[floor..]).map_or(floor, |k| floor + k);
                output.truncate(last);
            }
            _ => {
                output.push('/');
                output.push_str(segment);
                continue;
            }
        }
        if segments.done {
            output.push('/');
        }
    }
}

/// [`remove_dot_segments_into`] of the usual merge, a base's directory `first` (not
/// empty, with no dot segment) and a reference's path that starts with `../` or
/// `./` segments and has no other (`../../g`): each `..` takes the last segment off
/// the directory, and the rest follows it. Done without copying the directory
/// first and cutting it back, and without reading the reference segment by
/// segment; `false` (and nothing written) if `second` is not of that shape.
fn leading_dots_only(first: &str, second: &str, output: &mut String) -> bool {
    // The directory without its final "/", as the general loop has it in `output`
    // when it meets the first dot segment.
    let mut keep = first.len() - 1;
    let mut rest = second;
    // A last "." or ".." leaves the "/" (rules B and C): `rest` is then empty.
    loop {
        let (up, after) = match rest.as_bytes() {
            [b'.', b'.', b'/', ..] => (true, &rest[3..]),
            [b'.', b'/', ..] => (false, &rest[2..]),
            b".." => (true, ""),
            b"." => (false, ""),
            _ => break,
        };
        if up {
            // Rule C: the last segment goes, with its "/" (all of it if no "/").
            keep = last_slash(&first[..keep]).unwrap_or(0);
        }
        rest = after;
    }
    if first_dot_segment(rest).is_some() {
        return false;
    }
    output.push_str(&first[..keep]);
    output.push('/');
    output.push_str(rest);
    true
}

/// The segments of the path `first + second` (the texts between its `/`s), where
/// `first` is empty or ends with `/`.
struct Segments<'a> {
    /// What is left to read, from the start of a segment.
    text: &'a str,
    /// `second`, while `text` is still in `first`.
    then: Option<&'a str>,
    /// Whether the last segment was returned.
    done: bool,
}

impl<'a> Segments<'a> {
    fn new([first, second]: [&'a str; 2]) -> Segments<'a> {
        let (text, then) = if first.is_empty() {
            (second, None)
        } else {
            (first, Some(second))
        };
        Segments {
            text,
            then,
            done: false,
        }
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.done {
            return None;
        }
        match self.text.bytes().position(|b| b == b'/') {
            Some(k) => {
                let segment = &self.text[..k];
                self.text = &self.text[k + 1..];
                if self.text.is_empty() {
                    if let Some(second) = self.then.take() {
                        self.text = second;
                    }
                }
                Some(segment)
            }
            None => {
                self.done = true;
                Some(self.text)
            }
        }
    }
}

/// Where the last `/` of `path` is: sixteen bytes at a time from the end (a merge's
/// base has a whole file name after its last `/`, often 15 bytes or more), then
/// eight, then what is left before them one at a time.
#[inline]
pub(crate) fn last_slash(path: &str) -> Option<usize> {
    let b = path.as_bytes();
    let mut end = b.len();
    while end >= 16 {
        let slashes = block_equal::<16>(b, end - 16, b'/');
        if slashes != 0 {
            return Some(end - 16 + (31 - slashes.leading_zeros() as usize));
        }
        end -= 16;
    }
    if end >= 8 {
        let slashes = block_equal::<8>(b, end - 8, b'/');
        if slashes != 0 {
            return Some(end - 8 + (31 - slashes.leading_zeros() as usize));
        }
        end -= 8;
    }
    b[..end].iter().rposition(|&c| c == b'/')
}

/// Where the first segment that is exactly `.` or `..` starts in `path`, read from
/// the start of a segment. A dot segment starts with a `.` at the start of the path
/// or after a `/`: the search looks for those pairs sixteen bytes at a time (eight
/// in a path shorter than that; most paths have none; a file name's `.` is not
/// after a `/`), and checks each one it finds.
#[inline(always)]
fn first_dot_segment(path: &str) -> Option<usize> {
    let b = path.as_bytes();
    match b.len() {
        16.. => first_dot_segment_by::<16>(b),
        8.. => first_dot_segment_by::<8>(b),
        _ => {
            let mut prev = b'/';
            for (k, &c) in b.iter().enumerate() {
                if c == b'.' && prev == b'/' && is_dot_segment_at(b, k) {
                    return Some(k);
                }
                prev = c;
            }
            None
        }
    }
}

/// [`first_dot_segment`] of a path of `B` bytes or more, `B` bytes at a time.
#[inline(always)]
fn first_dot_segment_by<const B: usize>(b: &[u8]) -> Option<usize> {
    let n = b.len();
    debug_assert!(n >= B);
    let mut i = 0;
    while i < n {
        // The last block may overlap the one before: it starts at n - B, and what it
        // holds before `i` was searched already.
        let at = i.min(n - B);
        let dots = block_equal::<B>(b, at, b'.');
        if dots != 0 {
            let slash_before = at == 0 || b[at - 1] == b'/';
            // Each byte that follows a `/` (or starts the path).
            let after_slash = block_equal::<B>(b, at, b'/') << 1 | u32::from(slash_before);
            let mut found = dots & after_slash & (u32::MAX << (i - at));
            while found != 0 {
                let k = at + found.trailing_zeros() as usize;
                if is_dot_segment_at(b, k) {
                    return Some(k);
                }
                found &= found - 1;
            }
        }
        i = at + B;
    }
    None
}

/// Whether the segment that starts with the `.` at `k` is `.` or `..`: it ends there
/// or after a second `.`.
#[inline(always)]
fn is_dot_segment_at(b: &[u8], k: usize) -> bool {
    let end = if b.get(k + 1) == Some(&b'.') {
        k + 2
    } else {
        k + 1
    };
    matches!(b.get(end), None | Some(b'/'))
}

/// Whether a path has a segment that is exactly "." or "..", the only dot segments
/// (RFC 3986 §5.2.4; `%2E` is none).
pub(crate) fn has_dot_segment(path: &str) -> bool {
    first_dot_segment(path).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block-at-a-time searches against their definitions, on every string of up
    /// to 10 bytes over `/ . a` (each boundary of an eight-byte block and overlap of
    /// the last one is among them), and on those strings behind and before runs of
    /// `a` and `/`, which move them across the blocks of eight and of sixteen.
    #[test]
    fn searches_by_blocks_find_what_the_definitions_find() {
        let first_dot_segment_by_definition = |path: &str| {
            let mut start = 0;
            for segment in path.split('/') {
                if segment == "." || segment == ".." {
                    return Some(start);
                }
                start += segment.len() + 1;
            }
            None
        };
        let mut texts = vec![String::new()];
        let mut k = 0;
        while k < texts.len() {
            if texts[k].len() < 10 {
                for c in ['/', '.', 'a'] {
                    let mut t = texts[k].clone();
                    t.push(c);
                    texts.push(t);
                }
            }
            k += 1;
        }
        let mut checked = 0;
        for t in &texts {
            for (before, after) in [
                ("", ""),
                ("aaaaaaa", ""),
                ("", "/aaaaaa"),
                ("/aaaaaaaa/", "a/"),
                ("aaaaaaaaaaaaa/", "/aaaaaaaaaaaaaaaaaaa"),
                ("/aaaaaaaaaaaaaaaaaaaaaaaa", ""),
            ] {
                let path = format!("{before}{t}{after}");
                assert_eq!(
                    first_dot_segment(&path),
                    first_dot_segment_by_definition(&path),
                    "{path:?}"
                );
                assert_eq!(last_slash(&path), path.rfind('/'), "{path:?}");
                checked += 1;
            }
        }
        assert!(checked > 500_000);
    }

    /// RFC 3986 §5.2.4's loop, rule by rule as the RFC writes it: the definition the
    /// segment-wise [`remove_dot_segments_into`] must equal.
    fn rfc_loop(path: &str) -> String {
        let mut output = String::new();
        let mut input = path;
        while !input.is_empty() {
            if let Some(rest) = input
                .strip_prefix("../")
                .or_else(|| input.strip_prefix("./"))
            {
                // A.
                input = rest;
            } else if input.starts_with("/./") {
                // B.
                input = &input[2..];
            } else if input == "/." {
                input = "/";
            } else if input.starts_with("/../") || input == "/.." {
                // C.
                input = if input == "/.." { "/" } else { &input[3..] };
                output.truncate(output.rfind('/').unwrap_or(0));
            } else if input == "." || input == ".." {
                // D.
                input = "";
            } else {
                // E.
                let start = usize::from(input.starts_with('/'));
                let end = input[start..].find('/').map_or(input.len(), |k| start + k);
                output.push_str(&input[..end]);
                input = &input[end..];
            }
        }
        output
    }

    /// Every string of up to `max` characters over `alphabet`.
    fn strings(alphabet: &[char], max: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn segment_wise_equals_the_rfc_loop_on_every_short_path() {
        let mut checked = 0;
        for path in strings(&['/', '.', 'a'], 9) {
            let expected = rfc_loop(&path);
            assert_eq!(remove_dot_segments(&path), expected, "{path:?}");
            assert_eq!(
                has_dot_segment(&path),
                path.split('/').any(|s| s == "." || s == "..")
            );
            // Split as a merge splits: after any "/", into two halves.
            for (k, _) in path.match_indices('/') {
                let mut out = String::from("kept");
                remove_dot_segments_into([&path[..=k], &path[k + 1..]], &mut out);
                assert_eq!(
                    out,
                    format!("kept{expected}"),
                    "{:?} + {:?}",
                    &path[..=k],
                    &path[k + 1..]
                );
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn non_ascii_segments_are_copied_whole() {
        assert_eq!(remove_dot_segments("/é/../ü/./ß"), "/ü/ß");
        let mut out = String::new();
        remove_dot_segments_into(["/ä/", "../ö"], &mut out);
        assert_eq!(out, "/ö");
    }
}
