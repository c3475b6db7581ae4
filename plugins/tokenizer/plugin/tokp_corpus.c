// SPDX-License-Identifier: MIT
/*
 * tokp_corpus.c -- where the tokenizer plugin finds its vocabularies (the
 * cache tools/tokenizer/fetch.sh fills) and its corpora (built-in generated
 * text, the worst cases, or files).
 */
#include "tokp.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* True when p is a regular file. */
static bool exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The vocabulary directory: vocab_dir, $BHOST_TOKENIZER_CACHE/vocab or
 * $HOME/.cache/bhost/tokenizer/vocab. */
static void vocab_root(const char *vocab_dir, char *out, size_t cap)
{
    const char *env = getenv("BHOST_TOKENIZER_CACHE");
    const char *home = getenv("HOME");
    if (vocab_dir != NULL && vocab_dir[0] != '\0')
        snprintf(out, cap, "%s", vocab_dir);
    else if (env != NULL && env[0] != '\0')
        snprintf(out, cap, "%s/vocab", env);
    else
        snprintf(out, cap, "%s/.cache/bhost/tokenizer/vocab", home ? home : ".");
}

bhost_status bh_tokp_vocab(bhost_host *h, const char *name, const char *vocab_dir,
                           const char **format, char paths[2][1024],
                           size_t *npaths)
{
    static const struct { const char *name, *format, *f1, *f2; } tab[] = {
        {"gpt2", "gpt2", "gpt2-encoder.json", "gpt2-vocab.bpe"},
        {"r50k", "r50k", "r50k_base.tiktoken", NULL},
        {"p50k", "p50k", "p50k_base.tiktoken", NULL},
        {"cl100k", "cl100k", "cl100k_base.tiktoken", NULL},
        {"o200k", "o200k", "o200k_base.tiktoken", NULL},
        {"bert", "bert", "bert-base-uncased-vocab.txt", NULL},
        {"hf-bert", "hf", "bert-base-uncased-tokenizer.json", NULL},
        {"hf-gpt2", "hf", "gpt2-tokenizer.json", NULL},
        {"albert", "spm", "albert-30k-clean.model", NULL},
        {"spm-unigram", "spm", "spm-unigram-8k.model", NULL},
        {"spm-bpe", "spm", "spm-bpe-8k.model", NULL},
    };
    char root[900];
    vocab_root(vocab_dir, root, sizeof(root));
    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
        if (strcmp(tab[i].name, name) != 0)
            continue;
        *format = tab[i].format;
        snprintf(paths[0], 1024, "%s/%s", root, tab[i].f1);
        *npaths = 1;
        if (tab[i].f2 != NULL) {
            snprintf(paths[1], 1024, "%s/%s", root, tab[i].f2);
            *npaths = 2;
        }
        for (size_t k = 0; k < *npaths; k++)
            if (!exists(paths[k]))
                return bh_plugin_fail(h, BHOST_E_SKIP,
                                      "%s missing: run tools/tokenizer/fetch.sh "
                                      "(or set vocab_dir)", paths[k]);
        return BHOST_OK;
    }
    return bh_plugin_fail(h, BHOST_E_INVALID, "unknown vocab '%s'", name);
}

/* Deterministic English-like text: words, punctuation, numbers, some
 * accents and CJK, lines of 40..200 bytes. */
static char *generate(uint64_t seed, size_t target, size_t *n)
{
    static const char *const words[] = {
        "the", "of", "and", "to", "in", "is", "that", "it", "was", "for",
        "on", "are", "with", "as", "his", "they", "be", "at", "one", "have",
        "this", "from", "or", "had", "by", "word", "but", "what", "some",
        "we", "can", "out", "other", "were", "all", "there", "when", "up",
        "use", "your", "how", "said", "an", "each", "she", "which", "do",
        "their", "time", "if", "will", "way", "about", "many", "then",
        "them", "write", "would", "like", "so", "these", "her", "long",
        "make", "thing", "see", "him", "two", "has", "look", "more", "day",
        "could", "go", "come", "did", "number", "sound", "no", "most",
        "people", "my", "over", "know", "water", "than", "call", "first",
        "benchmark", "tokenizer", "throughput", "latency", "vocabulary",
        "It's", "don't", "we'll", "THE", "Kernel", "printf", "caf\xc3\xa9",
        "na\xc3\xafve", "\xe4\xb8\xad\xe6\x96\x87", "\xe6\x97\xa5\xe6\x9c\xac",
        "r\xc3\xa9sum\xc3\xa9", "\xd0\xbc\xd0\xb8\xd1\x80",
    };
    static const char *const punct[] = {" ", " ", " ", " ", " ", ", ", ". ",
                                        "; ", " (", ") ", ": ", "! ", "? "};
    const size_t nw = sizeof(words) / sizeof(words[0]);
    char *buf = malloc(target + 512);
    size_t len = 0, line = 0;
    uint64_t s = seed;
    if (buf == NULL)
        return NULL;
    while (len < target) {
        uint64_t r = bh_rng_next(&s);
        const char *w = words[r % nw];
        size_t wl = strlen(w);
        if ((r >> 20) % 23 == 0) {
            len += (size_t)snprintf(buf + len, 32, "%u", (unsigned)((r >> 32) % 100000));
        } else {
            memcpy(buf + len, w, wl);
            len += wl;
        }
        line += wl;
        if (line > 40 + (r >> 40) % 160) {
            buf[len++] = '\n';
            line = 0;
        } else {
            const char *p = punct[(r >> 8) % (sizeof(punct) / sizeof(punct[0]))];
            size_t pl = strlen(p);
            memcpy(buf + len, p, pl);
            len += pl;
        }
    }
    buf[len++] = '\n';
    buf[len] = '\0';
    *n = len;
    return buf;
}

