//! The list reader on the lines that trouble readers: CRLF, a byte order mark, bytes
//! that are not UTF-8, empty lines, no final newline; cut into ranges anywhere.

use crate::common::rows;
use iri_grammar_datafusion::tables::{read_list_range, text_list_in_ranges};
use std::path::PathBuf;

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iri-sql-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[tokio::test]
async fn lines_are_read_as_they_are_in_any_cut() {
    let bytes: &[u8] =
        b"\xEF\xBB\xBFhttp://a/\r\nhttp://b/x y\n\n\xFFhttp://c/\nhttp://d/\xC3\xA9\n  \nlast";
    let path = temp_file("trouble.txt", bytes);
    let want = vec![
        vec!["0", "http://a/", "true"],
        vec!["14", "http://b/x y", "false"],
        vec!["27", "", "true"],
        vec!["28", "NULL", "NULL"],
        vec!["39", "http://d/é", "true"],
        vec!["51", "  ", "false"],
        vec!["54", "last", "true"],
    ];
    for partitions in 1..=12 {
        let ctx = crate::common::ctx();
        ctx.register_table("list", text_list_in_ranges(&path, partitions, 1).unwrap())
            .unwrap();
        let got = rows(
            &ctx,
            "SELECT offset, iri, iri_is_valid(iri) FROM list ORDER BY offset",
        )
        .await;
        assert_eq!(got, want, "{partitions} partitions");
    }
    // An empty file is an empty table.
    let empty = temp_file("empty.txt", b"");
    let ctx = crate::common::ctx();
    ctx.register_table("list", text_list_in_ranges(&empty, 4, 1).unwrap())
        .unwrap();
    assert_eq!(rows(&ctx, "SELECT count(*) FROM list").await, [["0"]]);
}

/// A line that is not UTF-8 has no text, so nothing may be made of it: no function
/// returns an IRI for it (before, the reader put U+FFFD for the bad byte and
/// `iri_prepare` turned `http://a/\xFF` into the valid `http://a/%EF%BF%BD`, the IRI
/// of a genuine U+FFFD), and `utf8_error` says where the bad byte is.
#[tokio::test]
async fn a_line_that_is_not_utf8_makes_no_iri() {
    // A byte order mark, then a line with a stray 0xFF; a genuine U+FFFD; a line cut
    // inside a two-byte sequence (0xC3 without its second byte).
    let bytes: &[u8] = b"\xEF\xBB\xBFhttp://a/\xFF\nhttp://a/\xEF\xBF\xBD\nhttp://d/\xC3\n";
    let path = temp_file("not-utf8.txt", bytes);
    for partitions in [1, 3] {
        let ctx = crate::common::ctx();
        ctx.register_table("list", text_list_in_ranges(&path, partitions, 1).unwrap())
            .unwrap();
        let got = rows(
            &ctx,
            "SELECT offset, iri, iri_prepare(iri), iri_to_uri(iri), iri_to_uri(iri, true), \
               iri_normalize(iri), iri_normalize(iri, 'scheme'), iri_to_iri(iri), \
               iri_leiri_to_iri(iri), iri_resolve('http://b/', iri), \
               iri_resolve(iri, 'x'), iri_relativize('http://a/', iri), \
               iri_is_valid(iri, 'leiri'), iri_error(iri)['message'], utf8_error \
             FROM list ORDER BY offset",
        )
        .await;
        let mut null = vec!["NULL"; 13];
        null.insert(0, "0");
        null.push(
            "the line is not UTF-8: invalid byte 0xFF at offset 9 of the line \
             (byte 12 of the file)",
        );
        assert_eq!(got[0], null, "{partitions} partitions");
        // The genuine U+FFFD is a character of the file: it is data.
        assert_eq!(got[1][1], "http://a/\u{FFFD}");
        assert_eq!(got[1][2], "http://a/%EF%BF%BD");
        assert_eq!(got[1][14], "NULL");
        let cut = &got[2];
        assert_eq!(cut[0], "27");
        assert!(cut[1..14].iter().all(|v| v == "NULL"), "{cut:?}");
        assert_eq!(
            cut[14],
            "the line is not UTF-8: it ends inside the sequence that byte 0xC3 \
             starts at offset 9 of the line (byte 36 of the file)"
        );
    }
}

