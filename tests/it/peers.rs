//! The differential test against the peers: oxiri 0.3, fluent-uri 0.4 and
//! iri-string 0.7, on mutated corpus URLs and strings generated from the ABNF.
//!
//! For every case it compares, with each peer that has the operation:
//! - validity as an RFC 3986 `URI-reference` (iri-string `UriReferenceStr`,
//!   fluent-uri `UriRef`; oxiri has no URI grammar);
//! - validity as an RFC 3987 `IRI-reference` (oxiri `IriRef`, iri-string
//!   `IriReferenceStr`, fluent-uri `IriRef`);
//! - the components of a valid IRI reference: scheme, authority, userinfo, host,
//!   port, path, query, fragment (oxiri has no userinfo/host/port accessors);
//! - resolution (RFC 3986 §5.2, which RFC 3987 §6.5 applies to IRIs) against an
//!   absolute base without fragment: a fixed set of bases that exercise the
//!   algorithm's corners, and earlier absolute cases.
//!
//! Cases: lines of `../shared/corpus/urls/*.txt` and the first columns of
//! `vectors/*.tsv` (read at run time; without the corpus the test says so and works
//! on generated strings only, unless `CI=true`, where it fails), each used as it is,
//! mutated (`Generator::mutate`: one to three edits with the characters the grammar's
//! ranges make interesting), cut into a relative reference, spliced with another
//! line, or given a piece that matters to resolution (`%2E%2E`, `..`, `//`, `[::1]`,
//! ...); and strings generated from `IRI-reference`, as they are or mutated. Seeded:
//! the same `IRI_PEER_SEED` gives the same cases.
//!
//! A disagreement must be one of the documented deviations of [`DEVIATIONS`], each
//! recognized by reproducing the peer's answer from our own with the rule the peer
//! documents (never by matching the input's text), and each decided by a section of
//! RFC 3986 that says which answer is right. Every other disagreement fails the test.
//! The counts per deviation are printed (`-- --nocapture`) and recorded in
//! `tests/CONFORMANCE.md`.
//!
//! `cargo test` runs 100,000 cases (about 12 s in debug). The long mode:
//!
//! ```sh
//! IRI_PEER_CASES=10000000 nice cargo test --release -p iri-grammar --test it peers -- --nocapture
//! ```

use iri_grammar::{IriRef, UriRef};
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Grammars, VariantName};
use iri_string::format::ToDedicatedString;
use iri_string::types::{IriAbsoluteStr, IriReferenceStr, UriReferenceStr};
use std::collections::BTreeMap;
use std::time::Instant;

use crate::common;

/// The three peers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Peer {
    Oxiri,
    FluentUri,
    IriString,
}

impl Peer {
    fn name(self) -> &'static str {
        match self {
            Peer::Oxiri => "oxiri 0.3",
            Peer::FluentUri => "fluent-uri 0.4",
            Peer::IriString => "iri-string 0.7",
        }
    }
}

/// What is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    UriValidity,
    IriValidity,
    Components,
    Resolution,
}

/// One disagreement: the input(s), our answer, the peer's.
struct Case<'a> {
    base: &'a str,
    input: &'a str,
    ours: Option<&'a str>,
    theirs: Option<&'a str>,
}

