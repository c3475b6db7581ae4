// SPDX-License-Identifier: MIT
/*
 * bench_mem.c -- WASM memory patterns:
 *   mem.grow     memory.grow by `pages` 64 KiB pages (the wasm instruction,
 *                through the module), timed per call (manual timing: the
 *                instance is re-created, untimed, before it would pass
 *                max(4096, pages) pages); optionally touching the new pages;
 *   mem.churn    the module's free-list malloc under a seeded
 *                allocate/free mix, against the same allocator built
 *                natively (same block layout, checked in verify);
 *   mem.ceiling  grows a fresh instance to the wasm32 ceiling in steps, then
 *                checks that growing further returns -1, that the last
 *                byte is usable and that the byte past it traps;
 *   mem.copy     bounds-checked copies into or out of the linear memory
 *                against memcpy between host buffers.
 * Counting: grow: items = pages grown; bytes = the bytes zero-filled:
 * pages x 64 KiB in the explicit build (the runtime's memset after
 * realloc), and in the guard build only with touch (the kernel zero-fills
 * each 4 KiB page on its first write); without touch the guard build only
 * mprotects address space: 0 bytes (pages that are only mapped or
 * mprotected are not traffic). churn: items = ops; ceiling: one item;
 * copy: 2 x bytes (read from one side, written to the other, as memcpy
 * counts). Work profile: one thread, no compute class, the counted bytes;
 * grow writes, copy reads and writes, churn and ceiling declare no
 * stream.
 */
#include "ws.h"

#include "wk.h"

#include <string.h>

#define PAGE WSIM_PAGE
#define GROW_SPAN 4096u      /* pages grown before mem.grow re-creates */
#define ARENA (UINT32_C(256) << 20) /* native heap of mem.churn */

enum { B_GROW, B_CHURN, B_CEILING, B_COPY };

typedef struct minst {
    bhost_host *h;
    int kind, mode, guard, touch, dir_out;
    uint32_t pages, ops, max_size, step;
    size_t bytes;
    wsim_inst *w;
    void *arena;               /* native heap (churn) */
    uint8_t *src, *dst;        /* copy */
    uint32_t addr;             /* copy: buffer in the linear memory */
    uint32_t base_pages;       /* grow: size of a fresh instance */
    uint32_t last_old, last_pages; /* grow: last result, size after it */
    uint64_t grow_ns, grown_pages;
    uint32_t last_hash;
    /* ceiling */
    uint32_t reached, over_one, over_max, end_byte, trap_past;
} minst;

static const char *const dirs[] = {"in", "out", NULL};
static const char *const churn_modes[] = {"native", "wasm-cpu", NULL};

static const bhost_param_desc grow_params[] = {
    BH_PARAM_I64("pages", "64 KiB pages per memory.grow", "16", 1, 32768),
    BH_PARAM_BOOL("touch", "Write one byte per 4 KiB of the new pages after "
                           "each grow (first-touch cost included)", "false"),
    WS_PARAM_MEMCHECK,
    WS_PARAM_TOOLCHAIN,
};
static const bhost_param_desc churn_params[] = {
    BH_PARAM_I64("ops", "Allocate/free steps per iteration", "1000", 1,
                 1 << 24),
    BH_PARAM_I64("max_size", "Largest request in bytes", "4096", 1,
                 1 << 20),
    BH_PARAM_STR("mode", "native or wasm-cpu (the same allocator source)",
                 "wasm-cpu", churn_modes),
    WS_PARAM_MEMCHECK,
    WS_PARAM_TOOLCHAIN,
};
static const bhost_param_desc ceiling_params[] = {
    BH_PARAM_I64("step", "Pages per memory.grow on the way up", "4096", 1,
                 65535),
    /* guard by default: the explicit build commits (zeroes) all 4 GiB */
    BH_PARAM_STR("memcheck",
                 "Linear-memory bounds checks: guard (guard pages: growing "
                 "costs address space only) or explicit (calloc/realloc: "
                 "commits and zeroes all 4 GiB)",
                 "guard", ws_memcheck_names),
    WS_PARAM_TOOLCHAIN,
};
static const bhost_param_desc copy_params[] = {
    BH_PARAM_I64("bytes", "Bytes per copy", "1048576", 1, 1 << 30),
    BH_PARAM_STR("direction", "in (host to linear memory) or out", "in", dirs),
    WS_PARAM_MEMCHECK,
    WS_PARAM_TOOLCHAIN,
};

