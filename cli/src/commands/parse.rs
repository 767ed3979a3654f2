//! `iri parse`: the components of each input.

use super::{parse_input, write_invalid};
use crate::io::{each_input, Judgement, Outcome, Style};
use iri_grammar::{HostKind, Variant};
use std::fmt::Write;

pub fn run<V: Variant>(style: &Style, inputs: &[String]) -> Outcome {
    let json = style.json;
    // Records of several lines are separated by a blank line (`style.blank_line_between`).
    each_input(inputs, style, |input, out| {
        let r = match parse_input::<V>(input) {
            Ok(r) => r,
            Err(p) => return write_invalid(out, json, input, &p),
        };
        let kind = r.host_kind().map(HostKind::as_str);
        if json {
            let o = input
                .json()
                .bool("valid", true)
                .opt_str("scheme", r.scheme())
                .opt_str("authority", r.authority())
                .opt_str("userinfo", r.userinfo())
                .opt_str("host", r.host())
                .opt_str("host_kind", kind)
                .opt_str("port", r.port())
                .str("path", r.path())
                .opt_str("query", r.query())
                .opt_str("fragment", r.fragment())
                .null("error");
            o.line(out);
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
                    let _ = writeln!(out, "{name}: {v}");
                }
            }
        }
        Judgement::success()
    })
}
