// SPDX-License-Identifier: MIT
/*
 * bench_touch.c -- touch.first: the cost of first touch of fresh anonymous
 * memory, with 4 KiB pages (madvise MADV_NOHUGEPAGE) or transparent huge
 * pages (MADV_HUGEPAGE on a 2 MiB-aligned range). An iteration maps
 * `bytes`, advises it, touches it (fill page: one store per 4 KiB page,
 * so the time is the page faults and the kernel's zeroing; fill full:
 * every byte written, the first-touch bandwidth) and unmaps it.
 * create() reads /sys/kernel/mm/transparent_hugepage/enabled for thp:
 * unsupported with the reason when the file is absent or says never.
 * Counting: items = 4 KiB pages per iteration (also with THP, so the
 * ns-per-page figures compare), bytes = `bytes` (the kernel zeroes every
 * page either way); the work profile is a write stream over `bytes`, so
 * the case is held against the write-bandwidth ceiling of the level that
 * holds it (DRAM for the default 64 MiB). verify() touches one more
 * mapping the same way, checks every page (every byte with fill full)
 * and reports the share of it the kernel backed with huge pages
 * (touch.huge_fraction, from /proc/self/smaps) and THP's setting
 * (thp.setting: 2 always, 1 madvise, 0 never, -1 no THP).
 */
#include "mem.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define SMALL_PAGE  4096u
#define HUGE_ALIGN  ((size_t)2 << 20)
#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

typedef struct touch_inst {
    bhost_host *h;
    size_t bytes;
    int thp;       /* 1: MADV_HUGEPAGE */
    int full;      /* 1: every byte written */
    char mode[16]; /* THP's setting: always, madvise, never; "" absent */
} touch_inst;

static const char *const page_kinds[] = {"4k", "thp", NULL};
static const char *const fills[] = {"page", "full", NULL};

static const bhost_param_desc touch_params[] = {
    BH_PARAM_STR("page", "4k (MADV_NOHUGEPAGE) or thp (MADV_HUGEPAGE)", "4k", page_kinds),
    BH_PARAM_STR("fill", "page (one store per 4 KiB) or full (every byte)", "page", fills),
    BH_PARAM_I64("bytes", "Bytes mapped and touched per iteration", "67108864", 2 << 20,
                 (double)((uint64_t)1 << 36)),
};

/* The bracketed setting of THP_ENABLED ("always", "madvise", "never")
 * into mode, or "" with the reason in why. */
static void thp_setting(char *mode, size_t cap, char *why, size_t wcap)
{
    char line[128];
    const char *lb, *rb;
    FILE *f = fopen(THP_ENABLED, "r");

    mode[0] = '\0';
    if (f == NULL) {
        snprintf(why, wcap, "%s: %s", THP_ENABLED, strerror(errno));
        return;
    }
    if (fgets(line, sizeof(line), f) == NULL)
        line[0] = '\0';
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    lb = strchr(line, '[');
    rb = lb != NULL ? strchr(lb, ']') : NULL;
    if (rb == NULL)
        snprintf(why, wcap, "%s: no [setting] in '%s'", THP_ENABLED, line);
    else
        snprintf(mode, cap, "%.*s", (int)(rb - lb - 1), lb + 1);
}

/* BHOST_E_UNSUPPORTED with the reason when THP cannot be used. [instance] */
static bhost_status thp_usable(bhost_host *h, const char *mode, const char *why)
{
    if (mode[0] == '\0')
        return mem_fail(h, BHOST_E_UNSUPPORTED, "no transparent huge pages: %s", why);
    if (strcmp(mode, "never") == 0)
        return mem_fail(h, BHOST_E_UNSUPPORTED, "transparent huge pages disabled (%s: never)",
                        THP_ENABLED);
    return BHOST_OK;
}

/* Reads page, fill and bytes; checks THP for thp. [instance] */
static bhost_status BHOST_ABI touch_create(bhost_host *h, const bhost_backend *be, bhost_dev *dev,
                                           void **inst)
{
    int page = 0, fill = 0;
    int64_t bytes = 0;
    char mode[16], why[256];
    touch_inst *x;
    bhost_status st = bh_plugin_choice(h, MEM_PREFIX, "page", page_kinds, &page);

    (void)be;
    (void)dev;
    if (st == BHOST_OK)
        st = bh_plugin_choice(h, MEM_PREFIX, "fill", fills, &fill);
    if (st == BHOST_OK)
        st = bh_plugin_i64(h, MEM_PREFIX, "bytes", 2 << 20, INT64_MAX, &bytes);
    thp_setting(mode, sizeof(mode), why, sizeof(why));
    if (st == BHOST_OK && page == 1)
        st = thp_usable(h, mode, why);
    if (st != BHOST_OK)
        return st;
    x = mem_zalloc(h, sizeof(*x));
    if (x == NULL)
        return BHOST_E_NOMEM;
    x->h = h;
    x->bytes = ((size_t)bytes + SMALL_PAGE - 1) / SMALL_PAGE * SMALL_PAGE;
    x->thp = page;
    x->full = fill;
    snprintf(x->mode, sizeof(x->mode), "%s", mode);
    *inst = x;
    return BHOST_OK;
}

static bhost_status BHOST_ABI touch_setup(void *inst, bhost_stream *s)
{
    (void)inst;
    (void)s;
    return BHOST_OK;
}

