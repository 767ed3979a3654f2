//! Normalization against other libraries' test vectors in
//! `../shared/corpus/vectors/normalize-*.tsv` (read in place, never copied). Runs when the
//! corpus is present, says so and passes when it is not, and fails when it is missing
//! with `CI=true`.
//!
//! Each source is run at the rung of our ladder that matches what its normalization does:
//! - iri-string: [`Level::Syntax`]. It does RFC 3986 §6.2.2 / RFC 3987 §5.3.2 (case,
//!   percent-encoding, dot segments) and keeps default ports (`http://…:80/` stays).
//! - uriparser (`uriNormalizeSyntax*`): [`Level::Syntax`]. Case, percent-encoding and
//!   dot segments; it keeps default ports (`:123`, `:80` stay). A `mask=` other than
//!   `all` normalizes one component only, so only that component is compared.
//! - python-rfc3986: [`Level::Syntax`]. Its normalizers are the §6.2.2 steps, one at a
//!   time: `remove_dot_segments` rows go through our `remove_dot_segments`; scheme,
//!   host and authority rows are wrapped (`X:`, `//X`) and that component compared; the
//!   hex-case-only step is not a whole normalization, so for it the check is that our
//!   normal form of its input equals our normal form of its output (the step keeps
//!   equivalence).
//! - uri-js: [`Level::Scheme`]. It also removes default ports (ws/wss) through scheme
//!   handlers. Its URI mode takes IRIs and writes URIs, so an input that is no URI is
//!   mapped first (RFC 3987 §3.1) and then normalized as a URI.
//!
//! Rows whose mode is library-specific (iri-string's
//! `preserve-authorityless-relative-path`) are skipped and counted. Where a source's
//! answer is not the RFCs', the row is in [`PINNED`] with our answer and the reason.

use iri_grammar::convert::ToUri;
use iri_grammar::normalize::{Comparison, Level, NormalizeOptions};
use iri_grammar::reference::{IriRef, UriRef};
use iri_grammar::resolve::remove_dot_segments;
use iri_grammar::{Component, Reference, Variant};

use crate::common;
use common::unescape;

fn corpus() -> Option<std::path::PathBuf> {
    common::corpus("vectors")
}

/// Our answer when the input is no reference of the variant.
const INVALID: &str = "<invalid>";

/// RFC 3986 §6.2.3: an empty port "should be removed by scheme-based normalization";
/// §6.2.3 also says normalization should not remove delimiters of empty components
/// unless the scheme licenses it.
const EMPTY_PORT: &str = "an empty port is removed by scheme-based normalization (RFC 3986 \
     §6.2.3), not by syntax-based (§6.2.2); Level::Scheme gives https://example.com/";
/// RFC 3986 §3.2.2: IP-literal = "[" ( IPv6address / IPvFuture ) "]", no `%`.
const ZONE_ID: &str = "no URI: RFC 3986 §3.2.2 IP-literal has no zone ID (RFC 6874's \
     \"%25\" ZoneID is outside RFC 3986/3987, and even there needs %25 and 1+ characters)";
/// RFC 3986 §3.2.2, §7.4.
const IPV4_ZEROS: &str = "192.068.001.000 does not match IPv4address (dec-octet has no leading \
     zeros), so it is a reg-name (RFC 3986 §3.2.2); reading the zeros away is a false positive \
     risk (§7.4: leading zeros can mean octal)";
/// RFC 3986 §6.2.2-6.2.3, RFC 3987 §5.3, RFC 5952 §4.
const IPV6_TEXT: &str = "RFC 3986 §6.2.2.1 only lowercases an IP-literal's hex digits; zero \
     suppression and :: compression are RFC 5952 §4's text form, not a step of RFC 3986 \
     §6.2.2-6.2.3 or RFC 3987 §5.3 (keeping them is a false negative, allowed by §6.1)";
/// RFC 3986 §3.2.2 ls32 / dec-octet.
const IPV6_DEC_OCTET: &str = "no URI: the IPv4 tail of an IPv6address is dec-octets without \
     leading zeros (RFC 3986 §3.2.2), so [1:2:3:4:5:6:192.068.001.000] is invalid";
