// Ajv 8 with ajv-formats 3 behind `iri conform` (docs/conform-protocol.md): the
// JSON Schema formats `uri` (rule URI) and `uri-reference` (rule URI-reference),
// asked through a compiled schema `{"type": "string", "format": ...}` as a user
// asks them. ajv-formats' `full` mode (its default, named here): `uri` and
// `uri-reference` are its own regular expressions, written after RFC 3986's ABNF
// (`uri` also requires a `/` or `:`); `fast` mode is far looser. There is no `iri`
// format (ajv-validator/ajv-formats#120), so the grammar is uri alone. A verdict
// only: a format has no components.
import { need, ruleAsked, serve } from "./protocol.mjs";

const rule = ruleAsked("ajv-formats", { uri: ["URI", "URI-reference"] });
const Ajv = need("ajv");
const addFormats = need("ajv-formats");
const format = rule === "URI" ? "uri" : "uri-reference";
const ajv = new Ajv();
addFormats(ajv, { mode: "full", formats: [format] });
const validate = ajv.compile({ type: "string", format });

await serve((s) => (validate(s) ? "valid" : "invalid"));
