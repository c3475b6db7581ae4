// SPDX-License-Identifier: MIT
/* Reading a config file and the chain of bases it extends, and layering
 * them into one tree: the file's keys over its base's, maps key by key. */
#define _GNU_SOURCE
#include "config_internal.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "bh_sha256.h"
#include "bh_strbuf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The files of one chain, the config itself first. */
typedef struct chain {
    bh_ynode *trees[BH_CONFIG_MAX_CHAIN];
    char *real[BH_CONFIG_MAX_CHAIN]; /* realpath of each, for cycles */
    size_t n;
} chain;

/* Frees every tree and real path held by ch; ch is left empty. */
static void chain_free(chain *ch)
{
    for (size_t i = 0; i < ch->n; i++) {
        bh_yaml_free(ch->trees[i]);
        free(ch->real[i]);
    }
    ch->n = 0;
}

/* Reports that path cannot be read: at the extends: node that named it,
 * or at the top of the file itself for the config given. */
static int read_failed(const char *path, const bh_ynode *from, bh_error *e)
{
    char why[sizeof(e->msg)];
    const char *rest = e->msg;
    size_t n = strlen(path);

    /* bh_read_file says "PATH: why"; keep the why. */
    if (strncmp(rest, path, n) == 0 && strncmp(rest + n, ": ", 2) == 0)
        rest += n + 2;
    snprintf(why, sizeof(why), "%s", rest);
    if (from)
        return bh_config_fail(e, from, "extends: cannot read '%s': %s", path,
                              why);
    return bh_error_set(e, "%s:1:1: cannot read config: %s", path, why);
}

/* Reports an extends: cycle closed by from naming path again. */
static int cycle_error(const bh_config *c, const bh_ynode *from,
                       const char *path, bh_error *e)
{
    bh_strbuf b = BH_STRBUF_INIT;
    int rc;

    for (size_t i = 0; i < c->n_files; i++)
        bh_strbuf_printf(&b, "%s -> ", c->files[i]);
    bh_strbuf_puts(&b, path);
    rc = bh_config_fail(e, from, "extends cycle: %s", bh_strbuf_str(&b));
    bh_strbuf_free(&b);
    return rc;
}

/* Checks and removes the schema: key of one file's top-level map. */
static int check_schema(bh_ynode *top, bh_error *e)
{
    const bh_ynode *v = bh_yaml_map_get(top, "schema");
    char got[96];
    bh_scalar s;

    if (!v)
        return 0;
    if (v->kind != BH_YNODE_SCALAR || bh_yaml_is_null(v))
        return bh_config_fail(e, v, "schema: expected the integer 1, got %s",
                              bh_config_got(v, got, sizeof(got)));
    /* "1" quoted is fine too: the number is what matters. */
    if (strcmp(v->text, "1") == 0) {
        bh_yaml_map_remove(top, "schema");
        return 0;
    }
    bh_config_scalar_from_node(v, &s);
    bh_config_scalar_free(&s);
    if (s.kind != BH_SCALAR_INT)
        return bh_config_fail(e, v, "schema: expected the integer 1, got %s",
                              bh_config_got(v, got, sizeof(got)));
    return bh_config_fail(e, v,
                          "schema %s is not supported (this bhost reads "
                          "schema 1)",
                          v->text);
}

/* Reads, hashes and parses path (named by from, NULL for the config
 * itself) as the next file of ch; the file name is added to c->files. */
static int read_one(bh_config *c, chain *ch, bh_sha256_ctx *sha,
                    const char *path, const bh_ynode *from, bh_error *e)
{
    char *data = NULL, *real;
    size_t len = 0;
    bh_ynode *top = NULL;
    char got[96];

    if (bh_read_file(path, BH_CONFIG_MAX_FILE, &data, &len, e) != 0)
        return read_failed(path, from, e);
    real = realpath(path, NULL);
    if (!real)
        real = bh_xstrdup(path);
    for (size_t i = 0; i < ch->n; i++) {
        if (strcmp(ch->real[i], real) == 0) {
            free(real);
            free(data);
            return cycle_error(c, from, path, e);
        }
    }
    if (ch->n == BH_CONFIG_MAX_CHAIN) {
        free(real);
        free(data);
        return bh_config_fail(e, from, "extends: chain longer than %d files",
                              BH_CONFIG_MAX_CHAIN);
    }
    c->files = bh_xreallocarray(c->files, c->n_files + 1, sizeof(*c->files));
    c->files[c->n_files++] = bh_xstrdup(path);
    bh_sha256_update(sha, data, len);
    ch->real[ch->n] = real;
    ch->trees[ch->n++] = NULL;
    if (bh_yaml_parse(c->files[c->n_files - 1], data, len, &top, e) != 0) {
        free(data);
        return -1;
    }
    free(data);
    ch->trees[ch->n - 1] = top;
    if (!top || bh_yaml_is_null(top))
        return bh_error_set(e, "%s:1:1: expected a map at the top level, "
                               "got an empty file", path);
    if (top->kind != BH_YNODE_MAP)
        return bh_config_fail(e, top,
                              "expected a map at the top level, got %s",
                              bh_config_got(top, got, sizeof(got)));
    if (check_schema(top, e) != 0)
        return -1;
    if (ch->n > 1)
        bh_yaml_map_remove(top, "name");
    return 0;
}

/* The base path named by the extends: key of top (*out, fresh; NULL when
 * there is none), resolved against the directory of its file. */
static int base_of(const bh_ynode *top, char **out, bh_error *e)
{
    const bh_ynode *v = bh_yaml_map_get(top, "extends");
    char *rel, *dir;

    *out = NULL;
    if (!v || bh_yaml_is_null(v))
        return 0;
    if (bh_config_get_string(v, "extends", &rel, e) != 0)
        return -1;
    dir = bh_config_dirname(v->file);
    *out = bh_config_path_join(dir, rel);
    free(dir);
    free(rel);
    return 0;
}

int bh_config_read_tree(bh_config *c, bh_ynode **root, bh_error *e)
{
    chain ch = {.n = 0};
    bh_sha256_ctx sha;
    uint8_t digest[32];
    char *next = NULL;
    const char *path = c->path;
    const bh_ynode *from = NULL;
    bh_ynode *merged = NULL;

    *root = NULL;
    bh_sha256_init(&sha);
    for (;;) {
        int rc = read_one(c, &ch, &sha, path, from, e);

        free(next);
        next = NULL;
        if (rc != 0 || base_of(ch.trees[ch.n - 1], &next, e) != 0)
            goto fail;
        if (!next)
            break;
        from = bh_yaml_map_get(ch.trees[ch.n - 1], "extends");
        path = next;
    }
    /* Layer from the deepest base up to the config itself. */
    while (ch.n > 0) {
        bh_ynode *top = ch.trees[--ch.n];

        ch.trees[ch.n] = NULL;
        free(ch.real[ch.n]);
        bh_yaml_map_remove(top, "extends");
        merged = bh_yaml_merge(merged, top);
    }
    bh_sha256_final(&sha, digest);
    c->hash = bh_xmalloc(65);
    for (size_t i = 0; i < 32; i++)
        snprintf(c->hash + 2 * i, 3, "%02x", digest[i]);
    *root = merged;
    return 0;
fail:
    free(next);
    chain_free(&ch);
    return -1;
}
