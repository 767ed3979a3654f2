//! The teaching page's questions and answers, whichever back end runs them: `iri
//! serve` over HTTP (`cli/src/commands/serve`), or the WebAssembly module of the
//! static playground in the browser's worker (`js/page`). One [`Page`] answers the
//! page's paths, so the served page and the static one are one application.
//!
//! | path | answer |
//! |---|---|
//! | `/api/rules?grammar=G` | the grammar's rule names and its reference rule |
//! | `/api/tree?grammar=G&rule=R&input=S` | the tree of S, literals as leaves, or the error |
//! | `/api/trace?grammar=G&rule=R&input=S` | the numbered steps of the combinators on S (`iri trace --json`'s) |
//! | `/api/rule?grammar=G&name=R` | the rule: ABNF, its alternatives, section, diagram, FIRST set, code |
//! | `/api/parses?grammar=G&rule=R&input=S` | where the ABNF allows other parses of S, by the oracle |
//!
//! One notation and one way of counting on the page: terminals as the diagrams draw
//! them (`'0'–'5'`, `iri_grammar_abnf::teaching::label`), also in the error messages, whose
//! `%x30-35` is rewritten here; positions count characters from 0, as the messages
//! and the trace do, and spans are `from..to`, the end not included.
//!
//! Offsets in `/api/tree` are given twice: `start`/`end` in bytes (as `iri tree --json`)
//! and `from`/`to` in characters (code points), which is how the page indexes the
//! input (`Array.from(text)`); JavaScript's own string indices are UTF-16 units and
//! would be off after any character beyond U+FFFF.

use crate::json::{self, Object};
use crate::lesson::Lesson;
use crate::literals::{self, CharIndex};
use iri_grammar::trace::trace_of;
use iri_grammar::tree::tree_of;
use iri_grammar::{MatchError, Rule, Variant, VariantName};
use iri_grammar_abnf::oracle::explain::{OracleFailure, OracleNode};
use iri_grammar_abnf::teaching::label::range_label;
use iri_grammar_abnf::{Element, Grammars};
use std::cell::RefCell;
use std::collections::HashMap;

/// Inputs longer than this are refused: the page is for reading trees, and a tree of
/// a megabyte is not read.
pub const MAX_INPUT_CHARS: usize = 4096;

/// Inputs longer than this are not compared by `/api/parses`: the oracle looks for
/// each later alternative of each node among every end that alternative has from
/// the node's start, a list as long as the rest of the input, so the work grows as
/// the square of the input; a quarter of [`MAX_INPUT_CHARS`] is a sixteenth of the
/// work.
pub const MAX_COMPARED_CHARS: usize = 1024;

/// The most forks `/api/parses` lists: a page of alternatives is read, a thousand
/// are not (a path of a thousand segments has as many).
const MAX_FORKS: usize = 12;

/// The most nodes of one tree `/api/parses` sends (the fork's own, and each other
/// parse's); a deeper or wider one says it is cut.
const MAX_FORK_NODES: usize = 120;

/// The four grammars, ready to show, and the rule answers already computed (a
/// rule's answer never changes).
pub struct Page<'g> {
    lessons: [Lesson<'g>; 4],
    rule_cache: RefCell<HashMap<(VariantName, &'static str), String>>,
}

/// An answer: an HTTP status and a JSON text (`{"error":..}` when the status is not
/// 200).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub json: String,
}

impl Answer {
    fn ok(json: String) -> Answer {
        Answer { status: 200, json }
    }

    fn error(status: u16, message: &str) -> Answer {
        Answer {
            status,
            json: Object::new().str("error", message).finish(),
        }
    }
}

/// The query parameters of a request, decoded.
pub type Params = HashMap<String, String>;

/// `application/x-www-form-urlencoded` decoding (URL Standard §5.1), as the page's
/// `URLSearchParams` encodes: `+` is a space, `%XX` a byte; the bytes must be UTF-8.
fn form_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'+' => out.push(b' '),
            b'%' if k + 2 < b.len()
                && b[k + 1].is_ascii_hexdigit()
                && b[k + 2].is_ascii_hexdigit() =>
            {
                let hex = std::str::from_utf8(&b[k + 1..k + 3]).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                k += 2;
            }
            c => out.push(c),
        }
        k += 1;
    }
    String::from_utf8(out).ok()
}