/// RFC 3986 §6.2.3, §3.5; RFC 6455 §3.
const FRAGMENT: &str = "normalization keeps the fragment: no step of RFC 3986 §6.2.2-6.2.3 \
     removes one (RFC 6455 §3 forbids fragments in ws/wss URIs, it makes no equivalence); \
     comparing without fragments is NormalizeOptions::ignore_fragment. The default port is removed";
/// RFC 3986 §5.2, §6; the comparison draft §2.
const RELATIVE: &str = "a relative-path reference keeps its dot segments: RFC 3986 §6 \
     normalizes URIs and §5.2.4 runs on a merged absolute path; a reference's .. steps over \
     the base's segments (against http://a/b/c, abc/.. is http://a/b/ but the empty \
     reference is http://a/b/c), and references are resolved before comparing";
/// RFC 3986 §6.2.2, §3.2.3.
const PORT_ZEROS: &str = "syntax-based normalization (RFC 3986 §6.2.2) has no port rule; the \
     port's meaning is the scheme's (§3.2.3), so leading zeros stay at Level::Syntax";

/// RFC 3986 §6.2.2.1 and RFC 3987 §5.3.2.1.
const URI_HOST_CASE: &str = "a URI's host is case-insensitive whatever it holds (RFC 3986 \
     §6.2.2.1: normalized to lowercase); RFC 3987 §5.3.2.1 keeps the case of a host beyond \
     US-ASCII only for IRIs, which the source applies to URIs too";

/// Rows where the source's answer is not the one the RFCs support: (file, how the row
/// is run (see [`label`]), input as run, our answer, why). Our answer is the whole
/// normal form (also for rows that compare one component), or [`INVALID`].
const PINNED: &[(&str, &str, &str, &str, &str)] = &[
    (
        "normalize-iri-string.tsv",
        "uri",
        "SCHEME://Alpha%ce%b1/",
        "scheme://alpha%CE%B1/",
        URI_HOST_CASE,
    ),
    (
        "normalize-iri-string.tsv",
        "uri",
        "https://example.com:/",
        "https://example.com:/",
        EMPTY_PORT,
    ),
    (
        "normalize-iri-string.tsv",
        "iri",
        "https://example.com:/",
        "https://example.com:/",
        EMPTY_PORT,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri authority",
        "//[::1%eth0]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri host",
        "//[::1%eth0]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri host",
        "//[::1%25]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri host",
        "//[::1%%25]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri host",
        "//[::1%25%25]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri host",
        "//[::Af%Ff]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri host",
        "//[::Af%%Ff]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-python-rfc3986.tsv",
        "uri host",
        "//[::Af%25Ff]",
        INVALID,
        ZONE_ID,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//192.068.001.000",
        "//192.068.001.000",
        IPV4_ZEROS,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//[2001:0db8::0001]/",
        "//[2001:0db8::0001]/",
        IPV6_TEXT,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//[2001:db8::1:0000:1]/",
        "//[2001:db8::1:0000:1]/",
        IPV6_TEXT,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//[2001:db8:0:0:0:0:2:1]/",
        "//[2001:db8:0:0:0:0:2:1]/",
        IPV6_TEXT,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//[2001:0:0:1:0:0:0:1]/",
        "//[2001:0:0:1:0:0:0:1]/",
        IPV6_TEXT,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//[2001:db8:0:0:1:0:0:1]/",
        "//[2001:db8:0:0:1:0:0:1]/",
        IPV6_TEXT,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//[0:0:0:0:0:ffff:192.0.2.1]/",
        "//[0:0:0:0:0:ffff:192.0.2.1]/",
        IPV6_TEXT,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "//[1:2:3:4:5:6:192.068.001.000]/",
        INVALID,
        IPV6_DEC_OCTET,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "ws://example.com:80/foo#hash",
        "ws://example.com/foo#hash",
        FRAGMENT,
    ),
    (
        "normalize-uri-js.tsv",
        "uri",
        "wss://example.com:443/foo#hash",
        "wss://example.com/foo#hash",
        FRAGMENT,
    ),
    (
        "normalize-uriparser.tsv",
        "uri",
        "../../abc/..",
        "../../abc/..",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri",
        "../../abc/../def",
        "../../abc/../def",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri",
        "abc/..",
        "abc/..",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri",
        "abc/../",
        "abc/../",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri",
        "../../abc/./def",
        "../../abc/./def",
        RELATIVE,
    ),
    ("normalize-uriparser.tsv", "uri", "./def", "./def", RELATIVE),
    ("normalize-uriparser.tsv", "uri", "def/.", "def/.", RELATIVE),
    (
        "normalize-uriparser.tsv",
        "uri",
        "a/b/../../c",
        "a/b/../../c",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri",
        "a/b/././c",
        "a/b/././c",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri",
        "a/b/../c/././d",
        "a/b/../c/././d",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri path",
        "a/b/c/../../..",
        "a/b/c/../../..",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri path",
        "a/b/../../c/..",
        "a/b/../../c/..",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri path",
        "./foo/bar",
        "./foo/bar",
        RELATIVE,
    ),
    (
        "normalize-uriparser.tsv",
        "uri port",
        "HTTP://EXAMPLE.ORG:00080/",
        "http://example.org:00080/",
        PORT_ZEROS,
    ),
    (
        "normalize-uriparser.tsv",
        "uri port",
        "scheme://host:00/",
        "scheme://host:00/",
        PORT_ZEROS,
    ),
    (
        "normalize-uriparser.tsv",
        "uri port",
        "scheme://host:00080/",
        "scheme://host:00080/",
        PORT_ZEROS,
    ),
];

