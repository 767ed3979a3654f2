// fast-uri behind `iri conform` (docs/conform-protocol.md): `parse(s)` with its
// default options, read as valid when the result has no `error` field (the
// library's only word on validity; it percent-encodes, lowercases and
// punycode-encodes what it keeps rather than refuse it). Its own code, after
// RFC 3986's Appendix B split, with checks on the scheme, host, port and
// percent-encoding. Components are given only where they recompose into the
// input (its port is a number, its host may be normalized): then they are the
// input's text. A throw from `parse` is reported as a crash.
import { need, recomposes, ruleAsked, serve } from "./protocol.mjs";

ruleAsked("fast-uri", { uri: ["URI-reference"] });
const fastUri = need("fast-uri");

await serve((s) => {
  const p = fastUri.parse(s);
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
