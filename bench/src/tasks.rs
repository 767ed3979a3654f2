//! The tasks of the harness: what each contender does per input, and on which lists.
//!
//! Every contender of a task gets the same inputs: where a peer rejects some, the
//! task's lists keep only what every contender accepts (validation keeps them all).
//! Parsed values a task starts from (references to convert, bases to resolve
//! against) are made once, before the measured passes.

use crate::common::{all_batches, Batch};
use crate::rfc3986::{ABNORMAL_EXAMPLES, BASE, NORMAL_EXAMPLES};
use iri_grammar::normalize::{Level, NormalizeOptions};
use iri_grammar::tree::tree_of;
use iri_grammar::{is_match, Iri, IriRef, Rule, ToIri, ToUri, Uri, UriRef};
use iri_string::format::ToDedicatedString;
use iri_string::resolve::FixedBaseResolver;
use iri_string::types::{IriAbsoluteStr, IriReferenceStr, IriStr, UriReferenceStr};
use std::hint::black_box;
use std::sync::OnceLock;

/// A contender prepared on one list.
pub trait Runner {
    /// How many items one pass handles.
    fn len(&self) -> usize;
    /// Runs items `from..to` (clamped) once; a checksum, so nothing is optimized away.
    fn pass_range(&self, from: usize, to: usize) -> u64;
    /// Runs every item once.
    fn pass(&self) -> u64 {
        self.pass_range(0, self.len())
    }
    /// Where the prepared items are (for `IRI_BENCH_ADDRESSES`).
    fn items_at(&self) -> *const u8;
}

struct Each<T> {
    items: Vec<T>,
    f: fn(&T) -> u64,
}

impl<T> Runner for Each<T> {
    fn len(&self) -> usize {
        self.items.len()
    }
    fn pass_range(&self, from: usize, to: usize) -> u64 {
        let to = to.min(self.items.len());
        let from = from.min(to);
        self.items[from..to]
            .iter()
            .fold(0u64, |acc, x| acc.wrapping_add((self.f)(black_box(x))))
    }
    fn items_at(&self) -> *const u8 {
        self.items.as_ptr().cast()
    }
}

fn each<T: 'static>(items: Vec<T>, f: fn(&T) -> u64) -> Box<dyn Runner> {
    Box::new(Each { items, f })
}

/// A contender: a name, what it does, and how it gets ready for a list.
pub struct Contender {
    pub name: &'static str,
    pub about: &'static str,
    pub prepare: fn(&'static [String]) -> Box<dyn Runner>,
}

/// A named list of inputs.
pub struct List {
    pub name: String,
    pub inputs: &'static [String],
}

pub struct Task {
    pub name: &'static str,
    pub about: &'static str,
    pub contenders: &'static [Contender],
    /// Columns of ratios: (contender, contender) by index.
    pub ratios: &'static [(usize, usize)],
    pub lists: fn() -> Vec<List>,
}

/// The built-in list and the corpus lists, loaded once.
fn batches() -> &'static [Batch] {
    static B: OnceLock<Vec<Batch>> = OnceLock::new();
    B.get_or_init(all_batches)
}

fn leak(v: Vec<String>) -> &'static [String] {
    Box::leak(v.into_boxed_slice())
}

