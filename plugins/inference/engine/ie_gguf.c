// SPDX-License-Identifier: MIT
/*
 * ie_gguf.c -- the GGUF (v2, v3) parser: magic "GGUF", version, tensor and
 * key-value counts, the key-values (the ones describing the model shape
 * are kept), the tensor infos (name, dims innermost first, ggml type,
 * offset), and the aligned data section. Every read is bounds-checked.
 */
#include "ie_file.h"
#include "ie.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNT (1u << 20)
#define MAX_NAME 256
#define MAX_DEPTH 3

typedef struct rd {
    const uint8_t *p;
    size_t len, off;
    char *err;
    size_t cap;
} rd;

/* Reads n little-endian bytes into *v; 0 with err set at the end. */
static int get(rd *r, size_t n, uint64_t *v, const char *what)
{
    uint64_t x = 0;

    if (r->len - r->off < n) {
        snprintf(r->err, r->cap, "gguf: truncated at byte %zu reading %s",
                 r->off, what);
        return 0;
    }
    for (size_t i = n; i-- > 0;)
        x = (x << 8) | r->p[r->off + i];
    r->off += n;
    *v = x;
    return 1;
}

/* A gguf_string: u64 length + bytes; *s points into the buffer. */
static int get_str(rd *r, const char **s, uint64_t *n, const char *what)
{
    if (!get(r, 8, n, what))
        return 0;
    if (*n > r->len - r->off) {
        snprintf(r->err, r->cap,
                 "gguf: %s length %llu runs past the end of the file", what,
                 (unsigned long long)*n);
        return 0;
    }
    *s = (const char *)r->p + r->off;
    r->off += (size_t)*n;
    return 1;
}

/* Bytes of a scalar value type; 0 for string/array/unknown. */
static size_t scalar_size(uint32_t type)
{
    static const size_t sz[13] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

    return type < 13 ? sz[type] : 0;
}

/* A scalar value as double (integers, floats, bool). */
static double scalar_value(uint32_t type, uint64_t raw)
{
    float f;
    double d;

    switch (type) {
    case 1: return (double)(int8_t)raw;
    case 3: return (double)(int16_t)raw;
    case 5: return (double)(int32_t)raw;
    case 11: return (double)(int64_t)raw;
    case 6: {
        uint32_t u = (uint32_t)raw;

        memcpy(&f, &u, 4);
        return f;
    }
    case 12:
        memcpy(&d, &raw, 8);
        return d;
    default: return (double)raw;
    }
}

/* Skips (or reads) one value of type; depth bounds nested arrays. */
static int value(rd *r, uint32_t type, int depth, double *num,
                 const char **str, uint64_t *slen)
{
    uint64_t v, n, et;

    if (type == 8)
        return get_str(r, str, slen, "string value");
    if (type == 9) {
        if (depth >= MAX_DEPTH) {
            snprintf(r->err, r->cap, "gguf: arrays nested deeper than %d",
                     MAX_DEPTH);
            return 0;
        }
        if (!get(r, 4, &et, "array type") || !get(r, 8, &n, "array length"))
            return 0;
        if (scalar_size((uint32_t)et) == 0 && et != 8 && et != 9) {
            snprintf(r->err, r->cap, "gguf: unknown array element type %llu",
                     (unsigned long long)et);
            return 0;
        }
        if (scalar_size((uint32_t)et) != 0) {
            uint64_t bytes;

            if (__builtin_mul_overflow(n, scalar_size((uint32_t)et), &bytes) ||
                bytes > r->len - r->off) {
                snprintf(r->err, r->cap,
                         "gguf: array of %llu elements runs past the end",
                         (unsigned long long)n);
                return 0;
            }
            r->off += (size_t)bytes;
            return 1;
        }
        if (n > (r->len - r->off) / 8) {
            snprintf(r->err, r->cap,
                     "gguf: array of %llu elements runs past the end",
                     (unsigned long long)n);
            return 0;
        }
        for (uint64_t i = 0; i < n; i++) {
            const char *s;
            uint64_t l;
            double d;

            if (!value(r, (uint32_t)et, depth + 1, &d, &s, &l))
                return 0;
        }
        return 1;
    }
    if (scalar_size(type) == 0) {
        snprintf(r->err, r->cap, "gguf: unknown value type %u", type);
        return 0;
    }
    if (!get(r, scalar_size(type), &v, "value"))
        return 0;
    *num = scalar_value(type, v);
    return 1;
}

/* True when key (n bytes) ends with suffix. */
static int ends(const char *key, uint64_t n, const char *suffix)
{
    size_t l = strlen(suffix);

    return n >= l && memcmp(key + n - l, suffix, l) == 0;
}

