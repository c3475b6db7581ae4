// SPDX-License-Identifier: MIT
/* See flame.h: the tree and its SVG icicle. */
#include "flame.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The drawing's geometry, in pixels. */
#define FL_WIDTH 1200.0
#define FL_ROW   17.0
#define FL_TOP   34.0
#define FL_PAD   10.0
#define FL_CHAR  7.0 /* the width of one character of the 12px font */

void bh_flame_init(bh_flame *f)
{
    memset(f, 0, sizeof(*f));
    f->cap = 64;
    f->nodes = bh_xcalloc(f->cap, sizeof(*f->nodes));
    f->nodes[0].name = bh_xstrdup("all");
    f->n = 1;
}

void bh_flame_free(bh_flame *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->nodes[i].name);
    free(f->nodes);
    memset(f, 0, sizeof(*f));
}

size_t bh_flame_child(bh_flame *f, size_t parent, const char *name)
{
    size_t last = 0;
    bh_flame_node *k;

    for (size_t c = f->nodes[parent].first_child; c; c = f->nodes[c].next_sibling) {
        if (strcmp(f->nodes[c].name, name) == 0)
            return c;
        last = c;
    }
    if (f->n == f->cap) {
        bh_grow((void **)&f->nodes, &f->cap, f->n + 1, sizeof(*f->nodes));
    }
    k = &f->nodes[f->n];
    memset(k, 0, sizeof(*k));
    k->name = bh_xstrdup(name);
    k->parent = parent;
    if (last)
        f->nodes[last].next_sibling = f->n;
    else
        f->nodes[parent].first_child = f->n;
    return f->n++;
}

void bh_flame_add_stack(bh_flame *f, const char *const *frames, size_t n, double value)
{
    size_t at = 0;

    f->nodes[0].value += value;
    for (size_t i = 0; i < n; i++) {
        if (!frames[i] || !frames[i][0])
            continue;
        at = bh_flame_child(f, at, frames[i]);
        f->nodes[at].value += value;
    }
}

size_t bh_flame_depth(const bh_flame *f)
{
    size_t deepest = 0;

    for (size_t i = 1; i < f->n; i++) {
        size_t d = 0;

        for (size_t p = i; p; p = f->nodes[p].parent)
            d++;
        if (d > deepest)
            deepest = d;
    }
    return deepest;
}

/* Appends s escaped for XML text and attributes; bytes that are control
 * characters or not ASCII become '?', so the file is valid UTF-8. */
static void xml(bh_strbuf *b, const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max; i++) {
        unsigned char ch = (unsigned char)s[i];

        if (ch == '&')
            bh_strbuf_puts(b, "&amp;");
        else if (ch == '<')
            bh_strbuf_puts(b, "&lt;");
        else if (ch == '>')
            bh_strbuf_puts(b, "&gt;");
        else if (ch == '"')
            bh_strbuf_puts(b, "&quot;");
        else if (ch == '\'')
            bh_strbuf_puts(b, "&#39;");
        else if (ch < 0x20 || ch >= 0x7f)
            bh_strbuf_puts(b, "?");
        else
            bh_strbuf_append(b, (const char *)&ch, 1);
    }
}

/* A warm fill from the name's hash (FNV-1a), so a function keeps its
 * color across graphs. */
static void fill(bh_strbuf *b, const char *name)
{
    uint32_t h = 2166136261u;

    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    bh_strbuf_printf(b, "rgb(%u,%u,%u)", 205u + h % 50u, 80u + (h >> 8) % 130u,
                     40u + (h >> 16) % 50u);
}

/* Draws node i at x (pixels) and level depth, then its children. */
static void draw(const bh_flame *f, size_t i, double x, size_t depth, double scale,
                 const char *unit, bh_strbuf *b)
{
    const bh_flame_node *nd = &f->nodes[i];
    double w = nd->value * scale;
    double y = FL_TOP + (double)depth * FL_ROW;
    double pct = f->nodes[0].value > 0 ? 100.0 * nd->value / f->nodes[0].value : 0;
    size_t fit = w > 2 * FL_CHAR ? (size_t)((w - 6) / FL_CHAR) : 0;

    if (w < 0.5)
        return;
    bh_strbuf_puts(b, "<g class=\"fr\"><title>");
    xml(b, nd->name, SIZE_MAX);
    bh_strbuf_printf(b,
                     " (%.*f %s, %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" rx=\"2\" fill=\"",
                     nd->value >= 100 || nd->value == floor(nd->value) ? 0 : 2, nd->value, unit,
                     pct, x, y, w, FL_ROW - 1);
    if (i == 0)
        bh_strbuf_puts(b, "rgb(200,200,200)");
    else
        fill(b, nd->name);
    bh_strbuf_puts(b, "\"/>");
    if (fit >= 3) {
        size_t len = strlen(nd->name);

        bh_strbuf_printf(b, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FL_ROW - 5);
        xml(b, nd->name, len <= fit ? len : fit - 2);
        if (len > fit)
            bh_strbuf_puts(b, "..");
        bh_strbuf_puts(b, "</text>");
    }
    bh_strbuf_puts(b, "</g>\n");
    for (size_t c = nd->first_child; c; c = f->nodes[c].next_sibling) {
        draw(f, c, x, depth + 1, scale, unit, b);
        x += f->nodes[c].value * scale;
    }
}

void bh_flame_svg(const bh_flame *f, const char *title, const char *unit, bh_strbuf *out)
{
    double total = f->nodes[0].value;
    double scale = total > 0 && isfinite(total) ? (FL_WIDTH - 2 * FL_PAD) / total : 0;
    double h = FL_TOP + (double)(bh_flame_depth(f) + 1) * FL_ROW + FL_PAD;

    bh_strbuf_printf(out,
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bh-flame\" "
                     "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                     "role=\"img\" aria-label=\"",
                     FL_WIDTH, h, FL_WIDTH, h);
    xml(out, title, SIZE_MAX);
    bh_strbuf_puts(out, "\">\n<style>.bh-flame text{font:12px monospace;fill:#000}"
                        ".bh-flame .fr:hover rect{stroke:#000;stroke-width:0.5}</style>\n"
                        "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
    bh_strbuf_printf(out, "<text x=\"%.0f\" y=\"20\">", FL_PAD);
    xml(out, title, SIZE_MAX);
    bh_strbuf_printf(out, " (%.0f %s in all)</text>\n", total, unit);
    if (scale > 0)
        draw(f, 0, FL_PAD, 0, scale, unit, out);
    bh_strbuf_puts(out, "</svg>\n");
}

int bh_flame_write_svg(const bh_flame *f, const char *title, const char *unit, const char *path,
                       bh_error *e)
{
    bh_strbuf b = BH_STRBUF_INIT;
    int rc;

    bh_flame_svg(f, title, unit, &b);
    rc = bh_write_file_atomic(path, b.len ? bh_strbuf_str(&b) : "", b.len, e);
    bh_strbuf_free(&b);
    return rc;
}
