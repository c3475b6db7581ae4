// SPDX-License-Identifier: MIT
/*
 * bhtok.h -- libbhtok, the tokenizer core of the tokenizer plugin and of the
 * bhost-tokenize CLI.
 *
 * One tokenizer object per loaded vocabulary or model: GPT-2 byte-level BPE
 * (encoder.json + vocab.bpe), tiktoken rank files (r50k, p50k, cl100k,
 * o200k), Hugging Face tokenizer.json (byte-level BPE and BERT WordPiece),
 * BERT vocab.txt and SentencePiece .model files (unigram and BPE).
 *
 * Threads: a loaded bh_tok is immutable and may be shared by any number of
 * threads. A bh_tok_ws (workspace) holds per-call scratch memory and belongs
 * to one thread at a time. Errors are one-line messages naming the file.
 */
#ifndef BHTOK_H
#define BHTOK_H

#include <stddef.h>
#include <stdint.h>

typedef struct bh_tok bh_tok;
typedef struct bh_tok_ws bh_tok_ws;

/* A growable id vector. Zero-initialize; free with bh_tok_ids_free(). */
typedef struct bh_tok_ids {
    int32_t *v;
    size_t n, cap;
} bh_tok_ids;

/* A growable byte buffer (decoded text). Zero-initialize; free with
 * bh_tok_bytes_free(). */
typedef struct bh_tok_bytes {
    char *p;
    size_t n, cap;
} bh_tok_bytes;

/* Encode flag: recognize the model's special tokens in the text. Without it
 * special-token text is encoded as ordinary text. */
#define BH_TOK_SPECIAL 1u

/* Loads a tokenizer. format is one of "gpt2" (paths: encoder.json,
 * vocab.bpe), "r50k", "p50k", "cl100k", "o200k" (path: the .tiktoken rank
 * file), "hf" (tokenizer.json), "bert" (vocab.txt, uncased normalizer),
 * "bert-cased" (vocab.txt, no lowercasing) or "spm" (a SentencePiece .model).
 * Returns NULL on failure with a one-line message naming the file (and line)
 * in err (err may be NULL). The caller owns the result. [any-thread] */
bh_tok *bh_tok_load(const char *format, const char *const *paths,
                    size_t npaths, char *err, size_t errcap);

/* Frees a tokenizer; NULL is ignored. No workspace may be in use. */
void bh_tok_free(bh_tok *t);

/* Number of ids the tokenizer can produce (vocabulary plus specials). */
size_t bh_tok_vocab_size(const bh_tok *t);

/* Short kind name: "bpe", "wordpiece", "spm-unigram", "spm-bpe". */
const char *bh_tok_kind(const bh_tok *t);

/* Id of a special or added token by its text, or -1. */
int32_t bh_tok_special_id(const bh_tok *t, const char *text);

/* A new workspace for t; NULL when out of memory. Owned by the caller. */
bh_tok_ws *bh_tok_ws_new(const bh_tok *t);
void bh_tok_ws_free(bh_tok_ws *ws);

/* Appends the ids of text[0..n) to out (out is not cleared). Any bytes are
 * accepted; invalid UTF-8 is handled like the reference libraries handle it
 * (bytes for byte-level BPE, U+FFFD for SentencePiece, dropped by BERT's
 * cleaner). Returns 0, or -1 when out of memory. ws must belong to t. */
int bh_tok_encode(const bh_tok *t, bh_tok_ws *ws, const char *text, size_t n,
                  unsigned flags, bh_tok_ids *out);

/* Appends the text of ids to out. Unknown ids fail with -1 (nothing is
 * appended past the last good id); -2 is out of memory. */
int bh_tok_decode(const bh_tok *t, const int32_t *ids, size_t n,
                  bh_tok_bytes *out);

/* Applies the model's normalizer alone (BERT normalizer, SentencePiece
 * charsmap and whitespace rules; byte-level BPE has none and copies the
 * text). Appends to out. Returns 0, or -1 when out of memory. */
int bh_tok_normalize(const bh_tok *t, bh_tok_ws *ws, const char *text,
                     size_t n, bh_tok_bytes *out);

/* Encodes texts[i] (lens[i] bytes) into outs[i] for i < count on up to
 * threads threads (0 or 1: the calling thread only). outs[i] are cleared
 * first; results are in input order. Returns 0 or -1 (out of memory, or a
 * thread could not be started). */
int bh_tok_encode_batch(const bh_tok *t, const char *const *texts,
                        const size_t *lens, size_t count, unsigned flags,
                        unsigned threads, bh_tok_ids *outs);

/* Vector helpers: 0 or -1 when out of memory. */
int bh_tok_ids_push(bh_tok_ids *ids, int32_t id);
void bh_tok_ids_free(bh_tok_ids *ids);
int bh_tok_bytes_append(bh_tok_bytes *b, const void *p, size_t n);
void bh_tok_bytes_free(bh_tok_bytes *b);

/* Reads a whole file into a malloc'd, NUL-terminated buffer; returns NULL
 * with a message in err when it cannot, or when it exceeds max_bytes. */
char *bh_tok_read_file(const char *path, size_t max_bytes, size_t *len,
                       char *err, size_t errcap);

#endif /* BHTOK_H */
