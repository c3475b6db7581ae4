// SPDX-License-Identifier: MIT
/* The JSON writer (see bh_json_write.h). */
#include "bh_json_write.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void make_c_locale(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* See bh_json_write.h. */
const char *bh_json_format_double(double v, char buf[BH_JSON_NUMBER_MAX])
{
    locale_t old = (locale_t)0;

    if (!isfinite(v)) {
        memcpy(buf, "null", sizeof("null"));
        return buf;
    }
    /* bhost never calls setlocale, but a plugin in the worker may; a
     * thread-local C locale keeps '.' in snprintf and strtod. Should the
     * locale object be missing (no memory), the thread's own is used. */
    pthread_once(&c_locale_once, make_c_locale);
    if (c_locale != (locale_t)0)
        old = uselocale(c_locale);
    /* 15 digits first, as cJSON does, so that every number cJSON already
     * wrote exactly keeps its text; 17 digits always read back exactly. */
    for (int prec = 15; prec <= 17; prec++) {
        double back;

        snprintf(buf, BH_JSON_NUMBER_MAX, "%.*g", prec, v);
        back = strtod(buf, NULL);
        if (memcmp(&back, &v, sizeof(v)) == 0)
            break;
    }
    if (c_locale != (locale_t)0)
        uselocale(old);
    return buf;
}

/* Appends s as a JSON string, escaped as cJSON's print_string_ptr escapes
 * it; NULL is written as "". */
static void put_string(bh_strbuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    const unsigned char *run = p;
    /* The bytes with a one-letter escape, and their letters. */
    static const char plain[] = "\"\\\b\f\n\r\t";
    static const char named[] = "\"\\bfnrt";

    bh_strbuf_append(b, "\"", 1);
    for (; *p; p++) {
        char esc[8];
        const char *hit;

        if (*p > 31 && *p != '"' && *p != '\\')
            continue;
        bh_strbuf_append(b, (const char *)run, (size_t)(p - run));
        run = p + 1;
        hit = memchr(plain, *p, sizeof(plain) - 1);
        if (hit)
            snprintf(esc, sizeof(esc), "\\%c", named[hit - plain]);
        else
            snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)*p);
        bh_strbuf_puts(b, esc);
    }
    bh_strbuf_append(b, (const char *)run, (size_t)(p - run));
    bh_strbuf_append(b, "\"", 1);
}

/* Appends depth tabs. */
static void put_indent(bh_strbuf *b, size_t depth)
{
    for (size_t i = 0; i < depth; i++)
        bh_strbuf_append(b, "\t", 1);
}

static int put_value(bh_strbuf *b, const cJSON *it, bool fmt, size_t depth);

/* Appends an array: elements separated by "," (", " formatted), on one
 * line as cJSON writes arrays; depth counts it for the objects inside. */
static int put_array(bh_strbuf *b, const cJSON *arr, bool fmt, size_t depth)
{
    bh_strbuf_append(b, "[", 1);
    for (const cJSON *c = arr->child; c; c = c->next) {
        if (put_value(b, c, fmt, depth + 1) != 0)
            return -1;
        if (c->next)
            bh_strbuf_append(b, ", ", fmt ? 2 : 1);
    }
    bh_strbuf_append(b, "]", 1);
    return 0;
}

/* Appends an object: formatted, "{", a line per member indented by
 * depth + 1 tabs with a tab after the ':', and "}" indented by depth
 * ("{\n}" when empty), as cJSON writes objects. */
static int put_object(bh_strbuf *b, const cJSON *obj, bool fmt, size_t depth)
{
    bh_strbuf_append(b, fmt ? "{\n" : "{", fmt ? 2 : 1);
    for (const cJSON *c = obj->child; c; c = c->next) {
        if (fmt)
            put_indent(b, depth + 1);
        put_string(b, c->string);
        bh_strbuf_append(b, ":\t", fmt ? 2 : 1);
        if (put_value(b, c, fmt, depth + 1) != 0)
            return -1;
        if (c->next)
            bh_strbuf_append(b, ",", 1);
        if (fmt)
            bh_strbuf_append(b, "\n", 1);
    }
    if (fmt)
        put_indent(b, depth);
    bh_strbuf_append(b, "}", 1);
    return 0;
}

/* Appends one value of any type; depth is the nesting of its container. */
static int put_value(bh_strbuf *b, const cJSON *it, bool fmt, size_t depth)
{
    char num[BH_JSON_NUMBER_MAX];

    if (!it)
        return -1;
    switch (it->type & 0xFF) {
    case cJSON_NULL:
        bh_strbuf_puts(b, "null");
        return 0;
    case cJSON_False:
        bh_strbuf_puts(b, "false");
        return 0;
    case cJSON_True:
        bh_strbuf_puts(b, "true");
        return 0;
    case cJSON_Number:
        bh_strbuf_puts(b, bh_json_format_double(it->valuedouble, num));
        return 0;
    case cJSON_Raw:
        if (!it->valuestring)
            return -1;
        bh_strbuf_puts(b, it->valuestring);
        return 0;
    case cJSON_String:
        put_string(b, it->valuestring);
        return 0;
    case cJSON_Array:
        return put_array(b, it, fmt, depth);
    case cJSON_Object:
        return put_object(b, it, fmt, depth);
    default:
        return -1;
    }
}

/* See bh_json_write.h. */
int bh_json_append(bh_strbuf *b, const cJSON *item, bool formatted)
{
    return put_value(b, item, formatted, 0);
}

/* The text of item, or NULL when it cannot be written. */
static char *print(const cJSON *item, bool formatted)
{
    bh_strbuf b = BH_STRBUF_INIT;

    if (bh_json_append(&b, item, formatted) != 0) {
        bh_strbuf_free(&b);
        return NULL;
    }
    return bh_strbuf_detach(&b);
}

/* See bh_json_write.h. */
char *bh_json_print(const cJSON *item)
{
    return print(item, true);
}

/* See bh_json_write.h. */
char *bh_json_print_unformatted(const cJSON *item)
{
    return print(item, false);
}

/* See bh_json_write.h. */
void bh_json_add_num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}
