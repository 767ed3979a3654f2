//! Reference resolution, RFC 3986 §5.2, which RFC 3987 §6.5 applies to IRIs
//! unchanged, and its inverse, relativization.
//!
//! ```
//! use iri_grammar::reference::IriRef;
//! let base = IriRef::parse("http://a/b/c/d;p?q").unwrap();
//! let target = IriRef::parse("../g").unwrap().resolve(&base).unwrap();
//! assert_eq!(target, "http://a/b/g");
//! assert_eq!(target.relativize(&base).unwrap(), "../g");
//! ```

use crate::grammar::Variant;
use crate::grammar::{Component, MatchError};
pub use crate::path::remove_dot_segments;
use crate::path::{last_slash, remove_dot_segments_into};
use crate::reference::{AbsoluteReference, Recomposer, Reference};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use alloc::{format, vec};
use core::fmt;

/// Why a reference could not be resolved or relativized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveError {
    /// The base has no scheme: RFC 3986 §5.1 requires an absolute base.
    RelativeBase(String),
    /// Relativization: the target has no scheme.
    RelativeTarget(String),
    /// Relativization: no reference resolves to the target against this base. This
    /// happens when the target's path has dot segments (`.`, `..`), which resolution
    /// always removes (§5.2.2 applies `remove_dot_segments` even to absolute references).
    Unreachable {
        /// The target.
        target: String,
        /// The base.
        base: String,
    },
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::RelativeBase(b) => write!(
                f,
                "the base {b:?} has no scheme; RFC 3986 §5.1 resolves against an absolute IRI only"
            ),
            ResolveError::RelativeTarget(t) => {
                write!(f, "the target {t:?} has no scheme; only an IRI can be relativized")
            }
            ResolveError::Unreachable { target, base } => write!(
                f,
                "no reference resolves to {target:?} against {base:?}: resolution removes dot segments"
            ),
        }
    }
}

impl core::error::Error for ResolveError {}

/// Writes the path made of `parts` (one part after an empty one, or the two halves
/// of a §5.2.3 merge); `dots` runs it through `remove_dot_segments`. The builder
/// keeps a path without authority from starting with "//" (`f:/a` + `.//g`): "/." in
/// front keeps the same path.
fn write_path(t: &mut Recomposer, parts: [&str; 2], dots: bool) {
    t.open(Component::Path);
    if dots {
        remove_dot_segments_into(parts, t.text());
    } else {
        parts.iter().for_each(|p| t.text().push_str(p));
    }
    t.close(Component::Path);
}

