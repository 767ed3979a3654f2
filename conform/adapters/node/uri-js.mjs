// uri-js (Ajv 6's URI code) behind `iri conform` (docs/conform-protocol.md):
// `parse(s)` with its default options, read as valid when the result has no
// `error` field, the library's only word on validity. It splits with RFC 3986's
// Appendix B regular expression, which matches every string, and sets `error`
// only where a host cannot be punycode-encoded or a scheme's handler objects:
// it percent-encodes, lowercases and punycode-encodes what it keeps rather than
// refuse it. Components are given only where they recompose into the input (its
// port is a number, its host may be normalized): then they are the input's text.
// A throw from `parse` is reported as a crash.
import { need, recomposes, ruleAsked, serve } from "./protocol.mjs";

ruleAsked("uri-js", { uri: ["URI-reference"] });
const uriJs = need("uri-js");

await serve((s) => {
  const p = uriJs.parse(s);
  if (p.error !== undefined) return "invalid";
  const c = {
    scheme: p.scheme, userinfo: p.userinfo, host: p.host,
    port: p.port === undefined ? undefined : String(p.port),
    path: p.path, query: p.query, fragment: p.fragment,
  };
  if (!recomposes(s, c)) return "valid";
  const found = { valid: true };
  for (const [k, v] of Object.entries(c)) found[k] = v ?? null;
  return found;
});
