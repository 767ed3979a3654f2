// The page of `iri serve`, and of the static playground: vanilla JavaScript, no
// build step. One application over two back ends (`api` below): the server's
// endpoints, or, where the page says so (<meta name="iri-backend" content="wasm">,
// which `iri book --playground` writes), the same answers computed in the browser by
// WebAssembly in a Web Worker (worker.js).
//
// The input is indexed by code point (Array.from), as the server's "from"/"to"
// offsets are (cli/src/commands/serve/mod.rs); JavaScript's own string indices count
// UTF-16 units and would drift after any character beyond U+FFFF.
//
// One way of counting on the whole page: characters from 0, as the messages and the
// trace count them, and spans as from..to with the end not included.
'use strict';

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// Characters a reader cannot see, or that would disturb the text around them
// (controls, bidi formatting, zero-width, odd spaces, private use, non-characters):
// shown as a U+XXXX badge, as the book does (cli/src/html.rs).
function invisible(ch) {
  const cp = ch.codePointAt(0);
  return cp <= 0x20 && cp !== 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp === 0xad ||
    cp === 0x61c || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200f) ||
    (cp >= 0x2028 && cp <= 0x202f) || (cp >= 0x205f && cp <= 0x206f) || cp === 0x3000 ||
    (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xfdd0 && cp <= 0xfdef) || cp === 0xfeff ||
    (cp >= 0xfff0 && cp <= 0xffff) || cp >= 0xe0000 || (cp & 0xfffe) === 0xfffe;
}

// One character as a DOM node.
function charNode(ch) {
  if (!invisible(ch)) return document.createTextNode(ch);
  const cp = ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
  return el('span', 'cp', 'U+' + cp);
}

// A string with its invisible characters as badges, in quotes.
function quoted(text) {
  const span = el('span');
  span.append('"');
  for (const ch of Array.from(text)) span.append(charNode(ch));
  span.append('"');
  return span;
}

const state = { grammar: 'iri', rule: null, input: '', selected: null, chars: [], seq: 0, ruleSeq: 0, shown: null, alternatives: [],
  trace: null, step: 0, parsesTimer: null };

// A span of the input as the page writes it.
const span = (from, to) => from + '..' + to;

const backend = document.querySelector('meta[name="iri-backend"]')?.content ?? 'server';

// A question the worker has not answered after this long ends it (a new one answers
// the next): a tree, a trace or a comparison of the longest input allowed takes far
// less, so this bounds only a defect, never a question the server would answer.
const WORKER_DEADLINE_MS = 20000;

const worker = { current: null, next: 1, waiting: new Map() };

function startWorker() {
  const w = new Worker('worker.js');
  w.onmessage = ({ data }) => {
    const done = worker.waiting.get(data.id);
    if (!done) return;
    worker.waiting.delete(data.id);
    if (data.fatal) restartWorker('the worker before it failed');
    done(data.error !== undefined ? { error: data.error } : JSON.parse(data.json));
  };
  w.onerror = (e) => {
    e.preventDefault();
    failAll('the page\'s engine could not start: ' + (e.message || 'see the console'));
  };
  worker.current = w;
}

function failAll(message) {
  for (const done of worker.waiting.values()) done({ error: message });
  worker.waiting.clear();
}

function restartWorker(why) {
  worker.current?.terminate();
  failAll('the question was ended: ' + why);
  startWorker();
}

// The page's one way to ask: fetch from `iri serve`, or post to the worker.
async function api(path, params) {
  const query = String(new URLSearchParams(params));
  if (backend !== 'wasm') {
    const r = await fetch(path + '?' + query);
    return r.json();
  }
  if (!worker.current) startWorker();
  const id = worker.next++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => { if (worker.waiting.has(id)) restartWorker('it took more than ' + WORKER_DEADLINE_MS / 1000 + ' s'); }, WORKER_DEADLINE_MS);
    worker.waiting.set(id, (answer) => { clearTimeout(timer); resolve(answer); });
    worker.current.postMessage({ id, path, query });
  });
}

