// SPDX-License-Identifier: MIT
#include "yaml_tree.h"

#include "bh_mem.h"
#include "bh_strset.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define TAG_STR "tag:yaml.org,2002:str"
#define TAG_SEQ "tag:yaml.org,2002:seq"
#define TAG_MAP "tag:yaml.org,2002:map"
#define SHARE_HINT "use extends: to share settings between configs"

/* The state of one parse: the open collections, innermost last. */
typedef struct builder {
    const char *file;
    const char *data;
    size_t len;
    bh_ynode *root;
    bh_ynode *stack[BH_YAML_MAX_DEPTH];
    bh_strset keys[BH_YAML_MAX_DEPTH]; /* of each open map: key -> kid index */
    size_t depth;
    int documents;
    bh_error *e;
} builder;

/* Sets e to "file:line:col: <fmt...>"; returns -1. */
static int fail_at(bh_error *e, const char *file, int line, int column,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail_at(bh_error *e, const char *file, int line, int column,
                   const char *fmt, ...)
{
    char msg[900];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return bh_error_set(e, "%s:%d:%d: %s", file, line, column, msg);
}

/* Line and column (1-based, column in bytes) of a byte offset in data. */
static void offset_position(const char *data, size_t len, size_t offset,
                            int *line, int *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (data[i] == '\n') {
            (*line)++;
            *column = 1;
        } else {
            (*column)++;
        }
    }
}

/* Turns the parser's error state into e; returns -1. */
static int syntax_error(builder *b, const yaml_parser_t *p)
{
    int line, column;

    if (p->error == YAML_READER_ERROR) {
        offset_position(b->data, b->len, p->problem_offset, &line, &column);
        return fail_at(b->e, b->file, line, column,
                       "cannot read YAML text: %s",
                       p->problem ? p->problem : "invalid input");
    }
    if (p->error == YAML_MEMORY_ERROR)
        return fail_at(b->e, b->file, 1, 1, "out of memory reading YAML");
    line = (int)p->problem_mark.line + 1;
    column = (int)p->problem_mark.column + 1;
    if (p->context)
        return fail_at(b->e, b->file, line, column,
                       "YAML syntax error: %s, %s at line %d, column %d",
                       p->problem ? p->problem : "invalid YAML", p->context,
                       (int)p->context_mark.line + 1,
                       (int)p->context_mark.column + 1);
    return fail_at(b->e, b->file, line, column, "YAML syntax error: %s",
                   p->problem ? p->problem : "invalid YAML");
}

/* A fresh, empty node of kind at mark, owned by the caller. */
static bh_ynode *new_node(builder *b, bh_ynode_kind kind, yaml_mark_t mark)
{
    bh_ynode *n = bh_xcalloc(1, sizeof(*n));

    n->kind = kind;
    n->file = b->file;
    n->line = (int)mark.line + 1;
    n->column = (int)mark.column + 1;
    return n;
}

/* Rejects anchors and tags outside allowed (NULL-terminated); 0 or -1. */
static int check_props(builder *b, const yaml_event_t *ev,
                       const yaml_char_t *anchor, const yaml_char_t *tag,
                       const char *const *allowed)
{
    int line = (int)ev->start_mark.line + 1;
    int column = (int)ev->start_mark.column + 1;

    if (anchor)
        return fail_at(b->e, b->file, line, column,
                       "anchors (&%s) are not supported; " SHARE_HINT,
                       (const char *)anchor);
    if (!tag)
        return 0;
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp((const char *)tag, allowed[i]) == 0)
            return 0;
    return fail_at(b->e, b->file, line, column,
                   "unsupported tag '%s' (only !!str is allowed)",
                   (const char *)tag);
}

/* Attaches n to the open collection (or makes it the root), taking
 * ownership of n even on failure. Map keys must be unique scalars. */
static int attach(builder *b, bh_ynode *n)
{
    bh_ynode *parent;

    if (b->depth == 0) {
        if (b->root) {
            bh_yaml_free(n);
            return fail_at(b->e, b->file, n->line, n->column,
                           "unexpected second top-level node");
        }
        b->root = n;
        return 0;
    }
    parent = b->stack[b->depth - 1];
    if (parent->kind == BH_YNODE_MAP && parent->n_kids % 2 == 0) {
        if (n->kind != BH_YNODE_SCALAR) {
            int rc = fail_at(b->e, b->file, n->line, n->column,
                             "map keys must be scalars, got %s",
                             bh_yaml_kind_name(n));
            bh_yaml_free(n);
            return rc;
        }
        size_t at;

        if (!bh_strset_add(&b->keys[b->depth - 1], n->text, parent->n_kids, &at)) {
            const bh_ynode *k = parent->kids[at];
            int rc = fail_at(b->e, b->file, n->line, n->column,
                             "duplicate key '%s' (first defined at "
                             "line %d, column %d)",
                             n->text, k->line, k->column);

            bh_yaml_free(n);
            return rc;
        }
    }
    BH_PUSH(parent->kids, parent->n_kids, parent->cap_kids, n);
    return 0;
}

