#version 450
// SPDX-License-Identifier: MIT
// y = alpha A x + beta y, A in CSR with 32-bit indices; beta == 0 never
// reads y. Five bindings. Eight invocations per row (eight rows per
// workgroup of 64, rows over a 2D grid of workgroups), each summing every
// eighth entry, then a tree in shared memory: a power-law row of 10^5
// entries is spread over the eight, and no invocation loops long (lavapipe
// ends an invocation's loops after 65535 iterations in all).
#include "common.glsl"

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Ptr { int ptr[]; };
layout(std430, set = 0, binding = 1) readonly buffer Col { int col[]; };
layout(std430, set = 0, binding = 2) readonly buffer Val { T val[]; };
layout(std430, set = 0, binding = 3) readonly buffer X { T x[]; };
layout(std430, set = 0, binding = 4) buffer Y { T y[]; };
layout(push_constant) uniform P {
    uint rows;
    uint pad;
    T alpha; // offset 8
    T beta;  // offset 12 (f32) or 16 (f64)
} p;

shared T part[64];

void main()
{
    uint id = gl_LocalInvocationID.x, lane = id % 8u;
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint r = group * 8u + id / 8u;
    T acc = T(0);

    if (r < p.rows) {
        int end = ptr[r + 1];

        for (int j = ptr[r] + int(lane); j < end; j += 8)
            acc += val[j] * x[col[j]];
    }
    part[id] = acc;
    memoryBarrierShared();
    barrier();
    for (uint w = 4u; w > 0u; w >>= 1) {
        if (lane < w)
            part[id] += part[id + w];
        memoryBarrierShared();
        barrier();
    }
    if (lane == 0u && r < p.rows) {
        T v = p.alpha * part[id];

        if (p.beta != T(0))
            v += p.beta * y[r];
        y[r] = v;
    }
}
