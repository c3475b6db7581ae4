// SPDX-License-Identifier: MIT
/*
 * tok_spm_load.c -- SentencePiece .model (ModelProto) loading: pieces with
 * scores and types, trainer_spec (model_type, byte_fallback,
 * treat_whitespace_as_suffix) and normalizer_spec (precompiled_charsmap,
 * add_dummy_prefix, remove_extra_whitespaces, escape_whitespaces). Builds
 * the piece maps, the byte trie used by unigram Viterbi and the decode table.
 */
#include "tok_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define F_PIECES 1
#define F_TRAINER 2
#define F_NORMALIZER 3

typedef struct spm_raw {
    const uint8_t **piece;
    size_t *plen;
    float *score;
    uint8_t *type;
    size_t n, cap;
} spm_raw;

/* Appends one SentencePiece message to raw; 0, -1 malformed, -2 OOM. */
static int parse_piece(const uint8_t *p, size_t n, spm_raw *raw)
{
    pb_rd r = {p, p + n};
    uint32_t f, wt;
    uint64_t v;
    const uint8_t *d = NULL;
    size_t len = 0;
    int k;
    const uint8_t *text = NULL;
    size_t tlen = 0;
    float score = 0;
    uint64_t type = SPM_NORMAL;

    while ((k = bh_pb_next(&r, &f, &wt, &v, &d, &len)) == 1) {
        if (f == 1 && wt == 2) {
            text = d;
            tlen = len;
        } else if (f == 2 && wt == 5) {
            uint32_t u = (uint32_t)v;
            memcpy(&score, &u, 4);
        } else if (f == 3 && wt == 0) {
            type = v;
        }
    }
    if (k < 0)
        return -1;
    if (raw->n == raw->cap) {
        size_t c = raw->cap;
        size_t c1 = c, c2 = c, c3 = c, c4 = c;
        if (bh_tok_grow((void **)&raw->piece, &c1, c + 1, sizeof(*raw->piece)) ||
            bh_tok_grow((void **)&raw->plen, &c2, c + 1, sizeof(*raw->plen)) ||
            bh_tok_grow((void **)&raw->score, &c3, c + 1, sizeof(*raw->score)) ||
            bh_tok_grow((void **)&raw->type, &c4, c + 1, sizeof(*raw->type)))
            return -2;
        raw->cap = c1;
    }
    raw->piece[raw->n] = text;
    raw->plen[raw->n] = tlen;
    raw->score[raw->n] = score;
    raw->type[raw->n] = type > 255 ? 255 : (uint8_t)type;
    raw->n++;
    return 0;
}

/* Reads model_type, byte_fallback and treat_whitespace_as_suffix. */
static int parse_trainer(bh_spm *m, const uint8_t *p, size_t n)
{
    pb_rd r = {p, p + n};
    uint32_t f, wt;
    uint64_t v;
    const uint8_t *d;
    size_t len;
    int k;
    while ((k = bh_pb_next(&r, &f, &wt, &v, &d, &len)) == 1) {
        if (wt != 0)
            continue;
        if (f == 3)
            m->model_type = v > 100 ? 100 : (int)v;
        else if (f == 35)
            m->byte_fallback = v != 0;
        else if (f == 24)
            m->ws_as_suffix = v != 0;
    }
    return k;
}

/* Validates and copies the darts-clone charsmap blob. */
static int set_charsmap(bh_spm *m, const uint8_t *p, size_t n)
{
    uint32_t tsize;
    if (n < 4)
        return -1;
    memcpy(&tsize, p, 4);
    if (tsize % 4 != 0 || tsize == 0 || tsize > n - 4)
        return -1;
    m->charsmap_copy = malloc(n);
    if (m->charsmap_copy == NULL)
        return -1;
    memcpy(m->charsmap_copy, p, n);
    m->charsmap_units = (const uint32_t *)(void *)(m->charsmap_copy + 4);
    m->charsmap_nunits = tsize / 4;
    m->charsmap_str = (const char *)m->charsmap_copy + 4 + tsize;
    m->charsmap_nstr = n - 4 - tsize;
    return 0;
}