/// The query parameters of a request path (`None`: not UTF-8 form-encoded text).
pub fn params(query: &str) -> Option<Params> {
    let mut out = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        out.insert(form_decode(k)?, form_decode(v)?);
    }
    Some(out)
}

const GRAMMAR_PARAM: &str = "grammar must be uri, iri, leiri or iri-2001";

/// The `grammar` parameter, read by the library's spelling set as every front end
/// reads grammar names; `iri` when it is absent.
fn variant(name: Option<&String>) -> Option<VariantName> {
    name.map_or(Some(VariantName::Iri), |n| n.parse().ok())
}

/// The answer to a path that needs no grammar work: the rule names
/// (`/api/rules`), or the refusal of an input beyond its path's cap (413). `None`:
/// the path is work for a [`Page`] (or not the page's).
pub fn quick(path: &str, q: &Params) -> Option<Answer> {
    if path == "/api/rules" {
        return Some(match variant(q.get("grammar")) {
            Some(v) => Answer::ok(rules(v)),
            None => Answer::error(400, GRAMMAR_PARAM),
        });
    }
    let (max, not_done) = match path {
        "/api/tree" => (MAX_INPUT_CHARS, "shown"),
        "/api/trace" => (MAX_INPUT_CHARS, "traced"),
        "/api/parses" => (MAX_COMPARED_CHARS, "compared"),
        _ => return None,
    };
    input_param(q, max, not_done)
        .err()
        .map(|(status, message)| Answer::error(status, &message))
}

/// The input, at most `max` characters long (else a 413 that says what is not
/// done with longer ones: "shown", "traced").
fn input_param<'q>(q: &'q Params, max: usize, not_done: &str) -> Result<&'q str, (u16, String)> {
    let input = q.get("input").map(String::as_str).unwrap_or("");
    if input.chars().count() > max {
        return Err((
            413,
            format!("inputs of more than {max} characters are not {not_done}"),
        ));
    }
    Ok(input)
}

impl<'g> Page<'g> {
    pub fn new(g: &'g Grammars) -> Page<'g> {
        Page {
            lessons: VariantName::EVERY.map(|v| Lesson::new(g, v)),
            rule_cache: RefCell::new(HashMap::new()),
        }
    }

    fn lesson(&self, v: VariantName) -> &Lesson<'g> {
        &self.lessons[VariantName::EVERY.iter().position(|&x| x == v).unwrap_or(1)]
    }

    /// The answer to `path` (`/api/...`) with the query `query` (form-encoded, as
    /// the page's `URLSearchParams` writes it); 404 for a path that is not the
    /// page's.
    pub fn answer(&self, path: &str, query: &str) -> Answer {
        let Some(q) = params(query) else {
            return Answer::error(400, "the query is not UTF-8 form-encoded text");
        };
        if let Some(answer) = quick(path, &q) {
            return answer;
        }
        match path {
            "/api/tree" => self.api(&q, |v, q| self.tree(v, q)),
            "/api/rule" => self.api(&q, |v, q| self.rule(v, q)),
            "/api/trace" => self.api(&q, |v, q| self.trace(v, q)),
            "/api/parses" => self.api(&q, |v, q| self.parses(v, q)),
            _ => Answer::error(404, "not found"),
        }
    }
    /// An API answer: the grammar parameter checked, then `f`'s JSON or its error.
    fn api(
        &self,
        q: &Params,
        f: impl Fn(VariantName, &Params) -> Result<String, (u16, String)>,
    ) -> Answer {
        let Some(v) = variant(q.get("grammar")) else {
            return Answer::error(400, GRAMMAR_PARAM);
        };
        match f(v, q) {
            Ok(body) => Answer::ok(body),
            Err((status, message)) => Answer::error(status, &message),
        }
    }

