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
        vec!["28", "\u{FFFD}http://c/", "false"],
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
