// iri-grammar for JavaScript: exact URI, IRI and LEIRI validation and processing by
// the ABNF of RFC 3986, RFC 3987 and the W3C LEIRI note, the engine of the Rust
// library iri-grammar compiled to WebAssembly (js/engine).
//
// This file is the whole glue. It loads the package's core module at import
// (iri_grammar.wasm: the compiled automata, components, resolution, conversions,
// normalization), writes strings into its memory as UTF-8, calls its exports
// (js/engine/src/lib.rs says the protocol) and reads the answers back; validation
// walks the compiled automata here, over the string itself (automata.js). The full
// module (iri_grammar_full.wasm: the explanation of errors, IDNA, NFC, the rules the
// automata leave to the combinators, the 2001 draft's grammar) is loaded when a
// call first needs it: at once where the package is files (Node, Deno, Bun); in
// browsers by `await loadFull()`, so that a page downloads it only if it asks.
// Why no wasm-bindgen: js/README.md, "Design".

import { compileModule, readTables, startOf, stopOf, walk } from './automata.js';

const coreUrl = new URL('./iri_grammar.wasm', import.meta.url);
const fullUrl = new URL('./iri_grammar_full.wasm', import.meta.url);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An instance of one of the package's modules, with its input buffer. */
class Engine {
  constructor(compiled) {
    this.compiled = compiled;
    /** Whether the last string written was all ASCII (then it holds no surrogate). */
    this.lastAscii = true;
    this.instantiate();
  }

  /** A fresh instance: at load, and after a trap (an allocation the memory cannot
   *  hold), which may leave the instance's state half-changed. */
  instantiate() {
    this.exports = new WebAssembly.Instance(this.compiled, {}).exports;
    this.memory = this.exports.memory;
    this.bytes = new Uint8Array(this.memory.buffer);
    this.inputAt = 0;
    this.inputCapacity = 0;
  }

  /** The module's memory as bytes; taken again when it has grown (growing detaches
   *  the old buffer). */
  view() {
    if (this.bytes.byteLength === 0) this.bytes = new Uint8Array(this.memory.buffer);
    return this.bytes;
  }

  /** Runs `f` on the exports; a trap becomes an Error, and a fresh instance is
   *  started. */
  guarded(f) {
    try {
      return f(this.exports);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        this.instantiate();
        // Out of memory (an allocation failed) or a fault: the instance may be
        // half-changed, so a fresh one takes over.
        throw new Error(`iri-grammar: the engine stopped (${e.message}); a fresh instance takes over`);
      }
      throw e;
    }
  }

  /** Makes the input buffer hold at least `n` bytes. */
  reserve(n) {
    if (n <= this.inputCapacity) return;
    const at = this.exports.iri_input(n);
    if (at === 0) {
      throw new RangeError(`iri-grammar: a string of ${n} bytes does not fit in the engine's memory`);
    }
    this.inputAt = at;
    this.inputCapacity = n;
  }

  /** Writes the UTF-8 of `s` at input offset `at`; returns its length. Short strings
   *  are copied by a loop while they are ASCII (cheaper than a TextEncoder call);
   *  TextEncoder writes the rest, each lone surrogate as U+FFFD. */
  write(s, at) {
    const n = s.length;
    this.reserve(at + n * 3);
    const u = this.view();
    const p = this.inputAt + at;
    let i = 0;
    if (n <= 128) {
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        u[p + i] = c;
      }
      if (i === n) {
        this.lastAscii = true;
        return n;
      }
    }
    const { written } = encoder.encodeInto(i === 0 ? s : s.slice(i), u.subarray(p + i, p + n * 3));
    this.lastAscii = i + written === n;
    return i + written;
  }

  /** The JSON text of `len` bytes an export wrote into the output. */
  readJson(len) {
    return JSON.parse(this.text(len));
  }

  /** The text of `len` bytes an export wrote into the output. */
  text(len) {
    const at = this.exports.iri_output();
    return decoder.decode(this.view().subarray(at, at + len));
  }
}

