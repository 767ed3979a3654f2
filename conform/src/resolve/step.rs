//! The steps of RFC 3986 §5.2 a target is judged by: the library's resolution of a
//! pair traced step by step, and the step where a program's target first parts from
//! it.

use super::{Pair, Target};
use iri_grammar::normalize::{Level, NormalizeOptions};
use iri_grammar::resolve::remove_dot_segments;
use iri_grammar::{with_variant, Reference, Variant, VariantName};
use serde::Serialize;

/// Where a program parts from RFC 3986 §5.2: a step of §5.2.2's algorithm (its
/// branches and the components they set), §5.2.3's merge, §5.2.4's
/// remove_dot_segments; a target equal to the library's once both are normalized;
/// or, for a pair the library refuses, why it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// §5.2.2, a reference with a scheme: taken whole (strict).
    ReferenceScheme,
    /// §5.2.2, a reference whose scheme is the base's read as relative: the
    /// non-strict parser the RFC allows for backward compatibility only.
    NonStrict,
    /// §5.2.2, a reference with an authority: its authority, path and query.
    ReferenceAuthority,
    /// §5.2.2, a reference without authority: the base's authority.
    BaseAuthority,
    /// §5.2.2, a reference with an empty path: the base's path, as it is.
    EmptyPath,
    /// §5.2.2, a reference whose path starts with `/`.
    AbsolutePath,
    /// §5.2.2, a reference with a relative path (merged, then dots removed).
    RelativePath,
    /// §5.2.3 merge: the base's path up to its last `/`, or `/` for a base with an
    /// authority and an empty path, then the reference's path.
    Merge,
    /// §5.2.4 remove_dot_segments.
    RemoveDotSegments,
    /// §5.2.2, the query: the base's only for a reference with an empty path and no
    /// query.
    QueryInheritance,
    /// §5.2.2, the reference's query.
    ReferenceQuery,
    /// §5.2.2, the reference's fragment (the base's never).
    Fragment,
    /// The same target once both are normalized (RFC 3986 §6.2.2–§6.2.3): the program
    /// normalizes its output (case, percent-encoding, default port, `/` for an empty
    /// path).
    Normalizes,
    /// The program's target is no reference of the grammar.
    TargetNotAReference,
    /// The base is no reference of the grammar.
    BaseInvalid,
    /// §5.1: the base has no scheme.
    BaseRelative,
    /// The reference is no reference of the grammar.
    ReferenceInvalid,
}

impl Step {
    /// The step's name in the report (`remove-dot-segments`).
    pub fn as_str(self) -> &'static str {
        match self {
            Step::ReferenceScheme => "reference-scheme",
            Step::NonStrict => "non-strict",
            Step::ReferenceAuthority => "reference-authority",
            Step::BaseAuthority => "base-authority",
            Step::EmptyPath => "empty-path",
            Step::AbsolutePath => "absolute-path",
            Step::RelativePath => "relative-path",
            Step::Merge => "merge",
            Step::RemoveDotSegments => "remove-dot-segments",
            Step::QueryInheritance => "query-inheritance",
            Step::ReferenceQuery => "reference-query",
            Step::Fragment => "fragment",
            Step::Normalizes => "normalizes",
            Step::TargetNotAReference => "target-not-a-reference",
            Step::BaseInvalid => "base-invalid",
            Step::BaseRelative => "base-relative",
            Step::ReferenceInvalid => "reference-invalid",
        }
    }

    /// What the step is, in a few words, with its section.
    pub fn title(self) -> &'static str {
        match self {
            Step::ReferenceScheme => "§5.2.2 a reference with a scheme is taken whole",
            Step::NonStrict => "§5.2.2 non-strict: a scheme equal to the base's is dropped",
            Step::ReferenceAuthority => "§5.2.2 a reference with an authority keeps it",
            Step::BaseAuthority => "§5.2.2 authority inheritance: the base's authority",
            Step::EmptyPath => "§5.2.2 an empty path: the base's path as it is",
            Step::AbsolutePath => "§5.2.2 a path starting with \"/\"",
            Step::RelativePath => "§5.2.2 a relative path",
            Step::Merge => "§5.2.3 merge",
            Step::RemoveDotSegments => "§5.2.4 remove_dot_segments",
            Step::QueryInheritance => {
                "§5.2.2 query inheritance: only an empty path without query keeps the base's"
            }
            Step::ReferenceQuery => "§5.2.2 the reference's query",
            Step::Fragment => "§5.2.2 the reference's fragment",
            Step::Normalizes => "normalizes the target (equal after §6.2.2–§6.2.3)",
            Step::TargetNotAReference => "the target is no reference of the grammar",
            Step::BaseInvalid => "the base is no reference of the grammar",
            Step::BaseRelative => "§5.1 the base has no scheme",
            Step::ReferenceInvalid => "the reference is no reference of the grammar",
        }
    }

    /// The section of RFC 3986 the step is (`5.2.4`), if one.
    pub fn section(self) -> Option<&'static str> {
        match self {
            Step::Merge => Some("5.2.3"),
            Step::RemoveDotSegments => Some("5.2.4"),
            Step::Normalizes => Some("6.2.2"),
            Step::BaseRelative => Some("5.1"),
            Step::TargetNotAReference | Step::BaseInvalid | Step::ReferenceInvalid => None,
            _ => Some("5.2.2"),
        }
    }
}