    fn rule_param(v: VariantName, q: &Params, key: &str) -> Result<Rule, (u16, String)> {
        let name = q.get(key).map(String::as_str).unwrap_or(reference_rule(v));
        Rule::named(v, name).ok_or_else(|| {
            (
                404,
                format!("the {} grammar has no rule named {name:?}", v.as_str()),
            )
        })
    }

    /// The tree of the input, literals as leaves, or where and why it fails.
    fn tree(&self, v: VariantName, q: &Params) -> Result<String, (u16, String)> {
        let rule = Self::rule_param(v, q, "rule")?;
        let input = input_param(q, MAX_INPUT_CHARS, "shown")?;
        let lesson = self.lesson(v);
        Ok(iri_grammar::with_variant!(v, V => tree_json::<V>(rule, input, lesson)))
    }

    /// Where the ABNF allows other parses of the input than the tree's, by the
    /// oracle (`Oracle::other_parses`): at each fork, the tree's node and the
    /// other alternatives' nodes over the same characters, each with its ABNF.
    fn parses(&self, v: VariantName, q: &Params) -> Result<String, (u16, String)> {
        let rule = Self::rule_param(v, q, "rule")?;
        let input = input_param(q, MAX_COMPARED_CHARS, "compared")?;
        let lesson = self.lesson(v);
        let name = rule.name_in(v).unwrap_or(rule.iri_name());
        let parses = match lesson.oracle.other_parses(name, input, MAX_FORKS) {
            Ok(p) => p,
            Err(OracleFailure::NoMatch(_)) => {
                return Ok(Object::new().bool("valid", false).finish());
            }
            Err(e) => return Err((500, e.to_string())),
        };
        let ci = CharIndex::new(input);
        let mut forks = String::from("[");
        for (k, fork) in parses.forks.iter().enumerate() {
            if k > 0 {
                forks.push(',');
            }
            let n = &fork.chosen;
            let alternatives: Vec<String> = match lesson.named(&n.rule).map(|f| &f.def.definition) {
                Some(Element::Alternation(alts)) => alts.iter().map(|a| a.to_string()).collect(),
                _ => Vec::new(),
            };
            let abnf = |node: &OracleNode| {
                node.alternative
                    .and_then(|(j, _)| alternatives.get(j - 1))
                    .map_or("", String::as_str)
            };
            let mut others = String::from("[");
            for (j, o) in fork.others.iter().enumerate() {
                if j > 0 {
                    others.push(',');
                }
                others.push_str(
                    &Object::new()
                        .str("abnf", abnf(o))
                        .raw("tree", &oracle_node_json(o, input, &ci))
                        .finish(),
                );
            }
            others.push(']');
            forks.push_str(
                &Object::new()
                    .str("rule", &n.rule)
                    .str("text", &input[n.start..n.end])
                    .num("from", ci.chars(n.start))
                    .num("to", ci.chars(n.end))
                    .str("abnf", abnf(n))
                    .raw("tree", &oracle_node_json(n, input, &ci))
                    .raw("others", &others)
                    .finish(),
            );
        }
        forks.push(']');
        Ok(Object::new()
            .bool("valid", true)
            .raw("forks", &forks)
            .bool("capped", parses.capped)
            .num("limit", MAX_FORKS)
            .finish())
    }

    /// The steps of the combinators on the input, offsets also in characters.
    fn trace(&self, v: VariantName, q: &Params) -> Result<String, (u16, String)> {
        let rule = Self::rule_param(v, q, "rule")?;
        let input = input_param(q, MAX_INPUT_CHARS, "traced")?;
        Ok(iri_grammar::with_variant!(v, V => trace_json::<V>(rule, input)))
    }

