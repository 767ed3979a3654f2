// Per-call CPU time of iri-grammar's isValid against the JavaScript URI checks
// people run (fast-uri, ajv's URI library; uri-js; ajv-formats' `uri`), and of the
// batch call, on the corpus lists (../shared/corpus/urls beside the repository, or
// $IRI_CORPUS/urls), side by side in one run:   node bench/bench.mjs [rounds]
//
// CPU time (process.cpuUsage: user + system of the process), not wall time: the
// machines this runs on are shared. Each contender takes its turn on every list,
// `rounds` times (default 5), keeping its best time per list; the table gives
// ns per string over all lists (the sum of the bests over the number of strings).
// The strings are made as JSON.parse makes the strings Ajv validates.
//
// It prints markdown: the table, and the budgets of the package (issue 51) with
// their ratios, met or not met. With --record it also writes them to
// bench/record/DATE-COMMIT-js.md (DATE: UTC to the minute; COMMIT: IRI_BENCH_COMMIT
// or HEAD), from which bench/regenerate.sh writes BENCHMARKS.md's JavaScript tables:
//   node js/bench/bench.mjs 5 --record && TIME=0 bench/regenerate.sh none
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { isValid, isValidMany, validator } from '../index.js';
import addIriFormats from '../ajv.js';

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
const args = process.argv.slice(2);
const record = args.includes('--record');
const rounds = Number(args.find((a) => /^[0-9]+$/.test(a)) ?? 5);
const lists = readdirSync(corpus)
  .filter((f) => f.endsWith('.txt') && !f.startsWith('LICENSE'))
  .sort()
  .map((f) => {
    const lines = readFileSync(join(corpus, f), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const trimmed = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    // Each line a string of its own, as JSON.parse gives Ajv its strings: split()
    // leaves slices of the file's text, whose characters every contender reads
    // through one more indirection (a third slower for a bare charCodeAt loop).
    return { name: f, lines: JSON.parse(JSON.stringify(trimmed)) };
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
// The validators iri-grammar/ajv gives Ajv (the core module's tables).
const formats = {};
addIriFormats({ formats: {}, addFormat(name, f) { formats[name] = f.validate; } });
// `ihier-part` is one of the rules the compiled automaton leaves to the engine's
// combinators (src/grammar/automata.rs): its calls cross into the full module.
const intoModule = { rule: 'ihier-part' };
const encoder = new TextEncoder();
const scratch = new Uint8Array(1 << 20);
const contenders = [
  ['iri-grammar isValid(s) (IRI-reference)', perCall((s) => isValid(s)), (s) => isValid(s)],
  ['iri-grammar isValid(s, {grammar: "uri"})', perCall((s) => isValid(s, uriOptions)), (s) => isValid(s, uriOptions)],
  ['iri-grammar validator({grammar: "uri"})', perCall(validator(uriOptions)), null],
  ['iri-grammar/ajv format uri-reference', perCall(formats['uri-reference']), null],
  ['iri-grammar isValidMany(list) (IRI-reference)', (lines) => { sink += isValidMany(lines).length; }, null],
  ['iri-grammar isValidMany(list, {grammar: "uri"})', (lines) => { sink += isValidMany(lines, uriOptions).length; }, null],
  ['fast-uri 4.2.4 parse(s).error', perCall((s) => fastUri.parse(s).error === undefined), (s) => fastUri.parse(s).error === undefined],
  ['uri-js 4.4.1 parse(s).error', perCall((s) => uriJs.parse(s).error === undefined), (s) => uriJs.parse(s).error === undefined],
  ['ajv-formats 3.0.1 uri (full)', perCall((s) => fullFormats.uri(s)), (s) => fullFormats.uri(s)],
  // What a call costs with no string to walk; a call into the module (a rule the
  // automaton does not hold, which the engine decides), with an empty string; and
  // what writing a string into the module's memory would cost.
  ['(glue) isValid("") per call', (lines) => { for (let i = 0; i < lines.length; i++) sink += isValid('') ? 1 : 0; }, null],
  ['(boundary) a call into the module, empty string', (lines) => { for (let i = 0; i < lines.length; i++) sink += isValid('', intoModule) ? 1 : 0; }, null],
  // What reading the string's characters costs at all: a loop of charCodeAt, the
  // least a walk in JavaScript does.
  ['(floor) a charCodeAt loop over s', (lines) => {
    let x = 0;
    for (let i = 0; i < lines.length; i++) {
      const s = lines[i];
      for (let j = 0; j < s.length; j++) x = (x + s.charCodeAt(j)) | 0;
    }
    sink += x;
  }, null],
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
// Two decimals near 1, where met and not met part.
const ratio = (x) => `${x.toFixed(x < 2 ? 2 : 1)}×`;
const wasm = readFileSync(join(here, '..', 'iri_grammar.wasm'));
const gz = gzipSync(wasm, { level: 9 }).length;
const fullModule = readFileSync(join(here, '..', 'iri_grammar_full.wasm'));
const fullGz = gzipSync(fullModule, { level: 9 }).length;
const commit = process.env.IRI_BENCH_COMMIT
  ?? execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const date = new Date().toISOString();
const out = [];
const say = (line = '') => out.push(line);

say('#### js — isValid per call in Node (ns per string)');
say();
say(`\`node js/bench/bench.mjs ${rounds}\` at \`${commit}\` on ${date.slice(0, 16).replace('T', ' ')} UTC: Node ${process.version}, ${total.toLocaleString('en-US')} strings of the corpus's ${lists.length} lists, the best of ${rounds} rounds per list, CPU time (user + system) over the strings of all lists.`);
say();
say('| contender | ns per string | isValid (IRI) is faster by | isValid (URI) is faster by | agrees with the ABNF (URI) |');
say('|---|---:|---:|---:|---:|');
contenders.forEach(([name, , f], k) => {
  const ours = name.startsWith('iri-grammar') || name.startsWith('(');
  const faster = ours ? '' : ratio(ns[k] / isValidNs);
  const fasterUri = ours ? '' : ratio(ns[k] / uriNs);
  const rule = name.startsWith('ajv-formats') ? 'URI' : 'URI-reference';
  const agreement = f && !name.startsWith('iri-grammar') ? agree(f, rule) : '';
  say(`| ${name} | ${fmt(ns[k])} | ${faster} | ${fasterUri} | ${agreement} |`);
});
say();

// The budgets, each with the slower of the two isValid calls (IRI-reference by
// default, URI-reference with {grammar: "uri"}).
const slower = Math.max(isValidNs, uriNs);
const byName = (prefix) => ns[contenders.findIndex(([name]) => name.startsWith(prefix))];
const fast = byName('fast-uri');
const urijs = byName('uri-js');
const ajvRegex = byName('ajv-formats');
const batch = Math.max(byName('iri-grammar isValidMany(list) (IRI'), byName('iri-grammar isValidMany(list, {grammar'));
const glue = byName('(glue)');
const crossing = byName('(boundary) a call');
const encode = byName('(boundary) TextEncoder');
const floor = byName('(floor)');
// The sizes of the module's code and data sections (the WebAssembly binary format:
// an id byte, then a LEB128 length, after the 8-byte header).
const sections = {};
for (let at = 8; at < wasm.length;) {
  const id = wasm[at++];
  let len = 0;
  for (let shift = 0; ; shift += 7) {
    const b = wasm[at++];
    len += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  sections[id] = (sections[id] ?? 0) + len;
  at += len;
}
const verdict = (ok) => (ok ? 'met' : '**not met**');
say('#### js — budgets');
say();
say(`Modules \`js/iri_grammar.wasm\` (the core, loaded at import) and \`js/iri_grammar_full.wasm\` (loaded when a call needs it) as \`bash js/build.sh\` writes them at \`${commit}\`; the speeds from the table above, each with the slower of \`isValid(s)\` and \`isValid(s, {grammar: "uri"})\` (${fmt(slower)} ns).`);
say();
say('| budget | measured | target | |');
say('|---|---:|---:|---|');
say(`| module size: validation, components, resolution, conversions, normalization (the core, all iri-grammar/ajv loads) | ${fmt(wasm.length)} B (${fmt(gz)} B gzip, level 9 of Node's zlib) | ≤ 250,000 B | ${verdict(wasm.length <= 250000)} |`);
say(`| of which code, data (the automata's transitions) | ${fmt(sections[10] ?? 0)} B, ${fmt(sections[11] ?? 0)} B | | |`);
say(`| the full module: the core's exports, and errors explained, IDNA, NFC, the combinators, the 2001 grammar | ${fmt(fullModule.length)} B (${fmt(fullGz)} B gzip) | second module, on demand | |`);
say(`| isValid faster than fast-uri \`parse(s).error\` | ${ratio(fast / slower)} | ≥ 15× | ${verdict(fast / slower >= 15)} |`);
say(`| isValid faster than uri-js \`parse(s).error\` | ${ratio(urijs / slower)} | ≥ 25× | ${verdict(urijs / slower >= 25)} |`);
say(`| isValid faster than ajv-formats' \`uri\` regex | ${ratio(ajvRegex / slower)} | ≥ 1× | ${verdict(ajvRegex / slower >= 1)} |`);
say(`| isValidMany per string, faster than isValid | ${ratio(slower / batch)} | ≥ 3× | ${verdict(slower / batch >= 3)} |`);
say(`| the boundary in a call of isValid | none: ${fmt(glue)} ns a call with no string; isValid walks the engine's automaton in JavaScript | — | |`);
say(`| reading the string at all: a charCodeAt loop | ${fmt(floor)} ns, ${((100 * floor) / slower).toFixed(0)} % of isValid; 15× fast-uri needs ${fmt(fast / 15)} ns a call | — | |`);
say(`| the boundary where a call crosses (rules the automaton lacks, and every other export) | ${fmt(crossing)} ns a call with an empty string, + ${fmt(encode)} ns to encode a string (TextEncoder.encodeInto): ${((100 * (crossing + encode)) / slower).toFixed(0)} % of isValid | — | |`);
say();

const text = out.join('\n');
console.log(text);
if (record) {
  const stamp = `${date.slice(0, 10)}T${date.slice(11, 13)}${date.slice(14, 16)}-${commit}`;
  const file = join(root, 'bench', 'record', `${stamp}-js.md`);
  writeFileSync(file, `${text}\n`);
  console.error(`bench.mjs: wrote ${file}`);
}
if (sink === -1) console.log(sink);
