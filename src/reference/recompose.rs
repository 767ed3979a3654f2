//! Writing a reference: one recomposer (RFC 3986 §5.3, component recomposition) for
//! every operation that makes a new reference (resolution, the conversions,
//! normalization). It writes the text and records the
//! component boundaries as it goes, so the result is a [`Reference`] without a second
//! parse (a debug build checks the recorded components against a parse).

use super::{host_kind, Component, Components, Reference, ABSENT};
use crate::grammar::Variant;
use alloc::string::String;

/// Builds the text of a reference, component by component, in the order of RFC 3986
/// §5.3 (component recomposition): `scheme ":"`, `"//" authority`, path, `"?" query`,
/// `"#" fragment`.
///
/// Each component is opened with [`Recomposer::open`] (which writes the delimiter before
/// it), written through [`Recomposer::text`], and closed with [`Recomposer::close`] (which
/// writes the delimiter after it: the scheme's `:`, the userinfo's `@`). The recomposer
/// keeps the invariants the grammar needs and that an operation could break: a path
/// without an authority never starts with `//` (it would read as an authority:
/// `/.` is put in front, which `remove_dot_segments` removes again), and the host kind
/// is that of the host's new text, first match wins (a reg-name that decodes to
/// `1.2.3.4` is an `IPv4address`).
#[derive(Debug)]
pub(crate) struct Recomposer {
    text: String,
    c: Components,
    open: Option<(Component, u32)>,
}

