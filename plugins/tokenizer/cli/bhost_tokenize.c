// SPDX-License-Identifier: MIT
/*
 * bhost_tokenize.c -- bhost-tokenize: reads text and prints one line of
 * space-separated ids per input line (so the output diffs against any other
 * tokenizer), built on libbhtok.
 *
 *   bhost-tokenize -f FORMAT [options] VOCAB [VOCAB2] [< input]
 *     -f FORMAT    gpt2 r50k p50k cl100k o200k hf bert bert-cased spm
 *     -i FILE      read FILE instead of standard input
 *     -s           recognize special tokens in the text
 *     -w           whole input as one text (one line of ids)
 *     -d           decode: input lines are ids, print the text
 *     -n           print the normalized text instead of ids
 *     -r           round trip: report lines where decode(encode(x)) != x
 *     -t THREADS   batch-encode all lines on THREADS threads (0 to 1024)
 *
 * A tiktoken rank file must be the whole file of its encoding (its rank
 * count is checked); a bad option value or a vocabulary file too many is a
 * usage error (exit 2, one line).
 */
#include "bhtok.h"
#include "rank_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Prints the usage text on stderr. */
static void usage(void)
{
    fputs("usage: bhost-tokenize -f FORMAT [-i FILE] [-s] [-w] [-d] [-n] [-r] "
          "[-t THREADS] VOCAB [VOCAB2]\n"
          "formats: gpt2 (encoder.json vocab.bpe), r50k p50k cl100k o200k "
          "(.tiktoken), hf (tokenizer.json), bert bert-cased (vocab.txt), "
          "spm (.model)\n",
          stderr);
}

/* Parses the -t value: a whole number 0..1024; 0 or -1. */
static int parse_threads(const char *s, unsigned *out)
{
    char *end = NULL;
    unsigned long v;

    if (s[0] < '0' || s[0] > '9')
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > 1024)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* The number of vocabulary files format takes. */
static int n_vocab_files(const char *format)
{
    return strcmp(format, "gpt2") == 0 ? 2 : 1;
}

/* Reads all of f into a malloc'd buffer; NULL on failure. */
static char *slurp(FILE *f, size_t *n)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
        if (len == cap) {
            char *q = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (q == NULL) {
                free(buf);
                return NULL;
            }
            buf = q;
            cap *= 2;
        }
    }
    if (buf != NULL && ferror(f)) {
        free(buf);
        return NULL;
    }
    *n = len;
    return buf;
}

/* Prints ids space-separated on one line. */
static void print_ids(const bh_tok_ids *ids, FILE *out)
{
    for (size_t i = 0; i < ids->n; i++)
        fprintf(out, i ? " %d" : "%d", (int)ids->v[i]);
    fputc('\n', out);
}

/* Decodes one line of ids; 0 or -1 with a message. */
static int decode_line(const bh_tok *t, const char *s, size_t n, size_t lineno)
{
    bh_tok_ids ids = {0};
    bh_tok_bytes text = {0};
    int rc = -1;
    const char *p = s, *end = s + n;
    while (p < end) {
        char *q;
        while (p < end && *p == ' ')
            p++;
        if (p >= end)
            break;
        errno = 0;
        long v = strtol(p, &q, 10);
        if (q == p || errno != 0 || v < 0 || v > INT32_MAX) {
            fprintf(stderr, "bhost-tokenize: line %zu: not an id list\n", lineno);
            goto out;
        }
        if (bh_tok_ids_push(&ids, (int32_t)v) != 0)
            goto out;
        p = q;
    }
    if (bh_tok_decode(t, ids.v, ids.n, &text) != 0) {
        fprintf(stderr, "bhost-tokenize: line %zu: unknown id\n", lineno);
        goto out;
    }
    fwrite(text.p ? text.p : "", 1, text.n, stdout);
    fputc('\n', stdout);
    rc = 0;
out:
    bh_tok_ids_free(&ids);
    bh_tok_bytes_free(&text);
    return rc;
}

