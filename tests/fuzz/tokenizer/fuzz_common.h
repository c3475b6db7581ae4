// SPDX-License-Identifier: MIT
/*
 * fuzz_common.h -- shared helper of the tokenizer loader fuzzers: the input
 * becomes a file (the loaders take paths), the loader runs, and a loaded
 * tokenizer encodes and decodes a fixed sample plus the input itself.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bhtok.h"

static char fuzz_paths[8][256];  /* the files fuzz_file wrote */
static const char *fuzz_tags[8]; /* the tag of each */
static int fuzz_fds[8];          /* each kept open, rewritten in place */
static int fuzz_n_paths;

/* Removes the files fuzz_file wrote (at exit). */
static inline void fuzz_cleanup(void)
{
    for (int i = 0; i < fuzz_n_paths && i < 8; i++)
        unlink(fuzz_paths[i]);
}

/* Writes data to a per-process file named after tag (in /dev/shm when it
 * exists: a tmpfs write costs far less than a disk file's truncation);
 * returns its path, valid for the process. The file of a tag is created
 * once and then rewritten in place (pwrite + ftruncate: an fopen/fclose
 * per input was half the time of the fastest loader targets); at most 8
 * tags (string literals). */
static inline const char *fuzz_file(const char *tag, const uint8_t *data, size_t n)
{
    int i = 0;
    while (i < fuzz_n_paths && strcmp(fuzz_tags[i], tag) != 0)
        i++;
    if (i == fuzz_n_paths) {
        if (i == 8)
            abort();
        if (fuzz_n_paths++ == 0)
            atexit(fuzz_cleanup);
        fuzz_tags[i] = tag;
        snprintf(fuzz_paths[i], 256, "%s/bhtok-fuzz-%d-%s",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid(), tag);
        fuzz_fds[i] = open(fuzz_paths[i], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fuzz_fds[i] < 0)
            abort();
    }
    if ((n > 0 && pwrite(fuzz_fds[i], data, n, 0) != (ssize_t)n) ||
        ftruncate(fuzz_fds[i], (off_t)n) != 0)
        abort();
    return fuzz_paths[i];
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