static void BHOST_ABI m_destroy(void *inst);

/* Reads the parameters of d's kind. */
static bhost_status read_params(minst *d)
{
    bhost_status st = bh_plugin_choice(d->h, WS_PREFIX, "memcheck", ws_memcheck_names, &d->guard);
    int64_t v = 0;

    if (st != BHOST_OK)
        return st;
    switch (d->kind) {
    case B_GROW:
        st = bh_plugin_i64(d->h, WS_PREFIX, "pages", 1, 32768, &v);
        d->pages = (uint32_t)v;
        if (st == BHOST_OK)
            st = bh_plugin_i64(d->h, WS_PREFIX, "touch", 0, 1, &v);
        d->touch = (int)v;
        break;
    case B_CHURN:
        st = bh_plugin_i64(d->h, WS_PREFIX, "ops", 1, 1 << 24, &v);
        d->ops = (uint32_t)v;
        if (st == BHOST_OK)
            st = bh_plugin_i64(d->h, WS_PREFIX, "max_size", 1, 1 << 20, &v);
        d->max_size = (uint32_t)v;
        if (st == BHOST_OK)
            st = bh_plugin_choice(d->h, WS_PREFIX, "mode", churn_modes, &d->mode);
        if (st == BHOST_OK && d->mode == WS_NATIVE && d->guard)
            st = ws_fail(d->h, BHOST_E_SKIP,
                         "memcheck applies to the wasm modes only");
        break;
    case B_CEILING:
        st = bh_plugin_i64(d->h, WS_PREFIX, "step", 1, 65535, &v);
        d->step = (uint32_t)v;
        break;
    default:
        st = bh_plugin_i64(d->h, WS_PREFIX, "bytes", 1, 1 << 30, &v);
        d->bytes = (size_t)v;
        if (st == BHOST_OK)
            st = bh_plugin_choice(d->h, WS_PREFIX, "direction", dirs, &d->dir_out);
    }
    return st;
}

static bhost_status m_create(bhost_host *h, const bhost_backend *be,
                             bhost_dev *dev, int kind, void **out)
{
    minst *d = ws_zalloc(h, sizeof(*d));
    bhost_status st;

    (void)be;
    (void)dev;
    if (d == NULL)
        return BHOST_E_NOMEM;
    d->h = h;
    d->kind = kind;
    d->mode = WS_WASM_CPU;
    st = read_params(d);
    if (st != BHOST_OK) {
        m_destroy(d);
        return st;
    }
    if (d->mode != WS_NATIVE)
        ws_log_toolchain(h, WS_WASM_CPU, d->guard);
    *out = d;
    return BHOST_OK;
}

/* A fresh instance in d->w (the previous one closed). */
static bhost_status reopen(minst *d)
{
    wsim_close(d->w);
    d->w = wsim_open(d->guard);
    if (d->w == NULL)
        return ws_fail(d->h, BHOST_E_NOMEM, "cannot instantiate kern.wasm");
    return BHOST_OK;
}

/* One call returning a u32; traps become failures. */
static bhost_status call_u32(minst *d, int fn, uint32_t a0, uint32_t a1,
                             uint32_t *ret)
{
    wsim_val a[2], r;
    int code;

    a[0].u = a0;
    a[1].u = a1;
    r.u = 0;
    code = wsim_call(d->w, fn, a, &r);
    if (code != 0)
        return ws_trap(d->h, d->w, code, "mem");
    if (ret)
        *ret = r.u;
    return BHOST_OK;
}

