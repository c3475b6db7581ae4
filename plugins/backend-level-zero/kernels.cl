// SPDX-License-Identifier: MIT
/*
 * kernels.cl -- OpenCL C 1.2 kernels of backend-level-zero, compiled at
 * build time by clang-14 (-target spir64) and llvm-spirv-14 into SPIR-V
 * modules: -DT=float, and -DT=double -DBH_F64 (loaded only on devices
 * with fp64). The same algorithms as the OpenCL backend's kernels.
 */
#ifdef BH_F64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* y = alpha * x + y over n elements. */
__kernel void bh_axpy(const ulong n, const T alpha, __global const T *x,
                      __global T *y)
{
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        y[i] = alpha * x[i] + y[i];
}

/* op 1 sum, 2 min, 3 max; a NaN wins min and max. Branch-free. */
static T combine(T a, T b, uint op)
{
    T m = op == 2u ? fmin(a, b) : fmax(a, b);

    m = isnan(b) ? b : m;
    m = isnan(a) ? a : m;
    return op == 1u ? a + b : m;
}

/* Workgroup g combines its grid-stride share of x[0..n) into r[g]. */
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void bh_reduce(const ulong n, const uint op, __global const T *x,
               __global T *r)
{
    __local T s[256];
    size_t tid = get_local_id(0);
    size_t i = get_global_id(0);
    size_t stride = get_global_size(0);
    T acc = op == 1u ? (T)0 : x[i < n ? i : 0];

    for (; i < n; i += stride)
        acc = combine(acc, x[i], op);
    s[tid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint w = 128u; w > 0u; w >>= 1) {
        if (tid < w)
            s[tid] = combine(s[tid], s[tid + w], op);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0)
        r[get_group_id(0)] = s[0];
}

/* C = alpha op(A) op(B) + beta C, column-major; beta == 0 never reads C. */
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void bh_gemm(const uint m, const uint n, const uint k, const uint lda,
             const uint ldb, const uint ldc, const uint ta, const uint tb,
             const T alpha, const T beta, __global const T *a,
             __global const T *b, __global T *c)
{
    __local T as[16][16]; /* as[l][i] = A(row0 + i, l0 + l) */
    __local T bs[16][16]; /* bs[j][l] = B(l0 + l, col0 + j) */
    uint li = get_local_id(0), lj = get_local_id(1);
    uint i = get_group_id(0) * 16u + li;
    uint j = get_group_id(1) * 16u + lj;
    T acc = (T)0;

    for (uint l0 = 0; l0 < k; l0 += 16u) {
        uint la = l0 + lj, lb = l0 + li;

        as[lj][li] = (i < m && la < k)
                         ? (ta ? a[la + (size_t)i * lda] : a[i + (size_t)la * lda])
                         : (T)0;
        bs[lj][li] = (lb < k && j < n)
                         ? (tb ? b[j + (size_t)lb * ldb] : b[lb + (size_t)j * ldb])
                         : (T)0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint t = 0; t < 16u; t++)
            acc += as[t][li] * bs[lj][t];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < m && j < n) {
        T v = alpha * acc;
        if (beta != (T)0)
            v += beta * c[i + (size_t)j * ldc];
        c[i + (size_t)j * ldc] = v;
    }
}
