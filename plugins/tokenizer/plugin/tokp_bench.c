// SPDX-License-Identifier: MIT
/*
 * tokp_bench.c -- the tokenizer benchmarks: encode, decode, batch (threads),
 * load, latency (chat-message sized texts) and normalize. All share one
 * instance type and one parameter list. setup() computes the reference
 * digest of the ids with an independent path: a second tokenizer loaded
 * from the same files, a fresh workspace, one line at a time (or the ids
 * of a reference file when ref_ids names one); verify() compares the digest
 * of the last run() against it.
 *
 * Counting: bytes_per_iter is the text a pass processes: the bytes of the
 * corpus lines read (encode, batch, normalize: the line breaks between
 * them are never read; latency: the mean message), the text
 * bytes written (decode), none for load; no FLOPs. The 4-byte ids written
 * or read and the vocabulary lookups are not counted (bytes/s stays the
 * text throughput tokenizers are compared by), so a roofline fraction is
 * a lower bound. items: tokens (encode, batch, decode), lines
 * (normalize), calls (latency), loads (load). Work profile: read (decode:
 * read-write), no compute class, 1 thread (batch: 'threads'), working set
 * the text plus its ids (4 bytes per token) where tokens are counted.
 */
#include "tokp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define K_ENCODE 1
#define K_DECODE 2
#define K_BATCH 3
#define K_LOAD 4
#define K_LATENCY 5
#define K_NORMALIZE 6
#define MAX_MSGS 64

typedef struct tokp_inst {
    bhost_host *h;
    int kind;
    char vocab[32], corpus[1024], vocab_dir[1024], ref_ids[1024];
    int64_t threads, limit, msg_bytes;
    const char *format;
    char paths[2][1024];
    size_t npaths;
    bh_tok *t, *t2;
    bh_tok_ws *ws;
    tokp_corpus c;
    bh_tok_ids ids;
    bh_tok_ids *outs;
    bh_tok_bytes text;
    int32_t *all_ids;   /* decode: ids of every line, concatenated */
    size_t *line_off;   /* decode: nlines + 1 offsets into all_ids */
    uint64_t ref_digest, run_digest, ref_units, run_units;
    double work_bytes, work_items;
    size_t vocab_size, nmsgs, msg_i;
    uint64_t msg_digest[MAX_MSGS];
    int msg_bad;
} tokp_inst;

static const char *const vocab_choices[] = {
    "gpt2", "r50k", "p50k", "cl100k", "o200k", "bert", "hf-bert", "hf-gpt2",
    "albert", "spm-unigram", "spm-bpe", NULL};

#define P(type, key, sum, dflt, ch, lo, hi) \
    {sizeof(bhost_param_desc), type, key, sum, dflt, ch, lo, hi}
static const bhost_param_desc params[] = {
    P(BHOST_PARAM_STR, "vocab", "tokenizer model", "cl100k", vocab_choices, 1, 0),
    P(BHOST_PARAM_STR, "corpus",
      "builtin, builtin-nospace, builtin-cjk, en, mixed or a file path",
      "builtin", NULL, 1, 0),
    P(BHOST_PARAM_I64, "limit", "corpus bytes to use (0: all)", "0", NULL, 0,
      1073741824.0),
    P(BHOST_PARAM_I64, "threads", "threads for the batch benchmark", "1", NULL,
      1, 256),
    P(BHOST_PARAM_I64, "msg_bytes", "latency: message size in bytes", "200",
      NULL, 16, 65536),
    P(BHOST_PARAM_STR, "vocab_dir",
      "vocabulary directory (empty: the tools/tokenizer/fetch.sh cache)", "",
      NULL, 1, 0),
    P(BHOST_PARAM_STR, "ref_ids",
      "file of reference ids (one line per corpus line) to verify against",
      "", NULL, 1, 0),
};
static const bhost_param_desc params_norm[] = {
    P(BHOST_PARAM_STR, "vocab", "tokenizer model", "bert", vocab_choices, 1, 0),
    P(BHOST_PARAM_STR, "corpus",
      "builtin, builtin-nospace, builtin-cjk, en, mixed or a file path",
      "builtin", NULL, 1, 0),
    P(BHOST_PARAM_I64, "limit", "corpus bytes to use (0: all)", "0", NULL, 0,
      1073741824.0),
    P(BHOST_PARAM_I64, "threads", "threads for the batch benchmark", "1", NULL,
      1, 256),
    P(BHOST_PARAM_I64, "msg_bytes", "latency: message size in bytes", "200",
      NULL, 16, 65536),
    P(BHOST_PARAM_STR, "vocab_dir",
      "vocabulary directory (empty: the tools/tokenizer/fetch.sh cache)", "",
      NULL, 1, 0),
    P(BHOST_PARAM_STR, "ref_ids",
      "file of reference ids (one line per corpus line) to verify against",
      "", NULL, 1, 0),
};
#define NPARAMS ((uint32_t)(sizeof(params) / sizeof(params[0])))

