// SPDX-License-Identifier: MIT
/* See count_loop.h. */
#include "count_loop.h"

#include "bh_clock.h"
#include "ipc.h"

#include <string.h>

#ifdef BH_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#define TOGGLE() CALLGRIND_TOGGLE_COLLECT
#else
#define TOGGLE() ((void)0)
#endif

int bh_count_available(void)
{
#ifdef BH_HAVE_CALLGRIND
    return 1;
#else
    return 0;
#endif
}

/* One call of run(iters), plus the stream sync of a device benchmark;
 * with collect, callgrind collects exactly this region. */
static bhost_status call_run(const bh_timing_target *t, uint64_t iters, int collect)
{
    bhost_status st;

    if (collect)
        TOGGLE();
    st = t->desc->run(t->inst, t->stream, iters);
    if (st == BHOST_OK && t->be && t->stream)
        st = t->be->stream_sync(t->dev, t->stream);
    if (collect)
        TOGGLE();
    return st;
}

static void send_sample(int fd, uint64_t iters, uint64_t ns)
{
    cJSON *m = cJSON_CreateObject();

    cJSON_AddStringToObject(m, "t", "sample");
    cJSON_AddNumberToObject(m, "iters", (double)iters);
    cJSON_AddNumberToObject(m, "ns", (double)ns);
    bh_ipc_send(fd, m, NULL);
    cJSON_Delete(m);
}

void bh_count_run(const bh_timing_target *t, const bh_timing_plan *plan, uint64_t iterations,
                  bh_timing_outcome *out)
{
    memset(out, 0, sizeof(*out));
    out->timing = "instructions";
    out->iters_per_sample = iterations;
    out->status = call_run(t, iterations, 0);
    if (out->status != BHOST_OK)
        goto failed;
    out->warmup_samples = 1;
    for (uint32_t i = 0; i < plan->samples; i++) {
        uint64_t a = bh_now_ns();

        out->status = call_run(t, iterations, 1);
        if (out->status != BHOST_OK)
            goto failed;
        send_sample(plan->result_fd, iterations, bh_now_ns() - a);
        out->samples_taken++;
    }
    return;
failed:
    out->where = "run";
}
