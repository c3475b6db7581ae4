// SPDX-License-Identifier: MIT
/*
 * gen_seeds.c -- writes the seed corpus of the inference loader fuzz
 * targets: micro models (fuzz_common.c) of every architecture as
 * safetensors and GGUF files in F32, F16 and BF16.
 *   gen_seeds SAFETENSORS_DIR GGUF_DIR
 */
#include "fuzz_common.h"

#include "ie_internal.h"
#include "ie_file.h"
#include "tt_util.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static const char *const types[] = {"F32", "F16", "BF16"};
    ie_ctx ctx;

    if (argc != 3) {
        fprintf(stderr, "usage: gen_seeds SAFETENSORS_DIR GGUF_DIR\n");
        return 2;
    }
    if (ie_ctx_init(&ctx, &tt_host, &tt_backend, tt_dev(), NULL, 1) != IE_OK)
        return 1;
    for (int arch = IE_ARCH_BERT; arch <= IE_ARCH_LLAMA; arch++) {
        ie_config c;
        ie_source src = {"dummy", (uint64_t)arch, 0};
        ie_model *m;

        fuzz_config(arch, &c);
        m = ie_model_create(&ctx, &c, IE_W_F32, &src);
        if (m == NULL) {
            fprintf(stderr, "gen_seeds: %s\n", ctx.err);
            return 1;
        }
        for (int g = 0; g < 2; g++)
            for (int t = 0; t < 3; t++) {
                char path[1024];

                snprintf(path, sizeof(path), "%s/seed-arch%d-%s.%s",
                         argv[1 + g], arch, types[t],
                         g ? "gguf" : "safetensors");
                if (ie_model_write(m, path, g, types[t]) != 0) {
                    fprintf(stderr, "gen_seeds: cannot write %s\n", path);
                    return 1;
                }
            }
        ie_model_destroy(m);
    }
    ie_ctx_fini(&ctx);
    return 0;
}
