#version 450
// The thin side of gemm: C = alpha op(A) op(B) + beta C when C has at most 8
// columns (or, transposed by the host, at most 8 rows). Seen as R rows of a
// matrix M (R x k) times nv <= 8 vectors X (k x nv) into C (R x nv), every
// operand addressed by a row and a column stride the host derives from the
// gemm's leading dimensions and transposes (it binds A or B at binding 0,
// whichever plays M). beta == 0 never reads C.
//  - A row of M contiguous (ml == 1, e.g. op(A) = A^T, the engine's W'^T
//    x): one workgroup per row, its 64 invocations striding over k with
//    coalesced reads, the partial sums reduced in shared memory.
//  - Otherwise (a column of M contiguous): one invocation per row walking
//    k, neighbouring invocations reading neighbouring elements.
// Workgroups stride over the rows, so any R fits any grid.
#include "common.glsl"

#define WG 64u
#define VMAX 8u

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

shared T s[VMAX][WG];

// Writes alpha acc + beta C(r, v).
void store(uint r, uint v, T acc)
{
    uint i = p.co + r * p.cr + v * p.cv;
    T out_v = p.alpha * acc;

    if (p.beta != T(0))
        out_v += p.beta * c[i];
    c[i] = out_v;
}

// One workgroup per row (rows strided by the grid), k split over the lanes.
void rows_by_group()
{
    uint tid = gl_LocalInvocationID.x;
    T acc[VMAX];

    for (uint r = gl_WorkGroupID.x; r < p.rows; r += gl_NumWorkGroups.x) {
        for (uint v = 0u; v < VMAX; v++)
            acc[v] = T(0);
        for (uint l = tid; l < p.k; l += WG) {
            T m = a[p.ao + r * p.mr + l];

            for (uint v = 0u; v < VMAX; v++)
                if (v < p.nv)
                    acc[v] += m * b[p.bo + l * p.xl + v * p.xv];
        }
        for (uint v = 0u; v < VMAX; v++)
            s[v][tid] = acc[v];
        barrier();
        for (uint w = WG / 2u; w > 0u; w >>= 1) {
            if (tid < w)
                for (uint v = 0u; v < VMAX; v++)
                    if (v < p.nv)
                        s[v][tid] += s[v][tid + w];
            barrier();
        }
        if (tid < p.nv)
            store(r, tid, s[tid][0]);
        barrier(); // s is refilled for the next row
    }
}

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