const core = new Engine(await compileModule(coreUrl));

// ---------------------------------------------------------------------------
// The full module, on demand

/** Where the package is files, a synchronous read of the full module; null in
 *  browsers, which load it with `loadFull`. */
const readFileSync = fullUrl.protocol === 'file:' ? (await import('node:fs')).readFileSync : null;
let fullEngine = null;

/** The full module's engine for `what` (the call that needs it): loaded now where
 *  the package is files; in a browser, an Error until `loadFull()` has been awaited. */
function full(what) {
  if (fullEngine !== null) return fullEngine;
  if (readFileSync === null) {
    throw new Error(
      `iri-grammar: ${what} needs the full engine (iri_grammar_full.wasm), which a browser loads with \`await loadFull()\``,
    );
  }
  fullEngine = new Engine(new WebAssembly.Module(readFileSync(fullUrl)));
  return fullEngine;
}

/** Whether the full module is there, or can be had at once (Node, Deno, Bun). */
function fullAvailable() {
  return fullEngine !== null || readFileSync !== null;
}

/** Loads the full module (iri_grammar_full.wasm): the explanation of errors (the
 *  rule and what it expected), the `idna` options, NFC and NFKC, the `scheme` level,
 *  the rules the automata leave to the combinators, and the `iri-2001` grammar.
 *  Where the package is files (Node, Deno, Bun) they load by themselves when first
 *  needed; a browser awaits this once before using them. Resolves when the module
 *  is ready; calling it again does nothing. */
export async function loadFull() {
  if (fullEngine === null) {
    const compiled = await compileModule(fullUrl);
    if (fullEngine === null) fullEngine = new Engine(compiled);
  }
}

// ---------------------------------------------------------------------------
// Strings in

/** A lone surrogate: a high one not followed by a low one, or a low one not after a
 *  high one (code units: no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function wellFormed(s) {
  if (typeof s.isWellFormed === 'function') return s.isWellFormed();
  LONE_SURROGATE.lastIndex = 0;
  return !LONE_SURROGATE.test(s);
}

/** `s` with each lone surrogate replaced by U+FFFF, a code point no rule of any
 *  grammar allows, which the engine takes for it: answers stay exact, and the
 *  offsets (UTF-16 code units, one for a surrogate and one for U+FFFF) are the
 *  string's own. The Python package does the same. */
function exact(s) {
  return wellFormed(s) ? s : s.replace(LONE_SURROGATE, '\uFFFF');
}

function typeName(x) {
  if (x === null) return 'null';
  if (typeof x === 'object') return x.constructor?.name ?? 'object';
  return typeof x;
}

function mustBeString(s, what = 'the argument') {
  if (typeof s !== 'string') {
    const hint = s instanceof Uint8Array || s instanceof ArrayBuffer
      ? ': decode it first (IRIs are text; e.g. new TextDecoder().decode(bytes))'
      : '';
    throw new TypeError(`iri-grammar: ${what} must be a string, got ${typeName(s)}${hint}`);
  }
}

// ---------------------------------------------------------------------------
// Grammars and rules by name

/** The grammars by name (the Python package's spellings), as the engine numbers
 *  them. */
const GRAMMARS = {
  uri: 0, rfc3986: 0,
  iri: 1, rfc3987: 1,
  leiri: 2,
  'iri-2001': 3, iri2001: 3,
};

function grammarNumber(name) {
  if (name === undefined) return 1;
  // The spellings as given first: no string is made on the way of a call.
  if (typeof name === 'string' && Object.hasOwn(GRAMMARS, name)) return GRAMMARS[name];
  mustBeString(name, 'grammar');
  const key = name.toLowerCase().replace(/_/g, '-');
  const g = GRAMMARS[key];
  if (g === undefined || !Object.hasOwn(GRAMMARS, key)) {
    throw new RangeError(
      `iri-grammar: unknown grammar ${JSON.stringify(name)}: expected 'uri', 'iri', 'leiri' or 'iri-2001'`,
    );
  }
  return g;
}