/* The prefix of parameter messages (plugins/common's readers). */
#define TOKP_PREFIX "tokenizer: "

/* Reads the parameters into a new instance of benchmark kind. [instance] */
static bhost_status create_kind(bhost_host *h, void **out, int kind)
{
    tokp_inst *p = bh_tokp_api->alloc(h, sizeof(*p), 0);
    bhost_status st;
    if (p == NULL)
        return bh_plugin_fail(h, BHOST_E_NOMEM, "out of memory");
    memset(p, 0, sizeof(*p));
    p->h = h;
    p->kind = kind;
    *out = p;
    /* The ranges are the descriptors' (params, params_norm). */
    if ((st = bh_plugin_str(h, TOKP_PREFIX, "vocab", p->vocab, sizeof(p->vocab))) != BHOST_OK ||
        (st = bh_plugin_str(h, TOKP_PREFIX, "corpus", p->corpus, sizeof(p->corpus))) != BHOST_OK ||
        (st = bh_plugin_str(h, TOKP_PREFIX, "vocab_dir", p->vocab_dir, sizeof(p->vocab_dir))) !=
            BHOST_OK ||
        (st = bh_plugin_str(h, TOKP_PREFIX, "ref_ids", p->ref_ids, sizeof(p->ref_ids))) !=
            BHOST_OK ||
        (st = bh_plugin_i64(h, TOKP_PREFIX, "threads", 1, 256, &p->threads)) != BHOST_OK ||
        (st = bh_plugin_i64(h, TOKP_PREFIX, "limit", 0, 1073741824, &p->limit)) != BHOST_OK ||
        (st = bh_plugin_i64(h, TOKP_PREFIX, "msg_bytes", 16, 65536, &p->msg_bytes)) != BHOST_OK)
        return st;
    return bh_tokp_vocab(h, p->vocab, p->vocab_dir, &p->format, p->paths,
                         &p->npaths);
}

/* Loads the case's tokenizer; NULL after set_error. [instance] */
static bh_tok *load(tokp_inst *p)
{
    char err[512];
    const char *paths[2] = {p->paths[0], p->paths[1]};
    bh_tok *t = bh_tok_load(p->format, paths, p->npaths, err, sizeof(err));
    if (t == NULL)
        bh_plugin_fail(p->h, BHOST_E_INVALID, "%s", err);
    return t;
}

