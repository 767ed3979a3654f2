//! Every function through SQL: values, NULLs, invalid input, non-ASCII, the three
//! string layouts, constant and column arguments, and the option errors.

use crate::common::{ctx, error, one, register_layouts, rows};
use datafusion::prelude::SessionContext;

/// Inputs on which each function is compared across the three layouts. Long
/// strings (over 12 bytes) and short ones: Utf8View keeps them differently.
const INPUTS: &[Option<&str>] = &[
    Some("http://user@résumé.example.org:8080/ros%C3%A9?q=1#f"),
    Some("HTTP://www.Example.com:80"),
    Some("http://example.org/a b"),
    None,
    Some("a:b"),
    Some("../g"),
    Some(""),
    Some("http://[::1]/"),
    Some("http://a/?"),
    Some("file:///my files/a<b>"),
    Some("http://納豆.example.org/Dürst/%e2%80%ae"),
    Some("http://user:pw@example.org/a/../\u{FB01}le"),
];

async fn layouts() -> SessionContext {
    let ctx = ctx();
    register_layouts(&ctx, "t", INPUTS);
    ctx
}

/// `f(COL ...)` gives the same rows whichever layout COL has.
async fn same_on_layouts(ctx: &SessionContext, call: &str) -> Vec<Vec<String>> {
    let q = |c: &str| format!("SELECT {} FROM t ORDER BY id", call.replace("COL", c));
    let u8 = rows(ctx, &q("u8")).await;
    assert_eq!(u8, rows(ctx, &q("l")).await, "{call}: Utf8 vs LargeUtf8");
    assert_eq!(u8, rows(ctx, &q("v")).await, "{call}: Utf8 vs Utf8View");
    assert_eq!(u8.len(), INPUTS.len());
    u8
}

fn column(r: &[Vec<String>]) -> Vec<&str> {
    r.iter().map(|row| row[0].as_str()).collect()
}

#[tokio::test]
async fn every_function_agrees_across_layouts() {
    let ctx = layouts().await;
    for call in [
        "iri_is_valid(COL)",
        "iri_is_valid(COL, 'uri')",
        "iri_is_valid(COL, 'leiri')",
        "iri_is_valid(COL, 'iri:IRI')",
        "iri_error(COL)",
        "iri_parse(COL)",
        "iri_scheme(COL)",
        "iri_authority(COL)",
        "iri_userinfo(COL)",
        "iri_host(COL)",
        "iri_host_kind(COL)",
        "iri_port(COL)",
        "iri_path(COL)",
        "iri_query(COL)",
        "iri_fragment(COL)",
        "iri_host(COL, 'leiri')",
        "iri_resolve('http://a/b/c/d;p?q', COL)",
        "iri_resolve(COL, 'x')",
        "iri_relativize('http://a/b/c/d;p?q', COL)",
        "iri_to_uri(COL)",
        "iri_to_uri(COL, true)",
        "iri_to_iri(COL, true)",
        "iri_leiri_to_iri(COL)",
        "iri_normalize(COL)",
        "iri_normalize(COL, 'scheme')",
        "iri_compare(COL, 'http://www.example.com/', 'scheme')",
        "iri_compare(COL, COL)",
        "iri_lint(COL)",
        "iri_lint(COL, 'leiri')",
        "iri_prepare(COL)",
    ] {
        let r = same_on_layouts(&ctx, call).await;
        // NULL in, NULL out: row 3 is NULL.
        assert_eq!(r[3][0], "NULL", "{call} of NULL");
    }
}

#[tokio::test]
async fn validity() {
    let ctx = layouts().await;
    let r = same_on_layouts(
        &ctx,
        "iri_is_valid(COL), iri_is_valid(COL, 'uri'), iri_is_valid(COL, 'leiri')",
    )
    .await;
    // Non-ASCII: an IRI, no URI.
    assert_eq!(r[0], ["true", "false", "true"]);
    // A space: a LEIRI only.
    assert_eq!(r[2], ["false", "false", "true"]);
    assert_eq!(r[3], ["NULL", "NULL", "NULL"]);
    // The empty string is a relative reference.
    assert_eq!(r[6], ["true", "true", "true"]);
    assert_eq!(r[9], ["false", "false", "true"]);
    // Any rule by name.
    assert_eq!(
        one(&ctx, "SELECT iri_is_valid('../g', 'iri:IRI')").await,
        "false"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_is_valid('a:b', 'iri:IRI')").await,
        "true"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_is_valid('255', 'uri:dec-octet')").await,
        "true"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_is_valid('256', 'URI:DEC-OCTET')").await,
        "false"
    );
    // The library's spellings of the grammars (`VariantName`'s `FromStr`) and levels.
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_is_valid('http://résumé.example/', 'RFC3986')"
        )
        .await,
        "false"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_is_valid('a:b', ' rfc3987:IRI ')").await,
        "true"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_compare('HTTP://a', 'http://a', ' Syntax ')"
        )
        .await,
        "true"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_is_valid('http://a/b c', 'leiri:LEIRI')").await,
        "true"
    );
    // A NULL grammar: NULL (strict).
    assert_eq!(one(&ctx, "SELECT iri_is_valid('a', NULL)").await, "NULL");
    assert_eq!(one(&ctx, "SELECT iri_is_valid(NULL)").await, "NULL");
}

