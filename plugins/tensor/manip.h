// SPDX-License-Identifier: MIT
/*
 * manip.h -- what bench_manip.c (descriptors, lifecycle) and manip_ops.c
 * (parameters, one iteration, verification) share.
 */
#ifndef BH_TENSOR_MANIP_H
#define BH_TENSOR_MANIP_H

#include "tp.h"

enum {
    BH_MANIP_TRANSPOSE,
    BH_MANIP_PERMUTE,
    BH_MANIP_RESHAPE,
    BH_MANIP_SLICE,
    BH_MANIP_CONCAT,
    BH_MANIP_GATHER
};

typedef struct bh_tensor_manip {
    bh_tensor_base base;
    int kind;
    tk_dtype dtype;
    size_t es;
    size_t rows, cols;          /* 2-D ops; gather: the table */
    int ndim;                   /* permute */
    size_t dims[TK_MAX_DIMS];
    int perm[TK_MAX_DIMS];
    size_t step;                /* slice */
    size_t orows, ocols;        /* slice output */
    size_t parts;               /* concat */
    int axis;
    int view;                   /* reshape */
    size_t strides[TK_MAX_DIMS]; /* reshape view: the last result */
    size_t nidx;                /* gather */
    int64_t *idx;
    size_t in_elems, out_elems;
    void *in, *out;
} bh_tensor_manip;

/* Reads the kind's parameters (dtype already read), sets es, sizes and
 * the work counts. BHOST_E_INVALID after set_error on a bad value.
 * [instance] */
bhost_status bh_tensor_manip_params(bh_tensor_manip *m);

/* One iteration of the op: a TK_* status. [instance] */
int bh_tensor_manip_once(bh_tensor_manip *m);

/* Output against the definition (byte comparison). [instance] */
bhost_status bh_tensor_manip_verify(bh_tensor_manip *m);

#endif /* BH_TENSOR_MANIP_H */
