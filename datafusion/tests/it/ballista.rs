//! The functions on Ballista: a standalone scheduler and executor in this process
//! run the plan, so the UDFs must travel as names and be found in the executor's
//! registry. Built with `--features ballista` only.

use crate::common::rows;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn functions_run_on_a_standalone_ballista_cluster() {
    let dir = std::env::temp_dir().join(format!("iri-sql-ballista-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("links.csv");
    std::fs::write(
        &csv,
        "link\nhttp://example.org/a\nhttps://résumé.example.org/b\nhttp://example.org/a b\nHTTP://Example.org:80/c\n",
    )
    .unwrap();
    let sql = "SELECT iri_host(iri_normalize(link, 'scheme')) AS host, \
                      count(*) FILTER (WHERE iri_is_valid(link)) AS valid, \
                      count(*) FILTER (WHERE NOT iri_is_valid(link)) AS invalid, \
                      max(iri_error(link)['rule']) AS rule \
               FROM links GROUP BY host ORDER BY host";

    // Embedded, for the expected answer.
    let local = iri_grammar_datafusion::session(Some(2));
    local
        .register_csv("links", csv.to_str().unwrap(), Default::default())
        .await
        .unwrap();
    let want = rows(&local, sql).await;
    let expected: Vec<Vec<String>> = [
        ["example.org", "2", "0", "NULL"],
        ["résumé.example.org", "1", "0", "NULL"],
        ["NULL", "0", "1", "isegment"],
    ]
    .iter()
    .map(|r| r.iter().map(|v| v.to_string()).collect())
    .collect();
    assert_eq!(want, expected);

    let ctx = iri_grammar_datafusion::ballista::standalone(2)
        .await
        .unwrap();
    ctx.register_csv("links", csv.to_str().unwrap(), Default::default())
        .await
        .unwrap();
    let got = rows(&ctx, sql).await;
    assert_eq!(got, want);
    // The plan went through Ballista: its explain names the distributed stages.
    let plan = rows(&ctx, &format!("EXPLAIN {sql}")).await;
    let text = format!("{plan:?}");
    assert!(text.contains("iri_normalize"), "{text}");

    // A list is read by the list reader there too, its table and scan sent to the
    // scheduler and the executor by the crate's codecs: every column, and the line
    // that is not UTF-8 kept with the reason, in several partitions.
    let list = dir.join("links.txt");
    let mut bytes = Vec::new();
    for i in 0..2_000 {
        bytes.extend_from_slice(format!("http://host{}.example/{i}\r\n", i % 7).as_bytes());
    }
    bytes.extend_from_slice(b"http://b/caf\xE9\nurn:x");
    std::fs::write(&list, bytes).unwrap();
    let sql = "SELECT iri_host(iri) AS host, count(*) AS n, max(\"offset\") AS last, \
                      max(utf8_error) AS why \
               FROM list GROUP BY host ORDER BY host NULLS LAST";
    for c in [&local, &ctx] {
        let table = iri_grammar_datafusion::tables::text_list_in_ranges(&list, 3, 1 << 12).unwrap();
        c.register_table("list", table).unwrap();
    }
    let want = rows(&local, sql).await;
    assert_eq!(want.len(), 8, "{want:?}");
    assert_eq!(
        want[7],
        [
            "NULL",
            "2",
            "52904",
            "the line is not UTF-8: it ends inside the sequence that byte 0xE9 starts \
             at offset 12 of the line (byte 52902 of the file)"
        ]
    );
    assert_eq!(rows(&ctx, sql).await, want);
}
