#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The npm reference tokenizers as a program, for configs/reference.yaml:
// encodes every line of CORPUS with one library and prints one line of
// space-separated ids per input line (bhost-tokenize's output), so that
// bhost's command plugin times the whole job, start to exit, as it times
// bhost-tokenize and spm_encode.
//   node tokenize.js NPM_DIR KIND VOCAB_DIR CORPUS
// KIND: tiktoken-cl100k (WASM), js-tiktoken-cl100k (pure JS),
//       hf-bert, hf-gpt2 (Hugging Face tokenizers, native; set
//       RAYON_NUM_THREADS=1 for one thread)
// The packages and vocabularies come from tools/tokenizer/fetch.sh; a
// missing one is one line on stderr naming it, exit 1; bad arguments exit 2.
'use strict';
const fs = require('fs');
const path = require('path');

const [npmDir, kind, vocabDir, corpus] = process.argv.slice(2);
if (!npmDir || !kind || !vocabDir || !corpus) {
  console.error('usage: tokenize.js NPM_DIR KIND VOCAB_DIR CORPUS');
  process.exit(2);
}

function need(name) {
  const where = path.join(npmDir, 'node_modules', name);
  if (!fs.existsSync(where)) {
    console.error(`tokenize.js: npm package ${name} missing in ${npmDir} (run tools/tokenizer/fetch.sh)`);
    process.exit(1);
  }
  return require(where);
}

// Encoders by kind: each returns a function from a line to its ids.
async function encoder() {
  if (kind === 'tiktoken-cl100k') {
    const enc = need('tiktoken').get_encoding('cl100k_base');
    return async (lines) => lines.map((l) => enc.encode_ordinary(l));
  }
  if (kind === 'js-tiktoken-cl100k') {
    const enc = need('js-tiktoken').getEncoding('cl100k_base');
    return async (lines) => lines.map((l) => enc.encode(l));
  }
  const files = { 'hf-bert': 'bert-base-uncased-tokenizer.json', 'hf-gpt2': 'gpt2-tokenizer.json' };
  if (files[kind]) {
    const tok = need('tokenizers').Tokenizer.fromFile(path.join(vocabDir, files[kind]));
    return async (lines) => {
      const out = [];
      for (let i = 0; i < lines.length; i += 1024) {
        const enc = await tok.encodeBatch(lines.slice(i, i + 1024), { addSpecialTokens: false });
        for (const x of enc) out.push(x.getIds());
      }
      return out;
    };
  }
  console.error(`tokenize.js: unknown KIND '${kind}'`);
  process.exit(2);
}

async function main() {
  const encode = await encoder();
  const text = fs.readFileSync(corpus, 'utf8');
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const ids = await encode(lines);
  const out = ids.map((x) => Array.from(x).join(' ')).join('\n');
  fs.writeSync(1, out + '\n');
}
main().catch((e) => { console.error('tokenize.js: ' + e); process.exit(1); });
