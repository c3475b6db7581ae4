// SPDX-License-Identifier: MIT
/*
 * test_files.c -- the safetensors and GGUF loaders on small files these
 * tests write: every architecture in F32/F16/BF16 round-trips to the same
 * weights and the loaded model matches its reference; a layer subset
 * loads; malformed or mismatched files fail with one line naming the file
 * and what was expected, never a crash.
 */
#include "ie_file.h"
#include "tt_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char tmpdir[512];

/* path = tmpdir/name */
static const char *tmp(const char *name)
{
    static char path[4][768];
    static int k;

    k = (k + 1) % 4;
    snprintf(path[k], sizeof(path[k]), "%s/%s", tmpdir, name);
    return path[k];
}

/* Loads path into a model of preset; successive calls alternate between
 * mapping the file and read()ing it, so every round trip below runs
 * through both ways in. */
static ie_model *load(ie_ctx *ctx, const char *preset, int layers,
                      const char *path)
{
    static int io_read;
    ie_config c;
    ie_source src = {path, 0, io_read ^= 1};

    assert_int_equal(ie_preset(preset, &c), IE_OK);
    if (layers > 0)
        c.n_layers = layers;
    return ie_model_create(ctx, &c, IE_W_F32, &src);
}

/* max |a - b| / max |a| over one weight's rows. */
static double weight_err(const ie_weight *a, const ie_weight *b)
{
    float *ra = malloc((size_t)a->cols * 4), *rb = malloc((size_t)a->cols * 4);
    double diff = 0, scale = 1e-30;

    assert_int_equal(a->rows, b->rows);
    assert_int_equal(a->cols, b->cols);
    for (int r = 0; r < a->rows; r++) {
        ie_weight_row_f32(a, r, ra);
        ie_weight_row_f32(b, r, rb);
        for (int i = 0; i < a->cols; i++) {
            double d = ra[i] > rb[i] ? ra[i] - rb[i] : rb[i] - ra[i];

            diff = d > diff ? d : diff;
            scale = ra[i] > scale ? ra[i] : -ra[i] > scale ? -ra[i] : scale;
        }
    }
    free(ra);
    free(rb);
    return diff / scale;
}

static double vec_err(const float *a, const float *b, int n)
{
    double diff = 0, scale = 1e-30;

    if (a == NULL && b == NULL)
        return 0;
    for (int i = 0; i < n; i++) {
        double d = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];

        diff = d > diff ? d : diff;
        scale = a[i] > scale ? a[i] : -a[i] > scale ? -a[i] : scale;
    }
    return diff / scale;
}

/* Largest relative difference between the weights of two models. */
static double model_err(const ie_model *a, const ie_model *b)
{
    const ie_config *c = &a->cfg;
    double e = weight_err(&a->tok, &b->tok);
    int d = c->d_model;

#define MAX(x) e = (x) > e ? (x) : e
    if (c->arch == IE_ARCH_LLAMA)
        MAX(weight_err(&a->head, &b->head));
    if (a->pos)
        MAX(vec_err(a->pos, b->pos, c->max_pos * d));
    if (a->type)
        MAX(vec_err(a->type, b->type, c->type_vocab * d));
    MAX(vec_err(a->emb_g, b->emb_g, d));
    MAX(vec_err(a->emb_b, b->emb_b, d));
    MAX(vec_err(a->fin_g, b->fin_g, d));
    MAX(vec_err(a->fin_b, b->fin_b, d));
    for (int l = 0; l < b->cfg.n_layers; l++) {
        const ie_layer *x = &a->layers[l], *y = &b->layers[l];

        MAX(weight_err(&x->qkv, &y->qkv));
        MAX(weight_err(&x->o, &y->o));
        MAX(weight_err(&x->up, &y->up));
        MAX(weight_err(&x->down, &y->down));
        MAX(vec_err(x->n1_g, y->n1_g, d));
        MAX(vec_err(x->n2_g, y->n2_g, d));
        MAX(vec_err(x->n1_b, y->n1_b, d));
        MAX(vec_err(x->n2_b, y->n2_b, d));
        MAX(vec_err(x->b_qkv, y->b_qkv, x->qkv.rows));
        MAX(vec_err(x->b_o, y->b_o, d));
        MAX(vec_err(x->b_up, y->b_up, c->d_ff));
        MAX(vec_err(x->b_down, y->b_down, d));
    }
#undef MAX
    return e;
}

/* The loaded model's engine output against its own reference. */
static void engine_vs_ref(ie_model *m)
{
    ie_state *s = ie_state_create(m, 1, 16, 16);
    int slot = 0, T = 10, n = m->cfg.arch == IE_ARCH_BERT ? m->cfg.d_model
                                                          : m->cfg.vocab;
    int32_t tok[10];
    double *ref = malloc((size_t)T * (size_t)n * sizeof(double));
    const float *out;

    assert_non_null(s);
    tt_tokens(tok, T, m->cfg.vocab, 4);
    if (m->cfg.arch == IE_ARCH_BERT) {
        assert_int_equal(ie_encode(s, &slot, 1, tok, T), IE_OK);
        out = ie_hidden(s, T - 1);
    } else {
        assert_int_equal(ie_forward(s, &slot, 1, tok, T), IE_OK);
        out = ie_logits(s, 0);
    }
    assert_int_equal(ie_ref_forward(m, tok, T, ref), IE_OK);
    assert_true(tt_rel_err(out, ref + (size_t)(T - 1) * n, n) < 1e-4);
    free(ref);
    ie_state_destroy(s);
}