/* A malloc'd text of unit repeated to at least target bytes. */
static char *repeat(const char *unit, size_t target, size_t *n)
{
    size_t ul = strlen(unit), len = 0;
    char *buf = malloc(target + ul + 2);
    if (buf == NULL)
        return NULL;
    while (len < target) {
        memcpy(buf + len, unit, ul);
        len += ul;
    }
    buf[len] = '\0';
    *n = len;
    return buf;
}

bhost_status bh_tokp_corpus_load(bhost_host *h, const char *spec, uint64_t seed,
                                 size_t limit, tokp_corpus *c)
{
    char err[512], path[1024];
    memset(c, 0, sizeof(*c));
    if (strcmp(spec, "builtin") == 0) {
        c->text = generate(seed, limit ? limit : (1u << 20), &c->n);
    } else if (strcmp(spec, "builtin-nospace") == 0) {
        c->text = repeat("abcdefghijklmnopqrstuvwxyz", limit ? limit : (1u << 20), &c->n);
    } else if (strcmp(spec, "builtin-cjk") == 0) {
        c->text = repeat("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97\xe7\xac\xa6\xe4\xb8\xb2",
                         limit ? limit : (1u << 20), &c->n);
    } else {
        const char *env = getenv("BHOST_TOKENIZER_CACHE");
        const char *home = getenv("HOME");
        if (strcmp(spec, "en") == 0 || strcmp(spec, "mixed") == 0) {
            if (env != NULL && env[0] != '\0')
                snprintf(path, sizeof(path), "%s/corpus/corpus-%s.txt", env, spec);
            else
                snprintf(path, sizeof(path), "%s/.cache/bhost/tokenizer/corpus/corpus-%s.txt",
                         home ? home : ".", spec);
        } else {
            snprintf(path, sizeof(path), "%s", spec);
        }
        c->text = bh_tok_read_file(path, (size_t)1 << 30, &c->n, err, sizeof(err));
        if (c->text == NULL)
            return bh_plugin_fail(h, BHOST_E_SKIP, "corpus: %s", err);
        if (limit > 0 && c->n > limit) {
            size_t k = limit;
            while (k > 0 && c->text[k - 1] != '\n')
                k--;
            c->n = k ? k : limit;
            c->text[c->n] = '\0';
        }
    }
    if (c->text == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "corpus: out of memory");
    size_t cap = 0;
    for (size_t i = 0; i < c->n;) {
        const char *e = memchr(c->text + i, '\n', c->n - i);
        size_t len = e ? (size_t)(e - (c->text + i)) : c->n - i;
        if (c->nlines == cap) {
            cap = cap ? cap * 2 : 1024;
            const char **l = realloc(c->lines, cap * sizeof(*l));
            if (l == NULL)
                return bh_plugin_fail(h, BHOST_E_NOMEM, "corpus: out of memory");
            c->lines = l;
            size_t *ln = realloc(c->lens, cap * sizeof(*ln));
            if (ln == NULL)
                return bh_plugin_fail(h, BHOST_E_NOMEM, "corpus: out of memory");
            c->lens = ln;
        }
        c->lines[c->nlines] = c->text + i;
        c->lens[c->nlines++] = len;
        i += len + 1;
    }
    return BHOST_OK;
}

/* See tokp.h. */
void bh_tokp_corpus_free(tokp_corpus *c)
{
    free(c->text);
    free(c->lines);
    free(c->lens);
    memset(c, 0, sizeof(*c));
}

/* See tokp.h. */
uint64_t bh_tokp_digest(uint64_t d, const int32_t *ids, size_t n)
{
    if (d == 0)
        d = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) {
        d ^= (uint32_t)ids[i];
        d *= UINT64_C(0x100000001b3);
    }
    d ^= 0xFFFFFFFFu; /* line separator */
    d *= UINT64_C(0x100000001b3);
    return d;
}