// The places the input is echoed: at the top, and in the trace panel, so that it is
// in sight while the trace is stepped.
const echoes = () => [$('echo'), $('trace-input')];

// The input echoed one character per span, for highlighting spans of it.
function renderEcho() {
  for (const echo of echoes()) {
    echo.replaceChildren();
    state.chars.forEach((ch, i) => {
      const s = el('span', 'ch');
      s.dataset.i = i;
      s.title = 'char ' + i;
      s.append(charNode(ch));
      echo.append(s);
    });
    if (state.chars.length === 0) echo.append(el('span', 'muted', '(empty input)'));
  }
}

function highlight(from, to) {
  for (const echo of echoes()) {
    for (const s of echo.children) {
      const i = Number(s.dataset.i);
      s.classList.toggle('hl', i >= from && i < to);
    }
  }
}

function clearHighlight() {
  highlight(-1, -1);
  for (const n of document.querySelectorAll('.hl')) n.classList.remove('hl');
}

// A tree node: rules are clickable names with their text, literals are quoted leaves.
function renderNode(n) {
  const li = el('li');
  if (n.literal !== undefined) {
    const lit = el('span', 'lit');
    lit.append(quoted(n.literal));
    lit.dataset.from = n.from;
    lit.dataset.to = n.to;
    lit.title = 'literal, chars ' + span(n.from, n.to);
    li.append(lit);
    return li;
  }
  const name = el('span', 'node', n.rule);
  name.tabIndex = 0; // reachable with the keyboard: focus highlights, Enter shows the rule
  name.setAttribute('role', 'button');
  name.dataset.rule = n.rule;
  name.dataset.from = n.from;
  name.dataset.to = n.to;
  if (n.alternative !== undefined) {
    name.dataset.alternative = n.alternative;
    name.dataset.of = n.of;
  }
  name.title = n.rule + ': chars ' + span(n.from, n.to) +
    (n.alternative !== undefined ? '; alternative ' + n.alternative + ' of ' + n.of + ' of its definition' : '') +
    '; click for its definition';
  const text = el('span', 'text');
  text.append(quoted(n.text));
  li.append(name, text);
  if (n.children.length) {
    const ul = el('ul', 'tree');
    for (const c of n.children) ul.append(renderNode(c));
    li.append(ul);
  }
  // The other parses' trees are sent up to a number of nodes (serve/mod.rs).
  if (n.cut) li.append(el('span', 'muted', ' … (the rest of this tree is not shown)'));
  return li;
}

function renderTree(data) {
  const tree = $('tree');
  tree.replaceChildren();
  // What the panel now shows, for whoever waits for it (the browser test does).
  tree.dataset.grammar = state.grammar;
  tree.dataset.rule = state.rule;
  tree.dataset.input = state.input;
  const status = $('status');
  const error = $('error');
  const caretRow = $('caret-row');
  for (const s of $('echo').children) s.classList.remove('bad');
  if (data.valid) {
    status.className = 'ok';
    status.textContent = 'valid: the whole input matches ' + state.rule;
    error.hidden = true;
    caretRow.hidden = true;
    const ul = el('ul', 'tree');
    ul.append(renderNode(data.tree));
    tree.append(ul);
    return;
  }
  status.className = 'bad';
  status.textContent = 'invalid';
  error.hidden = false;
  error.textContent = data.error;
  if (data.at === undefined) {
    caretRow.hidden = true;
    return;
  }
  // The caret row repeats the characters before the failure, invisible, so that the
  // caret lands under the failing character whatever their widths.
  caretRow.replaceChildren();
  const pad = el('span', 'pad');
  for (const ch of state.chars.slice(0, data.at)) pad.append(charNode(ch));
  const caret = el('span', 'caret', '^');
  caret.id = 'caret';
  const label = el('span', 'label',
    'char ' + data.at + (data.at >= state.chars.length ? ', the end of the input' : ''));
  caretRow.append(pad, caret, label);
  caretRow.hidden = false;
  const bad = $('echo').children[data.at];
  if (bad && bad.dataset.i !== undefined) bad.classList.add('bad');
  if (data.partial) {
    // The tree of the longest beginning that matches: how far the rule got.
    tree.append(el('p', 'muted partial-note', 'The input does not match ' + state.rule +
      '. Its longest beginning that does, chars ' + span(0, data.partial_to) +
      ', has this tree; the match fails at char ' + data.at + '.'));
    const ul = el('ul', 'tree partial');
    ul.append(renderNode(data.partial));
    tree.append(ul);
  } else {
    tree.append(el('p', 'muted', 'No tree: no beginning of the input matches ' + state.rule + '.'));
  }
}