/* Adds the scalar of ev to the tree; 0 or -1 with b->e set. */
static int on_scalar(builder *b, const yaml_event_t *ev)
{
    static const char *const allowed[] = {TAG_STR, "!", NULL};
    const yaml_char_t *value = ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    bh_ynode *node;

    if (check_props(b, ev, ev->data.scalar.anchor, ev->data.scalar.tag,
                    allowed) != 0)
        return -1;
    if (memchr(value, '\0', n))
        return fail_at(b->e, b->file, (int)ev->start_mark.line + 1,
                       (int)ev->start_mark.column + 1,
                       "a value may not contain a NUL character");
    node = new_node(b, BH_YNODE_SCALAR, ev->start_mark);
    node->text = bh_xstrndup((const char *)value, n);
    node->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
                   ev->data.scalar.tag != NULL;
    return attach(b, node);
}

/* Opens a list or map for ev and adds it to the tree; 0 or -1. */
static int on_start(builder *b, const yaml_event_t *ev, bh_ynode_kind kind)
{
    static const char *const seq_tags[] = {TAG_SEQ, NULL};
    static const char *const map_tags[] = {TAG_MAP, NULL};
    const yaml_char_t *anchor, *tag;
    bh_ynode *node;

    if (kind == BH_YNODE_SEQ) {
        anchor = ev->data.sequence_start.anchor;
        tag = ev->data.sequence_start.tag;
    } else {
        anchor = ev->data.mapping_start.anchor;
        tag = ev->data.mapping_start.tag;
    }
    if (check_props(b, ev, anchor, tag,
                    kind == BH_YNODE_SEQ ? seq_tags : map_tags) != 0)
        return -1;
    if (b->depth == BH_YAML_MAX_DEPTH)
        return fail_at(b->e, b->file, (int)ev->start_mark.line + 1,
                       (int)ev->start_mark.column + 1,
                       "nesting deeper than %d levels", BH_YAML_MAX_DEPTH);
    node = new_node(b, kind, ev->start_mark);
    if (attach(b, node) != 0)
        return -1;
    b->stack[b->depth++] = node;
    return 0;
}

/* Handles one event; 0 to go on, 1 at the end of the stream, -1. */
static int on_event(builder *b, const yaml_event_t *ev)
{
    switch (ev->type) {
    case YAML_STREAM_END_EVENT:
        return 1;
    case YAML_DOCUMENT_START_EVENT:
        if (++b->documents > 1)
            return fail_at(b->e, b->file, (int)ev->start_mark.line + 1,
                           (int)ev->start_mark.column + 1,
                           "expected one YAML document, found a second one");
        return 0;
    case YAML_ALIAS_EVENT:
        return fail_at(b->e, b->file, (int)ev->start_mark.line + 1,
                       (int)ev->start_mark.column + 1,
                       "aliases (*%s) are not supported; " SHARE_HINT,
                       (const char *)ev->data.alias.anchor);
    case YAML_SCALAR_EVENT:
        return on_scalar(b, ev);
    case YAML_SEQUENCE_START_EVENT:
        return on_start(b, ev, BH_YNODE_SEQ);
    case YAML_MAPPING_START_EVENT:
        return on_start(b, ev, BH_YNODE_MAP);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (b->depth > 0)
            bh_strset_free(&b->keys[--b->depth]);
        return 0;
    default:
        return 0;
    }
}

int bh_yaml_parse(const char *file, const char *data, size_t len,
                  bh_ynode **root, bh_error *e)
{
    builder b = {.file = file, .data = data, .len = len, .e = e};
    yaml_parser_t parser;
    int rc = 0;

    *root = NULL;
    if (!yaml_parser_initialize(&parser))
        return fail_at(e, file, 1, 1, "cannot start the YAML parser");
    yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
    for (;;) {
        yaml_event_t ev;

        if (!yaml_parser_parse(&parser, &ev)) {
            rc = syntax_error(&b, &parser);
            break;
        }
        rc = on_event(&b, &ev);
        yaml_event_delete(&ev);
        if (rc != 0)
            break;
    }
    yaml_parser_delete(&parser);
    for (size_t i = 0; i < BH_YAML_MAX_DEPTH; i++)
        bh_strset_free(&b.keys[i]);
    if (rc < 0) {
        bh_yaml_free(b.root);
        return -1;
    }
    *root = b.root;
    return 0;
}

