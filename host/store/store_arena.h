// SPDX-License-Identifier: MIT
/* Bump allocation for cJSON while ingesting: a worker parses a result
 * document (tens of thousands of small nodes), turns it into rows and
 * drops it; with the arena the nodes cost a pointer bump each and the
 * whole tree is dropped at once, instead of one malloc and one free per
 * node (glibc's consolidation of those frees was a third of the ingest).
 *
 * bh_store_arena_install() points cJSON's allocator at this module for the
 * whole process until bh_store_arena_uninstall(); a thread that is not
 * between bh_store_arena_begin() and bh_store_arena_end() still gets
 * plain malloc/free. Nothing cJSON allocates inside a begin/end span may
 * be used or freed after its end. Not for use while other threads use
 * cJSON outside these rules. */
#ifndef BH_STORE_ARENA_H
#define BH_STORE_ARENA_H

#include <stddef.h>

/* Installs and removes the cJSON hooks (call with no cJSON object alive
 * that was allocated under the other hooks and will be freed under these,
 * and vice versa). */
void bh_store_arena_install(void);
void bh_store_arena_uninstall(void);

/* This thread's cJSON allocations come from its arena until
 * bh_store_arena_end(), which drops them all (the memory is kept for the
 * next span). */
void bh_store_arena_begin(void);
void bh_store_arena_end(void);

/* n bytes (aligned for any type) from this thread's arena, which must be
 * between begin and end; dropped with the rest at end. */
void *bh_store_arena_alloc(size_t n);

/* Frees this thread's arena memory (at thread exit). */
void bh_store_arena_release(void);

#endif
