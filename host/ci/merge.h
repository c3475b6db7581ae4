// SPDX-License-Identifier: MIT
/* Joining shard results (bhost run --shard i/N) into one run document. */
#ifndef BH_MERGE_H
#define BH_MERGE_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* Why a merge was refused. */
enum {
    BH_MERGE_MALFORMED = 1, /* a file is not a well-formed shard result */
    BH_MERGE_MISMATCH = 2   /* the shards do not belong to one run */
};

/* Merges the n shard documents docs (names[i] names docs[i] in messages).
 * Refuses, with one line in e and *why set, shards of different configs
 * (name or hash), seeds, system fingerprints, git commits, shard counts or
 * partitions, a shard given twice or missing, and cases that are in two
 * shards. The result is a whole run: run.shard removed, run.merged lists
 * the shards, cases in the unsharded plan order, started_at/finished_at
 * spanning the shards, duration_s their sum, complete only when every
 * shard is, git.dirty when any is, plugins the union. Shards compared
 * with a baseline must all be, against the same baseline with the same
 * settings (merge_gate.h): each case keeps the verdict its shard decided
 * (confirmation included) and the comparison summary is joined; roofline
 * fractions and the backend comparison are recomputed over all cases. argv (argc words) is
 * recorded as run.merged.command_line. Returns the new document (caller
 * deletes) or NULL. Borrows docs. */
cJSON *bh_merge_shards(cJSON *const *docs, const char *const *names, size_t n, int argc,
                       char **argv, int *why, bh_error *e);

/* Sets member key of object o to v (owned), replacing what was there;
 * deletes v when o is not an object. */
void bh_merge_put(cJSON *o, const char *key, cJSON *v);

#endif
