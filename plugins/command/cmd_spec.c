// SPDX-License-Identifier: MIT
/*
 * cmd_spec.c -- the command plugin's settings decoded: argv and env come
 * from the config as JSON text (a list of strings, a map of strings, as
 * host/config/config_command.c writes them); ${NAME} expansion in argv,
 * stdin, cwd and env values; the child's environment; the lookup of
 * what a case requires.
 */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cmd_strv_free(cmd_strv v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* Appends s (taken) to *v of *n items, keeping a NULL terminator. */
static void strv_push(cmd_strv *v, size_t *n, char *s)
{
    cmd_strv grown = realloc(*v, (*n + 2) * sizeof(char *));

    if (!grown) {
        free(s);
        return;
    }
    grown[(*n)++] = s;
    grown[*n] = NULL;
    *v = grown;
}

/* Writes code point c as UTF-8 to out, returns the bytes written. */
static size_t put_utf8(char *out, unsigned c)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xc0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xe0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        out[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

/* Reads 4 hex digits at p into *c; 0 or -1. */
static int hex4(const char *p, unsigned *c)
{
    *c = 0;
    for (int i = 0; i < 4; i++) {
        char h = p[i];
        unsigned d = h >= '0' && h <= '9'   ? (unsigned)(h - '0')
                     : h >= 'a' && h <= 'f' ? (unsigned)(h - 'a' + 10)
                     : h >= 'A' && h <= 'F' ? (unsigned)(h - 'A' + 10)
                                            : 16u;
        if (d > 15)
            return -1;
        *c = *c * 16 + d;
    }
    return 0;
}

/* Decodes the escape at *p (after the backslash) into out; advances *p.
 * The bytes written, or 0 for a bad escape. */
static size_t unescape(const char **p, char *out)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *hit = **p ? strchr(from, **p) : NULL;
    unsigned c, lo;

    if (hit) {
        (*p)++;
        *out = to[hit - from];
        return 1;
    }
    if (**p != 'u' || hex4(*p + 1, &c) != 0)
        return 0;
    *p += 5;
    if (c >= 0xd800 && c < 0xdc00 && (*p)[0] == '\\' && (*p)[1] == 'u' && hex4(*p + 2, &lo) == 0 &&
        lo >= 0xdc00 && lo < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
        *p += 6;
    }
    return put_utf8(out, c);
}

/* Reads the JSON string at *p (at its opening quote) into a fresh string;
 * advances *p past it. NULL when malformed. */
static char *read_string(const char **p)
{
    const char *s = *p + 1;
    char *out = malloc(strlen(s) + 1), *o = out;

    if (**p != '"' || !out) {
        free(out);
        return NULL;
    }
    while (*s && *s != '"') {
        size_t n = 1;

        if (*s == '\\') {
            s++;
            n = unescape(&s, o);
            if (n == 0)
                break;
        } else {
            *o = *s++;
        }
        o += n;
    }
    if (*s != '"') {
        free(out);
        return NULL;
    }
    *o = '\0';
    *p = s + 1;
    return out;
}

/* Reads one member: a string, or with as_map "key":"value" as key=value. */
static char *read_member(const char **p, int as_map)
{
    char *k, *v, *kv;

    k = read_string(p);
    if (!k || !as_map)
        return k;
    if (**p != ':') {
        free(k);
        return NULL;
    }
    (*p)++;
    v = read_string(p);
    kv = v ? malloc(strlen(k) + strlen(v) + 2) : NULL;
    if (kv)
        sprintf(kv, "%s=%s", k, v);
    free(k);
    free(v);
    return kv;
}

int cmd_json_strings(const char *json, int as_map, cmd_strv *out, char *why, size_t cap)
{
    const char *p = json;
    cmd_strv v = calloc(1, sizeof(char *));
    size_t n = 0;

    if (!v || *p++ != (as_map ? '{' : '[')) {
        free(v);
        snprintf(why, cap, "expected a JSON %s", as_map ? "object" : "array");
        return -1;
    }
    while (*p && *p != (as_map ? '}' : ']')) {
        char *s = read_member(&p, as_map);

        if (!s) {
            cmd_strv_free(v);
            snprintf(why, cap, "malformed JSON at offset %zu", (size_t)(p - json));
            return -1;
        }
        strv_push(&v, &n, s);
        if (*p == ',')
            p++;
    }
    *out = v;
    return 0;
}

/* Appends n bytes of s to the growing buffer *b (length *len). */
static int buf_put(char **b, size_t *len, const char *s, size_t n)
{
    char *g = realloc(*b, *len + n + 1);

    if (!g)
        return -1;
    memcpy(g + *len, s, n);
    *len += n;
    g[*len] = '\0';
    *b = g;
    return 0;
}

/* The value of the ${...} body at s (length n): the variable, else its
 * default expanded; NULL with why. */
static char *expand_var(const char *s, size_t n, char *why, size_t cap)
{
    const char *dash = NULL, *val;
    char name[256], *dflt, *out;

    for (size_t i = 0; i + 1 < n && !dash; i++)
        if (s[i] == ':' && s[i + 1] == '-')
            dash = s + i;
    snprintf(name, sizeof(name), "%.*s", (int)(dash ? (size_t)(dash - s) : n), s);
    val = getenv(name);
    if (val && *val)
        return strdup(val);
    if (!dash) {
        snprintf(why, cap, "${%s} is not set", name);
        return NULL;
    }
    dflt = strndup(dash + 2, n - (size_t)(dash + 2 - s));
    out = dflt ? cmd_expand(dflt, why, cap) : NULL;
    free(dflt);
    return out;
}

/* The length of the ${...} body at s (after "${"), braces nested; 0 when
 * it is not closed. */
static size_t body_len(const char *s)
{
    int depth = 1;

    for (size_t i = 0; s[i]; i++) {
        if (s[i] == '$' && s[i + 1] == '{')
            depth++;
        else if (s[i] == '}' && --depth == 0)
            return i;
    }
    return 0;
}

char *cmd_expand(const char *text, char *why, size_t cap)
{
    char *b = NULL;
    size_t len = 0;

    if (buf_put(&b, &len, "", 0) != 0)
        return NULL;
    for (const char *s = text; *s;) {
        size_t n;
        char *v;
        int rc;

        if (s[0] != '$' || (s[1] != '{' && s[1] != '$')) {
            n = strcspn(s + 1, "$") + 1;
            rc = buf_put(&b, &len, s, n);
            s += n;
        } else if (s[1] == '$') {
            rc = buf_put(&b, &len, "$", 1);
            s += 2;
        } else if ((n = body_len(s + 2)) == 0) {
            snprintf(why, cap, "'%s': '${' without its '}'", text);
            rc = -1;
        } else {
            v = expand_var(s + 2, n, why, cap);
            rc = v ? buf_put(&b, &len, v, strlen(v)) : -1;
            free(v);
            s += n + 3;
        }
        if (rc != 0) {
            free(b);
            return NULL;
        }
    }
    return b;
}

cmd_strv cmd_env_merge(char *const *environ_now, char *const *set)
{
    cmd_strv v = calloc(1, sizeof(char *));
    size_t n = 0;

    for (size_t i = 0; v && environ_now && environ_now[i]; i++) {
        const char *e = environ_now[i];
        size_t klen = strcspn(e, "=");
        int replaced = 0;

        for (size_t j = 0; set && set[j] && !replaced; j++)
            replaced = strncmp(set[j], e, klen + 1) == 0;
        if (!replaced)
            strv_push(&v, &n, strdup(e));
    }
    for (size_t j = 0; v && set && set[j]; j++)
        strv_push(&v, &n, strdup(set[j]));
    return v;
}

int cmd_present(const char *name)
{
    const char *path = getenv("PATH");
    char buf[4096];

    if (strchr(name, '/'))
        return access(name, F_OK) == 0;
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");

        snprintf(buf, sizeof(buf), "%.*s/%s", (int)(n ? n : 1), n ? p : ".", name);
        if (access(buf, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}