/// A pooled list: its name, and which inputs of every list it takes.
type Pooled = (&'static str, fn(&str) -> bool);

/// Every list, each filtered by `keep`; `pooled`, if given, adds one list of the
/// inputs of all lists that pass it (where the common case has no work to do).
fn lists_where(keep: fn(&str) -> bool, pooled: Option<Pooled>) -> Vec<List> {
    let mut out: Vec<List> = batches()
        .iter()
        .map(|b| List {
            name: b.name.clone(),
            inputs: leak(b.inputs.iter().filter(|s| keep(s)).cloned().collect()),
        })
        .collect();
    if let Some((name, extra)) = pooled {
        let all: Vec<String> = batches()
            .iter()
            .flat_map(|b| b.inputs.iter())
            .filter(|s| keep(s) && extra(s))
            .cloned()
            .collect();
        out.push(List {
            name: name.to_string(),
            inputs: leak(all),
        });
    }
    out
}

fn every_list() -> Vec<List> {
    lists_where(|_| true, None)
}

// ---------------------------------------------------------------------------------
// Validation.

fn iri_ref_everywhere(s: &str) -> bool {
    is_match::<Iri>(Rule::IriReference, s)
        && oxiri::IriRef::parse(s).is_ok()
        && fluent_uri::IriRef::parse(s).is_ok()
        && IriReferenceStr::new(s).is_ok()
}

const VALIDATE: &[Contender] = &[
    Contender {
        name: "iri_grammar",
        about: "is_match::<Iri>(Rule::IriReference, s)",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                is_match::<Iri>(Rule::IriReference, s) as u64
            })
        },
    },
    Contender {
        name: "oxiri",
        about: "oxiri::IriRef::parse(s).is_ok()",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                oxiri::IriRef::parse(*s).is_ok() as u64
            })
        },
    },
    Contender {
        name: "fluent_uri",
        about: "fluent_uri::IriRef::parse(s).is_ok()",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                fluent_uri::IriRef::parse(*s).is_ok() as u64
            })
        },
    },
    Contender {
        name: "iri_string",
        about: "IriReferenceStr::new(s).is_ok()",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                IriReferenceStr::new(s).is_ok() as u64
            })
        },
    },
];

const VALIDATE_URI: &[Contender] = &[
    Contender {
        name: "iri_grammar",
        about: "is_match::<Uri>(Rule::IriReference, s) (URI-reference)",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                is_match::<Uri>(Rule::IriReference, s) as u64
            })
        },
    },
    Contender {
        name: "fluent_uri",
        about: "fluent_uri::UriRef::parse(s).is_ok()",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                fluent_uri::UriRef::parse(*s).is_ok() as u64
            })
        },
    },
    Contender {
        name: "iri_string",
        about: "UriReferenceStr::new(s).is_ok()",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                UriReferenceStr::new(s).is_ok() as u64
            })
        },
    },
];

// ---------------------------------------------------------------------------------
// Parsing into components.

fn len_of(s: Option<&str>) -> u64 {
    s.map_or(1, |x| x.len() as u64 + 2)
}

const PARSE: &[Contender] = &[
    Contender {
        name: "iri_grammar",
        about: "IriRef::parse(s): scheme, authority, userinfo, host, host kind, port, path, query, fragment",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                let Ok(r) = IriRef::parse(s) else { return 0 };
                len_of(r.scheme())
                    + len_of(r.authority())
                    + len_of(r.userinfo())
                    + len_of(r.host())
                    + r.host_kind().map_or(0, |k| k as u64)
                    + len_of(r.port())
                    + r.path().len() as u64
                    + len_of(r.query())
                    + len_of(r.fragment())
            })
        },
    },
    Contender {
        name: "oxiri",
        about: "oxiri::IriRef::parse(s): scheme, authority, path, query, fragment (no host accessor)",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                let Ok(r) = oxiri::IriRef::parse(*s) else { return 0 };
                len_of(r.scheme())
                    + len_of(r.authority())
                    + r.path().len() as u64
                    + len_of(r.query())
                    + len_of(r.fragment())
            })
        },
    },
    Contender {
        name: "fluent_uri",
        about: "fluent_uri::IriRef::parse(s): scheme, authority, userinfo, host, port, path, query, fragment",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                let Ok(r) = fluent_uri::IriRef::parse(*s) else { return 0 };
                let a = r.authority();
                len_of(r.scheme().map(|x| x.as_str()))
                    + len_of(a.map(|x| x.as_str()))
                    + len_of(a.and_then(|x| x.userinfo()).map(|x| x.as_str()))
                    + len_of(a.map(|x| x.host()))
                    + len_of(a.and_then(|x| x.port()).map(|x| x.as_str()))
                    + r.path().as_str().len() as u64
                    + len_of(r.query().map(|x| x.as_str()))
                    + len_of(r.fragment().map(|x| x.as_str()))
            })
        },
    },
    Contender {
        name: "iri_string",
        about: "IriReferenceStr::new(s): scheme, authority, host, port, path, query, fragment (each accessor splits again)",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                let Ok(r) = IriReferenceStr::new(s) else { return 0 };
                let a = r.authority_components();
                len_of(r.scheme_str())
                    + len_of(r.authority_str())
                    + len_of(a.as_ref().map(|x| x.host()))
                    + len_of(a.as_ref().and_then(|x| x.port()))
                    + r.path_str().len() as u64
                    + len_of(r.query_str())
                    + len_of(r.fragment_str())
            })
        },
    },
];

