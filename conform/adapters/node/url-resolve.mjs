// Node's built-in WHATWG `URL` resolving, `new URL(reference, base)`, behind
// `iri conform --resolve` (docs/conform-protocol.md, the resolution exchange).
//
// `URL` follows the WHATWG URL Standard, not RFC 3986: it refuses a base with an
// opaque path (`a:b`) for most references, and normalizes its targets (case,
// percent-encoding, default ports, `/` for the empty path of a special scheme).
import { createInterface } from "node:readline";

if (process.env.IRI_CONFORM_MODE !== "resolve") {
  process.stderr.write("node URL resolve: resolution only: run it with iri conform --resolve\n");
  process.exit(2);
}

function answer([base, reference]) {
  try {
    return JSON.stringify(new URL(reference, base).href);
  } catch {
    return "invalid";
  }
}

// One answer a line, written as soon as it is made (a pipe's output is not kept
// back by Node: each write goes out in order).
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  process.stdout.write(answer(JSON.parse(line)) + "\n");
}
