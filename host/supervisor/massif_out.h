// SPDX-License-Identifier: MIT
/* Reading a massif output file (valgrind --tool=massif, bhost run
 * --profile massif): its snapshots' heap sizes and the heap tree of the
 * peak snapshot. */
#ifndef BH_MASSIF_OUT_H
#define BH_MASSIF_OUT_H

#include "bh_error.h"
#include "flame.h"

#include <stddef.h>

typedef struct bh_massif_peak {
    int snapshot;       /* the peak snapshot's number */
    int has_tree;       /* it is marked heap_tree=peak and has its tree */
    double time;        /* when it was taken, in the file's time_unit */
    double heap_bytes;  /* mem_heap_B: bytes asked for */
    double extra_bytes; /* mem_heap_extra_B: allocator overhead */
    double stacks_bytes;
    unsigned snapshots; /* snapshots in the file */
} bh_massif_peak;

/* Parses n bytes of massif output (file names it in messages) into *out:
 * the snapshot marked heap_tree=peak, or, where none is, the one with the
 * most heap bytes. With f, adds the peak's heap tree to f: the allocation
 * functions at the top and the callers that reached them below, each
 * frame's value its bytes at the peak (bh_flame_svg draws it). Pure: no
 * I/O. Returns 0, or -1 with e = "FILE:LINE: ..." when a snapshot's
 * mem_heap_B is missing or not a number, or e = "FILE: no snapshot" when
 * there is none. */
int bh_massif_parse(const char *text, size_t n, const char *file, bh_massif_peak *out, bh_flame *f,
                    bh_error *e);

#endif