    /// Everything the page shows of a rule (cached: it never changes).
    fn rule(&self, v: VariantName, q: &Params) -> Result<String, (u16, String)> {
        let rule = Self::rule_param(v, q, "name")?;
        let name = rule.name_in(v).unwrap_or(rule.iri_name());
        if let Some(hit) = self.rule_cache.borrow().get(&(v, name)) {
            return Ok(hit.clone());
        }
        let lesson = self.lesson(v);
        let f = lesson
            .named(name)
            .ok_or_else(|| (404, format!("no definition of {name}")))?;
        let (src, url) = lesson.source(&f);
        let (first, nullable) = lesson.first(&f);
        // Rule boxes in the diagram link to `#rule=NAME`: the page shows that rule.
        let svg = lesson.svg(&f, &|n| Some(format!("#rule={n}")));
        let section = match &src.section {
            Some(s) if s.starts_with(|c: char| c.is_ascii_digit()) => {
                format!("{} §{s}", src.document)
            }
            Some(s) => format!("{} {s}", src.document),
            None => src.document.clone(),
        };
        // The alternatives of a definition that is an alternation, in order: a tree
        // node says which one it took ("6 of 9"), and the page shows that one's ABNF.
        let alternatives: Vec<String> = match &f.def.definition {
            Element::Alternation(alts) => alts.iter().map(|a| a.to_string()).collect(),
            _ => Vec::new(),
        };
        let body = Object::new()
            .str("grammar", v.as_str())
            .str("rule", f.name)
            .str("abnf", &f.def.text)
            .strs("alternatives", alternatives.iter().map(String::as_str))
            .str("section", &section)
            .str("source", &src.to_string())
            .opt_str("url", url.as_deref())
            .strs("notes", f.notes.iter().map(String::as_str))
            .strs("first", first.iter().map(String::as_str))
            .bool("nullable", nullable)
            .strs("uses", lesson.uses(&f).iter().map(String::as_str))
            .strs("used_by", lesson.used_by(&f).iter().map(String::as_str))
            .str("svg", &svg)
            .opt_str("rust", lesson.rust(&f).as_deref())
            .opt_str("rust_note", f.code_note.as_deref())
            .finish();
        self.rule_cache.borrow_mut().insert((v, name), body.clone());
        Ok(body)
    }
}

/// `{"grammar","default","rules":[..]}`.
/// The grammar's rule of references, which the page starts on: `URI-reference`,
/// `IRI-reference`, `LEIRI-reference`; the 2001 draft's own `IRI-reference`, a rule
/// of its own rule set.
fn reference_rule(v: VariantName) -> &'static str {
    Rule::IriReference
        .name_in(v)
        .or_else(|| Rule::named(v, "IRI-reference")?.name_in(v))
        .unwrap_or("IRI-reference")
}

fn rules(v: VariantName) -> String {
    Object::new()
        .str("grammar", v.as_str())
        .str("default", reference_rule(v))
        .strs("rules", Rule::of(v).map(|(n, _)| n))
        .finish()
}

/// `{"valid":true,"tree":{..}}` or `{"valid":false,"error","at",..}`; a failing
/// input's answer has the tree of the longest beginning of it that matches the rule
/// (`partial`, and where it ends, `partial_to`), when one does.
fn tree_json<V: Variant>(rule: Rule, input: &str, lesson: &Lesson<'_>) -> String {
    let ci = CharIndex::new(input);
    let tree = |text: &str| -> Option<String> {
        let t = tree_of::<V>(rule, text).ok()?;
        let mut node = String::new();
        literals::node_json(&t, t.root(), true, Some(&ci), &mut node);
        Some(node)
    };
    match tree_of::<V>(rule, input) {
        Ok(_) => Object::new()
            .bool("valid", true)
            .raw("tree", &tree(input).unwrap_or_default())
            .finish(),
        Err(e) => {
            // The oracle gives every end of a match from the start at once; the
            // combinators then build the tree of the longest.
            let name = rule.name_in(lesson.variant).unwrap_or(rule.iri_name());
            let longest = lesson
                .oracle
                .ends(name, input, 0)
                .ok()
                .and_then(|ends| ends.into_iter().filter(|&e| e > 0).max());
            let partial = longest.and_then(|end| Some((end, tree(&input[..end])?)));
            error_json(
                &e,
                partial
                    .as_ref()
                    .map(|(end, t)| (ci.chars(*end), t.as_str())),
            )
        }
    }
}

