// SPDX-License-Identifier: MIT
/*
 * opt_zero.c -- the ZeRO partitioning model (Rajbhandari et al. 2020):
 * what each of N ranks holds at stages 0-3, what one step sends, and
 * which slice of the flat parameter space a rank owns.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt.h"

#include <string.h>

int opt_zero_plan_make(unsigned stage, unsigned ranks, uint64_t params,
                       double param_bytes, double grad_bytes,
                       double state_bytes, uint64_t align, opt_zero_plan *z)
{
    double psi = (double)params, shard, frac;

    if (stage > 3 || ranks == 0 || params == 0 || align == 0 || z == NULL)
        return OPT_E_INVALID;
    memset(z, 0, sizeof(*z));
    z->stage = stage;
    z->ranks = ranks;
    z->params = params;
    z->shard = (params + ranks - 1) / ranks;
    z->shard = (z->shard + align - 1) / align * align;
    z->param_bytes = param_bytes;
    z->grad_bytes = grad_bytes;
    z->state_bytes = state_bytes;
    shard = (double)z->shard;
    z->mem_params = (stage >= 3 ? shard : psi) * param_bytes;
    z->mem_grads = (stage >= 2 ? shard : psi) * grad_bytes;
    z->mem_state = (stage >= 1 ? shard : psi) * state_bytes;
    z->mem_total = z->mem_params + z->mem_grads + z->mem_state;
    frac = (double)(ranks - 1) / (double)ranks;
    if (stage == 0) {
        z->all_reduce_bytes = 2 * frac * psi * grad_bytes;
    } else {
        z->reduce_scatter_bytes = frac * psi * grad_bytes;
        z->all_gather_bytes = (stage == 3 ? 2 : 1) * frac * psi * param_bytes;
    }
    z->comm_bytes =
        z->all_reduce_bytes + z->reduce_scatter_bytes + z->all_gather_bytes;
    return OPT_OK;
}

void opt_zero_range(const opt_zero_plan *z, unsigned rank, uint64_t *begin,
                    uint64_t *end)
{
    uint64_t b = (uint64_t)rank * z->shard, e = b + z->shard;

    *begin = b < z->params ? b : z->params;
    *end = e < z->params ? e : z->params;
}

size_t opt_zero_cut(const size_t *sizes, size_t count, uint64_t begin,
                    uint64_t end, size_t *out, size_t cap)
{
    uint64_t off = 0;
    size_t n = 0;

    for (size_t k = 0; k < count && off < end; k++) {
        uint64_t b = off > begin ? off : begin;
        uint64_t e = off + sizes[k] < end ? off + sizes[k] : end;

        if (b < e) {
            if (out != NULL && n < cap)
                out[n] = (size_t)(e - b);
            n++;
        }
        off += sizes[k];
    }
    return n;
}
