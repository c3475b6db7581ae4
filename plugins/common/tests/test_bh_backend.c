// SPDX-License-Identifier: MIT
/*
 * test_bh_backend.c -- the backends' shared code against a small fake
 * backend: every message word for word (the backends' users and tests
 * see them), statuses, the default stream, range arithmetic at the
 * edges, struct_size-limited copies, table lookup, the loader glue over a
 * loader that fails and one that works, and dlopen/dlsym of libc.
 */
#define _GNU_SOURCE
#include <bhost/backend_helper.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bhost_dev {
    uint32_t magic;
    uint32_t index;
    bhost_host *h;
    bhost_stream *def;
};
struct bhost_buf {
    uint32_t magic;
    uint32_t flags;
    bhost_dev *dev;
    uint64_t size;
};
struct bhost_stream {
    uint32_t magic;
    uint32_t reserved;
    bhost_dev *dev;
};
struct bhost_event {
    uint32_t magic;
    uint32_t recorded;
    bhost_dev *dev;
};
BH_BE_CHECK_LAYOUT();

#define DEV 0x44u
#define BUF 0x42u
#define STREAM 0x53u
#define EVENT 0x45u

static int failures;
static char last_error[600];
static bhost_host *last_host;
static char last_log[600];
static int last_level = -1;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,  \
                    #cond);                                                    \
            failures++;                                                        \
        }                                                                      \
    } while (0)

/* Checks that the last set_error was exactly want, then forgets it. */
#define CHECK_ERROR(want)                                                      \
    do {                                                                       \
        if (strcmp(last_error, want) != 0) {                                   \
            fprintf(stderr, "%s:%d: error '%s', expected '%s'\n", __FILE__,    \
                    __LINE__, last_error, want);                               \
            failures++;                                                        \
        }                                                                      \
        last_error[0] = '\0';                                                  \
    } while (0)

static void BHOST_ABI host_set_error(bhost_host *h, const char *msg)
{
    last_host = h;
    snprintf(last_error, sizeof(last_error), "%s", msg);
}

static void BHOST_ABI host_log(bhost_host *h, bhost_log_level level,
                               const char *msg)
{
    last_host = h;
    last_level = (int)level;
    snprintf(last_log, sizeof(last_log), "%s", msg);
}

/* The kind and value of the last report_metric_kind (0: none). */
static int last_metric_kind;
static double last_metric_value;

static bhost_status BHOST_ABI host_metric_kind(bhost_host *h, const char *name,
                                               const char *unit, bhost_metric_kind kind,
                                               bhost_direction direction, double value,
                                               double limit)
{
    (void)h;
    (void)name;
    (void)unit;
    (void)direction;
    (void)limit;
    last_metric_kind = (int)kind;
    last_metric_value = value;
    return BHOST_OK;
}

static const void *BHOST_ABI host_extension(bhost_host *h, const char *id)
{
    (void)h;
    (void)id;
    return NULL;
}

/* The fake loader: fails until loaded is set, then has two devices. */
static int loaded;
static bhost_status fake_load(void)
{
    return loaded ? BHOST_OK : BHOST_E_UNSUPPORTED;
}
static const char *fake_load_error(void)
{
    return "no runtime: libfake.so.1: cannot open";
}
static uint32_t fake_count(void)
{
    return loaded ? 2 : 0;
}
static void fake_describe(uint32_t index, bhost_device_info *info)
{
    memset(info, 0, sizeof(*info));
    info->struct_size = sizeof(*info);
    snprintf(info->name, sizeof(info->name), "fake %u", (unsigned)index);
    info->compute_units = 7;
}
static const void *fake_kernel(bhost_dev *dev, const char *id)
{
    (void)dev;
    return strcmp(id, "k/1") == 0 ? (const void *)&failures : NULL;
}

static bh_be be = {"backend-fake", NULL, DEV, BUF, STREAM, EVENT,
                   fake_load, fake_load_error, fake_count, fake_describe,
                   fake_kernel};