/// An oracle node as the page's trees are (`rule`, `text`, `from`, `to`, the
/// alternative), children included up to [`MAX_FORK_NODES`] nodes in all; a node
/// whose children were left out says `"cut":true`.
fn oracle_node_json(root: &OracleNode, input: &str, ci: &CharIndex) -> String {
    fn write(n: &OracleNode, input: &str, ci: &CharIndex, budget: &mut usize, out: &mut String) {
        let mut o = Object::new()
            .str("rule", &n.rule)
            .str("text", &input[n.start..n.end])
            .num("from", ci.chars(n.start))
            .num("to", ci.chars(n.end));
        if let Some((k, of)) = n.alternative {
            o = o.num("alternative", k).num("of", of);
        }
        let cut = n.children.len() > *budget;
        let mut kids = String::from("[");
        if !cut {
            *budget -= n.children.len();
            for (k, c) in n.children.iter().enumerate() {
                if k > 0 {
                    kids.push(',');
                }
                write(c, input, ci, budget, &mut kids);
            }
        }
        kids.push(']');
        out.push_str(&o.raw("children", &kids).bool("cut", cut).finish());
    }
    let mut out = String::new();
    let mut budget = MAX_FORK_NODES;
    write(root, input, ci, &mut budget, &mut out);
    out
}

/// A message or expectation with its ABNF numeric values (`%x30-35`, `%x25`,
/// `%xD.A`: RFC 5234 §2.3, §3.4) written as the diagrams draw terminals (`'0'–'5'`,
/// `'%'`, `CR LF`): the page uses one notation.
fn page_notation(text: &str) -> String {
    notation(text, false)
}

/// [`page_notation`] on JSON text: each label written as the inside of a JSON
/// string (`'"'` has a quote to escape). The trace's steps are JSON made for
/// `iri trace --json`, whose texts say `%x41-5A` where the page says `'A'–'Z'`.
fn page_notation_json(json: &str) -> String {
    notation(json, true)
}

