// SPDX-License-Identifier: MIT
/* Small readers for /proc and /sys files, and cJSON helpers for values that
 * may be missing. /proc and /sys report a size of 0, so files are read line
 * by line rather than by their stat size. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"

#include "bh_mem.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Removes leading and trailing whitespace of s in place; returns the new
 * start (inside s). */
static char *trim(char *s)
{
    size_t n;

    while (*s && isspace((unsigned char)*s))
        s++;
    n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* First line of path, trimmed, as a new string; NULL when unreadable. */
char *bh_sysinfo_read_line(const char *path)
{
    FILE *f = fopen(path, "re");
    char *line = NULL;
    size_t cap = 0;
    char *out = NULL;

    if (!f)
        return NULL;
    if (getline(&line, &cap, f) >= 0)
        out = bh_xstrdup(trim(line));
    else if (!ferror(f))
        out = bh_xstrdup(""); /* an empty file is readable, just empty */
    free(line);
    fclose(f);
    return out;
}

/* First line of path as a decimal integer; 0, or -1 with *out untouched. */
int bh_sysinfo_read_long(const char *path, long *out)
{
    char *s = bh_sysinfo_read_line(path);
    char *end = NULL;
    long v;
    int rc = -1;

    if (!s)
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno == 0 && end != s && *end == '\0') {
        *out = v;
        rc = 0;
    }
    free(s);
    return rc;
}

/* Value of the first "key : value" line of /proc/cpuinfo as a new string,
 * or NULL. A key that is a prefix of a longer one ("model" of "model name")
 * matches only its own line. */
char *bh_sysinfo_cpuinfo_value(const char *key)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    size_t klen = strlen(key);
    char *line = NULL;
    size_t cap = 0;
    char *out = NULL;

    if (!f)
        return NULL;
    while (!out && getline(&line, &cap, f) >= 0) {
        char *p = line + klen;
        char *colon;

        if (strncmp(line, key, klen) != 0)
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != ':')
            continue; /* a longer key sharing the prefix */
        colon = p;
        out = bh_xstrdup(trim(colon + 1));
    }
    free(line);
    fclose(f);
    return out;
}

/* Adds key = s (copied) to obj, or null when s is NULL. */
void bh_sysinfo_add_str(cJSON *obj, const char *key, const char *s)
{
    if (s)
        cJSON_AddStringToObject(obj, key, s);
    else
        cJSON_AddNullToObject(obj, key);
}

/* Adds key = s to obj (null when s is NULL); takes ownership of s. */
void bh_sysinfo_add_str_owned(cJSON *obj, const char *key, char *s)
{
    bh_sysinfo_add_str(obj, key, s);
    free(s);
}

/* Adds key = v to obj when ok, else null. */
void bh_sysinfo_add_num_if(cJSON *obj, const char *key, bool ok, double v)
{
    if (ok)
        cJSON_AddNumberToObject(obj, key, v);
    else
        cJSON_AddNullToObject(obj, key);
}
