// iri-grammar/ajv: the formats `iri`, `iri-reference`, `uri` and `uri-reference` of
// JSON Schema (draft 2020-12 §7.3.5: RFC 3987 and RFC 3986) for Ajv, checked by the
// ABNF of the RFCs instead of a regex: by the compiled automata of iri-grammar's
// engine, which accept exactly the language of each rule. They come from the
// package's core module (iri_grammar.wasm, the one its main entry loads at import;
// not the full one) and are walked here (automata.js).
import { compileModule, readTables, startOf, walk } from './automata.js';

const automata = new WebAssembly.Instance(
  await compileModule(new URL('./iri_grammar.wasm', import.meta.url)),
  {},
).exports;
const RFC3986 = readTables(automata, 0);
const RFC3987 = readTables(automata, 1);

/** The formats by their JSON Schema names: the automaton and the start state of
 *  the rule of each. */
const FORMATS = {
  iri: [RFC3987, startOf(RFC3987, RFC3987.absolute)],
  'iri-reference': [RFC3987, startOf(RFC3987, -1)],
  uri: [RFC3986, startOf(RFC3986, RFC3986.absolute)],
  'uri-reference': [RFC3986, startOf(RFC3986, -1)],
};
for (const [name, [, start]] of Object.entries(FORMATS)) {
  // The generator compiles the reference rules always (abnf/src/codegen/automata.rs).
  if (start < 0) throw new Error(`iri-grammar/ajv: the module has no automaton for ${name}`);
}

/**
 * Adds the four formats to `ajv` and returns it. `iri` and `iri-reference` are
 * always set. `uri` and `uri-reference` are set where the instance has none yet
 * (alone, or added before ajv-formats, which then replaces them); `{uri: true}`
 * replaces those of ajv-formats (call it after addFormats), `{uri: false}` leaves
 * them alone.
 */
export default function addIriFormats(ajv, opts = {}) {
  if (ajv === null || typeof ajv !== 'object' || typeof ajv.addFormat !== 'function') {
    throw new TypeError('iri-grammar/ajv: expected an Ajv instance (something with addFormat)');
  }
  if (opts === null || typeof opts !== 'object') {
    throw new TypeError('iri-grammar/ajv: options must be an object');
  }
  const { uri } = opts;
  if (uri !== undefined && typeof uri !== 'boolean') {
    throw new TypeError('iri-grammar/ajv: the uri option is true, false or absent');
  }
  for (const [name, [tables, start]] of Object.entries(FORMATS)) {
    const isUri = name === 'uri' || name === 'uri-reference';
    if (isUri && (uri === false || (uri === undefined && ajv.formats?.[name] !== undefined))) continue;
    // Anything but a string is not valid: a format check may be handed anything.
    const validate = (s) => typeof s === 'string' && walk(tables, start, s);
    ajv.addFormat(name, { type: 'string', validate });
  }
  return ajv;
}

export { addIriFormats };
