// SPDX-License-Identifier: MIT
/*
 * ie_st.c -- the safetensors parser: little-endian u64 header length N,
 * N bytes of JSON ({"name": {"dtype", "shape", "data_offsets"}, ...,
 * optional "__metadata__"}), then the data region the offsets point into.
 * The JSON is parsed with cJSON; every field is checked.
 */
#include "ie_file.h"
#include "ie.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HEADER (100u << 20)
#define MAX_TENSORS (1 << 20)

/* Type code and element size of a safetensors dtype name; 0 when unknown. */
static int st_dtype(const char *s, size_t *esize)
{
    static const struct {
        const char *name;
        int type;
        size_t size;
    } tab[] = {
        {"F32", IE_T_F32, 4},    {"F16", IE_T_F16, 2},   {"BF16", IE_T_BF16, 2},
        {"F64", IE_T_F64, 8},    {"I64", IE_T_OTHER, 8}, {"I32", IE_T_OTHER, 4},
        {"I16", IE_T_OTHER, 2},  {"I8", IE_T_OTHER, 1},  {"U8", IE_T_OTHER, 1},
        {"U16", IE_T_OTHER, 2},  {"U32", IE_T_OTHER, 4}, {"U64", IE_T_OTHER, 8},
        {"BOOL", IE_T_OTHER, 1}, {"F8_E4M3", IE_T_OTHER, 1},
        {"F8_E5M2", IE_T_OTHER, 1},
    };

    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (strcmp(s, tab[i].name) == 0) {
            *esize = tab[i].size;
            return tab[i].type;
        }
    return 0;
}

/* A non-negative integral JSON number <= max into *out. */
static int json_u64(const cJSON *v, double max, uint64_t *out)
{
    double d;

    if (!cJSON_IsNumber(v))
        return 0;
    d = v->valuedouble;
    if (!(d >= 0.0) || d > max || d != (double)(uint64_t)d)
        return 0;
    *out = (uint64_t)d;
    return 1;
}

/* Fills one tensor from its header entry; 0 with err set on failure. */
static int one_tensor(const cJSON *e, const uint8_t *data, uint64_t data_len,
                      ie_tensor *t, char *err, size_t cap)
{
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype");
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(e, "shape");
    const cJSON *of = cJSON_GetObjectItemCaseSensitive(e, "data_offsets");
    uint64_t begin, end, count = 1;
    size_t esize = 0;
    const cJSON *it;

    if (!cJSON_IsObject(e) || !cJSON_IsString(dt) || !cJSON_IsArray(sh) ||
        !cJSON_IsArray(of) || cJSON_GetArraySize(of) != 2) {
        snprintf(err, cap,
                 "tensor '%.64s': expected an object with dtype, shape and "
                 "two data_offsets",
                 e->string);
        return 0;
    }
    t->type = st_dtype(dt->valuestring, &esize);
    if (t->type == 0) {
        snprintf(err, cap, "tensor '%.64s': unknown dtype '%.16s'", e->string,
                 dt->valuestring);
        return 0;
    }
    snprintf(t->type_name, sizeof(t->type_name), "%s", dt->valuestring);
    if (cJSON_GetArraySize(sh) > IE_MAX_DIMS) {
        snprintf(err, cap, "tensor '%.64s': more than %d dimensions",
                 e->string, IE_MAX_DIMS);
        return 0;
    }
    t->ndim = 0;
    cJSON_ArrayForEach(it, sh) {
        uint64_t dim;

        if (!json_u64(it, 9007199254740992.0, &dim) ||
            __builtin_mul_overflow(count, dim, &count)) {
            snprintf(err, cap,
                     "tensor '%.64s': shape must hold non-negative integers",
                     e->string);
            return 0;
        }
        t->shape[t->ndim++] = dim;
    }
    if (!json_u64(cJSON_GetArrayItem(of, 0), 9007199254740992.0, &begin) ||
        !json_u64(cJSON_GetArrayItem(of, 1), 9007199254740992.0, &end) ||
        begin > end || end > data_len) {
        snprintf(err, cap,
                 "tensor '%.64s': data_offsets must satisfy 0 <= begin <= "
                 "end <= %llu (the data size)",
                 e->string, (unsigned long long)data_len);
        return 0;
    }
    if (__builtin_mul_overflow(count, (uint64_t)esize, &count) ||
        count != end - begin) {
        snprintf(err, cap,
                 "tensor '%.64s': shape x dtype size is not the %llu bytes "
                 "of its data_offsets",
                 e->string, (unsigned long long)(end - begin));
        return 0;
    }
    t->nbytes = end - begin;
    t->data = t->type == IE_T_OTHER ? NULL : data + begin;
    return 1;
}

int ie_st_parse(const uint8_t *buf, size_t len, ie_tensor_dir *out,
                char *err, size_t cap)
{
    uint64_t hlen = 0;
    cJSON *root = NULL;
    const cJSON *e;
    size_t names = 0, off = 0;
    int n = 0, rc = IE_EFILE;

    memset(out, 0, sizeof(*out));
    if (len < 8) {
        snprintf(err, cap, "safetensors: expected an 8-byte header length, "
                           "file has %zu bytes",
                 len);
        return IE_EFILE;
    }
    for (int i = 7; i >= 0; i--)
        hlen = (hlen << 8) | buf[i];
    if (hlen < 2 || hlen > MAX_HEADER || hlen > len - 8) {
        snprintf(err, cap,
                 "safetensors: header length %llu does not fit the file "
                 "(%zu bytes; limit %u)",
                 (unsigned long long)hlen, len, MAX_HEADER);
        return IE_EFILE;
    }
    root = cJSON_ParseWithLength((const char *)buf + 8, (size_t)hlen);
    if (!cJSON_IsObject(root)) {
        snprintf(err, cap, "safetensors: header is not a JSON object");
        goto done;
    }
    cJSON_ArrayForEach(e, root) {
        if (e->string == NULL) {
            snprintf(err, cap, "safetensors: header entry without a name");
            goto done;
        }
        if (strcmp(e->string, "__metadata__") == 0)
            continue;
        n++;
        names += strlen(e->string) + 1;
    }
    if (n > MAX_TENSORS) {
        snprintf(err, cap, "safetensors: more than %d tensors", MAX_TENSORS);
        goto done;
    }
    out->t = calloc((size_t)(n ? n : 1), sizeof(ie_tensor));
    out->strings = malloc(names ? names : 1);
    if (out->t == NULL || out->strings == NULL) {
        snprintf(err, cap, "safetensors: out of memory for %d tensors", n);
        rc = IE_ENOMEM;
        goto done;
    }
    cJSON_ArrayForEach(e, root) {
        ie_tensor *t;
        size_t l;

        if (strcmp(e->string, "__metadata__") == 0)
            continue;
        t = &out->t[out->n];
        if (!one_tensor(e, buf + 8 + hlen, len - 8 - hlen, t, err, cap))
            goto done;
        l = strlen(e->string) + 1;
        memcpy(out->strings + off, e->string, l);
        t->name = out->strings + off;
        off += l;
        out->n++;
    }
    rc = IE_OK;
done:
    cJSON_Delete(root);
    if (rc != IE_OK)
        ie_tensor_dir_free(out);
    return rc;
}
