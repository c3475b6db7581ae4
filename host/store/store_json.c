// SPDX-License-Identifier: MIT
/* Compact JSON text of document parts (see store_json.h). */
#include "store_json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void bh_store_json_number(bh_strbuf *b, double v)
{
    char buf[32];
    int n;

    if (!isfinite(v)) {
        bh_strbuf_append(b, "null", 4);
        return;
    }
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        /* digits of |v| backwards, then the sign */
        uint64_t u = (uint64_t)fabs(v);
        char *p = buf + sizeof(buf);

        do {
            *--p = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (v < 0)
            *--p = '-';
        bh_strbuf_append(b, p, (size_t)(buf + sizeof(buf) - p));
        return;
    }
    n = snprintf(buf, sizeof(buf), "%.17g", v);
    bh_strbuf_append(b, buf, (size_t)n);
}

/* Appends s as a JSON string literal. */
static void string(bh_strbuf *b, const char *s)
{
    const char *run = s;

    bh_strbuf_append(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];

        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        bh_strbuf_append(b, run, (size_t)(s - run));
        run = s + 1;
        switch (c) {
        case '"': bh_strbuf_append(b, "\\\"", 2); break;
        case '\\': bh_strbuf_append(b, "\\\\", 2); break;
        case '\n': bh_strbuf_append(b, "\\n", 2); break;
        case '\r': bh_strbuf_append(b, "\\r", 2); break;
        case '\t': bh_strbuf_append(b, "\\t", 2); break;
        default:
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            bh_strbuf_append(b, esc, 6);
        }
    }
    bh_strbuf_append(b, run, (size_t)(s - run));
    bh_strbuf_append(b, "\"", 1);
}

/* True when name is in the NULL-terminated list skip (NULL: none). */
static int skipped(const char *name, const char *const *skip)
{
    for (; skip && *skip; skip++)
        if (**skip == *name && strcmp(*skip, name) == 0)
            return 1;
    return 0;
}

/* Appends the members of an object or the elements of an array. */
static void children(bh_strbuf *b, const cJSON *item, int object, const char *const *skip)
{
    int first = 1;

    bh_strbuf_append(b, object ? "{" : "[", 1);
    for (const cJSON *c = item->child; c; c = c->next) {
        if (object && (!c->string || skipped(c->string, skip)))
            continue;
        if (!first)
            bh_strbuf_append(b, ",", 1);
        first = 0;
        if (object) {
            string(b, c->string);
            bh_strbuf_append(b, ":", 1);
        }
        bh_store_json_append(b, c);
    }
    bh_strbuf_append(b, object ? "}" : "]", 1);
}

void bh_store_json_append(bh_strbuf *b, const cJSON *item)
{
    if (!item || cJSON_IsNull(item) || cJSON_IsInvalid(item))
        bh_strbuf_append(b, "null", 4);
    else if (cJSON_IsFalse(item))
        bh_strbuf_append(b, "false", 5);
    else if (cJSON_IsTrue(item))
        bh_strbuf_append(b, "true", 4);
    else if (cJSON_IsNumber(item))
        bh_store_json_number(b, item->valuedouble);
    else if (cJSON_IsString(item))
        string(b, item->valuestring ? item->valuestring : "");
    else if (cJSON_IsRaw(item))
        bh_strbuf_puts(b, item->valuestring ? item->valuestring : "null");
    else
        children(b, item, cJSON_IsObject(item), NULL);
}

void bh_store_json_append_except(bh_strbuf *b, const cJSON *obj, const char *const *skip)
{
    if (!cJSON_IsObject(obj)) {
        bh_store_json_append(b, obj);
        return;
    }
    children(b, obj, 1, skip);
}
