// SPDX-License-Identifier: MIT
/*
 * tok_load_bpe.c -- loaders for byte-level BPE vocabularies: tiktoken rank
 * files ("base64(token) rank" per line) and GPT-2's encoder.json + vocab.bpe
 * pair. Every malformed input is a one-line error naming file and line.
 */
#include "tok_internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Value of one base64 digit, or -1. */
static int b64val(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Decodes standard base64 (with '=' padding) s[0..n) into out (capacity
 * >= n). Returns the byte count or -1 when malformed. */
static long b64dec(const char *s, size_t n, uint8_t *out)
{
    size_t o = 0;
    if (n == 0 || n % 4 != 0)
        return -1;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)s[i + k];
            if (c == '=' && i + 4 == n && k >= 2) {
                v[k] = 0;
                pad++;
            } else {
                if (pad != 0 || (v[k] = b64val(c)) < 0)
                    return -1;
            }
        }
        uint32_t w = ((uint32_t)v[0] << 18) | ((uint32_t)v[1] << 12) |
                     ((uint32_t)v[2] << 6) | (uint32_t)v[3];
        out[o++] = (uint8_t)(w >> 16);
        if (pad < 2)
            out[o++] = (uint8_t)(w >> 8);
        if (pad < 1)
            out[o++] = (uint8_t)w;
    }
    return (long)o;
}

/* Parses a decimal rank; -1 when not a plain number below TOK_MAX_IDS. */
static long parse_rank(const char *s, size_t n)
{
    long v = 0;
    if (n == 0 || n > 9)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v < (long)TOK_MAX_IDS ? v : -1;
}

/* Checks that every single byte is a token and fills byte_id. */
static int need_bytes(bh_tok *t, const char *path, char *err, size_t cap)
{
    for (int b = 0; b < 256; b++) {
        uint8_t c = (uint8_t)b;
        t->bpe.byte_id[b] = bh_strmap_get(&t->bpe.tokens, &c, 1);
        if (t->bpe.byte_id[b] < 0)
            return bh_tok_err(err, cap,
                              "%s: byte 0x%02X has no token; a byte-level "
                              "vocabulary needs all 256", path, b);
    }
    return 0;
}

/* Fills the id -> bytes table from the token map (ids < nids). */
static int ids_from_tokens(bh_tok *t, size_t nids, const char *path, char *err,
                           size_t cap)
{
    if (bh_tok_set_ids(t, nids) != 0)
        return bh_tok_err(err, cap, "%s: out of memory", path);
    for (size_t i = 0; i < t->bpe.tokens.n; i++) {
        size_t n;
        const char *k = bh_strmap_key(&t->bpe.tokens, i, &n);
        if (bh_tok_set_id(t, (size_t)t->bpe.tokens.val[i], k, n) != 0)
            return bh_tok_err(err, cap, "%s: out of memory", path);
    }
    return 0;
}

/* Grows the zeroed flag table *seen (*n entries) to cover index r.
 * Returns 0, or -1 when out of memory (*seen is then unchanged). */
static int grow_seen(uint8_t **seen, size_t *n, size_t r)
{
    size_t old = *n;
    if (bh_tok_grow((void **)seen, n, r + 1, 1) != 0)
        return -1;
    memset(*seen + old, 0, *n - old);
    return 0;
}

