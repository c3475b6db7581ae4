// SPDX-License-Identifier: MIT
/* A YAML document read with libyaml into a small tree of nodes, each with
 * the file, line and column it came from. Internal to the config module.
 *
 * What the tree accepts: one document; scalars, lists and maps; map keys
 * that are scalars and unique within their map. What it rejects, each with
 * "file:line:col: message": syntax errors, more than one document, anchors
 * and aliases (use extends: to share settings), tags other than !!str,
 * scalars holding a NUL byte, and nesting deeper than BH_YAML_MAX_DEPTH. */
#ifndef BH_YAML_TREE_H
#define BH_YAML_TREE_H

#include "bh_error.h"

#include <stddef.h>

#define BH_YAML_MAX_DEPTH 64

typedef enum bh_ynode_kind {
    BH_YNODE_SCALAR,
    BH_YNODE_SEQ,
    BH_YNODE_MAP
} bh_ynode_kind;

typedef struct bh_ynode bh_ynode;

struct bh_ynode {
    bh_ynode_kind kind;
    const char *file; /* borrowed: outlives the tree */
    int line;         /* 1-based */
    int column;       /* 1-based */
    char *text;       /* SCALAR: the value, NUL-terminated */
    int quoted;       /* SCALAR: not plain (quoted, block or !!str) */
    /* SEQ: the items. MAP: keys and values alternate, kids[2i] is a
       scalar key and kids[2i + 1] its value. */
    bh_ynode **kids;
    size_t n_kids;
    size_t cap_kids;
};

/* Parses len bytes of YAML text read from file (used for positions; must
 * outlive the tree) into *root. An empty stream gives *root == NULL.
 * Returns 0, or -1 with e set to "file:line:col: message"; *root is NULL
 * then. Free the tree with bh_yaml_free(). */
int bh_yaml_parse(const char *file, const char *data, size_t len,
                  bh_ynode **root, bh_error *e);

/* Frees n and everything below it; NULL is fine. */
void bh_yaml_free(bh_ynode *n);

/* Number of key/value pairs of a MAP node. */
size_t bh_yaml_map_len(const bh_ynode *map);
/* The key (a scalar) and value of pair i of a MAP node; borrowed. */
const bh_ynode *bh_yaml_map_key(const bh_ynode *map, size_t i);
const bh_ynode *bh_yaml_map_value(const bh_ynode *map, size_t i);
/* The value stored under key in a MAP node, or NULL; borrowed. */
const bh_ynode *bh_yaml_map_get(const bh_ynode *map, const char *key);
/* Removes key from a MAP node and frees its key and value; no-op when
 * absent. */
void bh_yaml_map_remove(bh_ynode *map, const char *key);

/* True for a plain scalar written as nothing, ~ or null (any case form
 * YAML 1.2 allows). */
int bh_yaml_is_null(const bh_ynode *n);

/* "a map", "a list", "a string" or "nothing": for "expected X, got Y". */
const char *bh_yaml_kind_name(const bh_ynode *n);

/* Layers over onto base and returns the result, consuming both: when both
 * are maps the result is base with each key of over merged in turn
 * (recursively for map values, replacing otherwise) and over's position;
 * in every other case the result is over. Either may be NULL. */
bh_ynode *bh_yaml_merge(bh_ynode *base, bh_ynode *over);

#endif
