// SPDX-License-Identifier: MIT
/* bh_import (import.h): the formats, reading each file, handing its JSON
 * to the format's importer, and finishing the one document. */
#include "import.h"
#include "import_internal.h"

#include "bh_fs.h"
#include "bh_mem.h"
#include "bh_sha256.h"
#include "result_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bh_import_formats[] = {"gbench", "pyperf", "hyperfine", "criterion", "asv", NULL};

/* Each format: its importer and what a file of it is, for messages. */
static const struct {
    bh_imp_format_fn fn;
    const char *expected;
} formats[] = {
    {bh_imp_gbench, "Google Benchmark JSON (--benchmark_format=json)"},
    {bh_imp_pyperf, "a pyperf JSON file"},
    {bh_imp_hyperfine, "hyperfine JSON (--export-json)"},
    {bh_imp_criterion, "a Criterion.rs estimates.json or sample.json"},
    {bh_imp_asv, "an asv results file (results/MACHINE/COMMIT-ENV.json)"},
};

/* The index of format name, or -1. */
static int format_index(const char *name)
{
    for (int i = 0; name && bh_import_formats[i]; i++)
        if (strcmp(bh_import_formats[i], name) == 0)
            return i;
    return -1;
}

int bh_import_format_known(const char *name)
{
    return format_index(name) >= 0;
}

/* Adds the text of one file to imp: 0 or -1 with e = "NAME[:LINE]: ...". */
static int import_one(bh_imp *imp, int f, const char *text, size_t len, const char *name,
                      bh_error *e)
{
    cJSON *root = bh_imp_parse(text, len, formats[f].expected, e);
    int rc;

    if (!root) {
        bh_error inner = *e;

        return bh_error_set(e, "%s:%s", name, inner.msg);
    }
    rc = formats[f].fn(imp, name, root, e);
    cJSON_Delete(root);
    if (rc != 0)
        return bh_error_prefix(e, "%s", name);
    return 0;
}

/* The finished document of imp, checked with the strict reader's rules
 * (a failure there is a bug of an importer, reported as such). */
static cJSON *take_doc(bh_imp *imp, const char *name, bh_error *e)
{
    cJSON *doc = imp->doc;

    if (bh_result_validate(doc, name, e) != 0) {
        bh_error_prefix(e, "import produced an invalid document: ");
        return NULL;
    }
    imp->doc = NULL;
    return doc;
}

cJSON *bh_import(const bh_import_opts *o, char **warnings, bh_error *e)
{
    int f = format_index(o->format);
    bh_sha256_ctx sha;
    uint8_t digest[32];
    char hex[65];
    bh_imp imp;
    cJSON *doc = NULL;

    if (warnings)
        *warnings = NULL;
    if (f < 0) {
        bh_error_set(e, "unknown format '%s'", o->format ? o->format : "");
        return NULL;
    }
    bh_imp_init(&imp);
    bh_sha256_init(&sha);
    for (size_t i = 0; i < o->n_files; i++) {
        char *text = NULL;
        size_t len = 0;
        int rc;

        if (bh_read_file(o->files[i], BH_RESULT_MAX_BYTES, &text, &len, e) != 0)
            goto done;
        bh_sha256_update(&sha, text, len);
        rc = import_one(&imp, f, text, len, o->files[i], e);
        free(text);
        if (rc != 0)
            goto done;
    }
    bh_sha256_final(&sha, digest);
    for (int k = 0; k < 32; k++)
        snprintf(hex + 2 * k, 3, "%02x", digest[k]);
    bh_imp_finish(&imp, o->format, o->config, o->files, o->n_files, o->argc, o->argv, o->version,
                  hex);
    doc = take_doc(&imp, o->n_files ? o->files[0] : o->format, e);
    if (doc && warnings && imp.warnings.len)
        *warnings = bh_strbuf_detach(&imp.warnings);
done:
    bh_imp_free(&imp);
    return doc;
}

cJSON *bh_import_text(const char *format, const char *text, size_t len, const char *name,
                      bh_error *e)
{
    int f = format_index(format);
    char *files[1] = {(char *)name};
    cJSON *doc = NULL;
    bh_imp imp;

    if (f < 0) {
        bh_error_set(e, "unknown format '%s'", format ? format : "");
        return NULL;
    }
    bh_imp_init(&imp);
    if (import_one(&imp, f, text, len, name, e) == 0) {
        bh_imp_finish(&imp, format, NULL, files, 1, 0, NULL, "", "");
        doc = take_doc(&imp, name, e);
    }
    bh_imp_free(&imp);
    return doc;
}
