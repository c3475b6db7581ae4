// SPDX-License-Identifier: MIT
/*
 * fuzz_vocabtxt.c -- libFuzzer target: the "bert" loader on arbitrary bytes
 * must load or fail with a message, never crash; a loaded model is used.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer entry: one input; aborts on a contract violation. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    const char *path = fuzz_file("vocabtxt", data, size);
    bh_tok *t = bh_tok_load("bert", &path, 1, err, sizeof(err));
    if (t != NULL)
        fuzz_use(t, data, size);
    else if (err[0] == '\0' || strchr(err, '\n') != NULL)
        abort(); /* every failure explains itself on one line */
    return 0;
}