/* Loads the tokenizer, reads the input, prints ids (or text); 0 on success. */
int main(int argc, char **argv)
{
    const char *format = NULL, *input = NULL;
    unsigned flags = 0, threads = 0;
    int whole = 0, decode = 0, norm = 0, roundtrip = 0, opt, rc = 1;
    char err[512];

    while ((opt = getopt(argc, argv, "f:i:swdnrt:h")) != -1) {
        switch (opt) {
        case 'f': format = optarg; break;
        case 'i': input = optarg; break;
        case 's': flags |= BH_TOK_SPECIAL; break;
        case 'w': whole = 1; break;
        case 'd': decode = 1; break;
        case 'n': norm = 1; break;
        case 'r': roundtrip = 1; break;
        case 't':
            if (parse_threads(optarg, &threads) != 0) {
                fprintf(stderr, "bhost-tokenize: -t: expected a number of threads from 0 to "
                                "1024, got '%s'\n", optarg);
                return 2;
            }
            break;
        default: usage(); return opt == 'h' ? 0 : 2;
        }
    }
    if (format == NULL || optind >= argc) {
        usage();
        return 2;
    }
    if (argc - optind != n_vocab_files(format)) {
        fprintf(stderr, "bhost-tokenize: -f %s takes %d vocabulary file%s, got %d%s%s%s\n",
                format, n_vocab_files(format), n_vocab_files(format) == 1 ? "" : "s",
                argc - optind, argc - optind > n_vocab_files(format) ? " (extra: '" : "",
                argc - optind > n_vocab_files(format) ? argv[optind + n_vocab_files(format)] : "",
                argc - optind > n_vocab_files(format) ? "')" : "");
        return 2;
    }
    /* the rank count first: another encoding's file may also fail to
     * load, with a message that does not say so */
    bh_tok *t = bh_tok_check_ranks(format, argv[optind], err, sizeof(err)) != 0
                    ? NULL
                    : bh_tok_load(format, (const char *const *)&argv[optind],
                                  (size_t)(argc - optind), err, sizeof(err));
    if (t == NULL) {
        fprintf(stderr, "bhost-tokenize: %s\n", err);
        return 1;
    }
    FILE *in = input ? fopen(input, "rb") : stdin;
    if (in == NULL) {
        fprintf(stderr, "bhost-tokenize: %s: %s\n", input, strerror(errno));
        bh_tok_free(t);
        return 1;
    }
    size_t n = 0;
    char *buf = slurp(in, &n);
    if (input)
        fclose(in);
    bh_tok_ws *ws = bh_tok_ws_new(t);
    bh_tok_ids ids = {0};
    bh_tok_bytes text = {0};
    if (buf == NULL || ws == NULL) {
        fprintf(stderr, "bhost-tokenize: cannot read input\n");
        goto out;
    }
    if (whole) {
        if (bh_tok_encode(t, ws, buf, n, flags, &ids) != 0)
            goto out;
        print_ids(&ids, stdout);
        rc = 0;
        goto out;
    }
    /* split into lines (a final line without '\n' counts) */
    size_t nl = 0, cap = 0;
    const char **lines = NULL;
    size_t *lens = NULL;
    for (size_t i = 0; i < n;) {
        char *e = memchr(buf + i, '\n', n - i);
        size_t len = e ? (size_t)(e - (buf + i)) : n - i;
        if (nl == cap) {
            cap = cap ? cap * 2 : 1024;
            const char **l2 = realloc(lines, cap * sizeof(*lines));
            size_t *n2 = l2 ? realloc(lens, cap * sizeof(*lens)) : NULL;
            if (l2 != NULL)
                lines = l2;
            if (n2 == NULL) {
                free(lines);
                goto out;
            }
            lens = n2;
        }
        lines[nl] = buf + i;
        lens[nl++] = len;
        i += len + 1;
    }
    rc = 0;
    if (threads > 0 && !decode && !norm && !roundtrip) {
        bh_tok_ids *outs = calloc(nl ? nl : 1, sizeof(*outs));
        if (outs == NULL ||
            bh_tok_encode_batch(t, lines, lens, nl, flags, threads, outs) != 0)
            rc = 1;
        for (size_t i = 0; outs != NULL && i < nl; i++) {
            if (rc == 0)
                print_ids(&outs[i], stdout);
            bh_tok_ids_free(&outs[i]);
        }
        free(outs);
    } else {
        size_t bad = 0;
        for (size_t i = 0; i < nl && rc == 0; i++) {
            ids.n = 0;
            text.n = 0;
            if (decode) {
                rc = decode_line(t, lines[i], lens[i], i + 1) ? 1 : 0;
            } else if (norm) {
                if (bh_tok_normalize(t, ws, lines[i], lens[i], &text) != 0)
                    rc = 1;
                fwrite(text.p ? text.p : "", 1, text.n, stdout);
                fputc('\n', stdout);
            } else if (bh_tok_encode(t, ws, lines[i], lens[i], flags, &ids) != 0) {
                rc = 1;
            } else if (roundtrip) {
                if (bh_tok_decode(t, ids.v, ids.n, &text) != 0 ||
                    text.n != lens[i] ||
                    (lens[i] && memcmp(text.p, lines[i], lens[i]) != 0)) {
                    bad++;
                    printf("line %zu differs after decode\n", i + 1);
                }
            } else {
                print_ids(&ids, stdout);
            }
        }
        if (roundtrip) {
            printf("roundtrip: %zu lines, %zu differ\n", nl, bad);
            if (bad)
                rc = 1;
        }
    }
    free(lines);
    free(lens);
out:
    if (fflush(stdout) != 0)
        rc = 1;
    bh_tok_ids_free(&ids);
    bh_tok_bytes_free(&text);
    bh_tok_ws_free(ws);
    free(buf);
    bh_tok_free(t);
    return rc;
}
