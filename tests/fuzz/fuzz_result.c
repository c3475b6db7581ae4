// SPDX-License-Identifier: MIT
/* libFuzzer target: the strict result reader (bh_result_parse: size and
 * depth limits, JSON, schema check, duplicate ids) and, on documents it
 * accepts, the per-case readers the regression engine applies to result
 * and baseline files from elsewhere. */
#include "result_read.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parses the input as a result document and reads every case back. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bh_error e = {""};
    cJSON *doc = bh_result_parse((const char *)data, size, "fuzz.json", &e);
    const cJSON *c;

    if (!doc) {
        if (!e.msg[0])
            abort(); /* a refusal must say why */
        return 0;
    }
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
        const char *id =
            cJSON_GetObjectItemCaseSensitive(c, "id")->valuestring;
        double *v = NULL;
        size_t n = 0;

        if (bh_result_find_case(doc, id) == NULL)
            abort(); /* validated ids must be found */
        bh_result_run_medians(c, &v, &n);
        free(v);
        bh_result_metric_values(c, "tokens_per_s", &v, &n);
        free(v);
    }
    cJSON_Delete(doc);
    return 0;
}
