#version 450
// SPDX-License-Identifier: MIT
// One pass of a two-pass reduction: workgroup g combines its grid-stride
// share of x[0..n) and writes r[r0 + g]. op: 1 sum, 2 min, 3 max (a NaN wins).
// The host runs it over x (or over each piece of a large x, r0 the first
// partial of the piece) with G groups in all, then over r[0..G) with 1.
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer X { T x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer R { T r[]; };
layout(push_constant) uniform P {
    uint n;
    uint op;
    uint r0;
} p;

shared T s[256];

T combine(T a, T b)
{
    if (p.op == 1u)
        return a + b;
    if (isnan(a))
        return a;
    if (isnan(b))
        return b;
    return p.op == 2u ? min(a, b) : max(a, b);
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * 256u;
    uint i = gl_GlobalInvocationID.x;
    // identity: 0 for sum; any element for min/max (n >= 1 there)
    T acc = p.op == 1u ? T(0) : x[i < p.n ? i : 0u];

    for (; i < p.n; i += stride)
        acc = combine(acc, x[i]);
    s[tid] = acc;
    barrier();
    for (uint w = 128u; w > 0u; w >>= 1) {
        if (tid < w)
            s[tid] = combine(s[tid], s[tid + w]);
        barrier();
    }
    if (tid == 0u)
        r[p.r0 + gl_WorkGroupID.x] = s[0];
}
