#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Throughput anchors: the npm reference tokenizers on a corpus, line by
// line, one thread, in this process (warm: each library runs the corpus
// once before the timed pass).
//   RAYON_NUM_THREADS=1 node anchors.js NPM_DIR VOCAB_DIR CORPUS [LIMIT_BYTES]
// Prints "name MB/s tokens/s" lines.
'use strict';
const fs = require('fs');
const path = require('path');
const [npmDir, vocabDir, corpus, limitArg] = process.argv.slice(2);
if (!npmDir || !vocabDir || !corpus) {
  console.error('usage: anchors.js NPM_DIR VOCAB_DIR CORPUS [LIMIT_BYTES]');
  process.exit(2);
}
const mods = path.join(npmDir, 'node_modules');
let text = fs.readFileSync(corpus, 'utf8');
if (limitArg) text = text.slice(0, Number(limitArg));
const lines = text.split('\n');
const bytes = Buffer.byteLength(text);

function report(name, secs, tokens) {
  console.log(`${name.padEnd(28)} ${(bytes / 1e6 / secs).toFixed(2).padStart(8)} MB/s ${(tokens / secs / 1e6).toFixed(3).padStart(8)} Mtok/s`);
}
function timeSync(name, fn) {
  fn(); // warm
  const t0 = process.hrtime.bigint();
  const tokens = fn();
  report(name, Number(process.hrtime.bigint() - t0) / 1e9, tokens);
}

async function main() {
  const { get_encoding } = require(path.join(mods, 'tiktoken'));
  for (const e of ['gpt2', 'cl100k_base', 'o200k_base']) {
    const enc = get_encoding(e);
    timeSync('tiktoken-wasm ' + e, () => {
      let n = 0;
      for (const l of lines) n += enc.encode_ordinary(l).length;
      return n;
    });
    enc.free();
  }
  const jt = require(path.join(mods, 'js-tiktoken'));
  for (const e of ['gpt2', 'cl100k_base']) {
    const enc = jt.getEncoding(e);
    timeSync('js-tiktoken ' + e, () => {
      let n = 0;
      for (const l of lines) n += enc.encode(l).length;
      return n;
    });
  }
  const tk = require(path.join(mods, 'tokenizers'));
  for (const f of ['bert-base-uncased-tokenizer.json', 'gpt2-tokenizer.json']) {
    const tok = tk.Tokenizer.fromFile(path.join(vocabDir, f));
    const run = async () => {
      let n = 0;
      for (let i = 0; i < lines.length; i += 1024) {
        const enc = await tok.encodeBatch(lines.slice(i, i + 1024), { addSpecialTokens: false });
        for (const x of enc) n += x.getLength();
      }
      return n;
    };
    await run();
    const t0 = process.hrtime.bigint();
    const n = await run();
    report('hf-tokenizers ' + f.replace('-tokenizer.json', ''), Number(process.hrtime.bigint() - t0) / 1e9, n);
  }
}
main().catch((e) => { console.error('anchors: ' + e); process.exit(1); });
