// SPDX-License-Identifier: MIT
/* Unit tests for host/common: SHA-256 known answers, the seeded PRNG,
 * string buffers, error messages and the file-system helpers every result
 * goes through. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bh_clock.h"
#include "bh_error.h"
#include "bh_fs.h"
#include "bh_mem.h"
#include "bh_rng.h"
#include "bh_sha256.h"
#include "bh_status.h"
#include "bh_strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------- */

/* A fresh temporary directory (free() the name). */
static char *make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = bh_xasprintf("%s/bh_common_XXXXXX",
                             base && *base ? base : "/tmp");

    assert_non_null(mkdtemp(dir));
    return dir;
}

/* Removes dir and everything below it (test directories only). */
static void rm_rf(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d))) {
        char *p;
        struct stat st;

        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        p = bh_xasprintf("%s/%s", dir, de->d_name);
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            rm_rf(p);
        else
            unlink(p);
        free(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Number of directory entries (besides . and ..) whose name contains
 * needle. */
static int count_entries(const char *dir, const char *needle)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    assert_non_null(d);
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 &&
            strstr(de->d_name, needle))
            n++;
    closedir(d);
    return n;
}

static void write_plain(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

/* ---- SHA-256 ---------------------------------------------------------- */

static void test_sha256_empty(void **state)
{
    char hex[65];

    (void)state;
    bh_sha256_hex("", 0, hex);
    assert_string_equal(
        hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_sha256_abc(void **state)
{
    char hex[65];

    (void)state;
    bh_sha256_hex("abc", 3, hex);
    assert_string_equal(
        hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* FIPS 180-2 two-block vector (56 bytes: the length no longer fits in the
 * first block). */
static void test_sha256_two_blocks(void **state)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char hex[65];

    (void)state;
    bh_sha256_hex(m, strlen(m), hex);
    assert_string_equal(
        hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* One million 'a', fed in uneven pieces through update(). */
static void test_sha256_million_a(void **state)
{
    bh_sha256_ctx c;
    uint8_t d[32];
    char hex[65];
    char *buf = bh_xmalloc(1000000);
    size_t done = 0;
    size_t piece = 1;

    (void)state;
    memset(buf, 'a', 1000000);
    bh_sha256_hex(buf, 1000000, hex);
    assert_string_equal(
        hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    bh_sha256_init(&c);
    while (done < 1000000) {
        size_t n = piece < 1000000 - done ? piece : 1000000 - done;

        bh_sha256_update(&c, buf + done, n);
        done += n;
        piece = piece * 3 + 1; /* 1, 4, 13, 40, ... crosses every boundary */
    }
    bh_sha256_final(&c, d);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    assert_string_equal(
        hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(buf);
}

static void test_sha256_file(void **state)
{
    char *dir = make_tmpdir();
    char *path = bh_xasprintf("%s/abc.txt", dir);
    char *missing = bh_xasprintf("%s/missing.txt", dir);
    char hex[65];
    bh_error e = {""};

    (void)state;
    write_plain(path, "abc");
    assert_int_equal(bh_sha256_file(path, hex, &e), 0);
    assert_string_equal(
        hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_int_equal(bh_sha256_file(missing, hex, &e), -1);
    assert_non_null(strstr(e.msg, missing));
    assert_non_null(strstr(e.msg, "cannot open"));
    free(path);
    free(missing);
    rm_rf(dir);
    free(dir);
}

/* ---- PRNG ------------------------------------------------------------- */

/* Known answers of xoshiro256** seeded through splitmix64 (computed with an
 * independent implementation of the reference algorithms). */
static void test_rng_known_answers(void **state)
{
    static const uint64_t seed0[4] = {
        UINT64_C(0x99ec5f36cb75f2b4), UINT64_C(0xbf6e1f784956452a),
        UINT64_C(0x1a5f849d4933e6e0), UINT64_C(0x6aa594f1262d2d2c)};
    static const uint64_t seed42[4] = {
        UINT64_C(0x15780b2e0c2ec716), UINT64_C(0x6104d9866d113a7e),
        UINT64_C(0xae17533239e499a1), UINT64_C(0xecb8ad4703b360a1)};
    bh_rng r;

    (void)state;
    bh_rng_seed(&r, 0);
    for (int i = 0; i < 4; i++)
        assert_true(bh_rng_next(&r) == seed0[i]);
    bh_rng_seed(&r, 42);
    for (int i = 0; i < 4; i++)
        assert_true(bh_rng_next(&r) == seed42[i]);
}

static void test_rng_determinism(void **state)
{
    bh_rng a, b, c;
    int differ = 0;

    (void)state;
    bh_rng_seed(&a, 12345);
    bh_rng_seed(&b, 12345);
    bh_rng_seed(&c, 12346);
    for (int i = 0; i < 1000; i++) {
        uint64_t x = bh_rng_next(&a);

        assert_true(x == bh_rng_next(&b));
        if (x != bh_rng_next(&c))
            differ++;
    }
    assert_true(differ > 990);
}

static void test_rng_below_range(void **state)
{
    static const uint64_t ns[] = {1, 2, 3, 7, 10, 1000,
                                  (UINT64_C(1) << 63) + 1, UINT64_MAX};
    bh_rng r;
    int seen[7] = {0};

    (void)state;
    bh_rng_seed(&r, 7);
    for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
        for (int i = 0; i < 2000; i++)
            assert_true(bh_rng_below(&r, ns[k]) < ns[k]);
    for (int i = 0; i < 7000; i++)
        seen[bh_rng_below(&r, 7)]++;
    for (int v = 0; v < 7; v++)
        assert_true(seen[v] > 700); /* each value about 1000 times */
    for (int i = 0; i < 1000; i++) {
        double u = bh_rng_uniform(&r);
        assert_true(u >= 0.0 && u < 1.0);
    }
    bh_rng_seed(&r, 1);
    assert_true(bh_rng_below(&r, 1) == 0);
}

static void test_rng_shuffle(void **state)
{
    uint32_t a[50], b[50];
    int moved = 0;
    bh_rng r1, r2;

    (void)state;
    for (uint32_t i = 0; i < 50; i++)
        a[i] = b[i] = i;
    bh_rng_seed(&r1, 99);
    bh_rng_seed(&r2, 99);
    bh_rng_shuffle(&r1, a, 50, sizeof(a[0]));
    bh_rng_shuffle(&r2, b, 50, sizeof(b[0]));
    assert_memory_equal(a, b, sizeof(a));
    /* a permutation: every value exactly once */
    for (uint32_t v = 0; v < 50; v++) {
        int count = 0;
        for (int i = 0; i < 50; i++)
            count += a[i] == v;
        assert_int_equal(count, 1);
    }
    for (int i = 0; i < 50; i++)
        moved += a[i] != (uint32_t)i;
    assert_true(moved > 25);
}

/* The contract says "n elements of elem bytes each" with no size limit:
 * large elements must be permuted exactly like small ones with the same
 * seed. */
static void test_rng_shuffle_large_elements(void **state)
{
    struct big {
        uint32_t id;
        char pad[296];
    } *big = bh_xcalloc(10, sizeof(*big));
    uint32_t idx[10], got[10];
    bh_rng r1, r2;

    (void)state;
    for (uint32_t i = 0; i < 10; i++) {
        big[i].id = i;
        idx[i] = i;
    }
    bh_rng_seed(&r1, 5);
    bh_rng_seed(&r2, 5);
    bh_rng_shuffle(&r1, idx, 10, sizeof(idx[0]));
    bh_rng_shuffle(&r2, big, 10, sizeof(*big));
    for (int i = 0; i < 10; i++)
        got[i] = big[i].id;
    free(big);
    /* Regression: bh_rng_shuffle once returned without shuffling when
     * elem > 256 bytes (its bounce buffer size); the order stays 0..9. */
    for (int i = 0; i < 10; i++)
        assert_int_equal(got[i], idx[i]);
}

/* ---- strbuf ----------------------------------------------------------- */

static void test_strbuf(void **state)
{
    bh_strbuf b = BH_STRBUF_INIT;
    char *s;

    (void)state;
    assert_string_equal(bh_strbuf_str(&b), "");
    bh_strbuf_printf(&b, "%s", "");
    assert_string_equal(bh_strbuf_str(&b), "");
    assert_int_equal(b.len, 0);
    bh_strbuf_puts(&b, "abc");
    bh_strbuf_append(&b, "defXYZ", 3);
    bh_strbuf_printf(&b, "-%d-%s", 42, "x");
    assert_string_equal(bh_strbuf_str(&b), "abcdef-42-x");
    assert_int_equal(b.len, strlen("abcdef-42-x"));
    for (int i = 0; i < 1000; i++)
        bh_strbuf_printf(&b, "%04d", i);
    assert_int_equal(b.len, 11 + 4000);
    assert_int_equal(strlen(bh_strbuf_str(&b)), b.len);
    assert_memory_equal(bh_strbuf_str(&b) + 11, "000000010002", 12);
    assert_string_equal(bh_strbuf_str(&b) + b.len - 4, "0999");
    s = bh_strbuf_detach(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    assert_int_equal(strlen(s), 4011);
    free(s);

    /* binary data with an embedded NUL keeps its length */
    bh_strbuf_append(&b, "a\0b", 3);
    assert_int_equal(b.len, 3);
    assert_memory_equal(b.data, "a\0b", 4);
    bh_strbuf_free(&b);
    assert_null(b.data);

    s = bh_strbuf_detach(&b); /* empty buffer detaches as "" */
    assert_string_equal(s, "");
    free(s);
}

/* ---- errors ----------------------------------------------------------- */

static void test_error_set_and_prefix(void **state)
{
    bh_error e = {""};
    char big[2000];

    (void)state;
    assert_int_equal(bh_error_set(NULL, "x"), -1);
    assert_int_equal(bh_error_prefix(NULL, "x"), -1);
    assert_int_equal(bh_error_set(&e, "inner %d", 7), -1);
    assert_string_equal(e.msg, "inner 7");
    assert_int_equal(bh_error_prefix(&e, "outer %s", "a.yaml"), -1);
    assert_string_equal(e.msg, "outer a.yaml: inner 7");
    assert_int_equal(bh_error_prefix(&e, "top"), -1);
    assert_string_equal(e.msg, "top: outer a.yaml: inner 7");

    /* messages stay on one line */
    bh_error_set(&e, "two\nlines\r\n");
    assert_null(strchr(e.msg, '\n'));
    assert_null(strchr(e.msg, '\r'));
    assert_string_equal(e.msg, "two lines  ");
    bh_error_prefix(&e, "p\nq");
    assert_string_equal(e.msg, "p q: two lines  ");

    /* truncation keeps the message NUL-terminated inside the buffer */
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    bh_error_set(&e, "%s", big);
    assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
    bh_error_prefix(&e, "prefix");
    assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
    assert_memory_equal(e.msg, "prefix: xxx", 11);
    bh_error_set(&e, "short");
    bh_error_prefix(&e, "%s", big); /* an oversize prefix is cut */
    assert_true(strlen(e.msg) < sizeof(e.msg));
    assert_non_null(strstr(e.msg, ": short"));
}

/* ---- file system ------------------------------------------------------ */

static void test_write_file_atomic(void **state)
{
    char *dir = make_tmpdir();
    char *path = bh_xasprintf("%s/out.json", dir);
    char *missing = bh_xasprintf("%s/no/such/dir/out.json", dir);
    char *data = NULL;
    size_t len = 0;
    bh_error e = {""};
    struct stat st;

    (void)state;
    assert_int_equal(bh_write_file_atomic(path, "first", 5, &e), 0);
    assert_int_equal(bh_read_file(path, 100, &data, &len, &e), 0);
    assert_int_equal(len, 5);
    assert_string_equal(data, "first");
    free(data);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    /* replaces an existing file */
    assert_int_equal(bh_write_file_atomic(path, "second!", 7, &e), 0);
    assert_int_equal(bh_read_file(path, 100, &data, &len, &e), 0);
    assert_string_equal(data, "second!");
    free(data);
    /* no temporary file is left behind */
    assert_int_equal(count_entries(dir, ".tmp."), 0);
    assert_int_equal(count_entries(dir, ""), 1);

    /* a missing directory is an error with the path in the message */
    assert_int_equal(bh_write_file_atomic(missing, "x", 1, &e), -1);
    assert_non_null(strstr(e.msg, missing));

    /* a symbolic link stays a link; its target gets the new content */
    {
        char *link = bh_xasprintf("%s/link.json", dir);

        assert_int_equal(symlink("out.json", link), 0);
        assert_int_equal(bh_write_file_atomic(link, "third", 5, &e), 0);
        assert_int_equal(lstat(link, &st), 0);
        assert_true(S_ISLNK(st.st_mode));
        assert_int_equal(bh_read_file(path, 100, &data, &len, &e), 0);
        assert_string_equal(data, "third");
        free(data);
        free(link);
    }
    /* a FIFO (like /dev/null, not a regular file) is written into, never
     * replaced by a rename */
    {
        char *fifo = bh_xasprintf("%s/pipe", dir);
        char buf[16] = "";
        int rd;

        assert_int_equal(mkfifo(fifo, 0600), 0);
        rd = open(fifo, O_RDONLY | O_NONBLOCK);
        assert_true(rd >= 0);
        assert_int_equal(bh_write_file_atomic(fifo, "piped", 5, &e), 0);
        assert_int_equal(read(rd, buf, sizeof(buf) - 1), 5);
        assert_string_equal(buf, "piped");
        close(rd);
        assert_int_equal(lstat(fifo, &st), 0);
        assert_true(S_ISFIFO(st.st_mode));
        assert_int_equal(count_entries(dir, ".tmp."), 0);
        free(fifo);
    }
    /* a directory is refused */
    assert_int_equal(bh_write_file_atomic(dir, "x", 1, &e), -1);
    assert_non_null(strstr(e.msg, "is a directory"));
    free(path);
    free(missing);
    rm_rf(dir);
    free(dir);
}

static void test_create_file_exclusive(void **state)
{
    char *dir = make_tmpdir();
    char *path = bh_xasprintf("%s/once.json", dir);
    char *data = NULL;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_create_file_exclusive(path, "one", 3, &e), 0);
    errno = 0;
    e.msg[0] = '\0';
    assert_int_equal(bh_create_file_exclusive(path, "two", 3, &e), -1);
    assert_int_equal(errno, EEXIST);
    assert_non_null(strstr(e.msg, path));
    assert_non_null(strstr(e.msg, strerror(EEXIST)));
    /* the first content is untouched */
    assert_int_equal(bh_read_file(path, 100, &data, NULL, &e), 0);
    assert_string_equal(data, "one");
    free(data);
    assert_int_equal(count_entries(dir, ".tmp."), 0);
    assert_int_equal(count_entries(dir, ""), 1);
    free(path);
    rm_rf(dir);
    free(dir);
}

static void test_mkdir_p(void **state)
{
    char *dir = make_tmpdir();
    char *deep = bh_xasprintf("%s/a/b/c/d", dir);
    char *slash = bh_xasprintf("%s/x/y/", dir);
    char *file = bh_xasprintf("%s/plain", dir);
    char *under_file = bh_xasprintf("%s/plain/sub", dir);
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_mkdir_p(deep, &e), 0);
    assert_true(bh_is_directory(deep));
    assert_int_equal(bh_mkdir_p(deep, &e), 0); /* existing is fine */
    assert_int_equal(bh_mkdir_p(slash, &e), 0);
    assert_true(bh_is_directory(slash));
    write_plain(file, "x");
    assert_true(bh_is_regular_file(file));
    assert_false(bh_is_directory(file));
    assert_int_equal(bh_mkdir_p(file, &e), -1);
    assert_non_null(strstr(e.msg, "not a directory"));
    assert_int_equal(bh_mkdir_p(under_file, &e), -1);
    assert_non_null(strstr(e.msg, "plain"));
    free(deep);
    free(slash);
    free(file);
    free(under_file);
    rm_rf(dir);
    free(dir);
}

static void test_read_file_limits(void **state)
{
    char *dir = make_tmpdir();
    char *path = bh_xasprintf("%s/ten.txt", dir);
    char *missing = bh_xasprintf("%s/missing.txt", dir);
    char *data = NULL;
    size_t len = 99;
    bh_error e = {""};

    (void)state;
    write_plain(path, "0123456789");
    assert_int_equal(bh_read_file(path, 10, &data, &len, &e), 0);
    assert_int_equal(len, 10);
    assert_int_equal(data[10], '\0');
    assert_string_equal(data, "0123456789");
    free(data);
    data = NULL;
    assert_int_equal(bh_read_file(path, 9, &data, &len, &e), -1);
    assert_null(data);
    assert_non_null(strstr(e.msg, path));
    assert_non_null(strstr(e.msg, "10 bytes"));
    assert_non_null(strstr(e.msg, "limit is 9"));
    assert_int_equal(bh_read_file(missing, 100, &data, &len, &e), -1);
    assert_non_null(strstr(e.msg, "cannot open"));
    assert_int_equal(bh_read_file(dir, 100, &data, &len, &e), -1);
    assert_non_null(strstr(e.msg, "not a regular file"));
    /* an empty file reads as "" */
    write_plain(path, "");
    assert_int_equal(bh_read_file(path, 0, &data, &len, &e), 0);
    assert_int_equal(len, 0);
    assert_string_equal(data, "");
    free(data);
    free(path);
    free(missing);
    rm_rf(dir);
    free(dir);
}

/* A FIFO with no writer is refused at once, never waited on: by
 * bh_open_regular, bh_read_file and bh_sha256_file alike. */
static void test_open_regular_fifo(void **state)
{
    char *dir = make_tmpdir();
    char *fifo = bh_xasprintf("%s/fifo", dir);
    char *file = bh_xasprintf("%s/file", dir);
    char *data = NULL, want[1100], hex[65];
    bh_error e = {""};
    int fd;

    (void)state;
    assert_int_equal(mkfifo(fifo, 0600), 0);
    snprintf(want, sizeof(want), "%s: not a regular file", fifo);
    assert_int_equal(bh_open_regular(fifo, &e), -1);
    assert_string_equal(e.msg, want);
    assert_int_equal(bh_read_file(fifo, 100, &data, NULL, &e), -1);
    assert_string_equal(e.msg, want);
    assert_int_equal(bh_sha256_file(fifo, hex, &e), -1);
    assert_string_equal(e.msg, want);
    assert_int_equal(bh_open_regular(dir, &e), -1);
    assert_non_null(strstr(e.msg, "not a regular file"));
    /* a regular file's descriptor is blocking again */
    write_plain(file, "x");
    fd = bh_open_regular(file, &e);
    assert_true(fd >= 0);
    assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    close(fd);
    assert_true(bh_path_exists(fifo));
    assert_false(bh_path_exists(want));
    free(fifo);
    free(file);
    rm_rf(dir);
    free(dir);
}

/* ---- small helpers ---------------------------------------------------- */

static void test_status_names(void **state)
{
    (void)state;
    for (int s = 0; s < BH_ST_COUNT; s++)
        assert_int_equal(bh_status_parse(bh_status_name((bh_status)s)), s);
    assert_string_equal(bh_status_name(BH_ST_OK), "ok");
    assert_string_equal(bh_status_name(BH_ST_CRASHED), "crashed");
    assert_string_equal(bh_status_name(BH_ST_TIMEOUT), "timeout");
    assert_string_equal(bh_status_name((bh_status)99), "unknown");
    assert_int_equal(bh_status_parse("bogus"), -1);
    assert_false(bh_status_is_failure(BH_ST_OK));
    assert_false(bh_status_is_failure(BH_ST_SKIPPED));
    assert_false(bh_status_is_failure(BH_ST_UNSUPPORTED));
    assert_true(bh_status_is_failure(BH_ST_FAILED));
    assert_true(bh_status_is_failure(BH_ST_INVALID));
    assert_true(bh_status_is_failure(BH_ST_CRASHED));
    assert_true(bh_status_is_failure(BH_ST_TIMEOUT));
    assert_true(bh_status_is_failure(BH_ST_OOM));
    /* every failure outranks every non-failure */
    for (int a = 0; a < BH_ST_COUNT; a++)
        for (int b = 0; b < BH_ST_COUNT; b++)
            if (bh_status_is_failure((bh_status)a) &&
                !bh_status_is_failure((bh_status)b))
                assert_true(bh_status_rank((bh_status)a) >
                            bh_status_rank((bh_status)b));
    assert_true(bh_status_rank(BH_ST_SKIPPED) > bh_status_rank(BH_ST_OK));
}

static void test_mem_and_clock(void **state)
{
    char *s = bh_xasprintf("%s-%d", "ab", 12);
    char *t = bh_xstrndup("abcdef", 3);
    int *arr = NULL;
    size_t n = 0, cap = 0;
    char iso[32], compact[32];
    uint64_t t0, t1;

    (void)state;
    assert_string_equal(s, "ab-12");
    assert_string_equal(t, "abc");
    free(s);
    free(t);
    for (int i = 0; i < 100; i++)
        BH_PUSH(arr, n, cap, i * 2);
    assert_int_equal(n, 100);
    assert_true(cap >= 100);
    assert_int_equal(arr[99], 198);
    free(arr);

    bh_utc_iso8601(iso);
    bh_utc_compact(compact);
    assert_int_equal(strlen(iso), 20);
    assert_int_equal(iso[10], 'T');
    assert_int_equal(iso[19], 'Z');
    assert_int_equal(strlen(compact), 16);
    assert_int_equal(compact[8], 'T');
    assert_int_equal(compact[15], 'Z');
    for (int i = 0; i < 15; i++)
        if (i != 8)
            assert_true(compact[i] >= '0' && compact[i] <= '9');
    t0 = bh_now_ns();
    t1 = bh_now_ns();
    assert_true(t1 >= t0); /* monotonic; no timing assertion */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_empty),
        cmocka_unit_test(test_sha256_abc),
        cmocka_unit_test(test_sha256_two_blocks),
        cmocka_unit_test(test_sha256_million_a),
        cmocka_unit_test(test_sha256_file),
        cmocka_unit_test(test_rng_known_answers),
        cmocka_unit_test(test_rng_determinism),
        cmocka_unit_test(test_rng_below_range),
        cmocka_unit_test(test_rng_shuffle),
        cmocka_unit_test(test_rng_shuffle_large_elements),
        cmocka_unit_test(test_strbuf),
        cmocka_unit_test(test_error_set_and_prefix),
        cmocka_unit_test(test_write_file_atomic),
        cmocka_unit_test(test_create_file_exclusive),
        cmocka_unit_test(test_mkdir_p),
        cmocka_unit_test(test_read_file_limits),
        cmocka_unit_test(test_open_regular_fifo),
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_mem_and_clock),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