// ---------------------------------------------------------------------------------
// Resolution.

/// RFC 3986 §5.4, and per list realistic pairs: each absolute IRI as the base of
/// the next one's last path segment (and query), as `../` from the base's directory.
fn resolve_lists() -> Vec<List> {
    let mut out = vec![List {
        name: "rfc3986-5.4".to_string(),
        inputs: leak(
            (NORMAL_EXAMPLES.iter().chain(&ABNORMAL_EXAMPLES))
                .map(|(r, _)| format!("{BASE}\t{r}"))
                .collect(),
        ),
    }];
    for b in batches() {
        let absolute: Vec<&String> = b
            .inputs
            .iter()
            .filter(|s| iri_ref_everywhere(s) && IriStr::new(s.as_str()).is_ok())
            .filter(|s| {
                IriRef::parse(s).is_ok_and(|r| r.is_absolute_iri() && r.authority().is_some())
            })
            .collect();
        let pairs: Vec<String> = absolute
            .windows(2)
            .filter_map(|w| {
                let target = IriRef::parse(w[1]).ok()?;
                let last = target.path().rsplit('/').next().unwrap_or("");
                let mut r = format!("../{last}");
                if let Some(q) = target.query() {
                    r.push('?');
                    r.push_str(q);
                }
                let ok = iri_ref_everywhere(&r)
                    && IriRef::parse(&r)
                        .ok()?
                        .resolve(&IriRef::parse(w[0]).ok()?)
                        .is_ok();
                ok.then(|| format!("{}\t{r}", w[0]))
            })
            .collect();
        out.push(List {
            name: format!("{} pairs", b.name),
            inputs: leak(pairs),
        });
    }
    out
}

fn pairs(l: &'static [String]) -> Vec<(&'static str, &'static str)> {
    l.iter().filter_map(|p| p.split_once('\t')).collect()
}

