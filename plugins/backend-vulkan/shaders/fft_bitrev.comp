#version 450
// SPDX-License-Identifier: MIT
// out[b n + bitreverse(j)] = in[b n + j] over batch complex transforms of
// n = 2^logn points (T: float, or double with -DBH_F64): the input order
// of the in-place radix-2 stages.
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer I { T src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { T dst[]; };
layout(push_constant) uniform P {
    uint n;
    uint logn;
    uint total;
} p;

void main()
{
    uint stride = gl_NumWorkGroups.x * 256u;

    for (uint i = gl_GlobalInvocationID.x; i < p.total; i += stride) {
        uint j = i % p.n;
        uint rj = p.logn == 0u ? 0u : bitfieldReverse(j) >> (32u - p.logn);
        uint o = i - j + rj;

        dst[2u * o] = src[2u * i];
        dst[2u * o + 1u] = src[2u * i + 1u];
    }
}
