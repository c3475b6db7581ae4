/*
 * tk_pool.c -- a fixed thread pool for the kernels: the caller is thread 0
 * of every call, workers wait on a generation counter (spinning for a
 * short while, then sleeping on a condition variable), so back-to-back
 * calls in a timing loop cost well under a microsecond to start.
 */
#include "tk_internal.h"

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

/* Work below this many bytes per thread runs on the caller alone. */
#define MIN_BYTES_PER_THREAD ((size_t)128 << 10)
/* Pause instructions a worker spins before it sleeps. */
#define SPIN_LIMIT (1u << 16)
/* Pause instructions the caller spins for the workers before it yields
 * its CPU between checks (on an oversubscribed machine a worker may be
 * waiting for exactly that CPU). */
#define JOIN_SPINS (1u << 12)

struct tk_pool {
    unsigned n;            /* threads including the caller */
    pthread_t *threads;    /* n - 1 workers */
    unsigned started;      /* workers actually created */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned sleepers;     /* workers in cond_wait; under mu */
    atomic_uint gen;       /* bumped once per call */
    atomic_uint done;      /* workers finished with the current call */
    atomic_int stop;
    tk_task_fn fn;         /* published by the gen increment (release) */
    void *arg;
};

typedef struct worker_arg {
    tk_pool *p;
    unsigned tid;
} worker_arg;

/* Waits for a generation other than seen (or stop); returns it. */
static unsigned wait_gen(tk_pool *p, unsigned seen)
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

/* Worker loop: run each new generation's task as thread tid. */
static void *worker_main(void *v)
{
    worker_arg *wa = v;
    tk_pool *p = wa->p;
    unsigned seen = 0;

    for (;;) {
        seen = wait_gen(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_relaxed))
            break;
        p->fn(p->arg, wa->tid, p->n);
        atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
    }
    free(wa);
    return NULL;
}

tk_pool *tk_pool_create(unsigned nthreads)
{
    tk_pool *p;

    if (nthreads < 1 || nthreads > 256)
        return NULL;
    p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    p->n = nthreads;
    atomic_init(&p->gen, 0);
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
    if (p->threads == NULL) {
        tk_pool_destroy(p);
        return NULL;
    }
    for (unsigned t = 1; t < nthreads; t++) {
        worker_arg *wa = malloc(sizeof(*wa));

        if (wa == NULL) {
            tk_pool_destroy(p);
            return NULL;
        }
        wa->p = p;
        wa->tid = t;
        if (pthread_create(&p->threads[t - 1], NULL, worker_main, wa) != 0) {
            free(wa);
            tk_pool_destroy(p);
            return NULL;
        }
        p->started++;
    }
    return p;
}

void tk_pool_destroy(tk_pool *p)
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

unsigned tk_pool_threads(const tk_pool *p)
{
    return p == NULL ? 1 : p->n;
}

void tk_pool_run(tk_pool *p, size_t work_bytes, tk_task_fn fn, void *arg)
{
    if (p == NULL || p->n == 1 || work_bytes < MIN_BYTES_PER_THREAD * p->n) {
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
         atomic_load_explicit(&p->done, memory_order_acquire) != p->n - 1;
         spins++) {
        if (spins < JOIN_SPINS)
            cpu_relax();
        else
            sched_yield();
    }
}

void tk_split(size_t n, size_t align, unsigned tid, unsigned nthr,
              size_t *begin, size_t *end)
{
    size_t units = (n + align - 1) / align;
    size_t per = units / nthr;
    size_t extra = units % nthr;
    size_t b = (size_t)tid * per + (tid < extra ? tid : extra);
    size_t e = b + per + (tid < extra ? 1 : 0);

    b *= align;
    e *= align;
    *begin = b < n ? b : n;
    *end = e < n ? e : n;
}
