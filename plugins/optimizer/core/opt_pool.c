/*
 * opt_pool.c -- a fixed thread pool: the caller is thread 0 of every run;
 * workers wait on a generation counter, spinning for a short while and
 * then sleeping on a condition variable, so back-to-back runs in a timing
 * loop start in well under a microsecond.
 *
 * Contracts of the exported functions: opt.h.
 */
#include "opt.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#else
#define cpu_relax() ((void)0)
#endif

/* Pause instructions a worker spins before it sleeps, and the caller
 * before it starts yielding its core while it waits for the workers. */
#define SPIN_LIMIT (1u << 15)
#define WAIT_SPINS (1u << 12)

struct opt_pool {
    unsigned n;         /* threads including the caller */
    unsigned started;   /* workers created */
    pthread_t *threads; /* n - 1 workers */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned sleepers;  /* workers in cond_wait; under mu */
    atomic_uint gen;    /* bumped once per run */
    atomic_uint done;   /* workers finished with the current run */
    atomic_int stop;
    opt_task_fn fn;     /* published by the gen increment (release) */
    void *arg;
};

typedef struct worker_arg {
    opt_pool *p;
    unsigned tid;
} worker_arg;

/* Waits until the generation differs from seen (or stop); returns it. */
static unsigned wait_gen(opt_pool *p, unsigned seen)
{
    unsigned g;
    unsigned spins = 0;

    while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen &&
           !atomic_load_explicit(&p->stop, memory_order_relaxed)) {
        if (++spins < SPIN_LIMIT) {
            cpu_relax();
            continue;
        }
        pthread_mutex_lock(&p->mu);
        while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen &&
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

/* Worker loop: runs each new generation's task as thread tid. */
static void *worker_main(void *v)
{
    worker_arg *wa = v;
    opt_pool *p = wa->p;
    unsigned tid = wa->tid;
    unsigned seen = 0;

    free(wa);
    for (;;) {
        seen = wait_gen(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_relaxed))
            break;
        p->fn(p->arg, tid, p->n);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
    }
    return NULL;
}

opt_pool *opt_pool_create(unsigned nthreads)
{
    opt_pool *p;

    if (nthreads < 1 || nthreads > 256)
        return NULL;
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    p->n = nthreads;
    atomic_init(&p->gen, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->stop, 0);
    if (pthread_mutex_init(&p->mu, NULL) != 0)
        goto fail_mutex;
    if (pthread_cond_init(&p->cv, NULL) != 0)
        goto fail_cond;
    p->threads = calloc(nthreads, sizeof(*p->threads));
    if (p->threads == NULL)
        goto fail_threads;
    for (unsigned t = 1; t < nthreads; t++) {
        worker_arg *wa = malloc(sizeof(*wa));

        if (wa == NULL)
            goto fail_threads;
        wa->p = p;
        wa->tid = t;
        if (pthread_create(&p->threads[t - 1], NULL, worker_main, wa) != 0) {
            free(wa);
            goto fail_threads;
        }
        p->started++;
    }
    return p;

fail_threads:
    opt_pool_destroy(p);
    return NULL;
fail_cond:
    pthread_mutex_destroy(&p->mu);
fail_mutex:
    free(p);
    return NULL;
}

void opt_pool_destroy(opt_pool *p)
{
    if (p == NULL)
        return;
    atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned t = 0; t < p->started; t++)
        pthread_join(p->threads[t], NULL);
    free(p->threads);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

unsigned opt_pool_threads(const opt_pool *p)
{
    return p == NULL ? 1 : p->n;
}

void opt_pool_run(opt_pool *p, size_t elems, opt_task_fn fn, void *arg)
{
    if (p == NULL || p->n == 1 || elems < OPT_POOL_MIN_ELEMS * p->n) {
        fn(arg, 0, 1);
        return;
    }
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_mutex_lock(&p->mu);
    if (p->sleepers != 0)
        pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, p->n);
    for (unsigned spins = 0;
         atomic_load_explicit(&p->done, memory_order_acquire) != p->n - 1;) {
        /* a worker that lost its core (an oversubscribed machine) gets it
         * back sooner when the caller stops spinning */
        if (++spins < WAIT_SPINS)
            cpu_relax();
        else
            sched_yield();
    }
}

void opt_split(size_t n, size_t align, unsigned tid, unsigned nthreads,
               size_t *begin, size_t *end)
{
    size_t units = (n + align - 1) / align;
    size_t per = units / nthreads;
    size_t extra = units % nthreads;
    size_t b = (size_t)tid * per + (tid < extra ? tid : extra);
    size_t e = b + per + (tid < extra ? 1 : 0);

    b *= align;
    e *= align;
    *begin = b < n ? b : n;
    *end = e < n ? e : n;
}
