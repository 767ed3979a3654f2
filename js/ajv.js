// iri-grammar/ajv: the formats `iri`, `iri-reference`, `uri` and `uri-reference` of
// JSON Schema (draft 2020-12 §7.3.5: RFC 3987 and RFC 3986) for Ajv, checked by the
// ABNF of the RFCs (the engine of iri-grammar) instead of a regex.
import { validator } from './index.js';

/** The formats by their JSON Schema names: the grammar and the rule of each. */
const FORMATS = {
  iri: { grammar: 'iri', rule: 'IRI' },
  'iri-reference': { grammar: 'iri', rule: 'IRI-reference' },
  uri: { grammar: 'uri', rule: 'URI' },
  'uri-reference': { grammar: 'uri', rule: 'URI-reference' },
};

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
  for (const [name, rule] of Object.entries(FORMATS)) {
    const isUri = name === 'uri' || name === 'uri-reference';
    if (isUri && (uri === false || (uri === undefined && ajv.formats?.[name] !== undefined))) continue;
    ajv.addFormat(name, { type: 'string', validate: validator(rule) });
  }
  return ajv;
}

export { addIriFormats };
