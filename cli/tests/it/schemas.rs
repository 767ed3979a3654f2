//! Every command's `--json` output checked against its schema in `cli/schemas/`.
//!
//! The validator is written here over serde_json values (no JSON Schema crate): it
//! knows the keywords the schemas use (`$ref` to `#/$defs/..` or
//! `common.schema.json#/$defs/..`, `type`, `const`, `enum`, `oneOf`, `properties`,
//! `required`, `additionalProperties: false`, `items`, `minItems`, `maxItems`,
//! `minimum`, `maximum`, and the one `pattern` of `input_bytes`) and fails on any other,
//! so a schema cannot silently say more than is checked.

use crate::common;

use common::{iri_stdin, stdout};

use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

struct Schemas {
    docs: HashMap<String, Value>,
}

impl Schemas {
    fn load() -> Schemas {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
        let mut docs = HashMap::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            docs.insert(name, v);
        }
        Schemas { docs }
    }

    fn check(&self, command: &str, value: &Value) -> Result<(), String> {
        let doc = format!("{command}.schema.json");
        let schema = self
            .docs
            .get(&doc)
            .unwrap_or_else(|| panic!("no schema {doc}"));
        self.validate(&doc, schema, value, "$")
    }

    fn resolve(&self, doc: &str, r: &str) -> (String, &Value) {
        let (file, pointer) = r.split_once('#').expect("a $ref with #");
        let file = if file.is_empty() { doc } else { file };
        let root = &self.docs[file];
        let target = root
            .pointer(pointer)
            .unwrap_or_else(|| panic!("unresolved $ref {r} in {doc}"));
        (file.to_string(), target)
    }

    fn validate(&self, doc: &str, s: &Value, v: &Value, at: &str) -> Result<(), String> {
        let s = s.as_object().expect("a schema is an object");
        for (k, kv) in s {
            match k.as_str() {
                "$schema" | "$id" | "title" | "description" | "$defs" => {}
                "$ref" => {
                    let (file, target) = self.resolve(doc, kv.as_str().unwrap());
                    self.validate(&file, target, v, at)?;
                }
                "type" => {
                    let types: Vec<&str> = match kv {
                        Value::String(t) => vec![t.as_str()],
                        Value::Array(ts) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
                        _ => panic!("type"),
                    };
                    let ok = types.iter().any(|t| match *t {
                        "null" => v.is_null(),
                        "boolean" => v.is_boolean(),
                        "string" => v.is_string(),
                        "integer" => v.is_u64() || v.is_i64(),
                        "number" => v.is_number(),
                        "array" => v.is_array(),
                        "object" => v.is_object(),
                        t => panic!("type {t}"),
                    });
                    if !ok {
                        return Err(format!("{at}: {v} is not of type {types:?}"));
                    }
                }
                "const" => {
                    if v != kv {
                        return Err(format!("{at}: {v} is not {kv}"));
                    }
                }
                "enum" => {
                    if !kv.as_array().unwrap().contains(v) {
                        return Err(format!("{at}: {v} is not one of {kv}"));
                    }
                }
                "oneOf" => {
                    let results: Vec<Result<(), String>> = kv
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|sub| self.validate(doc, sub, v, at))
                        .collect();
                    let n = results.iter().filter(|r| r.is_ok()).count();
                    if n != 1 {
                        let why: Vec<String> =
                            results.into_iter().filter_map(Result::err).collect();
                        return Err(format!(
                            "{at}: {n} of oneOf match {v}\n    {}",
                            why.join("\n    ")
                        ));
                    }
                }
                "properties" => {
                    if let Some(o) = v.as_object() {
                        for (p, ps) in kv.as_object().unwrap() {
                            if let Some(pv) = o.get(p) {
                                self.validate(doc, ps, pv, &format!("{at}.{p}"))?;
                            }
                        }
                    }
                }
                "required" => {
                    if let Some(o) = v.as_object() {
                        for p in kv.as_array().unwrap() {
                            if !o.contains_key(p.as_str().unwrap()) {
                                return Err(format!("{at}: missing {p}"));
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    assert_eq!(kv, &Value::Bool(false), "only additionalProperties: false");
                    if let Some(o) = v.as_object() {
                        let props = s.get("properties").and_then(Value::as_object);
                        for key in o.keys() {
                            if !props.is_some_and(|p| p.contains_key(key)) {
                                return Err(format!("{at}: unexpected field {key:?}"));
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(a) = v.as_array() {
                        for (i, item) in a.iter().enumerate() {
                            self.validate(doc, kv, item, &format!("{at}[{i}]"))?;
                        }
                    }
                }
                "minItems" | "maxItems" => {
                    if let Some(a) = v.as_array() {
                        let n = kv.as_u64().unwrap() as usize;
                        let ok = if k == "minItems" {
                            a.len() >= n
                        } else {
                            a.len() <= n
                        };
                        if !ok {
                            return Err(format!("{at}: {} items, {k} {n}", a.len()));
                        }
                    }
                }
                "minimum" | "maximum" => {
                    if let Some(x) = v.as_i64() {
                        let n = kv.as_i64().unwrap();
                        if (k == "minimum" && x < n) || (k == "maximum" && x > n) {
                            return Err(format!("{at}: {x} against {k} {n}"));
                        }
                    }
                }
                "pattern" => {
                    assert_eq!(
                        kv, "^([0-9a-f]{2})*$",
                        "the one pattern the validator knows"
                    );
                    if let Some(t) = v.as_str() {
                        if t.len() % 2 != 0
                            || !t.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
                        {
                            return Err(format!("{at}: {t:?} is not lower-case hex bytes"));
                        }
                    }
                }
                other => panic!("the validator does not know the keyword {other:?}"),
            }
        }
        Ok(())
    }
}

/// Runs iri with `args` and `stdin`; the JSON values it printed, one per line.
fn json_lines(args: &[&str], stdin: &[u8]) -> Vec<Value> {
    let o = iri_stdin(args, stdin);
    let text = stdout(&o);
    let values: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: {e}: {l}")))
        .collect();
    assert!(!values.is_empty(), "{args:?} printed nothing");
    values
}

#[test]
fn every_commands_json_output_matches_its_schema() {
    let schemas = Schemas::load();
    // Valid, invalid, not UTF-8, non-ASCII; the summary after them.
    let lines: &[u8] =
        b"http://a/b?q#f\nhttp://a/b c\n\xff\xfe\nhttp://r\xc3\xa9sum\xc3\xa9.example.org/\n//[::1]:80/%7e\n";
    let per_input: &[(&str, &[&str])] = &[
        ("check", &["check", "--summary"]),
        ("check", &["check", "--caret", "--oracle"]),
        ("tree", &["tree", "--summary"]),
        ("tree", &["tree", "--literals", "--caret"]),
        ("trace", &["trace", "--summary"]),
        ("parse", &["parse", "--summary"]),
        ("resolve", &["resolve", "http://x/y/z", "--summary"]),
        ("relativize", &["relativize", "http://a/", "--summary"]),
        ("to-uri", &["to-uri", "--idna", "--summary"]),
        ("to-iri", &["to-iri", "--idna", "--summary"]),
        (
            "normalize",
            &["normalize", "--level", "scheme", "--summary"],
        ),
        ("prepare", &["prepare", "--summary"]),
        ("prepare", &["prepare", "--multi"]),
        ("lint", &["lint", "--display", "--summary"]),
    ];
    let mut checked = 0;
    for (command, args) in per_input {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        for v in json_lines(&all, lines) {
            if let Err(e) = schemas.check(command, &v) {
                panic!("{all:?}: {e}");
            }
            checked += 1;
        }
    }
    let others: &[(&str, &[&str], &[u8])] = &[
        (
            "compare",
            &["compare", "--summary"],
            b"http://a/%7e\thttp://a/~\nhttp://a/\thttp://b/\na\tb\nno tab\n\xff\n",
        ),
        ("compare", &["compare", "http://a/", "HTTP://a/"], b""),
        ("lint", &["lint", "--list"], b""),
        ("generate", &["generate", "--rule", "IRI", "-n", "5"], b""),
        (
            "generate",
            &["generate", "--rule", "ihost", "-n", "5", "--invalid"],
            b"",
        ),
        (
            "generate",
            &[
                "--grammar",
                "uri",
                "generate",
                "--rule",
                "IPv4address",
                "--cover",
            ],
            b"",
        ),
        (
            "generate",
            &[
                "--grammar",
                "uri",
                "generate",
                "--rule",
                "dec-octet",
                "--cover",
                "--invalid",
            ],
            b"",
        ),
        ("coverage", &["coverage"], lines),
        (
            "coverage",
            &[
                "--grammar",
                "uri",
                "coverage",
                "--rule",
                "IPv6address",
                "::1",
            ],
            b"",
        ),
        ("grammar", &["grammar"], b""),
        ("grammar", &["grammar", "ihost", "--rust"], b""),
        ("grammar", &["grammar", "ihost", "--svg"], b""),
    ];
    for (command, args, stdin) in others {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        for v in json_lines(&all, stdin) {
            if let Err(e) = schemas.check(command, &v) {
                panic!("{all:?}: {e}");
            }
            checked += 1;
        }
    }
    assert!(checked > 80, "{checked}");
}

/// `iri conform`'s report, against programs that disagree, exit, and answer what
/// the protocol does not know (shell scripts: Unix only).
#[cfg(unix)]
#[test]
fn conforms_json_output_matches_its_schema() {
    let schemas = Schemas::load();
    let dir = std::env::temp_dir().join(format!("iri-schemas-conform-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let programs = [
        "while read l; do echo valid; done",
        "n=0; while read l; do n=$((n+1)); [ $n -gt 5 ] && exit 4; echo invalid; done",
        "while read l; do echo maybe; done",
        "while read l; do echo '{\"valid\": true, \"scheme\": null, \"host\": \"h\"}'; done",
    ];
    for (k, body) in programs.iter().enumerate() {
        let path = dir.join(format!("p{k}.sh"));
        std::fs::write(&path, body).unwrap();
        let path = path.to_str().unwrap().to_string();
        // The rules of the grammar that ask least of the generator in a debug build:
        // IPv4address, and URI-reference for the components.
        let rule = if k == 3 {
            "URI-reference"
        } else {
            "IPv4address"
        };
        let args = [
            "--json",
            "--grammar",
            "uri",
            "conform",
            "--rule",
            rule,
            "--budget",
            "60",
            "--timeout",
            "1s",
            "--",
            "sh",
            &path,
        ];
        for v in json_lines(&args, b"") {
            if let Err(e) = schemas.check("conform", &v) {
                panic!("{body}: {e}");
            }
        }
    }
}

/// `iri conform --resolve`'s report, against programs that resolve wrongly, exit
/// and answer what the exchange does not know (shell scripts: Unix only).
#[cfg(unix)]
#[test]
fn conform_resolves_json_output_matches_its_schema() {
    let schemas = Schemas::load();
    let dir = std::env::temp_dir().join(format!(
        "iri-schemas-conform-resolve-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let programs = [
        r#"while read l; do echo '"http://a/"'; done"#,
        "while read l; do echo invalid; done",
        "n=0; while read l; do n=$((n+1)); [ $n -gt 5 ] && exit 4; echo invalid; done",
        r#"n=0; while read l; do n=$((n+1)); [ $n -gt 20 ] && echo maybe || echo '"a:"'; done"#,
    ];
    for (k, body) in programs.iter().enumerate() {
        let path = dir.join(format!("r{k}.sh"));
        std::fs::write(&path, body).unwrap();
        let path = path.to_str().unwrap().to_string();
        let args = [
            "--json",
            "--grammar",
            "uri",
            "conform",
            "--resolve",
            "--budget",
            "120",
            "--timeout",
            "1s",
            "--",
            "sh",
            &path,
        ];
        for v in json_lines(&args, b"") {
            if let Err(e) = schemas.check("conform-resolve", &v) {
                panic!("{body}: {e}");
            }
        }
    }
}

#[test]
fn the_schemas_reject_what_they_should() {
    let schemas = Schemas::load();
    let ok: Value = serde_json::from_str(r#"{"input":"a","valid":true,"error":null}"#).unwrap();
    assert!(schemas.check("check", &ok).is_ok());
    for bad in [
        r#"{"input":"a","valid":true}"#,
        r#"{"input":"a","valid":false,"error":"at char 1"}"#,
        r#"{"input":"a","valid":true,"error":null,"extra":1}"#,
        r#"{"input":"a","input_bytes":"FF","valid":true,"error":null}"#,
        r#"{"summary":{"inputs":1,"valid":1,"invalid":0,"failures":[]}}"#,
    ] {
        let v: Value = serde_json::from_str(bad).unwrap();
        assert!(schemas.check("check", &v).is_err(), "{bad}");
    }
}
