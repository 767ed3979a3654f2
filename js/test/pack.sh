#!/usr/bin/env bash
# `npm pack`, then `npm install ./iri-grammar-<version>.tgz` in an empty folder with
# no network (the tarball has no dependencies), then a smoke test of what a user
# imports there: the package, its subpath iri-grammar/ajv and its types' files.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
[ -f "$here/iri_grammar.wasm" ] || { echo "pack.sh: no iri_grammar.wasm: run js/build.sh" >&2; exit 1; }
tarball="$(cd "$here" && npm pack --silent --pack-destination "$tmp")"
mkdir "$tmp/app"
cd "$tmp/app"
npm init -y >/dev/null
npm install --offline --no-audit --no-fund "$tmp/$tarball" >/dev/null
ls node_modules/iri-grammar/iri_grammar.wasm node_modules/iri-grammar/iri_grammar_full.wasm \
    node_modules/iri-grammar/index.d.ts node_modules/iri-grammar/ajv.d.ts >/dev/null
cat > smoke.mjs <<'JS'
import assert from 'node:assert/strict';
import { isValid, check, IriError, toUri } from 'iri-grammar';
import addIriFormats from 'iri-grammar/ajv';
assert.equal(isValid('http://résumé.example/'), true);
assert.equal(isValid('http://résumé.example/', { grammar: 'uri' }), false);
assert.throws(() => check('http://a/ b'), IriError);
assert.equal(toUri('http://é/'), 'http://%C3%A9/');
const formats = {};
addIriFormats({ formats: {}, addFormat(name, f) { formats[name] = f; } });
assert.deepEqual(Object.keys(formats).sort(), ['iri', 'iri-reference', 'uri', 'uri-reference']);
assert.equal(formats.iri.validate('http://é/'), true);
console.log('pack.sh: the installed tarball works');
JS
node smoke.mjs
# iri-grammar/ajv needs the core module alone, and so do the package's calls that
# the core answers: they work with the full engine's gone.
rm node_modules/iri-grammar/iri_grammar_full.wasm
node --input-type=module -e "
import assert from 'node:assert/strict';
import addIriFormats from 'iri-grammar/ajv';
import { parse, resolve } from 'iri-grammar';
const formats = {};
addIriFormats({ formats: {}, addFormat(name, f) { formats[name] = f; } });
assert.equal(formats['iri-reference'].validate('//résumé.example/a b'), false);
assert.equal(formats.iri.validate('http://résumé.example/'), true);
assert.equal(parse('http://résumé.example:8/p').port, '8');
assert.equal(resolve('http://a/b/c', '../d'), 'http://a/d');
console.log('pack.sh: iri-grammar/ajv and the core calls work without the full module');
"
echo "pack.sh: $tarball, $(wc -c <"$tmp/$tarball") bytes"
