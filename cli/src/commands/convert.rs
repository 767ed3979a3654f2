//! `iri to-uri` and `iri to-iri` (RFC 3987 §3.1, §3.2; LEIRI → IRI).

use super::each_reference;
use crate::io::{Outcome, Style};
use crate::report::Problem;
use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::{Iri, Uri, Variant, VariantName};

pub fn to_uri<V: Variant>(style: &Style, idna: bool, inputs: &[String]) -> Outcome {
    each_reference::<V, Uri>(style, inputs, "uri", |r| {
        r.to_uri_with(ToUri { idna })
            .map_err(|e| Problem::other("idna", e.to_string()))
    })
}

pub fn to_iri<V: Variant>(style: &Style, idna: bool, inputs: &[String]) -> Outcome {
    each_reference::<V, Iri>(style, inputs, "iri", |r| {
        if V::NAME == VariantName::Leiri {
            r.leiri_to_iri()
        } else {
            r.to_iri_with(ToIri { idna })
        }
        .map_err(|e| Problem::other("idna", e.to_string()))
    })
}