void bh_yaml_free(bh_ynode *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n_kids; i++)
        bh_yaml_free(n->kids[i]);
    free(n->kids);
    free(n->text);
    free(n);
}

size_t bh_yaml_map_len(const bh_ynode *map)
{
    return map && map->kind == BH_YNODE_MAP ? map->n_kids / 2 : 0;
}

const bh_ynode *bh_yaml_map_key(const bh_ynode *map, size_t i)
{
    return map->kids[2 * i];
}

const bh_ynode *bh_yaml_map_value(const bh_ynode *map, size_t i)
{
    return map->kids[2 * i + 1];
}

/* Index of the pair whose key is key, or -1. */
static long find_key(const bh_ynode *map, const char *key)
{
    for (size_t i = 0; i + 1 < map->n_kids; i += 2)
        if (strcmp(map->kids[i]->text, key) == 0)
            return (long)(i / 2);
    return -1;
}

const bh_ynode *bh_yaml_map_get(const bh_ynode *map, const char *key)
{
    long i;

    if (!map || map->kind != BH_YNODE_MAP)
        return NULL;
    i = find_key(map, key);
    return i < 0 ? NULL : map->kids[2 * i + 1];
}

void bh_yaml_map_remove(bh_ynode *map, const char *key)
{
    long i;
    size_t at;

    if (!map || map->kind != BH_YNODE_MAP)
        return;
    i = find_key(map, key);
    if (i < 0)
        return;
    at = 2 * (size_t)i;
    bh_yaml_free(map->kids[at]);
    bh_yaml_free(map->kids[at + 1]);
    memmove(&map->kids[at], &map->kids[at + 2],
            (map->n_kids - at - 2) * sizeof(map->kids[0]));
    map->n_kids -= 2;
}

int bh_yaml_is_null(const bh_ynode *n)
{
    if (!n || n->kind != BH_YNODE_SCALAR || n->quoted)
        return 0;
    return n->text[0] == '\0' || strcmp(n->text, "~") == 0 ||
           strcmp(n->text, "null") == 0 || strcmp(n->text, "Null") == 0 ||
           strcmp(n->text, "NULL") == 0;
}

const char *bh_yaml_kind_name(const bh_ynode *n)
{
    if (!n || bh_yaml_is_null(n))
        return "nothing";
    switch (n->kind) {
    case BH_YNODE_MAP:
        return "a map";
    case BH_YNODE_SEQ:
        return "a list";
    default:
        return "a scalar";
    }
}

bh_ynode *bh_yaml_merge(bh_ynode *base, bh_ynode *over)
{
    bh_strset index = BH_STRSET_INIT;
    bh_ynode **replaced = NULL;
    size_t n_replaced = 0, cap_replaced = 0;

    if (!base)
        return over;
    if (!over)
        return base;
    if (base->kind != BH_YNODE_MAP || over->kind != BH_YNODE_MAP) {
        bh_yaml_free(base);
        return over;
    }
    /* base's keys by text; a replaced key is freed only at the end, since
     * the index still points at its text */
    for (size_t i = 0; i + 1 < base->n_kids; i += 2)
        bh_strset_add(&index, base->kids[i]->text, i, NULL);
    for (size_t i = 0; i + 1 < over->n_kids; i += 2) {
        bh_ynode *key = over->kids[i];
        bh_ynode *value = over->kids[i + 1];
        size_t at;

        if (!bh_strset_get(&index, key->text, &at)) {
            BH_PUSH(base->kids, base->n_kids, base->cap_kids, key);
            BH_PUSH(base->kids, base->n_kids, base->cap_kids, value);
            continue;
        }
        BH_PUSH(replaced, n_replaced, cap_replaced, base->kids[at]);
        base->kids[at] = key;
        base->kids[at + 1] = bh_yaml_merge(base->kids[at + 1], value);
    }
    bh_strset_free(&index);
    for (size_t i = 0; i < n_replaced; i++)
        bh_yaml_free(replaced[i]);
    free(replaced);
    base->file = over->file;
    base->line = over->line;
    base->column = over->column;
    free(over->kids);
    free(over);
    return base;
}
