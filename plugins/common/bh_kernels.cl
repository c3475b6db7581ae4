// SPDX-License-Identifier: MIT
/*
 * bh_kernels.cl -- the OpenCL C 1.2 kernels of backend-opencl and
 * backend-level-zero, -DT=float, or -DT=double -DBH_F64 for fp64.
 * backend-opencl embeds this text and builds it at run time (f64 on devices
 * with fp64); backend-level-zero compiles it at build time with clang-14
 * (-target spir64) and llvm-spirv-14 into SPIR-V modules (the f64 one
 * loaded only on devices with fp64). The same algorithms as the Vulkan
 * shaders: grid-stride axpy, a two-pass workgroup-tree reduction, a
 * 16 x 16 tiled column-major gemm and, for a C with at most 8 columns (or
 * rows), a matrix-vector gemm (used by backend-opencl only). Then the
 * scientific kernel extension of backend-opencl (bhost/sci_kernels.h):
 * CSR SpMV one row per work-item, a radix-2 FFT (bit reversal, then one
 * in-place stage per launch) and a direct NCHW convolution.
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

/* c[i] = alpha acc + beta c[i]; beta == 0 never reads c[i]. */
static void gemv_store(__global T *c, size_t i, T acc, T alpha, T beta)
{
    T v = alpha * acc;

    if (beta != (T)0)
        v += beta * c[i];
    c[i] = v;
}

/* The thin side of gemm (gemv.comp of backend-vulkan): R = rows rows of a
 * matrix M (R x k) times nv <= 8 vectors X (k x nv) into C (R x nv),
 * M(r, l) = a[r mr + l ml], X(l, v) = b[l xl + v xv], C(r, v) =
 * c[r cr + v cv] (the host passes op(A), op(B), C, or op(B)^T, op(A)^T,
 * C^T). A row of M contiguous (ml == 1): 16 work-items per row striding
 * over k, 4 rows per work-group, the partials summed in local memory;
 * otherwise one work-item per row walking k. */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void bh_gemv(const uint rows, const uint nv, const uint k, const uint mr,
             const uint ml, const uint xl, const uint xv, const uint cr,
             const uint cv, const T alpha, const T beta,
             __global const T *a, __global const T *b, __global T *c)
{
    __local T s[8][64];
    uint tid = get_local_id(0);
    T acc[8];

    for (uint v = 0; v < 8u; v++)
        acc[v] = (T)0;
    if (ml == 1u) {
        uint lane = tid % 16u;
        size_t r = get_group_id(0) * 4u + tid / 16u;

        if (r < rows)
            for (uint l = lane; l < k; l += 16u) {
                T m = a[r * mr + l];

                for (uint v = 0; v < 8u; v++)
                    if (v < nv)
                        acc[v] += m * b[(size_t)l * xl + (size_t)v * xv];
            }
        for (uint v = 0; v < 8u; v++)
            if (v < nv)
                s[v][tid] = acc[v];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint w = 8u; w > 0u; w >>= 1) {
            if (lane < w)
                for (uint v = 0; v < 8u; v++)
                    if (v < nv)
                        s[v][tid] += s[v][tid + w];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lane < nv && r < rows)
            gemv_store(c, r * cr + (size_t)lane * cv, s[lane][tid - lane],
                       alpha, beta);
    } else {
        size_t r = get_global_id(0);

        if (r >= rows)
            return;
        for (uint l = 0; l < k; l++) {
            T m = a[r * mr + (size_t)l * ml];

            for (uint v = 0; v < 8u; v++)
                if (v < nv)
                    acc[v] += m * b[(size_t)l * xl + (size_t)v * xv];
        }
        for (uint v = 0; v < nv; v++)
            gemv_store(c, r * cr + (size_t)v * cv, acc[v], alpha, beta);
    }
}

/* ---- The scientific kernel extension (bhost/sci_kernels.h) ------------ */

