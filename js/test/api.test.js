// The API of iri-grammar: answers, errors, bad input, the batch call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isValid, isValidMany, validator, check, rules, parse, resolve, toUri, toIri, normalize,
  equivalent, IriError, loadFull,
} from '../index.js';

test('isValid by grammar and rule', () => {
  assert.equal(isValid('http://résumé.example/'), true); // IRI-reference, RFC 3987
  assert.equal(isValid('http://résumé.example/', { grammar: 'uri' }), false); // RFC 3986
  assert.equal(isValid('http://ƒøø.ßår/\n'), false); // no rule has a line break
  assert.equal(isValid('http://a/ b', { grammar: 'leiri' }), true); // LEIRI allows space
  assert.equal(isValid('2001:db8::1', { rule: 'IPv6address' }), true);
  assert.equal(isValid('../g', { rule: 'irelative_ref' }), true); // `_` for `-`
  assert.equal(isValid('../g', { rule: 'IRI' }), false);
  assert.equal(isValid('1.2.3.256', { grammar: 'uri', rule: 'IPv4address' }), false);
  assert.equal(isValid('255', { grammar: 'URI', rule: 'DEC-OCTET' }), true); // case-insensitive
  assert.equal(isValid(''), true); // the empty relative reference
  assert.equal(isValid('a:', { grammar: 'uri', rule: 'URI' }), true);
  assert.ok(rules('uri').includes('pchar'));
  assert.ok(!rules('uri').includes('ucschar'));
  assert.equal(isValid('a', { grammar: 'iri-2001', rule: 'absoluteIRI' }), false);
  assert.equal(isValid('a', { grammar: 'leiri', rule: 'LEIRI' }), false);
});

// isValid walks the engine's automaton in JavaScript over the string's UTF-16,
// making the UTF-8 bytes itself; check asks the engine in WebAssembly. Both must
// give one answer on every length of UTF-8 sequence, surrogate pairs, lone
// surrogates (U+FFFF) at every place, and U+FFFD, U+FFFE, U+FFFF themselves.
test('isValid (the walk here) answers as check (the engine) does', () => {
  const pieces = ['', 'a', 'http://', '//h', ':', '/', '?', '#', '%41', '%4', '[::1]', ':80',
    'é', '\u0800', '\u{E000}', '\u{F900}', '\u{10000}', '\u{1F600}', '\u{E0001}', '\u{10FFFD}',
    '\uD800', '\uDC00', '\uDBFF\uDFFF', '\uFFFD', '\uFFFE', '\uFFFF', ' ', '\u0000', '\u007f',
    'a-b.c~_', '@', '!$&\'()*+,;=', '{', '\\'];
  const strings = [];
  for (const a of pieces) for (const b of pieces) strings.push(a + b, `http://x/${a}?${b}#${a}`);
  const engine = (s, o) => {
    try {
      check(s, o);
      return true;
    } catch (e) {
      if (e instanceof IriError) return false;
      throw e;
    }
  };
  const some = {
    uri: ['path-abempty', 'query', 'host', 'IPv6address', 'segment', 'hier-part'],
    iri: ['ipath-abempty', 'iquery', 'ihost', 'IPv6address', 'isegment', 'ihier-part'],
    leiri: ['ipath-abempty', 'iquery', 'ihost', 'IPv6address', 'isegment', 'ihier-part'],
  };
  for (const grammar of ['uri', 'iri', 'leiri']) {
    for (const rule of [undefined, ...some[grammar]]) {
      const o = rule === undefined ? { grammar } : { grammar, rule };
      for (const s of strings) {
        assert.equal(isValid(s, o), engine(s, o), `${grammar} ${rule} ${JSON.stringify(s)}`);
      }
      assert.deepEqual(isValidMany(strings, o), strings.map((s) => engine(s, o)));
    }
  }
});

test('check throws an IriError saying where and why', () => {
  assert.equal(check('http://example.org/a'), undefined);
  assert.throws(() => check('http://example.org/a b'), IriError);
  const err = catchIt(() => check('http://example.org/a b'));
  assert.ok(err instanceof Error && err instanceof IriError);
  assert.equal(err.name, 'IriError');
  assert.equal(err.message, 'invalid IRI-reference: unexpected U+0020 SPACE at char 20, in isegment');
  assert.equal(err.offset, 20);
  assert.equal(err.codePointOffset, 20);
  assert.equal(err.byteOffset, 20);
  assert.equal(err.rule, 'isegment');
  assert.equal(err.startRule, 'IRI-reference');
  assert.equal(err.grammar, 'iri');
  assert.equal(err.found, ' ');
  assert.ok(err.expected.includes('end of input'));
  assert.equal(err.input, 'http://example.org/a b');
  assert.equal(err.component, null);
  // Explained: where the package is files, the full module loads by itself.
  assert.equal(err.explained, true);
  assert.match(err.explanation, /isegment expects/);
  // The component to blame, and where the grammar stopped.
  const port = catchIt(() => check('http://a:8x/'));
  assert.equal(port.component, 'port');
  assert.match(port.message, /in the port/);
  // Offsets in UTF-16 code units (the string's index), code points and UTF-8 bytes.
  const astral = catchIt(() => check('😀é x'));
  assert.equal(astral.offset, 3);
  assert.equal(astral.codePointOffset, 2);
  assert.equal(astral.byteOffset, 6);
  assert.equal('😀é x'[astral.offset], ' ');
  // The end of input: found is null.
  const end = catchIt(() => check('http://[::1', { grammar: 'uri' }));
  assert.equal(end.found, null);
  assert.equal(end.offset, 11);
});

