//! The `iri-sql` command: files named by path in each format, the three outputs,
//! its errors, and the examples of `docs/sql.md`.

use std::path::{Path, PathBuf};
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

/// CSV and NDJSON are read by DataFusion's readers, which cannot skip one field that
/// is not UTF-8: the query stops, and the error names the file, the line and the
/// byte (before, it was Arrow's "Encountered invalid UTF-8 data for line 2 and field
/// 2", naming no file). The list of the same lines is read row by row.
#[test]
fn bytes_that_are_not_utf8_are_found_in_the_file() {
    let d = dir();
    // Found while the schema is inferred (the first rows), and while the rows are
    // read (after the 1000 rows inference reads; then Arrow names no file).
    let csv = d.join("latin1.csv");
    std::fs::write(
        &csv,
        b"id,link\n1,http://a/\n2,\"http://b/caf\xE9\"\n3,http://c/\n",
    )
    .unwrap();
    let late = d.join("latin1-late.csv");
    let mut bytes = b"id,link\n".to_vec();
    for i in 0..2000 {
        bytes.extend_from_slice(format!("{i},http://a/{i}\n").as_bytes());
    }
    let at = bytes.len();
    bytes.extend_from_slice(b"2000,http://b/caf\xE9\n2001,http://c/\n");
    std::fs::write(&late, &bytes).unwrap();
    for (path, line, byte) in [(&csv, 3, 35), (&late, 2002, at + 17)] {
        let sql = format!("SELECT iri_is_valid(link) FROM '{}'", path.display());
        let (ok, out, err) = iri_sql(&[&sql]);
        assert!(!ok, "{out}");
        let want = format!(
            "{}: line {line} is not UTF-8 (byte 0xE9 at offset {byte} of the file)",
            path.display()
        );
        assert!(err.contains(&want), "{err}");
        assert!(err.contains("convert the file to UTF-8"), "{err}");
    }

    let json = d.join("latin1.ndjson");
    std::fs::write(
        &json,
        b"{\"link\":\"http://a/\"}\n{\"link\":\"http://b/caf\xE9\"}\n",
    )
    .unwrap();
    let late = d.join("latin1-late.ndjson");
    let mut bytes = Vec::new();
    for i in 0..2000 {
        bytes.extend_from_slice(format!("{{\"link\":\"http://a/{i}\"}}\n").as_bytes());
    }
    let at = bytes.len();
    bytes.extend_from_slice(b"{\"link\":\"http://b/caf\xE9\"}\n");
    std::fs::write(&late, &bytes).unwrap();
    for (path, line, byte) in [(&json, 2, 42), (&late, 2001, at + 21)] {
        let sql = format!("SELECT iri_is_valid(link) FROM '{}'", path.display());
        let (ok, out, err) = iri_sql(&[&sql]);
        assert!(!ok, "{out}");
        let want = format!(
            "{}: line {line} is not UTF-8 (byte 0xE9 at offset {byte} of the file)",
            path.display()
        );
        assert!(err.contains(&want), "{err}");
        assert!(err.contains("DataFusion's JSON reader"), "{err}");
    }

    // The same links as a list: the bad line is a row with a NULL iri and the reason.
    let list = d.join("latin1.txt");
    std::fs::write(&list, b"http://a/\nhttp://b/caf\xE9\nhttp://c/\n").unwrap();
    let sql = format!(
        "SELECT offset, iri_is_valid(iri) AS valid, utf8_error FROM '{}' ORDER BY offset",
        list.display()
    );
    let (ok, out, err) = iri_sql(&["--format", "csv", &sql]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "offset,valid,utf8_error\n0,true,\n10,,the line is not UTF-8: it ends inside the \
         sequence that byte 0xE9 starts at offset 12 of the line (byte 22 of the file)\n\
         24,true,\n"
    );
}

