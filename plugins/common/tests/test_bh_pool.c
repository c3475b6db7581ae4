// SPDX-License-Identifier: MIT
/*
 * test_bh_pool.c -- the shared plugin thread pool: every task of every
 * call runs exactly once, with the right task count and a thread index in
 * range, whatever the number of tasks (0, 1, fewer or more than threads),
 * over many back-to-back calls (workers spinning) and calls after the
 * workers went to sleep; bh_split covers [0, n) with aligned, ordered
 * shares. Run under -fsanitize=thread as well (see README).
 */
#include "bh_pool.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_TASKS 300

typedef struct call_state {
    atomic_int hits[MAX_TASKS];
    uint32_t tasks;
    uint32_t threads;
    atomic_int bad;
} call_state;

static int failures;

/* Records that task t ran (and checks its arguments). */
static void count_task(void *arg, uint32_t t, uint32_t tasks, uint32_t thread)
{
    call_state *s = arg;

    if (t >= s->tasks || tasks != s->tasks || thread >= s->threads)
        atomic_fetch_add(&s->bad, 1);
    else
        atomic_fetch_add(&s->hits[t], 1);
}

/* One call of n tasks on p, checked. */
static void check_call(bh_pool *p, uint32_t n)
{
    static call_state s;

    for (int i = 0; i < MAX_TASKS; i++)
        atomic_store(&s.hits[i], 0);
    atomic_store(&s.bad, 0);
    s.tasks = n;
    s.threads = bh_pool_threads(p);
    bh_pool_run(p, n, count_task, &s);
    for (uint32_t i = 0; i < n; i++)
        if (atomic_load(&s.hits[i]) != 1) {
            fprintf(stderr, "FAIL: %u tasks on %u threads: task %u ran %d times\n",
                    n, s.threads, i, atomic_load(&s.hits[i]));
            failures++;
            return;
        }
    if (atomic_load(&s.bad) != 0) {
        fprintf(stderr, "FAIL: %u tasks: %d calls with bad arguments\n", n,
                atomic_load(&s.bad));
        failures++;
    }
}

/* bh_split's shares of n in units of align: contiguous from 0 to n. */
static void check_split(size_t n, size_t align, unsigned shares)
{
    size_t at = 0;

    for (unsigned s = 0; s < shares; s++) {
        size_t b, e;

        bh_split(n, align, s, shares, &b, &e);
        if (b != at || e < b || (e != n && e % align != 0)) {
            fprintf(stderr, "FAIL: split %zu/%zu share %u: [%zu, %zu)\n", n,
                    align, s, b, e);
            failures++;
            return;
        }
        at = e;
    }
    if (at != n) {
        fprintf(stderr, "FAIL: split %zu/%zu ends at %zu\n", n, align, at);
        failures++;
    }
}

int main(void)
{
    static const uint32_t threads[] = {1, 2, 3, 5};
    struct timespec nap = {0, 20 * 1000 * 1000};

    for (size_t k = 0; k < sizeof threads / sizeof *threads; k++) {
        /* a short spin, so that the sleep-and-wake path runs too */
        bh_pool *p = bh_pool_create(threads[k], 64);

        if (p == NULL || bh_pool_threads(p) != threads[k]) {
            fprintf(stderr, "FAIL: pool of %u threads\n", threads[k]);
            return 1;
        }
        for (int rep = 0; rep < 2000; rep++)
            check_call(p, (uint32_t)(rep * 7919u % (MAX_TASKS + 1)));
        nanosleep(&nap, NULL); /* the workers sleep */
        check_call(p, 1);
        check_call(p, MAX_TASKS);
        bh_pool_destroy(p);
    }
    check_call(NULL, 17); /* no pool: all on the caller */
    if (bh_pool_create(0, 0) != NULL || bh_pool_create(5000, 0) != NULL) {
        fprintf(stderr, "FAIL: out-of-range thread counts accepted\n");
        failures++;
    }
    for (size_t n = 0; n < 200; n += 13)
        for (unsigned shares = 1; shares <= 5; shares++) {
            check_split(n, 1, shares);
            check_split(n, 16, shares);
        }
    if (failures == 0)
        printf("bh_pool: all checks passed\n");
    return failures != 0;
}
