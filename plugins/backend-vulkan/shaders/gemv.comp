#version 450
// SPDX-License-Identifier: MIT
// The thin side of gemm: C = alpha op(A) op(B) + beta C when C has at most 8
// columns (or, transposed by the host, at most 8 rows). Seen as R rows of a
// matrix M (R x k) times nv <= 8 vectors X (k x nv) into C (R x nv), every
// operand addressed by a row and a column stride the host derives from the
// gemm's leading dimensions and transposes (it binds A or B at binding 0,
// whichever plays M). beta == 0 never reads C.
//  - A row of M contiguous (ml == 1, e.g. op(A) = A^T, the engine's W'^T
//    x): the invocations of a row stride over k with coalesced reads and
//    sum their partials: one subgroup per row, subgroupAdd (built with
//    -DBH_SUBGROUP, for devices with subgroup arithmetic in compute), or
//    else LANES invocations per row and a tree in shared memory.
//  - Otherwise (a column of M contiguous): one invocation per row walking
//    k, neighbouring invocations reading neighbouring elements.
// Workgroups stride over the rows, so any R fits any grid.
#include "common.glsl"
#ifdef BH_SUBGROUP
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#endif

#define WG 64u
#define VMAX 8u
#define LANES 16u // per row without subgroups; at least VMAX

layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer M { T a[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { T b[]; };
layout(std430, set = 0, binding = 2) buffer C { T c[]; };
layout(push_constant) uniform P {
    uint rows, nv, k;
    uint mr, ml; // M(r, l) = a[ao + r * mr + l * ml]
    uint xl, xv; // X(l, v) = b[bo + l * xl + v * xv]
    uint cr;     // C(r, v) = c[co + r * cr + v * cv]
    uint ao, bo, co;
    uint cv;
    T alpha; // offset 48, as in gemm.comp
    T beta;
} p;

#ifndef BH_SUBGROUP
shared T s[VMAX][WG];
#endif

// Writes alpha acc + beta C(r, v).
void store(uint r, uint v, T acc)
{
    uint i = p.co + r * p.cr + v * p.cv;
    T out_v = p.alpha * acc;

    if (p.beta != T(0))
        out_v += p.beta * c[i];
    c[i] = out_v;
}

#ifdef BH_SUBGROUP
// One subgroup per row (rows strided by the grid), k split over its lanes;
// lanes numbered among the active ones, should a subgroup not be full.
void rows_by_group()
{
    uint lane = subgroupExclusiveAdd(1u), lanes = subgroupAdd(1u);
    uint per = gl_NumSubgroups;
    T acc[VMAX];

    for (uint r = gl_WorkGroupID.x * per + gl_SubgroupID; r < p.rows;
         r += gl_NumWorkGroups.x * per) {
        for (uint v = 0u; v < VMAX; v++)
            acc[v] = T(0);
        for (uint l = lane; l < p.k; l += lanes) {
            T m = a[p.ao + r * p.mr + l];

            for (uint v = 0u; v < VMAX; v++)
                if (v < p.nv)
                    acc[v] += m * b[p.bo + l * p.xl + v * p.xv];
        }
        for (uint v = 0u; v < VMAX; v++)
            if (v < p.nv) {
                T sum = subgroupAdd(acc[v]);

                if (lane == 0u)
                    store(r, v, sum);
            }
    }
}
#else
// LANES invocations per row, WG / LANES rows per workgroup (rows strided
// by the grid), k split over the lanes of a row.
void rows_by_group()
{
    uint tid = gl_LocalInvocationID.x;
    uint lane = tid % LANES, sub = tid / LANES;
    T acc[VMAX];

    for (uint r0 = gl_WorkGroupID.x * (WG / LANES); r0 < p.rows;
         r0 += gl_NumWorkGroups.x * (WG / LANES)) {
        uint r = r0 + sub;

        for (uint v = 0u; v < VMAX; v++)
            acc[v] = T(0);
        if (r < p.rows)
            for (uint l = lane; l < p.k; l += LANES) {
                T m = a[p.ao + r * p.mr + l];

                for (uint v = 0u; v < VMAX; v++)
                    if (v < p.nv)
                        acc[v] += m * b[p.bo + l * p.xl + v * p.xv];
            }
        for (uint v = 0u; v < VMAX; v++)
            if (v < p.nv)
                s[v][tid] = acc[v];
        barrier();
        for (uint w = LANES / 2u; w > 0u; w >>= 1) {
            if (lane < w)
                for (uint v = 0u; v < VMAX; v++)
                    if (v < p.nv)
                        s[v][tid] += s[v][tid + w];
            barrier();
        }
        if (lane < p.nv && r < p.rows)
            store(r, lane, s[lane][tid - lane]);
        barrier(); // s is refilled for the next rows
    }
}

#endif

// One invocation per row (rows strided by the grid), k walked serially.
void rows_by_lane()
{
    uint stride = gl_NumWorkGroups.x * WG;
    T acc[VMAX];

    for (uint r = gl_GlobalInvocationID.x; r < p.rows; r += stride) {
        for (uint v = 0u; v < VMAX; v++)
            acc[v] = T(0);
        for (uint l = 0u; l < p.k; l++) {
            T m = a[p.ao + r * p.mr + l * p.ml];

            for (uint v = 0u; v < VMAX; v++)
                if (v < p.nv)
                    acc[v] += m * b[p.bo + l * p.xl + v * p.xv];
        }
        for (uint v = 0u; v < VMAX; v++)
            if (v < p.nv)
                store(r, v, acc[v]);
    }
}

void main()
{
    if (p.ml == 1u)
        rows_by_group();
    else
        rows_by_lane();
}
