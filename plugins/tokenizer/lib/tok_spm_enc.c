// SPDX-License-Identifier: MIT
/*
 * tok_spm_enc.c -- SentencePiece encoding after normalization, as Debian's
 * sentencepiece 0.1.97 does it:
 *  - unigram: the one-pass Viterbi of EncodeOptimized over UTF-8 positions
 *    (float path scores, user-defined pieces scored length * max_score - 0.1
 *    in double, unknown characters min_score - 10, ties keep the earliest);
 *  - BPE: repeatedly merge the adjacent pair whose concatenation is a piece
 *    with the highest score (ties: leftmost), user-defined symbols frozen,
 *    UNUSED pieces split back into their halves;
 *  - output: byte_fallback turns an unknown piece into <0xXX> pieces, else
 *    consecutive unknown pieces merge into one.
 * This file is built with -ffp-contract=off so float sums match.
 */
#include "tok_internal.h"

#include <stdlib.h>
#include <string.h>

/* SentencePiece's OneCharLen: UTF-8 length from the lead byte. */
static size_t one_char_len(uint8_t b)
{
    static const uint8_t t[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    return t[b >> 4];
}

/* Appends piece (text s[0..n), id) to out with unknown merging or byte
 * fallback; *prev_unk tracks whether the last emitted id was unknown. */
static int emit(const bh_spm *m, const uint8_t *s, size_t n, int32_t id,
                bool *prev_unk, bh_tok_ids *out)
{
    if (id != m->unk_id) {
        *prev_unk = false;
        return bh_tok_ids_push(out, id);
    }
    if (m->byte_fallback) {
        for (size_t i = 0; i < n; i++)
            if (bh_tok_ids_push(out, m->byte_piece[s[i]]) != 0)
                return -1;
        *prev_unk = false;
        return 0;
    }
    if (*prev_unk)
        return 0;
    *prev_unk = true;
    return bh_tok_ids_push(out, id);
}

static int unigram(const bh_spm *m, bh_tok_ws *ws, const uint8_t *s, size_t n,
                   bh_tok_ids *out)
{
    const float unk_score = m->min_score - 10.0F;
    size_t need = n + 1;

    if (need > ws->v_cap) {
        size_t c1 = ws->v_cap, c2 = ws->v_cap, c3 = ws->v_cap;
        if (bh_tok_grow((void **)&ws->vs, &c1, need, sizeof(float)) ||
            bh_tok_grow((void **)&ws->vstart, &c2, need, sizeof(int32_t)) ||
            bh_tok_grow((void **)&ws->vid, &c3, need, sizeof(int32_t)))
            return -1;
        ws->v_cap = c1;
    }
    float *score = ws->vs;
    int32_t *start = ws->vstart, *vid = ws->vid;
    for (size_t i = 0; i <= n; i++) {
        score[i] = 0;
        start[i] = -1;
        vid[i] = -1;
    }
    size_t at = 0;
    while (at < n) {
        const float till = score[at];
        size_t mblen = one_char_len(s[at]);
        bool single = false;
        const bh_spm_trie *tr = &m->trie;
        size_t slot = 0;
        if (mblen > n - at)
            mblen = n - at;
        for (size_t k = at; k < n; k++) {
            size_t next = (size_t)tr->base[slot] + s[k];
            if (next >= tr->size || tr->check[next] != (int32_t)slot)
                break;
            slot = next;
            int32_t id = tr->id[slot];
            if (id < 0)
                continue;
            size_t end = k + 1, length = end - at;
            double cand = tr->score[slot] + (double)till;
            if (start[end] == -1 || cand > (double)score[end]) {
                score[end] = (float)cand;
                start[end] = (int32_t)at;
                vid[end] = id;
            }
            if (length == mblen)
                single = true;
        }
        if (!single) {
            size_t end = at + mblen;
            float cand = unk_score + till;
            if (start[end] == -1 || cand > score[end]) {
                score[end] = cand;
                start[end] = (int32_t)at;
                vid[end] = m->unk_id;
            }
        }
        at += mblen;
    }
    /* backtrack into p_pos (piece starts, reversed), then emit forward */
    size_t cnt = 0;
    if (n + 1 > ws->p_cap) {
        size_t c = ws->p_cap;
        if (bh_tok_grow((void **)&ws->p_pos, &c, n + 1, sizeof(uint32_t)))
            return -1;
        size_t c2 = ws->p_cap;
        if (bh_tok_grow((void **)&ws->p_id, &c2, n + 1, sizeof(int32_t)))
            return -1;
        /* keep the other BPE arrays consistent with p_cap */
        size_t c3 = ws->p_cap, c4 = ws->p_cap, c5 = ws->p_cap, c6 = ws->p_cap;
        if (bh_tok_grow((void **)&ws->p_rank, &c3, n + 1, sizeof(uint32_t)) ||
            bh_tok_grow((void **)&ws->p_mid, &c4, n + 1, sizeof(uint32_t)) ||
            bh_tok_grow((void **)&ws->p_prev, &c5, n + 1, sizeof(int32_t)) ||
            bh_tok_grow((void **)&ws->p_next, &c6, n + 1, sizeof(int32_t)))
            return -1;
        ws->p_cap = c;
    }
    for (size_t e = n; e > 0;) {
        ws->p_pos[cnt++] = (uint32_t)e;
        e = (size_t)start[e];
    }
    bool prev_unk = false;
    size_t b = 0;
    while (cnt > 0) {
        size_t e = ws->p_pos[--cnt];
        if (emit(m, s + b, e - b, vid[e], &prev_unk, out) != 0)
            return -1;
        b = e;
    }
    return 0;
}

int bh_spm_encode(const bh_tok *t, bh_tok_ws *ws, const uint8_t *s, size_t n,
                  bh_tok_ids *out)
{
    ws->norm.n = 0;
    if (bh_spm_normalize(&t->spm, s, n, &ws->norm) != 0)
        return -1;
    if (ws->norm.n == 0)
        return 0;
    if (t->spm.model_type == 2)
        return bh_spm_bpe(&t->spm, ws, (const uint8_t *)ws->norm.p, ws->norm.n,
                          out);
    return unigram(&t->spm, ws, (const uint8_t *)ws->norm.p, ws->norm.n, out);
}

/* Writes the output form of one emitted piece. */
static int emit_for_bpe(const bh_spm *m, const uint8_t *s, size_t n,
                        bool *prev_unk, bh_tok_ids *out)
{
    int32_t id = bh_strmap_get(&m->reserved, s, n);
    if (id < 0)
        id = bh_strmap_get(&m->pieces, s, n);
    if (id < 0)
        id = m->unk_id;
    return emit(m, s, n, id, prev_unk, out);
}

int bh_spm_emit_piece(const bh_spm *m, const uint8_t *s, size_t n,
                      bool *prev_unk, bh_tok_ids *out)
{
    return emit_for_bpe(m, s, n, prev_unk, out);
}

int bh_spm_decode(const bh_tok *t, const int32_t *ids, size_t n,
                  bh_tok_bytes *out)
{
    const bh_spm *m = &t->spm;
    static const char kSpace[] = "\xe2\x96\x81";
    bool bos = true;

    for (size_t i = 0; i < n; i++) {
        int32_t id = ids[i];
        if (id < 0 || (size_t)id >= m->npieces)
            return -1;
        const char *p = t->id_blob + t->id_off[id];
        size_t len = t->id_len[id];
        uint8_t ty = m->type[id];
        if (ty == SPM_CONTROL)
            continue;
        if (ty == SPM_UNKNOWN) {
            if (bh_tok_bytes_append(out, " \xE2\x81\x87 ", 5) != 0)
                return -2;
            bos = false;
            continue;
        }
        if (ty == SPM_BYTE) {
            unsigned b = 0;
            for (int k = 3; k < 5; k++)
                b = b * 16 + (unsigned)(p[k] <= '9' ? p[k] - '0' : p[k] - 'A' + 10);
            char c = (char)b;
            if (bh_tok_bytes_append(out, &c, 1) != 0)
                return -2;
            bos = false;
            continue;
        }
        if (bos && (m->add_dummy_prefix || m->remove_extra_ws) && len >= 3 &&
            memcmp(p, kSpace, 3) == 0) {
            p += 3;
            len -= 3;
        }
        for (size_t k = 0; k < len;) {
            if (k + 3 <= len && memcmp(p + k, kSpace, 3) == 0) {
                if (bh_tok_bytes_append(out, " ", 1) != 0)
                    return -2;
                k += 3;
            } else {
                if (bh_tok_bytes_append(out, p + k, 1) != 0)
                    return -2;
                k++;
            }
        }
        if (len > 0)
            bos = false;
    }
    return 0;
}
