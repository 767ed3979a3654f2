//! The `iri-sql` command: files named by path in each format, the three outputs,
//! and its errors.

use std::path::PathBuf;
use std::process::Command;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("iri-sql-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn iri_sql(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_iri-sql"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const LINKS: &[&str] = &[
    "http://example.org/a",
    "https://résumé.example.org/b",
    "http://example.org/a b",
    "http://EXAMPLE.org:80/c",
    "not a link",
];

#[test]
fn lists_csv_ndjson_and_parquet_by_path() {
    let d = dir();
    let list = d.join("links.txt");
    std::fs::write(&list, LINKS.join("\n") + "\n").unwrap();
    let csv = d.join("links.csv");
    std::fs::write(
        &csv,
        format!(
            "id,link\n{}\n",
            LINKS
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{i},\"{l}\""))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    )
    .unwrap();
    let json = d.join("links.ndjson");
    std::fs::write(
        &json,
        LINKS
            .iter()
            .map(|l| format!("{{\"link\":\"{l}\"}}\n"))
            .collect::<String>(),
    )
    .unwrap();

    // The list: the invalid IRIs with the rule that rejects them.
    let sql = format!(
        "SELECT offset, iri, iri_error(iri)['rule'] AS rule FROM '{}' WHERE NOT iri_is_valid(iri) ORDER BY offset",
        list.display()
    );
    let (ok, out, err) = iri_sql(&["--format", "csv", &sql]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "offset,iri,rule\n52,http://example.org/a b,isegment\n99,not a link,isegment-nz-nc\n"
    );

    // CSV, NDJSON: the same count of valid links, by host after normalization.
    for (path, col) in [(&csv, "link"), (&json, "link")] {
        let sql = format!(
            "SELECT iri_host(iri_normalize({col}, 'scheme')) AS host, count(*) AS n FROM '{}' \
             WHERE iri_is_valid({col}) GROUP BY host ORDER BY n DESC, host",
            path.display()
        );
        let (ok, out, err) = iri_sql(&["--format", "csv", &sql]);
        assert!(ok, "{}: {err}", path.display());
        assert_eq!(
            out,
            "host,n\nexample.org,2\nrésumé.example.org,1\n",
            "{}",
            path.display()
        );
    }

    // Parquet, written by a query, then read by path; --table names a file too.
    let parquet = d.join("links.parquet");
    let sql = format!(
        "COPY (SELECT iri AS link FROM '{}') TO '{}' STORED AS PARQUET",
        list.display(),
        parquet.display()
    );
    let (ok, _, err) = iri_sql(&[&sql]);
    assert!(ok, "{err}");
    let table = format!("p={}", parquet.display());
    let (ok, out, err) = iri_sql(&[
        "--table",
        &table,
        "--format",
        "json",
        "SELECT iri_parse(link) AS p FROM p WHERE iri_port(link) IS NOT NULL",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "{\"p\":{\"scheme\":\"http\",\"authority\":\"EXAMPLE.org:80\",\"host\":\"EXAMPLE.org\",\"host_kind\":\"reg-name\",\"port\":\"80\",\"path\":\"/c\"}}\n"
    );

    // The aligned table.
    let sql = format!("SELECT count(*) AS n FROM '{}'", list.display());
    let (ok, out, err) = iri_sql(&[&sql]);
    assert!(ok, "{err}");
    assert!(out.contains("| n |") && out.contains("| 5 |"), "{out}");
}

#[test]
fn errors_say_what_is_wrong() {
    let (ok, _, err) = iri_sql(&["--format", "csv", "SELECT iri_error('a b')"]);
    assert!(!ok);
    assert!(err.contains("CSV has no nested values"), "{err}");
    let (ok, _, err) = iri_sql(&["SELECT iri_normalize('a', 'fast')"]);
    assert!(!ok);
    assert!(err.contains("unknown level"), "{err}");
    let (ok, _, err) = iri_sql(&["--format", "xml", "SELECT 1"]);
    assert!(!ok);
    assert!(err.contains("usage"), "{err}");
    let (ok, out, _) = iri_sql(&["--functions"]);
    assert!(ok);
    assert!(out.contains("iri_is_valid(s [, grammar])"), "{out}");
}