/* A metadata number as an integer; INT64_MAX (never a valid shape) when
 * it is NaN or out of range. */
static int64_t to_i64(double v)
{
    return v >= -9.0e18 && v <= 9.0e18 ? (int64_t)v : INT64_MAX;
}

/* Keeps the metadata the loader checks. */
static void keep(ie_file_meta *m, const char *key, uint64_t n, double num,
                 const char *str, uint64_t slen, uint64_t *align)
{
    if (n == 20 && memcmp(key, "general.architecture", 20) == 0 && str) {
        snprintf(m->arch, sizeof(m->arch), "%.*s",
                 (int)(slen < 31 ? slen : 31), str);
        return;
    }
    if (str != NULL)
        return;
    if (n == 17 && memcmp(key, "general.alignment", 17) == 0)
        *align = num >= 1 && num <= 65536 ? (uint64_t)num : 0;
    else if (ends(key, n, ".block_count"))
        m->block_count = to_i64(num);
    else if (ends(key, n, ".embedding_length"))
        m->embedding_length = to_i64(num);
    else if (ends(key, n, ".feed_forward_length"))
        m->feed_forward_length = to_i64(num);
    else if (ends(key, n, ".attention.head_count"))
        m->head_count = to_i64(num);
    else if (ends(key, n, ".attention.head_count_kv"))
        m->head_count_kv = to_i64(num);
    else if (ends(key, n, ".context_length"))
        m->context_length = to_i64(num);
    else if (ends(key, n, ".attention.layer_norm_epsilon") ||
             ends(key, n, ".attention.layer_norm_rms_epsilon"))
        m->norm_eps = num;
    else if (ends(key, n, ".rope.freq_base"))
        m->rope_base = num;
}

/* ggml type -> (IE_T_*, element size, name). */
static int ggml_type(uint64_t t, size_t *esize, const char **name)
{
    static const char *const names[] = {
        "f32",  "f16",  "q4_0", "q4_1", "q4_2", "q4_3", "q5_0", "q5_1",
        "q8_0", "q8_1", "q2_k", "q3_k", "q4_k", "q5_k", "q6_k", "q8_k",
    };

    *esize = 0;
    *name = t < sizeof(names) / sizeof(names[0]) ? names[t] : "quantized";
    if (t == 0) {
        *esize = 4;
        return IE_T_F32;
    }
    if (t == 1) {
        *esize = 2;
        return IE_T_F16;
    }
    if (t == 28) {
        *name = "f64";
        *esize = 8;
        return IE_T_F64;
    }
    if (t == 30) {
        *name = "bf16";
        *esize = 2;
        return IE_T_BF16;
    }
    return IE_T_OTHER;
}

/* One tensor info; data resolved later. */
static int tensor_info(rd *r, ie_tensor *t, char *name_store, uint64_t *off)
{
    const char *s;
    uint64_t n, nd, ty;
    size_t es;
    const char *tn;

    if (!get_str(r, &s, &n, "tensor name"))
        return 0;
    if (n == 0 || n > MAX_NAME || memchr(s, 0, (size_t)n) != NULL) {
        snprintf(r->err, r->cap,
                 "gguf: tensor name of %llu bytes (expected 1..%d, no NUL)",
                 (unsigned long long)n, MAX_NAME);
        return 0;
    }
    memcpy(name_store, s, (size_t)n);
    name_store[n] = '\0';
    t->name = name_store;
    if (!get(r, 4, &nd, "tensor dims"))
        return 0;
    if (nd < 1 || nd > IE_MAX_DIMS) {
        snprintf(r->err, r->cap, "gguf: tensor '%s' has %llu dims (1..%d)",
                 name_store, (unsigned long long)nd, IE_MAX_DIMS);
        return 0;
    }
    t->ndim = (int)nd;
    for (uint64_t i = 0; i < nd; i++) /* ne[0] is innermost: reverse */
        if (!get(r, 8, &t->shape[nd - 1 - i], "tensor dim"))
            return 0;
    if (!get(r, 4, &ty, "tensor type") || !get(r, 8, off, "tensor offset"))
        return 0;
    t->type = ggml_type(ty, &es, &tn);
    snprintf(t->type_name, sizeof(t->type_name), "%s", tn);
    return 1;
}

