// SPDX-License-Identifier: MIT
/*
 * bh_be_sci.c -- what the backends share of the scientific kernel
 * extension (bhost/sci_kernels.h): the lookup of its tables by id and the
 * argument checks of spmv, fft and conv2d, worded alike everywhere.
 */
#include <bhost/backend_helper.h>

#include <inttypes.h>
#include <string.h>

#define LIMIT_31 ((uint64_t)INT32_MAX)

const void *bh_be_find_sci(const bh_be_sci_tables *t, const char *id)
{
    if (strcmp(id, BHOST_KERNEL_SPMV) == 0)
        return t->spmv;
    if (strcmp(id, BHOST_KERNEL_FFT) == 0)
        return t->fft;
    if (strcmp(id, BHOST_KERNEL_CONV2D) == 0)
        return t->conv2d;
    return NULL;
}

/* buf's range [0, n) as bh_be_check_range(.., op, what), and buf not out
 * (when out is not NULL). */
static bhost_status range_apart(const bh_be *be, const bhost_dev *dev, const bhost_buf *buf,
                                uint64_t n, const bhost_buf *out, const char *op, const char *what)
{
    bhost_status st = bh_be_check_range(be, dev, buf, 0, n, op, what);

    if (st == BHOST_OK && out != NULL && buf == out)
        st = bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                        "%s: %s must not be the output buffer", op, what);
    return st;
}

bhost_status bh_be_check_spmv(const bh_be *be, const bhost_dev *dev, const bhost_spmv_args *a,
                              uint64_t es, const char *types)
{
    bhost_status st;

    if (!BHOST_HAS(bhost_spmv_args, a, y) || es == 0 || a->index_type != BHOST_DTYPE_I32 ||
        a->reserved != 0 || a->rows > LIMIT_31 || a->cols > LIMIT_31 || a->nnz > LIMIT_31)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_UNSUPPORTED,
                          "spmv: dtype %" PRId32 ", index type %" PRId32
                          " or sizes unsupported (I32 indices, counts below "
                          "2^31)%s",
                          a->type, a->index_type, types);
    st = range_apart(be, dev, a->row_ptr, (a->rows + 1) * 4, a->y, "spmv", "row_ptr");
    if (st == BHOST_OK)
        st = range_apart(be, dev, a->col_idx, a->nnz * 4, a->y, "spmv", "col_idx");
    if (st == BHOST_OK)
        st = range_apart(be, dev, a->values, a->nnz * es, a->y, "spmv", "values");
    if (st == BHOST_OK)
        st = range_apart(be, dev, a->x, a->cols * es, a->y, "spmv", "x");
    if (st == BHOST_OK)
        st = bh_be_check_range(be, dev, a->y, 0, a->rows * es, "spmv", "y");
    return st;
}

bhost_status bh_be_check_fft(const bh_be *be, const bhost_dev *dev, const bhost_fft_args *a,
                             uint64_t es, int pow2, const char *types)
{
    uint64_t bytes;

    if (!BHOST_HAS(bhost_fft_args, a, out) || es == 0 || a->n == 0 || a->batch == 0 ||
        a->n > LIMIT_31 || a->batch > LIMIT_31 / a->n || (pow2 && (a->n & (a->n - 1)) != 0))
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_UNSUPPORTED,
                          "fft: dtype %" PRId32 ", n=%" PRIu64 " or batch=%" PRIu64
                          " unsupported (n x batch below "
                          "2^31%s)%s",
                          a->type, a->n, a->batch, pow2 ? ", n a power of two" : "", types);
    if ((a->direction != BHOST_FFT_FORWARD && a->direction != BHOST_FFT_INVERSE) ||
        a->reserved != 0)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "fft: direction %" PRId32 " (expected -1 or 1) or "
                          "reserved != 0",
                          a->direction);
    bytes = a->n * a->batch * 2 * es;
    {
        bhost_status st = range_apart(be, dev, a->in, bytes, a->out, "fft", "in");

        return st == BHOST_OK ? bh_be_check_range(be, dev, a->out, 0, bytes, "fft", "out") : st;
    }
}

/* The conv2d shape is well formed: "conv2d: <what>" when not. */
static const char *conv_shape_error(const bhost_conv2d_args *a)
{
    if (a->n == 0 || a->c == 0 || a->h == 0 || a->w == 0 || a->k == 0 || a->r == 0 || a->s == 0)
        return "every size must be at least 1";
    if (a->stride_h == 0 || a->stride_w == 0 || a->groups == 0)
        return "strides and groups must be at least 1";
    if (a->c % a->groups != 0 || a->k % a->groups != 0)
        return "groups must divide c and k";
    if (a->n > LIMIT_31 || a->c > LIMIT_31 || a->h > LIMIT_31 || a->w > LIMIT_31 ||
        a->k > LIMIT_31 || a->pad_h > LIMIT_31 || a->pad_w > LIMIT_31 || a->r > LIMIT_31 ||
        a->s > LIMIT_31 || a->n * a->c > LIMIT_31 / a->h / a->w)
        return "sizes must stay below 2^31";
    if (a->r > a->h + 2 * a->pad_h || a->s > a->w + 2 * a->pad_w)
        return "the filter is larger than the padded image";
    return NULL;
}

bhost_status bh_be_check_conv2d(const bh_be *be, const bhost_dev *dev, const bhost_conv2d_args *a,
                                uint64_t es, const char *types, uint64_t *p, uint64_t *q)
{
    const char *why;
    bhost_status st;

    if (!BHOST_HAS(bhost_conv2d_args, a, out) || es == 0)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_UNSUPPORTED,
                          "conv2d: dtype %" PRId32 " unsupported%s", a->type, types);
    why = conv_shape_error(a);
    if (why != NULL)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID, "conv2d: %s", why);
    *p = (a->h + 2 * a->pad_h - a->r) / a->stride_h + 1;
    *q = (a->w + 2 * a->pad_w - a->s) / a->stride_w + 1;
    if (a->n * a->k > LIMIT_31 / *p / *q || a->k * (a->c / a->groups) > LIMIT_31 / a->r / a->s)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "conv2d: sizes must stay below 2^31");
    st = range_apart(be, dev, a->in, a->n * a->c * a->h * a->w * es, a->out, "conv2d", "in");
    if (st == BHOST_OK)
        st = range_apart(be, dev, a->filter, a->k * (a->c / a->groups) * a->r * a->s * es, a->out,
                         "conv2d", "filter");
    if (st == BHOST_OK)
        st = bh_be_check_range(be, dev, a->out, 0, a->n * a->k * *p * *q * es, "conv2d", "out");
    return st;
}
