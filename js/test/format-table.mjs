// Prints the format cases side by side, iri-grammar/ajv and ajv-formats, as the
// Markdown table of js/README.md:  node test/format-table.mjs
import { verdicts } from './formats.js';

const show = (v) => (v === 'ignored' ? 'ignored (unknown format)' : v ? 'valid' : 'invalid');
const rows = verdicts();
console.log('| format | data | RFC | iri-grammar/ajv | ajv-formats 3.0.1 |');
console.log('|---|---|---|---|---|');
for (const r of rows) {
  if (typeof r.data !== 'string' || r.theirs === r.valid || r.theirs === 'ignored') continue;
  // Private-use characters print as nothing: escaped.
  const data = JSON.stringify(r.data).replace(/[\uE000-\uF8FF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    .replace(/\|/g, '\\|');
  console.log(`| ${r.format} | \`${data}\` | ${r.why} | ${show(r.ours)} | **${show(r.theirs)}** |`);
}
const strings = rows.filter((r) => typeof r.data === 'string');
const right = (k) => strings.filter((r) => r[k] === r.valid).length;
const ignored = rows.filter((r) => typeof r.data === 'string' && r.theirs === 'ignored');
console.log(`\najv-formats has no ${[...new Set(ignored.map((r) => r.format))].join(' or ')} format: Ajv ignores the format (it warns "unknown format ... ignored"), so all ${ignored.length} of those cases pass, the ${ignored.filter((r) => !r.valid).length} invalid strings among them too.`);
console.log(`\nRight on ${right('ours')} of ${strings.length} string cases (iri-grammar/ajv), ${right('theirs')} (ajv-formats); the rows above are those ajv-formats gets wrong or ignores.`);