async function update() {
  if (state.input !== $('input').value) state.selected = null; // another input's tree
  state.input = $('input').value;
  state.chars = Array.from(state.input);
  renderEcho();
  saveLocation();
  const my = ++state.seq;
  const data = await api('/api/tree', { grammar: state.grammar, rule: state.rule, input: state.input });
  if (my !== state.seq) return; // a later keystroke's answer will come
  if (data.valid === undefined) {
    $('status').className = 'bad';
    $('status').textContent = data.error;
    return;
  }
  renderTree(data);
  const trace = await api('/api/trace', { grammar: state.grammar, rule: state.rule, input: state.input });
  if (my !== state.seq) return;
  state.trace = trace.steps ? trace : null;
  state.step = 0;
  renderTrace();
  scheduleParses(my, data.valid);
}

// The other parses come from the oracle, which reads every way at once and is slower
// than the combinators: asked for once typing pauses, and only for a valid input.
function scheduleParses(my, valid) {
  clearTimeout(state.parsesTimer);
  const panel = $('ambiguity-panel');
  $('parses-list').replaceChildren();
  if (!valid) {
    panel.dataset.input = state.input;
    $('parses-summary').textContent = 'The input does not match ' + state.rule + ': it has no parse to compare.';
    return;
  }
  $('parses-summary').textContent = 'Comparing the alternatives…';
  state.parsesTimer = setTimeout(async () => {
    const p = await api('/api/parses', { grammar: state.grammar, rule: state.rule, input: state.input });
    if (my !== state.seq) return;
    renderParses(p);
  }, 250);
}

function parseColumn(title, abnf, tree, cls) {
  const col = el('div', 'parse ' + cls);
  col.append(el('h3', '', title));
  col.append(el('code', 'abnf-alt', abnf));
  const ul = el('ul', 'tree');
  ul.append(renderNode(tree));
  col.append(ul);
  return col;
}

function renderParses(p) {
  const panel = $('ambiguity-panel');
  const list = $('parses-list');
  list.replaceChildren();
  panel.dataset.input = state.input;
  if (p.error || !p.valid) {
    $('parses-summary').textContent = p.error || 'The input does not match ' + state.rule + '.';
    return;
  }
  if (!p.forks.length) {
    $('parses-summary').textContent = 'One parse: at every rule of the tree, only the alternative taken ' +
      'matches its characters.';
    return;
  }
  $('parses-summary').textContent = (p.forks.length === 1 ? 'One place' : p.forks.length + ' places') +
    ' where the ABNF allows another parse' +
    (p.capped ? ' (the first ' + p.limit + ' are listed; there are more)' : '') + ':';
  for (const f of p.forks) {
    const box = el('div', 'fork');
    box.dataset.rule = f.rule;
    const head = el('p', 'fork-head');
    head.append('They part at ', el('b', 'mono', f.rule), ' over ', quoted(f.text),
      ' (chars ' + span(f.from, f.to) + '):');
    box.append(head);
    const cols = el('div', 'parse-columns');
    cols.append(parseColumn('Taken: alternative ' + f.tree.alternative + ' of ' + f.tree.of +
      ' (first match wins)', f.abnf, f.tree, 'taken'));
    for (const o of f.others) {
      cols.append(parseColumn('Also matches: alternative ' + o.tree.alternative + ' of ' + o.tree.of,
        o.abnf, o.tree, 'other'));
    }
    box.append(cols);
    box.addEventListener('mouseover', (e) => {
      const t = e.target.closest('.node');
      clearHighlight();
      if (t) highlight(Number(t.dataset.from), Number(t.dataset.to));
      else highlight(f.from, f.to);
    });
    box.addEventListener('mouseout', clearHighlight);
    // A rule of either parse shows its definition, as in the tree.
    box.addEventListener('click', (e) => {
      const t = e.target.closest('.node');
      if (t) showRule(t.dataset.rule);
    });
    box.addEventListener('keydown', (e) => {
      const t = e.target.closest('.node');
      if (t && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        showRule(t.dataset.rule);
      }
    });
    list.append(box);
  }
}

