//! `iri parse`: the components of each input.

use super::{parse_input, write_invalid};
use crate::io::{each_input, Outcome};
use crate::json::Object;
use iri_grammar::{HostKind, Variant};
use std::io::Write;

pub fn run<V: Variant>(json: bool, inputs: &[String]) -> Outcome {
    let mut first = true;
    each_input(inputs, |out, input| {
        // Records of several lines are separated by a blank line.
        if !json && !std::mem::take(&mut first) {
            writeln!(out)?;
        }
        let r = match parse_input::<V>(input) {
            Ok(r) => r,
            Err(e) => return write_invalid(out, json, input, &e),
        };
        let kind = r.host_kind().map(HostKind::as_str);
        if json {
            let o = Object::new()
                .str("input", r.as_str())
                .opt_str("scheme", r.scheme())
                .opt_str("authority", r.authority())
                .opt_str("userinfo", r.userinfo())
                .opt_str("host", r.host())
                .opt_str("host_kind", kind)
                .opt_str("port", r.port())
                .str("path", r.path())
                .opt_str("query", r.query())
                .opt_str("fragment", r.fragment());
            writeln!(out, "{}", o.finish())?;
        } else {
            let fields = [
                ("scheme", r.scheme()),
                ("userinfo", r.userinfo()),
                ("host", r.host()),
                ("host-kind", kind),
                ("port", r.port()),
                ("path", Some(r.path())),
                ("query", r.query()),
                ("fragment", r.fragment()),
            ];
            for (name, value) in fields {
                if let Some(v) = value {
                    writeln!(out, "{name}: {v}")?;
                }
            }
        }
        Ok(true)
    })
}
