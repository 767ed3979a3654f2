// Node's built-in WHATWG `URL` behind `iri conform` (docs/conform-protocol.md).
//
// `URL` follows another standard: the WHATWG URL Standard, not RFC 3986 or RFC 3987.
// It accepts absolute URLs only (a relative reference needs a base, which the
// protocol does not give), forgives what the RFCs refuse (spaces at the ends,
// backslashes, a missing `//`) and normalizes what it keeps (case, IDNA,
// percent-encoding, default ports, dot segments). Components are given only when
// its serialization `href` is the input itself, so that they are the input's text
// (but for the `/.` it writes before a path starting with `//` without a host,
// which `pathname` does not include); and only those its getters tell apart from
// absence: `search`, `hash`, `port` and `hostname` are "" both when absent and when
// empty, so an empty one is left out.
import { createInterface } from "node:readline";

const grammar = process.env.IRI_CONFORM_GRAMMAR ?? "iri";
const rule = process.env.IRI_CONFORM_RULE ?? (grammar === "uri" ? "URI-reference" : "IRI-reference");
const rules = { uri: ["URI-reference", "URI"], iri: ["IRI-reference", "IRI"] };
if (!(rules[grammar] ?? []).includes(rule)) {
  process.stderr.write(`node URL: no rule ${rule} for grammar ${grammar}\n`);
  process.exit(2);
}

function answer(s) {
  let u;
  try {
    u = new URL(s);
  } catch {
    return "invalid";
  }
  if (u.href !== s) return "valid";
  const found = { valid: true, scheme: u.protocol.slice(0, -1), path: u.pathname };
  if (u.hostname !== "") found.host = u.hostname;
  if (u.port !== "") found.port = u.port;
  if (u.search !== "") found.query = u.search.slice(1);
  if (u.hash !== "") found.fragment = u.hash.slice(1);
  return JSON.stringify(found);
}

// One answer a line, written as soon as it is found: Node buffers nothing of its
// own on a pipe (writes to one are synchronous on Linux, in order everywhere).
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  process.stdout.write(answer(JSON.parse(line)) + "\n");
}
