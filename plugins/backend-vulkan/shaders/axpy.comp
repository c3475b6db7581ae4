#version 450
// SPDX-License-Identifier: MIT
// y = alpha * x + y over n elements, grid-stride loop.
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer X { T x[]; };
layout(std430, set = 0, binding = 1) buffer Y { T y[]; };
layout(push_constant) uniform P {
    uint n;
    uint pad;
    T alpha; // offset 8
} p;

void main()
{
    uint stride = gl_NumWorkGroups.x * 256u;

    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride)
        y[i] = p.alpha * x[i] + y[i];
}
