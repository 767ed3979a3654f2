// iri-grammar/ajv in Ajv: every format case (data/format-cases.json), beside
// ajv-formats and without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import addIriFormats from '../ajv.js';
import { check, IriError } from '../index.js';
import { verdicts } from './formats.js';

test('every format case passes with iri-grammar/ajv', () => {
  const rows = verdicts();
  assert.ok(rows.length > 50);
  const wrong = rows.filter((r) => r.ours !== r.valid);
  assert.deepEqual(wrong, []);
  // The cases tell the two apart: ajv-formats ignores iri, and misjudges some uri.
  assert.ok(rows.some((r) => r.theirs === 'ignored'));
  assert.ok(rows.some((r) => r.theirs !== 'ignored' && r.theirs !== r.valid));
});

test('beside ajv-formats: uri replaced only when asked', () => {
  const uri = (a) => a.compile({ type: 'string', format: 'uri' });
  // `a:` is a URI (RFC 3986 §3: path-empty); ajv-formats' regex says no.
  const plain = new Ajv2020();
  addFormats(plain);
  assert.equal(uri(plain)('a:'), false);

  const beside = new Ajv2020();
  addFormats(beside);
  addIriFormats(beside);
  assert.equal(uri(beside)('a:'), false, 'ajv-formats keeps its uri');
  assert.equal(beside.compile({ type: 'string', format: 'iri' })('http://é/'), true);
  assert.equal(beside.compile({ type: 'string', format: 'date' })('2024-01-01'), true);

  const replaced = new Ajv2020();
  addFormats(replaced);
  addIriFormats(replaced, { uri: true });
  assert.equal(uri(replaced)('a:'), true);
  assert.equal(replaced.compile({ type: 'string', format: 'uri-reference' })('/[::]'), false);

  const untouched = new Ajv2020();
  addIriFormats(untouched, { uri: false });
  assert.equal(untouched.formats.uri, undefined);

  const alone = new Ajv2020();
  addIriFormats(alone);
  assert.equal(uri(alone)('a:'), true);
  assert.equal(uri(alone)(12), false, 'a string schema still rejects a number by type');
});

test('bad arguments', () => {
  assert.throws(() => addIriFormats({}), TypeError);
  assert.throws(() => addIriFormats(new Ajv2020(), { uri: 'yes' }), TypeError);
  assert.throws(() => addIriFormats(new Ajv2020(), 3), TypeError);
});

test('the formats (the core module alone) answer as the engine does', () => {
  // ajv.js walks the tables of its own instance of the core module; check, on the
  // main entry's, decides: each format is the rule it names.
  const formats = {};
  addIriFormats({ formats: {}, addFormat(name, f) { formats[name] = f; } });
  const rules = {
    iri: ['iri', 'IRI'],
    'iri-reference': ['iri', 'IRI-reference'],
    uri: ['uri', 'URI'],
    'uri-reference': ['uri', 'URI-reference'],
  };
  const engine = (s, grammar, rule) => {
    try {
      check(s, { grammar, rule });
      return true;
    } catch (e) {
      if (e instanceof IriError) return false;
      throw e;
    }
  };
  const pieces = ['', 'a', 'a:', 'http://', '//h', '/', '?', '#', '%41', '%4', '[::1]', ':80',
    '[v7.x]', 'é', '\u{E000}', '\u{1F600}', '\uD800', '\uFFFD', ' ', '\u0000', '@', '{', '..'];
  let compared = 0;
  for (const a of pieces) {
    for (const b of pieces) {
      for (const s of [a + b, `http://${a}/${b}?${a}#${b}`, `${a}:${b}`]) {
        for (const [name, [grammar, rule]] of Object.entries(rules)) {
          assert.equal(formats[name].validate(s), engine(s, grammar, rule), `${name} ${JSON.stringify(s)}`);
          compared++;
        }
      }
    }
  }
  assert.ok(compared > 6000);
  assert.equal(formats.uri.validate(42), false, 'a non-string is not valid');
});

