#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Writes Hugging Face tokenizer.json files with Hugging Face's own library
// (npm "tokenizers", the Rust core as a native addon), so the JSON is the
// genuine article and not a hand-made look-alike:
//   node make_hf_json.js NPM_DIR VOCAB_DIR
// reads VOCAB_DIR/bert-base-uncased-vocab.txt, gpt2-encoder.json and
// gpt2-vocab.bpe; writes VOCAB_DIR/bert-base-uncased-tokenizer.json and
// gpt2-tokenizer.json.
'use strict';
const path = require('path');
const [npmDir, vocabDir] = process.argv.slice(2);
if (!npmDir || !vocabDir) {
  console.error('usage: make_hf_json.js NPM_DIR VOCAB_DIR');
  process.exit(2);
}
const tk = require(path.join(npmDir, 'node_modules', 'tokenizers'));

async function main() {
  const wp = await tk.WordPiece.fromFile(path.join(vocabDir, 'bert-base-uncased-vocab.txt'),
    { unkToken: '[UNK]', continuingSubwordPrefix: '##', maxInputCharsPerWord: 100 });
  const bert = new tk.Tokenizer(wp);
  bert.setNormalizer(tk.bertNormalizer({ cleanText: true, handleChineseChars: true, lowercase: true }));
  bert.setPreTokenizer(tk.bertPreTokenizer());
  bert.setDecoder(tk.wordPieceDecoder('##', true));
  bert.addSpecialTokens(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
  bert.save(path.join(vocabDir, 'bert-base-uncased-tokenizer.json'));

  const bpe = await tk.BPE.fromFile(path.join(vocabDir, 'gpt2-encoder.json'),
    path.join(vocabDir, 'gpt2-vocab.bpe'));
  const gpt2 = new tk.Tokenizer(bpe);
  gpt2.setPreTokenizer(tk.byteLevelPreTokenizer(false, true));
  gpt2.addSpecialTokens(['<|endoftext|>']);
  gpt2.save(path.join(vocabDir, 'gpt2-tokenizer.json'));
}
main().catch((e) => { console.error('make_hf_json: ' + e); process.exit(1); });
