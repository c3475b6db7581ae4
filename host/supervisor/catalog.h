// SPDX-License-Identifier: MIT
/* What the plugins on the search path say about themselves, learned by
 * describe workers (the supervisor never loads plugin code itself) and
 * cached for the life of the command. */
#ifndef BH_CATALOG_H
#define BH_CATALOG_H

#include "bh_status.h"
#include "loader.h"

#include <cjson/cJSON.h>
#include <stdint.h>

typedef struct bh_catalog_entry {
    char *key;          /* name or path as asked for */
    char *path;         /* resolved file, NULL when not found */
    cJSON *info;        /* the describe message, NULL on failure */
    bh_status status;   /* BH_ST_OK, or why info is missing */
    char *error;        /* one line when status != OK */
    char *warning;      /* the describe worker died after its report */
    uint64_t describe_ns;
    int pending;        /* found and safe, not described yet */
} bh_catalog_entry;

typedef struct bh_catalog {
    bh_search_path sp;
    char *exe;
    uint64_t timeout_ns;
    int allow_unsafe;   /* load plugins that fail bh_loader_check_safe */
    bh_catalog_entry **entries; /* stable: entries never move */
    size_t n;
    size_t cap;
} bh_catalog;

/* Sets up a catalog over the search path built from config_dirs. */
void bh_catalog_init(bh_catalog *c, char *const *config_dirs, size_t n_dirs);
void bh_catalog_free(bh_catalog *c);

/* The entry for a plugin name or path, describing it on first use. Never
 * NULL; check ->status. Borrowed, valid until bh_catalog_free. */
const bh_catalog_entry *bh_catalog_get(bh_catalog *c, const char *name);

/* Describes the plugins of names[0..n) that are not in the catalog yet,
 * several describe workers at a time (their process start and plugin
 * initialisation overlap); bh_catalog_get then returns them at once. */
void bh_catalog_prefetch(bh_catalog *c, char *const *names, size_t n);

/* Describes every plugin file on the search path. Entries are added in
 * path order; duplicate plugin ids are reported through dup_msg (a new
 * string, or NULL when none). */
void bh_catalog_scan(bh_catalog *c, char **dup_msg);

/* The plugin name on the search path closest to name (a likely typo), or
 * NULL when none is close or name is a path. Free the result. */
char *bh_catalog_suggest(const bh_catalog *c, const char *name);

/* The benchmark descriptor with the given id inside a describe message,
 * or NULL. */
const cJSON *bh_catalog_bench(const cJSON *info, const char *id);

#endif
