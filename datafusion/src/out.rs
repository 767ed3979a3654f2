//! Writing results as `Utf8View` without copying what the input already holds.
//!
//! A component of an IRI (`iri_host`, `iri_path`, ...) is a slice of the input string,
//! and the library hands it out borrowed. A `Utf8View` array can point into any buffer
//! it holds, so the output takes the input's buffers as its own (a reference count,
//! not a copy) and each component becomes a 16-byte view into them: no byte of the
//! input is copied and nothing is allocated per row. Strings of up to 12 bytes live in
//! the view itself (Arrow's inline views), so they are copied into it, which is no
//! allocation either. Computed strings (`iri_normalize`, `iri_resolve`, ...) are
//! appended to the builder's own buffer, and where the result equals the input (an
//! IRI already in normal form) it too becomes a view of the input.
//!
//! The price: the output keeps the input's buffers alive as long as it lives, as any
//! view array does (DataFusion compacts views where it matters, e.g. before a sort).

use crate::args::Strs;
use datafusion::arrow::array::{Array, StringViewBuilder};
use datafusion::arrow::buffer::Buffer;

/// Where the input's bytes are, to turn a borrowed slice back into a view.
#[derive(Clone, Copy)]
enum Blocks<'a> {
    /// `Utf8`/`LargeUtf8`: one values buffer, appended as block `block`.
    Contiguous {
        base: *const u8,
        len: usize,
        block: u32,
    },
    /// `Utf8View`: the input's data buffers appended in order, from block `first`.
    View { buffers: &'a [Buffer], first: u32 },
    /// A constant, or a values buffer too large for a view (over 4 GiB): copy.
    Copy,
}

/// A `Utf8View` builder that knows the input's buffers.
pub(crate) struct ViewWriter<'a> {
    builder: StringViewBuilder,
    blocks: Blocks<'a>,
}

impl<'a> ViewWriter<'a> {
    pub(crate) fn new(input: &Strs<'a>, rows: usize) -> Self {
        let mut builder = StringViewBuilder::with_capacity(rows);
        let blocks = match input {
            Strs::Utf8(a) => contiguous(&mut builder, a.values()),
            Strs::Large(a) => contiguous(&mut builder, a.values()),
            Strs::View(a) => {
                let buffers = a.data_buffers();
                let mut first = None;
                for b in buffers {
                    let id = builder.append_block(b.clone());
                    first.get_or_insert(id);
                }
                match first {
                    Some(first) => Blocks::View { buffers, first },
                    // Every string is inline: every slice is too.
                    None => Blocks::Copy,
                }
            }
            Strs::Scalar(_) => Blocks::Copy,
        };
        ViewWriter { builder, blocks }
    }

    /// Appends `part`, a slice of the input string (of any row).
    #[inline]
    pub(crate) fn slice(&mut self, part: &str) {
        // Short strings are inline in the view whatever we do.
        if part.len() <= 12 {
            self.builder.append_value(part);
            return;
        }
        let p = part.as_ptr() as usize;
        match self.blocks {
            Blocks::Contiguous { base, len, block } => {
                let start = base as usize;
                if p >= start && p + part.len() <= start + len {
                    self.view(block, p - start, part.len());
                    return;
                }
            }
            Blocks::View { buffers, first } => {
                // A string over 12 bytes lives in one of the data buffers; which one
                // is found by address (few buffers: usually one to a handful).
                for (i, b) in buffers.iter().enumerate() {
                    let start = b.as_ptr() as usize;
                    if p >= start && p + part.len() <= start + b.len() {
                        self.view(first + i as u32, p - start, part.len());
                        return;
                    }
                }
            }
            Blocks::Copy => {}
        }
        self.builder.append_value(part);
    }

    #[inline]
    fn view(&mut self, block: u32, offset: usize, len: usize) {
        // SAFETY: `block` was appended by `new` from the buffer that holds `part`,
        // `offset..offset + len` is the range of `part` inside it (checked above),
        // and `part` is a `&str`, so the bytes are valid UTF-8.
        unsafe {
            self.builder
                .append_view_unchecked(block, offset as u32, len as u32)
        }
    }

    /// Appends a computed string: a view of the input when it equals `input` (the
    /// input row's own string), a copy otherwise.
    #[inline]
    pub(crate) fn computed(&mut self, value: &str, input: &str) {
        if value == input {
            self.slice(input)
        } else {
            self.builder.append_value(value)
        }
    }

    /// Appends a string that is not from the input (a constant name).
    #[inline]
    pub(crate) fn value(&mut self, value: &str) {
        self.builder.append_value(value)
    }

    #[inline]
    pub(crate) fn null(&mut self) {
        self.builder.append_null()
    }

    #[inline]
    pub(crate) fn option(&mut self, part: Option<&str>) {
        match part {
            Some(p) => self.slice(p),
            None => self.null(),
        }
    }

    pub(crate) fn finish(mut self) -> datafusion::arrow::array::StringViewArray {
        let array = self.builder.finish();
        debug_assert!(array.len() <= array.views().len());
        array
    }
}

fn contiguous<'a>(builder: &mut StringViewBuilder, values: &Buffer) -> Blocks<'a> {
    // A view's offset is 32 bits: a LargeUtf8 buffer past 4 GiB is copied from.
    if values.len() >= u32::MAX as usize || values.is_empty() {
        return Blocks::Copy;
    }
    let block = builder.append_block(values.clone());
    Blocks::Contiguous {
        base: values.as_ptr(),
        len: values.len(),
        block,
    }
}
