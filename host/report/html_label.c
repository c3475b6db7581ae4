// SPDX-License-Identifier: MIT
/* Chart labels that keep what tells rows apart (see html.h). */
#include "html.h"

#include "bh_mem.h"

#include <stdlib.h>
#include <string.h>

/* A case id split into its group, its "k=v" parameters and its tail
 * ("@backend:device"); the strings point into a copy of the id. */
typedef struct parsed {
    char *copy;
    const char *group;
    char **tok;
    size_t n_tok, cap;
    const char *tail;
} parsed;

/* Splits id: "plugin/bench[k=v,...]@at". A piece without "=" belongs to
 * the value before it (values may hold commas: "vocab=bpe,32k"). */
static void parse(const char *id, parsed *p)
{
    char *open, *close;

    memset(p, 0, sizeof(*p));
    p->copy = bh_xstrdup(id);
    p->group = p->copy;
    p->tail = "";
    open = strchr(p->copy, '[');
    close = open ? strrchr(open, ']') : NULL;
    if (!open || !close) {
        char *at = strchr(p->copy, '@');

        if (at) {
            p->tail = id + (at - p->copy);
            *at = '\0';
        }
        return;
    }
    p->tail = id + (close - p->copy) + 1;
    *open = '\0';
    *close = '\0';
    for (char *s = open + 1; *s;) {
        char *comma = strchr(s, ',');

        if (comma)
            *comma = '\0';
        if (!strchr(s, '=') && p->n_tok > 0)
            s[-1] = ','; /* rejoin with the value before */
        else
            BH_PUSH(p->tok, p->n_tok, p->cap, s);
        if (!comma)
            break;
        s = comma + 1;
    }
}

/* True when every parsed id holds token t. */
static int shared_by_all(const parsed *ps, size_t n, const char *t)
{
    for (size_t i = 0; i < n; i++) {
        int found = 0;

        for (size_t k = 0; k < ps[i].n_tok && !found; k++)
            found = strcmp(ps[i].tok[k], t) == 0;
        if (!found)
            return 0;
    }
    return 1;
}

/* See html.h. */
char **bh_html_labels(const char *const *ids, size_t n, int drop_group)
{
    parsed *ps = bh_xcalloc(n + 1, sizeof(parsed));
    char **out = bh_xcalloc(n + 1, sizeof(char *));
    int same_group = 1;

    for (size_t i = 0; i < n; i++) {
        parse(ids[i], &ps[i]);
        same_group &= strcmp(ps[i].group, ps[0].group) == 0;
    }
    for (size_t i = 0; i < n; i++) {
        bh_strbuf b = BH_STRBUF_INIT;
        size_t kept = 0;

        if (!(drop_group && same_group && n > 1))
            bh_strbuf_puts(&b, ps[i].group);
        for (size_t k = 0; k < ps[i].n_tok; k++) {
            if (n > 1 && shared_by_all(ps, n, ps[i].tok[k]))
                continue;
            bh_strbuf_puts(&b, kept++ ? "," : "[");
            bh_strbuf_puts(&b, ps[i].tok[k]);
        }
        if (kept)
            bh_strbuf_puts(&b, "]");
        bh_strbuf_puts(&b, ps[i].tail);
        out[i] = b.len ? bh_xstrdup(bh_strbuf_str(&b)) : bh_xstrdup(ids[i]);
        bh_strbuf_free(&b);
    }
    for (size_t i = 0; i < n; i++) {
        free(ps[i].copy);
        free(ps[i].tok);
    }
    free(ps);
    return out;
}

/* See html.h. */
void bh_html_labels_free(char **labels, size_t n)
{
    for (size_t i = 0; i < n && labels; i++)
        free(labels[i]);
    free(labels);
}

/* See html.h. */
size_t bh_html_text_chars(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* See html.h. */
double bh_html_label_px(char *const *labels, size_t n)
{
    size_t most = 0;

    for (size_t i = 0; i < n; i++) {
        size_t c = bh_html_text_chars(labels[i]);

        most = c > most ? c : most;
    }
    if (most > BH_HTML_LABEL_MAX)
        most = BH_HTML_LABEL_MAX;
    /* 11px monospace is 6.6px a character in the fonts browsers pick */
    return most < 16 ? 16 * 6.7 + 16 : (double)most * 6.7 + 16;
}
