#version 450
// SPDX-License-Identifier: MIT
// One in-place radix-2 decimation-in-time stage of half-size m over batch
// complex transforms of n points (T: float, or double with -DBH_F64): one
// butterfly per invocation, twiddle e^(sign i pi j / m). GLSL's sin and
// cos are single precision only and may be as coarse as 2^-11 on some
// devices, so the twiddle comes from Taylor series of sin and cos on an
// exactly reduced argument (at most pi/4), accurate to T's precision.
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Z { T z[]; };
layout(push_constant) uniform P {
    uint n;
    uint m;
    int sign;
    uint butterflies;
} p;

// (cos(pi t), sin(pi t)) for t in [0, 1/4], t exact.
void sincospi_small(T t, out T c, out T s)
{
    const T PI = T(3.14159265358979323846LF);
    T x = PI * t, x2 = x * x, ts = x, tc = T(1);

    s = x;
    c = T(1);
    for (int k = 1; k <= 10; k++) {
        ts *= -x2 / T((2 * k) * (2 * k + 1));
        tc *= -x2 / T((2 * k - 1) * (2 * k));
        s += ts;
        c += tc;
    }
}

// (cos(pi j / m), sin(pi j / m)) for 0 <= j < m, m a power of two: the
// argument is folded into [0, 1/4] exactly (j / m is exact in T).
void twiddle(uint j, uint m, out T c, out T s)
{
    T t = T(j) / T(m), a, b;
    bool neg = t > T(0.5);

    if (neg)
        t = T(1) - t;
    if (t > T(0.25)) {
        sincospi_small(T(0.5) - t, b, a);
        c = a; // cos(pi t) = sin(pi (1/2 - t))
        s = b;
    } else {
        sincospi_small(t, c, s);
    }
    if (neg)
        c = -c;
}

void main()
{
    uint stride = gl_NumWorkGroups.x * 256u;
    uint half_n = p.n / 2u;

    for (uint t = gl_GlobalInvocationID.x; t < p.butterflies; t += stride) {
        uint i = t % half_n, j = i % p.m;
        uint i0 = t / half_n * p.n + i / p.m * 2u * p.m + j, i1 = i0 + p.m;
        T wc, ws;

        twiddle(j, p.m, wc, ws);
        ws *= T(p.sign);
        T ur = z[2u * i0], ui = z[2u * i0 + 1u];
        T vr = z[2u * i1], vi = z[2u * i1 + 1u];
        T xr = vr * wc - vi * ws, xi = vr * ws + vi * wc;

        z[2u * i0] = ur + xr;
        z[2u * i0 + 1u] = ui + xi;
        z[2u * i1] = ur - xr;
        z[2u * i1 + 1u] = ui - xi;
    }
}