/// How a program's answer disagrees with the library's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Both resolve, to different targets.
    Target,
    /// The program answers `invalid` where the library resolves.
    Refuses,
    /// The program gives a target where the library refuses the pair.
    ResolvesInvalid,
}

impl Kind {
    /// The kind's name in the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Target => "target",
            Kind::Refuses => "refuses",
            Kind::ResolvesInvalid => "resolves-invalid",
        }
    }
}

/// The library's resolution of a pair, step by step (RFC 3986 §5.2.2): the branch
/// taken, the path before and after remove_dot_segments, and the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// The branch of §5.2.2 the reference takes ([`Step::ReferenceScheme`],
    /// [`Step::ReferenceAuthority`], [`Step::EmptyPath`], [`Step::AbsolutePath`],
    /// [`Step::RelativePath`]).
    pub branch: Step,
    /// The path remove_dot_segments is given: the reference's, or the merge's
    /// (§5.2.3); the base's for an empty path, which keeps it as it is.
    pub path_before: String,
    /// The target.
    pub target: String,
}

/// The library's resolution of `pair` in `variant` (strict, §5.2.2): its trace, or
/// why it refuses the pair (the base's fragment is ignored, §5.1). `None` for the
/// 2001 draft, which has no typed references.
pub fn library(variant: VariantName, pair: &Pair) -> Option<Result<Trace, Step>> {
    with_variant!(variant, V => Some(trace::<V>(pair)), Iri2001 => None)
}

fn trace<V: Variant>(pair: &Pair) -> Result<Trace, Step> {
    let base = Reference::<V>::parse(&pair.base).map_err(|_| Step::BaseInvalid)?;
    if base.scheme().is_none() {
        return Err(Step::BaseRelative);
    }
    let r = Reference::<V>::parse(&pair.reference).map_err(|_| Step::ReferenceInvalid)?;
    let target = r
        .resolve(&base)
        .map_err(|_| Step::BaseRelative)?
        .to_string();
    let (branch, path_before) = if r.scheme().is_some() {
        (Step::ReferenceScheme, r.path().to_string())
    } else if r.authority().is_some() {
        (Step::ReferenceAuthority, r.path().to_string())
    } else if r.path().is_empty() {
        (Step::EmptyPath, base.path().to_string())
    } else if r.path().starts_with('/') {
        (Step::AbsolutePath, r.path().to_string())
    } else {
        (
            Step::RelativePath,
            merge(base.authority().is_some(), base.path(), r.path()),
        )
    };
    Ok(Trace {
        branch,
        path_before,
        target,
    })
}

/// Merge (RFC 3986 §5.2.3): `/` and the reference's path when the base has an
/// authority and an empty path; else the base's path up to and with its last `/`
/// (none: nothing), then the reference's path.
///
/// ```
/// use iri_grammar_conform::resolve::merge;
/// assert_eq!(merge(true, "", "g"), "/g");
/// assert_eq!(merge(true, "/b/c/d;p", "g"), "/b/c/g");
/// assert_eq!(merge(false, "b", "g"), "g");
/// ```
pub fn merge(base_has_authority: bool, base_path: &str, reference_path: &str) -> String {
    if base_has_authority && base_path.is_empty() {
        return format!("/{reference_path}");
    }
    let dir = base_path.rfind('/').map_or("", |k| &base_path[..=k]);
    format!("{dir}{reference_path}")
}

/// The step where `target`, the program's, first parts from the library's `trace`
/// of `pair`. The components are compared in §5.2.2's order (scheme, authority,
/// path, query, fragment), each after the library's normalization (RFC 3986
/// §6.2.2, and §6.2.3 for the schemes it knows), but paths of which either has dot
/// segments are compared as they are; the first that differs names the step: the path
/// remove_dot_segments (§5.2.4) when the path it is given has dot segments, else
/// merge (§5.2.3) for a relative path, else the branch; the query its inheritance
/// when the reference has none. None differs: the program normalizes its target.
pub fn step(variant: VariantName, pair: &Pair, trace: &Trace, target: &str) -> Step {
    with_variant!(variant, V => step_in::<V>(pair, trace, target), Iri2001 => Step::TargetNotAReference)
}

