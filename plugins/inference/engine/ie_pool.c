/*
 * ie_pool.c -- a fork-join thread pool for the engine's host code: the
 * caller and threads-1 helpers take task indices from one counter. Helpers
 * spin briefly after a job (decode steps issue many small jobs), then
 * sleep on a condition variable.
 */
#include "ie_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SPIN_ROUNDS 4000

struct ie_pool {
    pthread_t *th;
    int helpers;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    _Atomic uint64_t gen;
    int stop;
    ie_task_fn fn;
    void *arg;
    int tasks;
    atomic_int next;
    int active;
    struct helper_arg *args;
};

struct helper_arg {
    ie_pool *p;
    int index;
};
typedef struct helper_arg helper_arg;

/* Takes tasks until none are left. */
static void drain(ie_pool *p, int thread)
{
    for (;;) {
        int t = atomic_fetch_add(&p->next, 1);

        if (t >= p->tasks)
            break;
        p->fn(p->arg, t, thread);
    }
}

/* A spin-wait hint. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Helper thread body: waits for a new generation, drains, reports. */
static void *helper_main(void *argp)
{
    helper_arg *a = argp;
    ie_pool *p = a->p;
    uint64_t seen = 0;

    for (;;) {
        int spins = 0;

        while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen &&
               spins < SPIN_ROUNDS) {
            cpu_relax();
            spins++;
        }
        pthread_mutex_lock(&p->mu);
        while (atomic_load(&p->gen) == seen && !p->stop)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            break;
        }
        seen = atomic_load(&p->gen);
        pthread_mutex_unlock(&p->mu);
        drain(p, a->index);
        pthread_mutex_lock(&p->mu);
        if (--p->active == 0)
            pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

ie_pool *ie_pool_create(int threads)
{
    ie_pool *p;
    helper_arg *args;

    if (threads < 2 || threads > 1024)
        return NULL;
    p = calloc(1, sizeof(*p));
    args = calloc((size_t)threads, sizeof(*args));
    if (p == NULL || args == NULL)
        goto fail;
    p->th = calloc((size_t)threads, sizeof(*p->th));
    if (p->th == NULL)
        goto fail;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 0; i < threads - 1; i++) {
        args[i].p = p;
        args[i].index = i + 1;
        if (pthread_create(&p->th[i], NULL, helper_main, &args[i]) != 0)
            break;
        p->helpers++;
    }
    p->args = args;
    if (p->helpers != threads - 1) {
        ie_pool_destroy(p);
        return NULL;
    }
    return p;
fail:
    free(args);
    if (p != NULL)
        free(p->th);
    free(p);
    return NULL;
}

void ie_pool_destroy(ie_pool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->helpers; i++)
        pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->th);
    free(p->args);
    free(p);
}

int ie_pool_threads(const ie_pool *p)
{
    return p == NULL ? 1 : p->helpers + 1;
}

void ie_pool_run(ie_pool *p, int tasks, ie_task_fn fn, void *arg)
{
    if (p == NULL || tasks <= 1) {
        for (int t = 0; t < tasks; t++)
            fn(arg, t, 0);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->tasks = tasks;
    atomic_store(&p->next, 0);
    p->active = p->helpers;
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    drain(p, 0);
    pthread_mutex_lock(&p->mu);
    while (p->active > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}