/// A query reads only the columns it names; each alone, or in another order, gives
/// what the whole table gives.
#[tokio::test]
async fn each_column_alone_reads_as_the_whole_table() {
    let bytes: &[u8] =
        b"\xEF\xBB\xBFhttp://a/\r\nhttp://b/x y\n\n\xFFhttp://c/\nhttp://d/\xC3\xA9\n  \nlast";
    let path = temp_file("columns.txt", bytes);
    for partitions in [1, 3] {
        let ctx = crate::common::ctx();
        ctx.register_table("list", text_list_in_ranges(&path, partitions, 1).unwrap())
            .unwrap();
        let one = |sql: &'static str| {
            let ctx = ctx.clone();
            async move { rows(&ctx, sql).await }
        };
        assert_eq!(one("SELECT count(*) FROM list").await, [["7"]]);
        assert_eq!(
            one(
                "SELECT count(iri), count(*) FILTER (WHERE iri_is_valid(iri)), \
                   string_agg(iri, '|' ORDER BY iri) FROM list"
            )
            .await,
            [["6", "4", "|  |http://a/|http://b/x y|http://d/é|last"]]
        );
        assert_eq!(
            one("SELECT utf8_error, \"offset\" FROM list WHERE utf8_error IS NOT NULL").await,
            [[
                "the line is not UTF-8: invalid byte 0xFF at offset 0 of the line \
                 (byte 28 of the file)",
                "28"
            ]]
        );
        assert_eq!(
            one("SELECT sum(\"offset\") FROM list").await,
            [[(14 + 27 + 28 + 39 + 51 + 54).to_string()]]
        );
    }
}

/// One row of a list as the reader must give it: offset, text (`None`: not UTF-8).
type Row = (u64, Option<String>);

/// The rows of `bytes` by the module's rules, line by line: lines end at `\n`, a
/// `\r` before it is no part of the line, a byte order mark opens the file.
fn oracle(bytes: &[u8]) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let (mut line, next, ended) = match bytes[at..].iter().position(|&b| b == b'\n') {
            Some(i) => (&bytes[at..at + i], at + i + 1, true),
            None => (&bytes[at..], bytes.len(), false),
        };
        if at == 0 {
            line = line.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(line);
        }
        if ended {
            line = line.strip_suffix(b"\r").unwrap_or(line);
        }
        let text = std::str::from_utf8(line).ok().map(str::to_string);
        rows.push((at as u64, text));
        at = next;
    }
    rows
}

fn read(path: &std::path::Path, start: u64, end: u64, batch_size: usize) -> Vec<Row> {
    use datafusion::arrow::array::{Array, AsArray};
    use datafusion::arrow::datatypes::UInt64Type;
    // A scan of no column (`count(*)`) copies no text: it must still see every row;
    // one of `utf8_error` and `offset` alone, in that order, the same rows.
    let counted: usize = read_list_range(path, start, end, batch_size, Some(&[]))
        .unwrap()
        .iter()
        .map(|b| {
            assert_eq!(b.num_columns(), 0);
            b.num_rows()
        })
        .sum();
    let mut projected = Vec::new();
    for b in read_list_range(path, start, end, batch_size, Some(&[2, 0])).unwrap() {
        let errors = b.column(0).as_string::<i32>();
        let offsets = b.column(1).as_primitive::<UInt64Type>();
        for i in 0..b.num_rows() {
            projected.push((offsets.value(i), errors.is_null(i)));
        }
    }
    let mut rows = Vec::new();
    let mut whole = Vec::new();
    for b in read_list_range(path, start, end, batch_size, None).unwrap() {
        assert!(b.num_rows() <= batch_size);
        let offsets = b.column(0).as_primitive::<UInt64Type>();
        let iris = b.column(1).as_string::<i32>();
        let errors = b.column(2).as_string::<i32>();
        for i in 0..b.num_rows() {
            // A line has its text or the reason it has none, never both.
            assert_ne!(iris.is_valid(i), errors.is_valid(i));
            rows.push((
                offsets.value(i),
                iris.is_valid(i).then(|| iris.value(i).to_string()),
            ));
            whole.push((offsets.value(i), errors.is_null(i)));
        }
    }
    assert_eq!(counted, rows.len());
    assert_eq!(projected, whole);
    rows
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Cut anywhere, the ranges read every line exactly once, with the offsets of
    /// the whole file: a line straddling a cut belongs to the range it starts in.
    #[test]
    fn any_cuts_read_each_line_once(
        pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                &b"a"[..], b"http://x/", b"\n", b"\n", b"\r\n", b"\r", b"\xC3\xA9",
                b"\xC3", b"\xFF", b"\xEF\xBB\xBF", b" ",
            ]),
            0..40,
        ),
        cuts in proptest::collection::vec(0u64..1000, 0..6),
        batch_size in 1usize..5,
    ) {
        let bytes: Vec<u8> = pieces.concat();
        let len = bytes.len() as u64;
        let path = temp_file(
            &format!("cuts-{:x}.txt", {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                (&bytes, &cuts, batch_size).hash(&mut h);
                h.finish()
            }),
            &bytes,
        );
        let mut bounds: Vec<u64> = cuts.iter().map(|c| c % (len + 1)).collect();
        bounds.push(0);
        bounds.push(len);
        bounds.sort_unstable();
        bounds.dedup();
        let mut got = Vec::new();
        for w in bounds.windows(2) {
            got.extend(read(&path, w[0], w[1], batch_size));
        }
        if len == 0 {
            got = read(&path, 0, 0, batch_size);
        }
        std::fs::remove_file(&path).unwrap();
        proptest::prop_assert_eq!(got, oracle(&bytes), "{:?} cut at {:?}", bytes, bounds);
    }
}