/// A component of a reference, for rows that compare one.
fn part<V: Variant>(r: &Reference<'_, V>, p: Component) -> Option<String> {
    r.get(p).map(str::to_string)
}

/// What a row checks.
#[derive(Debug, Clone, Copy)]
enum Check {
    /// The whole normal form equals the expected string.
    Whole,
    /// One component of the normal form equals that component of the expected string.
    Component(Component),
    /// Our normal form of the input equals our normal form of the expected string.
    Equivalent,
}

/// How a row is run.
#[derive(Debug, Clone, Copy)]
enum Run {
    Skip,
    Dots,
    Uri(Level, Check),
    Iri(Level, Check),
}

/// How a row is run, for [`PINNED`]: `dots`, or the variant, then the component compared.
fn label(run: Run) -> String {
    let (v, check) = match run {
        Run::Skip => return "skip".to_string(),
        Run::Dots => return "dots".to_string(),
        Run::Uri(_, c) => ("uri", c),
        Run::Iri(_, c) => ("iri", c),
    };
    match check {
        Check::Whole => v.to_string(),
        Check::Component(p) => format!("{v} {}", format!("{p:?}").to_lowercase()),
        Check::Equivalent => format!("{v} equivalent"),
    }
}

fn tag<'a>(source: &'a str, key: &str) -> Option<&'a str> {
    source
        .split(';')
        .find_map(|t| t.strip_prefix(key)?.strip_prefix('='))
}

fn mask_part(mask: &str) -> Option<Component> {
    Some(match mask {
        "all" => return None,
        "URI_NORMALIZE_SCHEME" => Component::Scheme,
        "URI_NORMALIZE_USER_INFO" => Component::Userinfo,
        "URI_NORMALIZE_HOST" => Component::Host,
        "URI_NORMALIZE_PORT" => Component::Port,
        "URI_NORMALIZE_PATH" => Component::Path,
        "URI_NORMALIZE_QUERY" => Component::Query,
        "URI_NORMALIZE_FRAGMENT" => Component::Fragment,
        other => panic!("unknown uriparser mask {other}"),
    })
}

