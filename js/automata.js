// The compiled automata of the grammars, walked in JavaScript over a string's
// characters: the tables come out of a WebAssembly module built from js/engine
// (its export `iri_walk_tables`, the walk of iri_grammar::grammar::WalkTables),
// copied once, and the string is never copied into the module. Shared by the
// package's glue (index.js) and iri-grammar/ajv (ajv.js), both on the package's
// core module (iri_grammar.wasm, js/build.sh): the four formats of ajv.js are rules
// the automata hold.

/** Compiles the module at `url`: read from disk where the package is files (Node,
 *  Deno, Bun), fetched elsewhere (browsers), streaming when the server says
 *  application/wasm. */
export async function compileModule(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`iri-grammar: cannot load ${url}: HTTP ${response.status}`);
  if (WebAssembly.compileStreaming && response.headers.get('content-type') === 'application/wasm') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** The tables of grammar `g` (0 uri, 1 iri, 2 leiri, 3 iri-2001) out of the exports
 *  of an instance (null: the grammar has no automaton), copied: they stay valid
 *  whatever the instance does next. A trap of the export is thrown as it is. */
export function readTables(exports, g) {
  const words = exports.iri_walk_tables(g);
  if (words === 0) return null;
  // Taken after the call: memory that grew detaches the buffer taken before.
  const buffer = exports.memory.buffer;
  const at = exports.iri_output();
  const w = new Uint32Array(buffer.slice(at, at + 4 * words));
  const scans = [];
  for (let k = 0; k < 16; k++) scans.push(new Uint8Array(buffer, w[9 + k], 256).slice());
  return {
    classes: new Uint8Array(buffer, w[0], 256).slice(),
    next: new Uint32Array(buffer, w[1], w[2]).slice(),
    starts: new Uint32Array(buffer, w[3], w[4]).slice(),
    row: w[5],
    accepts: w[6],
    scanShift: w[7],
    dead: w[8],
    scans,
    // The rules by their number in the engine (Rule::ALL): IRI-reference and IRI
    // (URI-reference and URI, LEIRI-reference and LEIRI, by grammar).
    reference: w[25],
    absolute: w[27],
  };
}

/** The start state of rule `r` (-1: the reference rule) in tables `t`, or -1 when
 *  the automaton does not hold the rule. */
export function startOf(t, r) {
  if (t === null) return -1;
  const s = t.starts[r < 0 ? t.reference : r];
  return s === undefined || s === 0xffffffff ? -1 : s;
}

/** Whether the UTF-8 of `s` takes the automaton `t` from `state` to a state that
 *  accepts. A lone surrogate is walked as U+FFFF, which no rule of any grammar
 *  allows (index.js, `exact`). */
export function walk(t, state, s) {
  const { classes, next, scans, row, dead } = t;
  const scanning = 1 << t.scanShift;
  const shift = t.scanShift;
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (state >= scanning) {
      // A state that stays in itself on the ASCII bytes of its scan table: skip them.
      if (state === dead) return false;
      const scan = scans[state >>> shift];
      let c = s.charCodeAt(i);
      while (c < 0x80 && scan[c] === 1) {
        if (++i === n) return (state & t.accepts) !== 0;
        c = s.charCodeAt(i);
      }
    }
    let c = s.charCodeAt(i++);
    if (c < 0x80) {
      state = next[(state & row) + classes[c]];
      continue;
    }
    // The UTF-8 bytes of the code point.
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i < n ? s.charCodeAt(i) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        i++;
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        state = next[(state & row) + classes[0xf0 | (cp >>> 18)]];
        state = next[(state & row) + classes[0x80 | ((cp >>> 12) & 0x3f)]];
        state = next[(state & row) + classes[0x80 | ((cp >>> 6) & 0x3f)]];
        state = next[(state & row) + classes[0x80 | (cp & 0x3f)]];
        continue;
      }
      c = 0xffff;
    }
    if (c < 0x800) {
      state = next[(state & row) + classes[0xc0 | (c >>> 6)]];
    } else {
      state = next[(state & row) + classes[0xe0 | (c >>> 12)]];
      state = next[(state & row) + classes[0x80 | ((c >>> 6) & 0x3f)]];
    }
    state = next[(state & row) + classes[0x80 | (c & 0x3f)]];
  }
  return (state & t.accepts) !== 0;
}

/** Where the walk of `t` from `state` over the UTF-8 of `s` stops: the index (UTF-16
 *  code units) of the character on which no match can go on, `s.length` when the
 *  string ends before a match does, -1 when all of `s` matches. For a rule the
 *  automaton holds, the offset of the engine's error (the longest beginning of `s`
 *  that some string of the rule begins with), which the glue reports without the
 *  full module. A lone surrogate is walked as U+FFFF, as in `walk`. */
export function stopOf(t, state, s) {
  const { classes, next, row, dead } = t;
  const step = (b) => {
    state = next[(state & row) + classes[b]];
    return state === dead;
  };
  const n = s.length;
  let i = 0;
  while (i < n) {
    const at = i;
    let c = s.charCodeAt(i++);
    let stopped;
    if (c < 0x80) {
      stopped = step(c);
    } else if (c >= 0xd800 && c <= 0xdbff && i < n && (s.charCodeAt(i) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i++) - 0xdc00);
      stopped = step(0xf0 | (cp >>> 18)) || step(0x80 | ((cp >>> 12) & 0x3f))
        || step(0x80 | ((cp >>> 6) & 0x3f)) || step(0x80 | (cp & 0x3f));
    } else {
      if (c >= 0xd800 && c <= 0xdfff) c = 0xffff;
      stopped = c < 0x800
        ? step(0xc0 | (c >>> 6)) || step(0x80 | (c & 0x3f))
        : step(0xe0 | (c >>> 12)) || step(0x80 | ((c >>> 6) & 0x3f)) || step(0x80 | (c & 0x3f));
    }
    if (stopped) return at;
  }
  return (state & t.accepts) !== 0 ? -1 : n;
}
