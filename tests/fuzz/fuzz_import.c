// SPDX-License-Identifier: MIT
/* libFuzzer target: one importer of bhost import (BH_FUZZ_FORMAT, set by
 * tests/fuzz/meson.build: gbench, pyperf, hyperfine, criterion, asv) on
 * arbitrary bytes. A refusal must say why and must not be the importer's
 * own invalid document; an accepted document must, printed as bhost
 * writes it, pass the strict result reader and read through the typed
 * view with positive run medians. */
#include "bh_json_write.h"
#include "import.h"
#include "result_read.h"
#include "result_view.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef BH_FUZZ_FORMAT
#error "BH_FUZZ_FORMAT names the importer"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The document printed and read back as every command reads a file. */
static void read_back(const cJSON *doc)
{
    char *text = bh_json_print(doc);
    bh_error e = {""};
    cJSON *back = bh_result_parse(text, strlen(text), "fuzz.json", &e);
    bh_result_view v;

    if (!back)
        abort(); /* an imported document that the strict reader refuses */
    bh_result_view_load(back, &v);
    for (size_t i = 0; i < v.n_cases; i++) {
        double *m = NULL;
        size_t n = 0;

        bh_rv_case_run_medians(&v.cases[i], &m, &n);
        for (size_t k = 0; k < n; k++)
            if (!(m[k] >= 0))
                abort(); /* times are never negative */
        free(m);
    }
    bh_result_view_free(&v);
    cJSON_Delete(back);
    free(text);
}

/* How take_doc() in host/import/import.c begins the message of a document
 * the strict reader refused. */
#define BUG_PREFIX "import produced an invalid document"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bh_error e = {""};
    cJSON *doc = bh_import_text(BH_FUZZ_FORMAT, (const char *)data, size, "fuzz.json", &e);

    if (!doc) {
        /* a refusal must say why; an importer's bug is not one (the prefix
         * only: a refusal may quote input text that holds these words) */
        if (!e.msg[0] || strncmp(e.msg, BUG_PREFIX, sizeof(BUG_PREFIX) - 1) == 0)
            abort();
        return 0;
    }
    read_back(doc);
    cJSON_Delete(doc);
    return 0;
}
