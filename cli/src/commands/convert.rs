//! `iri to-uri` and `iri to-iri` (RFC 3987 §3.1, §3.2; LEIRI → IRI).

use super::each_reference;
use crate::io::{Outcome, Style};
use crate::report::Problem;
use iri_grammar::convert::{leiri_to_iri, to_iri as iri_of, to_uri as uri_of, ToIri, ToUri};
use iri_grammar::{Iri, Uri, Variant, VariantName};

pub fn to_uri<V: Variant>(style: &Style, idna: bool, inputs: &[String]) -> Outcome {
    each_reference::<V, Uri>(style, inputs, "uri", |r| {
        uri_of(&r, ToUri { idna }).map_err(|e| Problem::other("idna", e.to_string()))
    })
}

pub fn to_iri<V: Variant>(style: &Style, idna: bool, inputs: &[String]) -> Outcome {
    each_reference::<V, Iri>(style, inputs, "iri", |r| {
        if V::NAME == VariantName::Leiri {
            leiri_to_iri(&r)
        } else {
            iri_of(&r, ToIri { idna })
        }
        .map_err(|e| Problem::other("idna", e.to_string()))
    })
}
