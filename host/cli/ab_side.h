// SPDX-License-Identifier: MIT
/* One side of bhost ab: a folder of plugin builds, the catalog that finds
 * the config's plugins there first, and the plan of the config against
 * it, every case bound to that folder's plugin files. */
#ifndef BH_AB_SIDE_H
#define BH_AB_SIDE_H

#include "catalog.h"
#include "config.h"
#include "plan.h"

typedef struct bh_ab_side {
    const char *flag; /* "--a" or "--b": names the side in errors */
    const char *dir;  /* the folder as given */
    char *abs;        /* its absolute path */
    bh_catalog cat;
    bh_plan plan;
    int ready; /* cat and plan hold something to free */
} bh_ab_side;

/* Checks that s->dir is a folder (else one line, BH_EXIT_USAGE). */
int bh_ab_side_check(bh_ab_side *s);

/* Plans cfg with s->dir in front of the plugin search path, keeps the
 * cases matching filters (n may be 0), and binds every case to the plugin
 * file of its name in the folder. 0, or the exit code after one line:
 * BH_EXIT_CONFIG for a config the build cannot plan or a plugin file the
 * folder lacks, BH_EXIT_USAGE when the filters match nothing. */
int bh_ab_side_plan(bh_ab_side *s, const bh_config *cfg, char *const *filters, size_t n,
                    int allow_unsafe);

void bh_ab_side_free(bh_ab_side *s);

#endif