static bhost_status BHOST_ABI m_setup(void *inst, bhost_stream *s)
{
    minst *d = inst;
    bhost_status st = BHOST_OK;
    uint64_t seed = ws_api->seed(d->h);

    (void)s;
    if (d->kind == B_CEILING)
        return BHOST_OK;
    if (d->kind == B_CHURN) {
        d->arena = ws_alloc(d->h, ARENA);
        if (d->arena == NULL)
            return BHOST_E_NOMEM;
        wk_heap_native(d->arena, ARENA);
        wk_churn_reset((uint32_t)seed | 1u);
        if (d->mode == WS_NATIVE)
            return BHOST_OK;
    }
    st = reopen(d);
    if (st != BHOST_OK)
        return st;
    if (d->kind == B_GROW) {
        d->base_pages = wsim_memory(d->w).pages;
    } else if (d->kind == B_CHURN) {
        st = call_u32(d, WSIM_FN_CHURN_RESET, (uint32_t)seed | 1u, 0, NULL);
    } else {
        d->src = ws_alloc(d->h, d->bytes);
        d->dst = ws_alloc(d->h, d->bytes);
        if (d->src == NULL || d->dst == NULL)
            return BHOST_E_NOMEM;
        ws_random_i8(d->h, (int8_t *)d->src, d->bytes, 1);
        d->addr = wsim_malloc(d->w, (uint32_t)d->bytes);
        if (d->addr == 0)
            return ws_fail(d->h, BHOST_E_NOMEM,
                           "linear memory: cannot place %zu bytes", d->bytes);
        if (d->dir_out)
            wsim_copy_in(d->w, d->addr, d->src, d->bytes);
    }
    return st;
}

/* One timed memory.grow (re-creating the instance first, untimed, when
 * the memory would pass its span). */
static bhost_status grow_once(minst *d, uint64_t *ns)
{
    uint32_t span = d->pages > GROW_SPAN ? d->pages : GROW_SPAN;
    uint32_t old = 0;
    uint64_t t0;
    bhost_status st;

    if (wsim_memory(d->w).pages + d->pages > d->base_pages + span &&
        (st = reopen(d)) != BHOST_OK)
        return st;
    t0 = ws_api->now_ns(d->h);
    st = call_u32(d, WSIM_FN_GROW, d->pages, 0, &old);
    if (st == BHOST_OK && d->touch && old != UINT32_MAX) {
        wsim_mem m = wsim_memory(d->w);

        for (uint64_t off = (uint64_t)old * PAGE; off < m.size; off += 4096)
            m.data[off] = 1;
    }
    *ns = ws_api->now_ns(d->h) - t0;
    if (st != BHOST_OK)
        return st;
    if (old == UINT32_MAX)
        return ws_fail(d->h, BHOST_E_DEVICE,
                       "memory.grow(%u) returned -1 at %u pages", d->pages,
                       wsim_memory(d->w).pages);
    d->last_old = old;
    d->last_pages = wsim_memory(d->w).pages;
    return BHOST_OK;
}