/// A documented deviation of a peer: which peer and comparison, what the peer does,
/// the section of RFC 3986 that decides (and which answer it gives), and how the
/// peer's answer is reproduced from ours.
struct Deviation {
    id: &'static str,
    peer: Peer,
    kind: Kind,
    what: &'static str,
    rfc: &'static str,
    explains: fn(&Case<'_>) -> bool,
}

/// The peers' documented deviations, each confirmed by running (see the counts in
/// `tests/CONFORMANCE.md`). Validity and components: none (the four parsers agree
/// on every case); resolution: these.
const DEVIATIONS: &[Deviation] = &[
    Deviation {
        id: "pct-dot-segments",
        peer: Peer::IriString,
        kind: Kind::Resolution,
        what: "treats a segment of percent-encoded dots (%2E, %2e, .%2E, %2E%2E) as a \
               dot segment and removes it",
        rfc: "RFC 3986 §5.2.4 removes only the literal segments \".\" and \"..\"; decoding \
              %2E to \".\" is normalization (§2.3, §6.2.2.2-3), not resolution: ours",
        explains: |c| with_peer_rules(c, true, false),
    },
    Deviation {
        id: "pct-dot-segments",
        peer: Peer::FluentUri,
        kind: Kind::Resolution,
        what: "treats a segment of percent-encoded dots as a dot segment (its documented \
               deviation \"percent-encoded dot segments are also removed\")",
        rfc: "RFC 3986 §5.2.4 removes only the literal segments \".\" and \"..\": ours",
        explains: |c| with_peer_rules(c, true, false),
    },
    Deviation {
        id: "base-dot-segments",
        peer: Peer::FluentUri,
        kind: Kind::Resolution,
        what: "removes the dot segments of the base's path before merging (documented: a \
               \"/\" is appended to a base ending in \"..\", and an empty reference gets \
               the base's path without dot segments), with or without %2E segments",
        rfc: "RFC 3986 §5.2.2-5.2.3 use the base's path as it is; §5.2.1 makes \
              normalizing the base (which removes dot segments, §6.2.2.3) optional: \
              both answers are allowed, ours is the algorithm as written",
        explains: |c| with_peer_rules(c, false, true) || with_peer_rules(c, true, true),
    },
    Deviation {
        id: "opaque-base",
        peer: Peer::FluentUri,
        kind: Kind::Resolution,
        what: "refuses a relative reference (other than \"\" and \"#...\") against a base \
               with no authority and a rootless or empty path, such as \"urn:x:y\"",
        rfc: "RFC 3986 §5.2.2 resolves against any absolute base, and §5.2.3 defines the \
              merge for a base without authority (\"foo:a/b\" + \"../c\" is \"foo:/c\"): ours",
        explains: |c| {
            let (Ok(b), Ok(r)) = (IriRef::parse(c.base), IriRef::parse(c.input)) else {
                return false;
            };
            c.theirs.is_none()
                && b.authority().is_none()
                && !b.path().starts_with('/')
                && r.is_relative()
                && !c.input.is_empty()
                && !c.input.starts_with('#')
        },
    },
    Deviation {
        id: "rootless-dot-segments",
        peer: Peer::FluentUri,
        kind: Kind::Resolution,
        what: "leaves the dot segments of a reference with a scheme and a rootless path \
               as they are (\"s:a/../b\" stays \"s:a/../b\"); not among its documented \
               deviations",
        rfc: "RFC 3986 §5.2.2: when R has a scheme, T.path = remove_dot_segments(R.path), \
              whatever the path; §5.2.4 step C then gives \"s:/b\": ours, the algorithm as \
              written",
        explains: |c| {
            let Ok(r) = IriRef::parse(c.input) else {
                return false;
            };
            r.is_absolute() && !r.path().starts_with('/') && c.theirs == Some(c.input)
        },
    },
    Deviation {
        id: "path-starting-with-two-slashes",
        peer: Peer::Oxiri,
        kind: Kind::Resolution,
        what: "refuses a result without authority whose path starts with \"//\" \
               (\"f:/a\" + \".//g\"), where ours writes the path as \"/.//g\"",
        rfc: "RFC 3986 §5.2.4 gives the path \"//g\", and §3.3 forbids a path starting \
              with \"//\" without an authority (recomposed as in §5.3, \"f://g\" would have \
              the authority \"g\"); \"/.//g\" is the same path after remove_dot_segments, \
              what fluent-uri and iri-string write too: ours keeps the result valid",
        explains: |c| {
            let Some(ours) = c.ours.and_then(|o| IriRef::parse(o).ok()) else {
                return false;
            };
            c.theirs.is_none() && ours.authority().is_none() && ours.path().starts_with("/.//")
        },
    },
];

/// Whether the peer's answer is ours after the peer's documented rules: segments of
/// percent-encoded dots decoded to dots (`pct_dots`, in the reference's and the
/// base's paths), and the base's path freed of dot segments (`base_dots`).
fn with_peer_rules(c: &Case<'_>, pct_dots: bool, base_dots: bool) -> bool {
    let Some(theirs) = c.theirs else {
        return false;
    };
    let (Ok(b), Ok(r)) = (IriRef::parse(c.base), IriRef::parse(c.input)) else {
        return false;
    };
    let rewrite = |path: &str, is_base: bool| {
        let mut p = if pct_dots {
            decode_dot_segments(path)
        } else {
            path.to_string()
        };
        if is_base && base_dots && p.split('/').any(|s| s == "." || s == "..") {
            // fluent-uri: a base ending in ".." is read with a "/" after it.
            if p.ends_with("/..") || p == ".." {
                p.push('/');
            }
            p = iri_grammar::resolve::remove_dot_segments(&p);
            // Without an authority a path cannot start with "//" (RFC 3986 §3.3):
            // "/." in front, as fluent-uri (and our resolution) write it.
            if b.authority().is_none() && p.starts_with("//") {
                p.insert_str(0, "/.");
            }
        }
        p
    };
    let base = replace_path(c.base, &b, &rewrite(b.path(), true));
    let reference = replace_path(c.input, &r, &rewrite(r.path(), false));
    let (Ok(b2), Ok(r2)) = (IriRef::parse(&base), IriRef::parse(&reference)) else {
        return false;
    };
    r2.resolve(&b2).is_ok_and(|t| t == theirs)
}

/// A path with every segment made only of "." and `%2E` (either case) written with
/// literal dots.
fn decode_dot_segments(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            let literal = seg.replace("%2E", ".").replace("%2e", ".");
            if literal == "." || literal == ".." {
                literal
            } else {
                seg.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// `text` with its path replaced.
fn replace_path(text: &str, r: &IriRef<'_>, path: &str) -> String {
    let span = r
        .span(iri_grammar::reference::Component::Path)
        .expect("a path");
    format!("{}{path}{}", &text[..span.start], &text[span.end..])
}

/// Bases that exercise the corners of §5.2: the RFC's own, a path-absolute base
/// without authority, rootless and empty paths, an empty path with an authority,
/// dot segments in the base, percent-encoded dots in the base.
const BASES: &[&str] = &[
    "http://a/b/c/d;p?q",
    "f:/a",
    "foo:a/b",
    "urn:x:y",
    "a:",
    "http://a",
    "file:///",
    "a://b/c/..",
    "foo:/bar/baz/.%2E/",
    "http://résumé.example/ö/ü?ä",
];

/// Pieces that matter to resolution and to the grammar.
const PIECES: &[&str] = &[
    "%2E%2E",
    "%2e",
    ".%2E",
    "..",
    ".",
    "/./",
    "/../",
    "//",
    ":",
    "@",
    "[::1]",
    "[v1.x]",
    "?",
    "#",
    "%",
    "%zz",
    " ",
    "\u{202E}",
    "é",
    "\u{E000}",
    "\u{FFFF}",
    "\u{10FFFD}",
    ":80",
    "%41",
    "\\",
    "|",
    "[",
    "]",
    "1.2.3.4",
    "%00",
];

/// Seeds used when the corpus is absent.
const BUILTIN: &[&str] = &[
    "http://a/b/c/d;p?q",
    "https://user:pw@example.org:8080/a/b/../c/./d?x=1#y",
    "ftp://[2001:db8::7]/c=GB?objectClass?one",
    "http://résumé.example.org/ros%C3%A9?q=café#été",
    "urn:isbn:0451450523",
    "../../g;x?y#s",
    "//cdn.example.net/lib/v1.2.3/x.js",
    "mailto:John.Doe@example.com",
    "file:///home/user/report%202024.pdf",
];

/// splitmix64: the test's own choices.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn below(rng: &mut u64, n: usize) -> usize {
    (splitmix(rng) % n.max(1) as u64) as usize
}

/// A character boundary of `s`, uniformly among them.
fn boundary(rng: &mut u64, s: &str) -> usize {
    let n = s.chars().count();
    s.char_indices()
        .map(|(k, _)| k)
        .nth(below(rng, n + 1))
        .unwrap_or(s.len())
}

/// The corpus lines (URLs, and the first columns of the vectors), or the built-in
/// seeds without the corpus.
fn lines() -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(urls) = common::corpus("urls") {
        let mut files: Vec<_> = std::fs::read_dir(&urls)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "txt")
                    && !p.to_string_lossy().contains("LICENSE")
            })
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            lines.extend(
                text.lines()
                    .map(|l| l.trim_start_matches('\u{FEFF}').to_string()),
            );
        }
    }
    if let Some(vectors) = common::corpus("vectors") {
        let mut files: Vec<_> = std::fs::read_dir(&vectors)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            for l in text.lines().filter(|l| !l.starts_with('#')) {
                let cols: Vec<&str> = l.split('\t').collect();
                // The data columns (the last is the source).
                for c in cols.iter().take(cols.len().saturating_sub(1)).take(3) {
                    lines.push(common::unescape(c));
                }
            }
        }
    }
    if lines.is_empty() {
        lines.extend(BUILTIN.iter().map(|s| s.to_string()));
    }
    lines
}

