// Per-call CPU time of iri-grammar's isValid against the JavaScript URI checks
// people run (fast-uri, ajv's URI library; uri-js; ajv-formats' `uri`), and of the
// batch call, on the corpus lists (../shared/corpus/urls beside the repository, or
// $IRI_CORPUS/urls), side by side in one run:   node bench/bench.mjs [rounds]
//
// CPU time (process.cpuUsage: user + system of the process), not wall time: the
// machines this runs on are shared. Each contender takes its turn on every list,
// `rounds` times (default 5), keeping its best time per list; the table gives
// ns per string over all lists (the sum of the bests over the number of strings).
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { isValid, isValidMany, validator } from '../index.js';

const require = createRequire(import.meta.url);
const fastUri = require('fast-uri');
const uriJs = require('uri-js');
const { fullFormats } = require('ajv-formats/dist/formats.js');

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const corpus = join(process.env.IRI_CORPUS ?? join(root, '..', 'shared', 'corpus'), 'urls');
if (!existsSync(corpus)) {
  console.log(`bench.mjs: skipped: no corpus at ${corpus} (set IRI_CORPUS)`);
  process.exit(0);
}
const rounds = Number(process.argv[2] ?? 5);
const lists = readdirSync(corpus)
  .filter((f) => f.endsWith('.txt') && !f.startsWith('LICENSE'))
  .sort()
  .map((f) => {
    const lines = readFileSync(join(corpus, f), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    return { name: f, lines: lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) };
  });
const total = lists.reduce((n, l) => n + l.lines.length, 0);

/** CPU microseconds of `f()`. */
function cpu(f) {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

let sink = 0;
const perCall = (check) => (lines) => {
  let n = 0;
  for (let i = 0; i < lines.length; i++) if (check(lines[i])) n++;
  sink += n;
};

const uriOptions = { grammar: 'uri' };
const encoder = new TextEncoder();
const scratch = new Uint8Array(1 << 20);
const contenders = [
  ['iri-grammar isValid(s) (IRI-reference)', perCall((s) => isValid(s)), (s) => isValid(s)],
  ['iri-grammar isValid(s, {grammar: "uri"})', perCall((s) => isValid(s, uriOptions)), (s) => isValid(s, uriOptions)],
  ['iri-grammar validator({grammar: "uri"})', perCall(validator(uriOptions)), null],
  ['iri-grammar isValidMany(list) (IRI-reference)', (lines) => { sink += isValidMany(lines).length; }, null],
  ['iri-grammar isValidMany(list, {grammar: "uri"})', (lines) => { sink += isValidMany(lines, uriOptions).length; }, null],
  ['fast-uri 4.2.4 parse(s).error', perCall((s) => fastUri.parse(s).error === undefined), (s) => fastUri.parse(s).error === undefined],
  ['uri-js 4.4.1 parse(s).error', perCall((s) => uriJs.parse(s).error === undefined), (s) => uriJs.parse(s).error === undefined],
  ['ajv-formats 3.0.1 uri (full)', perCall((s) => fullFormats.uri(s)), (s) => fullFormats.uri(s)],
  // The boundary: what a call costs before the engine reads a byte.
  ['(boundary) isValid("") per call', (lines) => { for (let i = 0; i < lines.length; i++) sink += isValid('') ? 1 : 0; }, null],
  ['(boundary) TextEncoder.encodeInto(s)', (lines) => { for (let i = 0; i < lines.length; i++) sink += encoder.encodeInto(lines[i], scratch).written; }, null],
];

// Warm up the JIT on a list each.
for (const [, run] of contenders) run(lists[0].lines.slice(0, 5000));

const best = contenders.map(() => lists.map(() => Infinity));
for (let r = 0; r < rounds; r++) {
  lists.forEach((list, j) => {
    contenders.forEach(([, run], k) => {
      best[k][j] = Math.min(best[k][j], cpu(() => run(list.lines)));
    });
  });
}

const ns = best.map((b) => (b.reduce((a, x) => a + x, 0) * 1000) / total);
const isValidNs = ns[0];
const uriNs = ns[1];

// Agreement with the ABNF: the URI grammar's URI-reference for the URI libraries,
// its rule URI for ajv-formats' `uri` (which checks absolute URIs).
const agree = (f, rule) => {
  let same = 0;
  for (const { lines } of lists) for (const s of lines) if (f(s) === isValid(s, { grammar: 'uri', rule })) same++;
  return `${((100 * same) / total).toFixed(1)} %`;
};

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const wasm = readFileSync(join(here, '..', 'iri_grammar.wasm'));
console.log(`Node ${process.version}, ${total.toLocaleString('en-US')} strings in ${lists.length} lists, best of ${rounds} rounds, CPU time`);
console.log(`iri_grammar.wasm: ${wasm.length.toLocaleString('en-US')} bytes, ${gzipSync(wasm, { level: 9 }).length.toLocaleString('en-US')} gzipped\n`);
console.log('| contender | ns per string | isValid (IRI) is faster by | isValid (URI) is faster by | agrees with the ABNF (URI) |');
console.log('|---|---:|---:|---:|---:|');
contenders.forEach(([name, , f], k) => {
  const faster = name.startsWith('iri-grammar') || name.startsWith('(') ? '' : `${(ns[k] / isValidNs).toFixed(1)}×`;
  const fasterUri = faster ? `${(ns[k] / uriNs).toFixed(1)}×` : '';
  const rule = name.startsWith('ajv-formats') ? 'URI' : 'URI-reference';
  const agreement = f && !name.startsWith('iri-grammar') ? agree(f, rule) : '';
  console.log(`| ${name} | ${fmt(ns[k])} | ${faster} | ${fasterUri} | ${agreement} |`);
});
console.log(`\nbatch: ${(ns[0] / ns[3]).toFixed(1)}× the per-call rate (IRI), ${(ns[1] / ns[4]).toFixed(1)}× (URI)`);
console.log(`boundary: ${fmt(ns[8])} ns a call without the string, ${fmt(ns[9])} ns to encode a string: ${((100 * (ns[8] + ns[9])) / isValidNs).toFixed(0)} % of isValid at most (the glue copies short ASCII strings itself)`);
if (sink === -1) console.log(sink);