/* init() and the messages before and after it. */
static void test_init_and_messages(void)
{
    bhost_host_api api;

    CHECK(bh_be_fail(&be, NULL, BHOST_E_DEVICE, "x") == BHOST_E_DEVICE);
    CHECK(last_error[0] == '\0'); /* no api yet: nothing reported */
    memset(&api, 0, sizeof(api));
    CHECK(bh_be_init(&be, NULL) == BHOST_E_VERSION);
    api.struct_size = (uint32_t)offsetof(bhost_host_api, alloc);
    api.set_error = host_set_error;
    api.log = host_log;
    CHECK(bh_be_init(&be, &api) == BHOST_E_VERSION);
    CHECK_ERROR("backend-fake: host API table older than 1.0");
    CHECK(be.api == NULL);
    api.struct_size = sizeof(api);
    api.get_extension = host_extension;
    CHECK(bh_be_init(&be, &api) == BHOST_OK);
    CHECK(be.api == &api);
    /* api is copied by pointer: keep it alive for the other tests */
    static bhost_host_api kept;
    kept = api;
    be.api = &kept;

    CHECK(bh_be_fail(&be, (bhost_host *)&be, BHOST_E_NOMEM, "%s %d", "a", 7) ==
          BHOST_E_NOMEM);
    CHECK_ERROR("backend-fake: a 7");
    CHECK(last_host == (bhost_host *)&be);
    bh_be_log(&be, NULL, BHOST_LOG_WARN, "close: %d buffer(s)", 2);
    CHECK(strcmp(last_log, "backend-fake: close: 2 buffer(s)") == 0);
    CHECK(last_level == BHOST_LOG_WARN);
    {
        char big[700];

        memset(big, 'x', sizeof(big) - 1);
        big[sizeof(big) - 1] = '\0';
        bh_be_fail(&be, NULL, BHOST_E_INVALID, "%s", big);
        CHECK(strlen(last_error) == 511 &&
              strncmp(last_error, "backend-fake: xx", 16) == 0);
        last_error[0] = '\0';
    }
    /* informational metrics: dropped by a 1.0 table, kept by a 1.1 one */
    kept.struct_size = (uint32_t)offsetof(bhost_host_api, report_metric_kind);
    kept.report_metric_kind = host_metric_kind;
    CHECK(bh_be_metric_info(&be, NULL, "fake.hits", "", 3) == BHOST_OK);
    CHECK(last_metric_kind == 0);
    kept.struct_size = sizeof(kept);
    CHECK(bh_be_metric_info(&be, NULL, "fake.hits", "", 3) == BHOST_OK);
    CHECK(last_metric_kind == BHOST_METRIC_INFORMATIONAL && last_metric_value == 3);
}

