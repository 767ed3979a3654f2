//! The one place that reads the fields of the library's `MatchError`: if its shape
//! changes, only this file follows.
//!
//! `iri_error` returns the error as a struct, so that SQL can group by the rule that
//! rejected an input (`GROUP BY iri_error(s)['rule']`) or the component it fails in
//! (`['component']`) or show where
//! (`iri_error(s)['char_offset']`).

use datafusion::arrow::array::{ArrayRef, ListBuilder, StringBuilder, StructArray, UInt64Builder};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use iri_grammar::MatchError;
use std::sync::Arc;

fn list_of_strings() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, true)))
}

/// The fields of `iri_error`'s struct.
/// All nullable: a NULL struct (a valid input) has NULL fields.
pub(crate) fn fields() -> Fields {
    Fields::from(vec![
        // The whole explanation, as `iri check` prints it.
        Field::new("message", DataType::Utf8, true),
        // The innermost rule being matched where the input failed (NULL: at the top).
        Field::new("rule", DataType::Utf8, true),
        // The component of the reference it fails in (`host`, `port`, ...; NULL:
        // none), as `iri check` names it (MatchError::component_name).
        Field::new("component", DataType::Utf8, true),
        // Offsets of the failure, in bytes (UTF-8) and in characters.
        Field::new("byte_offset", DataType::UInt64, true),
        Field::new("char_offset", DataType::UInt64, true),
        // The character found there (NULL: the input ended).
        Field::new("found", DataType::Utf8, true),
        // What would have been accepted there, as ABNF.
        Field::new("expected", list_of_strings(), true),
        // The rules enclosing `rule`, innermost first.
        Field::new("within", list_of_strings(), true),
    ])
}

pub(crate) fn data_type() -> DataType {
    DataType::Struct(fields())
}

/// Builds the struct column row by row.
pub(crate) struct ErrorBuilder {
    message: StringBuilder,
    rule: StringBuilder,
    component: StringBuilder,
    byte_offset: UInt64Builder,
    char_offset: UInt64Builder,
    found: StringBuilder,
    expected: ListBuilder<StringBuilder>,
    within: ListBuilder<StringBuilder>,
    valid: Vec<bool>,
}

impl ErrorBuilder {
    pub(crate) fn new(rows: usize) -> Self {
        ErrorBuilder {
            message: StringBuilder::with_capacity(rows, 0),
            rule: StringBuilder::with_capacity(rows, 0),
            component: StringBuilder::with_capacity(rows, 0),
            byte_offset: UInt64Builder::with_capacity(rows),
            char_offset: UInt64Builder::with_capacity(rows),
            found: StringBuilder::with_capacity(rows, 0),
            expected: ListBuilder::new(StringBuilder::new()),
            within: ListBuilder::new(StringBuilder::new()),
            valid: Vec::with_capacity(rows),
        }
    }

    /// A row without error (valid input, or NULL): the struct is NULL.
    pub(crate) fn none(&mut self) {
        // Every field is NULL too: DataFusion's field access (`iri_error(s)['rule']`)
        // reads the child, not the struct's validity.
        self.message.append_null();
        self.rule.append_null();
        self.component.append_null();
        self.byte_offset.append_null();
        self.char_offset.append_null();
        self.found.append_null();
        self.expected.append(false);
        self.within.append(false);
        self.valid.push(false);
    }

    pub(crate) fn error(&mut self, e: &MatchError) {
        self.message.append_value(e.message());
        self.rule.append_option(e.rule());
        self.component
            .append_option(e.component_name().map(|c| c.as_str()));
        self.byte_offset.append_value(e.byte_offset() as u64);
        self.char_offset.append_value(e.char_offset() as u64);
        match e.found() {
            Some(c) => {
                let mut buf = [0u8; 4];
                self.found.append_value(c.encode_utf8(&mut buf));
            }
            None => self.found.append_null(),
        }
        for x in e.expected() {
            self.expected.values().append_value(x.to_string());
        }
        self.expected.append(true);
        for r in e.within() {
            self.within.values().append_value(r);
        }
        self.within.append(true);
        self.valid.push(true);
    }

    pub(crate) fn finish(mut self) -> StructArray {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.message.finish()),
            Arc::new(self.rule.finish()),
            Arc::new(self.component.finish()),
            Arc::new(self.byte_offset.finish()),
            Arc::new(self.char_offset.finish()),
            Arc::new(self.found.finish()),
            Arc::new(self.expected.finish()),
            Arc::new(self.within.finish()),
        ];
        StructArray::new(fields(), columns, Some(NullBuffer::from(self.valid)))
    }
}