/* Reads the charsmap and the whitespace flags; -2 bad charsmap. */
static int parse_normalizer(bh_spm *m, const uint8_t *p, size_t n)
{
    pb_rd r = {p, p + n};
    uint32_t f, wt;
    uint64_t v;
    const uint8_t *d;
    size_t len;
    int k;
    while ((k = bh_pb_next(&r, &f, &wt, &v, &d, &len)) == 1) {
        if (f == 2 && wt == 2 && len > 0) {
            free(m->charsmap_copy);
            m->charsmap_copy = NULL;
            if (set_charsmap(m, d, len) != 0)
                return -2;
        } else if (wt == 0 && f == 3) {
            m->add_dummy_prefix = v != 0;
        } else if (wt == 0 && f == 4) {
            m->remove_extra_ws = v != 0;
        } else if (wt == 0 && f == 5) {
            m->escape_ws = v != 0;
        }
    }
    return k;
}

/* True when s[0..n) is valid UTF-8. */
static bool valid_utf8(const uint8_t *s, size_t n)
{
    size_t len;
    for (size_t i = 0; i < n; i += len)
        if (bh_utf8_dec(s + i, n - i, &len) == TOK_BAD_CP)
            return false;
    return true;
}

static int build(bh_tok *t, const spm_raw *raw, const char *path, char *err,
                 size_t cap)
{
    bh_spm *m = &t->spm;

    m->npieces = raw->n;
    m->score = malloc(raw->n * sizeof(float));
    m->type = malloc(raw->n);
    if (m->score == NULL || m->type == NULL || bh_tok_set_ids(t, raw->n) != 0)
        return bh_tok_err(err, cap, "%s: out of memory", path);
    m->unk_id = -1;
    m->min_score = 3.402823466e+38F; /* FLT_MAX, as SentencePiece starts */
    m->max_score = 1.175494351e-38F; /* FLT_MIN (sic), as SentencePiece */
    for (int b = 0; b < 256; b++)
        m->byte_piece[b] = -1;
    for (size_t i = 0; i < raw->n; i++) {
        const uint8_t *s = raw->piece[i];
        size_t n = raw->plen[i];
        uint8_t ty = raw->type[i];
        m->score[i] = raw->score[i];
        m->type[i] = ty;
        if (ty < SPM_NORMAL || ty > SPM_BYTE)
            return bh_tok_err(err, cap, "%s: piece %zu has unknown type %u", path,
                              i, ty);
        if (n == 0 || s == NULL)
            return bh_tok_err(err, cap, "%s: piece %zu is empty", path, i);
        if (!valid_utf8(s, n))
            return bh_tok_err(err, cap, "%s: piece %zu is not valid UTF-8", path, i);
        bool normal = ty == SPM_NORMAL || ty == SPM_USER || ty == SPM_UNUSED;
        int ins = bh_strmap_put(normal ? &m->pieces : &m->reserved, s, n,
                                (int32_t)i, NULL);
        if (ins < 0)
            return bh_tok_err(err, cap, "%s: out of memory", path);
        if (ins > 0)
            return bh_tok_err(err, cap, "%s: piece %zu \"%.*s\" is already defined",
                              path, i, (int)(n > 40 ? 40 : n), (const char *)s);
        if (bh_tok_set_id(t, i, s, n) != 0)
            return bh_tok_err(err, cap, "%s: out of memory", path);
        if (ty == SPM_NORMAL) {
            if (isnan(raw->score[i]))
                return bh_tok_err(err, cap, "%s: piece %zu has a NaN score", path, i);
            if (raw->score[i] < m->min_score)
                m->min_score = raw->score[i];
            if (raw->score[i] > m->max_score)
                m->max_score = raw->score[i];
        }
        if (ty == SPM_UNUSED)
            m->has_unused = true;
        if (ty == SPM_UNKNOWN) {
            if (m->unk_id >= 0)
                return bh_tok_err(err, cap, "%s: more than one unknown piece", path);
            m->unk_id = (int32_t)i;
        }
        if (ty == SPM_USER) {
            m->has_user = true;
            if (n > m->max_user_len)
                m->max_user_len = n;
            m->user_first[s[0] >> 3] |= (uint8_t)(1u << (s[0] & 7));
            if (bh_strmap_put(&m->user, s, n, (int32_t)i, NULL) < 0)
                return bh_tok_err(err, cap, "%s: out of memory", path);
        }
        if (ty == SPM_BYTE) {
            unsigned hi, lo;
            static const char hex[] = "0123456789ABCDEF";
            const char *h1, *h2;
            if (!m->byte_fallback)
                return bh_tok_err(err, cap, "%s: byte piece %zu without "
                                  "byte_fallback", path, i);
            if (n != 6 || memcmp(s, "<0x", 3) != 0 || s[5] != '>' ||
                (h1 = memchr(hex, s[3], 16)) == NULL ||
                (h2 = memchr(hex, s[4], 16)) == NULL)
                return bh_tok_err(err, cap, "%s: byte piece %zu is not <0xXX>",
                                  path, i);
            hi = (unsigned)(h1 - hex);
            lo = (unsigned)(h2 - hex);
            m->byte_piece[hi * 16 + lo] = (int32_t)i;
        }
    }
    if (m->unk_id < 0)
        return bh_tok_err(err, cap, "%s: no unknown (<unk>) piece", path);
    bh_spm_norm_init(m);
    m->bpe_chunks = m->model_type == 2;
    for (size_t i = 0; i < m->pieces.n && m->bpe_chunks; i++) {
        size_t pn;
        const char *pk = bh_strmap_key(&m->pieces, i, &pn);
        for (size_t k = 1; k + 3 <= pn; k++)
            if (memcmp(pk + k, "\xe2\x96\x81", 3) == 0)
                m->bpe_chunks = false;
    }
    if (m->model_type == 1 && bh_spm_trie_build(m) != 0)
        return bh_tok_err(err, cap, "%s: out of memory", path);
    if (m->byte_fallback)
        for (int b = 0; b < 256; b++)
            if (m->byte_piece[b] < 0)
                return bh_tok_err(err, cap, "%s: byte_fallback but no piece "
                                  "<0x%02X>", path, b);
    return 0;
}

