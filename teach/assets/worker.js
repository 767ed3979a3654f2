// The static playground's back end: a Web Worker that runs the teaching page's
// engine compiled to WebAssembly (js/page, iri_grammar_page.wasm beside this file)
// and answers the page's questions as `iri serve` does, by the same code
// (iri_grammar_teach::page). In a worker, so that no question can hang the tab:
// app.js gives each a deadline and ends the worker past it.
//
// Messages: {id, path, query} in; {id, status, json} out, or {id, error} when the
// module could not be loaded or failed on this question.
'use strict';

const ready = (async () => {
  const url = new URL('iri_grammar_page.wasm', self.location.href);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url.pathname}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  return instance.exports;
})();

const encoder = new TextEncoder();
const decoder = new TextDecoder();

self.onmessage = async ({ data: { id, path, query } }) => {
  let exports;
  try {
    exports = await ready;
  } catch (e) {
    self.postMessage({ id, error: String(e.message || e) });
    return;
  }
  try {
    const request = encoder.encode(path + '?' + query);
    const at = exports.page_input(request.length);
    if (at === 0) throw new RangeError('the question is too long for the memory the page has');
    new Uint8Array(exports.memory.buffer, at, request.length).set(request);
    const n = exports.page_answer(request.length);
    const json = decoder.decode(new Uint8Array(exports.memory.buffer, exports.page_output(), n));
    self.postMessage({ id, status: exports.page_status(), json });
  } catch (e) {
    // A trap (a defect of the module on this input) leaves its state unknown: the
    // page starts a new worker for the next question.
    self.postMessage({ id, error: 'the page\'s engine failed on this question: ' + (e.message || e), fatal: true });
  }
};