const RESOLVE: &[Contender] = &[
    Contender {
        name: "iri_grammar",
        about: "IriRef::parse(r)?.resolve(&base)? into String (base parsed before)",
        prepare: |l| {
            let items: Vec<(IriRef<'static>, &'static str)> = pairs(l)
                .into_iter()
                .filter_map(|(b, r)| Some((IriRef::parse(b).ok()?, r)))
                .collect();
            each(items, |(base, r)| {
                let Ok(r) = IriRef::parse(r) else { return 0 };
                r.resolve(base).map_or(0, |t| String::from(t).len() as u64)
            })
        },
    },
    Contender {
        name: "oxiri",
        about: "base.resolve(&IriRef::parse(r)?)? into String",
        prepare: |l| {
            let items: Vec<(oxiri::Iri<&'static str>, &'static str)> = pairs(l)
                .into_iter()
                .filter_map(|(b, r)| Some((oxiri::Iri::parse(b).ok()?, r)))
                .collect();
            each(items, |(base, r)| {
                let Ok(r) = oxiri::IriRef::parse(*r) else {
                    return 0;
                };
                base.resolve(&r).map_or(0, |t| t.into_inner().len() as u64)
            })
        },
    },
    Contender {
        name: "fluent_uri",
        about: "IriRef::parse(r)?.resolve_against(&base)? into String",
        prepare: |l| {
            let items: Vec<(fluent_uri::Iri<&'static str>, &'static str)> = pairs(l)
                .into_iter()
                .filter_map(|(b, r)| Some((fluent_uri::Iri::parse(b).ok()?, r)))
                .collect();
            each(items, |(base, r)| {
                let Ok(r) = fluent_uri::IriRef::parse(*r) else {
                    return 0;
                };
                r.resolve_against(base)
                    .map_or(0, |t| t.into_string().len() as u64)
            })
        },
    },
    Contender {
        name: "iri_string",
        about: "FixedBaseResolver::new(base).resolve(IriReferenceStr::new(r)?) into String",
        prepare: |l| {
            let items: Vec<(&'static IriAbsoluteStr, &'static str)> = pairs(l)
                .into_iter()
                .filter_map(|(b, r)| Some((IriAbsoluteStr::new(b).ok()?, r)))
                .collect();
            each(items, |(base, r)| {
                let Ok(r) = IriReferenceStr::new(r) else {
                    return 0;
                };
                let t: String = FixedBaseResolver::new(base)
                    .resolve(r)
                    .to_dedicated_string()
                    .into();
                t.len() as u64
            })
        },
    },
];

// ---------------------------------------------------------------------------------
// Trees, conversions, normalization.

const TREE: &[Contender] = &[
    Contender {
        name: "iri_grammar tree",
        about: "tree_of::<Iri>(Rule::IriReference, s): the parse tree",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                tree_of::<Iri>(Rule::IriReference, s).map_or(0, |t| t.nodes().count() as u64)
            })
        },
    },
    Contender {
        name: "oxiri parse",
        about: "oxiri::IriRef::parse(s), for scale",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                oxiri::IriRef::parse(*s).is_ok() as u64
            })
        },
    },
];

const TO_URI: &[Contender] = &[
    Contender {
        name: "iri_grammar",
        about: "r.to_uri_with(ToUri::default()) into String (r parsed before)",
        prepare: |l| {
            each(
                l.iter().filter_map(|s| IriRef::parse(s).ok()).collect(),
                |r| r.to_uri_with(ToUri::default()).map_or(0, |u| String::from(u).len() as u64),
            )
        },
    },
    Contender {
        name: "iri_string",
        about: "r.encode_to_uri().to_dedicated_string() into String",
        prepare: |l| {
            each(
                l.iter()
                    .filter_map(|s| IriReferenceStr::new(s).ok())
                    .collect(),
                |r| {
                    let s: String = r.encode_to_uri().to_dedicated_string().into();
                    s.len() as u64
                },
            )
        },
    },
    Contender {
        name: "fluent_uri",
        about: "r.to_uri_ref().into_string()",
        prepare: |l| {
            each(
                l.iter()
                    .filter_map(|s| fluent_uri::IriRef::parse(s.as_str()).ok())
                    .collect(),
                |r| r.to_uri_ref().into_string().len() as u64,
            )
        },
    },
    Contender {
        name: "copy",
        about: "String::from(s) of the same IRI: the allocation and copy any conversion into a String makes, for scale",
        prepare: |l| {
            each(
                l.iter()
                    .filter(|s| IriRef::parse(s).is_ok())
                    .map(String::as_str)
                    .collect(),
                // Kept from the optimizer, which would otherwise see that only the
                // length is used and leave out the allocation.
                |s| std::hint::black_box(String::from(*s)).len() as u64,
            )
        },
    },
];

