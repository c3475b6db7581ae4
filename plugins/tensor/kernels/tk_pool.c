/*
 * tk_pool.c -- a fixed thread pool for the kernels. A call is split into
 * n shares (share s is the (s, n) argument of the task); the caller and
 * the workers claim shares from one atomic word holding the call's
 * generation and the next unclaimed share. A worker that is not running
 * when a call starts (another process holds its CPU) therefore delays
 * nothing: the caller runs the shares it would have taken. Workers spin
 * briefly on the word after a call, then sleep on a condition variable,
 * so back-to-back calls in a timing loop start in well under a
 * microsecond.
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
/* Pause instructions the caller spins for claimed shares to finish
 * before it yields its CPU between checks. */
#define JOIN_SPINS (1u << 12)

struct tk_pool {
    unsigned n;              /* shares per call = threads incl. the caller */
    pthread_t *threads;      /* n - 1 workers */
    unsigned started;        /* workers actually created */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned sleepers;       /* workers in cond_wait; under mu */
    uint32_t gen;            /* generation of the last call; caller only */
    _Atomic uint64_t word;   /* generation << 32 | next unclaimed share */
    atomic_uint done;        /* shares of the current call finished */
    atomic_int stop;
    tk_task_fn fn;           /* published by the store of word (release) */
    void *arg;
};

/* The generation half of a pool word. */
static uint32_t gen_of(uint64_t w)
{
    return (uint32_t)(w >> 32);
}

/* Claims and runs shares of generation g until none is left or the call
 * is over. */
static void run_shares(tk_pool *p, uint32_t g)
{
    uint64_t w = atomic_load_explicit(&p->word, memory_order_acquire);

    while (gen_of(w) == g && (uint32_t)w < p->n) {
        if (atomic_compare_exchange_weak_explicit(&p->word, &w, w + 1,
                                                  memory_order_acq_rel,
                                                  memory_order_acquire)) {
            p->fn(p->arg, (unsigned)(uint32_t)w, p->n);
            atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
            w = atomic_load_explicit(&p->word, memory_order_acquire);
        }
    }
}

/* Waits for a generation other than seen (or stop); returns it. */
static uint32_t wait_gen(tk_pool *p, uint32_t seen)
{
    uint32_t g;
    unsigned spins = 0;

    while ((g = gen_of(atomic_load_explicit(&p->word, memory_order_acquire))) ==
               seen &&
           !atomic_load_explicit(&p->stop, memory_order_relaxed)) {
        if (++spins < SPIN_LIMIT) {
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

/* Worker loop: take shares of each new generation. */
static void *worker_main(void *v)
{
    tk_pool *p = v;
    uint32_t seen = 0;

    for (;;) {
        seen = wait_gen(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_relaxed))
            break;
        run_shares(p, seen);
    }
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
    atomic_init(&p->word, (uint64_t)nthreads); /* generation 0: all claimed */
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
        if (pthread_create(&p->threads[t - 1], NULL, worker_main, p) != 0) {
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
    atomic_store_explicit(&p->word, (uint64_t)(p->gen + 1) << 32 | p->n,
                          memory_order_release);
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
    uint32_t g;

    if (p == NULL || p->n == 1 || work_bytes < MIN_BYTES_PER_THREAD * p->n) {
        fn(arg, 0, 1);
        return;
    }
    /* The previous call finished every share, so no thread is inside fn;
     * a late worker's claim on the old generation fails. */
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    g = ++p->gen;
    if (g == 0) /* generation 0 means "nothing yet" to a fresh worker */
        g = ++p->gen;
    atomic_store_explicit(&p->word, (uint64_t)g << 32, memory_order_release);
    pthread_mutex_lock(&p->mu);
    if (p->sleepers != 0)
        pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    run_shares(p, g);
    for (unsigned spins = 0;
         atomic_load_explicit(&p->done, memory_order_acquire) != p->n;
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