/* Digest of the ids in a reference file (one line of ids per corpus line). */
static bhost_status file_digest(tokp_inst *p, uint64_t *d, uint64_t *units)
{
    char err[512];
    size_t n;
    char *buf = bh_tok_read_file(p->ref_ids, (size_t)1 << 31, &n, err, sizeof(err));
    size_t lines = 0;
    if (buf == NULL)
        return bh_plugin_fail(p->h, BHOST_E_INVALID, "ref_ids: %s", err);
    *d = 0;
    *units = 0;
    for (char *s = buf; s < buf + n && lines < p->c.nlines;) {
        char *e = memchr(s, '\n', (size_t)(buf + n - s));
        if (e == NULL)
            e = buf + n;
        p->ids.n = 0;
        for (char *q = s; q < e;) {
            char *end;
            long v = strtol(q, &end, 10);
            if (end == q)
                break;
            bh_tok_ids_push(&p->ids, (int32_t)v);
            q = end;
        }
        *d = bh_tokp_digest(*d, p->ids.v, p->ids.n);
        *units += p->ids.n;
        lines++;
        s = e + 1;
    }
    free(buf);
    if (lines != p->c.nlines)
        return bh_plugin_fail(p->h, BHOST_E_INVALID, "ref_ids: %zu lines for %zu "
                              "corpus lines", lines, p->c.nlines);
    return BHOST_OK;
}

/* Reference digest of the encoded corpus, by the independent path. */
static bhost_status reference(tokp_inst *p)
{
    bh_tok_ws *ws2 = bh_tok_ws_new(p->t2);
    bh_tok_bytes tb = {0};
    if (ws2 == NULL)
        return bh_plugin_fail(p->h, BHOST_E_NOMEM, "out of memory");
    p->ref_digest = 0;
    p->ref_units = 0;
    for (size_t i = 0; i < p->c.nlines; i++) {
        p->ids.n = 0;
        if (bh_tok_encode(p->t2, ws2, p->c.lines[i], p->c.lens[i], 0, &p->ids) != 0)
            break;
        if (p->kind == K_NORMALIZE) {
            tb.n = 0;
            bh_tok_normalize(p->t2, ws2, p->c.lines[i], p->c.lens[i], &tb);
            int32_t fake = (int32_t)bh_tokp_digest(0, (const int32_t *)(const void *)tb.p,
                                                   tb.n / 4);
            p->ref_digest = bh_tokp_digest(p->ref_digest, &fake, 1);
            p->ref_units += tb.n;
        } else if (p->kind == K_DECODE) {
            tb.n = 0;
            if (bh_tok_decode(p->t2, p->ids.v, p->ids.n, &tb) != 0)
                break;
            int32_t fake = (int32_t)bh_tokp_digest(0, (const int32_t *)(const void *)tb.p,
                                                   tb.n / 4);
            p->ref_digest = bh_tokp_digest(p->ref_digest, &fake, 1);
            p->ref_units += tb.n;
        } else {
            p->ref_digest = bh_tokp_digest(p->ref_digest, p->ids.v, p->ids.n);
            p->ref_units += p->ids.n;
        }
    }
    bh_tok_bytes_free(&tb);
    bh_tok_ws_free(ws2);
    return BHOST_OK;
}

