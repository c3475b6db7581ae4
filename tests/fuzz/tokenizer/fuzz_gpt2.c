// SPDX-License-Identifier: MIT
/*
 * fuzz_gpt2.c -- libFuzzer target: GPT-2's encoder.json + vocab.bpe pair.
 * The input is split at its first NUL byte into the two files.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer entry: one input; aborts on a contract violation. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    const uint8_t *nul = memchr(data, 0, size);
    size_t a = nul ? (size_t)(nul - data) : size;
    const char *paths[2];
    paths[0] = fuzz_file("enc", data, a);
    paths[1] = fuzz_file("bpe", nul ? nul + 1 : data + size, nul ? size - a - 1 : 0);
    bh_tok *t = bh_tok_load("gpt2", paths, 2, err, sizeof(err));
    if (t != NULL)
        fuzz_use(t, data, size);
    else if (err[0] == '\0' || strchr(err, '\n') != NULL)
        abort();
    return 0;
}
