// SPDX-License-Identifier: MIT
/*
 * bh_pool.c -- the shared fork-join pool (contract: bh_pool.h).
 */
#include "bh_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

/* One spin-wait hint: pause on x86, yield on AArch64, nothing elsewhere. */
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield" ::: "memory")
#else
#define cpu_relax() ((void)0)
#endif

/* Pause instructions the caller spins for claimed tasks to finish before
 * it yields its CPU between checks. */
#define JOIN_SPINS (1u << 12)

typedef struct worker {
    bh_pool *p;
    uint32_t index;
} worker;

struct bh_pool {
    uint32_t n;              /* threads including the caller */
    uint32_t started;        /* workers actually created */
    uint32_t spin;           /* pause instructions before a worker sleeps */
    pthread_t *threads;      /* n - 1 workers */
    worker *workers;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t sleepers;       /* workers in cond_wait; under mu */
    uint32_t gen;            /* generation of the last call; caller only */
    _Atomic uint64_t word;   /* generation | tasks | next unclaimed task */
    atomic_uint done;        /* tasks of the current call finished */
    atomic_int stop;
    bh_pool_fn fn;           /* fn, arg, base: published by word (release) */
    void *arg;
    uint32_t base;           /* task index of the call's first task */
    uint32_t total;          /* tasks of the whole bh_pool_run */
};

/* A pool word: the call's generation (24 bits), its task count and the
 * next unclaimed task (20 bits each). A claim is a compare-and-swap of the
 * whole word, so it succeeds only for an unclaimed task of the current
 * call, whatever a late worker saw before. */
#define FIELD_BITS 20
#define FIELD_MASK ((UINT64_C(1) << FIELD_BITS) - 1)
#define GEN_MASK ((UINT32_C(1) << 24) - 1)
#define MAX_TASKS ((uint32_t)FIELD_MASK)

/* The generation of a pool word. */
static uint32_t gen_of(uint64_t w)
{
    return (uint32_t)(w >> (2 * FIELD_BITS));
}

/* The task count of a pool word. */
static uint32_t tasks_of(uint64_t w)
{
    return (uint32_t)((w >> FIELD_BITS) & FIELD_MASK);
}

/* The next unclaimed task of a pool word. */
static uint32_t next_of(uint64_t w)
{
    return (uint32_t)(w & FIELD_MASK);
}

/* The word that starts generation g with n tasks. */
static uint64_t word_of(uint32_t g, uint32_t n)
{
    return (uint64_t)g << (2 * FIELD_BITS) | (uint64_t)n << FIELD_BITS;
}

/* Claims and runs tasks of generation g until none is left or the call
 * is over. */
static void run_tasks(bh_pool *p, uint32_t g, uint32_t thread)
{
    uint64_t w = atomic_load_explicit(&p->word, memory_order_acquire);

    while (gen_of(w) == g && next_of(w) < tasks_of(w)) {
        if (atomic_compare_exchange_weak_explicit(&p->word, &w, w + 1,
                                                  memory_order_acq_rel,
                                                  memory_order_acquire)) {
            p->fn(p->arg, p->base + next_of(w), p->total, thread);
            atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
            w = atomic_load_explicit(&p->word, memory_order_acquire);
        }
    }
}

/* Waits for a generation other than seen (or stop); returns it. */
static uint32_t wait_gen(bh_pool *p, uint32_t seen)
{
    uint32_t g;
    unsigned spins = 0;

    while ((g = gen_of(atomic_load_explicit(&p->word, memory_order_acquire))) ==
               seen &&
           !atomic_load_explicit(&p->stop, memory_order_relaxed)) {
        if (++spins < p->spin) {
            cpu_relax();
            continue;
        }
        pthread_mutex_lock(&p->mu);
        while (gen_of(atomic_load_explicit(&p->word, memory_order_acquire)) ==
                   seen &&
               !atomic_load_explicit(&p->stop, memory_order_relaxed)) {
            p->sleepers++;
            pthread_cond_wait(&p->cv, &p->mu);
            p->sleepers--;
        }
        pthread_mutex_unlock(&p->mu);
        spins = 0;
    }
    return g;
}

