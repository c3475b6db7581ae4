// SPDX-License-Identifier: MIT
/* Comparability of two fingerprints: a hash over the fields that decide
 * whether timings from two machines can be compared, and a readable list of
 * those that differ.
 *
 * The hashed text is a canonical JSON object written here rather than by
 * cJSON's printer, so the hash does not move with cJSON versions: keys are
 * the dotted field names in byte order, nested object keys sorted too, no
 * whitespace, integers (|v| < 2^53) without exponent or fraction, other
 * numbers as %.17g, strings escaped minimally (", \ and control bytes). */
#define _GNU_SOURCE
#include "sysinfo.h"

#include "bh_mem.h"
#include "bh_sha256.h"
#include "bh_strbuf.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct field {
    const char *name;    /* dotted name, as used in the hash and the diff */
    const char *section; /* parent object key, NULL for a top-level key */
    const char *key;
} field;

/* The comparability fields, sorted by name (the canonical key order). */
static const field fields[] = {
    {"caches", NULL, "caches"},
    {"compiler", NULL, "compiler"},
    {"cpu.logical_cores", "cpu", "logical_cores"},
    {"cpu.model", "cpu", "model"},
    {"cpu.numa_nodes", "cpu", "numa_nodes"},
    {"cpu.physical_cores", "cpu", "physical_cores"},
    {"cpu.smt", "cpu", "smt"},
    {"cpu.sockets", "cpu", "sockets"},
    {"frequency.governor", "frequency", "governor"},
    {"memory.total_bytes", "memory", "total_bytes"},
    {"os.release", "os", "release"},
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* The value of f in fp, or NULL when fp or the value is missing. */
static const cJSON *lookup(const cJSON *fp, const field *f)
{
    const cJSON *parent = fp;

    if (!cJSON_IsObject(fp))
        return NULL;
    if (f->section)
        parent = cJSON_GetObjectItemCaseSensitive(fp, f->section);
    if (!cJSON_IsObject(parent))
        return NULL;
    return cJSON_GetObjectItemCaseSensitive(parent, f->key);
}

/* Appends s as a JSON string literal. */
static void put_string(bh_strbuf *b, const char *s)
{
    bh_strbuf_puts(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            bh_strbuf_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            bh_strbuf_printf(b, "\\u%04x", *p);
        else
            bh_strbuf_append(b, (const char *)p, 1);
    }
    bh_strbuf_puts(b, "\"");
}

/* Appends a JSON number: integers exactly, others with 17 digits. */
static void put_number(bh_strbuf *b, double d)
{
    if (!isfinite(d))
        bh_strbuf_puts(b, "null");
    else if (d == floor(d) && fabs(d) < 9007199254740992.0)
        bh_strbuf_printf(b, "%.0f", d == 0.0 ? 0.0 : d);
    else
        bh_strbuf_printf(b, "%.17g", d);
}

/* qsort order of object members by key bytes. */
static int member_cmp(const void *pa, const void *pb)
{
    const cJSON *a = *(const cJSON *const *)pa;
    const cJSON *b = *(const cJSON *const *)pb;

    return strcmp(a->string ? a->string : "", b->string ? b->string : "");
}

static void put_canonical(bh_strbuf *b, const cJSON *v);

/* Appends the members of object v with keys in byte order. */
static void put_object(bh_strbuf *b, const cJSON *v)
{
    int n = cJSON_GetArraySize(v);
    const cJSON **m = bh_xcalloc(n > 0 ? (size_t)n : 1, sizeof(*m));
    int i = 0;

    for (const cJSON *c = v->child; c && i < n; c = c->next)
        m[i++] = c;
    qsort(m, (size_t)i, sizeof(*m), member_cmp);
    bh_strbuf_puts(b, "{");
    for (int k = 0; k < i; k++) {
        if (k)
            bh_strbuf_puts(b, ",");
        put_string(b, m[k]->string ? m[k]->string : "");
        bh_strbuf_puts(b, ":");
        put_canonical(b, m[k]);
    }
    bh_strbuf_puts(b, "}");
    free(m);
}

/* Appends the canonical JSON text of v (null when v is NULL). */
static void put_canonical(bh_strbuf *b, const cJSON *v)
{
    if (!v || cJSON_IsNull(v) || cJSON_IsInvalid(v)) {
        bh_strbuf_puts(b, "null");
    } else if (cJSON_IsBool(v)) {
        bh_strbuf_puts(b, cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsNumber(v)) {
        put_number(b, v->valuedouble);
    } else if (cJSON_IsString(v)) {
        put_string(b, v->valuestring ? v->valuestring : "");
    } else if (cJSON_IsArray(v)) {
        bh_strbuf_puts(b, "[");
        for (const cJSON *c = v->child; c; c = c->next) {
            if (c != v->child)
                bh_strbuf_puts(b, ",");
            put_canonical(b, c);
        }
        bh_strbuf_puts(b, "]");
    } else if (cJSON_IsObject(v)) {
        put_object(b, v);
    } else {
        bh_strbuf_puts(b, "null"); /* raw values never appear in a fingerprint */
    }
}

/* Writes into hex the sha256 of the canonical comparability object of fp;
 * see sysinfo.h. */
void bh_sysinfo_hash(const cJSON *fp, char hex[65])
{
    bh_strbuf b = BH_STRBUF_INIT;

    bh_strbuf_puts(&b, "{");
    for (size_t i = 0; i < NFIELDS; i++) {
        if (i)
            bh_strbuf_puts(&b, ",");
        put_string(&b, fields[i].name);
        bh_strbuf_puts(&b, ":");
        put_canonical(&b, lookup(fp, &fields[i]));
    }
    bh_strbuf_puts(&b, "}");
    bh_sha256_hex(bh_strbuf_str(&b), b.len, hex);
    bh_strbuf_free(&b);
}

/* Appends a byte count as "48K", "1M", "32M" when it is a whole number of
 * binary units, else as plain bytes. */
static void put_size(bh_strbuf *b, double bytes)
{
    static const char units[] = "KMGT";
    int u = -1;

    while (u < 3 && bytes >= 1024.0 && fmod(bytes, 1024.0) == 0.0) {
        bytes /= 1024.0;
        u++;
    }
    if (u < 0)
        bh_strbuf_printf(b, "%.0fB", bytes);
    else
        bh_strbuf_printf(b, "%.0f%c", bytes, units[u]);
}

/* Appends caches as "L1d 48K/64B x2, L2 1M/64B x2"; returns false (having
 * appended nothing) when an entry lacks the expected fields. */
static bool put_cache_summary(bh_strbuf *b, const cJSON *caches)
{
    bh_strbuf tmp = BH_STRBUF_INIT;
    const cJSON *c;

    if (!cJSON_IsArray(caches))
        return false;
    cJSON_ArrayForEach(c, caches) {
        const cJSON *lv = cJSON_GetObjectItemCaseSensitive(c, "level");
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(c, "type");
        const cJSON *sz = cJSON_GetObjectItemCaseSensitive(c, "size_bytes");
        const cJSON *ln = cJSON_GetObjectItemCaseSensitive(c, "line_bytes");
        const cJSON *ct = cJSON_GetObjectItemCaseSensitive(c, "count");
        const char *t;

        if (!cJSON_IsNumber(lv) || !cJSON_IsString(ty) || !cJSON_IsNumber(sz) ||
            !cJSON_IsNumber(ln) || !cJSON_IsNumber(ct)) {
            bh_strbuf_free(&tmp);
            return false;
        }
        t = ty->valuestring;
        bh_strbuf_printf(&tmp, "%sL%.0f%s ", tmp.len ? ", " : "", lv->valuedouble,
                         strcmp(t, "data") == 0          ? "d"
                         : strcmp(t, "instruction") == 0 ? "i"
                                                         : "");
        put_size(&tmp, sz->valuedouble);
        bh_strbuf_printf(&tmp, "/%.0fB x%.0f", ln->valuedouble, ct->valuedouble);
    }
    bh_strbuf_puts(b, tmp.len ? bh_strbuf_str(&tmp) : "none");
    bh_strbuf_free(&tmp);
    return true;
}

/* Appends v for a human: strings bare, caches summarised, else canonical
 * JSON ("null" when missing). */
static void put_display(bh_strbuf *b, const field *f, const cJSON *v)
{
    if (cJSON_IsString(v) && v->valuestring)
        bh_strbuf_puts(b, v->valuestring);
    else if (!(f->section == NULL && strcmp(f->key, "caches") == 0 &&
               put_cache_summary(b, v)))
        put_canonical(b, v);
}

/* Returns "name: a != b; ..." for the differing comparability fields, or
 * NULL when none differ; see sysinfo.h. */
char *bh_sysinfo_diff(const cJSON *a, const cJSON *b)
{
    bh_strbuf out = BH_STRBUF_INIT;

    for (size_t i = 0; i < NFIELDS; i++) {
        const cJSON *va = lookup(a, &fields[i]);
        const cJSON *vb = lookup(b, &fields[i]);
        bh_strbuf ca = BH_STRBUF_INIT;
        bh_strbuf cb = BH_STRBUF_INIT;

        put_canonical(&ca, va);
        put_canonical(&cb, vb);
        if (strcmp(bh_strbuf_str(&ca), bh_strbuf_str(&cb)) != 0) {
            bh_strbuf_printf(&out, "%s%s: ", out.len ? "; " : "", fields[i].name);
            put_display(&out, &fields[i], va);
            bh_strbuf_puts(&out, " != ");
            put_display(&out, &fields[i], vb);
        }
        bh_strbuf_free(&ca);
        bh_strbuf_free(&cb);
    }
    if (out.len == 0) {
        bh_strbuf_free(&out);
        return NULL;
    }
    return bh_strbuf_detach(&out);
}