/// The next case: a corpus line as it is, mutated, cut into a relative reference,
/// spliced with another, or given a piece; or a generated `IRI-reference`.
fn next_case(rng: &mut u64, gen: &mut Generator<'_>, lines: &[String]) -> String {
    let pick = |rng: &mut u64| lines[below(rng, lines.len())].clone();
    let mut s = pick(rng);
    match below(rng, 10) {
        0 => {}
        1..=3 => s = gen.mutate(&s),
        4 | 5 => {
            let cuts: Vec<usize> = s
                .char_indices()
                .filter(|&(_, c)| "/?#".contains(c))
                .map(|(k, _)| k)
                .collect();
            if !cuts.is_empty() {
                let k = cuts[below(rng, cuts.len())];
                let skip = usize::from(below(rng, 2) == 0 && s[k..].starts_with('/'));
                s = s[k + skip..].to_string();
                match below(rng, 4) {
                    0 => s.insert_str(0, "../"),
                    1 => s.insert_str(0, "./"),
                    _ => {}
                }
            }
            if below(rng, 2) == 0 {
                s = gen.mutate(&s);
            }
        }
        6 => {
            let t = pick(rng);
            let (a, b) = (boundary(rng, &s), boundary(rng, &t));
            s = format!("{}{}", &s[..a], &t[b..]);
        }
        7 => {
            let piece = PIECES[below(rng, PIECES.len())];
            let at = boundary(rng, &s);
            s.insert_str(at, piece);
        }
        8 => s = gen.generate("IRI-reference").expect("a rule"),
        _ => {
            let g = gen.generate("IRI-reference").expect("a rule");
            s = gen.mutate(&g);
        }
    }
    s
}