#[tokio::test]
async fn option_errors() {
    let ctx = layouts().await;
    assert!(error(&ctx, "SELECT iri_is_valid(u8, 'urn') FROM t")
        .await
        .contains("unknown grammar"));
    assert!(
        error(&ctx, "SELECT iri_is_valid(u8, 'uri:no-such-rule') FROM t")
            .await
            .contains("no rule named")
    );
    assert!(error(&ctx, "SELECT iri_is_valid(u8, u8) FROM t")
        .await
        .contains("must be a constant"));
    assert!(error(&ctx, "SELECT iri_host(u8, 'iri:IRI') FROM t")
        .await
        .contains("without a rule"));
    assert!(error(&ctx, "SELECT iri_normalize(u8, 'fast') FROM t")
        .await
        .contains("unknown level"));
    assert!(error(&ctx, "SELECT iri_compare(u8, u8, 'fast') FROM t")
        .await
        .contains("unknown level"));
    // The 2001 draft's grammar has no references for the functions to read.
    assert!(error(&ctx, "SELECT iri_is_valid(u8, 'iri-2001') FROM t")
        .await
        .contains("unknown grammar"));
    // Wrong types are planning errors.
    error(&ctx, "SELECT iri_host(42)").await;
    error(&ctx, "SELECT iri_to_uri('a', 'yes-please')").await;
}

#[tokio::test]
async fn errors_as_structs() {
    let ctx = layouts().await;
    let r = same_on_layouts(
        &ctx,
        "iri_error(COL)['rule'], iri_error(COL)['byte_offset'], iri_error(COL)['char_offset'], \
         iri_error(COL)['found'], iri_error(COL, 'uri')['char_offset'], iri_error(COL, 'uri')['found']",
    )
    .await;
    assert_eq!(
        r[0][..4],
        ["NULL", "NULL", "NULL", "NULL"],
        "valid: no error"
    );
    // `http://user@résumé…`: in the URI grammar the é at char 13 fails.
    assert_eq!(r[0][4..], ["13", "é"]);
    assert_eq!(r[2][..4], ["isegment", "20", "20", " "]);
    assert_eq!(r[3], vec!["NULL"; 6]);
    // Non-ASCII before the failure: byte and character offsets differ.
    assert_eq!(
        rows(
            &ctx,
            "SELECT e['byte_offset'], e['char_offset'], e['rule'] FROM \
                    (SELECT iri_error('http://résumé.example.org/a b') AS e)"
        )
        .await,
        [["29", "27", "isegment"]]
    );
    let message = one(
        &ctx,
        "SELECT iri_error('http://example.org/a b')['message']",
    )
    .await;
    assert!(
        message.starts_with("at char 20 (U+0020 SPACE)"),
        "{message}"
    );
    let expected = one(
        &ctx,
        "SELECT iri_error('http://example.org/a b')['expected']",
    )
    .await;
    assert!(expected.contains("end of input"), "{expected}");
    let within = one(&ctx, "SELECT iri_error('http://example.org/a b')['within']").await;
    assert!(within.contains("ihier-part"), "{within}");
    // The input ended: found is NULL.
    assert_eq!(
        one(&ctx, "SELECT iri_error('http://[::1', 'iri')['found']").await,
        "NULL"
    );
    // The component it fails in, as `iri check` names it: the host where the rule is
    // dec-octet, the port where the library blames it; NULL outside the components.
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_error('http://[::1.2.3.256]/')['component']"
        )
        .await,
        "host"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_error('http://a:8x/')['component']").await,
        "port"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_error('http://a/')['component']").await,
        "NULL"
    );
    // Grouping by the rejecting rule, the use it is for.
    let g = rows(
        &ctx,
        "SELECT iri_error(u8)['rule'] AS rule, count(*) FROM t \
                        WHERE NOT iri_is_valid(u8) GROUP BY rule ORDER BY rule",
    )
    .await;
    assert_eq!(g, [["isegment", "2"]]);
}