const TO_IRI: &[Contender] = &[
    Contender {
        name: "iri_grammar to_iri",
        about: "r.to_iri_with(ToIri::default()) into String (r: UriRef parsed before)",
        prepare: |l| {
            each(
                l.iter().filter_map(|s| UriRef::parse(s).ok()).collect(),
                |r| {
                    r.to_iri_with(ToIri::default())
                        .map_or(0, |i| String::from(i).len() as u64)
                },
            )
        },
    },
    Contender {
        name: "iri_grammar parse",
        about: "UriRef::parse(s): the parse of the same URI, for scale",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                UriRef::parse(s).map_or(0, |r| r.path().len() as u64)
            })
        },
    },
];

const NORMALIZE: &[Contender] = &[
    Contender {
        name: "iri_grammar Syntax",
        about: "r.normalize_with(Level::Syntax, ..) into String",
        prepare: |l| {
            each(
                l.iter().filter_map(|s| IriRef::parse(s).ok()).collect(),
                |r| {
                    r.normalize_with(Level::Syntax, NormalizeOptions::default())
                        .map_or(0, |n| String::from(n).len() as u64)
                },
            )
        },
    },
    Contender {
        name: "iri_grammar Scheme",
        about: "r.normalize_with(Level::Scheme, ..) into String",
        prepare: |l| {
            each(
                l.iter().filter_map(|s| IriRef::parse(s).ok()).collect(),
                |r| {
                    r.normalize_with(Level::Scheme, NormalizeOptions::default())
                        .map_or(0, |n| String::from(n).len() as u64)
                },
            )
        },
    },
    Contender {
        name: "iri_string",
        about: "r.normalize().to_dedicated_string() (r: &IriStr)",
        prepare: |l| {
            each(
                l.iter().filter_map(|s| IriStr::new(s).ok()).collect(),
                |r| {
                    let s: String = r.normalize().to_dedicated_string().into();
                    s.len() as u64
                },
            )
        },
    },
    Contender {
        name: "fluent_uri",
        about: "r.normalize().into_string() (r: fluent_uri::Iri)",
        prepare: |l| {
            each(
                l.iter()
                    .filter_map(|s| fluent_uri::Iri::parse(s.as_str()).ok())
                    .collect(),
                |r| r.normalize().into_string().len() as u64,
            )
        },
    },
];

/// IRIs with a scheme that every normalizing contender takes, and that we normalize
/// at both levels (IDNA may refuse a host at the scheme level).
fn normalizable(s: &str) -> bool {
    iri_ref_everywhere(s)
        && IriStr::new(s).is_ok()
        && fluent_uri::Iri::parse(s).is_ok()
        && IriRef::parse(s).is_ok_and(|r| {
            r.is_absolute()
                && r.normalize_with(Level::Scheme, NormalizeOptions::default())
                    .is_ok()
        })
}

// ---------------------------------------------------------------------------------
// Long inputs and invalid inputs.

fn long_lists() -> Vec<List> {
    [1_000usize, 10_000, 100_000]
        .iter()
        .map(|&n| {
            let mut s = String::from("http://example.org");
            while s.len() + 9 <= n {
                s.push_str("/segment1");
            }
            List {
                name: format!("one path of {} bytes", s.len()),
                inputs: leak(vec![s]),
            }
        })
        .collect()
}

/// Each valid input made invalid by a space in its middle, beside the valid inputs
/// of the same lists: the cost of saying "no" against that of saying "yes".
fn invalid_lists() -> Vec<List> {
    let mut out = Vec::new();
    for b in batches() {
        let valid: Vec<String> = b
            .inputs
            .iter()
            .filter(|s| IriRef::parse(s).is_ok() && s.len() > 2)
            .cloned()
            .collect();
        let broken: Vec<String> = valid
            .iter()
            .map(|s| {
                let mut k = s.len() / 2;
                while !s.is_char_boundary(k) {
                    k += 1;
                }
                format!("{} {}", &s[..k], &s[k..])
            })
            .collect();
        out.push(List {
            name: format!("{} valid", b.name),
            inputs: leak(valid),
        });
        out.push(List {
            name: format!("{} invalid", b.name),
            inputs: leak(broken),
        });
    }
    out
}