/* Loads a SentencePiece .model into t; 0 or -1 with err set. */
int bh_load_spm(bh_tok *t, const char *path, char *err, size_t cap)
{
    size_t len;
    char *buf = bh_tok_read_file(path, TOK_MAX_FILE, &len, err, cap);
    spm_raw raw = {0};
    bh_spm *m = &t->spm;
    int rc = -1, k;

    if (buf == NULL)
        return -1;
    t->kind = TOK_KIND_SPM;
    m->model_type = 1;
    m->add_dummy_prefix = m->remove_extra_ws = m->escape_ws = true;
    pb_rd r = {(const uint8_t *)buf, (const uint8_t *)buf + len};
    uint32_t f, wt;
    uint64_t v;
    const uint8_t *d;
    size_t dl;
    while ((k = bh_pb_next(&r, &f, &wt, &v, &d, &dl)) == 1) {
        if (wt != 2)
            continue;
        int e = 0;
        if (f == F_PIECES)
            e = parse_piece(d, dl, &raw);
        else if (f == F_TRAINER)
            e = parse_trainer(m, d, dl);
        else if (f == F_NORMALIZER)
            e = parse_normalizer(m, d, dl);
        if (e == -2) {
            bh_tok_err(err, cap, "%s: bad precompiled_charsmap or out of memory",
                       path);
            goto out;
        }
        if (e < 0) {
            bh_tok_err(err, cap, "%s: malformed protobuf inside field %u", path, f);
            goto out;
        }
    }
    if (k < 0) {
        bh_tok_err(err, cap, "%s: not a SentencePiece model (malformed protobuf "
                   "at byte %zu)", path, (size_t)(r.p - (const uint8_t *)buf));
        goto out;
    }
    if (raw.n == 0) {
        bh_tok_err(err, cap, "%s: no pieces (not a SentencePiece model)", path);
        goto out;
    }
    if (raw.n > TOK_MAX_IDS) {
        bh_tok_err(err, cap, "%s: %zu pieces is too many", path, raw.n);
        goto out;
    }
    if (m->model_type != 1 && m->model_type != 2) {
        bh_tok_err(err, cap, "%s: model_type %d is not supported (unigram and "
                   "BPE are)", path, m->model_type);
        goto out;
    }
    rc = build(t, &raw, path, err, cap);
out:
    free(raw.piece);
    free(raw.plen);
    free(raw.score);
    free(raw.type);
    free(buf);
    return rc;
}