#[tokio::test]
async fn components() {
    let ctx = layouts().await;
    let r = same_on_layouts(
        &ctx,
        "iri_scheme(COL), iri_authority(COL), iri_userinfo(COL), iri_host(COL), \
         iri_host_kind(COL), iri_port(COL), iri_path(COL), iri_query(COL), iri_fragment(COL)",
    )
    .await;
    assert_eq!(
        r[0],
        [
            "http",
            "user@résumé.example.org:8080",
            "user",
            "résumé.example.org",
            "reg-name",
            "8080",
            "/ros%C3%A9",
            "q=1",
            "f"
        ]
    );
    assert_eq!(
        r[1],
        [
            "HTTP",
            "www.Example.com:80",
            "NULL",
            "www.Example.com",
            "reg-name",
            "80",
            "",
            "NULL",
            "NULL"
        ]
    );
    // Invalid: NULL everywhere, even the path.
    assert_eq!(r[2], vec!["NULL"; 9]);
    assert_eq!(
        r[4],
        ["a", "NULL", "NULL", "NULL", "NULL", "NULL", "b", "NULL", "NULL"]
    );
    assert_eq!(
        r[5],
        ["NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "../g", "NULL", "NULL"]
    );
    assert_eq!(r[7][3..5], ["[::1]", "ipv6"]);
    // An empty query is '', an absent one NULL.
    assert_eq!(r[8][7], "");
    assert_eq!(r[10][3..5], ["納豆.example.org", "reg-name"]);
    // A LEIRI only in the LEIRI grammar.
    assert_eq!(
        one(&ctx, "SELECT iri_path('file:///my files/a<b>', 'leiri')").await,
        "/my files/a<b>"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_path('file:///my files/a<b>')").await,
        "NULL"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_host_kind('http://1.2.3.4/')").await,
        "ipv4"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_host_kind('http://[v1.x]/')").await,
        "ipvfuture"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_host_kind('mailto:a@b')").await,
        "NULL"
    );
    // The struct has the same components.
    let p = same_on_layouts(
        &ctx,
        "iri_parse(COL)['scheme'], iri_parse(COL)['authority'], iri_parse(COL)['userinfo'], \
         iri_parse(COL)['host'], iri_parse(COL)['host_kind'], iri_parse(COL)['port'], \
         iri_parse(COL)['path'], iri_parse(COL)['query'], iri_parse(COL)['fragment']",
    )
    .await;
    assert_eq!(p, r);
    assert_eq!(
        one(&ctx, "SELECT iri_parse('http://example.org/a b') IS NULL").await,
        "true"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_parse('http://a/') IS NULL").await,
        "false"
    );
}

#[tokio::test]
async fn components_are_views_of_the_input() {
    // Long components of a long input are views into the input's buffer; check
    // them against slices over many rows and both Utf8 and Utf8View inputs, with
    // the output of batches of several rows (the blocks are per batch).
    let ctx = ctx();
    let long: Vec<String> = (0..300)
        .map(|i| {
            format!("https://host-{i:04}.example.org/some/long/path/{i}?query-number-{i}#frag-{i}")
        })
        .collect();
    let values: Vec<Option<&str>> = long.iter().map(|s| Some(s.as_str())).collect();
    register_layouts(&ctx, "t", &values);
    for col in ["u8", "l", "v"] {
        let r = rows(
            &ctx,
            &format!(
                "SELECT iri_host({col}), iri_path({col}), iri_query({col}) FROM t ORDER BY id"
            ),
        )
        .await;
        for (i, row) in r.iter().enumerate() {
            assert_eq!(row[0], format!("host-{i:04}.example.org"));
            assert_eq!(row[1], format!("/some/long/path/{i}"));
            assert_eq!(row[2], format!("query-number-{i}"));
        }
    }
}

#[tokio::test]
async fn resolution() {
    let ctx = ctx();
    // RFC 3986 §5.4.1 and §5.4.2, some of them.
    for (r, target) in [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("./g", "http://a/b/c/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("", "http://a/b/c/d;p?q"),
        ("../../../g", "http://a/g"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("http:g", "http:g"),
        ("é/ü", "http://a/b/c/é/ü"),
    ] {
        let q = format!("SELECT iri_resolve('http://a/b/c/d;p?q', '{r}')");
        assert_eq!(one(&ctx, &q).await, target, "{r}");
    }
    // A base without a scheme (§5.1), an invalid base or reference, NULL: NULL.
    assert_eq!(one(&ctx, "SELECT iri_resolve('/a/b', 'c')").await, "NULL");
    assert_eq!(
        one(&ctx, "SELECT iri_resolve('http://a/ b', 'c')").await,
        "NULL"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_resolve('http://a/', 'c d')").await,
        "NULL"
    );
    assert_eq!(one(&ctx, "SELECT iri_resolve(NULL, 'c')").await, "NULL");
    assert_eq!(
        one(&ctx, "SELECT iri_resolve('http://a/', NULL)").await,
        "NULL"
    );
    // Relativization, the inverse.
    for (target, r) in [
        ("http://a/b/c/g", "g"),
        ("http://a/b/g", "../g"),
        ("http://a/b/c/d;p?q#s", "#s"),
        ("http://other/x", "//other/x"),
        ("ftp://a/b", "ftp://a/b"),
        ("http://a/b/c/résumé", "résumé"),
    ] {
        let q = format!("SELECT iri_relativize('http://a/b/c/d;p?q', '{target}')");
        assert_eq!(one(&ctx, &q).await, r, "{target}");
    }
    assert_eq!(
        one(&ctx, "SELECT iri_relativize('http://a/b', 'c')").await,
        "NULL"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_relativize('http://a/b', 'http://a/./c')").await,
        "NULL"
    );
    // Columns on both sides, each row with its own base.
    register_layouts(
        &ctx,
        "t",
        &[Some("http://a/b/c"), Some("http://x/y/"), None],
    );
    let r = rows(&ctx, "SELECT iri_resolve(u8, v) FROM t ORDER BY id").await;
    assert_eq!(column(&r), ["http://a/b/c", "http://x/y/", "NULL"]);
    let r = rows(&ctx, "SELECT iri_resolve(u8, '../z') FROM t ORDER BY id").await;
    assert_eq!(column(&r), ["http://a/z", "http://x/z", "NULL"]);
}

#[tokio::test]
async fn conversions() {
    let ctx = ctx();
    assert_eq!(
        one(&ctx, "SELECT iri_to_uri('http://résumé.example.org/rosé')").await,
        "http://r%C3%A9sum%C3%A9.example.org/ros%C3%A9"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_to_uri('http://résumé.example.org/rosé', true)"
        )
        .await,
        "http://xn--rsum-bpad.example.org/ros%C3%A9"
    );
    // IDNA rejects the host: NULL, the query goes on.
    assert_eq!(
        one(&ctx, "SELECT iri_to_uri('http://a\u{FF0F}b.c/x', true)").await,
        "NULL"
    );
    assert_eq!(one(&ctx, "SELECT iri_to_uri('http://a/ b')").await, "NULL");
    assert_eq!(one(&ctx, "SELECT iri_to_uri(NULL)").await, "NULL");
    assert_eq!(
        one(&ctx, "SELECT iri_to_uri('http://a/', NULL)").await,
        "NULL"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_to_iri('http://www.example.org/D%C3%BCrst')"
        )
        .await,
        "http://www.example.org/Dürst"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_to_iri('http://xn--99zt52a.example.org/%e2%80%ae', true)"
        )
        .await,
        "http://納豆.example.org/%E2%80%AE"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_to_iri('http://www.example.org/D%FCrst')").await,
        "http://www.example.org/D%FCrst"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_leiri_to_iri('http://a/b c/\u{E000}?\u{E000}')"
        )
        .await,
        "http://a/b%20c/%EE%80%80?\u{E000}"
    );
    // LEIRIs allow controls; they become percent-encodings.
    assert_eq!(
        one(&ctx, "SELECT iri_leiri_to_iri('http://a/b\u{7}')").await,
        "http://a/b%07"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_leiri_to_iri('http://[a/')").await,
        "NULL"
    );
}

