/*
 * mob_pool.c -- a small persistent thread pool: run one task on every
 * thread and wait (the caller is thread 0). The mobile benchmarks use it
 * to run a layer on as many cores as the profile allows.
 */
#include "mob.h"

#include <pthread.h>
#include <stdlib.h>

struct mob_pool {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    mob_task fn;
    void *arg;
    uint64_t generation; /* bumped for each task */
    unsigned threads;    /* including the caller */
    unsigned started;    /* worker threads running */
    unsigned pending;    /* workers still on the current task */
    int quit;
    pthread_t *tids;
};

typedef struct worker_arg {
    mob_pool *p;
    unsigned tid;
} worker_arg;

static void *worker(void *a)
{
    worker_arg *wa = a;
    mob_pool *p = wa->p;
    unsigned tid = wa->tid;
    uint64_t seen = 0;

    free(wa);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->go, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        p->fn(p->arg, tid, p->threads);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

mob_pool *mob_pool_new(unsigned threads)
{
    mob_pool *p = calloc(1, sizeof(*p));

    if (p == NULL || threads == 0) {
        free(p);
        return NULL;
    }
    p->threads = threads;
    p->tids = calloc(threads, sizeof(*p->tids));
    if (p->tids == NULL) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (unsigned t = 1; t < threads; t++) {
        worker_arg *wa = malloc(sizeof(*wa));

        if (wa == NULL)
            break;
        wa->p = p;
        wa->tid = t;
        if (pthread_create(&p->tids[t], NULL, worker, wa) != 0) {
            free(wa);
            break;
        }
        p->started++;
    }
    if (p->started != threads - 1) {
        mob_pool_free(p);
        return NULL;
    }
    return p;
}

void mob_pool_free(mob_pool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    for (unsigned t = 1; t <= p->started; t++)
        pthread_join(p->tids[t], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p->tids);
    free(p);
}

void mob_pool_run(mob_pool *p, mob_task fn, void *arg)
{
    if (p == NULL || p->threads == 1) {
        fn(arg, 0, 1);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->arg = arg;
    p->pending = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->lock);
    fn(arg, 0, p->threads);
    pthread_mutex_lock(&p->lock);
    while (p->pending != 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

unsigned mob_pool_size(const mob_pool *p)
{
    return p ? p->threads : 1;
}