/// The run of a row, and the input as it is given to the run (python-rfc3986's
/// component rows are wrapped into a reference).
fn plan(file: &str, input: &str, expected: &str, source: &str) -> (Run, String, String) {
    let same = |run| (run, input.to_string(), expected.to_string());
    if file.contains("python-rfc3986") {
        let op = tag(source, "op").expect("python-rfc3986 rows have op=");
        let level = Level::Syntax;
        return match op {
            "remove_dot_segments(path-only)" => same(Run::Dots),
            "normalize_scheme" => (
                Run::Uri(level, Check::Component(Component::Scheme)),
                format!("{input}:"),
                format!("{expected}:"),
            ),
            "normalize_host(host-only)" => (
                Run::Uri(level, Check::Component(Component::Host)),
                format!("//{input}"),
                format!("//{expected}"),
            ),
            "normalize(authority-only)" => (
                Run::Uri(level, Check::Component(Component::Authority)),
                format!("//{input}"),
                format!("//{expected}"),
            ),
            "normalize_percent_characters(uppercase-hex-only)" => {
                same(Run::Uri(level, Check::Equivalent))
            }
            other => panic!("unknown python-rfc3986 op {other}"),
        };
    }
    let level = if file.contains("uri-js") {
        Level::Scheme
    } else {
        Level::Syntax
    };
    let check = match tag(source, "mask").and_then(mask_part) {
        Some(p) => Check::Component(p),
        None => Check::Whole,
    };
    match tag(source, "mode") {
        Some("uri") => same(Run::Uri(level, check)),
        Some("iri") => same(Run::Iri(level, check)),
        Some(m) if m.contains("specific") => same(Run::Skip),
        other => panic!("{file}: unknown mode {other:?} in {source}"),
    }
}

/// Our normal form of `text` as a `V` reference, with its component `p` (when asked).
fn ours<V: Variant>(text: &str, level: Level, p: Option<Component>) -> (String, Option<String>) {
    match Reference::<V>::parse(text) {
        Ok(r) => match r.normalize_with(level, NormalizeOptions::default()) {
            Ok(n) => {
                let c = p.and_then(|p| part(&n, p));
                (n.to_string(), c)
            }
            Err(e) => (format!("<error: {e}>"), None),
        },
        Err(_) => (INVALID.to_string(), None),
    }
}

/// A URI row's input: the input, or, when it is an IRI but no URI (uri-js's URI mode
/// takes IRIs), the URI it maps to (RFC 3987 §3.1).
fn as_uri(text: &str) -> String {
    if UriRef::parse(text).is_ok() {
        return text.to_string();
    }
    match IriRef::parse(text) {
        Ok(i) => i
            .to_uri_with(ToUri::default())
            .map(|u| u.to_string())
            .unwrap_or_else(|_| text.to_string()),
        Err(_) => text.to_string(),
    }
}

/// Our answer to a row, and whether it agrees with the source.
fn answer(run: Run, input: &str, expected: &str) -> (String, bool) {
    fn variant<V: Variant>(
        level: Level,
        check: Check,
        input: &str,
        expected: &str,
    ) -> (String, bool) {
        match check {
            Check::Whole => {
                let (got, _) = ours::<V>(input, level, None);
                let ok = got == expected;
                (got, ok)
            }
            Check::Component(p) => {
                let (got, c) = ours::<V>(input, level, Some(p));
                let want = Reference::<V>::parse(expected)
                    .ok()
                    .and_then(|e| part(&e, p));
                let ok = c.is_some() && c == want;
                (got, ok)
            }
            Check::Equivalent => {
                let (got, _) = ours::<V>(input, level, None);
                let (want, _) = ours::<V>(expected, level, None);
                let ok = got != INVALID && got == want;
                (got, ok)
            }
        }
    }
    match run {
        Run::Skip => unreachable!(),
        Run::Dots => {
            let got = remove_dot_segments(input);
            let ok = got == expected;
            (got, ok)
        }
        Run::Uri(level, check) => {
            let (input, expected) = (as_uri(input), as_uri(expected));
            variant::<iri_grammar::Uri>(level, check, &input, &expected)
        }
        Run::Iri(level, check) => variant::<iri_grammar::Iri>(level, check, input, expected),
    }
}