const GRAMMAR_NAMES = ['uri', 'iri', 'leiri', 'iri-2001'];

/** Rule numbers found so far, by grammar and name: the engine is asked once per name. */
const ruleCache = [new Map(), new Map(), new Map(), new Map()];

/** The engine's number of rule `name` of grammar `g`; -1 (the reference rule:
 *  IRI-reference, URI-reference, LEIRI-reference) for none given. */
function ruleNumber(g, name) {
  if (name === undefined) return -1;
  const cache = ruleCache[g];
  let r = cache.get(name);
  if (r !== undefined) return r;
  mustBeString(name, 'rule');
  const len = core.write(name, 0);
  r = core.guarded((x) => x.iri_rule(g, len));
  if (r < 0) {
    throw new RangeError(
      `iri-grammar: no rule ${JSON.stringify(name)} in the ${GRAMMAR_NAMES[g]} grammar (see rules(${JSON.stringify(GRAMMAR_NAMES[g])}))`,
    );
  }
  cache.set(name, r);
  return r;
}

function options(o) {
  if (o === undefined || o === null) return {};
  if (typeof o !== 'object') throw new TypeError(`iri-grammar: options must be an object, got ${typeName(o)}`);
  return o;
}

/** The rule names of a grammar, in the order of its ABNF. */
export function rules(grammar = 'iri') {
  const g = grammarNumber(grammar);
  return core.readJson(core.guarded((x) => x.iri_rules(g)));
}

// ---------------------------------------------------------------------------
// Answers out

/** The error of a string that does not match: where (`offset` in UTF-16 code
 *  units, the index of the string; `codePointOffset`; `byteOffset` in its UTF-8),
 *  which rule was being matched (`startRule`), the character found, and — from the
 *  full module, which browsers load with `loadFull()` — why: the innermost rule
 *  (`rule`), what it expected (`expected`), the component to blame when one is
 *  (`scheme`, `userinfo`, `host`, `port`) and the long `explanation`. Without the
 *  full module those are `null`, `[]`, `null` and `null`, and `explained` is false. */
export class IriError extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = 'IriError';
    this.input = details.input;
    this.offset = details.offset;
    this.codePointOffset = details.codePointOffset;
    this.byteOffset = details.byteOffset;
    this.rule = details.rule ?? null;
    this.startRule = details.startRule;
    this.grammar = details.grammar;
    this.expected = details.expected ?? [];
    this.found = details.found ?? null;
    this.component = details.component ?? null;
    this.explanation = details.explanation ?? null;
    this.explained = details.explanation !== undefined && details.explanation !== null;
  }
}

/** How the messages name the character at `cp` of a string (null: its end). */
function describe(cp) {
  if (cp === undefined) return 'end of input';
  if (cp >= 0xd800 && cp <= 0xdfff) return `U+${cp.toString(16).toUpperCase()} (lone surrogate)`;
  return core.text(core.guarded((x) => x.iri_describe_char(cp)));
}

/** The IriError of the engine's JSON error `e` for `inputs[e.input]` (the string
 *  as given, lone surrogates and all). */
function iriError(e, inputs) {
  const input = inputs[e.input];
  const cp = input.codePointAt(e.offset);
  const found = cp === undefined ? null : String.fromCodePoint(cp);
  let { message, explanation } = e;
  // A lone surrogate stood where the engine saw U+FFFF: name the surrogate.
  if (cp !== undefined && cp >= 0xd800 && cp <= 0xdfff && e.foundDescription) {
    const name = describe(cp);
    message = message.split(e.foundDescription).join(name);
    explanation = explanation.split(e.foundDescription).join(name);
  }
  return new IriError(message, { ...e, input, found, explanation });
}

/** The names of the reference rules, by grammar. */
const REFERENCE_RULES = ['URI-reference', 'IRI-reference', 'LEIRI-reference'];