/// Components as text: scheme, authority, userinfo, host, port, path, query,
/// fragment (`None` for what the peer cannot say, filled from ours).
type Parts = [Option<String>; 8];

fn parts_of(values: [Option<&str>; 8]) -> Parts {
    values.map(|v| v.map(str::to_string))
}

/// Tallies and the first examples of each disagreement.
#[derive(Default)]
struct Report {
    /// (kind, peer, deviation id or "UNEXPLAINED") -> count.
    counts: BTreeMap<(Kind, Peer, &'static str), u64>,
    unexplained: Vec<String>,
    compared: BTreeMap<(Kind, Peer), u64>,
}

impl Report {
    fn compared(&mut self, kind: Kind, peer: Peer) {
        *self.compared.entry((kind, peer)).or_default() += 1;
    }

    fn disagree(&mut self, kind: Kind, peer: Peer, c: &Case<'_>) {
        let id = DEVIATIONS
            .iter()
            .find(|d| d.peer == peer && d.kind == kind && (d.explains)(c))
            .map_or("UNEXPLAINED", |d| d.id);
        *self.counts.entry((kind, peer, id)).or_default() += 1;
        if id == "UNEXPLAINED" && self.unexplained.len() < 40 {
            self.unexplained.push(format!(
                "{kind:?} {}: base {:?}, input {:?}: ours {:?}, theirs {:?}",
                peer.name(),
                c.base,
                c.input,
                c.ours,
                c.theirs
            ));
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    Some(
        v.trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a whole number, not {v:?}")),
    )
}

/// Compares one case with every peer.
fn compare_one(s: &str, base: &str, report: &mut Report) -> bool {
    let verdict = |b: bool| b.then_some("valid");
    // Validity under RFC 3986.
    let ours_uri = UriRef::parse(s).is_ok();
    for (peer, theirs) in [
        (Peer::IriString, UriReferenceStr::new(s).is_ok()),
        (Peer::FluentUri, fluent_uri::UriRef::parse(s).is_ok()),
    ] {
        report.compared(Kind::UriValidity, peer);
        if theirs != ours_uri {
            let c = Case {
                base: "",
                input: s,
                ours: verdict(ours_uri),
                theirs: verdict(theirs),
            };
            report.disagree(Kind::UriValidity, peer, &c);
        }
    }
    // Validity under RFC 3987.
    let ours = IriRef::parse(s);
    let ox = oxiri::IriRef::parse(s);
    let is = IriReferenceStr::new(s);
    let fl = fluent_uri::IriRef::parse(s);
    for (peer, theirs) in [
        (Peer::Oxiri, ox.is_ok()),
        (Peer::IriString, is.is_ok()),
        (Peer::FluentUri, fl.is_ok()),
    ] {
        report.compared(Kind::IriValidity, peer);
        if theirs != ours.is_ok() {
            let c = Case {
                base: "",
                input: s,
                ours: verdict(ours.is_ok()),
                theirs: verdict(theirs),
            };
            report.disagree(Kind::IriValidity, peer, &c);
        }
    }
    let Ok(r) = ours else {
        return false;
    };
    // Components.
    let mine = parts_of([
        r.scheme(),
        r.authority(),
        r.userinfo(),
        r.host(),
        r.port(),
        Some(r.path()),
        r.query(),
        r.fragment(),
    ]);
    let mut theirs: Vec<(Peer, Parts)> = Vec::new();
    if let Ok(x) = &ox {
        theirs.push((
            Peer::Oxiri,
            parts_of([
                x.scheme(),
                x.authority(),
                r.userinfo(),
                r.host(),
                r.port(),
                Some(x.path()),
                x.query(),
                x.fragment(),
            ]),
        ));
    }
    if let Ok(x) = &is {
        let a = x.authority_components();
        theirs.push((
            Peer::IriString,
            parts_of([
                x.scheme_str(),
                x.authority_str(),
                a.as_ref().and_then(|a| a.userinfo()),
                a.as_ref().map(|a| a.host()),
                a.as_ref().and_then(|a| a.port()),
                Some(x.path_str()),
                x.query_str(),
                x.fragment_str(),
            ]),
        ));
    }
    if let Ok(x) = &fl {
        let a = x.authority();
        theirs.push((
            Peer::FluentUri,
            parts_of([
                x.scheme().map(|v| v.as_str()),
                a.map(|a| a.as_str()),
                a.and_then(|a| a.userinfo()).map(|v| v.as_str()),
                a.map(|a| a.host()),
                a.and_then(|a| a.port()).map(|v| v.as_str()),
                Some(x.path().as_str()),
                x.query().map(|v| v.as_str()),
                x.fragment().map(|v| v.as_str()),
            ]),
        ));
    }
    for (peer, p) in &theirs {
        report.compared(Kind::Components, *peer);
        if *p != mine {
            let (o, t) = (format!("{mine:?}"), format!("{p:?}"));
            let c = Case {
                base: "",
                input: s,
                ours: Some(&o),
                theirs: Some(&t),
            };
            report.disagree(Kind::Components, *peer, &c);
        }
    }
    // Resolution against an absolute base without fragment.
    let b = IriRef::parse(base).expect("bases are absolute IRIs");
    let ours_t = r.resolve(&b).ok().map(String::from);
    let mut resolved: Vec<(Peer, Option<String>)> = Vec::new();
    if let (Ok(pb), Ok(x)) = (oxiri::Iri::parse(base), &ox) {
        resolved.push((Peer::Oxiri, pb.resolve(x).ok().map(|t| t.into_inner())));
    }
    if let (Ok(pb), Ok(x)) = (IriAbsoluteStr::new(base), &is) {
        let t = x.resolve_against(pb).try_to_dedicated_string().ok();
        resolved.push((Peer::IriString, t.map(|t| t.to_string())));
    }
    if let (Ok(pb), Ok(x)) = (fluent_uri::Iri::parse(base), &fl) {
        let t = x.resolve_against(&pb).ok().map(|t| t.into_string());
        resolved.push((Peer::FluentUri, t));
    }
    for (peer, t) in &resolved {
        report.compared(Kind::Resolution, *peer);
        if *t != ours_t {
            let c = Case {
                base,
                input: s,
                ours: ours_t.as_deref(),
                theirs: t.as_deref(),
            };
            report.disagree(Kind::Resolution, *peer, &c);
        }
    }
    r.is_absolute_iri()
}

#[test]
fn peers_agree_but_for_their_documented_deviations() {
    let started = Instant::now();
    let lines = lines();
    let cases = env_u64("IRI_PEER_CASES").unwrap_or(100_000);
    let seed = env_u64("IRI_PEER_SEED").unwrap_or(0x5EED_3986);
    let grammars = Grammars::builtin();
    let mut gen = Generator::new(&grammars, VariantName::Iri, seed);
    let mut rng = seed;
    let mut report = Report::default();
    // Earlier absolute cases serve as bases, up to a thousand at a time.
    let mut pool: Vec<String> = Vec::new();
    let mut valid = 0u64;
    for _ in 0..cases {
        let s = next_case(&mut rng, &mut gen, &lines);
        let base = if below(&mut rng, 2) == 0 || pool.is_empty() {
            BASES[below(&mut rng, BASES.len())].to_string()
        } else {
            pool[below(&mut rng, pool.len())].clone()
        };
        valid += u64::from(IriRef::parse(&s).is_ok());
        if compare_one(&s, &base, &mut report) {
            if pool.len() < 1000 {
                pool.push(s);
            } else {
                let k = below(&mut rng, pool.len());
                pool[k] = s;
            }
        }
    }
    println!(
        "peers: {cases} cases ({valid} valid IRI references) from {} lines, seed {seed:#x}, \
         in {:.1} s",
        lines.len(),
        started.elapsed().as_secs_f64()
    );
    for ((kind, peer), n) in &report.compared {
        let differ: u64 = report
            .counts
            .iter()
            .filter(|((k, p, _), _)| k == kind && p == peer)
            .map(|(_, c)| c)
            .sum();
        println!(
            "  {kind:?} {:15} compared {n:>9}, disagree {differ:>7}",
            peer.name()
        );
        for ((_, _, id), c) in report
            .counts
            .iter()
            .filter(|((k, p, _), _)| k == kind && p == peer)
        {
            println!("      {id:32} {c:>7}");
        }
    }
    for d in DEVIATIONS {
        let n = report
            .counts
            .get(&(d.kind, d.peer, d.id))
            .copied()
            .unwrap_or(0);
        println!(
            "  deviation {} / {}: {n}\n      peer: {}\n      decides: {}",
            d.peer.name(),
            d.id,
            d.what,
            d.rfc
        );
    }
    assert!(
        report.unexplained.is_empty(),
        "disagreements that no documented deviation explains:\n{}",
        report.unexplained.join("\n")
    );
    assert!(valid * 2 > cases, "too few valid cases: {valid} of {cases}");
}

/// The deviations as the peers document them, one example each, so that a peer's
/// new version that changes its behaviour shows here first.
#[test]
fn each_documented_deviation_on_its_textbook_example() {
    let resolve = |base: &str, r: &str| {
        let ours = IriRef::parse(r)
            .unwrap()
            .resolve(&IriRef::parse(base).unwrap())
            .unwrap()
            .to_string();
        let ox = oxiri::Iri::parse(base)
            .unwrap()
            .resolve(&oxiri::IriRef::parse(r).unwrap())
            .ok()
            .map(|t| t.into_inner());
        let is = IriReferenceStr::new(r)
            .unwrap()
            .resolve_against(IriAbsoluteStr::new(base).unwrap())
            .try_to_dedicated_string()
            .ok()
            .map(|t| t.to_string());
        let fl = fluent_uri::IriRef::parse(r)
            .unwrap()
            .resolve_against(&fluent_uri::Iri::parse(base).unwrap())
            .ok()
            .map(|t| t.into_string());
        (ours, ox, is, fl)
    };
    let some = |s: &str| Some(s.to_string());
    // pct-dot-segments: iri-string and fluent-uri climb through %2E%2E.
    let (ours, ox, is, fl) = resolve("http://a/b/c/d", "%2E%2E/g");
    assert_eq!(ours, "http://a/b/c/%2E%2E/g");
    assert_eq!(ox, some(&ours));
    assert_eq!((is, fl), (some("http://a/b/g"), some("http://a/b/g")));
    // path-starting-with-two-slashes: oxiri refuses, the others write "/.//".
    let (ours, ox, is, fl) = resolve("f:/a", ".//g");
    assert_eq!(ours, "f:/.//g");
    assert_eq!((ox, is, fl), (None, some(&ours), some(&ours)));
    // opaque-base: fluent-uri refuses a relative path against "foo:a/b".
    let (ours, ox, is, fl) = resolve("foo:a/b", "../c");
    assert_eq!(ours, "foo:/c");
    assert_eq!((ox, is, fl), (some(&ours), some(&ours), None));
    // rootless-dot-segments: fluent-uri keeps "s:a/../b" as it is.
    let (ours, ox, is, fl) = resolve("http://a/b", "s:a/../b");
    assert_eq!(ours, "s:/b");
    assert_eq!((ox, is, fl), (some(&ours), some(&ours), some("s:a/../b")));
    // base-dot-segments: fluent-uri removes the base's dot segments first.
    let (ours, ox, is, fl) = resolve("foo:/bar/..", ".");
    assert_eq!(ours, "foo:/bar/");
    assert_eq!((ox, is, fl), (some(&ours), some(&ours), some("foo:/")));
}
