// SPDX-License-Identifier: MIT
/* Format names, dispatch and atomic writing of the report formats (see
 * report.h). */
#include "report.h"

#include "bh_fs.h"
#include "bh_json_write.h"
#include "bh_mem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[BH_REPORT_FORMATS] = {"json", "markdown", "html", "junit",
                                                     "csv",  "gbench",   "bmf"};
static const char *const exts[BH_REPORT_FORMATS] = {
    ".json", ".md", ".html", ".xml", ".csv", ".gbench.json", ".bmf.json"};

/* See report.h. */
int bh_report_format_parse(const char *name)
{
    for (int i = 0; i < BH_REPORT_FORMATS; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

/* See report.h. */
const char *bh_report_format_name(bh_report_format f)
{
    return (unsigned)f < BH_REPORT_FORMATS ? names[f] : "?";
}

/* See report.h. */
const char *bh_report_format_ext(bh_report_format f)
{
    return (unsigned)f < BH_REPORT_FORMATS ? exts[f] : "";
}

/* The document itself, numbers exact (bh_json_write.h). */
static void render_json(const cJSON *doc, bh_strbuf *out)
{
    char *text = bh_json_print(doc);

    if (text) {
        bh_strbuf_puts(out, text);
        bh_strbuf_puts(out, "\n");
        free(text);
    }
}

/* See report.h. */
void bh_report_render(bh_report_format f, const cJSON *doc, const bh_report_ctx *ctx,
                      bh_strbuf *out)
{
    switch (f) {
    case BH_REPORT_JSON:
        render_json(doc, out);
        break;
    case BH_REPORT_MARKDOWN:
        bh_report_markdown(doc, out);
        break;
    case BH_REPORT_HTML:
        bh_report_html(doc, ctx, out);
        break;
    case BH_REPORT_JUNIT:
        bh_report_junit(doc, out);
        break;
    case BH_REPORT_CSV:
        bh_report_csv(doc, out);
        break;
    case BH_REPORT_GBENCH:
        bh_report_gbench(doc, out);
        break;
    case BH_REPORT_BMF:
        bh_report_bmf(doc, out);
        break;
    }
}

/* See report.h. */
int bh_report_write(bh_report_format f, const cJSON *doc, const bh_report_ctx *ctx,
                    const char *path, bh_error *e)
{
    bh_strbuf b = BH_STRBUF_INIT;
    int rc = 0;

    bh_report_render(f, doc, ctx, &b);
    if (strcmp(path, "-") == 0) {
        if (fwrite(bh_strbuf_str(&b), 1, b.len, stdout) != b.len || fflush(stdout) != 0)
            rc = bh_error_set(e, "stdout: %s",
                              strerror(errno));
    } else if (bh_write_file_atomic(path, bh_strbuf_str(&b), b.len, e) != 0) {
        rc = -1;
    }
    bh_strbuf_free(&b);
    return rc;
}

/* See report.h. */
char *bh_report_sibling_path(const char *result_path, bh_report_format f)
{
    size_t n = strlen(result_path);

    if (n > 5 && strcmp(result_path + n - 5, ".json") == 0)
        n -= 5;
    return bh_xasprintf("%.*s%s", (int)n, result_path, bh_report_format_ext(f));
}

/* See report.h. */
int bh_report_write_outputs(const cJSON *doc, const char *result_path, char *const *fmts,
                            size_t n, const bh_report_ctx *ctx, char ***written,
                            size_t *n_written, bh_error *e)
{
    int rc = 0;
    size_t cap = 0;
    bh_report_ctx local = {ctx ? ctx->history : NULL, ctx ? ctx->base_dir : NULL};
    const char *slash = strrchr(result_path, '/');
    char *dir = slash ? bh_xstrndup(result_path, (size_t)(slash - result_path)) : NULL;

    /* a result's relative paths start from its folder */
    if (!local.base_dir)
        local.base_dir = dir;
    ctx = &local;
    for (size_t i = 0; i < n; i++) {
        int f = bh_report_format_parse(fmts[i]);
        char *path;
        bh_error err = {""};

        if (f <= BH_REPORT_JSON)
            continue;
        path = bh_report_sibling_path(result_path, (bh_report_format)f);
        if (bh_report_write((bh_report_format)f, doc, ctx, path, &err) != 0) {
            if (rc == 0 && e)
                *e = err;
            rc = -1;
            free(path);
            continue;
        }
        if (written)
            BH_PUSH(*written, *n_written, cap, path);
        else
            free(path);
    }
    free(dir);
    return rc;
}