// Steps shown around the current one: a long input has thousands, and a list of a
// few dozen is what a reader follows.
const TRACE_WINDOW = 40;

// The trace panel: the current step in words, the steps around it, and where it is
// in the input (a span for a match, a scan or a terminal; a mark before the
// character it happened at otherwise).
function renderTrace() {
  const list = $('trace-steps');
  list.replaceChildren();
  for (const echo of echoes()) for (const s of echo.children) s.classList.remove('at');
  const t = state.trace;
  const panel = $('trace-panel');
  panel.dataset.input = state.input;
  if (!t || !t.steps.length) {
    $('trace-position').textContent = t ? 'no steps' : '';
    $('trace-now').textContent = '';
    return;
  }
  const n = t.steps.length;
  state.step = Math.max(0, Math.min(state.step, n - 1));
  const now = t.steps[state.step];
  panel.dataset.step = now.n;
  $('trace-position').textContent = 'step ' + now.n + ' of ' + n + (t.cut ? ' (cut: the rest is not kept)' : '');
  $('trace-now').textContent = now.n + '. at char ' + now.from + ': ' + now.text;
  const from = Math.max(0, state.step - TRACE_WINDOW);
  const to = Math.min(n, state.step + TRACE_WINDOW + 1);
  list.start = from + 1;
  for (let i = from; i < to; i++) {
    const s = t.steps[i];
    const li = el('li', s.step + (i === state.step ? ' now' : ''), '  '.repeat(s.depth) + s.text);
    li.dataset.n = s.n;
    li.addEventListener('click', () => { state.step = i; renderTrace(); });
    list.append(li);
  }
  const cur = list.querySelector('li.now');
  // Both offsets are from the same offset parent (the list is not positioned).
  if (cur) list.scrollTop = cur.offsetTop - list.offsetTop - list.clientHeight / 2;
  clearHighlight();
  if (now.start_char !== undefined) {
    highlight(now.start_char, now.end_char);
  } else {
    for (const echo of echoes()) {
      const c = echo.children[now.from];
      if (c && c.dataset.i !== undefined) c.classList.add('at');
    }
  }
}

function stepTo(k) {
  if (!state.trace) return;
  state.step = k;
  renderTrace();
}

// Why the alternatives before the one a node took failed, from the trace: the
// backtracks of its rule's alternation between its entry and its match (the last
// match of that rule over that span: the one the tree keeps).
function failedBefore(rule, from, to) {
  const steps = state.trace ? state.trace.steps : [];
  let m = -1;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (s.step === 'match' && s.rule === rule && s.start_char === from && s.end_char === to) { m = i; break; }
  }
  if (m < 0) return new Map();
  const depth = steps[m].depth;
  let e = m - 1;
  while (e >= 0 && !(steps[e].step === 'enter' && steps[e].rule === rule && steps[e].depth === depth)) e--;
  const why = new Map();
  for (let i = e + 1; i < m; i++) {
    const s = steps[i];
    if (s.step === 'backtrack' && s.depth === depth + 1) why.set(s.alternative, s);
  }
  return why;
}