/* Grows a fresh instance to the ceiling and probes it (see the top). */
static bhost_status ceiling_once(minst *d)
{
    uint32_t pages = 0, r = 0;
    wsim_val a[2], v;
    bhost_status st = reopen(d);

    if (st != BHOST_OK)
        return st;
    pages = wsim_memory(d->w).pages;
    while (pages < WSIM_MAX_PAGES && st == BHOST_OK) {
        uint32_t delta = WSIM_MAX_PAGES - pages < d->step
                             ? WSIM_MAX_PAGES - pages : d->step;

        st = call_u32(d, WSIM_FN_GROW, delta, 0, &r);
        if (st == BHOST_OK && r == UINT32_MAX)
            return ws_fail(d->h, BHOST_E_DEVICE,
                           "memory.grow(%u) failed at %u pages, below the "
                           "declared maximum %u", delta, pages,
                           WSIM_MAX_PAGES);
        pages = wsim_memory(d->w).pages;
    }
    d->reached = pages;
    if (st == BHOST_OK)
        st = call_u32(d, WSIM_FN_GROW, 1, 0, &d->over_one);
    if (st == BHOST_OK)
        st = call_u32(d, WSIM_FN_GROW, 65536, 0, &d->over_max);
    /* the last byte works; the next one traps */
    if (st == BHOST_OK)
        st = call_u32(d, WSIM_FN_STORE_U8, pages * PAGE - 1, 0xA5, NULL);
    if (st == BHOST_OK)
        st = call_u32(d, WSIM_FN_LOAD_U8, pages * PAGE - 1, 0, &d->end_byte);
    a[0].u = pages * PAGE; /* wraps to 0 at exactly 4 GiB: not reachable */
    d->trap_past = (uint32_t)wsim_call(d->w, WSIM_FN_LOAD_U8, a, &v);
    return st;
}

static bhost_status BHOST_ABI m_run(void *inst, bhost_stream *s,
                                    uint64_t iterations)
{
    minst *d = inst;
    bhost_status st = BHOST_OK;
    uint64_t total = 0;

    (void)s;
    for (uint64_t i = 0; i < iterations && st == BHOST_OK; i++) {
        if (d->kind == B_GROW) {
            uint64_t ns = 0;

            st = grow_once(d, &ns);
            total += ns;
        } else if (d->kind == B_CHURN) {
            if (d->mode == WS_NATIVE)
                d->last_hash = wk_churn(d->ops, d->max_size);
            else
                st = call_u32(d, WSIM_FN_CHURN, d->ops, d->max_size,
                              &d->last_hash);
            if (st == BHOST_OK && d->last_hash == UINT32_MAX)
                st = ws_fail(d->h, BHOST_E_DEVICE,
                             "churn: a block's tag was overwritten");
        } else if (d->kind == B_CEILING) {
            st = ceiling_once(d);
        } else if (d->dir_out) {
            if (wsim_copy_out(d->w, d->dst, d->addr, d->bytes) != 0)
                st = ws_trap(d->h, d->w, WSIM_TRAP_OOB, "copy out");
        } else if (wsim_copy_in(d->w, d->addr, d->src, d->bytes) != 0) {
            st = ws_trap(d->h, d->w, WSIM_TRAP_OOB, "copy in");
        }
    }
    if (d->kind == B_GROW && st == BHOST_OK) {
        d->grow_ns += total;
        d->grown_pages += iterations * d->pages;
        st = ws_api->set_iteration_time_ns(d->h, total);
    }
    return st;
}

/* Ratio bodies: churn (the allocator) and copy (memcpy). */
static bhost_status ratio_body(void *inst, int native, uint64_t iters)
{
    minst *d = inst;
    bhost_status st = BHOST_OK;
    uint32_t h = 0;

    for (uint64_t i = 0; i < iters && st == BHOST_OK; i++) {
        if (d->kind == B_CHURN) {
            if (native || d->mode == WS_NATIVE)
                h = wk_churn(d->ops, d->max_size);
            else
                st = call_u32(d, WSIM_FN_CHURN, d->ops, d->max_size, &h);
        } else if (native) {
            memcpy(d->dst, d->src, d->bytes);
            bhost_clobber_memory();
        } else {
            st = m_run(d, NULL, 1);
        }
    }
    bhost_do_not_optimize(&h);
    return st;
}

/* The allocator's consistency, and bit-for-bit agreement of the wasm and
 * native builds on a fresh heap. */
