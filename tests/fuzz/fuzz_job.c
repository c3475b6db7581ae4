// SPDX-License-Identifier: MIT
/* libFuzzer target: the worker's job parser (bh_job_parse). For every job
 * it accepts, the members are read the way the worker reads them
 * (run_case.c, worker_main.c): the casts to uint32_t and uint64_t must be
 * defined (UBSan checks float-cast-overflow) and every parameter record
 * must have the type its value promises. */
#include "ipc.h"
#include "job.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

/* Parses the input as a job and reads it back like the worker. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bh_error e = {""};
    cJSON *job = bh_job_parse((const char *)data, size, &e);
    const cJSON *p;

    if (!job) {
        if (!e.msg[0])
            abort(); /* a refusal must say why */
        return 0;
    }
    if (strlen(bh_json_str(job, "mode", "")) == 0 ||
        !bh_json_str(job, "plugin", NULL))
        abort();
    sink += (uint32_t)bh_json_num(job, "device", 0);
    sink += (uint32_t)bh_json_num(job, "samples", 10);
    sink += (uint32_t)bh_json_num(job, "run_index", 0);
    sink += (uint64_t)bh_json_num(job, "warmup_ns", 0);
    sink += (uint64_t)bh_json_num(job, "sample_time_ns", 0);
    sink += (uint64_t)bh_json_num(job, "budget_ns", 0);
    sink += (uint64_t)bh_json_num(job, "memory_limit", 0);
    sink += strtoull(bh_json_str(job, "seed", "0"), NULL, 0);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(job, "params")) {
        const char *type = bh_json_str(p, "type", "");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");

        if ((strcmp(type, "i64") == 0 && !cJSON_IsString(v)) ||
            (strcmp(type, "f64") == 0 && !cJSON_IsNumber(v)) ||
            (strcmp(type, "str") == 0 && !cJSON_IsString(v)) ||
            (strcmp(type, "bool") == 0 && !cJSON_IsBool(v)))
            abort();
        if (strcmp(type, "i64") == 0)
            sink += (uint64_t)strtoll(v->valuestring, NULL, 10);
    }
    cJSON_Delete(job);
    return 0;
}