static void test_roundtrip(void **st)
{
    static const char *const presets[] = {"tiny-gpt2", "tiny-llama", "tiny-bert"};
    static const char *const types[] = {"F32", "F16", "BF16"};
    static const double tol[] = {0.0, 1.0 / 1024, 1.0 / 128};
    ie_ctx ctx;

    (void)st;
    tt_ctx(&ctx, 2);
    for (int p = 0; p < 3; p++)
        for (int g = 0; g < 2; g++)
            for (int t = 0; t < 3; t++) {
                ie_model *m0 = tt_model(&ctx, presets[p], IE_W_F32, 0, 21);
                char name[64];
                const char *path;
                ie_model *m1;
                double e;

                snprintf(name, sizeof(name), "rt-%s-%s.%s", presets[p],
                         types[t], g ? "gguf" : "safetensors");
                path = tmp(name);
                assert_int_equal(ie_model_write(m0, path, g, types[t]), 0);
                m1 = load(&ctx, presets[p], 0, path);
                if (m1 == NULL)
                    fail_msg("load %s: %s", path, ctx.err);
                e = model_err(m0, m1);
                if (e > tol[t])
                    fail_msg("%s: weights differ by %g (tolerance %g)", path,
                             e, tol[t]);
                if (g && m0->cfg.arch == IE_ARCH_LLAMA)
                    assert_int_equal(m1->cfg.rope_style, IE_ROPE_INTERLEAVED);
                engine_vs_ref(m1);
                ie_model_destroy(m1);
                /* the first layer only: a subset of a bigger file */
                m1 = load(&ctx, presets[p], 1, path);
                assert_non_null(m1);
                assert_true(model_err(m0, m1) <= tol[t]);
                ie_model_destroy(m1);
                ie_model_destroy(m0);
                remove(path);
            }
    ie_ctx_fini(&ctx);
}

/* Loading path as preset must fail with a message containing each of the
 * given fragments. */
static void expect_fail(ie_ctx *ctx, const char *preset, int layers,
                        const char *path, const char *frag1,
                        const char *frag2)
{
    ie_model *m = load(ctx, preset, layers, path);

    if (m != NULL)
        fail_msg("%s loaded as %s but should not", path, preset);
    if (strstr(ctx->err, path) == NULL || strstr(ctx->err, frag1) == NULL ||
        (frag2 && strstr(ctx->err, frag2) == NULL))
        fail_msg("unexpected message: %s", ctx->err);
    assert_null(strchr(ctx->err, '\n'));
}

/* Writes len bytes of data to path. */
static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Reads a whole file (caller frees). */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *p;

    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    p = malloc(*len);
    assert_int_equal(fread(p, 1, *len, f), *len);
    fclose(f);
    return p;
}

static void test_errors(void **st)
{
    ie_ctx ctx;
    ie_model *m0;
    const char *st_path = tmp("err.safetensors"), *gg_path = tmp("err.gguf");
    const char *bad = tmp("bad.safetensors");
    char *img;
    size_t len;
    ie_config c;
    ie_source src;
    char *p;

    (void)st;
    tt_ctx(&ctx, 1);
    m0 = tt_model(&ctx, "tiny-gpt2", IE_W_F32, 0, 5);
    assert_int_equal(ie_model_write(m0, st_path, 0, "F32"), 0);
    assert_int_equal(ie_model_write(m0, gg_path, 1, "F16"), 0);
    expect_fail(&ctx, "tiny-gpt2", 0, tmp("nonexistent.safetensors"),
                "cannot open", NULL);
    write_bytes(bad, "\x02\0\0", 3);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "too short", NULL);
    write_bytes(bad, "\xff\xff\xff\xff\0\0\0\0{}", 10);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "header length", NULL);
    write_bytes(bad, "\x04\0\0\0\0\0\0\0[1,2", 12);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "not a JSON object", NULL);
    /* more layers than the file has */
    expect_fail(&ctx, "tiny-gpt2", 3, st_path, "missing tensor", "h.2.");
    expect_fail(&ctx, "tiny-gpt2", 3, gg_path, "block_count is 2", "at least 3");
    /* a shape that does not match the config */
    assert_int_equal(ie_preset("tiny-gpt2", &c), IE_OK);
    c.d_ff = 128;
    src.path = st_path;
    src.seed = 0;
    src.io_read = 0;
    assert_null(ie_model_create(&ctx, &c, IE_W_F32, &src));
    assert_non_null(strstr(ctx.err, "has shape [64, 256], expected [64, 128]"));
    assert_null(ie_model_create(&ctx, &c, IE_W_F32, (src.path = gg_path, &src)));
    assert_non_null(strstr(ctx.err, "feed_forward_length is 256"));
    /* the wrong architecture */
    expect_fail(&ctx, "tiny-llama", 0, gg_path, "general.architecture is 'gpt2'",
                NULL);
    expect_fail(&ctx, "tiny-llama", 0, st_path, "missing tensor",
                "model.embed_tokens.weight");
    /* an integer dtype where a float is needed (same element size) */
    img = read_all(st_path, &len);
    p = strstr(img + 8, "\"F32\"");
    assert_non_null(p);
    memcpy(p, "\"I32\"", 5);
    write_bytes(bad, img, len);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "has type I32", "expected f32");
    /* data offsets past the data */
    memcpy(p, "\"F64\"", 5);
    write_bytes(bad, img, len);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "shape x dtype size", NULL);
    free(img);
    /* a truncated GGUF, a bad magic, a bad version */
    img = read_all(gg_path, &len);
    write_bytes(bad, img, len / 2);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "gguf:", "past the end");
    write_bytes(bad, img, 400);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "gguf:", NULL);
    img[4] = 9;
    write_bytes(bad, img, len);
    expect_fail(&ctx, "tiny-gpt2", 0, bad, "version 9", "expected 2 or 3");
    free(img);
    remove(bad);
    remove(st_path);
    remove(gg_path);
    ie_model_destroy(m0);
    ie_ctx_fini(&ctx);
}