impl<V: Variant> Reference<'_, V> {
    /// Resolves this reference against `base` (RFC 3986 §5.2.2, strict: a reference
    /// with a scheme is never taken as relative). The base's fragment is ignored
    /// (§5.1); a base without a scheme is an error.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let base = IriRef::parse("http://a/b/c/d;p?q").unwrap();
    /// let r = |s| IriRef::parse(s).unwrap().resolve(&base).unwrap().to_string();
    /// assert_eq!(r("g;x?y#s"), "http://a/b/c/g;x?y#s");
    /// assert_eq!(r("../../../g"), "http://a/g");
    /// assert_eq!(r("http:g"), "http:g");
    /// assert_eq!(r(""), "http://a/b/c/d;p?q");
    /// ```
    pub fn resolve(&self, base: &Reference<'_, V>) -> Result<Reference<'static, V>, ResolveError> {
        let Some(base_scheme) = base.scheme() else {
            return Err(ResolveError::RelativeBase(base.to_string()));
        };
        Ok(self.resolve_with_scheme(base, base_scheme))
    }

    /// [`Reference::resolve`] once the base's scheme is known (so it cannot fail).
    pub(crate) fn resolve_with_scheme(
        &self,
        base: &Reference<'_, V>,
        base_scheme: &str,
    ) -> Reference<'static, V> {
        let r = self;
        let mut t = Recomposer::with_capacity(base.as_str().len() + r.as_str().len() + 2);
        if let Some(scheme) = r.scheme() {
            t.push(Component::Scheme, scheme);
            t.copy_authority(r);
            write_path(&mut t, ["", r.path()], true);
            t.push_optional(Component::Query, r.query());
        } else if r.authority().is_some() {
            t.push(Component::Scheme, base_scheme);
            t.copy_authority(r);
            write_path(&mut t, ["", r.path()], true);
            t.push_optional(Component::Query, r.query());
        } else {
            // The base's scheme and authority (§5.2.2), in one piece.
            t.start_with_scheme_and_authority(base);
            if r.path().is_empty() {
                write_path(&mut t, ["", base.path()], false);
                t.push_optional(Component::Query, r.query().or(base.query()));
            } else {
                if r.path().starts_with('/') {
                    write_path(&mut t, ["", r.path()], true);
                } else {
                    // §5.2.3 merge, then remove_dot_segments.
                    write_path(&mut t, merge(base, r.path()), true);
                }
                t.push_optional(Component::Query, r.query());
            }
        }
        t.push_optional(Component::Fragment, r.fragment());
        t.finish()
    }

    /// The shortest reference that resolves to this IRI against `base` (the inverse
    /// of [`Reference::resolve`]): a fragment, a query, a relative path, an absolute
    /// path, a network-path reference or the IRI itself, whichever is shortest and
    /// resolves back exactly.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let base = IriRef::parse("http://a/b/c/d;p?q").unwrap();
    /// let rel = |s| IriRef::parse(s).unwrap().relativize(&base).unwrap().to_string();
    /// assert_eq!(rel("http://a/b/c/g"), "g");
    /// assert_eq!(rel("http://a/b/c/d;p?q#s"), "#s");
    /// assert_eq!(rel("http://a/x"), "/x");
    /// assert_eq!(rel("http://other/x"), "//other/x");
    /// assert_eq!(rel("ftp://a/b"), "ftp://a/b");
    /// ```
    pub fn relativize(
        &self,
        base: &Reference<'_, V>,
    ) -> Result<Reference<'static, V>, ResolveError> {
        if base.scheme().is_none() {
            return Err(ResolveError::RelativeBase(base.to_string()));
        }
        if self.scheme().is_none() {
            return Err(ResolveError::RelativeTarget(self.to_string()));
        }
        let target = self.as_str();
        let resolves = |candidate: &str| -> Option<Reference<'static, V>> {
            let r = Reference::<V>::parse_owned(candidate.to_string()).ok()?;
            let back = r.resolve(base).ok()?;
            (back.as_str() == target).then_some(r)
        };
        let mut best: Option<Reference<'static, V>> = None;
        for candidate in self.candidates(base) {
            if best
                .as_ref()
                .is_some_and(|b| b.as_str().len() <= candidate.len())
            {
                continue;
            }
            if let Some(r) = resolves(&candidate) {
                best = Some(r);
            }
        }
        best.ok_or_else(|| ResolveError::Unreachable {
            target: target.to_string(),
            base: base.to_string(),
        })
    }

    /// References that may resolve to `self` against `base`, each checked by the caller.
    fn candidates(&self, base: &Reference<'_, V>) -> Vec<String> {
        let suffix = |with_query: bool| {
            let mut s = String::new();
            if with_query {
                if let Some(q) = self.query() {
                    s.push('?');
                    s.push_str(q);
                }
            }
            if let Some(f) = self.fragment() {
                s.push('#');
                s.push_str(f);
            }
            s
        };
        // The IRI itself always works unless its path has dot segments.
        let mut out = vec![self.as_str().to_string()];
        let same_scheme = self.scheme() == base.scheme();
        if !same_scheme {
            return out;
        }
        // Network-path reference.
        if let Some(auth) = self.authority() {
            out.push(format!("//{auth}{}{}", self.path(), suffix(true)));
        }
        if self.authority() != base.authority() {
            return out;
        }
        // Same scheme and authority: absolute path, relative path, query, fragment.
        let path = self.path();
        if path == base.path() {
            if self.query() == base.query() {
                out.push(suffix(false));
                if self.fragment().is_none() {
                    out.push(String::new());
                }
            }
            if self.query().is_some() {
                out.push(suffix(true));
            }
        }
        // Relative path: up from the base's directory to the common ancestor, then down.
        let base_dir = &base.path()[..base.path().rfind('/').map_or(0, |k| k + 1)];
        let mut common = 0;
        for (k, (a, b)) in base_dir.bytes().zip(path.bytes()).enumerate() {
            if a != b {
                break;
            }
            if a == b'/' {
                common = k + 1;
            }
        }
        if common > 0 || (base_dir.is_empty() && !path.starts_with('/')) {
            let ups = base_dir[common..].matches('/').count();
            let mut rel = "../".repeat(ups);
            let rest = &path[common..];
            rel.push_str(rest);
            // A first segment with ":" would read as a scheme; an empty relative path
            // would mean "the base"; both get "./" in front.
            let first = rel.split('/').next().unwrap_or("");
            if first.contains(':') || rel.is_empty() || rel.starts_with('/') {
                rel.insert_str(0, "./");
            }
            out.push(format!("{rel}{}", suffix(true)));
        }
        // Absolute path, last: on a tie the relative path is preferred.
        if path.starts_with('/') && !path.starts_with("//") {
            out.push(format!("{path}{}", suffix(true)));
        }
        out
    }
}