/* Untimed: loads two tokenizers, the corpus and the reference digest. [instance] */
static bhost_status BHOST_ABI tokp_setup(void *inst, bhost_stream *s)
{
    tokp_inst *p = inst;
    bhost_status st;
    (void)s;
    if ((p->t = load(p)) == NULL || (p->t2 = load(p)) == NULL)
        return BHOST_E_INVALID;
    p->vocab_size = bh_tok_vocab_size(p->t);
    if ((p->ws = bh_tok_ws_new(p->t)) == NULL)
        return bh_plugin_fail(p->h, BHOST_E_NOMEM, "out of memory");
    if (p->kind == K_LOAD) {
        p->work_items = 1;
        return BHOST_OK;
    }
    if (p->kind == K_NORMALIZE && strcmp(bh_tok_kind(p->t), "bpe") == 0)
        return bh_plugin_fail(p->h, BHOST_E_SKIP, "byte-level BPE has no normalizer");
    st = bh_tokp_corpus_load(p->h, p->kind == K_LATENCY ? "builtin" : p->corpus,
                             bh_tokp_api->seed(p->h),
                             p->kind == K_LATENCY ? (size_t)p->msg_bytes * MAX_MSGS
                                                : (size_t)p->limit, &p->c);
    if (st != BHOST_OK)
        return st;
    if (p->kind == K_LATENCY) {
        /* regroup the text into messages of about msg_bytes */
        size_t m = 0, start = 0;
        for (size_t i = 0; i < p->c.nlines && m < MAX_MSGS; i++) {
            size_t end = (size_t)(p->c.lines[i] - p->c.text) + p->c.lens[i];
            if (end - start >= (size_t)p->msg_bytes || i + 1 == p->c.nlines) {
                p->c.lines[m] = p->c.text + start;
                p->c.lens[m++] = end - start;
                start = end + 1;
            }
        }
        p->c.nlines = m;
        p->nmsgs = m;
    }
    if ((st = reference(p)) != BHOST_OK)
        return st;
    if (p->ref_ids[0] != '\0' && (p->kind == K_ENCODE || p->kind == K_BATCH)) {
        uint64_t d, u;
        if ((st = file_digest(p, &d, &u)) != BHOST_OK)
            return st;
        if (d != p->ref_digest)
            return bh_plugin_fail(p->h, BHOST_E_VERIFY, "ids differ from %s",
                                  p->ref_ids);
    }
    if (p->kind == K_LATENCY) {
        bh_tok_ws *ws2 = bh_tok_ws_new(p->t2);
        if (ws2 == NULL)
            return BHOST_E_NOMEM;
        double bytes = 0;
        for (size_t i = 0; i < p->nmsgs; i++) {
            p->ids.n = 0;
            bh_tok_encode(p->t2, ws2, p->c.lines[i], p->c.lens[i], 0, &p->ids);
            p->msg_digest[i] = bh_tokp_digest(0, p->ids.v, p->ids.n);
            bytes += (double)p->c.lens[i];
        }
        bh_tok_ws_free(ws2);
        p->work_bytes = p->nmsgs ? bytes / (double)p->nmsgs : 0;
        p->work_items = 1;
        return BHOST_OK;
    }
    if (p->kind == K_BATCH) {
        p->outs = calloc(p->c.nlines ? p->c.nlines : 1, sizeof(*p->outs));
        if (p->outs == NULL)
            return BHOST_E_NOMEM;
    }
    if (p->kind == K_DECODE) {
        p->line_off = malloc((p->c.nlines + 1) * sizeof(size_t));
        bh_tok_ids all = {0};
        if (p->line_off == NULL)
            return BHOST_E_NOMEM;
        for (size_t i = 0; i < p->c.nlines; i++) {
            p->line_off[i] = all.n;
            if (bh_tok_encode(p->t, p->ws, p->c.lines[i], p->c.lens[i], 0, &all) != 0)
                return BHOST_E_NOMEM;
        }
        p->line_off[p->c.nlines] = all.n;
        p->all_ids = all.v;
        p->work_items = (double)all.n;
        p->work_bytes = (double)p->ref_units;
        return BHOST_OK;
    }
    /* the lines' bytes: the newlines between them are never handed over */
    p->work_bytes = 0;
    for (size_t i = 0; i < p->c.nlines; i++)
        p->work_bytes += (double)p->c.lens[i];
    p->work_items = p->kind == K_NORMALIZE ? (double)p->c.nlines : (double)p->ref_units;
    return BHOST_OK;
}