#[tokio::test]
async fn normalization_and_comparison() {
    let ctx = ctx();
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_normalize('eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9')"
        )
        .await,
        "example://a/b/c/%7Bfoo%7D/rosé"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_normalize('HTTP://www.Example.com:80', 'scheme')"
        )
        .await,
        "http://www.example.com/"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_normalize('HTTP://www.Example.com:80', 'simple')"
        )
        .await,
        "HTTP://www.Example.com:80"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_normalize('http://RÉSUMÉ.example.org', 'scheme')"
        )
        .await,
        "http://résumé.example.org/"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_normalize('http://a/ b')").await,
        "NULL"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_normalize('http://a/', NULL)").await,
        "NULL"
    );
    // Three answers, three truth values.
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_compare('http://example.com', 'http://example.com:80/', 'scheme')"
        )
        .await,
        "true"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_compare('http://example.com', 'http://example.com:80/')"
        )
        .await,
        "false"
    );
    assert_eq!(one(&ctx, "SELECT iri_compare('http://résumé.example.org', 'HTTP://xn--rsum-bpad.example.org:80/', 'scheme')").await, "true");
    assert_eq!(
        one(&ctx, "SELECT iri_compare('a/b', 'a/b', 'syntax')").await,
        "NULL",
        "relative: unknown"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_compare('a/b', 'a/b', 'simple')").await,
        "true"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_compare('http://a/ b', 'http://a/ b')").await,
        "NULL",
        "invalid"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_compare(NULL, 'http://a/')").await,
        "NULL"
    );
    // Deduplication by normal form, the use it is for.
    register_layouts(
        &ctx,
        "t",
        &[
            Some("http://Example.com/a"),
            Some("http://example.com:80/a"),
            Some("HTTP://EXAMPLE.COM/./a"),
            Some("http://example.com/b"),
        ],
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT count(DISTINCT iri_normalize(v, 'scheme')) FROM t"
        )
        .await,
        "2"
    );
}