const INVALID: &[Contender] = &[
    Contender {
        name: "iri_grammar IriRef::parse",
        about: "IriRef::parse(s): Ok or Err (the error's explanation is not asked for)",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                IriRef::parse(s).is_ok() as u64
            })
        },
    },
    Contender {
        name: "iri_grammar is_match",
        about: "is_match::<Iri>(Rule::IriReference, s)",
        prepare: |l| {
            each(l.iter().map(String::as_str).collect(), |s| {
                is_match::<Iri>(Rule::IriReference, s) as u64
            })
        },
    },
];

pub const TASKS: &[Task] = &[
    Task {
        name: "validate",
        about: "Validation of IRI references (RFC 3987 `IRI-reference`), every input of each list.",
        contenders: VALIDATE,
        ratios: &[(0, 1), (0, 2), (0, 3)],
        lists: every_list,
    },
    Task {
        name: "validate-uri",
        about: "Validation of URI references (RFC 3986 `URI-reference`), every input of each list.",
        contenders: VALIDATE_URI,
        ratios: &[(0, 1), (0, 2)],
        lists: every_list,
    },
    Task {
        name: "parse",
        about: "Parsing into components, the IRI references every contender accepts.",
        contenders: PARSE,
        ratios: &[(0, 1), (0, 2), (0, 3)],
        lists: || lists_where(iri_ref_everywhere, None),
    },
    Task {
        name: "resolve",
        about: "Parse a reference, resolve it against a base (parsed before), produce a String: RFC 3986 §5.4's 42 references against http://a/b/c/d;p?q, and per list realistic pairs.",
        contenders: RESOLVE,
        ratios: &[(0, 1), (0, 2), (0, 3)],
        lists: resolve_lists,
    },
    Task {
        name: "tree",
        about: "The parse tree of each IRI reference, beside oxiri's parse of it.",
        contenders: TREE,
        ratios: &[(0, 1)],
        lists: || lists_where(iri_ref_everywhere, None),
    },
    Task {
        name: "to-uri",
        about: "IRI → URI (RFC 3987 §3.1) of parsed IRI references; `non-ascii` pools the IRIs with characters beyond ASCII of every list.",
        contenders: TO_URI,
        ratios: &[(0, 1), (0, 2), (0, 3), (1, 3)],
        lists: || lists_where(iri_ref_everywhere, Some(("non-ascii", |s| !s.is_ascii()))),
    },
    Task {
        name: "to-iri",
        about: "URI → IRI (RFC 3987 §3.2) of parsed URI references, beside our parse of the same URI (no peer converts URIs to IRIs); `pct` pools the URIs with a `%`.",
        contenders: TO_IRI,
        ratios: &[(0, 1)],
        lists: || lists_where(|s| UriRef::parse(s).is_ok(), Some(("pct", |s| s.contains('%')))),
    },
    Task {
        name: "normalize",
        about: "Normalization of IRIs with a scheme into a String; `pct` pools the IRIs with a `%`.",
        contenders: NORMALIZE,
        ratios: &[(0, 2), (0, 3), (1, 3)],
        lists: || lists_where(normalizable, Some(("pct", |s| s.contains('%')))),
    },
    Task {
        name: "long",
        about: "Validation of one long ASCII path: divide by the length for the cost per byte.",
        contenders: VALIDATE,
        ratios: &[(0, 1), (0, 2), (0, 3)],
        lists: long_lists,
    },
    Task {
        name: "invalid",
        about: "Saying no: each valid input with a space in its middle, beside the valid inputs.",
        contenders: INVALID,
        ratios: &[],
        lists: invalid_lists,
    },
];
