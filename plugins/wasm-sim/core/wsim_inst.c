// SPDX-License-Identifier: MIT
/*
 * wsim_inst.c -- an instance of kern.wasm in one of the two runtime builds:
 * calls, the module's own malloc, and bounds-checked copies between host
 * memory and the linear memory.
 */
#include "wsim.h"

#include <stdlib.h>
#include <string.h>

wsim_inst *wsim_open(int guard)
{
    wsim_inst *w = calloc(1, sizeof(*w));

    if (w == NULL)
        return NULL;
    w->ops = guard ? &wsim_sig_ops : &wsim_bc_ops;
    w->mod = w->ops->create();
    if (w->mod == NULL) {
        free(w);
        return NULL;
    }
    return w;
}

void wsim_close(wsim_inst *w)
{
    if (w == NULL)
        return;
    w->ops->destroy(w->mod);
    free(w);
}

int wsim_call(wsim_inst *w, int fn, const wsim_val *args, wsim_val *ret)
{
    wsim_val dummy;

    dummy.u = 0;
    w->last_trap = w->ops->call(w->mod, fn, args, ret ? ret : &dummy);
    return w->last_trap;
}

uint32_t wsim_malloc(wsim_inst *w, uint32_t bytes)
{
    wsim_val a, r;

    a.u = bytes;
    r.u = 0;
    if (wsim_call(w, WSIM_FN_MALLOC, &a, &r) != 0)
        return 0;
    return r.u;
}

wsim_mem wsim_memory(const wsim_inst *w)
{
    wsim_mem m;

    w->ops->memory(w->mod, &m);
    return m;
}

/* True when [addr, addr + n) lies inside memory m. */
static int in_bounds(const wsim_mem *m, uint32_t addr, size_t n)
{
    return (uint64_t)addr + (uint64_t)n <= (uint64_t)m->size;
}

int wsim_copy_in(wsim_inst *w, uint32_t addr, const void *src, size_t n)
{
    wsim_mem m = wsim_memory(w);

    if (!in_bounds(&m, addr, n))
        return WSIM_TRAP_OOB;
    if (n)
        memcpy(m.data + addr, src, n);
    return 0;
}

int wsim_copy_out(wsim_inst *w, void *dst, uint32_t addr, size_t n)
{
    wsim_mem m = wsim_memory(w);

    if (!in_bounds(&m, addr, n))
        return WSIM_TRAP_OOB;
    if (n)
        memcpy(dst, m.data + addr, n);
    return 0;
}

const char *wsim_trap_name(const wsim_inst *w, int code)
{
    return code == 0 ? "no trap" : w->ops->strerror(code);
}
