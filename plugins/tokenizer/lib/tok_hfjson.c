// SPDX-License-Identifier: MIT
/*
 * tok_hfjson.c -- Hugging Face tokenizer.json (cJSON): byte-level BPE models
 * (GPT-2, RoBERTa, Llama-3-style Split + ByteLevel pipelines whose regex is
 * one of the known pre-tokenizers) and WordPiece models with the
 * BertNormalizer and BertPreTokenizer. Other pipelines are refused with a
 * message naming the component, never guessed.
 */
#include "tok_internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* String member key of o, or NULL. */
static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* True when o is an object whose "type" is type. */
static bool is_type(const cJSON *o, const char *type)
{
    const char *s = str_of(o, "type");
    return s != NULL && strcmp(s, type) == 0;
}

/* true unless key is present and false (absent/null keeps the default). */
static bool flag(const cJSON *o, const char *key, bool dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v);
    return dflt;
}

/* One-line "unsupported tokenizer.json" error; returns -1. */
static int bad(const char *path, const char *what, char *err, size_t cap)
{
    return bh_tok_err(err, cap, "%s: unsupported tokenizer.json: %s", path, what);
}

/* The pre-token regex of a ByteLevel or Split+ByteLevel pipeline. */
static int bpe_pretok(const cJSON *pt, const char *path, char *err, size_t cap)
{
    if (is_type(pt, "ByteLevel")) {
        if (flag(pt, "add_prefix_space", true))
            return bad(path, "ByteLevel add_prefix_space=true", err, cap);
        if (!flag(pt, "use_regex", true))
            return bad(path, "ByteLevel without a regex", err, cap);
        return PRETOK_GPT2;
    }
    if (!is_type(pt, "Sequence"))
        return bad(path, "pre_tokenizer is neither ByteLevel nor Sequence", err,
                   cap);
    const cJSON *seq = cJSON_GetObjectItemCaseSensitive(pt, "pretokenizers");
    if (cJSON_GetArraySize(seq) != 2)
        return bad(path, "pre_tokenizer Sequence other than Split+ByteLevel",
                   err, cap);
    const cJSON *split = cJSON_GetArrayItem(seq, 0);
    const cJSON *bl = cJSON_GetArrayItem(seq, 1);
    if (!is_type(split, "Split") || !is_type(bl, "ByteLevel") ||
        flag(bl, "use_regex", true) || flag(bl, "add_prefix_space", true) ||
        flag(split, "invert", false))
        return bad(path, "pre_tokenizer Sequence other than Split+ByteLevel",
                   err, cap);
    const char *beh = str_of(split, "behavior");
    const char *re = str_of(cJSON_GetObjectItemCaseSensitive(split, "pattern"),
                            "Regex");
    if (beh == NULL || strcmp(beh, "Isolated") != 0 || re == NULL)
        return bad(path, "Split is not an isolated regex", err, cap);
    for (int k = PRETOK_GPT2; k <= PRETOK_O200K; k++)
        if (strcmp(re, bh_pretok_pattern(k)) == 0)
            return k;
    return bad(path, "Split regex is not the GPT-2, cl100k or o200k pattern",
               err, cap);
}

static int load_bpe(bh_tok *t, const cJSON *root, const cJSON *model,
                    const char *path, char *err, size_t cap)
{
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(root, "normalizer");
    const cJSON *merges = cJSON_GetObjectItemCaseSensitive(model, "merges");
    const cJSON *it;
    size_t maxid;
    uint32_t rank = 0;

    t->kind = TOK_KIND_BPE;
    t->bpe.mode = BPE_MERGES;
    if (norm != NULL && !cJSON_IsNull(norm))
        return bad(path, "a normalizer on a BPE model", err, cap);
    if (str_of(model, "continuing_subword_prefix") != NULL ||
        str_of(model, "end_of_word_suffix") != NULL ||
        flag(model, "byte_fallback", false))
        return bad(path, "BPE subword prefix/suffix or byte_fallback", err, cap);
    int pt = bpe_pretok(cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer"),
                        path, err, cap);
    if (pt < 0)
        return -1;
    t->bpe.pretok = pt;
    t->bpe.whole_fast = flag(model, "ignore_merges", false);
    if (bh_bpe_vocab_from_json(t, cJSON_GetObjectItemCaseSensitive(model, "vocab"),
                               path, err, cap, &maxid) != 0)
        return -1;
    if (!cJSON_IsArray(merges))
        return bh_tok_err(err, cap, "%s: model.merges is not an array", path);
    cJSON_ArrayForEach(it, merges)
    {
        const char *a, *b;
        size_t an, bn;
        if (cJSON_IsString(it)) {
            const char *sp = strchr(it->valuestring, ' ');
            if (sp == NULL || strchr(sp + 1, ' ') != NULL)
                return bh_tok_err(err, cap, "%s: merge %u is not 'left right'",
                                  path, rank);
            a = it->valuestring;
            an = (size_t)(sp - a);
            b = sp + 1;
            bn = strlen(b);
        } else if (cJSON_GetArraySize(it) == 2 &&
                   cJSON_IsString(cJSON_GetArrayItem(it, 0)) &&
                   cJSON_IsString(cJSON_GetArrayItem(it, 1))) {
            a = cJSON_GetArrayItem(it, 0)->valuestring;
            b = cJSON_GetArrayItem(it, 1)->valuestring;
            an = strlen(a);
            bn = strlen(b);
        } else {
            return bh_tok_err(err, cap, "%s: merge %u is neither a string nor a "
                              "pair", path, rank);
        }
        if (bh_bpe_add_merge(t, a, an, b, bn, rank, path, rank + 1u, err, cap) != 0)
            return -1;
        rank++;
    }
    return bh_bpe_finish(t, maxid, path, err, cap);
}

