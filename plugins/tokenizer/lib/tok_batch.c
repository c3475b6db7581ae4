// SPDX-License-Identifier: MIT
/*
 * tok_batch.c -- batch encoding over a pool of pthreads: items are handed
 * out through an atomic counter, each thread has its own workspace, and
 * every result lands in outs[i] so the order is the input order.
 */
#include "tok_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct batch {
    const bh_tok *t;
    const char *const *texts;
    const size_t *lens;
    size_t count;
    unsigned flags;
    bh_tok_ids *outs;
    atomic_size_t next;
    atomic_int failed;
} batch;

/* Encodes items until none are left; records a failure in b->failed. */
static void *worker(void *arg)
{
    batch *b = arg;
    bh_tok_ws *ws = bh_tok_ws_new(b->t);
    if (ws == NULL) {
        atomic_store(&b->failed, 1);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&b->next, 1);
        if (i >= b->count)
            break;
        b->outs[i].n = 0;
        if (bh_tok_encode(b->t, ws, b->texts[i], b->lens[i], b->flags,
                          &b->outs[i]) != 0)
            atomic_store(&b->failed, 1);
    }
    bh_tok_ws_free(ws);
    return NULL;
}

int bh_tok_encode_batch(const bh_tok *t, const char *const *texts,
                        const size_t *lens, size_t count, unsigned flags,
                        unsigned threads, bh_tok_ids *outs)
{
    batch b = {t, texts, lens, count, flags, outs, 0, 0};
    pthread_t tid[256];
    unsigned started = 0;

    if (threads > 256)
        threads = 256;
    if (threads > count)
        threads = (unsigned)count;
    for (unsigned k = 1; k < threads; k++) {
        if (pthread_create(&tid[started], NULL, worker, &b) != 0) {
            atomic_store(&b.failed, 1);
            break;
        }
        started++;
    }
    worker(&b); /* the calling thread works too */
    for (unsigned k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    return atomic_load(&b.failed) ? -1 : 0;
}