/* ie_read_file gives the bytes ie_map_file maps, in a heap copy, and the
 * same refusals; ie_model_weight_diff is 0 for a model and itself, large
 * for another seed, -1 for another depth. */
static void test_read_and_diff(void **st)
{
    ie_ctx ctx;
    ie_model *a, *b, *deeper;
    const char *path = tmp("rd.safetensors");
    ie_mapped mapped, read;
    char err[256];

    (void)st;
    tt_ctx(&ctx, 1);
    a = tt_model(&ctx, "tiny-gpt2", IE_W_F32, 0, 5);
    b = tt_model(&ctx, "tiny-gpt2", IE_W_F32, 0, 6);
    deeper = tt_model(&ctx, "tiny-gpt2", IE_W_F32, 3, 5);
    assert_int_equal(ie_model_write(a, path, 0, "BF16"), 0);
    assert_int_equal(ie_map_file(path, &mapped, err, sizeof(err)), IE_OK);
    assert_int_equal(ie_read_file(path, &read, err, sizeof(err)), IE_OK);
    assert_int_equal(read.len, mapped.len);
    assert_int_equal(read.heap, 1);
    assert_int_equal(mapped.heap, 0);
    assert_memory_equal(read.data, mapped.data, read.len);
    ie_unmap_file(&read);
    ie_unmap_file(&mapped);
    assert_null(read.data);
    assert_int_equal(ie_read_file(tmpdir, &read, err, sizeof(err)), IE_EFILE);
    assert_non_null(strstr(err, "not a regular file"));
    assert_int_equal(ie_read_file(tmp("none"), &read, err, sizeof(err)), IE_EFILE);
    assert_non_null(strstr(err, "cannot open"));
    assert_true(ie_model_weight_diff(a, a, 16) == 0.0);
    assert_true(ie_model_weight_diff(b, a, 16) > 0.1);
    assert_true(ie_model_weight_diff(deeper, a, 16) == -1.0);
    remove(path);
    ie_model_destroy(a);
    ie_model_destroy(b);
    ie_model_destroy(deeper);
    ie_ctx_fini(&ctx);
}

/* The parsers straight on buffers: tiny valid and invalid images. */
static void test_parsers(void **st)
{
    static const char img[] =
        "\x3c\0\0\0\0\0\0\0{\"a\":{\"dtype\":\"F32\",\"shape\":[2],"
        "\"data_offsets\":[0,8]}}      "
        "\0\0\x80\x3f\0\0\0\x40";
    ie_tensor_dir d;
    char err[256];

    (void)st;
    assert_int_equal(ie_st_parse((const uint8_t *)img, sizeof(img) - 1, &d,
                                 err, sizeof(err)),
                     IE_OK);
    assert_int_equal(d.n, 1);
    assert_string_equal(d.t[0].name, "a");
    assert_true(ie_tensor_get(&d.t[0], 1) == 2.0f);
    ie_tensor_dir_free(&d);
    assert_int_equal(ie_gguf_parse((const uint8_t *)"GGUF\3\0\0\0", 8, &d, err,
                                   sizeof(err)),
                     IE_EFILE);
    assert_non_null(strstr(err, "truncated"));
    assert_int_equal(ie_st_parse((const uint8_t *)img, 20, &d, err, sizeof(err)),
                     IE_EFILE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parsers),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_read_and_diff),
    };
    const char *dir = getenv("IE_TEST_TMP");

    snprintf(tmpdir, sizeof(tmpdir), "%s", dir && *dir ? dir : "/tmp");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
