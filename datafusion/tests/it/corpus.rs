//! On every URL list of `../shared/corpus/urls`, read as a list table in two
//! partitions: each function gives, row for row, what the library gives when called
//! directly on the same line. The list reader is checked too: its lines and offsets
//! are those of the file.

use crate::common::{corpus, rows};
use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::grammar::{check, is_match, Iri, Leiri, Rule, Uri};
use iri_grammar::lint::LintOptions;
use iri_grammar::normalize::{Level, NormalizeOptions};
use iri_grammar::prepare::prepare;
use iri_grammar::IriRef;
use iri_grammar_datafusion::tables::register_path;

/// The lines of a file as the list reader reads them: split at `\n`, a `\r` before
/// it dropped, a byte order mark at the start dropped, with their byte offsets; a
/// line that is not UTF-8 is NULL (`None`), as the reader gives it.
fn lines(bytes: &[u8]) -> Vec<(u64, Option<String>)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |k| pos + k + 1);
        let mut text = &bytes[pos..end];
        if pos == 0 {
            text = text.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(text);
        }
        if let Some(t) = text.strip_suffix(b"\n") {
            text = t.strip_suffix(b"\r").unwrap_or(t);
        }
        out.push((pos as u64, String::from_utf8(text.to_vec()).ok()));
        pos = end;
    }
    out
}

fn opt(s: Option<&str>) -> String {
    s.map_or("NULL".to_string(), str::to_string)
}

/// What the library says of one line, in the order of the query's columns.
fn expected(s: &str) -> Vec<String> {
    let b = |v: bool| v.to_string();
    let mut row = vec![
        b(is_match::<Iri>(Rule::IriReference, s)),
        b(is_match::<Uri>(Rule::IriReference, s)),
        b(is_match::<Leiri>(Rule::IriReference, s)),
        opt(check::<Iri>(Rule::IriReference, s)
            .err()
            .and_then(|e| e.rule())),
        check::<Iri>(Rule::IriReference, s)
            .err()
            .map_or("NULL".to_string(), |e| e.char_offset().to_string()),
    ];
    match IriRef::parse(s) {
        Ok(r) => {
            row.push(opt(r.scheme()));
            row.push(opt(r.host()));
            row.push(opt(r.host_kind().map(|k| k.as_str())));
            row.push(opt(r.port()));
            row.push(r.path().to_string());
            row.push(opt(r.query()));
            row.push(opt(r.fragment()));
            let o = NormalizeOptions::default();
            row.push(opt(r
                .normalize_with(Level::Syntax, o)
                .ok()
                .as_ref()
                .map(|n| n.as_str())));
            row.push(opt(r
                .normalize_with(Level::Scheme, o)
                .ok()
                .as_ref()
                .map(|n| n.as_str())));
            row.push(opt(r
                .to_uri_with(ToUri { idna: true })
                .ok()
                .as_ref()
                .map(|n| n.as_str())));
            row.push(opt(r
                .to_iri_with(ToIri { idna: false })
                .ok()
                .as_ref()
                .map(|n| n.as_str())));
            let codes: Vec<_> = r
                .lint_with(&LintOptions::default())
                .iter()
                .map(|f| f.code())
                .collect();
            row.push(format!("[{}]", codes.join(", ")));
        }
        Err(_) => row.extend(vec!["NULL".to_string(); 12]),
    }
    row.push(opt(prepare(s).ok().as_ref().map(|p| p.as_str())));
    row
}

#[tokio::test]
async fn functions_equal_the_library_on_the_corpus_lists() {
    let Some(dir) = corpus("urls") else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".txt") && !name.starts_with("LICENSE")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    let mut total = 0;
    for path in files {
        // Two partitions: the list is cut in byte ranges, and no line may be lost
        // or doubled at a cut.
        let ctx = crate::common::ctx();
        register_path(&ctx, "list", path.to_str().unwrap())
            .await
            .unwrap();
        let got = rows(
            &ctx,
            "SELECT offset, iri, \
               iri_is_valid(iri), iri_is_valid(iri, 'uri'), iri_is_valid(iri, 'leiri'), \
               iri_error(iri)['rule'], iri_error(iri)['char_offset'], \
               iri_scheme(iri), iri_host(iri), iri_host_kind(iri), iri_port(iri), iri_path(iri), \
               iri_query(iri), iri_fragment(iri), \
               iri_normalize(iri), iri_normalize(iri, 'scheme'), \
               iri_to_uri(iri, true), iri_to_iri(iri), iri_lint(iri), iri_prepare(iri) \
             FROM list ORDER BY offset",
        )
        .await;
        let want = lines(&std::fs::read(&path).unwrap());
        assert_eq!(got.len(), want.len(), "{}: rows", path.display());
        for (g, (offset, line)) in got.iter().zip(&want) {
            assert_eq!(g[0], offset.to_string(), "{}: offsets", path.display());
            // A line that is not UTF-8 is NULL, and so is every function of it.
            let Some(line) = line else {
                assert!(
                    g[1..].iter().all(|v| v == "NULL"),
                    "{}: {g:?}",
                    path.display()
                );
                continue;
            };
            assert_eq!(&g[1], line, "{}: line at {offset}", path.display());
            assert_eq!(g[2..], expected(line), "{}: {line:?}", path.display());
        }
        total += want.len();
    }
    assert!(total > 100_000, "{total} lines");
}

#[tokio::test]
async fn a_list_read_in_many_partitions_is_the_file() {
    // Ranges of at least 1 MiB: a list of a few MiB in 8 partitions, against
    // the file's own lines.
    let Some(dir) = corpus("urls") else { return };
    let path = dir.join("dbpedia-links-iris.txt");
    let ctx = iri_grammar_datafusion::session(Some(8));
    register_path(&ctx, "list", path.to_str().unwrap())
        .await
        .unwrap();
    let got = rows(&ctx, "SELECT offset, iri FROM list ORDER BY offset").await;
    let want = lines(&std::fs::read(&path).unwrap());
    assert_eq!(got.len(), want.len());
    for (g, (offset, line)) in got.iter().zip(&want) {
        assert_eq!(
            (g[0].as_str(), g[1].as_str()),
            (
                offset.to_string().as_str(),
                line.as_deref().unwrap_or("NULL")
            )
        );
    }
}
