// SPDX-License-Identifier: MIT
/*
 * fuzz_encode.c -- libFuzzer target: the encoders on arbitrary text (invalid
 * UTF-8 included) with a small byte-level vocabulary for each pre-tokenizer,
 * plus decode(encode(x)) == x, which byte-level BPE guarantees.
 */
#include "fuzz_common.h"

static bh_tok *toks[3];
static bh_tok_ws *wss[3]; /* one workspace each, kept across inputs (its
                             cache of pre-tokens is exercised across them,
                             as a benchmark run does) */

/* Standard base64 of s[0..n) into out (NUL-terminated). */
static void b64(const uint8_t *s, size_t n, char *out)
{
    static const char t[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)s[i + 1] << 8;
        if (i + 2 < n)
            v |= s[i + 2];
        out[o++] = t[(v >> 18) & 63];
        out[o++] = t[(v >> 12) & 63];
        out[o++] = i + 1 < n ? t[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? t[v & 63] : '=';
    }
    out[o] = '\0';
}

/* Loads the three byte-level tokenizers and their workspaces once
 * (aborts on failure). */
static void init(void)
{
    static const char *const extra[] = {"ab", "abc", " a", " ab", "bc", "\xe4\xb8",
                                        "\xe4\xb8\xad", "  ", "\n\n", "12"};
    static char buf[16384];
    size_t len = 0;
    char enc[64];
    for (int b = 0; b < 256; b++) {
        uint8_t c = (uint8_t)b;
        b64(&c, 1, enc);
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s %d\n", enc, b);
    }
    for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
        b64((const uint8_t *)extra[i], strlen(extra[i]), enc);
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s %zu\n", enc, 256 + i);
    }
    const char *path = fuzz_file("ranks", (const uint8_t *)buf, len);
    static const char *const fmts[3] = {"r50k", "cl100k", "o200k"};
    char err[512];
    for (int i = 0; i < 3; i++)
        if ((toks[i] = bh_tok_load(fmts[i], &path, 1, err, sizeof(err))) == NULL ||
            (wss[i] = bh_tok_ws_new(toks[i])) == NULL)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer entry: one input; aborts on a contract violation. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (toks[0] == NULL)
        init();
    static bh_tok_ids ids;  /* kept across inputs, as a benchmark keeps */
    static bh_tok_bytes out; /* its buffers: no regrowth per input */
    for (int i = 0; i < 3; i++) {
        ids.n = 0;
        out.n = 0;
        if (bh_tok_encode(toks[i], wss[i], (const char *)data, size, BH_TOK_SPECIAL, &ids) != 0 ||
            bh_tok_decode(toks[i], ids.v, ids.n, &out) != 0 || out.n != size ||
            (size > 0 && memcmp(out.p, data, size) != 0))
            abort();
    }
    return 0;
}