/// Merge (RFC 3986 §5.2.3): the reference's path appended to the base path minus its
/// last segment; "/" + the reference's path when the base has an authority and an
/// empty path. Returned as the two halves, which the builder writes in place.
///
/// ```
/// // Exercised through resolution:
/// use iri_grammar::reference::IriRef;
/// let base = IriRef::parse("http://a").unwrap();
/// assert_eq!(IriRef::parse("b").unwrap().resolve(&base).unwrap(), "http://a/b");
/// ```
fn merge<'a, V: Variant>(base: &'a Reference<'_, V>, reference_path: &'a str) -> [&'a str; 2] {
    if base.authority().is_some() && base.path().is_empty() {
        return ["/", reference_path];
    }
    let bp = base.path();
    let dir = last_slash(bp).map_or("", |k| &bp[..=k]);
    [dir, reference_path]
}

/// Resolution from the base's side, oxiri's and url's direction: a base that has a
/// scheme by type cannot make resolution fail.
impl<V: Variant> AbsoluteReference<'_, V> {
    /// Resolves `reference` against this base (RFC 3986 §5.2.2, strict), oxiri's
    /// and url's direction. It cannot fail: the base has a scheme. The same as
    /// `reference.resolve(&base)`.
    ///
    /// ```
    /// use iri_grammar::reference::{AbsoluteIri, IriRef};
    /// let base = AbsoluteIri::parse("http://a/b/c/d;p?q").unwrap();
    /// let r = |s| base.resolve(&IriRef::parse(s).unwrap()).to_string();
    /// assert_eq!(r("g?y#s"), "http://a/b/c/g?y#s");
    /// assert_eq!(r("../.."), "http://a/");
    /// assert_eq!(r("//g"), "http://g");
    /// ```
    pub fn resolve(&self, reference: &Reference<'_, V>) -> AbsoluteReference<'static, V> {
        let base = self.as_reference();
        AbsoluteReference::resolved(reference.resolve_with_scheme(base, self.scheme()))
    }

    /// Parses `reference` in grammar `V` and resolves it against this base: url's
    /// `join`.
    ///
    /// ```
    /// use iri_grammar::reference::AbsoluteIri;
    /// let base = AbsoluteIri::parse("http://example.org/a/b")?;
    /// assert_eq!(base.join("c?x=ü")?, "http://example.org/a/c?x=ü");
    /// assert!(base.join("a b").is_err());
    /// # Ok::<(), iri_grammar::MatchError>(())
    /// ```
    pub fn join(&self, reference: &str) -> Result<AbsoluteReference<'static, V>, MatchError> {
        Ok(self.resolve(&Reference::parse(reference)?))
    }

    /// The shortest reference that resolves to `target` against this base (the
    /// inverse of [`AbsoluteReference::resolve`]; url's `make_relative`). The same
    /// as `target.relativize(&base)`; an error when no reference resolves to it
    /// (its path has dot segments, which resolution always removes).
    ///
    /// ```
    /// use iri_grammar::reference::AbsoluteIri;
    /// let base = AbsoluteIri::parse("http://a/b/c/d;p?q")?;
    /// let target = AbsoluteIri::parse("http://a/b/g#s")?;
    /// assert_eq!(base.make_relative(&target)?, "../g#s");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn make_relative(
        &self,
        target: &AbsoluteReference<'_, V>,
    ) -> Result<Reference<'static, V>, ResolveError> {
        target.as_reference().relativize(self.as_reference())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_keeps_the_base_path_up_to_its_last_slash() {
        let base = crate::IriRef::parse("http://a/b/c/d;p?q").unwrap();
        assert_eq!(merge(&base, "g"), ["/b/c/", "g"]);
        let base = crate::IriRef::parse("http://a").unwrap();
        assert_eq!(merge(&base, "g"), ["/", "g"]);
    }
}
