#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Reference token ids from the real reference implementations:
//   node ref_ids.js NPM_DIR ENCODING INPUT [--whole] [--special]
// ENCODING: gpt2 r50k p50k cl100k o200k (npm "tiktoken": OpenAI's Rust core
// as WASM, encode_ordinary unless --special) or hf:TOKENIZER_JSON (npm
// "tokenizers": Hugging Face's Rust library, no post-processor ids).
// Prints one line of space-separated ids per input line ('\n' only
// separates lines), or one line for the whole input with --whole.
'use strict';
const fs = require('fs');
const path = require('path');
const args = process.argv.slice(2);
const whole = args.includes('--whole');
const special = args.includes('--special');
const [npmDir, encoding, input] = args.filter((a) => !a.startsWith('--'));
if (!npmDir || !encoding || !input) {
  console.error('usage: ref_ids.js NPM_DIR ENCODING INPUT [--whole] [--special]');
  process.exit(2);
}
const mods = path.join(npmDir, 'node_modules');
const text = fs.readFileSync(input, 'utf8');
const inputs = whole ? [text] : text.split('\n');
if (!whole && inputs.length && inputs[inputs.length - 1] === '') inputs.pop();
const out = [];

async function main() {
  if (encoding.startsWith('hf:')) {
    const tk = require(path.join(mods, 'tokenizers'));
    const tok = tk.Tokenizer.fromFile(encoding.slice(3));
    for (let i = 0; i < inputs.length; i += 512) {
      const enc = await tok.encodeBatch(inputs.slice(i, i + 512), { addSpecialTokens: false });
      for (const e of enc) out.push(e.getIds().join(' '));
    }
  } else {
    const names = { gpt2: 'gpt2', r50k: 'r50k_base', p50k: 'p50k_base',
      cl100k: 'cl100k_base', o200k: 'o200k_base' };
    if (!names[encoding]) throw new Error('unknown encoding ' + encoding);
    const { get_encoding } = require(path.join(mods, 'tiktoken'));
    const enc = get_encoding(names[encoding]);
    for (const s of inputs) {
      const ids = special ? enc.encode(s, 'all') : enc.encode_ordinary(s);
      out.push(Array.from(ids).join(' '));
    }
    enc.free();
  }
  process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
}
main().catch((e) => { console.error('ref_ids: ' + e); process.exit(1); });
