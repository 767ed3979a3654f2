// The format cases (data/format-cases.json) run through Ajv (draft 2020-12) with
// iri-grammar/ajv, and with ajv-formats for comparison. Used by ajv.test.js and by
// format-table.mjs (the table in js/README.md).
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import addIriFormats from '../ajv.js';

export const cases = JSON.parse(readFileSync(new URL('./data/format-cases.json', import.meta.url), 'utf8'));

/** Ajv as JSON Schema test runners make it: formats asserted, no strict types (the
 *  cases' schemas have `format` alone). */
function ajv() {
  return new Ajv2020({ strictTypes: false, strict: false, validateFormats: true, logger: false });
}

/** Each case with the verdict of ours and of ajv-formats (`ignored` where it has
 *  no such format and Ajv lets it pass). */
export function verdicts() {
  const ours = addIriFormats(ajv());
  const theirs = ajv();
  addFormats(theirs);
  const rows = [];
  for (const [format, list] of Object.entries(cases.formats)) {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', format };
    const mine = ours.compile(schema);
    const known = Object.hasOwn(theirs.formats, format);
    const other = theirs.compile(schema);
    for (const c of list) {
      rows.push({ format, ...c, ours: mine(c.data), theirs: known ? other(c.data) : 'ignored' });
    }
  }
  return rows;
}
