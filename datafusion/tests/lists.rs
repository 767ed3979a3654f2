//! The list reader on the lines that trouble readers: CRLF, a byte order mark, bytes
//! that are not UTF-8, empty lines, no final newline; cut into ranges anywhere.

mod common;

use common::rows;
use iri_grammar_datafusion::tables::text_list_in_ranges;
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
        let ctx = common::ctx();
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
    let ctx = common::ctx();
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
        let ctx = common::ctx();
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