/* One pass of the benchmark's work over the corpus. [instance] */
static bhost_status run_once(tokp_inst *p)
{
    p->run_digest = 0;
    p->run_units = 0;
    if (p->kind == K_BATCH) {
        if (bh_tok_encode_batch(p->t, p->c.lines, p->c.lens, p->c.nlines, 0,
                                (unsigned)p->threads, p->outs) != 0)
            return bh_plugin_fail(p->h, BHOST_E_NOMEM, "batch encode failed");
        for (size_t i = 0; i < p->c.nlines; i++) {
            p->run_digest = bh_tokp_digest(p->run_digest, p->outs[i].v, p->outs[i].n);
            p->run_units += p->outs[i].n;
        }
        return BHOST_OK;
    }
    for (size_t i = 0; i < p->c.nlines; i++) {
        if (p->kind == K_DECODE || p->kind == K_NORMALIZE) {
            p->text.n = 0;
            int rc = p->kind == K_DECODE
                         ? bh_tok_decode(p->t, p->all_ids + p->line_off[i],
                                         p->line_off[i + 1] - p->line_off[i], &p->text)
                         : bh_tok_normalize(p->t, p->ws, p->c.lines[i], p->c.lens[i],
                                            &p->text);
            if (rc != 0)
                return bh_plugin_fail(p->h, BHOST_E_INTERNAL, "line %zu failed", i + 1);
            int32_t fake = (int32_t)bh_tokp_digest(
                0, (const int32_t *)(const void *)p->text.p, p->text.n / 4);
            p->run_digest = bh_tokp_digest(p->run_digest, &fake, 1);
            p->run_units += p->text.n;
            continue;
        }
        p->ids.n = 0;
        if (bh_tok_encode(p->t, p->ws, p->c.lines[i], p->c.lens[i], 0, &p->ids) != 0)
            return bh_plugin_fail(p->h, BHOST_E_NOMEM, "encode failed");
        p->run_digest = bh_tokp_digest(p->run_digest, p->ids.v, p->ids.n);
        p->run_units += p->ids.n;
    }
    return BHOST_OK;
}

/* Timed by the host: iters passes; reports tokens_per_s. [instance] */
static bhost_status BHOST_ABI tokp_run(void *inst, bhost_stream *s, uint64_t iters)
{
    tokp_inst *p = inst;
    uint64_t t0 = bh_tokp_api->now_ns(p->h);
    (void)s;
    for (uint64_t it = 0; it < iters; it++) {
        if (p->kind == K_LOAD) {
            bh_tok *t = load(p);
            if (t == NULL)
                return BHOST_E_INVALID;
            p->vocab_size = bh_tok_vocab_size(t);
            bh_tok_free(t);
            continue;
        }
        if (p->kind == K_LATENCY) {
            size_t i = p->msg_i++ % p->nmsgs;
            p->ids.n = 0;
            if (bh_tok_encode(p->t, p->ws, p->c.lines[i], p->c.lens[i], 0, &p->ids) != 0)
                return BHOST_E_NOMEM;
            if (bh_tokp_digest(0, p->ids.v, p->ids.n) != p->msg_digest[i])
                p->msg_bad = 1;
            continue;
        }
        bhost_status st = run_once(p);
        if (st != BHOST_OK)
            return st;
        bhost_do_not_optimize(&p->run_digest);
    }
    /* tokens/s as an extra metric; the host's own timing stays the
     * authority (items/s is the same figure from the median) */
    uint64_t dt = bh_tokp_api->now_ns(p->h) - t0;
    if (dt > 0 && (p->kind == K_ENCODE || p->kind == K_BATCH || p->kind == K_DECODE))
        bh_plugin_metric(p->h, "tokens_per_s", "1/s", BHOST_HIGHER_IS_BETTER,
                         p->work_items * (double)iters * 1e9 / (double)dt);
    return BHOST_OK;
}

/* BHOST_E_VERIFY when the last run's digest differs from the reference. [instance] */
static bhost_status BHOST_ABI tokp_verify(void *inst)
{
    tokp_inst *p = inst;
    if (p->kind == K_LOAD)
        return p->vocab_size == bh_tok_vocab_size(p->t2)
                   ? BHOST_OK
                   : bh_plugin_fail(p->h, BHOST_E_VERIFY, "loaded %zu ids, expected %zu",
                                    p->vocab_size, bh_tok_vocab_size(p->t2));
    if (p->kind == K_LATENCY)
        return p->msg_bad ? bh_plugin_fail(p->h, BHOST_E_VERIFY,
                                           "a message's ids differ from the reference")
                          : BHOST_OK;
    if (p->run_digest != p->ref_digest || p->run_units != p->ref_units)
        return bh_plugin_fail(p->h, BHOST_E_VERIFY,
                              "digest %016llx (%llu units) != reference %016llx (%llu)",
                              (unsigned long long)p->run_digest,
                              (unsigned long long)p->run_units,
                              (unsigned long long)p->ref_digest,
                              (unsigned long long)p->ref_units);
    return BHOST_OK;
}

