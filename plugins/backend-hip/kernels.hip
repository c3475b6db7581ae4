// SPDX-License-Identifier: MIT
// kernels.hip -- device code of backend-hip, compiled by hipcc --genco
// into a code-object bundle (one code object per --offload-arch) at build
// time and loaded at run time with hipModuleLoadData (no link-time
// dependency on the HIP runtime). Every kernel has C linkage so that
// hipModuleGetFunction finds it by name. Debian has no hipBLAS/rocBLAS:
// gemm is the 16 x 16 tiled kernel below. The same algorithms as the
// CUDA/Vulkan/OpenCL kernels: grid-stride axpy, a two-pass
// workgroup-tree reduction, a tiled column-major gemm.
#include <hip/hip_runtime.h>

template <typename T>
__device__ void axpy(unsigned long long n, T alpha, const T *x, T *y)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;

    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
                                threadIdx.x;
         i < n; i += stride)
        y[i] = alpha * x[i] + y[i];
}

template <typename T>
__device__ T combine(T a, T b, unsigned op)
{
    if (op == 1u)
        return a + b;
    if (a != a)
        return a;
    if (b != b)
        return b;
    return op == 2u ? (b < a ? b : a) : (b > a ? b : a);
}

// Block g combines its grid-stride share of x[0..n) into r[g]; 256 threads.
template <typename T>
__device__ void reduce(unsigned long long n, unsigned op, const T *x, T *r)
{
    __shared__ T s[256];
    unsigned tid = threadIdx.x;
    unsigned long long i = blockIdx.x * 256ull + tid;
    unsigned long long stride = gridDim.x * 256ull;
    T acc = op == 1u ? T(0) : x[i < n ? i : 0];

    for (; i < n; i += stride)
        acc = combine(acc, x[i], op);
    s[tid] = acc;
    __syncthreads();
    for (unsigned w = 128; w > 0; w >>= 1) {
        if (tid < w)
            s[tid] = combine(s[tid], s[tid + w], op);
        __syncthreads();
    }
    if (tid == 0)
        r[blockIdx.x] = s[0];
}

// C = alpha op(A) op(B) + beta C, column-major, 16 x 16 blocks.
template <typename T>
__device__ void gemm(unsigned m, unsigned n, unsigned k, unsigned lda,
                     unsigned ldb, unsigned ldc, unsigned ta, unsigned tb,
                     T alpha, T beta, const T *a, const T *b, T *c)
{
    __shared__ T as[16][16];
    __shared__ T bs[16][16];
    unsigned li = threadIdx.x, lj = threadIdx.y;
    unsigned i = blockIdx.x * 16 + li, j = blockIdx.y * 16 + lj;
    T acc = T(0);

    for (unsigned l0 = 0; l0 < k; l0 += 16) {
        unsigned la = l0 + lj, lb = l0 + li;

        as[lj][li] = (i < m && la < k)
                         ? (ta ? a[la + (size_t)i * lda] : a[i + (size_t)la * lda])
                         : T(0);
        bs[lj][li] = (lb < k && j < n)
                         ? (tb ? b[j + (size_t)lb * ldb] : b[lb + (size_t)j * ldb])
                         : T(0);
        __syncthreads();
        for (unsigned t = 0; t < 16; t++)
            acc += as[t][li] * bs[lj][t];
        __syncthreads();
    }
    if (i < m && j < n) {
        T v = alpha * acc;
        if (beta != T(0))
            v += beta * c[i + (size_t)j * ldc];
        c[i + (size_t)j * ldc] = v;
    }
}

#define BH_INSTANTIATE(T, suffix)                                              \
    extern "C" __global__ void bh_axpy_##suffix(unsigned long long n, T alpha, \
                                                const T *x, T *y)              \
    {                                                                          \
        axpy<T>(n, alpha, x, y);                                               \
    }                                                                          \
    extern "C" __global__ void __launch_bounds__(256)                          \
        bh_reduce_##suffix(unsigned long long n, unsigned op, const T *x,      \
                           T *r)                                               \
    {                                                                          \
        reduce<T>(n, op, x, r);                                                \
    }                                                                          \
    extern "C" __global__ void bh_gemm_##suffix(                               \
        unsigned m, unsigned n, unsigned k, unsigned lda, unsigned ldb,        \
        unsigned ldc, unsigned ta, unsigned tb, T alpha, T beta, const T *a,   \
        const T *b, T *c)                                                      \
    {                                                                          \
        gemm<T>(m, n, k, lda, ldb, ldc, ta, tb, alpha, beta, a, b, c);         \
    }

BH_INSTANTIATE(float, f32)
BH_INSTANTIATE(double, f64)
