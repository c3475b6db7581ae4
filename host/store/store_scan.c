// SPDX-License-Identifier: MIT
/* The fast reader of result files (see store_scan.h). A recursive
 * descent over the text, which ends in a NUL written at text[len]: every
 * loop stops at a NUL because no rule accepts one, so no bounds are
 * checked. What cJSON 1.7 does that this reader must match: members and
 * elements in order with the first child's prev pointing at the last,
 * keys and strings decoded (here in place), numbers read by strtod in the
 * C locale (here the same double, without strtod where one IEEE operation
 * gives it) and valueint saturated to int. */
#define _GNU_SOURCE
#include "store_scan.h"

#include "bh_mem.h"
#include "result_read.h"
#include "store_arena.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NUMBER 63 /* cJSON reads at most 63 characters of a number */

/* Where a value sits: the root, the root's "cases", one of them, else. */
enum { IN_OTHER, IN_ROOT, IN_CASES, IN_CASE };

typedef struct scanner {
    char *p, *end; /* *end is the NUL after the text */
    int depth;
    bh_store_scan *sc;
    char *out; /* where the compact copy of a runs array goes, or NULL */
    cJSON *pool; /* nodes taken from the arena 256 at a time */
    size_t pool_left;
} scanner;

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale;

static void make_c_locale(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

#define ONES8 1, 1, 1, 1, 1, 1, 1, 1

/* 1 for the bytes that end a run of plain string bytes: '"', '\\' and
 * the control characters (the NUL at the end of the text included). */
static const unsigned char string_stop[256] = {ONES8, ONES8, ONES8, ONES8, ['"'] = 1, ['\\'] = 1};

/* 1 for JSON's white space. */
static const unsigned char space[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

static void skip_space(scanner *s)
{
    while (space[(unsigned char)*s->p])
        s->p++;
}

/* Appends text[0 .. n) to the compact copy being made, if any. */
static void copy(scanner *s, const char *text, size_t n)
{
    if (!s->out)
        return;
    if (n == 1)
        *s->out = *text; /* most tokens: no call */
    else
        memcpy(s->out, text, n);
    s->out += n;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The first byte from p on that is '"', '\\' or a control character. */
static char *string_end(char *p)
{
    for (;; p += 4) {
        if (string_stop[(unsigned char)p[0]])
            return p;
        if (string_stop[(unsigned char)p[1]])
            return p + 1;
        if (string_stop[(unsigned char)p[2]])
            return p + 2;
        if (string_stop[(unsigned char)p[3]])
            return p + 3;
    }
}

/* A zeroed node of type in the arena. */
static cJSON *node(scanner *s, int type)
{
    cJSON *n;

    if (s->pool_left == 0) {
        s->pool = bh_store_arena_alloc(256 * sizeof(cJSON));
        s->pool_left = 256;
    }
    n = s->pool++;
    s->pool_left--;
    *n = (cJSON){.type = type};
    return n;
}

/* The string whose opening quote s->p is at, decoded in place and
 * NUL-terminated where it lies; s->p moves past it. NULL for a \u escape,
 * an escape cJSON refuses or a control character. */
static char *string(scanner *s)
{
    char *start = s->p + 1, *in = string_end(start), *out;

    if (*in == '"') { /* no escapes */
        copy(s, s->p, (size_t)(in + 1 - s->p));
        *in = '\0';
        s->p = in + 1;
        return start;
    }
    if (s->out) { /* copied as written, before it is decoded */
        char *q = in;

        while (*q != '"') {
            if (*q == '\0')
                return NULL;
            q += *q == '\\' && q[1] != '\0' ? 2 : 1;
        }
        copy(s, s->p, (size_t)(q + 1 - s->p));
    }
    out = in;
    for (;;) {
        char c = *in;

        if (c == '"')
            break;
        if ((unsigned char)c < 0x20)
            return NULL;
        if (c == '\\') {
            switch (in[1]) {
            case '"': case '\\': case '/': c = in[1]; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            default: return NULL; /* \u, or what cJSON refuses */
            }
            in++;
        }
        *out++ = c;
        in++;
    }
    *out = '\0';
    s->p = in + 1;
    return start;
}

/* The value of a decimal number of m (digits digits) times 10^e10 when
 * one IEEE operation gives it exactly rounded, as strtod does (Clinger's
 * fast path): 1 and *d, else 0. */
static int fast_decimal(uint64_t m, int digits, int e10, double *d)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    if (digits > 19)
        return 0; /* m overflowed */
    if (e10 == 0) {
        *d = (double)m; /* exact below 2^53, else rounded once */
        return 1;
    }
    if (m > (1ull << 53) || e10 < -22 || e10 > 22)
        return 0;
    *d = e10 < 0 ? (double)m / pow10[-e10] : (double)m * pow10[e10];
    return 1;
}

/* The number at s->p (strict JSON syntax) into n. 0, or -1 for anything
 * else or a value that is not a finite double. */
static int number(scanner *s, cJSON *n)
{
    char *start = s->p, *q = start;
    uint64_t m = 0;
    int digits = 0, e10 = 0, exp = 0, exp_sign = 1;
    double d;

    if (*q == '-')
        q++;
    if (*q == '0') {
        q++;
    } else if (is_digit(*q)) {
        for (; is_digit(*q); q++, digits++)
            m = m * 10 + (uint64_t)(*q - '0');
    } else {
        return -1;
    }
    if (is_digit(*q))
        return -1; /* a leading zero */
    if (*q == '.') {
        if (!is_digit(*++q))
            return -1;
        for (; is_digit(*q); q++, digits++, e10--)
            m = m * 10 + (uint64_t)(*q - '0');
    }
    if (*q == 'e' || *q == 'E') {
        if (*++q == '+' || *q == '-')
            exp_sign = *q++ == '-' ? -1 : 1;
        if (!is_digit(*q))
            return -1;
        for (; is_digit(*q); q++)
            if (exp < 100000)
                exp = exp * 10 + (*q - '0');
        e10 += exp_sign * exp;
    }
    if (q - start > MAX_NUMBER)
        return -1;
    if (fast_decimal(m, digits, e10, &d)) {
        if (*start == '-')
            d = -d;
    } else {
        char buf[MAX_NUMBER + 1], *after;

        pthread_once(&c_locale_once, make_c_locale);
        if (c_locale == (locale_t)0)
            return -1;
        memcpy(buf, start, (size_t)(q - start));
        buf[q - start] = '\0';
        d = strtod_l(buf, &after, c_locale);
        if (after != buf + (q - start))
            return -1;
    }
    if (!isfinite(d))
        return -1;
    n->valuedouble = d;
    if (d >= INT_MAX)
        n->valueint = INT_MAX;
    else if (d <= (double)INT_MIN)
        n->valueint = INT_MIN;
    else
        n->valueint = (int)d;
    copy(s, start, (size_t)(q - start));
    s->p = q;
    return 0;
}

static cJSON *value(scanner *s, int where);

/* Links item after *last under parent. */
static void link_child(cJSON *parent, cJSON **last, cJSON *item)
{
    if (*last) {
        (*last)->next = item;
        item->prev = *last;
    } else {
        parent->child = item;
    }
    *last = item;
}

/* The value of member key of an object at where; of a case's "runs"
 * array, a compact copy (its tokens without the white space between them)
 * is kept in sc's text. */
static cJSON *member_value(scanner *s, int where, const char *key)
{
    bh_store_scan *sc = s->sc;
    bh_store_scan_runs r;
    char *start;
    cJSON *v;

    if (where == IN_ROOT && strcmp(key, "cases") == 0)
        return value(s, IN_CASES);
    if (where != IN_CASE || strcmp(key, "runs") != 0 || *s->p != '[')
        return value(s, IN_OTHER);
    /* the copy is never longer than the rest of the text */
    bh_grow((void **)&sc->text.data, &sc->text.cap, sc->text.len + (size_t)(s->end - s->p) + 1,
            1);
    start = s->out = sc->text.data + sc->text.len;
    v = value(s, IN_OTHER);
    if (!v)
        return NULL;
    *s->out = '\0';
    r = (bh_store_scan_runs){v, sc->text.len, (size_t)(s->out - start)};
    BH_PUSH(sc->runs, sc->n_runs, sc->cap_runs, r);
    sc->text.len += r.len + 1;
    s->out = NULL;
    return v;
}

/* The member (key, ':', value) at s->p of an object at where. */
static cJSON *member(scanner *s, int where)
{
    char *key;
    cJSON *it;

    if (*s->p != '"' || !(key = string(s)))
        return NULL;
    skip_space(s);
    if (*s->p != ':')
        return NULL;
    copy(s, s->p++, 1);
    skip_space(s);
    it = member_value(s, where, key);
    if (it)
        it->string = key;
    return it;
}

/* The object (object 1) or array at s->p, at where. Elements of the
 * root's "cases" are cases. */
static cJSON *container(scanner *s, int where, int object)
{
    cJSON *c = node(s, object ? cJSON_Object : cJSON_Array), *last = NULL;
    char close = object ? '}' : ']';

    if (++s->depth > BH_RESULT_MAX_DEPTH)
        return NULL;
    copy(s, s->p++, 1);
    skip_space(s);
    if (*s->p != close) {
        for (;;) {
            cJSON *it = object ? member(s, where)
                               : value(s, where == IN_CASES ? IN_CASE : IN_OTHER);

            if (!it)
                return NULL;
            link_child(c, &last, it);
            skip_space(s);
            if (*s->p != ',')
                break;
            copy(s, s->p++, 1);
            skip_space(s);
        }
        if (*s->p != close)
            return NULL;
        c->child->prev = last;
    }
    copy(s, s->p++, 1);
    s->depth--;
    return c;
}

/* The literal word at s->p as a node of type, or NULL. */
static cJSON *literal(scanner *s, const char *word, int type)
{
    size_t n = strlen(word);

    if (strncmp(s->p, word, n) != 0)
        return NULL;
    copy(s, word, n);
    s->p += n;
    return node(s, type);
}

/* The value at s->p (no white space before it). */
static cJSON *value(scanner *s, int where)
{
    cJSON *n;

    switch (*s->p) {
    case '{': return container(s, where, 1);
    case '[': return container(s, where, 0);
    case 't': return literal(s, "true", cJSON_True);
    case 'f': return literal(s, "false", cJSON_False);
    case 'n': return literal(s, "null", cJSON_NULL);
    case '"':
        n = node(s, cJSON_String);
        n->valuestring = string(s);
        return n->valuestring ? n : NULL;
    default:
        n = node(s, cJSON_Number);
        return number(s, n) == 0 ? n : NULL;
    }
}

cJSON *bh_store_scan_doc(char *text, size_t len, bh_store_scan *sc)
{
    scanner s = {text, text + len, 0, sc, NULL, NULL, 0};
    cJSON *doc;

    text[len] = '\0';
    sc->text.len = 0;
    sc->n_runs = 0;
    skip_space(&s);
    if (*s.p != '{')
        return NULL;
    doc = value(&s, IN_ROOT);
    if (!doc)
        return NULL;
    skip_space(&s);
    return s.p == s.end ? doc : NULL;
}

const char *bh_store_scan_runs_text(const bh_store_scan *sc, const cJSON *runs, size_t *cursor,
                                    size_t *len)
{
    for (size_t i = sc ? *cursor : 0; sc && i < sc->n_runs; i++) {
        if (sc->runs[i].node == runs) {
            *cursor = i + 1;
            *len = sc->runs[i].len;
            return sc->text.data + sc->runs[i].off;
        }
    }
    return NULL;
}

void bh_store_scan_free(bh_store_scan *sc)
{
    bh_strbuf_free(&sc->text);
    free(sc->runs);
    memset(sc, 0, sizeof(*sc));
}