static int load_wordpiece(bh_tok *t, const cJSON *root, const cJSON *model,
                          const char *path, char *err, size_t cap)
{
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(root, "normalizer");
    const cJSON *pt = cJSON_GetObjectItemCaseSensitive(root, "pre_tokenizer");
    const cJSON *vocab = cJSON_GetObjectItemCaseSensitive(model, "vocab");
    const cJSON *it;
    size_t maxid = 0;
    bh_wp *wp = &t->wp;

    t->kind = TOK_KIND_WP;
    bh_wp_init_defaults(wp);
    if (!is_type(norm, "BertNormalizer"))
        return bad(path, "WordPiece without the BertNormalizer", err, cap);
    if (!is_type(pt, "BertPreTokenizer"))
        return bad(path, "WordPiece without the BertPreTokenizer", err, cap);
    wp->clean_text = flag(norm, "clean_text", true);
    wp->chinese_chars = flag(norm, "handle_chinese_chars", true);
    wp->lowercase = flag(norm, "lowercase", true);
    wp->strip_accents = flag(norm, "strip_accents", wp->lowercase);
    const char *pre = str_of(model, "continuing_subword_prefix");
    if (pre != NULL) {
        if (strlen(pre) >= sizeof(wp->prefix))
            return bad(path, "continuing_subword_prefix too long", err, cap);
        wp->prefix_n = strlen(pre);
        memcpy(wp->prefix, pre, wp->prefix_n + 1);
    }
    const cJSON *mx = cJSON_GetObjectItemCaseSensitive(model,
                                                       "max_input_chars_per_word");
    if (cJSON_IsNumber(mx) && mx->valuedouble >= 1 && mx->valuedouble < 1e6)
        wp->max_chars = (size_t)mx->valuedouble;
    if (!cJSON_IsObject(vocab))
        return bh_tok_err(err, cap, "%s: model.vocab is not an object", path);
    cJSON_ArrayForEach(it, vocab)
    {
        if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
            it->valuedouble >= TOK_MAX_IDS || it->valuedouble != (double)it->valueint)
            return bh_tok_err(err, cap, "%s: token \"%.40s\" has a bad id", path,
                              it->string);
        int ins = bh_strmap_put(&wp->vocab, it->string, strlen(it->string),
                                it->valueint, NULL);
        if (ins != 0)
            return bh_tok_err(err, cap, ins > 0 ? "%s: duplicate token \"%.40s\""
                                               : "%s: out of memory (%.40s)",
                             path, it->string);
        if ((size_t)it->valueint > maxid)
            maxid = (size_t)it->valueint;
    }
    if (wp->vocab.n == 0 || bh_tok_set_ids(t, maxid + 1) != 0)
        return bh_tok_err(err, cap, "%s: empty vocabulary", path);
    for (size_t i = 0; i < wp->vocab.n; i++) {
        size_t kn;
        const char *k = bh_strmap_key(&wp->vocab, i, &kn);
        if (bh_tok_set_id(t, (size_t)wp->vocab.val[i], k, kn) != 0)
            return bh_tok_err(err, cap, "%s: out of memory", path);
    }
    const char *unk = str_of(model, "unk_token");
    return bh_wp_finish(t, unk != NULL ? unk : "[UNK]", path, err, cap);
}

/* added_tokens: every entry is matched in raw text under BH_TOK_SPECIAL. */
static int added_tokens(bh_tok *t, const cJSON *root, const char *path,
                        char *err, size_t cap)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "added_tokens");
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "id");
        const char *content = str_of(it, "content");
        if (!cJSON_IsNumber(id) || content == NULL || id->valuedouble < 0 ||
            id->valuedouble >= TOK_MAX_IDS)
            return bh_tok_err(err, cap, "%s: malformed added_tokens entry", path);
        if (flag(it, "lstrip", false) || flag(it, "rstrip", false) ||
            flag(it, "single_word", false))
            return bad(path, "added token with lstrip/rstrip/single_word", err,
                       cap);
        size_t n = strlen(content);
        if (bh_tok_extend_ids(t, (size_t)id->valueint + 1) != 0 ||
            (t->id_off[id->valueint] == UINT32_MAX &&
             bh_tok_set_id(t, (size_t)id->valueint, content, n) != 0) ||
            (bh_tok_special_id(t, content) < 0 &&
             bh_tok_add_special(t, content, n, id->valueint) != 0))
            return bh_tok_err(err, cap, "%s: out of memory", path);
    }
    return 0;
}

/* Loads tokenizer.json at path into t; 0 or -1 with err set. */
int bh_load_hf_json(bh_tok *t, const char *path, char *err, size_t cap)
{
    size_t len;
    char *buf = bh_tok_read_file(path, TOK_MAX_FILE, &len, err, cap);
    cJSON *root = NULL;
    int rc = -1;

    if (buf == NULL)
        return -1;
    root = cJSON_ParseWithLength(buf, len);
    if (root == NULL) {
        bh_tok_err(err, cap, "%s: not valid JSON", path);
        goto out;
    }
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    if (!cJSON_IsObject(model)) {
        bh_tok_err(err, cap, "%s: no \"model\" object (not a tokenizer.json)",
                   path);
        goto out;
    }
    if (is_type(model, "BPE"))
        rc = load_bpe(t, root, model, path, err, cap);
    else if (is_type(model, "WordPiece"))
        rc = load_wordpiece(t, root, model, path, err, cap);
    else
        rc = bad(path, "model type is not BPE or WordPiece", err, cap);
    if (rc == 0)
        rc = added_tokens(t, root, path, err, cap);
out:
    cJSON_Delete(root);
    free(buf);
    return rc;
}
