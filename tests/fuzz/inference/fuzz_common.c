// SPDX-License-Identifier: MIT
/*
 * fuzz_common.c -- micro model configs and the model-mapping stage shared
 * by fuzz_safetensors and fuzz_gguf (a test backend from the unit tests
 * provides the device buffers).
 */
#include "fuzz_common.h"

#include "ie_internal.h"
#include "tt_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_config(int arch, ie_config *c)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "micro");
    c->arch = arch;
    c->n_layers = c->n_layers_full = 1;
    c->d_model = 8;
    c->n_heads = 2;
    c->n_kv_heads = arch == IE_ARCH_LLAMA ? 1 : 2;
    c->head_dim = 4;
    c->d_ff = 12;
    c->vocab = 5;
    c->max_pos = 4;
    c->type_vocab = arch == IE_ARCH_BERT ? 2 : 0;
    c->tied = arch == IE_ARCH_GPT2;
    c->norm_eps = 1e-5f;
    c->rope_theta = 10000.0f;
}

static ie_ctx ctx;
static int ready;

void fuzz_load_all(const ie_tensor_dir *dir)
{
    if (!ready) {
        if (ie_ctx_init(&ctx, &tt_host, &tt_backend, tt_dev(), NULL, 1) != IE_OK)
            abort();
        ready = 1;
    }
    for (int arch = IE_ARCH_BERT; arch <= IE_ARCH_LLAMA; arch++) {
        ie_model *m = calloc(1, sizeof(*m));

        if (m == NULL)
            return;
        m->ctx = &ctx;
        fuzz_config(arch, &m->cfg);
        m->wtype = IE_W_F32 + arch % 3; /* every storage type */
        if (ie_model_alloc(m) == IE_OK)
            (void)ie_model_load_dir(m, dir, "fuzz-input");
        ie_model_destroy(m);
    }
}