/** The IriError of `input`, which rule `r` of grammar `g` does not match, from the
 *  automaton alone: where its walk stops (`stop`, see automata.js `stopOf`), the
 *  offset the full module gives too, and the character there; the rest is the full
 *  module's (`loadFull`). */
function walkError(input, g, r, stop) {
  const before = input.slice(0, stop);
  let points = 0;
  for (const _ of before) points++;
  const cp = input.codePointAt(stop);
  const startRule = r < 0
    ? REFERENCE_RULES[g]
    : core.text(core.guarded((x) => x.iri_rule_name(g, r)));
  return new IriError(`invalid ${startRule}: unexpected ${describe(cp)} at char ${points}`, {
    input,
    offset: stop,
    codePointOffset: points,
    byteOffset: encoder.encode(before).length,
    startRule,
    grammar: GRAMMAR_NAMES[g],
    found: cp === undefined ? null : String.fromCodePoint(cp),
  });
}

/** The IriError of `inputs[which]`, refused by rule `r` of grammar `g`: the full
 *  module's where it can be had, else the automaton's. */
function refusal(inputs, which, g, r) {
  const input = inputs[which];
  if (!fullAvailable()) {
    const t = walker(g);
    return walkError(input, g, r, stopOf(t, startOf(t, r), input));
  }
  const e = full('an error');
  const len = e.write(exact(input), 0);
  const n = e.guarded((x) => x.iri_check(g, r, len));
  const error = e.readJson(n);
  return iriError({ ...error, input: which }, inputs);
}

/** What a reference export of engine `e` wrote: its value, or the error it throws
 *  (the input's, grammar `g`'s reference rule). */
function outcome(e, len, inputs, g) {
  const r = e.readJson(len);
  if (r.error) {
    // The core says which input; the full module, why.
    if (r.error.message === undefined) throw refusal(inputs, r.error.input, g, -1);
    throw iriError(r.error, inputs);
  }
  if (r.fail !== undefined) throw new Error(`iri-grammar: ${r.fail}`);
  return r.value;
}

// ---------------------------------------------------------------------------
// Validation

// The compiled automaton of a grammar, walked here over the string's characters
// (automata.js): the tables are the engine's, copied once out of the module's
// memory, and the string is never copied into it. A call into the module costs
// more than the walk of a typical IRI (js/README.md, "Speed"). Rules the automaton
// does not hold, and the iri-2001 grammar, are asked of the full module.

/** The tables of grammar `g` (null: none), read on first use. */
const walkers = [undefined, undefined, undefined, undefined];

function walker(g) {
  let t = walkers[g];
  if (t === undefined) {
    t = core.guarded((x) => readTables(x, g));
    walkers[g] = t;
  }
  return t;
}

/** What a rule the automata do not hold is, for the message that it needs the
 *  full module. */
function needs(g) {
  return g === 3 ? "the 'iri-2001' grammar" : 'a rule the automata leave to the combinators';
}

/** `isValid` by the full module: for the rules the automaton does not hold. */
function engineValid(s, g, r) {
  const e = full(needs(g));
  const len = e.write(s, 0);
  const v = e.guarded((x) => x.iri_is_valid(g, r, len, e.lastAscii ? 0 : 1));
  // 2: a match holding U+FFFD, which TextEncoder also writes for a lone surrogate.
  return v === 2 ? wellFormed(s) : v === 1;
}

/** Whether all of `s` matches `rule` of `grammar` (default: IRI-reference of RFC
 *  3987). Runs the compiled automaton of the grammar. */
export function isValid(s, opts) {
  if (typeof s !== 'string') mustBeString(s);
  let g = 1;
  let r = -1;
  if (opts !== undefined) {
    const o = options(opts);
    g = grammarNumber(o.grammar);
    r = ruleNumber(g, o.rule);
  }
  const t = walker(g);
  const start = startOf(t, r);
  return start >= 0 ? walk(t, start, s) : engineValid(s, g, r);
}

/** A function `(s) => boolean` that is `isValid(s, opts)` with the grammar and the
 *  rule looked up once (the validator of the Ajv formats). Non-strings are not
 *  valid (false), which suits a format check that is handed anything. */