function catchIt(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail('expected a throw');
}

test('lone surrogates: U+FFFF stands for each, as in the Python package', () => {
  for (const grammar of ['iri', 'leiri', 'uri']) {
    assert.equal(isValid('http://a/\uD800', { grammar }), false);
    assert.equal(isValid('http://a/\uDC00x', { grammar }), false);
    assert.deepEqual(isValidMany(['http://a/\uD800', 'http://a/'], { grammar }), [false, true]);
  }
  // U+FFFD, which TextEncoder writes for a lone surrogate, is a LEIRI character.
  assert.equal(isValid('http://a/\uFFFD', { grammar: 'leiri' }), true);
  assert.deepEqual(isValidMany(['http://a/\uFFFD', 'http://a/\uDFFF'], { grammar: 'leiri' }), [true, false]);
  // A pair is one character, not two surrogates.
  assert.equal(isValid('http://a/\uD83D\uDE00'), true);
  const e = catchIt(() => check('http://a/b\uD800c', { grammar: 'leiri' }));
  assert.equal(e.offset, 10);
  assert.equal(e.found, '\uD800');
  assert.match(e.message, /U\+D800 \(lone surrogate\) at char 10/);
  assert.doesNotMatch(e.message, /FFFF/);
  assert.throws(() => parse('\uDBFF'), IriError);
});

test('non-strings are TypeErrors, unknown names RangeErrors', () => {
  for (const x of [undefined, null, 3, {}, [], new TextEncoder().encode('http://a/'), Symbol('s')]) {
    assert.throws(() => isValid(x), TypeError);
    assert.throws(() => check(x), TypeError);
    assert.throws(() => parse(x), TypeError);
    assert.throws(() => resolve('http://a/', x), TypeError);
  }
  assert.throws(() => isValid(new Uint8Array(1)), /decode it first/);
  assert.throws(() => isValidMany(['a', 1]), /item 1 must be a string/);
  assert.throws(() => isValidMany(3), TypeError);
  assert.throws(() => isValidMany('abc'), TypeError);
  assert.throws(() => isValid('a', 'iri'), TypeError);
  assert.throws(() => isValid('a', { grammar: 'url' }), RangeError);
  assert.throws(() => isValid('a', { rule: 'nope' }), RangeError);
  assert.throws(() => isValid('a', { grammar: 'uri', rule: 'ucschar' }), RangeError);
  assert.throws(() => normalize('a', { level: 'semantic' }), RangeError);
  assert.throws(() => normalize('a', { nfc: 'nfd' }), RangeError);
  assert.throws(() => parse('a', { grammar: 'iri-2001' }), /no references/);
  assert.equal(validator({ rule: 'IRI' })(12), false);
});

test('the batch call equals the call per string', () => {
  // Strings drawn from pieces that matter: delimiters, non-ASCII, U+FFFD, lone
  // surrogates, U+FFFF (the batch's separator), a line break.
  const pieces = ['http:', '//', 'a', 'é', ':', '80', '/', '%2', '%20', ' ', '?', '#', '[', '::1', ']', '\uFFFD',
    '\uD800', '\uDC00', '😀', '\uFFFF', '\n', '', '@', 'x'];
  let seed = 1;
  // xorshift32: the same strings on every run.
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const strings = [];
  for (let i = 0; i < 3000; i++) {
    let s = '';
    const n = next() % 8;
    for (let k = 0; k < n; k++) s += pieces[next() % pieces.length];
    strings.push(s);
  }
  const clean = strings.filter((s) => !s.includes('\uFFFF'));
  assert.ok(clean.length < strings.length && clean.some((s) => !isValid(s)) && clean.some((s) => isValid(s)));
  const rulesOf = {
    uri: [undefined, 'URI', 'path-abempty'],
    iri: [undefined, 'IRI', 'ipath-abempty'],
    leiri: [undefined, 'LEIRI', 'ipath-abempty'],
    'iri-2001': [undefined, 'absoluteIRI'],
  };
  for (const [grammar, names] of Object.entries(rulesOf)) {
    for (const rule of names) {
      const o = { grammar, rule };
      const one = (s) => isValid(s, o);
      // With U+FFFF in some strings (asked string by string), and without (one crossing).
      assert.deepEqual(isValidMany(strings, o), strings.map(one), `${grammar} ${rule}`);
      assert.deepEqual(isValidMany(clean, o), clean.map(one), `${grammar} ${rule}`);
      assert.deepEqual(isValidMany(new Set(clean), o), [...new Set(clean)].map(one));
      assert.deepEqual(clean.map(validator(o)), clean.map(one));
    }
  }
  assert.deepEqual(isValidMany([]), []);
  assert.deepEqual(isValidMany(['\uFFFF']), [false]);
  assert.deepEqual(isValidMany(['']), [true]);
  // Every answer of isValid (the automaton) is check's (the combinators).
  for (const s of strings) {
    let ok = true;
    try {
      check(s);
    } catch (e) {
      assert.ok(e instanceof IriError);
      ok = false;
    }
    assert.equal(isValid(s), ok, JSON.stringify(s));
  }
});

