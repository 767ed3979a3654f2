// Agreement with the `iri` command of this checkout (the Rust library through its
// command line): every verdict and error offset, on the corpus lists
// (../shared/corpus/urls beside the repository, or $IRI_CORPUS/urls) and on
// `iri generate --cover` and `--cover --invalid` of every rule of the URI, IRI and
// LEIRI grammars. The command is $IRI_BIN, else target/debug/iri or
// target/release/iri of the checkout (cargo build -p iri-cli); without one, or
// without the corpus, the tests say so and are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { isValid, isValidMany, check, rules } from '../index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const iri = process.env.IRI_BIN
  ?? [join(targetDir, 'debug', 'iri'), join(targetDir, 'release', 'iri')].find((p) => existsSync(p));
const noIri = iri === undefined
  ? 'no iri command: build it (cargo build -p iri-cli) or set IRI_BIN'
  : false;
const corpus = join(process.env.IRI_CORPUS ?? join(root, '..', 'shared', 'corpus'), 'urls');
const lists = existsSync(corpus)
  ? readdirSync(corpus).filter((f) => f.endsWith('.txt') && !f.startsWith('LICENSE')).sort()
  : [];
const noCorpus = lists.length === 0 ? `no corpus at ${corpus} (set IRI_CORPUS)` : false;
if (noIri) console.log(`# cli.test.js: skipped: ${noIri}`);
if (noCorpus) console.log(`# cli.test.js: corpus tests skipped: ${noCorpus}`);

function run(args, input) {
  const out = spawnSync(iri, args, { input, maxBuffer: 1 << 30 });
  assert.ok(out.status === 0 || out.status === 1, `${iri} ${args.join(' ')}: ${out.status} ${out.stderr}`);
  return out.stdout.toString('utf8');
}

/** The output of `iri ARGS`, from a child that does not hold this thread, so that
 *  several run at once (generate --cover works out every string with the ABNF). */
function runAside(args) {
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(iri, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', rejectRun);
    child.on('close', (status) => {
      if (status === 0 || status === 1) resolveRun(Buffer.concat(out).toString('utf8'));
      else rejectRun(new Error(`${iri} ${args.join(' ')}: ${status} ${Buffer.concat(err)}`));
    });
  });
}

/** `f` of each of `items`, `n` at a time, the results in the items' order. */
async function inTurns(items, n, f) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      results[k] = await f(items[k]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return results;
}

/** Whether a line of standard input carries `s` as it is: no LF, no CR before
 *  the LF that ends it (the command drops that one). */
const lineable = (s) => !s.includes('\n') && !s.endsWith('\r');
/** Whether an argument carries `s`: a command line holds no NUL. */
const argable = (s) => !s.includes('\0');

/** The `iri --json check` records of `strings`: one per line of standard input;
 *  strings a line cannot carry (LEIRIs may hold a line break) as arguments. A
 *  string neither can carry (a NUL and a line break: LEIRI's ucschar has the
 *  controls) gets no record. */
function verdicts(grammar, rule, strings) {
  const args = ['--grammar', grammar, '--json', 'check', ...(rule ? ['--rule', rule] : [])];
  const byLine = strings.filter(lineable);
  const byArg = strings.filter((s) => !lineable(s) && argable(s));
  const records = new Map();
  const read = (text) => {
    for (const line of text.split('\n')) {
      if (line) {
        const r = JSON.parse(line);
        records.set(r.input, r);
      }
    }
  };
  if (byLine.length) read(run(args, `${byLine.join('\n')}\n`));
  for (let i = 0; i < byArg.length; i += 200) read(run([...args, '--', ...byArg.slice(i, i + 200)]));
  return records;
}

/** Compares isValid, isValidMany and check with the command on `strings`. */
function agree(grammar, rule, strings, what) {
  const records = verdicts(grammar, rule, strings);
  const o = { grammar, rule };
  const many = isValidMany(strings, o);
  const disagree = [];
  strings.forEach((s, i) => {
    const r = records.get(s);
    if (!lineable(s) && !argable(s)) return; // the command cannot be asked
    if (!r) {
      disagree.push([s, 'no record']);
      return;
    }
    let offset = null;
    try {
      check(s, o);
    } catch (e) {
      offset = e.codePointOffset;
    }
    const mine = isValid(s, o);
    if (mine !== r.valid || many[i] !== r.valid || (offset === null) !== r.valid) {
      disagree.push([s, mine, many[i], offset, r.valid]);
    } else if (!r.valid && r.error.kind === 'grammar' && r.error.char_offset !== offset) {
      disagree.push([s, 'offset', offset, r.error.char_offset]);
    }
  });
  assert.deepEqual(disagree.slice(0, 5), [], `${what}: ${disagree.length} of ${strings.length} disagree`);
  return strings.length;
}

/** The lines as the command reads them: a byte order mark opening the file left
 *  out (RFC 3629 §6), split at LF, a CR before it dropped. */
function linesOf(path) {
  const text = readFileSync(path, 'utf8');
  const lines = (text.startsWith('\ufeff') ? text.slice(1) : text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

for (const grammar of ['iri', 'uri']) {
  for (const list of lists) {
    test(`corpus ${list} (${grammar}) agrees with iri check`, { skip: noIri || noCorpus }, () => {
      agree(grammar, undefined, linesOf(join(corpus, list)), list);
    });
  }
}

for (const grammar of ['uri', 'iri', 'leiri']) {
  test(`generate --cover / --invalid of every ${grammar} rule agrees with iri check`, { skip: noIri }, async () => {
    const names = run(['--grammar', grammar, 'grammar']).split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]);
    assert.deepEqual(names, rules(grammar), 'the rules of the command and of the package');
    const asked = names.flatMap((rule) => [false, true].map((invalid) => ({ rule, invalid })));
    // The strings are generated a command a core (most of this test's time), then
    // compared in turn.
    const generated = await inTurns(asked, availableParallelism(), ({ rule, invalid }) =>
      runAside(['--grammar', grammar, '--json', 'generate', '--cover', '--rule', rule, ...(invalid ? ['--invalid'] : [])]));
    let compared = 0;
    asked.forEach(({ rule, invalid }, k) => {
      // A rule of single characters has no alternatives to cover: the command
      // says so and writes nothing.
      const strings = generated[k].split('\n').filter(Boolean)
        .map((l) => JSON.parse(l))
        .map((r) => r.generated ?? r.input ?? r.string);
      if (strings.length === 0) return;
      compared += agree(grammar, rule, strings, `${grammar} ${rule}${invalid ? ' --invalid' : ''}`);
    });
    assert.ok(compared > 500, `only ${compared} strings compared`);
    console.log(`# ${grammar}: ${compared} generated strings over ${names.length} rules agree`);
  });
}
