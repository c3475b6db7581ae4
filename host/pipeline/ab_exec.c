// SPDX-License-Identifier: MIT
/* bhost ab's execution: binding, matching and interleaving the two
 * builds' plans (ab_exec.h). */
#include "ab_exec.h"

#include "bh_mem.h"
#include "confirm.h"
#include "loader.h"

#include <stdlib.h>
#include <string.h>

/* Replaces *path with the file of the same name in dir when dir has one;
 * returns whether it had. */
static int rebind(char **path, const char *dir)
{
    char *found = bh_loader_find_in_dir(dir, *path);

    if (!found)
        return 0;
    free(*path);
    *path = found;
    return 1;
}

/* See ab_exec.h. */
int bh_ab_bind_plugins(bh_plan *plan, const char *dir, char **missing)
{
    *missing = NULL;
    for (size_t i = 0; i < plan->n; i++) {
        bh_case *c = &plan->cases[i];

        if (c->plugin_path && !rebind(&c->plugin_path, dir)) {
            const char *base = strrchr(c->plugin_path, '/');

            *missing = bh_xstrdup(base ? base + 1 : c->plugin_path);
            return -1;
        }
        if (c->backend_path)
            rebind(&c->backend_path, dir);
    }
    return 0;
}

/* The index of the case called id in plan, or plan->n. */
static size_t find_id(const bh_plan *plan, const char *id)
{
    size_t i = 0;

    while (i < plan->n && strcmp(plan->cases[i].id, id) != 0)
        i++;
    return i;
}

/* See ab_exec.h. */
void bh_ab_match(bh_plan *a, bh_plan *b, cJSON *only_a, cJSON *only_b)
{
    unsigned char *keep_a = bh_xcalloc(a->n ? a->n : 1, 1);
    unsigned char *keep_b = bh_xcalloc(b->n ? b->n : 1, 1);
    bh_case *sorted;

    for (size_t j = 0; j < b->n; j++) {
        size_t i = find_id(a, b->cases[j].id);

        if (i < a->n)
            keep_a[i] = keep_b[j] = 1;
        else
            cJSON_AddItemToArray(only_b, cJSON_CreateString(b->cases[j].id));
    }
    for (size_t i = 0; i < a->n; i++)
        if (!keep_a[i])
            cJSON_AddItemToArray(only_a, cJSON_CreateString(a->cases[i].id));
    bh_plan_keep(a, keep_a);
    bh_plan_keep(b, keep_b);
    free(keep_a);
    free(keep_b);
    sorted = bh_xcalloc(b->n ? b->n : 1, sizeof(*sorted));
    for (size_t j = 0; j < b->n; j++)
        sorted[j] = a->cases[find_id(a, b->cases[j].id)];
    free(a->cases);
    a->cases = sorted;
    a->cap = a->n;
}

/* The fixed runs one side of a case asks for. */
static uint32_t side_runs(const bh_case *c)
{
    if (!c->settings.runs_auto)
        return c->settings.runs;
    return c->settings.min_runs ? c->settings.min_runs : 10;
}

/* See ab_exec.h. */
uint32_t bh_ab_pairs(const bh_case *a, const bh_case *b)
{
    uint32_t ra = side_runs(a), rb = side_runs(b);

    if (a->pre_status != BH_ST_OK || b->pre_status != BH_ST_OK || !a->plugin_path ||
        !b->plugin_path)
        return 0;
    return ra < rb ? ra : rb;
}

/* See ab_exec.h. */
size_t bh_ab_execute(bh_plan *a, bh_plan *b, uint32_t least_pairs, const bh_exec_opts *xo)
{
    size_t n = a->n < b->n ? a->n : b->n, n_slots = 0, started;
    bh_plan both = {bh_xcalloc(2 * n + 1, sizeof(bh_case)), 2 * n, 2 * n + 1};
    uint32_t *pairs = bh_xcalloc(n + 1, sizeof(*pairs));
    bh_regress_slot *sched;
    bh_exec_slot *slots;

    for (size_t k = 0; k < n; k++) {
        pairs[k] = bh_ab_pairs(&a->cases[k], &b->cases[k]);
        if (pairs[k] && pairs[k] < least_pairs)
            pairs[k] = least_pairs;
        /* shallow: the cases move into one plan for the run and back */
        both.cases[2 * k] = a->cases[k];
        both.cases[2 * k + 1] = b->cases[k];
        for (size_t s = 2 * k; s <= 2 * k + 1; s++) {
            both.cases[s].settings.runs_auto = 0;
            if (pairs[k])
                both.cases[s].settings.runs = pairs[k];
        }
    }
    sched = bh_regress_abba_schedule_each(n, pairs, xo->seed, &n_slots);
    slots = bh_xcalloc(n_slots + 1, sizeof(*slots));
    for (size_t i = 0; i < n_slots; i++)
        slots[i] = (bh_exec_slot){sched[i].clone, sched[i].run};
    started = bh_exec_ordered(&both, slots, n_slots, xo);
    for (size_t k = 0; k < n; k++) {
        a->cases[k] = both.cases[2 * k];
        b->cases[k] = both.cases[2 * k + 1];
    }
    free(both.cases);
    free(slots);
    free(sched);
    free(pairs);
    return started;
}
