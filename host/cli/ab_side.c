// SPDX-License-Identifier: MIT
/* One side of bhost ab: its folder, catalog and plan (ab_side.h). */
#define _GNU_SOURCE
#include "ab_side.h"

#include "ab_exec.h"
#include "bh_fs.h"
#include "bh_mem.h"
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* See ab_side.h. */
int bh_ab_side_check(bh_ab_side *s)
{
    char buf[PATH_MAX];

    if (!bh_is_directory(s->dir)) {
        bh_cli_error("ab: %s '%s': expected a folder of plugin builds (%s)", s->flag, s->dir,
                     bh_path_exists(s->dir) ? "not a folder" : "no such folder");
        return BH_EXIT_USAGE;
    }
    s->abs = bh_xstrdup(realpath(s->dir, buf) ? buf : s->dir);
    return 0;
}

/* Keeps the cases matching filters; BH_EXIT_USAGE when none is left. */
static int filter(bh_ab_side *s, const bh_config *cfg, char *const *filters, size_t n)
{
    size_t before = s->plan.n;

    if (n == 0)
        return 0;
    bh_plan_filter(&s->plan, filters, n);
    if (s->plan.n > 0)
        return 0;
    bh_cli_error("ab: --filter '%s'%s matches none of the %zu case%s of %s with %s %s (bhost "
                 "list %s shows them)",
                 filters[0], n > 1 ? " (and the others)" : "", before, before == 1 ? "" : "s",
                 cfg->path, s->flag, s->dir, cfg->path);
    return BH_EXIT_USAGE;
}

/* See ab_side.h. */
int bh_ab_side_plan(bh_ab_side *s, const bh_config *cfg, char *const *filters, size_t n,
                    int allow_unsafe)
{
    bh_error e = {""};
    char *missing = NULL;
    int rc;

    bh_catalog_init(&s->cat, cfg->plugin_path, cfg->n_plugin_path);
    bh_search_path_prepend(&s->cat.sp, s->abs);
    s->cat.allow_unsafe |= allow_unsafe;
    s->ready = 1;
    if (bh_plan_build(cfg, &s->cat, &s->plan, &e) != 0) {
        bh_cli_error("ab: %s %s: %s", s->flag, s->dir, e.msg);
        return BH_EXIT_CONFIG;
    }
    if ((rc = filter(s, cfg, filters, n)) != 0)
        return rc;
    if (bh_ab_bind_plugins(&s->plan, s->abs, &missing) != 0) {
        bh_cli_error("ab: %s '%s' holds no plugin file %s (a plugin of %s); looked in the "
                     "folder and its subfolders",
                     s->flag, s->dir, missing, cfg->path);
        free(missing);
        return BH_EXIT_CONFIG;
    }
    return 0;
}

/* See ab_side.h. */
void bh_ab_side_free(bh_ab_side *s)
{
    if (s->ready) {
        bh_plan_free(&s->plan);
        bh_catalog_free(&s->cat);
    }
    free(s->abs);
    s->abs = NULL;
    s->ready = 0;
}