function ruleLinks(target, names) {
  target.replaceChildren();
  if (!names.length) { target.append(el('span', 'muted', 'none')); return; }
  names.forEach((n, i) => {
    if (i) target.append(', ');
    const a = el('a', 'rule-link', n);
    a.href = '#rule=' + encodeURIComponent(n);
    target.append(a);
  });
}

// The rule panel: ABNF, section, diagram, FIRST set, uses, code.
async function showRule(name) {
  const my = ++state.ruleSeq;
  const r = await api('/api/rule', { grammar: state.grammar, name });
  // Only the latest request is shown: answers can arrive out of order when the
  // grammar and the rule change quickly one after the other.
  if (my !== state.ruleSeq || r.error) return;
  state.shown = r.rule;
  $('rule-title').textContent = r.rule;
  const src = $('rule-source');
  src.replaceChildren('Defined in ');
  const a = el('a', '', r.section);
  if (r.url) { a.href = r.url; a.target = '_blank'; a.rel = 'noopener'; }
  src.append(a, ' (' + r.source.replace(/^.*\(/, '').replace(/\)$/, '') + ')');
  $('rule-notes').textContent = r.notes.join(' ');
  $('rule-abnf').textContent = r.abnf;
  $('rule-diagram').innerHTML = r.svg; // generated by this server from the rule table
  const first = $('rule-first');
  first.replaceChildren();
  for (const c of r.first) first.append(el('li', '', c));
  $('rule-nullable').textContent = r.nullable
    ? (r.first.length ? 'It can also match the empty string.' : 'It matches only the empty string.')
    : '';
  ruleLinks($('rule-uses'), r.uses);
  ruleLinks($('rule-used-by'), r.used_by);
  $('rule-rust').textContent = r.rust || '';
  $('rule-rust-note').textContent = r.rust_note || '';
  $('rule-rust-box').hidden = !r.rust;
  state.alternatives = r.alternatives;
  $('alternatives-panel').hidden = true;
  for (const n of document.querySelectorAll('.node.selected')) n.classList.remove('selected');
}

// For a clicked node whose rule is an alternation: which alternative it took ("6 of
// 9"), with the ABNF of each, the taken one marked. The combinators try the
// alternatives in order and keep the first that matches (where what follows may follow
// it): the earlier ones failed.
function showAlternative(node) {
  const panel = $('alternatives-panel');
  if (node.dataset.alternative === undefined) { panel.hidden = true; return; }
  const k = Number(node.dataset.alternative);
  const of = Number(node.dataset.of);
  const from = Number(node.dataset.from);
  const to = Number(node.dataset.to);
  const text = state.chars.slice(from, to).join('');
  $('alternative-taken').replaceChildren(
    node.dataset.rule + ' matched ', quoted(text), ' by alternative ' + k + ' of ' + of +
    (k > 1 ? '; the ' + (k - 1) + ' before it were tried first and failed.' : ', the first tried.'));
  const list = $('alternative-list');
  list.replaceChildren();
  // The definition's alternatives, when the rule table and the combinators agree on
  // how many there are (they do for every rule; the guard keeps a wrong one unsaid).
  const failed = failedBefore(node.dataset.rule, from, to);
  if (state.alternatives.length === of) {
    state.alternatives.forEach((abnf, i) => {
      const li = el('li', i + 1 === k ? 'taken' : (i + 1 < k ? 'failed' : ''), abnf);
      li.dataset.alternative = i + 1;
      const f = failed.get(i + 1);
      if (i + 1 < k && f) {
        // The reason, and a link into the trace at the step that gave it up.
        const why = el('a', 'why', 'failed: ' + f.why);
        why.href = '#step=' + f.n;
        why.addEventListener('click', (e) => { e.preventDefault(); stepTo(f.n - 1); });
        li.append(why);
      }
      list.append(li);
    });
  }
  panel.hidden = false;
}

