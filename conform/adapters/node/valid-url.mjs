// valid-url behind `iri conform` (docs/conform-protocol.md): `is_uri(s)`, which
// returns the URI or undefined. Its own checks, after RFC 3986: a character set,
// percent-encoding, Appendix B's split, a scheme required (so the rule is URI),
// and the path's start. A verdict only: it exports no components.
import { need, ruleAsked, serve } from "./protocol.mjs";

ruleAsked("valid-url", { uri: ["URI"] });
const validUrl = need("valid-url");

await serve((s) => (validUrl.is_uri(s) === undefined ? "invalid" : "valid"));
