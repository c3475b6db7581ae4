/*
 * fuzz_common.h -- shared helper of the tokenizer loader fuzzers: the input
 * becomes a file (the loaders take paths), the loader runs, and a loaded
 * tokenizer encodes and decodes a fixed sample plus the input itself.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bhtok.h"

static char fuzz_paths[8][256]; /* the files fuzz_file wrote */
static int fuzz_n_paths;

/* Removes the files fuzz_file wrote (at exit). */
static inline void fuzz_cleanup(void)
{
    for (int i = 0; i < fuzz_n_paths && i < 8; i++)
        unlink(fuzz_paths[i]);
}

/* Writes data to a per-process file named after tag (in /dev/shm when it
 * exists: a tmpfs write costs far less than a disk file's truncation);
 * returns its path, valid until 8 later calls. */
static inline const char *fuzz_file(const char *tag, const uint8_t *data, size_t n)
{
    char *p = fuzz_paths[fuzz_n_paths % 8];
    if (fuzz_n_paths++ == 0)
        atexit(fuzz_cleanup);
    snprintf(p, 256, "%s/bhtok-fuzz-%d-%s",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid(), tag);
    FILE *f = fopen(p, "wb");
    if (f == NULL)
        abort();
    if (n > 0 && fwrite(data, 1, n, f) != n)
        abort();
    fclose(f);
    return p;
}

/* The input bytes a loaded tokenizer also encodes: enough to reach every
 * path of the encoders (those are fuzzed on their own by fuzz_encode.c),
 * small enough that the loaders get most of the time. */
#define FUZZ_TEXT_MAX 1024

/* Exercises a loaded tokenizer: encode (with and without specials),
 * decode, normalize, then frees it. */
static inline void fuzz_use(bh_tok *t, const uint8_t *data, size_t n)
{
    static const char sample[] =
        "Hello, world! It's 12345 caf\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87  x\n"
        "<|endoftext|> [CLS] \xf0\x9f\x98\x80 \xff\xfe";
    bh_tok_ws *ws = bh_tok_ws_new(t);
    bh_tok_ids ids = {0};
    bh_tok_bytes out = {0};
    if (ws == NULL)
        abort();
    bh_tok_encode(t, ws, sample, sizeof(sample) - 1, 0, &ids);
    bh_tok_encode(t, ws, sample, sizeof(sample) - 1, BH_TOK_SPECIAL, &ids);
    bh_tok_encode(t, ws, (const char *)data, n > FUZZ_TEXT_MAX ? FUZZ_TEXT_MAX : n, 0, &ids);
    bh_tok_decode(t, ids.v, ids.n, &out);
    bh_tok_normalize(t, ws, (const char *)data, n > FUZZ_TEXT_MAX ? FUZZ_TEXT_MAX : n, &out);
    bh_tok_ids_free(&ids);
    bh_tok_bytes_free(&out);
    bh_tok_ws_free(ws);
    bh_tok_free(t);
}

#endif