/* Device, stream, buffer and event checks. */
static void test_handles(void)
{
    bhost_host *host = (bhost_host *)&failures;
    bhost_stream def = {STREAM, 0, NULL};
    bhost_dev dev = {DEV, 3, host, &def};
    bhost_dev other = {DEV, 4, NULL, NULL};
    bhost_dev closed = {0, 0, NULL, NULL};
    bhost_stream s = {STREAM, 0, &dev}, s_other = {STREAM, 0, &other};
    bhost_stream s_dead = {0, 0, &dev};
    bhost_buf b = {BUF, 0, &dev, 100}, b_other = {BUF, 0, &other, 100};
    bhost_buf b_dead = {0, 0, &dev, 100};
    bhost_event e = {EVENT, 0, &dev}, e_other = {EVENT, 0, &other};
    bhost_stream *t = NULL;
    int args;

    def.dev = &dev;
    CHECK(bh_be_check_dev(&be, &dev, "alloc") == BHOST_OK);
    CHECK(bh_be_check_dev(&be, NULL, "alloc") == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: alloc: NULL device handle");
    CHECK(last_host == NULL);
    CHECK(bh_be_check_dev(&be, &closed, "map") == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: map: invalid device handle");
    CHECK(bh_be_host_of(&dev) == host);

    CHECK(bh_be_check_stream(&be, &dev, NULL, "op") == BHOST_OK);
    CHECK(bh_be_check_stream(&be, &dev, &s, "op") == BHOST_OK);
    CHECK(bh_be_check_stream(&be, &dev, &s_other, "copy_h2d") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: copy_h2d: stream is not a stream of this "
                "device");
    CHECK(last_host == host);
    CHECK(bh_be_check_stream(&be, &dev, &s_dead, "op") == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: op: stream is not a stream of this device");
    CHECK(bh_be_stream_of(&be, &dev, &def, NULL, "op") == &def);
    CHECK(bh_be_stream_of(&be, &dev, &def, &s, "op") == &s);
    CHECK(bh_be_stream_of(&be, &dev, &def, &s_other, "op") == NULL);
    CHECK_ERROR("backend-fake: op: stream is not a stream of this device");

    CHECK(bh_be_check_range(&be, &dev, &b, 0, 100, "op", "dst") == BHOST_OK);
    CHECK(bh_be_check_range(&be, &dev, &b, 100, 0, "op", "dst") == BHOST_OK);
    CHECK(bh_be_check_range(&be, &dev, &b, 60, 41, "copy_d2h", "src") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: copy_d2h: src range [60, +41) exceeds buffer "
                "size 100");
    CHECK(bh_be_check_range(&be, &dev, &b, 101, 0, "op", "x") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: op: x range [101, +0) exceeds buffer size 100");
    CHECK(bh_be_check_range(&be, &dev, &b, 1, UINT64_MAX, "op", "x") ==
          BHOST_E_INVALID); /* off + n would wrap */
    CHECK_ERROR("backend-fake: op: x range [1, +18446744073709551615) exceeds "
                "buffer size 100");
    CHECK(bh_be_check_range(&be, &dev, NULL, 0, 0, "map", "mapped") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: map: mapped is not a live buffer of this "
                "device");
    CHECK(bh_be_check_range(&be, &dev, &b_other, 0, 1, "op", "y") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: op: y is not a live buffer of this device");
    CHECK(bh_be_check_range(&be, &dev, &b_dead, 0, 1, "op", "y") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: op: y is not a live buffer of this device");

    CHECK(bh_be_check_event(&be, &dev, &e, "op", "start") == BHOST_OK);
    CHECK(bh_be_check_event(&be, &dev, &e_other, "event_elapsed_ns", "end") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: event_elapsed_ns: end is not an event of this "
                "device");
    CHECK(bh_be_check_event(&be, &dev, NULL, "event_record", "event") ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: event_record: event is not an event of this "
                "device");

    CHECK(bh_be_call(&be, &dev, &def, NULL, &args, "axpy", &t) == BHOST_OK);
    CHECK(t == &def);
    CHECK(bh_be_call(&be, &dev, &def, &s, NULL, "axpy", &t) ==
          BHOST_E_INVALID);
    CHECK(t == &s);
    CHECK_ERROR("backend-fake: axpy: NULL args");
    CHECK(bh_be_call(&be, &dev, &def, &s_other, NULL, "gemm", &t) ==
          BHOST_E_INVALID);
    CHECK(t == NULL); /* the stream is reported, not the args */
    CHECK_ERROR("backend-fake: gemm: stream is not a stream of this device");
}

/* device_count, device_info, get_kernel, get_interface and sized copies. */
static void test_entry(void)
{
    static const bhost_backend table = {.struct_size = sizeof(bhost_backend),
                                        .id = "fake"};
    bhost_device_info info;
    bhost_dev dev = {DEV, 0, NULL, NULL};
    uint32_t count = 9;

    CHECK(bh_be_interface(BHOST_IFACE_BACKEND, &table) == &table);
    CHECK(bh_be_interface("bhost.backend/2", &table) == NULL);
    CHECK(bh_be_interface(NULL, &table) == NULL);

    CHECK(bh_be_device_count(&be, NULL) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: device_count: NULL count");
    CHECK(bh_be_device_count(&be, &count) == BHOST_OK && count == 0);
    CHECK_ERROR("backend-fake: no runtime: libfake.so.1: cannot open");
    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    CHECK(bh_be_device_info(&be, 0, &info) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: device_info: no device 0");
    loaded = 1;
    CHECK(bh_be_device_count(&be, &count) == BHOST_OK && count == 2);
    CHECK(last_error[0] == '\0');
    CHECK(bh_be_device_info(&be, 2, &info) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: device_info: no device 2");
    CHECK(bh_be_device_info(&be, 0, NULL) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: device_info: bad out");
    info.struct_size = 2;
    CHECK(bh_be_device_info(&be, 0, &info) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: device_info: bad out");
    info.struct_size = sizeof(info);
    CHECK(bh_be_device_info(&be, 1, &info) == BHOST_OK);
    CHECK(strcmp(info.name, "fake 1") == 0 && info.compute_units == 7);
    CHECK(info.struct_size == sizeof(info));

    /* a caller that knows only the first 8 bytes gets only those */
    {
        bhost_build_stats src = {sizeof(bhost_build_stats), 5, 6, 7, 1.5, "c"};
        bhost_build_stats out;

        memset(&out, 0xAB, sizeof(out));
        out.struct_size = 8;
        bh_be_copy_sized(&out, &src, sizeof(src));
        CHECK(out.struct_size == 8 && out.programs == 5);
        CHECK(out.cache_hits == 0xABABABABu);
        out.struct_size = sizeof(out) + 64; /* a newer caller: all of src */
        bh_be_copy_sized(&out, &src, sizeof(src));
        CHECK(out.cache_misses == 7 && out.build_ns == 1.5 &&
              strcmp(out.cache, "c") == 0);
    }

    CHECK(bh_be_get_kernel(&be, &dev, "k/1") == &failures);
    CHECK(bh_be_get_kernel(&be, &dev, "other/1") == NULL);
    CHECK(bh_be_get_kernel(&be, &dev, NULL) == NULL);
    CHECK(bh_be_get_kernel(&be, NULL, "k/1") == NULL);
    CHECK_ERROR("backend-fake: get_kernel: NULL device handle");
}

/* A gemm operand check that records its calls and fails on "b" when
 * fail_b is set. */
static char seen[64];
static int fail_b;
static bhost_status record_matrix(const bhost_dev *dev, const bhost_buf *buf,
                                  uint64_t rows, uint64_t cols, uint64_t ld,
                                  uint64_t es, const char *what)
{
    size_t n = strlen(seen);

    (void)dev;
    (void)buf;
    snprintf(seen + n, sizeof(seen) - n, "%s%u%u%u%u ", what, (unsigned)rows,
             (unsigned)cols, (unsigned)ld, (unsigned)es);
    return fail_b && strcmp(what, "b") == 0 ? BHOST_E_UNSUPPORTED : BHOST_OK;
}

/* bh_be_check_gemm_operands: order, op() shapes, element sizes, alias. */
static void test_gemm_operands(void)
{
    bhost_dev dev = {DEV, 0, NULL, NULL};
    bhost_buf x = {BUF, 0, &dev, 64}, y = {BUF, 0, &dev, 64};
    bhost_buf z = {BUF, 0, &dev, 64};
    bhost_gemm_args g;

    memset(&g, 0, sizeof(g));
    g.m = 2;
    g.n = 3;
    g.k = 4;
    g.lda = 5;
    g.ldb = 6;
    g.ldc = 7;
    g.trans_a = 1;
    g.a = &x;
    g.b = &y;
    g.c = &z;
    seen[0] = '\0';
    CHECK(bh_be_check_gemm_operands(&be, &dev, &g, 2, 4, record_matrix) ==
          BHOST_OK);
    CHECK(strcmp(seen, "a4252 b4362 c2374 ") == 0);
    g.c = &y;
    seen[0] = '\0';
    CHECK(bh_be_check_gemm_operands(&be, &dev, &g, 2, 4, record_matrix) ==
          BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: gemm: c must not alias a or b");
    fail_b = 1;
    seen[0] = '\0';
    CHECK(bh_be_check_gemm_operands(&be, &dev, &g, 2, 4, record_matrix) ==
          BHOST_E_UNSUPPORTED); /* b's own verdict; c is not looked at */
    CHECK(strcmp(seen, "a4252 b4362 ") == 0);
    fail_b = 0;
}

/* Table lookup, build_stats checks, span and the kernel argument checks. */
static void test_kernels(void)
{
    static const int g, a, r, b, i;
    const bh_be_tables t = {&g, &a, &r, &b, &i};
    bhost_dev dev = {DEV, 0, NULL, NULL};
    bhost_buf x = {BUF, 0, &dev, 4096}, y = {BUF, 0, &dev, 64};
    bhost_build_stats out;
    int k = -1;

    CHECK(bh_be_find_table(&t, BHOST_KERNEL_GEMM, &k) == &g && k == 1);
    CHECK(bh_be_find_table(&t, BHOST_KERNEL_AXPY, &k) == &a && k == 1);
    CHECK(bh_be_find_table(&t, BHOST_KERNEL_REDUCE, &k) == &r && k == 1);
    CHECK(bh_be_find_table(&t, BHOST_EXT_BUILD_STATS, &k) == &b && k == 0);
    CHECK(bh_be_find_table(&t, BHOST_EXT_DEVICE_INDEX, &k) == &i && k == 0);
    k = -1;
    CHECK(bh_be_find_table(&t, "bhost.kernel.gemm/2", &k) == NULL && k == 0);

    memset(&out, 0, sizeof(out));
    CHECK(bh_be_check_stats(&be, NULL, &out, 0) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: build_stats: NULL device handle");
    CHECK(bh_be_check_stats(&be, &dev, &out, 0) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: build_stats: bad arguments");
    out.struct_size = sizeof(out);
    CHECK(bh_be_check_stats(&be, &dev, &out, BHOST_BUILD_CACHED) == BHOST_OK);
    CHECK(bh_be_check_stats(&be, &dev, &out, 2) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: build_stats: bad arguments");
    CHECK(bh_be_check_stats(&be, &dev, NULL, 0) == BHOST_E_INVALID);
    CHECK_ERROR("backend-fake: build_stats: bad arguments");

    CHECK(bh_be_span(4, 3, 5, 8) == (5 * 2 + 4) * 8);
    CHECK(bh_be_span(0, 3, 1, 8) == 0);
    CHECK(bh_be_span(4, 0, 4, 8) == 0);
    CHECK(bh_be_span(4, 3, 3, 8) == UINT64_MAX);
    CHECK(bh_be_span(0, 3, 0, 8) == UINT64_MAX); /* ld must be >= 1 */

    {
        bhost_gemm_args gm;

        memset(&gm, 0, sizeof(gm));
        gm.struct_size = sizeof(gm);
        gm.m = gm.n = gm.k = 8;
        gm.lda = gm.ldb = gm.ldc = 8;
        gm.a = &x;
        gm.b = &x;
        gm.c = &x;
        CHECK(bh_be_check_gemm_spans(&be, &dev, &gm, 4, 4) == BHOST_OK);
        gm.trans_b = 1;
        gm.ldb = 4; /* b is n x k transposed: ld must be >= n */
        CHECK(bh_be_check_gemm_spans(&be, &dev, &gm, 4, 4) ==
              BHOST_E_INVALID);
        CHECK_ERROR("backend-fake: gemm: b range [0, +18446744073709551615) "
                    "exceeds buffer size 4096");
        gm.ldb = 8;
        gm.c = &y;
        CHECK(bh_be_check_gemm_spans(&be, &dev, &gm, 2, 4) ==
              BHOST_E_INVALID);
        CHECK_ERROR("backend-fake: gemm: c range [0, +256) exceeds buffer "
                    "size 64");
    }
    {
        bhost_axpy_args ax;

        memset(&ax, 0, sizeof(ax));
        ax.struct_size = sizeof(ax);
        ax.type = BHOST_DTYPE_F32;
        ax.n = 16;
        ax.x = &x;
        ax.y = &y;
        CHECK(bh_be_check_axpy(&be, &dev, &ax, 4, "") == BHOST_OK);
        CHECK(bh_be_check_axpy(&be, &dev, &ax, 0, " (F32, F64)") ==
              BHOST_E_UNSUPPORTED);
        CHECK_ERROR("backend-fake: axpy: dtype 1 unsupported (F32, F64)");
        ax.struct_size = 8;
        CHECK(bh_be_check_axpy(&be, &dev, &ax, 4, "") == BHOST_E_UNSUPPORTED);
        CHECK_ERROR("backend-fake: axpy: dtype 1 unsupported");
        ax.struct_size = sizeof(ax);
        ax.n = 17;
        CHECK(bh_be_check_axpy(&be, &dev, &ax, 4, "") == BHOST_E_INVALID);
        CHECK_ERROR("backend-fake: axpy: y range [0, +68) exceeds buffer "
                    "size 64");
    }
    {
        bhost_reduce_args rd;

        memset(&rd, 0, sizeof(rd));
        rd.struct_size = sizeof(rd);
        rd.type = BHOST_DTYPE_F64;
        rd.op = BHOST_REDUCE_MIN;
        rd.n = 512;
        rd.x = &x;
        rd.result = &y;
        CHECK(bh_be_check_reduce(&be, &dev, &rd, 8, "") == BHOST_OK);
        rd.reserved = 1;
        CHECK(bh_be_check_reduce(&be, &dev, &rd, 8, " (F32, F64)") ==
              BHOST_E_UNSUPPORTED);
        CHECK_ERROR("backend-fake: reduce: dtype 2 unsupported (F32, F64)");
        rd.reserved = 0;
        rd.n = 0;
        CHECK(bh_be_check_reduce(&be, &dev, &rd, 8, "") == BHOST_E_INVALID);
        CHECK_ERROR("backend-fake: reduce: unknown op or min/max of nothing");
        rd.op = BHOST_REDUCE_SUM;
        CHECK(bh_be_check_reduce(&be, &dev, &rd, 8, "") == BHOST_OK);
        rd.n = 513;
        CHECK(bh_be_check_reduce(&be, &dev, &rd, 8, "") == BHOST_E_INVALID);
        CHECK_ERROR("backend-fake: reduce: x range [0, +4104) exceeds buffer "
                    "size 4096");
    }
    CHECK(bh_be_now_ns() > 0);
}

/* dlopen of an override or a list, dlsym, and the stop message. */
static void test_loader(void)
{
    static const char *const names[] = {"libbh-none.so.9", "libc.so.6"};
    char name[64], why[32];
    const char *err = NULL;
    size_t (*len)(const char *) = NULL;
    void *lib;

    setenv("BH_TEST_LIB", "/nonexistent/libx.so", 1);
    lib = bh_be_dlopen("BH_TEST_LIB", names, 2, name, sizeof(name), &err);
    CHECK(lib != NULL && strcmp(name, "libc.so.6") == 0);
    CHECK(lib != NULL && bh_be_sym(lib, "strlen", &len) && len("abc") == 3);
    CHECK(lib != NULL && !bh_be_sym(lib, "bh_no_such_symbol", &len) &&
          len == NULL);
    lib = bh_be_dlopen("BH_TEST_LIB", names, 1, NULL, 0, &err);
    CHECK(lib == NULL && strstr(err, "libbh-none.so.9") != NULL);
    unsetenv("BH_TEST_LIB");
    lib = bh_be_dlopen("BH_TEST_LIB", names, 0, name, sizeof(name), &err);
    CHECK(lib == NULL && strcmp(err, "not found") == 0);

    CHECK(bh_be_stop(why, sizeof(why), "no %s loader: %d", "fake", 3) ==
          BHOST_E_UNSUPPORTED);
    CHECK(strcmp(why, "no fake loader: 3") == 0);
}

int main(void)
{
    test_init_and_messages();
    test_handles();
    test_entry();
    test_kernels();
    test_gemm_operands();
    test_loader();
    if (failures != 0) {
        fprintf(stderr, "test_bh_backend: %d failure(s)\n", failures);
        return 1;
    }
    printf("test_bh_backend: ok\n");
    return 0;
}