/* A fresh mapping of x->bytes, 2 MiB-aligned, advised; NULL on failure. */
static unsigned char *map_fresh(const touch_inst *x)
{
    size_t len = x->bytes + HUGE_ALIGN;
    unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *p;
    size_t head;

    if (m == MAP_FAILED)
        return NULL;
    p = (unsigned char *)(((uintptr_t)m + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
    head = (size_t)(p - m);
    if (head > 0)
        munmap(m, head);
    if (len - head > x->bytes)
        munmap(p + x->bytes, len - head - x->bytes);
    madvise(p, x->bytes, x->thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    return p;
}

/* The byte page i holds after a touch with tag v. */
static unsigned char page_byte(size_t i, unsigned v)
{
    return (unsigned char)((i * 131u + v) | 1u);
}

/* Touches p as x says, with tag v. */
static void touch(const touch_inst *x, unsigned char *p, unsigned v)
{
    if (x->full) {
        memset(p, (int)page_byte(0, v), x->bytes);
        return;
    }
    for (size_t i = 0; i < x->bytes / SMALL_PAGE; i++)
        p[i * SMALL_PAGE] = page_byte(i, v);
}

/* iterations map + advise + touch + unmap. [instance] */
static bhost_status BHOST_ABI touch_run(void *inst, bhost_stream *s, uint64_t iterations)
{
    touch_inst *x = inst;

    (void)s;
    for (uint64_t i = 0; i < iterations; i++) {
        unsigned char *p = map_fresh(x);

        if (p == NULL)
            return mem_fail(x->h, BHOST_E_NOMEM, "mmap of %zu bytes failed", x->bytes);
        touch(x, p, (unsigned)i);
        bhost_do_not_optimize(p);
        munmap(p, x->bytes);
    }
    return BHOST_OK;
}

/* kB of AnonHugePages of the mapping that starts at p (/proc/self/smaps),
 * 0 when not found. */
static uint64_t huge_kb(const void *p)
{
    char line[256];
    unsigned long lo, hi;
    int inside = 0;
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/self/smaps", "r");

    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strstr(line, ": ") == NULL) {
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            continue;
        }
        if (inside && sscanf(line, "AnonHugePages: %llu kB", &kb) == 1)
            break;
    }
    if (f != NULL)
        fclose(f);
    return kb;
}

/* 1 when p holds what touch(x, p, v) wrote. */
static int touched(const touch_inst *x, const unsigned char *p, unsigned v)
{
    size_t n = x->full ? x->bytes : x->bytes / SMALL_PAGE;

    for (size_t i = 0; i < n; i++)
        if (p[x->full ? i : i * SMALL_PAGE] != page_byte(x->full ? 0 : i, v))
            return 0;
    return 1;
}

/* THP's setting as a number: 2 always, 1 madvise, 0 never, -1 absent. */
static double thp_code(const char *mode)
{
    return strcmp(mode, "always") == 0    ? 2
           : strcmp(mode, "madvise") == 0 ? 1
           : strcmp(mode, "never") == 0   ? 0
                                          : -1;
}

/* One more touch, checked; reports touch.huge_fraction. [instance] */
static bhost_status BHOST_ABI touch_verify(void *inst)
{
    touch_inst *x = inst;
    unsigned char *p = map_fresh(x);
    int ok;
    double frac;
    bhost_status st;

    if (p == NULL)
        return mem_fail(x->h, BHOST_E_NOMEM, "verify: mmap of %zu bytes failed", x->bytes);
    touch(x, p, 7u);
    ok = touched(x, p, 7u);
    frac = (double)huge_kb(p) * 1024.0 / (double)x->bytes;
    munmap(p, x->bytes);
    if (!ok)
        return mem_fail(x->h, BHOST_E_VERIFY, "verify: a touched page lost its byte");
    st = bh_plugin_metric_info(x->h, "touch.huge_fraction", "", frac);
    if (st == BHOST_OK)
        st = bh_plugin_metric_info(x->h, "thp.setting", "", thp_code(x->mode));
    return st;
}

static void BHOST_ABI touch_destroy(void *inst)
{
    touch_inst *x = inst;

    mem_free(x->h, x);
}

/* 4 KiB pages per iteration. [instance] */
static double BHOST_ABI touch_items(void *inst)
{
    return (double)(((const touch_inst *)inst)->bytes / SMALL_PAGE);
}

/* The bytes mapped and zeroed per iteration. [instance] */
static double BHOST_ABI touch_bytes(void *inst)
{
    return (double)((const touch_inst *)inst)->bytes;
}

/* A write stream over `bytes`, one thread. [instance] */
static bhost_status BHOST_ABI touch_profile(void *inst, bhost_work_profile *out)
{
    return bh_plugin_profile(out, BHOST_ACCESS_WRITE, BHOST_COMPUTE_NONE, 1, touch_bytes(inst));
}

const bhost_bench_desc bh_mem_touch = {
    .struct_size = sizeof(bhost_bench_desc),
    .id = "touch.first",
    .summary = "First touch of fresh memory: 4 KiB pages or transparent huge pages",
    .params = touch_params,
    .param_count = BH_PLUGIN_COUNT(touch_params),
    .create = touch_create,
    .setup = touch_setup,
    .run = touch_run,
    .verify = touch_verify,
    .destroy = touch_destroy,
    .items_per_iter = touch_items,
    .bytes_per_iter = touch_bytes,
    .work_profile = touch_profile,
};