test('components, resolution, conversion, normalization, comparison', () => {
  assert.deepEqual(parse('http://user@résumé.example:8080/a/b?q=1#f'), {
    scheme: 'http', authority: 'user@résumé.example:8080', userinfo: 'user', host: 'résumé.example',
    hostKind: 'reg-name', port: '8080', path: '/a/b', query: 'q=1', fragment: 'f',
  });
  assert.deepEqual(parse('../g'), {
    scheme: null, authority: null, userinfo: null, host: null, hostKind: null, port: null,
    path: '../g', query: null, fragment: null,
  });
  assert.equal(parse('http://[::1]:/', { grammar: 'uri' }).hostKind, 'ipv6');
  assert.equal(parse('http://[::1]:/').port, '');
  assert.throws(() => parse('http://résumé.example/', { grammar: 'uri' }), IriError);
  // RFC 3986 §5.4.1 and §5.4.2.
  const base = 'http://a/b/c/d;p?q';
  const cases = { 'g:h': 'g:h', g: 'http://a/b/c/g', '../g': 'http://a/b/g', '': 'http://a/b/c/d;p?q',
    '#s': 'http://a/b/c/d;p?q#s', '../../../g': 'http://a/g', 'g;x=1/../y': 'http://a/b/c/y' };
  for (const [ref, want] of Object.entries(cases)) assert.equal(resolve(base, ref), want);
  assert.throws(() => resolve('a/b', 'c'), /no scheme/);
  const bad = catchIt(() => resolve('http://a/', 'b c'));
  assert.ok(bad instanceof IriError);
  assert.equal(bad.input, 'b c');
  assert.equal(bad.offset, 1);
  // RFC 3987 §3.1 and §3.2.
  assert.equal(toUri('http://résumé.example/ä'), 'http://r%C3%A9sum%C3%A9.example/%C3%A4');
  assert.equal(toUri('http://résumé.example/ä', { idna: true }), 'http://xn--rsum-bpad.example/%C3%A4');
  assert.equal(toIri('http://xn--rsum-bpad.example/%C3%A4'), 'http://xn--rsum-bpad.example/ä');
  assert.equal(toIri('http://xn--rsum-bpad.example/%C3%A4', { idna: true }), 'http://résumé.example/ä');
  assert.equal(toIri('http://a/%20'), 'http://a/%20'); // a space is no IRI character
  // RFC 3987 §5.3.
  assert.equal(normalize('HTTP://Example.ORG/a/./b/../c/%7e'), 'http://example.org/a/c/~');
  assert.equal(normalize('http://example.com:80', { level: 'scheme' }), 'http://example.com/');
  assert.equal(normalize('http://example.com:80', { level: 'simple' }), 'http://example.com:80');
  assert.equal(normalize('http://a/\u0065\u0301', { nfc: true }), 'http://a/\u00e9');
  assert.equal(equivalent('http://example.com', 'http://example.com:80/', { level: 'scheme' }), true);
  assert.equal(equivalent('http://example.com', 'http://example.com:80/'), false);
  assert.equal(equivalent('a', 'a'), null); // relative: cannot be known
});

test('a long string is answered, and the engine stays usable', () => {
  const long = `http://a/${'x'.repeat(5_000_000)}`;
  assert.equal(isValid(long), true);
  const e = catchIt(() => check(`${long} `));
  assert.equal(e.offset, long.length);
  assert.equal(isValid('http://a/'), true);
});

test('loadFull resolves, once or again, and changes no answer', async () => {
  const before = catchIt(() => check('http://a b/'));
  await loadFull();
  await loadFull();
  const after = catchIt(() => check('http://a b/'));
  assert.deepEqual({ ...after }, { ...before });
  assert.equal(normalize('http://a/e\u0301', { nfc: true }), 'http://a/\u00e9');
});