async function loadRules(keep) {
  const data = await api('/api/rules', { grammar: state.grammar });
  const select = $('rule');
  select.replaceChildren();
  for (const n of data.rules) {
    const o = el('option', '', n);
    o.value = n;
    select.append(o);
  }
  const wanted = keep && data.rules.find((n) => n.toLowerCase() === keep.toLowerCase());
  state.rule = wanted || data.default;
  select.value = state.rule;
}

// The view in the address, so that a link shows it again: the grammar, the rule,
// the input, and the node selected in the tree (its rule and first character).
function saveLocation() {
  const p = new URLSearchParams({ grammar: state.grammar, rule: state.rule, input: state.input });
  if (state.selected) p.set('node', state.selected);
  history.replaceState(null, '', '?' + p + location.hash);
}

// Selects the tree's node `rule@from` (as the address names it), as a click does.
function selectNode(name) {
  const at = name.lastIndexOf('@');
  const rule = name.slice(0, at);
  const from = name.slice(at + 1);
  const node = Array.from(document.querySelectorAll('#tree .node'))
    .find((n) => n.dataset.rule === rule && n.dataset.from === from);
  if (node) node.click();
}

function wire() {
  $('input').addEventListener('input', update);
  $('grammar').addEventListener('change', async () => {
    state.grammar = $('grammar').value;
    state.selected = null;
    await loadRules(state.rule);
    await showRule(state.rule);
    await update();
  });
  $('rule').addEventListener('change', async () => {
    state.rule = $('rule').value;
    state.selected = null;
    await showRule(state.rule);
    await update();
  });
  const tree = $('tree');
  tree.addEventListener('mouseover', (e) => {
    const t = e.target.closest('.node, .lit');
    if (!t) return;
    clearHighlight();
    t.classList.add('hl');
    highlight(Number(t.dataset.from), Number(t.dataset.to));
  });
  tree.addEventListener('mouseout', clearHighlight);
  tree.addEventListener('focusin', (e) => {
    const t = e.target.closest('.node');
    if (!t) return;
    clearHighlight();
    highlight(Number(t.dataset.from), Number(t.dataset.to));
  });
  tree.addEventListener('keydown', (e) => {
    const t = e.target.closest('.node');
    if (t && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      t.click();
    }
  });
  tree.addEventListener('click', (e) => {
    const t = e.target.closest('.node');
    if (!t) return;
    state.selected = t.dataset.rule + '@' + t.dataset.from;
    saveLocation();
    showRule(t.dataset.rule).then(() => {
      t.classList.add('selected');
      showAlternative(t);
    });
  });
  $('trace-first').addEventListener('click', () => stepTo(0));
  $('trace-back').addEventListener('click', () => stepTo(state.step - 1));
  $('trace-next').addEventListener('click', () => stepTo(state.step + 1));
  $('trace-last').addEventListener('click', () => stepTo(Infinity));
  // The arrow keys step too, except where they move a caret or a choice.
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select, textarea')) return;
    if (e.key === 'ArrowRight') { e.preventDefault(); stepTo(state.step + 1); }
    if (e.key === 'ArrowLeft') { e.preventDefault(); stepTo(state.step - 1); }
  });
  // Rule boxes of the diagram and the uses/used-by links point at #rule=NAME.
  document.addEventListener('click', (e) => {
    const a = e.target.closest('a');
    if (!a) return;
    const href = a.getAttribute('href') || a.getAttribute('xlink:href') || '';
    if (!href.startsWith('#rule=')) return;
    e.preventDefault();
    showRule(decodeURIComponent(href.slice(6)));
  });
}

async function start() {
  const p = new URLSearchParams(location.search);
  if (['uri', 'iri', 'leiri', 'iri-2001'].includes(p.get('grammar'))) state.grammar = p.get('grammar');
  $('grammar').value = state.grammar;
  if (p.has('input')) $('input').value = p.get('input');
  wire();
  await loadRules(p.get('rule'));
  await showRule(state.rule);
  await update();
  if (p.get('node')) selectNode(p.get('node'));
  document.body.dataset.ready = 'true';
}

start();