/* y = alpha A x + beta y, A in CSR (32-bit indices), one work-item per
 * row, grid-stride; beta == 0 never reads y. */
__kernel void bh_spmv(const uint rows, const T alpha, const T beta,
                      __global const int *ptr, __global const int *col,
                      __global const T *val, __global const T *x,
                      __global T *y)
{
    for (size_t r = get_global_id(0); r < rows; r += get_global_size(0)) {
        T acc = (T)0;

        for (int j = ptr[r]; j < ptr[r + 1]; j++)
            acc += val[j] * x[col[j]];
        acc *= alpha;
        if (beta != (T)0)
            acc += beta * y[r];
        y[r] = acc;
    }
}

#ifdef BH_F64
typedef double2 T2;
#else
typedef float2 T2;
#endif

/* out[b n + bitreverse(j)] = in[b n + j] over batch transforms of n =
 * 2^logn points: the input order of the in-place radix-2 stages. */
__kernel void bh_fft_bitrev(const uint n, const uint logn, const uint total,
                            __global const T2 *in, __global T2 *out)
{
    for (size_t i = get_global_id(0); i < total; i += get_global_size(0)) {
        uint j = (uint)(i % n), rj = 0;

        for (uint b = 0; b < logn; b++)
            rj |= ((j >> b) & 1u) << (logn - 1u - b);
        out[i - j + rj] = in[i];
    }
}

/* One in-place radix-2 decimation-in-time stage of half-size m over
 * batch transforms of n points: each work-item one butterfly, twiddle
 * e^(sign i pi j / m) from cospi/sinpi (exact j/m). */
__kernel void bh_fft_stage(const uint n, const uint m, const int sign,
                           const uint butterflies, __global T2 *z)
{
    for (size_t t = get_global_id(0); t < butterflies;
         t += get_global_size(0)) {
        uint hn = n / 2u, i = (uint)(t % hn), j = i % m;
        size_t i0 = t / hn * n + (size_t)(i / m) * 2u * m + j;
        T a = (T)j / (T)m;
        T2 w = (T2)(cospi(a), (T)sign * sinpi(a));
        T2 u = z[i0], v = z[i0 + m];
        T2 vw = (T2)(v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x);

        z[i0] = u + vw;
        z[i0 + m] = u - vw;
    }
}

/* Direct NCHW convolution (cross-correlation), one work-item per output
 * element, grid-stride. sh: n c h w k r s stride_h stride_w pad_h pad_w
 * groups P Q (s0..sd). */
__kernel void bh_conv2d(const uint16 sh, __global const T *in,
                        __global const T *f, __global T *out)
{
    uint C = sh.s1, H = sh.s2, W = sh.s3, K = sh.s4, R = sh.s5, S = sh.s6;
    uint P = sh.sc, Q = sh.sd, cg = C / sh.sb, kg = K / sh.sb;
    size_t total = (size_t)sh.s0 * K * P * Q;

    for (size_t o = get_global_id(0); o < total; o += get_global_size(0)) {
        uint q = (uint)(o % Q), p = (uint)(o / Q % P);
        uint k = (uint)(o / Q / P % K), nn = (uint)(o / Q / P / K);
        __global const T *ib = in + ((size_t)nn * C + k / kg * cg) * H * W;
        __global const T *fb = f + (size_t)k * cg * R * S;
        T acc = (T)0;

        for (uint c = 0; c < cg; c++)
            for (uint r = 0; r < R; r++) {
                int y = (int)(p * sh.s7 + r) - (int)sh.s9;

                if (y < 0 || y >= (int)H)
                    continue;
                for (uint s = 0; s < S; s++) {
                    int x = (int)(q * sh.s8 + s) - (int)sh.sa;

                    if (x >= 0 && x < (int)W)
                        acc += ib[((size_t)c * H + y) * W + x] *
                               fb[(c * R + r) * S + s];
                }
            }
        out[o] = acc;
    }
}