static bhost_status verify_churn(minst *d)
{
    uint32_t bad = 0, wh[3], nh[3], ws = 0, ns;
    uint32_t seed = (uint32_t)ws_api->seed(d->h) | 1u;
    bhost_status st = BHOST_OK;
    int same = 1;

    if (d->mode == WS_NATIVE)
        bad = wk_heap_check();
    else
        st = call_u32(d, WSIM_FN_HEAP_CHECK, 0, 0, &bad);
    if (st == BHOST_OK && bad != 0)
        return ws_fail(d->h, BHOST_E_VERIFY,
                       "churn: heap check %u failed after the runs", bad);
    if (st == BHOST_OK)
        st = reopen(d);
    wk_heap_native(d->arena, ARENA);
    wk_churn_reset(seed);
    if (st == BHOST_OK)
        st = call_u32(d, WSIM_FN_CHURN_RESET, seed, 0, NULL);
    for (int i = 0; i < 3 && st == BHOST_OK; i++) {
        nh[i] = wk_churn(d->ops, d->max_size);
        st = call_u32(d, WSIM_FN_CHURN, d->ops, d->max_size, &wh[i]);
        same &= st == BHOST_OK && nh[i] == wh[i];
    }
    if (st == BHOST_OK)
        st = call_u32(d, WSIM_FN_HEAP_STAT, 4, 0, &ws);
    if (st != BHOST_OK)
        return st;
    ns = wk_heap_stat(4);
    same &= ws == ns;
    bh_plugin_metric_info(d->h, "verify.bit_exact", "", same ? 1.0 : 0.0);
    if (!same)
        return ws_fail(d->h, BHOST_E_VERIFY,
                       "churn: wasm and native allocators disagree (hash "
                       "%08x vs %08x, heap %u vs %u bytes)",
                       wh[0], nh[0], ws, ns);
    bh_plugin_metric_info(d->h, "heap.bytes", "B", ns);
    bh_plugin_metric_info(d->h, "heap.extensions", "", wk_heap_stat(5));
    bh_plugin_metric_info(d->h, "heap.free_blocks", "", wk_heap_stat(3));
    return BHOST_OK;
}

/* The last grow: old size as expected, new pages zero. */
static bhost_status verify_grow(minst *d)
{
    wsim_mem m = wsim_memory(d->w);
    uint8_t first = 1, last = 1;

    if (d->last_pages != d->last_old + d->pages || m.pages != d->last_pages)
        return ws_fail(d->h, BHOST_E_VERIFY,
                       "grow: memory.size %u after growing %u pages from %u",
                       m.pages, d->pages, d->last_old);
    wsim_copy_out(d->w, &first, d->last_old * PAGE, 1);
    wsim_copy_out(d->w, &last, m.size - 1, 1);
    if (!d->touch && (first != 0 || last != 0))
        return ws_fail(d->h, BHOST_E_VERIFY,
                       "grow: new pages are not zero-filled");
    if (d->grown_pages)
        bh_plugin_metric(d->h, "grow.ns_per_page", "ns", BHOST_LOWER_IS_BETTER,
                         (double)d->grow_ns / (double)d->grown_pages);
    return BHOST_OK;
}

static bhost_status verify_ceiling(minst *d)
{
    bh_plugin_metric_info(d->h, "ceiling.pages", "", d->reached);
    bh_plugin_metric_info(d->h, "ceiling.bytes", "B", (double)d->reached * PAGE);
    bh_plugin_metric_info(d->h, "ceiling.grow_refused", "",
                          d->over_one == UINT32_MAX && d->over_max == UINT32_MAX ? 1.0 : 0.0);
    bh_plugin_metric_info(d->h, "ceiling.trap_past_end", "",
                          d->trap_past == WSIM_TRAP_OOB ? 1.0 : 0.0);
    if (d->reached != WSIM_MAX_PAGES || d->over_one != UINT32_MAX ||
        d->over_max != UINT32_MAX || d->end_byte != 0xA5 ||
        d->trap_past != WSIM_TRAP_OOB)
        return ws_fail(d->h, BHOST_E_VERIFY,
                       "ceiling: reached %u pages, grow(1) -> %d, "
                       "grow(65536) -> %d, last byte %u, access past the end "
                       "-> trap %u", d->reached, (int)d->over_one,
                       (int)d->over_max, d->end_byte, d->trap_past);
    return BHOST_OK;
}