fn step_in<V: Variant>(pair: &Pair, trace: &Trace, target: &str) -> Step {
    let Ok(got) = Reference::<V>::parse(target) else {
        return Step::TargetNotAReference;
    };
    let (Ok(base), Ok(r), Ok(expected)) = (
        Reference::<V>::parse(&pair.base),
        Reference::<V>::parse(&pair.reference),
        Reference::<V>::parse(&trace.target),
    ) else {
        return Step::TargetNotAReference;
    };
    let (g, e) = (normal(&got), normal(&expected));
    let (g, e) = (parts::<V>(&g), parts::<V>(&e));
    // Normalization removes dot segments (§6.2.2.3): where either path has them,
    // the paths are compared as they are.
    // A percent-encoded dot counts (`%2E`): a program that decodes it before
    // removing dot segments parts at remove_dot_segments, not at normalization.
    let dots = has_dots(got.path()) || has_dots(expected.path());
    for (k, (a, b)) in g.iter().zip(&e).enumerate() {
        let path = k == 2;
        if a == b && !(path && dots && got.path() != expected.path()) {
            continue;
        }
        // §5.2.2's non-strict reading: a scheme equal to the base's is dropped.
        if non_strict(&base, &r, &pair.reference, &got) {
            return Step::NonStrict;
        }
        return match k {
            0 => trace.branch,
            1 if r.scheme().is_some() || r.authority().is_some() => Step::ReferenceAuthority,
            1 => Step::BaseAuthority,
            2 if trace.branch != Step::EmptyPath && has_dots(&trace.path_before) => {
                Step::RemoveDotSegments
            }
            2 if trace.branch == Step::RelativePath => Step::Merge,
            2 => trace.branch,
            3 if r.query().is_none() => Step::QueryInheritance,
            3 => Step::ReferenceQuery,
            _ => Step::Fragment,
        };
    }
    Step::Normalizes
}

/// Whether `path` has a dot segment (§5.2.4), or would have one were its
/// percent-encoded dots decoded (§6.2.2.2).
fn has_dots(path: &str) -> bool {
    let decoded = path.replace("%2e", ".").replace("%2E", ".");
    remove_dot_segments(&decoded) != decoded
}

/// Whether `got` is the target of `reference` (`r`) read as relative, its scheme
/// dropped because it is the base's (§5.2.2, the non-strict parser).
fn non_strict<V: Variant>(
    base: &Reference<'_, V>,
    r: &Reference<'_, V>,
    reference: &str,
    got: &Reference<'_, V>,
) -> bool {
    let (Some(s), Some(b)) = (r.scheme(), base.scheme()) else {
        return false;
    };
    s.eq_ignore_ascii_case(b)
        && Reference::<V>::parse(&reference[s.len() + 1..])
            .ok()
            .and_then(|l| l.resolve(base).ok())
            .is_some_and(|t| normal(&t) == normal(got))
}

/// The library's normal form: scheme-based (§6.2.3) where it can, else syntax-based
/// (§6.2.2).
fn normal<V: Variant>(r: &Reference<'_, V>) -> String {
    r.normalize_with(Level::Scheme, NormalizeOptions::default())
        .map_or_else(|_| r.normalize().to_string(), |n| n.to_string())
}

fn parts<V: Variant>(s: &str) -> [Option<String>; 5] {
    match Reference::<V>::parse(s) {
        Ok(r) => [
            r.scheme().map(str::to_string),
            r.authority().map(str::to_string),
            Some(r.path().to_string()),
            r.query().map(str::to_string),
            r.fragment().map(str::to_string),
        ],
        Err(_) => [Some(s.to_string()), None, None, None, None],
    }
}

/// How a pair's answer disagrees: its kind and step; `None` when it agrees.
pub fn judge(variant: VariantName, pair: &Pair, answer: &Target) -> Option<(Kind, Step)> {
    match (library(variant, pair)?, answer) {
        (Ok(t), Some(got)) if *got == t.target => None,
        (Ok(t), Some(got)) => Some((Kind::Target, step(variant, pair, &t, got))),
        (Ok(t), None) => Some((Kind::Refuses, t.branch)),
        (Err(_), None) => None,
        (Err(why), Some(_)) => Some((Kind::ResolvesInvalid, why)),
    }
}
