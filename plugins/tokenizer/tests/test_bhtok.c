// SPDX-License-Identifier: MIT
/*
 * test_bhtok.c -- unit tests of libbhtok on small vocabularies written by
 * the tests themselves: pre-tokenizer semantics, BPE merges, WordPiece and
 * the BERT normalizer, SentencePiece unigram on a hand-built ModelProto,
 * batch ordering, and one-line errors for bad files. The real vocabularies
 * are covered by tools/tokenizer/exact_test.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tok_internal.h"

static char tmpdir[] = "/tmp/bhtok-test-XXXXXX";

/* Writes n bytes to a file in tmpdir and returns its path (static). */
static const char *put_file(const char *name, const void *data, size_t n)
{
    static char path[8][512];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
    return p;
}

static void b64(const uint8_t *s, size_t n, char *out)
{
    static const char t[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < n)
            v |= s[i + 2];
        out[o++] = t[(v >> 18) & 63];
        out[o++] = t[(v >> 12) & 63];
        out[o++] = i + 1 < n ? t[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? t[v & 63] : '=';
    }
    out[o] = '\0';
}

/* A rank file with all 256 bytes plus the given extra tokens. */
static const char *rank_file(const char *const *extra, size_t nextra)
{
    static char buf[65536];
    size_t len = 0;
    char enc[128];
    for (int b = 0; b < 256; b++) {
        uint8_t c = (uint8_t)b;
        b64(&c, 1, enc);
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s %d\n", enc, b);
    }
    for (size_t i = 0; i < nextra; i++) {
        b64((const uint8_t *)extra[i], strlen(extra[i]), enc);
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s %zu\n", enc, 256 + i);
    }
    return put_file("ranks.tiktoken", buf, len);
}

static bh_tok *load1(const char *fmt, const char *path, char *err)
{
    const char *p[1] = {path};
    return bh_tok_load(fmt, p, 1, err, 512);
}

static void expect_ids(bh_tok *t, const char *text, unsigned flags,
                       const int32_t *want, size_t n)
{
    bh_tok_ws *ws = bh_tok_ws_new(t);
    bh_tok_ids ids = {0};
    assert_int_equal(bh_tok_encode(t, ws, text, strlen(text), flags, &ids), 0);
    if (ids.n != n) {
        fprintf(stderr, "'%s': got %zu ids:", text, ids.n);
        for (size_t i = 0; i < ids.n; i++)
            fprintf(stderr, " %d", ids.v[i]);
        fprintf(stderr, "\n");
    }
    assert_int_equal(ids.n, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ids.v[i], want[i]);
    bh_tok_ids_free(&ids);
    bh_tok_ws_free(ws);
}

/* Splits text with pre-tokenizer kind and joins the pieces with '|'. */
static void expect_split(int kind, const char *text, const char *want)
{
    char got[1024];
    size_t n = strlen(text), i = 0, o = 0;
    bh_uni_init();
    while (i < n) {
        size_t e = bh_pretok_next(kind, (const uint8_t *)text, n, i);
        assert_true(e > i && e <= n);
        if (o)
            got[o++] = '|';
        memcpy(got + o, text + i, e - i);
        o += e - i;
        i = e;
    }
    got[o] = '\0';
    assert_string_equal(got, want);
}

static void test_pretok_gpt2(void **state)
{
    (void)state;
    expect_split(PRETOK_GPT2, "IT'S It's", "IT|'|S| It|'s");
    expect_split(PRETOK_GPT2, "x   y", "x|  | y");
    expect_split(PRETOK_GPT2, "a  ", "a|  ");
    expect_split(PRETOK_GPT2, " 12345 ab!?", " 12345| ab|!?");
    expect_split(PRETOK_GPT2, "cafe\xcc\x81", "cafe|\xcc\x81");
}

static void test_pretok_cl100k(void **state)
{
    (void)state;
    expect_split(PRETOK_CL100K, "IT'S it'Re", "IT|'S| it|'Re");
    expect_split(PRETOK_CL100K, "1234567", "123|456|7");
    expect_split(PRETOK_CL100K, "(parens", "(parens");
    expect_split(PRETOK_CL100K, "a \n\n b", "a| \n\n| b");
    expect_split(PRETOK_CL100K, "x ...\r\ny", "x| ...\r\n|y");
    expect_split(PRETOK_CL100K, "a'\xc5\xbf", "a|'\xc5\xbf"); /* 'ſ folds */
}

