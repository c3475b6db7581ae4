// SPDX-License-Identifier: MIT
/* Flame graphs of profiles (bhost run --profile): a tree of call stacks,
 * each node a function with the cost of everything below it (inclusive),
 * built from a profiler's output (flame_callgrind.c, flame_perf.c,
 * massif_out.c) and drawn as an SVG icicle: the root on top, callees
 * below their callers, widths proportional to cost. The SVG is standalone
 * and well-formed XML, with a <title> tooltip per frame and no script, so
 * that the HTML report can embed it inline. */
#ifndef BH_FLAME_H
#define BH_FLAME_H

#include "bh_error.h"
#include "bh_strbuf.h"

#include <stddef.h>

/* One frame: a function under its caller. */
typedef struct bh_flame_node {
    char *name;
    double value;        /* inclusive cost: the frame and its callees */
    size_t parent;       /* index of the caller (the root's is 0) */
    size_t first_child;  /* 0: none (node 0 is the root, never a child) */
    size_t next_sibling; /* 0: none */
} bh_flame_node;

/* The tree; node 0 is the root ("all"). */
typedef struct bh_flame {
    bh_flame_node *nodes;
    size_t n, cap;
} bh_flame;

/* An empty tree: the root with value 0. Free with bh_flame_free. */
void bh_flame_init(bh_flame *f);
void bh_flame_free(bh_flame *f);

/* The child of parent called name, added with value 0 when there is none
 * (name is copied). Returns its index. */
size_t bh_flame_child(bh_flame *f, size_t parent, const char *name);

/* Adds value to the frames of one stack: frames[0..n) from the outermost
 * caller to the innermost frame, under the root, and to the root. Frames
 * that are NULL or empty are skipped. */
void bh_flame_add_stack(bh_flame *f, const char *const *frames, size_t n, double value);

/* The deepest level of a frame (the root's children are level 1). */
size_t bh_flame_depth(const bh_flame *f);

/* Appends the SVG of f to out: title (with the total) on top, then one
 * row per level,
 * frames narrower than half a pixel left out; unit names the cost in the
 * tooltips ("Ir", "samples", "bytes"). Deterministic. */
void bh_flame_svg(const bh_flame *f, const char *title, const char *unit, bh_strbuf *out);

/* Writes bh_flame_svg's text to path atomically. 0, or -1 with e naming
 * the file. */
int bh_flame_write_svg(const bh_flame *f, const char *title, const char *unit, const char *path,
                       bh_error *e);

/* The flame graph of a callgrind output file (text of n bytes, file
 * names it in messages), cost Ir. callgrind records calls as caller ->
 * callee pairs with the inclusive cost of the calls, not whole stacks, so
 * the tree is rebuilt from the pairs: the roots are the functions that no
 * collected call reached, and the callees of a function under one caller
 * get its calls' costs scaled by the share of the function's inclusive
 * cost that this caller's calls hold (the split over callers of a callee
 * called from several places is assumed the same for all of its callees).
 * A call back into a function already on the stack (recursion) is not
 * expanded again; its cost stays with the frame that makes it. Stops at
 * 128 levels, at 100000 frames, and leaves out callees below 1/10000 of
 * the total (a tenth of a pixel of the drawing). Returns
 * 0, or -1 with e when the file has no events: line with Ir, a fn=/cfn=
 * name reference that was never defined, or a calls= line without its
 * cost line. */
int bh_flame_from_callgrind(const char *text, size_t n, const char *file, bh_flame *f, bh_error *e);

/* The flame graph of `perf script` output (text of n bytes): one sample
 * per block (a header line, then one indented line per frame, innermost
 * first: "ADDRESS SYMBOL+OFFSET (DSO)"), each sample 1, stacks folded.
 * A frame without a symbol is "[DSO]" or "[unknown]"; the sample's first
 * word (the command) is the root's child. Returns 0, or -1 with e (file
 * names it) when the text holds no sample. */
int bh_flame_from_perf_script(const char *text, size_t n, const char *file, bh_flame *f,
                              bh_error *e);

#endif
