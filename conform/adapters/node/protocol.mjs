// What the npm adapters here share: the rule check, the package load and the
// answer loop of docs/conform-protocol.md, and the recomposition that decides
// whether a library's components are the input's text.
import { createInterface } from "node:readline";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

// The rule asked, or exit 2 with why if it is not one of `rules[grammar]`. Unset
// (a run by hand), it is the grammar's reference rule where the adapter answers
// it, else the first it answers.
export function ruleAsked(name, rules) {
  const grammar = process.env.IRI_CONFORM_GRAMMAR ?? "uri";
  const reference = grammar === "uri" ? "URI-reference" : "IRI-reference";
  const answered = rules[grammar] ?? [];
  const rule = process.env.IRI_CONFORM_RULE ?? (answered.includes(reference) ? reference : answered[0]);
  if (!answered.includes(rule)) {
    const known = Object.entries(rules).map(([g, r]) => `${r.join(", ")} in grammar ${g}`);
    process.stderr.write(`${name}: answers ${known.join("; ")}, not ${rule ?? "a rule"} in ${grammar}\n`);
    process.exit(2);
  }
  return rule;
}

// The package, from this folder's node_modules (package-lock.json pins it), or
// exit 3 with what to run.
export function need(pkg) {
  try {
    return require(pkg);
  } catch (e) {
    if (e.code !== "MODULE_NOT_FOUND") throw e;
    process.stderr.write(`needs: npm ci --prefix conform/adapters/node (${pkg})\n`);
    process.exit(3);
  }
}

// RFC 3986 §5.3's recomposition of the components (undefined or null: absent).
// A library whose components recompose into the input gave them as its text, not
// case-folded, decoded or normalized; otherwise they are not the input's text.
export function recomposes(s, c) {
  const has = (v) => v !== undefined && v !== null;
  let out = "";
  if (has(c.scheme)) out += c.scheme + ":";
  if (has(c.host)) {
    out += "//";
    if (has(c.userinfo)) out += c.userinfo + "@";
    out += c.host;
    if (has(c.port)) out += ":" + c.port;
  }
  out += c.path ?? "";
  if (has(c.query)) out += "?" + c.query;
  if (has(c.fragment)) out += "#" + c.fragment;
  return out === s;
}

// One answer a line, written as soon as it is found (Node buffers nothing of its
// own on a pipe). `answer` returns "valid", "invalid" or an object; a throw is
// left to end the program, so that `iri conform` reports it as a crash with its
// input: a library that throws instead of answering has a bug worth seeing.
export async function serve(answer) {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    const a = answer(JSON.parse(line));
    process.stdout.write((typeof a === "string" ? a : JSON.stringify(a)) + "\n");
  }
}