static void test_pretok_o200k(void **state)
{
    (void)state;
    expect_split(PRETOK_O200K, "CamelCase HTTPServer", "Camel|Case| HTTPServer");
    expect_split(PRETOK_O200K, "don't a/b//\n", "don't| a|/b|//\n");
    expect_split(PRETOK_O200K, "e\xcc\x81t\xc3\xa9", "e\xcc\x81t\xc3\xa9");
}

static void test_bpe_ranks(void **state)
{
    (void)state;
    static const char *const extra[] = {"ab", "abc", " a", " ab", "bc"};
    char err[512];
    bh_tok *t = load1("cl100k", rank_file(extra, 5), err);
    assert_non_null(t);
    /* "abc" is whole; " abd" -> " ab" + "d"; " bcb" -> " " + "bc" + "b" */
    expect_ids(t, "abc abd bcb", 0,
               (const int32_t[]){257, 259, 'd', ' ', 260, 'b'}, 6);
    /* specials only when asked */
    expect_ids(t, "<|endoftext|>", BH_TOK_SPECIAL, (const int32_t[]){100257}, 1);
    expect_ids(t, "a<|endofprompt|>b<|fim_middle|><|endofprompt|><|endoftext|>c",
               BH_TOK_SPECIAL,
               (const int32_t[]){'a', 100276, 'b', 100259, 100276, 100257, 'c'}, 7);
    /* 1 MB of a special that is not the first: each special is searched
     * once per text, not from every hit (that took minutes) */
    static const char eop[] = "<|endofprompt|>";
    size_t reps = (1 << 20) / (sizeof(eop) - 1);
    char *many = malloc(reps * (sizeof(eop) - 1));
    assert_non_null(many);
    for (size_t i = 0; i < reps; i++)
        memcpy(many + i * (sizeof(eop) - 1), eop, sizeof(eop) - 1);
    bh_tok_ws *mws = bh_tok_ws_new(t);
    bh_tok_ids mids = {0};
    assert_int_equal(bh_tok_encode(t, mws, many, reps * (sizeof(eop) - 1), BH_TOK_SPECIAL,
                                   &mids), 0);
    assert_int_equal(mids.n, reps);
    assert_int_equal(mids.v[0], 100276);
    assert_int_equal(mids.v[reps - 1], 100276);
    bh_tok_ids_free(&mids);
    bh_tok_ws_free(mws);
    free(many);
    bh_tok_bytes out = {0};
    int32_t ids[] = {257, 259, 100257};
    assert_int_equal(bh_tok_decode(t, ids, 3, &out), 0);
    assert_string_equal(out.p, "abc ab<|endoftext|>");
    int32_t bad = 99999;
    assert_int_equal(bh_tok_decode(t, &bad, 1, &out), -1);
    bh_tok_bytes_free(&out);
    /* a 1 MB pre-token goes through the heap path and matches the scan */
    size_t n = 1 << 20;
    char *big = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        big[i] = "abc"[i % 3];
    big[n] = '\0';
    bh_tok_ws *ws = bh_tok_ws_new(t);
    bh_tok_ids ids2 = {0};
    assert_int_equal(bh_tok_encode(t, ws, big, n, 0, &ids2), 0);
    assert_int_equal(ids2.n, n / 3 + 1);
    assert_int_equal(ids2.v[0], 257);
    bh_tok_ids_free(&ids2);
    bh_tok_ws_free(ws);
    free(big);
    bh_tok_free(t);
}

static void test_batch_order(void **state)
{
    (void)state;
    static const char *const extra[] = {"ab", "abc", " a"};
    char err[512];
    bh_tok *t = load1("r50k", rank_file(extra, 3), err);
    assert_non_null(t);
    enum { N = 2000 };
    static char text[N][32];
    const char *texts[N];
    size_t lens[N];
    bh_tok_ids outs[N], seq = {0};
    memset(outs, 0, sizeof(outs));
    for (int i = 0; i < N; i++) {
        snprintf(text[i], sizeof(text[i]), "abc %d ab%*s", i, i % 7, "");
        texts[i] = text[i];
        lens[i] = strlen(text[i]);
    }
    assert_int_equal(bh_tok_encode_batch(t, texts, lens, N, 0, 4, outs), 0);
    bh_tok_ws *ws = bh_tok_ws_new(t);
    for (int i = 0; i < N; i++) {
        seq.n = 0;
        assert_int_equal(bh_tok_encode(t, ws, texts[i], lens[i], 0, &seq), 0);
        assert_int_equal(seq.n, outs[i].n);
        assert_memory_equal(seq.v, outs[i].v, seq.n * sizeof(int32_t));
        bh_tok_ids_free(&outs[i]);
    }
    bh_tok_ids_free(&seq);
    bh_tok_ws_free(ws);
    bh_tok_free(t);
}