export function validator(opts) {
  const o = options(opts);
  const g = grammarNumber(o.grammar);
  const r = ruleNumber(g, o.rule);
  const t = walker(g);
  const start = startOf(t, r);
  if (start >= 0) return (s) => typeof s === 'string' && walk(t, start, s);
  return (s) => typeof s === 'string' && engineValid(s, g, r);
}

/** `isValid` for every string of an array (or any iterable). */
export function isValidMany(strings, opts) {
  const list = Array.isArray(strings) ? strings : iterableToArray(strings);
  const o = options(opts);
  const g = grammarNumber(o.grammar);
  const r = ruleNumber(g, o.rule);
  const n = list.length;
  for (let i = 0; i < n; i++) {
    if (typeof list[i] !== 'string') mustBeString(list[i], `item ${i}`);
  }
  const t = walker(g);
  const start = startOf(t, r);
  const out = new Array(n);
  if (start >= 0) {
    for (let i = 0; i < n; i++) out[i] = walk(t, start, list[i]);
    return out;
  }
  if (n === 0) return out;
  // The engine's rules: one crossing, the strings joined by U+FFFF, which no valid
  // string holds.
  const joined = list.join('\uFFFF');
  const e = full(needs(g));
  const len = e.write(joined, 0);
  const pieces = e.guarded((x) => x.iri_is_valid_many(g, r, len, n));
  // A string holding U+FFFF itself split in two: ask string by string.
  if (pieces < 0) return list.map((s) => engineValid(s, g, r));
  const at = e.exports.iri_output();
  const verdicts = e.view().subarray(at, at + n);
  for (let i = 0; i < n; i++) {
    const v = verdicts[i];
    out[i] = v === 1 || (v === 2 && wellFormed(list[i]));
  }
  return out;
}

function iterableToArray(x) {
  if (x == null || typeof x[Symbol.iterator] !== 'function' || typeof x === 'string') {
    throw new TypeError(`iri-grammar: expected an array or iterable of strings, got ${typeName(x)}`);
  }
  return Array.from(x);
}

/** Returns nothing when `s` matches; throws an IriError saying where and why it
 *  does not (why from the full module: see `IriError`). */
export function check(s, opts) {
  mustBeString(s);
  const o = options(opts);
  const g = grammarNumber(o.grammar);
  const r = ruleNumber(g, o.rule);
  const t = walker(g);
  const start = startOf(t, r);
  if (start >= 0) {
    if (stopOf(t, start, s) < 0) return;
    throw refusal([s], 0, g, r);
  }
  const e = full(needs(g));
  const len = e.write(exact(s), 0);
  const n = e.guarded((x) => x.iri_check(g, r, len));
  if (n !== 0) throw iriError(e.readJson(n), [s]);
}

// ---------------------------------------------------------------------------
// References

const LEVELS = { simple: 0, syntax: 1, scheme: 2 };

function levelNumber(level = 'syntax') {
  mustBeString(level, 'level');
  const l = LEVELS[level.toLowerCase()];
  if (l === undefined || !Object.hasOwn(LEVELS, level.toLowerCase())) {
    throw new RangeError(
      `iri-grammar: unknown level ${JSON.stringify(level)}: expected 'simple', 'syntax' or 'scheme' (RFC 3987 §5.3)`,
    );
  }
  return l;
}

function nfcNumber(nfc = false) {
  if (nfc === false) return 0;
  if (nfc === true) return 1;
  if (typeof nfc === 'string') {
    const k = { nfc: 1, nfkc: 2, none: 0, '': 0 }[nfc.toLowerCase()];
    if (k !== undefined) return k;
  }
  throw new RangeError(
    `iri-grammar: unknown character normalization ${JSON.stringify(nfc)}: expected true, false, 'nfc' or 'nfkc'`,
  );
}

/** The engine for a reference export of grammar `g`: the core, or the full module
 *  where `need` names what only it has (null: nothing). */
