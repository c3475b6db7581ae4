// SPDX-License-Identifier: MIT
/* libFuzzer target: the worker pipe protocol decoder (bh_ipc_decode) and
 * the supervisor's classification of what a worker sent
 * (bh_outcome_classify), for the bytes a misbehaving plugin could put on
 * the result pipe. The first input byte picks the worker's end (exit
 * code, signal, overflow) and the final message type. */
#include "ipc.h"
#include "outcome.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decodes the stream, then classifies it as a run and as a describe. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bh_error e = {""};
    bh_worker_outcome o;
    bh_outcome_view v;
    cJSON *msgs;
    uint8_t mode = size ? data[0] : 0;

    if (size) {
        data++;
        size--;
    }
    msgs = bh_ipc_decode((const char *)data, size, &e);
    if (!msgs && !e.msg[0])
        abort(); /* a refusal must say why */
    cJSON_Delete(msgs);

    memset(&o, 0, sizeof(o));
    o.result = malloc(size + 1);
    if (!o.result)
        return 0;
    if (size)
        memcpy(o.result, data, size);
    o.result[size] = '\0';
    o.result_len = size;
    o.exited = !(mode & 1);
    o.exit_code = (mode >> 1) & 7;
    o.signaled = mode & 1;
    o.signal = o.signaled ? 1 + ((mode >> 1) & 31) : 0;
    o.result_overflow = (mode & 0x40) != 0;
    bh_outcome_classify(&o, (mode & 0x80) ? "describe" : "result", &v);
    if (v.status != BH_ST_OK && !v.message)
        abort(); /* every failing status carries a message */
    bh_outcome_view_free(&v);
    free(o.result);
    return 0;
}