static const char vocab_txt[] =
    "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\nworld\n##s\ncafe\n!\n,\nun\n"
    "##aff\n##able\n\xe4\xb8\xad\na\n##a\ndo not .really?!\n##abcdefghijklmnopq\n";

static void test_wordpiece(void **state)
{
    (void)state;
    char err[512];
    bh_tok *t = load1("bert", put_file("vocab.txt", vocab_txt, sizeof(vocab_txt) - 1), err);
    assert_non_null(t);
    /* lowercase, accent strip, punctuation split, ## continuation */
    expect_ids(t, "Hello, WORLDs! Caf\xc3\xa9 unaffable", 0,
               (const int32_t[]){5, 10, 6, 7, 9, 8, 11, 12, 13}, 9);
    /* unknown piece: the whole word is [UNK]; CJK split; controls dropped */
    expect_ids(t, "helloz x\xe4\xb8\xad\x01y", 0, (const int32_t[]){1, 1, 14, 1}, 4);
    /* 100 characters make pieces, 101 make [UNK] */
    char w[128];
    memset(w, 'a', 101);
    w[101] = '\0';
    bh_tok_ws *ws = bh_tok_ws_new(t);
    bh_tok_ids ids = {0};
    assert_int_equal(bh_tok_encode(t, ws, w, 100, 0, &ids), 0);
    assert_int_equal(ids.n, 100);
    ids.n = 0;
    assert_int_equal(bh_tok_encode(t, ws, w, 101, 0, &ids), 0);
    assert_int_equal(ids.n, 1);
    assert_int_equal(ids.v[0], 1);
    bh_tok_ids_free(&ids);
    bh_tok_ws_free(ws);
    expect_ids(t, "[CLS] hello [SEP]", BH_TOK_SPECIAL, (const int32_t[]){2, 5, 3}, 3);
    expect_ids(t, "[CLS]", 0, (const int32_t[]){1, 1, 1}, 3); /* [ UNK ] */
    bh_tok_bytes out = {0};
    assert_int_equal(bh_tok_decode(t, (const int32_t[]){5, 10, 6, 7, 9}, 5, &out), 0);
    assert_string_equal(out.p, "hello, worlds!");
    /* tokens of 16 bytes or more, or with a space, take the general
     * cleanup: every rule anywhere in the token, in order */
    out.n = 0;
    assert_int_equal(bh_tok_decode(t, (const int32_t[]){5, 17, 18}, 3, &out), 0);
    assert_string_equal(out.p, "hello don't.really?!abcdefghijklmnopq");
    bh_tok_bytes_free(&out);
    bh_tok_free(t);
}

/* ---- a tiny SentencePiece ModelProto written by hand ---- */