function engineFor(g, need) {
  if (g === 3) return full("the 'iri-2001' grammar");
  return need === null ? core : full(need);
}

/** Calls a reference export of engine `e` on one string of grammar `g`. */
function one(e, g, s, f) {
  mustBeString(s);
  const len = e.write(exact(s), 0);
  return outcome(e, e.guarded((x) => f(x, len)), [s], g);
}

/** Calls a reference export of engine `e` on two strings of grammar `g`, written
 *  one after the other. */
function two(e, g, a, b, f) {
  mustBeString(a, 'the first argument');
  mustBeString(b, 'the second argument');
  const ea = exact(a);
  const eb = exact(b);
  e.reserve((ea.length + eb.length) * 3);
  const la = e.write(ea, 0);
  const lb = e.write(eb, la);
  return outcome(e, e.guarded((x) => f(x, la, lb)), [a, b], g);
}

/** What of the full module normalization at level `l` with character
 *  normalization `c` needs, or null. */
function normalizationNeeds(l, c) {
  if (c !== 0) return 'character normalization (nfc)';
  if (l === 2) return "the 'scheme' level (IDNA)";
  return null;
}

/** The components of `s` (RFC 3986 §3) as a plain object: `scheme`, `authority`,
 *  `userinfo`, `host`, `hostKind` (`reg-name`, `ipv4`, `ipv6`, `ipvfuture`),
 *  `port`, `path` (always a string), `query`, `fragment`; `null` when absent. */
export function parse(s, opts) {
  const g = grammarNumber(options(opts).grammar);
  return one(engineFor(g, null), g, s, (x, len) => x.iri_parse(g, len));
}

/** Resolves `reference` against `base` (RFC 3986 §5.2); `base` must be absolute. */
export function resolve(base, reference, opts) {
  const g = grammarNumber(options(opts).grammar);
  return two(engineFor(g, null), g, base, reference, (x, la, lb) => x.iri_resolve(g, la, lb));
}

/** The URI an IRI maps to (RFC 3987 §3.1); `idna: true` converts the labels of a
 *  DNS host with ToASCII instead of percent-encoding them. */
export function toUri(s, opts) {
  const o = options(opts);
  const g = grammarNumber(o.grammar);
  const e = engineFor(g, o.idna ? 'the idna option' : null);
  return one(e, g, s, (x, len) => x.iri_to_uri(g, len, o.idna ? 1 : 0));
}

/** The IRI a URI maps back to (RFC 3987 §3.2); `idna: true` converts `xn--`
 *  labels with ToUnicode. */
export function toIri(s, opts) {
  const o = options(opts);
  const g = grammarNumber(o.grammar);
  const e = engineFor(g, o.idna ? 'the idna option' : null);
  return one(e, g, s, (x, len) => x.iri_to_iri(g, len, o.idna ? 1 : 0));
}

/** The normal form of `s` at `level` (`simple`, `syntax` — the default — or
 *  `scheme`, RFC 3987 §5.3); `nfc` (true, 'nfc' or 'nfkc') adds character
 *  normalization (§5.3.2.2). */
export function normalize(s, opts) {
  const o = options(opts);
  const g = grammarNumber(o.grammar);
  const l = levelNumber(o.level);
  const c = nfcNumber(o.nfc);
  return one(engineFor(g, normalizationNeeds(l, c)), g, s, (x, len) => x.iri_normalize(g, len, l, c));
}

/** Whether `a` and `b` identify the same resource at `level` (RFC 3987 §5.3): true,
 *  false, or null when it cannot be known (a relative reference, a host IDNA
 *  refuses). The Python package's `compare`. */
export function equivalent(a, b, opts) {
  const o = options(opts);
  const g = grammarNumber(o.grammar);
  const l = levelNumber(o.level);
  const c = nfcNumber(o.nfc);
  const e = engineFor(g, normalizationNeeds(l, c));
  return two(e, g, a, b, (x, la, lb) => x.iri_compare(g, la, lb, l, c));
}
