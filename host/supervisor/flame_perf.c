// SPDX-License-Identifier: MIT
/* See flame.h: the flame graph of `perf script` output, each sample's
 * call chain folded into the tree with weight 1. */
#include "flame.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 256

/* The frame name of one indented frame line [p, end):
 * "ADDRESS SYMBOL+0xOFFSET (DSO)" -> "SYMBOL", "[unknown] (DSO)" ->
 * "[DSO's file name]". New string; NULL for a line with no address. */
static char *frame_name(const char *p, const char *end)
{
    const char *sym, *sym_end, *dso = NULL, *dso_end = NULL;

    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (p < end && *p != ' ' && *p != '\t')
        p++; /* the address */
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end)
        return NULL;
    sym = p;
    sym_end = end;
    if (end[-1] == ')') {
        for (const char *q = end - 1; q > sym; q--)
            if (q[0] == '(' && q[-1] == ' ') {
                dso = q + 1;
                dso_end = end - 1;
                sym_end = q - 1;
                break;
            }
    }
    for (const char *q = sym_end; q > sym + 1; q--)
        if (q[-1] == '+' && end - q > 2 && q[0] == '0' && q[1] == 'x') {
            sym_end = q - 1;
            break;
        }
    if ((sym_end - sym == 9 && strncmp(sym, "[unknown]", 9) == 0) || sym_end == sym) {
        const char *base = dso;

        if (!dso)
            return bh_xstrdup("[unknown]");
        for (const char *q = dso; q < dso_end; q++)
            if (*q == '/')
                base = q + 1;
        if (dso_end > base && *base == '[')
            return bh_xstrndup(base, (size_t)(dso_end - base)); /* "[unknown]", "[vdso]" */
        return bh_xasprintf("[%.*s]", (int)(dso_end - base), base);
    }
    return bh_xstrndup(sym, (size_t)(sym_end - sym));
}

/* Folds one sample: comm and frames[0..n) innermost first. */
static void add_sample(bh_flame *f, char *comm, char **frames, size_t n)
{
    const char *stack[MAX_FRAMES + 1];
    size_t k = 0;

    stack[k++] = comm;
    for (size_t i = n; i > 0; i--)
        stack[k++] = frames[i - 1];
    bh_flame_add_stack(f, stack, k, 1.0);
}

int bh_flame_from_perf_script(const char *text, size_t n, const char *file, bh_flame *f,
                              bh_error *e)
{
    const char *p = text ? text : "", *end = p + (text ? n : 0);
    char *comm = NULL;
    char *frames[MAX_FRAMES];
    size_t nf = 0, samples = 0;

    for (;;) {
        const char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
        const char *le = nl ? nl : end;
        size_t len = (size_t)(le - p);
        int blank = 1;

        if (len && le[-1] == '\r')
            le--, len--;
        for (const char *q = p; q < le; q++)
            blank &= *q == ' ' || *q == '\t';
        if (p >= end || blank || (*p != ' ' && *p != '\t')) {
            /* the end of a sample: a blank line, a new header, the end */
            if (comm) {
                add_sample(f, comm, frames, nf);
                samples++;
            }
            free(comm);
            comm = NULL;
            for (size_t i = 0; i < nf; i++)
                free(frames[i]);
            nf = 0;
            if (p >= end)
                break;
            if (!blank)
                comm = bh_xstrndup(p, strcspn(p, " \t\n"));
        } else if (comm && nf < MAX_FRAMES) {
            char *name = frame_name(p, le);

            if (name)
                frames[nf++] = name;
        }
        p = nl ? nl + 1 : end;
    }
    if (samples == 0)
        return bh_error_set(e, "%s: no samples in perf script's output", file ? file : "perf");
    return 0;
}
