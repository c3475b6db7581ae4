// SPDX-License-Identifier: MIT
/*
 * tok_tok.c -- the tokenizer object: load dispatch by format, special-token
 * splitting, encode/decode/normalize dispatch by model kind, workspaces.
 */
#define _GNU_SOURCE /* memmem */
#include "tok_internal.h"

#include <stdlib.h>
#include <string.h>

#define ID_NONE UINT32_MAX

/* Allocates an id -> text table of n ids, all without text. */
int bh_tok_set_ids(bh_tok *t, size_t n)
{
    if (n == 0 || n > TOK_MAX_IDS)
        return -1;
    t->id_off = malloc(n * sizeof(uint32_t));
    t->id_len = bh_tok_calloc(n, sizeof(uint32_t));
    if (t->id_off == NULL || t->id_len == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        t->id_off[i] = ID_NONE;
    t->nids = n;
    return 0;
}

/* See tok_internal.h. */
int bh_tok_extend_ids(bh_tok *t, size_t n)
{
    if (n <= t->nids)
        return 0;
    if (n > TOK_MAX_IDS)
        return -1;
    uint32_t *off = realloc(t->id_off, n * sizeof(uint32_t));
    if (off == NULL)
        return -1;
    t->id_off = off;
    uint32_t *len = realloc(t->id_len, n * sizeof(uint32_t));
    if (len == NULL)
        return -1;
    t->id_len = len;
    for (size_t i = t->nids; i < n; i++) {
        off[i] = ID_NONE;
        len[i] = 0;
    }
    t->nids = n;
    return 0;
}

/* Sets the text of id (copied); 0 or -1. */
int bh_tok_set_id(bh_tok *t, size_t id, const void *p, size_t len)
{
    if (id >= t->nids || len > UINT32_MAX || t->id_blob_n + len > UINT32_MAX)
        return -1;
    if (bh_tok_grow((void **)&t->id_blob, &t->id_blob_cap,
                    t->id_blob_n + len + 1, 1) != 0)
        return -1;
    memcpy(t->id_blob + t->id_blob_n, p, len);
    t->id_off[id] = (uint32_t)t->id_blob_n;
    t->id_len[id] = (uint32_t)len;
    t->id_blob_n += len;
    return 0;
}

/* Registers special token s -> id (copied); 0 or -1. */
int bh_tok_add_special(bh_tok *t, const char *s, size_t n, int32_t id)
{
    if (n == 0)
        return 0;
    tok_special *sp = realloc(t->special, (t->nspecial + 1) * sizeof(*sp));
    if (sp == NULL)
        return -1;
    t->special = sp;
    sp[t->nspecial].s = malloc(n + 1);
    if (sp[t->nspecial].s == NULL)
        return -1;
    memcpy(sp[t->nspecial].s, s, n);
    sp[t->nspecial].s[n] = '\0';
    sp[t->nspecial].n = n;
    sp[t->nspecial].id = id;
    t->nspecial++;
    return 0;
}

/* Pre-tokenizer of a tiktoken format name, or -1. */
static int pretok_of(const char *format)
{
    if (strcmp(format, "r50k") == 0 || strcmp(format, "p50k") == 0)
        return PRETOK_GPT2;
    if (strcmp(format, "cl100k") == 0)
        return PRETOK_CL100K;
    if (strcmp(format, "o200k") == 0)
        return PRETOK_O200K;
    return -1;
}

bh_tok *bh_tok_load(const char *format, const char *const *paths,
                    size_t npaths, char *err, size_t errcap)
{
    bh_tok *t;
    int rc = -1;

    if (format == NULL || paths == NULL || npaths == 0 || paths[0] == NULL) {
        bh_tok_err(err, errcap, "tokenizer: no format or file given");
        return NULL;
    }
    bh_uni_init();
    t = calloc(1, sizeof(*t));
    if (t == NULL) {
        bh_tok_err(err, errcap, "%s: out of memory", paths[0]);
        return NULL;
    }
    if (pretok_of(format) >= 0) {
        rc = bh_load_tiktoken(t, paths[0], pretok_of(format), err, errcap);
        if (rc == 0) {
            static const struct { const char *fmt, *s; int32_t id; } sp[] = {
                {"r50k", "<|endoftext|>", 50256},
                {"p50k", "<|endoftext|>", 50256},
                {"cl100k", "<|endoftext|>", 100257},
                {"cl100k", "<|fim_prefix|>", 100258},
                {"cl100k", "<|fim_middle|>", 100259},
                {"cl100k", "<|fim_suffix|>", 100260},
                {"cl100k", "<|endofprompt|>", 100276},
                {"o200k", "<|endoftext|>", 199999},
                {"o200k", "<|endofprompt|>", 200018},
            };
            for (size_t i = 0; i < sizeof(sp) / sizeof(sp[0]) && rc == 0; i++)
                if (strcmp(sp[i].fmt, format) == 0 &&
                    (bh_tok_extend_ids(t, (size_t)sp[i].id + 1) != 0 ||
                     t->id_off[sp[i].id] != ID_NONE ||
                     bh_tok_set_id(t, (size_t)sp[i].id, sp[i].s, strlen(sp[i].s)) != 0 ||
                     bh_tok_add_special(t, sp[i].s, strlen(sp[i].s), sp[i].id) != 0))
                    rc = bh_tok_err(err, errcap,
                                    "%s: special token %s (id %d) collides with "
                                    "a ranked token", paths[0],
                                    sp[i].s, (int)sp[i].id);
        }
    } else if (strcmp(format, "gpt2") == 0) {
        if (npaths < 2 || paths[1] == NULL)
            bh_tok_err(err, errcap, "%s: gpt2 needs encoder.json and vocab.bpe",
                       paths[0]);
        else
            rc = bh_load_gpt2(t, paths[0], paths[1], err, errcap);
    } else if (strcmp(format, "hf") == 0) {
        rc = bh_load_hf_json(t, paths[0], err, errcap);
    } else if (strcmp(format, "bert") == 0 ||
               strcmp(format, "bert-cased") == 0) {
        rc = bh_load_bert_vocab(t, paths[0], strcmp(format, "bert") == 0, err,
                                errcap);
    } else if (strcmp(format, "spm") == 0) {
        rc = bh_load_spm(t, paths[0], err, errcap);
    } else {
        bh_tok_err(err, errcap, "%s: unknown tokenizer format '%s'", paths[0],
                   format);
    }
    if (rc != 0) {
        bh_tok_free(t);
        return NULL;
    }
    return t;
}

/* See bhtok.h. */
void bh_tok_free(bh_tok *t)
{
    if (t == NULL)
        return;
    bh_bpe_free(&t->bpe);
    bh_strmap_free(&t->wp.vocab);
    bh_strmap_free(&t->spm.pieces);
    bh_strmap_free(&t->spm.reserved);
    bh_strmap_free(&t->spm.user);
    bh_spm_trie_free(&t->spm.trie);
    free(t->spm.score);
    free(t->spm.type);
    free(t->spm.charsmap_copy);
    free(t->id_off);
    free(t->id_len);
    free(t->id_blob);
    for (size_t i = 0; i < t->nspecial; i++)
        free(t->special[i].s);
    free(t->special);
    free(t);
}

/* See bhtok.h. */
size_t bh_tok_vocab_size(const bh_tok *t)
{
    return t->nids;
}

/* See bhtok.h. */
const char *bh_tok_kind(const bh_tok *t)
{
    switch (t->kind) {
    case TOK_KIND_BPE:
        return "bpe";
    case TOK_KIND_WP:
        return "wordpiece";
    default:
        return t->spm.model_type == 2 ? "spm-bpe" : "spm-unigram";
    }
}

/* See bhtok.h. */
int32_t bh_tok_special_id(const bh_tok *t, const char *text)
{
    size_t n = strlen(text);
    for (size_t i = 0; i < t->nspecial; i++)
        if (t->special[i].n == n && memcmp(t->special[i].s, text, n) == 0)
            return t->special[i].id;
    return -1;
}

/* See bhtok.h. */
bh_tok_ws *bh_tok_ws_new(const bh_tok *t)
{
    bh_tok_ws *ws = calloc(1, sizeof(*ws));
    if (ws != NULL)
        ws->t = t;
    return ws;
}

/* See bhtok.h. */
void bh_tok_ws_free(bh_tok_ws *ws)
{
    if (ws == NULL)
        return;
    free(ws->cache);
    free(ws->p_pos);
    free(ws->p_id);
    free(ws->p_rank);
    free(ws->p_mid);
    free(ws->p_prev);
    free(ws->p_next);
    free(ws->heap);
    free(ws->parts);
    free(ws->sp_hit);
    bh_tok_bytes_free(&ws->norm);
    bh_tok_bytes_free(&ws->tmp);
    free(ws->cps);
    free(ws->vs);
    free(ws->vstart);
    free(ws->vid);
    free(ws);
}

static int encode_model(const bh_tok *t, bh_tok_ws *ws, const uint8_t *s,
                        size_t n, bh_tok_ids *out)
{
    if (n == 0)
        return 0;
    switch (t->kind) {
    case TOK_KIND_BPE:
        return bh_bpe_encode(t, ws, s, n, out);
    case TOK_KIND_WP:
        return bh_wp_encode(t, ws, s, n, out);
    default:
        return bh_spm_encode(t, ws, s, n, out);
    }
}

/* Earliest special token at or after pos (longest at equal starts); *at
 * gets its offset. NULL when none. hit[i] caches where special i next
 * occurs (n: nowhere; SIZE_MAX: not searched yet) and is searched again
 * only once pos has passed it: each special scans the text once in all,
 * where searching every special from pos at every call took time
 * quadratic in the number of specials in the text (600 KB of
 * "<|endofprompt|>" took 12 s). */
static const tok_special *next_special(const bh_tok *t, size_t *hit, const char *s,
                                       size_t n, size_t pos, size_t *at)
{
    const tok_special *best = NULL;
    size_t best_at = n;
    for (size_t i = 0; i < t->nspecial; i++) {
        const tok_special *sp = &t->special[i];
        if (hit[i] == SIZE_MAX || hit[i] < pos) {
            const char *h = sp->n <= n - pos ? memmem(s + pos, n - pos, sp->s, sp->n)
                                             : NULL;
            hit[i] = h != NULL ? (size_t)(h - s) : n;
        }
        if (hit[i] >= n)
            continue;
        if (best == NULL || hit[i] < best_at || (hit[i] == best_at && sp->n > best->n)) {
            best = sp;
            best_at = hit[i];
        }
    }
    *at = best_at;
    return best;
}

int bh_tok_encode(const bh_tok *t, bh_tok_ws *ws, const char *text, size_t n,
                  unsigned flags, bh_tok_ids *out)
{
    const uint8_t *s = (const uint8_t *)text;
    size_t pos = 0, at;

    if (!(flags & BH_TOK_SPECIAL) || t->nspecial == 0)
        return encode_model(t, ws, s, n, out);
    if (bh_tok_grow((void **)&ws->sp_hit, &ws->sp_cap, t->nspecial, sizeof(size_t)) != 0)
        return -1;
    for (size_t i = 0; i < t->nspecial; i++)
        ws->sp_hit[i] = SIZE_MAX;
    while (pos < n) {
        const tok_special *sp = next_special(t, ws->sp_hit, text, n, pos, &at);
        if (sp == NULL)
            return encode_model(t, ws, s + pos, n - pos, out);
        if (encode_model(t, ws, s + pos, at - pos, out) != 0 ||
            bh_tok_ids_push(out, sp->id) != 0)
            return -1;
        pos = at + sp->n;
    }
    return 0;
}

int bh_tok_decode(const bh_tok *t, const int32_t *ids, size_t n,
                  bh_tok_bytes *out)
{
    if (t->kind == TOK_KIND_WP)
        return bh_wp_decode(t, ids, n, out);
    if (t->kind == TOK_KIND_SPM)
        return bh_spm_decode(t, ids, n, out);
    for (size_t i = 0; i < n; i++) {
        int32_t id = ids[i];
        if (id < 0 || (size_t)id >= t->nids || t->id_off[id] == ID_NONE)
            return -1;
        if (bh_tok_bytes_append(out, t->id_blob + t->id_off[id],
                                t->id_len[id]) != 0)
            return -2;
    }
    return 0;
}

int bh_tok_normalize(const bh_tok *t, bh_tok_ws *ws, const char *text,
                     size_t n, bh_tok_bytes *out)
{
    (void)ws;
    if (t->kind == TOK_KIND_WP)
        return bh_bert_normalize(&t->wp, (const uint8_t *)text, n, out);
    if (t->kind == TOK_KIND_SPM)
        return bh_spm_normalize(&t->spm, (const uint8_t *)text, n, out);
    return bh_tok_bytes_append(out, text, n);
}