int bh_load_tiktoken(bh_tok *t, const char *path, int pretok, char *err,
                     size_t cap)
{
    size_t len, line = 0, maxrank = 0, nseen = 0;
    char *buf = bh_tok_read_file(path, TOK_MAX_FILE, &len, err, cap);
    uint8_t *tok = NULL;
    uint8_t *seen = NULL; /* seen[r]: rank r was given; grows with the
                             largest rank (a fixed TOK_MAX_IDS table cost
                             4 MB of zeroing per load of a small file) */
    int rc = -1;

    if (buf == NULL)
        return -1;
    t->kind = TOK_KIND_BPE;
    t->bpe.mode = BPE_RANKS;
    t->bpe.pretok = pretok;
    t->bpe.whole_fast = true;
    tok = malloc(len + 1);
    if (tok == NULL) {
        bh_tok_err(err, cap, "%s: out of memory", path);
        goto out;
    }
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && buf[e] != '\n')
            e++;
        line++;
        size_t le = e > i && buf[e - 1] == '\r' ? e - 1 : e;
        if (le > i) {
            const char *sp = memchr(buf + i, ' ', le - i);
            if (sp == NULL) {
                bh_tok_err(err, cap, "%s:%zu: expected 'base64 rank'", path, line);
                goto out;
            }
            long n = b64dec(buf + i, (size_t)(sp - (buf + i)), tok);
            long r = parse_rank(sp + 1, (size_t)(buf + le - (sp + 1)));
            if (n <= 0) {
                bh_tok_err(err, cap, "%s:%zu: invalid base64 token", path, line);
                goto out;
            }
            if (r < 0) {
                bh_tok_err(err, cap, "%s:%zu: invalid rank (a number below %u)",
                           path, line, TOK_MAX_IDS);
                goto out;
            }
            if ((size_t)r >= nseen && grow_seen(&seen, &nseen, (size_t)r) != 0) {
                bh_tok_err(err, cap, "%s: out of memory", path);
                goto out;
            }
            if (seen[r]) {
                bh_tok_err(err, cap, "%s:%zu: duplicate rank %ld", path, line, r);
                goto out;
            }
            seen[r] = 1;
            int ins = bh_strmap_put(&t->bpe.tokens, tok, (size_t)n, (int32_t)r,
                                    NULL);
            if (ins < 0) {
                bh_tok_err(err, cap, "%s: out of memory", path);
                goto out;
            }
            if (ins > 0) {
                bh_tok_err(err, cap, "%s:%zu: duplicate token", path, line);
                goto out;
            }
            if ((size_t)r > maxrank)
                maxrank = (size_t)r;
        }
        i = e + 1;
    }
    if (t->bpe.tokens.n == 0) {
        bh_tok_err(err, cap, "%s: no tokens (empty or not a rank file)", path);
        goto out;
    }
    /* room for the encodings' special tokens above the ranks */
    if (need_bytes(t, path, err, cap) != 0 ||
        ids_from_tokens(t, maxrank + 1, path, err, cap) != 0)
        goto out;
    rc = 0;
out:
    free(seen);
    free(tok);
    free(buf);
    return rc;
}

/* Adds one encoder.json / tokenizer.json vocab entry whose key is in GPT-2's
 * byte-level alphabet. */
static int add_bytelevel_token(bh_tok *t, const char *key, int id,
                               uint8_t *tmp, const char *path, char *err,
                               size_t cap)
{
    long n = bh_bytelevel_unmap(key, strlen(key), tmp);
    if (n < 0)
        return bh_tok_err(err, cap, "%s: token \"%.40s\" is not in the "
                          "byte-level alphabet", path, key);
    if (id < 0 || (unsigned)id >= TOK_MAX_IDS)
        return bh_tok_err(err, cap, "%s: token \"%.40s\" has id %d out of range",
                          path, key, id);
    int ins = bh_strmap_put(&t->bpe.tokens, tmp, (size_t)n, id, NULL);
    if (ins < 0)
        return bh_tok_err(err, cap, "%s: out of memory", path);
    if (ins > 0)
        return bh_tok_err(err, cap, "%s: duplicate token \"%.40s\"", path, key);
    return 0;
}

/* Reads a JSON object token -> id in byte-level form into t->bpe.tokens. */
int bh_bpe_vocab_from_json(bh_tok *t, const cJSON *vocab, const char *path,
                           char *err, size_t cap, size_t *maxid)
{
    const cJSON *it;
    uint8_t *tmp = NULL;
    size_t tmpcap = 0;
    *maxid = 0;
    if (!cJSON_IsObject(vocab))
        return bh_tok_err(err, cap, "%s: vocabulary is not a JSON object", path);
    cJSON_ArrayForEach(it, vocab)
    {
        if (!cJSON_IsNumber(it) || it->valuedouble != (double)it->valueint) {
            free(tmp);
            return bh_tok_err(err, cap, "%s: token \"%.40s\" has no integer id",
                              path, it->string ? it->string : "");
        }
        size_t kl = strlen(it->string);
        if (bh_tok_grow((void **)&tmp, &tmpcap, kl + 1, 1) != 0 ||
            add_bytelevel_token(t, it->string, it->valueint, tmp, path, err,
                                cap) != 0) {
            free(tmp);
            return -1;
        }
        if ((size_t)it->valueint > *maxid)
            *maxid = (size_t)it->valueint;
    }
    free(tmp);
    if (t->bpe.tokens.n == 0)
        return bh_tok_err(err, cap, "%s: empty vocabulary", path);
    return 0;
}