#[test]
fn normalization_vectors() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("normalize-") && n.ends_with(".tsv")
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no normalize-*.tsv in {}", dir.display());
    let mut failures = Vec::new();
    let mut used = vec![false; PINNED.len()];
    let (mut all_rows, mut all_agree, mut all_pinned, mut all_skipped) = (0, 0, 0, 0);
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut rows, mut agree, mut pinned, mut skipped) = (0, 0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 3, "{file}: not 3 columns: {line:?}");
            let (input, expected, source) = (unescape(cols[0]), unescape(cols[1]), cols[2]);
            rows += 1;
            let (run, input, expected) = plan(&file, &input, &expected, source);
            if let Run::Skip = run {
                skipped += 1;
                continue;
            }
            let (got, ok) = answer(run, &input, &expected);
            let how = label(run);
            let pin = PINNED
                .iter()
                .position(|(f, h, i, _, _)| *f == file && *h == how && *i == input);
            match pin {
                Some(k) => {
                    used[k] = true;
                    let (_, _, _, rfc, _) = PINNED[k];
                    if ok {
                        failures.push(format!(
                            "{file}\t{how}\t{input}\tpinned but now agrees with the source ({got})"
                        ));
                    } else if got != rfc {
                        failures.push(format!(
                            "{file}\t{how}\t{input}\tpinned answer {rfc:?}, got {got:?}"
                        ));
                    } else {
                        pinned += 1;
                    }
                }
                None if ok => agree += 1,
                None => failures.push(format!(
                    "{file}\t{how}\t{input}\twant {expected:?}\tgot {got:?}\t{source}"
                )),
            }
        }
        eprintln!("{file}: rows {rows}, agree {agree}, pinned {pinned}, skipped {skipped}");
        all_rows += rows;
        all_agree += agree;
        all_pinned += pinned;
        all_skipped += skipped;
    }
    eprintln!(
        "all: rows {all_rows}, agree {all_agree}, pinned {all_pinned}, skipped {all_skipped}"
    );
    for (k, u) in used.iter().enumerate() {
        if !u {
            failures.push(format!("pinned row not in the corpus: {:?}", PINNED[k]));
        }
    }
    assert!(
        failures.is_empty(),
        "{} normalization rows disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What the reasons in [`PINNED`] say of our other rungs and of resolution.
#[test]
fn pinned_reasons_hold() {
    let scheme = |s: &str| {
        let r = UriRef::parse(s).unwrap();
        r.normalize_with(Level::Scheme, NormalizeOptions::default())
            .unwrap()
            .to_string()
    };
    // EMPTY_PORT: the scheme rung removes it.
    assert_eq!(scheme("https://example.com:/"), "https://example.com/");
    // FRAGMENT: the default port goes, the fragment stays; comparison can ignore it.
    assert_eq!(
        scheme("ws://example.com:80/foo#hash"),
        "ws://example.com/foo#hash"
    );
    let a = UriRef::parse("ws://example.com:80/foo#hash").unwrap();
    let b = UriRef::parse("ws://example.com/foo").unwrap();
    let ignore = NormalizeOptions {
        ignore_fragment: true,
        ..NormalizeOptions::default()
    };
    assert_eq!(
        a.compare_with(&b, Level::Scheme, ignore),
        Comparison::Equivalent
    );
    assert_eq!(
        a.compare_with(&b, Level::Scheme, NormalizeOptions::default()),
        Comparison::Different
    );
    // RELATIVE: removing the dot segments of a relative path changes its target.
    let base = UriRef::parse("http://a/b/c").unwrap();
    let target = |r: &str| {
        UriRef::parse(r)
            .unwrap()
            .resolve(&base)
            .unwrap()
            .to_string()
    };
    assert_eq!(target("abc/.."), "http://a/b/");
    assert_eq!(target(""), "http://a/b/c");
}