static bhost_status BHOST_ABI m_verify(void *inst)
{
    minst *d = inst;
    bhost_status st;

    switch (d->kind) {
    case B_GROW:
        return verify_grow(d);
    case B_CEILING:
        return verify_ceiling(d);
    case B_CHURN:
        st = verify_churn(d);
        break;
    default:
        if (d->dir_out)
            st = memcmp(d->dst, d->src, d->bytes) == 0 ? BHOST_OK
                 : ws_fail(d->h, BHOST_E_VERIFY, "copy out: bytes differ");
        else
            st = wsim_copy_out(d->w, d->dst, d->addr, d->bytes) == 0 &&
                         memcmp(d->dst, d->src, d->bytes) == 0
                     ? BHOST_OK
                     : ws_fail(d->h, BHOST_E_VERIFY, "copy in: bytes differ");
    }
    return st == BHOST_OK ? ws_report_ratio(d->h, d, ratio_body) : st;
}

static void BHOST_ABI m_destroy(void *inst)
{
    minst *d = inst;

    if (d == NULL)
        return;
    wsim_close(d->w);
    ws_free(d->h, d->arena);
    ws_free(d->h, d->src);
    ws_free(d->h, d->dst);
    ws_free(d->h, d);
}

static double BHOST_ABI m_flops(void *inst)
{
    (void)inst;
    return 0.0;
}

/* The bytes of the counting note at the top. [instance] */
static double BHOST_ABI m_bytes(void *inst)
{
    minst *d = inst;

    if (d->kind == B_GROW)
        return !d->guard || d->touch ? (double)d->pages * PAGE : 0.0;
    return d->kind == B_COPY ? 2.0 * (double)d->bytes : 0.0;
}

/* Pages grown, allocator steps, or one ceiling walk or copy. [instance] */
static double BHOST_ABI m_items(void *inst)
{
    minst *d = inst;

    return d->kind == B_CHURN ? (double)d->ops : d->kind == B_GROW ? (double)d->pages : 1.0;
}

/* See the counting note at the top. [instance] */
static bhost_status BHOST_ABI m_profile(void *inst, bhost_work_profile *out)
{
    const minst *d = inst;
    bhost_access access = d->kind == B_GROW   ? BHOST_ACCESS_WRITE
                          : d->kind == B_COPY ? BHOST_ACCESS_READ_WRITE
                                              : BHOST_ACCESS_UNKNOWN;

    return bh_plugin_profile(out, access, BHOST_COMPUTE_NONE, 1, m_bytes(inst));
}

WS_CREATE(create_grow, m_create, B_GROW)
WS_CREATE(create_churn, m_create, B_CHURN)
WS_CREATE(create_ceiling, m_create, B_CEILING)
WS_CREATE(create_copy, m_create, B_COPY)

WS_DESC(grow_desc, "mem.grow", BHOST_BENCH_MANUAL_TIMING,
        "memory.grow cost by page count (explicit or guard-page memory)",
        grow_params, create_grow, m);
WS_DESC(churn_desc, "mem.churn", 0u,
        "Free-list malloc churn inside the linear memory vs the same allocator "
        "natively", churn_params, create_churn, m);
WS_DESC(ceiling_desc, "mem.ceiling", 0u,
        "Grow to the wasm32 ceiling: further grows return -1, the end traps",
        ceiling_params, create_ceiling, m);
WS_DESC(copy_desc, "mem.copy", 0u,
        "Bounds-checked copies into or out of the linear memory vs memcpy",
        copy_params, create_copy, m);

const bhost_bench_desc *const ws_mem_benches[] = {
    &grow_desc, &churn_desc, &ceiling_desc, &copy_desc, NULL,
};