fn notation(text: &str, json_escaped: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(p) = rest.find("%x") {
        out.push_str(&rest[..p]);
        let after = &rest[p + 2..];
        let hex = |s: &str| s.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(s.len());
        let n = hex(after);
        let Ok(first) = u32::from_str_radix(&after[..n], 16) else {
            out.push_str("%x");
            rest = after;
            continue;
        };
        let mut tail = &after[n..];
        let label = if let Some(r) = tail.strip_prefix('-').filter(|r| hex(r) > 0) {
            let m = hex(r);
            tail = &r[m..];
            range_label(first, u32::from_str_radix(&r[..m], 16).unwrap_or(first))
        } else {
            let mut cps = vec![first];
            while let Some(r) = tail.strip_prefix('.').filter(|r| hex(r) > 0) {
                let m = hex(r);
                cps.push(u32::from_str_radix(&r[..m], 16).unwrap_or(0));
                tail = &r[m..];
            }
            cps.iter()
                .map(|&c| range_label(c, c))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if json_escaped {
            out.push_str(&label.replace('\\', "\\\\").replace('"', "\\\""));
        } else {
            out.push_str(&label);
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// `{"valid","rule","cut","steps":[..]}`: the steps as `iri trace --json` gives them,
/// with character offsets for the page.
fn trace_json<V: Variant>(rule: Rule, input: &str) -> String {
    let t = trace_of::<V>(rule, input);
    let ci = CharIndex::new(input);
    Object::new()
        .bool("valid", t.matched)
        .str("rule", t.rule)
        .bool("cut", t.cut)
        .raw(
            "steps",
            &page_notation_json(&crate::trace::steps_json(&t, Some(&ci))),
        )
        .finish()
}

/// A failure as the page shows it, in its notation (see the module's doc), with the
/// tree of the longest matching beginning of the input (where it ends, and the tree).
fn error_json(e: &MatchError, partial: Option<(usize, &str)>) -> String {
    let mut found = String::new();
    match e.found() {
        Some(c) => json::string(&c.to_string(), &mut found),
        None => found.push_str("null"),
    }
    let expected: Vec<String> = e
        .expected()
        .iter()
        .map(|x| page_notation(&x.to_string()))
        .collect();
    let mut o = Object::new()
        .bool("valid", false)
        .str("error", &page_notation(&e.message()))
        .num("at", e.char_offset())
        .raw("found", &found)
        .opt_str("rule", e.rule())
        .strs("within", e.within().iter().copied())
        .strs("expected", expected.iter().map(String::as_str));
    if let Some((to, tree)) = partial {
        o = o.num("partial_to", to).raw("partial", tree);
    }
    o.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use iri_grammar::{Iri, Uri};

    #[test]
    fn form_decoding() {
        assert_eq!(form_decode("a+b%20c%C3%A9").as_deref(), Some("a b cé"));
        assert_eq!(form_decode("%2B").as_deref(), Some("+"));
        // A lone "%" (never sent by URLSearchParams, which writes %25) stays itself.
        assert_eq!(form_decode("%").as_deref(), Some("%"));
        assert_eq!(form_decode("%FF"), None);
    }

    fn iri_lesson(g: &Grammars) -> Lesson<'_> {
        Lesson::new(g, VariantName::Iri)
    }

    #[test]
    fn trees_carry_character_offsets_and_literals() {
        let g = Grammars::builtin();
        let j = tree_json::<Iri>(Rule::Ihost, "é.x", &iri_lesson(&g));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["valid"], true);
        assert_eq!(v["tree"]["to"], 3);
        assert_eq!(v["tree"]["end"], 4);
        let leaf = &v["tree"]["children"][0]["children"][0];
        assert_eq!(leaf["literal"], "é.x");
    }

    #[test]
    fn rules_carry_their_alternatives_in_the_order_trees_count_them() {
        let g = Grammars::builtin();
        let app = Page::new(&g);
        let q: HashMap<String, String> = [("name".to_string(), "IPv6address".to_string())].into();
        let v: serde_json::Value =
            serde_json::from_str(&app.rule(VariantName::Iri, &q).unwrap()).unwrap();
        let alternatives = v["alternatives"].as_array().unwrap();
        // The tree of ::ffff:1.2.3.4 says 6 of 9: the rule table must have 9, and the
        // sixth must be the one with `"::" h16 ":" ls32`.
        let t = tree_of::<Iri>(Rule::Ipv6address, "::ffff:1.2.3.4").unwrap();
        assert_eq!(t.root().alternative(), Some((6, alternatives.len())));
        assert_eq!(
            alternatives[5],
            "[ *3( h16 \":\" ) h16 ] \"::\" h16 \":\" ls32"
        );
        // A rule that is not an alternation has none.
        let q: HashMap<String, String> = [("name".to_string(), "IP-literal".to_string())].into();
        let v: serde_json::Value =
            serde_json::from_str(&app.rule(VariantName::Iri, &q).unwrap()).unwrap();
        assert_eq!(v["alternatives"], serde_json::json!([]));
    }

    #[test]
    fn traces_say_why_earlier_alternatives_failed() {
        let j = trace_json::<Iri>(Rule::Ipv6address, "::ffff:1.2.3.4");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["valid"], true);
        let steps = v["steps"].as_array().unwrap();
        let backtracks: Vec<_> = steps
            .iter()
            .filter(|s| s["step"] == "backtrack" && s["rule"] == "IPv6address")
            .collect();
        assert_eq!(backtracks.len(), 5);
        assert_eq!(backtracks[0]["why"], "\":\" cannot start it");
        let last = steps.last().unwrap();
        assert_eq!(
            (last["step"].as_str(), last["end_char"].as_u64()),
            (Some("match"), Some(14))
        );
    }

    #[test]
    fn errors_carry_the_place_and_the_partial_tree() {
        let g = Grammars::builtin();
        let j = tree_json::<Iri>(Rule::IriReference, "http://a b/", &iri_lesson(&g));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["valid"], false);
        assert_eq!(v["at"], 8);
        assert_eq!(v["found"], " ");
        // One way of counting: no 1-based column beside the 0-based char.
        assert!(v.get("column").is_none());
        // The longest beginning that is an IRI reference: "http://a".
        assert_eq!(v["partial_to"], 8);
        assert_eq!(v["partial"]["text"], "http://a");
        assert_eq!(v["partial"]["rule"], "IRI-reference");
        // Nothing matches at all: no partial tree.
        let j = tree_json::<Iri>(Rule::Ipv4address, "x", &iri_lesson(&g));
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert!(v.get("partial").is_none());
    }

    #[test]
    fn messages_use_the_notation_of_the_diagrams() {
        let g = Grammars::builtin();
        let j = tree_json::<Uri>(
            Rule::Ipv4address,
            "1.2.3.256",
            &Lesson::new(&g, VariantName::Uri),
        );
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        let message = v["error"].as_str().unwrap();
        assert!(message.contains("dec-octet expects '0'–'5'"), "{message}");
        assert!(!message.contains("%x"), "{message}");
        assert_eq!(
            page_notation("%x30-35, %x25 or %xD.A"),
            "'0'–'5', '%' or CR LF"
        );
        assert_eq!(page_notation("\"%x\" and 100%"), "\"%x\" and 100%");
        assert_eq!(page_notation("%xA0-D7FF"), "U+00A0–U+D7FF");
        assert_eq!(page_notation_json(r#"{"a":"%x22"}"#), r#"{"a":"'\"'"}"#);
        // The trace's steps too.
        let j = trace_json::<Iri>(Rule::Scheme, "h");
        assert!(j.contains("expected 'A'–'Z', found"), "{j}");
        assert!(!j.contains("%x"), "{j}");
    }

    #[test]
    fn other_parses_part_where_the_first_match_won() {
        let g = Grammars::builtin();
        let app = Page::new(&g);
        let q = |rule: &str, input: &str| -> HashMap<String, String> {
            [
                ("rule".to_string(), rule.to_string()),
                ("input".to_string(), input.to_string()),
            ]
            .into()
        };
        let v: serde_json::Value = serde_json::from_str(
            &app.parses(VariantName::Iri, &q("IRI-reference", "http://1.2.3.4/"))
                .unwrap(),
        )
        .unwrap();
        let forks = v["forks"].as_array().unwrap();
        assert_eq!(forks.len(), 1, "{v}");
        assert_eq!(forks[0]["rule"], "ihost");
        assert_eq!(
            (forks[0]["from"].as_u64(), forks[0]["to"].as_u64()),
            (Some(7), Some(14))
        );
        assert_eq!(forks[0]["abnf"], "IPv4address");
        assert_eq!(forks[0]["tree"]["children"][0]["rule"], "IPv4address");
        assert_eq!(forks[0]["others"][0]["abnf"], "ireg-name");
        assert_eq!(forks[0]["others"][0]["tree"]["alternative"], 3);
        // ipath: "/a" is both ipath-abempty and ipath-absolute.
        let v: serde_json::Value =
            serde_json::from_str(&app.parses(VariantName::Iri, &q("ipath", "/a")).unwrap())
                .unwrap();
        assert_eq!(v["forks"][0]["abnf"], "ipath-abempty");
        assert_eq!(v["forks"][0]["others"][0]["abnf"], "ipath-absolute");
        // The longest input compared (the cap on forks is tested in
        // abnf/src/oracle/explain/, on a grammar with a fork per character); one longer
        // is refused.
        let long = format!("http://1.2.3.4/{}", "a/".repeat(503));
        assert_eq!(long.len(), MAX_COMPARED_CHARS - 3);
        let v: serde_json::Value =
            serde_json::from_str(&app.parses(VariantName::Iri, &q("IRI", &long)).unwrap()).unwrap();
        assert_eq!(v["forks"].as_array().unwrap().len(), 1);
        assert_eq!(v["capped"], false);
        let longer = format!("{long}abcd");
        let (status, message) = app
            .parses(VariantName::Iri, &q("IRI", &longer))
            .unwrap_err();
        assert_eq!(status, 413);
        assert!(message.contains("more than 1024 characters"), "{message}");
        let v: serde_json::Value =
            serde_json::from_str(&app.parses(VariantName::Iri, &q("IRI", "a b")).unwrap()).unwrap();
        assert_eq!(v["valid"], false);
    }
}