/// A path that names no file is an error that names it and says why (before:
/// "table 'datafusion.public.nope.csv' not found"); a name that is no path is still
/// the catalog's.
#[test]
fn a_missing_file_is_named_with_the_reason() {
    let d = dir().join("missing");
    std::fs::create_dir_all(&d).unwrap();
    let missing = d.join("nope.csv");
    let missing = missing.to_str().unwrap();
    let (ok, _, err) = iri_sql(&[&format!("SELECT count(*) FROM '{missing}'")]);
    assert!(!ok);
    assert!(
        err.contains(&format!("{missing}: No such file or directory")),
        "{err}"
    );
    let pattern = d.join("*.txt");
    let pattern = pattern.to_str().unwrap();
    let (ok, _, err) = iri_sql(&[&format!("SELECT count(*) FROM '{pattern}'")]);
    assert!(!ok);
    assert!(
        err.contains(&format!("{pattern}: no file matches this pattern")),
        "{err}"
    );
    let (ok, _, err) = iri_sql(&["SELECT count(*) FROM nope"]);
    assert!(!ok);
    assert!(
        err.contains("table 'datafusion.public.nope' not found"),
        "{err}"
    );
}

/// A folder and a glob pattern are read as DataFusion's listing tables read them:
/// all the files, each by its own extension (before: "table ... not found").
#[test]
fn folders_and_globs_are_tables_of_their_files() {
    let d = dir().join("urls");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("a.txt"), "http://example.org/a\nnot a link\n").unwrap();
    std::fs::write(d.join("b.txt"), "http://example.org/b\n").unwrap();
    std::fs::write(d.join("c.csv"), "iri\nhttp://example.org/c\n").unwrap();
    let folder = format!("{}/", d.to_str().unwrap());
    let glob = format!("{}/*.txt", d.to_str().unwrap());
    let (ok, out, err) = iri_sql(&[
        "--format",
        "csv",
        &format!(
            "SELECT count(*) AS n, sum(CAST(iri_is_valid(iri) AS INT)) AS valid FROM '{glob}'"
        ),
    ]);
    assert!(ok, "{err}");
    assert_eq!(out, "n,valid\n3,2\n");
    std::fs::remove_file(d.join("c.csv")).unwrap();
    let (ok, out, err) = iri_sql(&[
        "--format",
        "csv",
        &format!("SELECT iri FROM '{folder}' ORDER BY iri"),
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "iri\nhttp://example.org/a\nhttp://example.org/b\nnot a link\n"
    );
}

/// Every `$ iri-sql` example of `docs/sql.md` prints what the guide shows, run from
/// the repository root on `../shared/corpus` as the guide says.
#[test]
fn the_guides_examples_print_what_they_show() {
    if crate::common::corpus("urls").is_none() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = std::fs::read_to_string(root.join("docs/sql.md")).unwrap();
    let examples = console_examples(&guide);
    assert_eq!(examples.len(), 3, "docs/sql.md's examples: {examples:?}");
    for (command, shown) in examples {
        let args = shell_words(command.strip_prefix("iri-sql ").unwrap());
        let out = Command::new(env!("CARGO_BIN_EXE_iri-sql"))
            .args(&args)
            .current_dir(&root)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{command}: {stderr}");
        let printed = String::from_utf8(out.stdout).unwrap();
        assert_eq!(printed.trim_end(), shown.trim_end(), "{command}");
    }
}

/// The `$ iri-sql` commands of the ```` ```console ```` blocks of `text` (`> `
/// lines continue them), each with the lines it shows, up to a blank line.
fn console_examples(text: &str) -> Vec<(String, String)> {
    let mut examples: Vec<(String, String)> = Vec::new();
    let mut in_block = false;
    let mut in_output = false;
    for line in text.lines() {
        if !in_block {
            in_block = line == "```console";
            continue;
        }
        if line == "```" {
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ iri-sql ") {
            examples.push((format!("iri-sql {command}"), String::new()));
            in_output = true;
        } else if let (Some(more), Some(last)) = (line.strip_prefix("> "), examples.last_mut()) {
            last.0 = format!("{}\n{more}", last.0);
        } else if line.is_empty() {
            in_output = false;
        } else if let (true, Some(last)) = (in_output, examples.last_mut()) {
            last.1 = format!("{}{line}\n", last.1);
        }
    }
    examples
}

/// The words of a command line as a shell splits it: spaces outside double quotes
/// end a word (the guide's commands quote nothing else).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' | '\n' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}