/* Sets data/nbytes of every tensor against the data section. */
static int place(rd *r, ie_tensor_dir *d, const uint64_t *offs,
                 uint64_t align)
{
    uint64_t base = (r->off + align - 1) / align * align;

    if (base > r->len) {
        snprintf(r->err, r->cap, "gguf: data section starts past the end");
        return 0;
    }
    for (int i = 0; i < d->n; i++) {
        ie_tensor *t = &d->t[i];
        uint64_t count = 1, bytes;
        size_t es = ie_type_size(t->type);

        for (int k = 0; k < t->ndim; k++)
            if (__builtin_mul_overflow(count, t->shape[k], &count))
                count = UINT64_MAX;
        if (offs[i] % align != 0) {
            snprintf(r->err, r->cap,
                     "gguf: tensor '%s' offset %llu is not a multiple of the "
                     "alignment %llu",
                     t->name, (unsigned long long)offs[i],
                     (unsigned long long)align);
            return 0;
        }
        if (es == 0)
            continue; /* not convertible: only its name and type are used */
        if (__builtin_mul_overflow(count, (uint64_t)es, &bytes) ||
            offs[i] > r->len - base || bytes > r->len - base - offs[i]) {
            snprintf(r->err, r->cap,
                     "gguf: tensor '%s' (%s, %llu elements at offset %llu) "
                     "runs past the end of the file",
                     t->name, t->type_name, (unsigned long long)count,
                     (unsigned long long)offs[i]);
            return 0;
        }
        t->data = r->p + base + offs[i];
        t->nbytes = bytes;
    }
    return 1;
}

int ie_gguf_parse(const uint8_t *buf, size_t len, ie_tensor_dir *out,
                  char *err, size_t cap)
{
    rd r = {buf, len, 0, err, cap};
    uint64_t magic = 0, ver = 0, nt = 0, nkv = 0, align = 32;
    uint64_t *offs = NULL;
    int rc = IE_EFILE;

    memset(out, 0, sizeof(*out));
    out->gguf = 1;
    out->meta.block_count = out->meta.embedding_length = -1;
    out->meta.feed_forward_length = out->meta.head_count = -1;
    out->meta.head_count_kv = out->meta.context_length = -1;
    if (!get(&r, 4, &magic, "magic") || magic != 0x46554747u) {
        snprintf(err, cap, "gguf: expected magic \"GGUF\"");
        return IE_EFILE;
    }
    if (!get(&r, 4, &ver, "version") || ver < 2 || ver > 3) {
        snprintf(err, cap, "gguf: version %llu (expected 2 or 3)",
                 (unsigned long long)ver);
        return IE_EFILE;
    }
    if (!get(&r, 8, &nt, "tensor count") || !get(&r, 8, &nkv, "kv count"))
        return IE_EFILE;
    if (nt > MAX_COUNT || nkv > MAX_COUNT) {
        snprintf(err, cap, "gguf: %llu tensors / %llu key-values (limit %u)",
                 (unsigned long long)nt, (unsigned long long)nkv, MAX_COUNT);
        return IE_EFILE;
    }
    for (uint64_t i = 0; i < nkv; i++) {
        const char *key, *str = NULL;
        uint64_t kn, ty, slen = 0;
        double num = 0;

        if (!get_str(&r, &key, &kn, "key") || !get(&r, 4, &ty, "value type") ||
            !value(&r, (uint32_t)ty, 0, &num, &str, &slen))
            return IE_EFILE;
        if (ty != 9)
            keep(&out->meta, key, kn, num, ty == 8 ? str : NULL, slen, &align);
        if (align == 0) {
            snprintf(err, cap, "gguf: general.alignment must be 1..65536");
            return IE_EFILE;
        }
    }
    if (nt > (len - r.off) / 24) { /* a tensor info takes >= 24 bytes */
        snprintf(err, cap, "gguf: %llu tensor infos cannot fit the file",
                 (unsigned long long)nt);
        return IE_EFILE;
    }
    out->t = calloc((size_t)(nt ? nt : 1), sizeof(ie_tensor));
    out->strings = malloc((size_t)(nt ? nt : 1) * (MAX_NAME + 1));
    offs = calloc((size_t)(nt ? nt : 1), sizeof(uint64_t));
    if (!out->t || !out->strings || !offs) {
        snprintf(err, cap, "gguf: out of memory for %llu tensors",
                 (unsigned long long)nt);
        rc = IE_ENOMEM;
        goto done;
    }
    for (uint64_t i = 0; i < nt; i++) {
        if (!tensor_info(&r, &out->t[i], out->strings + i * (MAX_NAME + 1),
                         &offs[i]))
            goto done;
        out->n++;
    }
    if (place(&r, out, offs, align))
        rc = IE_OK;
done:
    free(offs);
    if (rc != IE_OK)
        ie_tensor_dir_free(out);
    return rc;
}
