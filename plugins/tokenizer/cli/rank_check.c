// SPDX-License-Identifier: MIT
#include "rank_check.h"

#include "bhtok.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rank count and the largest rank of each published tiktoken
 * encoding (p50k's ranks skip 50256, the id of <|endoftext|>). */
static const struct {
    const char *format;
    size_t ranks;
    long largest;
} encodings[] = {
    {"r50k", 50256, 50255},
    {"p50k", 50280, 50280},
    {"cl100k", 100256, 100255},
    {"o200k", 199998, 199997},
};

/* Counts the ranks of a rank file ("base64 rank" lines; blank lines do not
 * count) and the largest one. */
static void count_ranks(const char *text, size_t len, size_t *n, long *max)
{
    *n = 0;
    *max = -1;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        const char *sp = memchr(text + i, ' ', e - i);

        if (sp) {
            long r = strtol(sp + 1, NULL, 10);

            (*n)++;
            if (r > *max)
                *max = r;
        }
        i = e + 1;
    }
}

int bh_tok_check_ranks(const char *format, const char *path, char *err, size_t cap)
{
    size_t want = 0, n, len;
    long max, largest = 0;
    char *text;

    for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++)
        if (strcmp(encodings[i].format, format) == 0) {
            want = encodings[i].ranks;
            largest = encodings[i].largest;
        }
    if (want == 0)
        return 0;
    text = bh_tok_read_file(path, 64u << 20, &len, err, cap);
    if (!text)
        return -1;
    count_ranks(text, len, &n, &max);
    free(text);
    if (n == want && max == largest)
        return 0;
    snprintf(err, cap,
             "%s: %zu ranks (largest %ld), but the %s rank file has %zu (largest %ld): "
             "a rank file of another encoding, or a cut one",
             path, n, max, format, want, largest);
    return -1;
}