/* Worker loop: take tasks of each new generation. */
static void *worker_main(void *v)
{
    worker *me = v;
    bh_pool *p = me->p;
    uint32_t seen = 0;

    for (;;) {
        seen = wait_gen(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_relaxed))
            break;
        run_tasks(p, seen, me->index);
    }
    return NULL;
}

bh_pool *bh_pool_create(uint32_t nthreads, uint32_t spin)
{
    bh_pool *p;

    if (nthreads < 1 || nthreads > 1024)
        return NULL;
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    p->n = nthreads;
    p->spin = spin != 0 ? spin : BH_POOL_SPIN_DEFAULT;
    atomic_init(&p->word, 0); /* generation 0 with 0 tasks: nothing to do */
    atomic_init(&p->done, 0);
    atomic_init(&p->stop, 0);
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->cv, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    p->threads = calloc(nthreads, sizeof(*p->threads));
    p->workers = calloc(nthreads, sizeof(*p->workers));
    if (p->threads == NULL || p->workers == NULL) {
        bh_pool_destroy(p);
        return NULL;
    }
    for (uint32_t t = 1; t < nthreads; t++) {
        p->workers[t - 1] = (worker){p, t};
        if (pthread_create(&p->threads[t - 1], NULL, worker_main,
                           &p->workers[t - 1]) != 0) {
            bh_pool_destroy(p);
            return NULL;
        }
        p->started++;
    }
    return p;
}

void bh_pool_destroy(bh_pool *p)
{
    if (p == NULL)
        return;
    atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_store_explicit(&p->word, word_of((p->gen + 1) & GEN_MASK, 0),
                          memory_order_release);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (uint32_t t = 0; t < p->started; t++)
        pthread_join(p->threads[t], NULL);
    free(p->threads);
    free(p->workers);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

uint32_t bh_pool_threads(const bh_pool *p)
{
    return p == NULL ? 1 : p->n;
}

/* Runs tasks [base, base + n) of total as one generation of the pool
 * (n <= MAX_TASKS). */
static void run_call(bh_pool *p, uint32_t base, uint32_t n, uint32_t total,
                     bh_pool_fn fn, void *arg)
{
    uint32_t g;

    /* The previous call finished every task, so no thread is inside fn;
     * a late worker's claim on the old generation fails. */
    p->fn = fn;
    p->arg = arg;
    p->base = base;
    p->total = total;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    g = p->gen = (p->gen + 1) & GEN_MASK;
    if (g == 0) /* generation 0 means "nothing yet" to a fresh worker */
        g = p->gen = 1;
    atomic_store_explicit(&p->word, word_of(g, n), memory_order_release);
    pthread_mutex_lock(&p->mu);
    if (p->sleepers != 0)
        pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    run_tasks(p, g, 0);
    for (unsigned spins = 0;
         atomic_load_explicit(&p->done, memory_order_acquire) != n; spins++) {
        if (spins < JOIN_SPINS)
            cpu_relax();
        else
            sched_yield();
    }
}

void bh_pool_run(bh_pool *p, uint32_t tasks, bh_pool_fn fn, void *arg)
{
    if (p == NULL || p->n == 1 || tasks <= 1) {
        for (uint32_t t = 0; t < tasks; t++)
            fn(arg, t, tasks, 0);
        return;
    }
    for (uint32_t base = 0; base < tasks; base += MAX_TASKS)
        run_call(p, base, tasks - base < MAX_TASKS ? tasks - base : MAX_TASKS,
                 tasks, fn, arg);
}

void bh_split(size_t n, size_t align, unsigned share, unsigned shares,
              size_t *begin, size_t *end)
{
    size_t units = (n + align - 1) / align;
    size_t per = units / shares;
    size_t extra = units % shares;
    size_t b = (size_t)share * per + (share < extra ? share : extra);
    size_t e = b + per + (share < extra ? 1 : 0);

    b *= align;
    e *= align;
    *begin = b < n ? b : n;
    *end = e < n ? e : n;
}
