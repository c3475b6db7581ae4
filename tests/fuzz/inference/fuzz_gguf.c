// SPDX-License-Identifier: MIT
/*
 * fuzz_gguf.c -- libFuzzer target: ie_gguf_parse on arbitrary bytes;
 * an accepted directory has every convertible element read back and is
 * mapped onto micro models (fuzz_common.c).
 */
#include "fuzz_common.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ie_tensor_dir dir;
    char err[256];
    volatile float sink = 0.0f;

    if (ie_gguf_parse(data, size, &dir, err, sizeof(err)) != 0)
        return 0;
    for (int i = 0; i < dir.n; i++) {
        const ie_tensor *t = &dir.t[i];
        uint64_t n = ie_type_size(t->type) ? t->nbytes / ie_type_size(t->type) : 0;

        if (n > 0)
            sink += ie_tensor_get(t, 0) + ie_tensor_get(t, n - 1);
        (void)ie_tensor_find(&dir, t->name);
    }
    fuzz_load_all(&dir);
    ie_tensor_dir_free(&dir);
    (void)sink;
    return 0;
}
