#version 450
// SPDX-License-Identifier: MIT
// C = alpha op(A) op(B) + beta C, column-major as BLAS, 16 x 16 tiles in
// shared memory; one invocation per element of C. beta == 0 never reads C.
// A, B and C start at elements ao, bo, co of their bindings (the host binds
// sub-ranges of large buffers, offsets rounded down to the alignment).
#include "common.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) readonly buffer A { T a[]; };
layout(std430, set = 0, binding = 1) readonly buffer B { T b[]; };
layout(std430, set = 0, binding = 2) buffer C { T c[]; };
layout(push_constant) uniform P {
    uint m, n, k, lda, ldb, ldc, ta, tb;
    uint ao, bo, co, pad;
    T alpha; // offset 48
    T beta;
} p;

shared T As[16][16]; // As[l][i] = A(row0 + i, l0 + l)
shared T Bs[16][16]; // Bs[j][l] = B(l0 + l, col0 + j)

T load_a(uint i, uint l)
{
    return p.ta == 0u ? a[p.ao + i + l * p.lda] : a[p.ao + l + i * p.lda];
}

T load_b(uint l, uint j)
{
    return p.tb == 0u ? b[p.bo + l + j * p.ldb] : b[p.bo + j + l * p.ldb];
}

void main()
{
    uint li = gl_LocalInvocationID.x, lj = gl_LocalInvocationID.y;
    uint i = gl_WorkGroupID.x * 16u + li;
    uint j = gl_WorkGroupID.y * 16u + lj;
    T acc = T(0);

    for (uint l0 = 0u; l0 < p.k; l0 += 16u) {
        uint la = l0 + lj, lb = l0 + li;

        As[lj][li] = (i < p.m && la < p.k) ? load_a(i, la) : T(0);
        Bs[lj][li] = (lb < p.k && j < p.n) ? load_b(lb, j) : T(0);
        barrier();
        for (uint t = 0u; t < 16u; t++)
            acc += As[t][li] * Bs[lj][t];
        barrier();
    }
    if (i < p.m && j < p.n) {
        T v = p.alpha * acc;
        if (p.beta != T(0))
            v += p.beta * c[p.co + i + j * p.ldc];
        c[p.co + i + j * p.ldc] = v;
    }
}
