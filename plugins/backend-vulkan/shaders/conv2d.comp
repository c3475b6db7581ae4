#version 450
// SPDX-License-Identifier: MIT
// Direct NCHW f32 convolution (cross-correlation), one invocation per
// output element, grid-stride. s[]: n c h w k r s stride_h stride_w
// pad_h pad_w groups P Q.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer I { float src[]; };
layout(std430, set = 0, binding = 1) readonly buffer F { float filt[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { float dst[]; };
layout(push_constant) uniform P { uint s[16]; } p;

void main()
{
    uint C = p.s[1], H = p.s[2], W = p.s[3], K = p.s[4];
    uint R = p.s[5], S = p.s[6], Pn = p.s[12], Q = p.s[13];
    uint cg = C / p.s[11], kg = K / p.s[11];
    uint total = p.s[0] * K * Pn * Q;
    uint stride = gl_NumWorkGroups.x * 256u;

    for (uint o = gl_GlobalInvocationID.x; o < total; o += stride) {
        uint q = o % Q, y0 = o / Q % Pn;
        uint k = o / Q / Pn % K, nn = o / Q / Pn / K;
        uint ib = (nn * C + k / kg * cg) * H * W, fb = k * cg * R * S;
        float acc = 0.0;

        for (uint c = 0u; c < cg; c++)
            for (uint r = 0u; r < R; r++) {
                int y = int(y0 * p.s[7] + r) - int(p.s[9]);

                if (y < 0 || y >= int(H))
                    continue;
                for (uint s = 0u; s < S; s++) {
                    int x = int(q * p.s[8] + s) - int(p.s[10]);

                    if (x >= 0 && x < int(W))
                        acc += src[ib + (c * H + uint(y)) * W + uint(x)] *
                               filt[fb + (c * R + r) * S + s];
                }
            }
        dst[o] = acc;
    }
}