#[tokio::test]
async fn lint_and_prepare() {
    let ctx = ctx();
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_lint('http://user:pw@example.org/a/../\u{FB01}le')"
        )
        .await,
        "[password-in-userinfo, non-initial-dot-segment, compatibility-character]"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_lint('http://résumé.example.org/ros%C3%A9?q#f')"
        )
        .await,
        "[]"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_lint('file:///my files/a<b>')").await,
        "NULL"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_lint('file:///my files/a<b>', 'leiri')").await,
        "[leiri-space, leiri-delimiter, leiri-delimiter]"
    );
    assert_eq!(
        one(&ctx, "SELECT array_length(iri_lint('http://a/\u{202E}'))").await,
        "1"
    );
    assert_eq!(
        one(
            &ctx,
            "SELECT iri_prepare('  http://résumé.example.org/my file?q=<1>#a#b\n')"
        )
        .await,
        "http://xn--rsum-bpad.example.org/my%20file?q=%3C1%3E#a%23b"
    );
    assert_eq!(
        one(&ctx, "SELECT iri_prepare('docs/ünïcode 100%.txt')").await,
        "docs/ünïcode%20100%25.txt"
    );
    assert_eq!(one(&ctx, "SELECT iri_prepare('1http://x')").await, "NULL");
    assert_eq!(one(&ctx, "SELECT iri_prepare('   ')").await, "NULL");
    assert_eq!(one(&ctx, "SELECT iri_prepare(NULL)").await, "NULL");
}

/// The one row of `sql` as the examples write it: each value as Arrow shows it,
/// strings in single quotes, separated by commas.
async fn as_documented(ctx: &SessionContext, sql: &str) -> String {
    use datafusion::arrow::datatypes::DataType;
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let r = crate::common::batches_to_rows(&batches);
    assert_eq!(r.len(), 1, "{sql}: {r:?}");
    let schema = batches[0].schema();
    let types = schema.fields().iter().map(|f| f.data_type());
    r[0].iter()
        .zip(types)
        .map(|(v, t)| match t {
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => format!("'{v}'"),
            _ => v.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[tokio::test]
async fn functions_are_documented() {
    let ctx = ctx();
    let udfs = iri_grammar_datafusion::udf::udfs();
    assert!(udfs.len() >= 20);
    for f in &udfs {
        let doc = f
            .documentation()
            .unwrap_or_else(|| panic!("{} has no documentation", f.name()));
        let example = doc.sql_example.as_deref().unwrap();
        assert!(
            example.contains(f.name()),
            "{}'s example does not call it",
            f.name()
        );
        // Each example gives what it says after `--`.
        let example = example
            .trim_start_matches("```sql\n")
            .trim_end_matches("\n```");
        // The statement ends at its last ';' (`d;p` in a string is no end).
        let end = example.rfind(';').unwrap();
        let sql = example[..end].replace('\n', " ");
        let documented = example[end + 1..]
            .trim_start()
            .strip_prefix("--")
            .unwrap_or_else(|| panic!("{}'s example says no result after --", f.name()))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            as_documented(&ctx, &sql).await,
            documented,
            "{}'s example",
            f.name()
        );
    }
    let n = one(
        &ctx,
        "SELECT count(*) FROM information_schema.routines WHERE routine_name LIKE 'iri\\_%'",
    )
    .await;
    assert_eq!(n, udfs.len().to_string());
}