/* Adds merge rule (a b) with rank; a and b are byte-level token texts. */
int bh_bpe_add_merge(bh_tok *t, const char *a, size_t an, const char *b,
                     size_t bn, uint32_t rank, const char *path, size_t line,
                     char *err, size_t cap)
{
    uint8_t ab[512];
    if (an + bn > sizeof(ab) / 2)
        return bh_tok_err(err, cap, "%s:%zu: merge too long", path, line);
    long la = bh_bytelevel_unmap(a, an, ab);
    long lb = la < 0 ? -1 : bh_bytelevel_unmap(b, bn, ab + la);
    if (la <= 0 || lb <= 0)
        return bh_tok_err(err, cap, "%s:%zu: merge is not in the byte-level "
                          "alphabet", path, line);
    int32_t ia = bh_strmap_get(&t->bpe.tokens, ab, (size_t)la);
    int32_t ib = bh_strmap_get(&t->bpe.tokens, ab + la, (size_t)lb);
    int32_t im = bh_strmap_get(&t->bpe.tokens, ab, (size_t)(la + lb));
    if (ia < 0 || ib < 0 || im < 0)
        return bh_tok_err(err, cap, "%s:%zu: merge \"%.*s %.*s\" names a token "
                          "missing from the vocabulary", path, line, (int)an, a,
                          (int)bn, b);
    uint64_t key = ((uint64_t)(uint32_t)ia << 32) | (uint32_t)ib, old;
    if (bh_u64map_get(&t->bpe.pairs, key, &old))
        return 0; /* a repeated merge keeps its first (lowest) rank */
    if (bh_u64map_put(&t->bpe.pairs, key, ((uint64_t)rank << 32) | (uint32_t)im) != 0)
        return bh_tok_err(err, cap, "%s: out of memory", path);
    return 0;
}

/* Byte ids and the id -> bytes table after the vocab and merges are in. */
int bh_bpe_finish(bh_tok *t, size_t maxid, const char *path, char *err,
                  size_t cap)
{
    if (need_bytes(t, path, err, cap) != 0 ||
        ids_from_tokens(t, maxid + 1, path, err, cap) != 0)
        return -1;
    if (!t->bpe.whole_fast && bh_bpe_mark_whole(t) != 0)
        return bh_tok_err(err, cap, "%s: out of memory", path);
    return 0;
}

int bh_load_gpt2(bh_tok *t, const char *encoder_json, const char *vocab_bpe,
                 char *err, size_t cap)
{
    size_t jlen, blen, maxid, line = 0;
    uint32_t rank = 0;
    char *json = NULL, *bpe = NULL;
    cJSON *root = NULL;
    int rc = -1;

    t->kind = TOK_KIND_BPE;
    t->bpe.mode = BPE_MERGES;
    t->bpe.pretok = PRETOK_GPT2;
    json = bh_tok_read_file(encoder_json, TOK_MAX_FILE, &jlen, err, cap);
    if (json == NULL)
        goto out;
    bpe = bh_tok_read_file(vocab_bpe, TOK_MAX_FILE, &blen, err, cap);
    if (bpe == NULL)
        goto out;
    root = cJSON_ParseWithLength(json, jlen);
    if (root == NULL) {
        bh_tok_err(err, cap, "%s: not valid JSON", encoder_json);
        goto out;
    }
    if (bh_bpe_vocab_from_json(t, root, encoder_json, err, cap, &maxid) != 0)
        goto out;
    for (size_t i = 0; i < blen;) {
        size_t e = i;
        while (e < blen && bpe[e] != '\n')
            e++;
        line++;
        size_t le = e > i && bpe[e - 1] == '\r' ? e - 1 : e;
        if (le > i && !(line == 1 && bpe[i] == '#')) {
            const char *sp = memchr(bpe + i, ' ', le - i);
            if (sp == NULL || sp == bpe + i || sp + 1 == bpe + le ||
                memchr(sp + 1, ' ', (size_t)(bpe + le - sp - 1)) != NULL) {
                bh_tok_err(err, cap, "%s:%zu: expected 'left right'", vocab_bpe,
                           line);
                goto out;
            }
            if (bh_bpe_add_merge(t, bpe + i, (size_t)(sp - bpe - i), sp + 1,
                                 (size_t)(bpe + le - sp - 1), rank++, vocab_bpe,
                                 line, err, cap) != 0)
                goto out;
        }
        i = e + 1;
    }
    if (rank == 0) {
        bh_tok_err(err, cap, "%s: no merges", vocab_bpe);
        goto out;
    }
    if (bh_bpe_finish(t, maxid, encoder_json, err, cap) != 0)
        goto out;
    {
        int32_t eot = bh_strmap_get(&t->bpe.tokens, "<|endoftext|>", 13);
        if (eot >= 0 && bh_tok_add_special(t, "<|endoftext|>", 13, eot) != 0) {
            bh_tok_err(err, cap, "%s: out of memory", encoder_json);
            goto out;
        }
    }
    rc = 0;
out:
    cJSON_Delete(root);
    free(json);
    free(bpe);
    return rc;
}