/* Frees everything the instance owns. [instance] */
static void BHOST_ABI tokp_destroy(void *inst)
{
    tokp_inst *p = inst;
    if (p == NULL)
        return;
    bh_tok_ws_free(p->ws);
    bh_tok_free(p->t);
    bh_tok_free(p->t2);
    bh_tokp_corpus_free(&p->c);
    bh_tok_ids_free(&p->ids);
    bh_tok_bytes_free(&p->text);
    if (p->outs != NULL)
        for (size_t i = 0; i < p->c.nlines || i == 0; i++)
            bh_tok_ids_free(&p->outs[i]);
    free(p->outs);
    free(p->all_ids);
    free(p->line_off);
    bh_tokp_api->free(p->h, p);
}

/* Bytes of text per iteration. [instance] */
static double BHOST_ABI tokp_bytes(void *inst)
{
    return ((tokp_inst *)inst)->work_bytes;
}

/* The work profile of the counting note at the top. [instance] */
static bhost_status BHOST_ABI tokp_profile(void *inst, bhost_work_profile *out)
{
    const tokp_inst *p = inst;
    int tokens = p->kind == K_ENCODE || p->kind == K_BATCH || p->kind == K_DECODE;
    bhost_access access = p->kind == K_LOAD     ? BHOST_ACCESS_UNKNOWN
                          : p->kind == K_DECODE ? BHOST_ACCESS_READ_WRITE
                                                : BHOST_ACCESS_READ;

    return bh_plugin_profile(out, access, BHOST_COMPUTE_NONE,
                             p->kind == K_BATCH ? (unsigned)p->threads : 1u,
                             p->work_bytes + (tokens ? 4.0 * p->work_items : 0.0));
}

/* Tokens (or calls, loads, lines) per iteration. [instance] */
static double BHOST_ABI tokp_items(void *inst)
{
    return ((tokp_inst *)inst)->work_items;
}

#define CREATE(name, kind)                                                     \
    static bhost_status BHOST_ABI name(bhost_host *h, const bhost_backend *be, \
                                       bhost_dev *dev, void **inst)            \
    {                                                                          \
        (void)be;                                                              \
        (void)dev;                                                             \
        return create_kind(h, inst, kind);                                     \
    }
CREATE(c_encode, K_ENCODE)
CREATE(c_decode, K_DECODE)
CREATE(c_batch, K_BATCH)
CREATE(c_load, K_LOAD)
CREATE(c_latency, K_LATENCY)
CREATE(c_normalize, K_NORMALIZE)

#define DESC(var, id, sum, create, plist)                                      \
    const bhost_bench_desc var = {                                             \
        sizeof(bhost_bench_desc), 0, id, sum, plist, NPARAMS, 0, 0, create,    \
        tokp_setup, tokp_run, tokp_verify, tokp_destroy, NULL, tokp_bytes, tokp_items,       \
        tokp_profile}
DESC(bh_tokp_encode, "encode",
     "Encode a corpus line by line, one thread (items = tokens)", c_encode, params);
DESC(bh_tokp_decode, "decode",
     "Decode the ids of a corpus back to text (items = tokens)", c_decode, params);
DESC(bh_tokp_batch, "batch",
     "Batch-encode a corpus over 'threads' threads (items = tokens)", c_batch, params);
DESC(bh_tokp_load, "load",
     "Load the vocabulary or model file (items = loads)", c_load, params);
DESC(bh_tokp_latency, "latency",
     "Encode one chat-message sized text per iteration (items = calls)",
     c_latency, params);
DESC(bh_tokp_normalize, "normalize",
     "Normalizer alone: BERT or SentencePiece (items = lines)", c_normalize,
     params_norm);