static size_t pb_varint(uint8_t *o, uint64_t v)
{
    size_t n = 0;
    do {
        o[n++] = (uint8_t)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

static size_t pb_piece(uint8_t *o, const char *text, float score, int type)
{
    uint8_t inner[128];
    size_t n = 0, tl = strlen(text);
    inner[n++] = 0x0A;
    n += pb_varint(inner + n, tl);
    memcpy(inner + n, text, tl);
    n += tl;
    inner[n++] = 0x15;
    memcpy(inner + n, &score, 4);
    n += 4;
    inner[n++] = 0x18;
    n += pb_varint(inner + n, (uint64_t)type);
    size_t m = 0;
    o[m++] = 0x0A;
    m += pb_varint(o + m, n);
    memcpy(o + m, inner, n);
    return m + n;
}

static void test_spm_unigram(void **state)
{
    (void)state;
    uint8_t buf[1024];
    size_t n = 0;
    n += pb_piece(buf + n, "<unk>", 0, 2);
    n += pb_piece(buf + n, "\xe2\x96\x81", -3, 1);
    n += pb_piece(buf + n, "\xe2\x96\x81" "ab", -2, 1);
    n += pb_piece(buf + n, "a", -4, 1);
    n += pb_piece(buf + n, "b", -4, 1);
    n += pb_piece(buf + n, "\xe2\x96\x81" "a", -2.5F, 1);
    char err[512];
    bh_tok *t = load1("spm", put_file("tiny.model", buf, n), err);
    assert_non_null(t);
    /* "ab" -> ▁ab; "  a  b " -> ▁a ▁ b; "xx" -> one merged unk */
    expect_ids(t, "ab", 0, (const int32_t[]){2}, 1);
    expect_ids(t, "  a  b ", 0, (const int32_t[]){5, 1, 4}, 3);
    expect_ids(t, "xxb", 0, (const int32_t[]){1, 0, 4}, 3);
    bh_tok_bytes out = {0};
    assert_int_equal(bh_tok_decode(t, (const int32_t[]){2, 5}, 2, &out), 0);
    assert_string_equal(out.p, "ab a");
    bh_tok_bytes_free(&out);
    bh_tok_free(t);
    /* truncated model: a clear error naming the file */
    t = load1("spm", put_file("trunc.model", buf, n - 3), err);
    assert_null(t);
    assert_non_null(strstr(err, "trunc.model"));
    /* duplicate piece */
    n += pb_piece(buf + n, "a", -1, 1);
    t = load1("spm", put_file("dup.model", buf, n), err);
    assert_null(t);
    assert_non_null(strstr(err, "already defined"));
}

static void expect_error(const char *fmt, const char *name, const char *data,
                         const char *needle)
{
    char err[512] = "";
    bh_tok *t = load1(fmt, put_file(name, data, strlen(data)), err);
    if (t != NULL || strstr(err, needle) == NULL || strstr(err, name) == NULL)
        fprintf(stderr, "%s: got '%s', want '%s'\n", name, err, needle);
    assert_null(t);
    assert_non_null(strstr(err, name));
    assert_non_null(strstr(err, needle));
    assert_null(strchr(err, '\n'));
}

static void test_bad_files(void **state)
{
    (void)state;
    char err[512];
    assert_null(load1("cl100k", "/nonexistent/x.tiktoken", err));
    assert_non_null(strstr(err, "/nonexistent/x.tiktoken"));
    expect_error("cl100k", "b64.tiktoken", "QQ== 0\n!!!! 1\n", ":2: invalid base64");
    expect_error("cl100k", "rank.tiktoken", "QQ== 99999999999\n", ":1: invalid rank");
    expect_error("cl100k", "dup.tiktoken", "QQ== 0\nQQ== 1\n", ":2: duplicate token");
    expect_error("cl100k", "drank.tiktoken", "QQ== 0\nQg== 0\n", ":2: duplicate rank");
    expect_error("cl100k", "drank2.tiktoken", "QQ== 3999999\nQg== 5\nQw== 3999999\n",
                 ":3: duplicate rank");
    expect_error("cl100k", "few.tiktoken", "QQ== 0\n", "has no token");
    expect_error("cl100k", "empty.tiktoken", "", "no tokens");
    expect_error("bert", "dup.txt", "[UNK]\na\nb\na\n", ":4: duplicate token");
    expect_error("bert", "utf8.txt", "[UNK]\n\xff\xfe\n", ":2: invalid UTF-8");
    expect_error("bert", "nounk.txt", "a\nb\n", "no [UNK]");
    expect_error("hf", "bad.json", "{\"model\": ", "not valid JSON");
    expect_error("hf", "uni.json", "{\"model\":{\"type\":\"Unigram\"}}", "unsupported");
    expect_error("spm", "junk.model", "\x0a\xff\xff\xff\xff\x0f", "malformed");
    expect_error("spm", "text.model", "hello world", "SentencePiece");
    const char *p2[2] = {put_file("enc.json", "{\"a\": 0}", 8),
                         put_file("merges.bpe", "#version: 0.2\na b\n", 18)};
    assert_null(bh_tok_load("gpt2", p2, 2, err, sizeof(err)));
    assert_non_null(strstr(err, "merges.bpe:2:"));
    assert_null(bh_tok_load("nope", p2, 1, err, sizeof(err)));
    assert_non_null(strstr(err, "unknown tokenizer format"));
}

static int setup_dir(void **state)
{
    (void)state;
    return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "%s", tmpdir);
    /* the files are few and known: remove them one by one */
    static const char *const names[] = {
        "ranks.tiktoken", "vocab.txt", "tiny.model", "trunc.model",
        "dup.model", "b64.tiktoken", "rank.tiktoken", "dup.tiktoken",
        "drank.tiktoken", "few.tiktoken", "empty.tiktoken", "dup.txt",
        "utf8.txt", "nounk.txt", "bad.json", "uni.json", "junk.model",
        "text.model", "enc.json", "merges.bpe"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char p[600];
        snprintf(p, sizeof(p), "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    return rmdir(cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pretok_gpt2),
        cmocka_unit_test(test_pretok_cl100k),
        cmocka_unit_test(test_pretok_o200k),
        cmocka_unit_test(test_bpe_ranks),
        cmocka_unit_test(test_batch_order),
        cmocka_unit_test(test_wordpiece),
        cmocka_unit_test(test_spm_unigram),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
