// SPDX-License-Identifier: MIT
/* itest_util.c -- the cmocka side of the integration tests: temporary
 * paths, bhost runs with assertions, result JSON access (itest_util.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "itest_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char dir[512];
static char **paths; /* handed out by it_path and it_config */
static size_t n_paths, cap_paths;

const char *it_setup(const char *prefix, int reaper)
{
    const char *base = getenv("TMPDIR");
    const char *made;

    if (reaper) {
        made = tp_init(prefix);
        if (made == NULL)
            return NULL;
        snprintf(dir, sizeof(dir), "%s", made);
        return dir;
    }
    snprintf(dir, sizeof(dir), "%s/%s_XXXXXX", base && *base ? base : "/tmp",
             prefix);
    return mkdtemp(dir);
}

void it_teardown(void)
{
    if (dir[0] != '\0')
        tp_rm_rf(dir);
    dir[0] = '\0';
    for (size_t i = 0; i < n_paths; i++)
        free(paths[i]);
    free(paths);
    paths = NULL;
    n_paths = cap_paths = 0;
}

int it_group_teardown(void **state)
{
    (void)state;
    it_teardown();
    return 0;
}

const char *it_dir(void)
{
    return dir;
}

/* Keeps the formatted path "a/b" until it_teardown and returns it. */
static const char *keep_path(const char *a, const char *b)
{
    char *p = NULL;

    if (n_paths == cap_paths) {
        size_t cap = cap_paths ? 2 * cap_paths : 64;
        char **grown = realloc(paths, cap * sizeof(*paths));

        if (grown == NULL)
            fail_msg("it_path: out of memory");
        paths = grown;
        cap_paths = cap;
    }
    if (asprintf(&p, "%s/%s", a, b) < 0)
        fail_msg("it_path: out of memory");
    paths[n_paths++] = p;
    return p;
}

const char *it_path(const char *name)
{
    return keep_path(dir, name);
}

const char *it_config(const char *name)
{
    return keep_path(it_env("BHOST_ITEST_CONFIGS"), name);
}

const char *it_env(const char *name)
{
    const char *v = getenv(name);

    if (!v || !*v)
        fail_msg("%s is not set (run through meson test)", name);
    return v;
}

void it_start(tp_proc *p, const char *const *args)
{
    it_env("BHOST_EXE");
    tp_start(p, dir, args);
}

void it_run(tp_proc *p, const char *const *args)
{
    it_start(p, args);
    tp_finish(p);
}

void it_expect_code(const tp_proc *p, int want)
{
    if (p->code != want)
        fail_msg("exit %d, expected %d\nstdout:\n%s\nstderr:\n%s", p->code,
                 want, p->out, p->err);
}

void it_assert_has(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle))
        fail_msg("'%s' lacks '%s'", hay ? hay : "(null)", needle);
}

int it_count_lines(const char *s)
{
    int n = 0;

    for (; *s; s++)
        n += *s == '\n';
    return n;
}

void it_write(const char *path, const char *text)
{
    if (tp_write(path, text) != 0)
        fail_msg("cannot write %s", path);
}

cJSON *it_load_json(const char *path)
{
    char *text = tp_slurp(path);
    const char *end = NULL;
    cJSON *doc;

    if (text == NULL)
        fail_msg("out of memory reading %s", path);
    doc = cJSON_ParseWithOpts(text, &end, 1);
    free(text);
    if (!doc)
        fail_msg("%s is not one complete JSON document", path);
    return doc;
}

cJSON *it_parse_json(const char *text, const char *what)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithOpts(text, &end, 1);

    if (!doc)
        fail_msg("%s is not valid JSON:\n%s", what, text);
    return doc;
}

cJSON *it_member(const cJSON *o, const char *key)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (!v)
        fail_msg("missing key \"%s\"", key);
    return v;
}

const char *it_str_of(const cJSON *o, const char *key)
{
    const cJSON *v = it_member(o, key);

    if (!cJSON_IsString(v))
        fail_msg("\"%s\" is not a string", key);
    return v->valuestring;
}

const cJSON *it_case_of(const cJSON *doc, const char *id)
{
    const cJSON *c;

    cJSON_ArrayForEach(c, it_member(doc, "cases"))
        if (strcmp(it_str_of(c, "id"), id) == 0)
            return c;
    fail_msg("no case '%s' in the result", id);
    return NULL;
}

const cJSON *it_expect_case(const cJSON *doc, const char *id,
                            const char *status, const char *phrase)
{
    const cJSON *c = it_case_of(doc, id);
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c, "message");

    if (strcmp(it_str_of(c, "status"), status) != 0)
        fail_msg("%s: status %s, expected %s (%s)", id, it_str_of(c, "status"),
                 status, cJSON_IsString(msg) ? msg->valuestring : "");
    if (phrase && (!cJSON_IsString(msg) || !strstr(msg->valuestring, phrase)))
        fail_msg("%s: message '%s' lacks '%s'", id,
                 cJSON_IsString(msg) ? msg->valuestring : "(none)", phrase);
    return c;
}