impl Recomposer {
    /// An empty recomposer with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Recomposer {
        Recomposer {
            text: String::with_capacity(capacity),
            c: Components::NONE,
            open: None,
        }
    }

    /// The text written so far, to write the open component into.
    #[inline]
    pub(crate) fn text(&mut self) -> &mut String {
        &mut self.text
    }

    /// The text written so far.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    #[inline]
    fn pos(&self) -> u32 {
        // `Reference::parse` refuses texts of 4 GiB or more; operations on such a
        // reference stay below twice that, which a debug check would catch.
        debug_assert!(self.text.len() < u32::MAX as usize);
        self.text.len() as u32
    }

    /// Starts component `part`, writing the delimiter before it (`//` before the
    /// authority, `:` before the port, `?` before the query, `#` before the fragment).
    /// The userinfo and the host are inside the authority: open it first.
    #[inline]
    pub(crate) fn open(&mut self, part: Component) {
        debug_assert!(self.open.is_none(), "{part:?} inside {:?}", self.open);
        match part {
            Component::Authority => self.text.push_str("//"),
            Component::Port => self.text.push(':'),
            Component::Query => self.text.push('?'),
            Component::Fragment => self.text.push('#'),
            _ => {}
        }
        let start = self.pos();
        match part {
            Component::Authority => self.c.authority.0 = start,
            Component::Host => self.c.host.0 = start,
            Component::Port => self.c.port_start = start,
            Component::Path => self.c.path.0 = start,
            Component::Query => self.c.query_start = start,
            Component::Fragment => self.c.fragment_start = start,
            Component::Scheme | Component::Userinfo => {}
        }
        if part != Component::Authority {
            self.open = Some((part, start));
        }
    }

    /// Ends the open component `part`, writing the delimiter after it (`:` after the
    /// scheme, `@` after the userinfo).
    #[inline]
    pub(crate) fn close(&mut self, part: Component) {
        let end = self.pos();
        if part != Component::Authority {
            let open = self.open.take();
            debug_assert_eq!(open.map(|(p, _)| p), Some(part));
        }
        match part {
            Component::Scheme => {
                self.c.scheme_end = end;
                self.text.push(':');
            }
            Component::Authority => {
                self.c.authority.1 = end;
                if self.c.host.1 == ABSENT {
                    self.c.host.1 = end;
                }
            }
            Component::Userinfo => {
                self.c.userinfo_end = end;
                self.text.push('@');
            }
            Component::Host => {
                self.c.host.1 = end;
                self.c.host_kind = Some(host_kind(&self.text[self.c.host.0 as usize..]));
            }
            Component::Path => {
                let start = self.c.path.0 as usize;
                if self.c.authority.0 == ABSENT && self.text[start..].starts_with("//") {
                    self.text.insert_str(start, "/.");
                }
                self.c.path.1 = self.pos();
            }
            Component::Port | Component::Query | Component::Fragment => {}
        }
    }

    /// Writes component `part` with `write` between [`Recomposer::open`] and
    /// [`Recomposer::close`].
    #[inline]
    pub(crate) fn component<E>(
        &mut self,
        part: Component,
        write: impl FnOnce(&mut String) -> Result<(), E>,
    ) -> Result<(), E> {
        self.open(part);
        write(&mut self.text)?;
        self.close(part);
        Ok(())
    }

    /// Writes component `part` as `text`.
    #[inline]
    pub(crate) fn push(&mut self, part: Component, text: &str) {
        self.open(part);
        self.text.push_str(text);
        self.close(part);
    }

    /// Writes component `part` as `text` if it is present.
    #[inline]
    pub(crate) fn push_optional(&mut self, part: Component, text: Option<&str>) {
        if let Some(text) = text {
            self.push(part, text);
        }
    }

    /// Rewrites `from` component by component: `write` gets each present component's
    /// text and writes its new text; the delimiters stay. `capacity` is a guess of
    /// the result's length.
    ///
    /// `unchanged_before` is an offset of `from`'s text before which the caller knows
    /// `write` would copy every component as it is (the first `%` for a decoding):
    /// the components that end there or before are copied without asking, the
    /// scheme and authority in one piece if there is a scheme and the path starts
    /// there or before.
    pub(crate) fn rebuild<V: Variant, E>(
        from: &Reference<'_, V>,
        capacity: usize,
        unchanged_before: usize,
        mut write: impl FnMut(Component, &str, &mut String) -> Result<(), E>,
    ) -> Result<Recomposer, E> {
        let mut b = Recomposer::with_capacity(capacity);
        let unchanged = |at: Component| from.span(at).is_some_and(|s| s.end <= unchanged_before);
        let mut part = |b: &mut Recomposer, at: Component, text: Option<&str>| match text {
            Some(s) if unchanged(at) => {
                b.push(at, s);
                Ok(())
            }
            Some(s) => b.component(at, |out| write(at, s, out)),
            None => Ok(()),
        };
        let path_start = from.components().path.0 as usize;
        if from.scheme().is_some() && path_start <= unchanged_before {
            b.start_with_scheme_and_authority(from);
        } else {
            part(&mut b, Component::Scheme, from.scheme())?;
            if from.authority().is_some() {
                b.open(Component::Authority);
                part(&mut b, Component::Userinfo, from.userinfo())?;
                part(&mut b, Component::Host, from.host())?;
                part(&mut b, Component::Port, from.port())?;
                b.close(Component::Authority);
            }
        }
        part(&mut b, Component::Path, Some(from.path()))?;
        part(&mut b, Component::Query, from.query())?;
        part(&mut b, Component::Fragment, from.fragment())?;
        Ok(b)
    }

    /// Copies the authority of `from` as it is, with its inner boundaries.
    pub(crate) fn copy_authority<V: Variant>(&mut self, from: &Reference<'_, V>) {
        let Some(auth) = from.authority() else { return };
        self.open(Component::Authority);
        let fc = from.components();
        let start = self.pos();
        let shift = |p: u32| {
            if p == ABSENT {
                ABSENT
            } else {
                p - fc.authority.0 + start
            }
        };
        self.text.push_str(auth);
        self.c.userinfo_end = shift(fc.userinfo_end);
        self.c.host = (shift(fc.host.0), shift(fc.host.1));
        self.c.port_start = shift(fc.port_start);
        self.c.host_kind = fc.host_kind;
        self.close(Component::Authority);
    }

    /// Starts an empty recomposer with `from`'s scheme and authority (if it has one) as
    /// they are: the start of `from`'s text up to its path, in one copy. The
    /// boundaries are `from`'s own, since both texts start alike.
    pub(crate) fn start_with_scheme_and_authority<V: Variant>(&mut self, from: &Reference<'_, V>) {
        debug_assert!(self.text.is_empty() && self.open.is_none());
        let fc = from.components();
        debug_assert!(
            fc.scheme_end != ABSENT,
            "a base has a scheme, from offset 0"
        );
        self.text.push_str(&from.as_str()[..fc.path.0 as usize]);
        self.c = Components {
            path: (ABSENT, ABSENT),
            query_start: ABSENT,
            fragment_start: ABSENT,
            ..*fc
        };
    }

    /// The reference written, in grammar `V` (which the operation guarantees).
    pub(crate) fn finish<V: Variant>(mut self) -> Reference<'static, V> {
        debug_assert!(self.open.is_none(), "{:?} left open", self.open);
        if self.c.path.0 == ABSENT {
            // Every reference has a path, possibly empty, before the query.
            let at = self.c.query_start.min(self.c.fragment_start);
            let at = if at == ABSENT { self.pos() } else { at - 1 };
            self.c.path = (at, at);
        }
        Reference::from_parts(self.text, self.c)
    }
}
