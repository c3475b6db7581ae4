// SPDX-License-Identifier: MIT
/*
 * ft_radix2_body.h -- the radix-2 transform's body for one element type,
 * included by ft_radix2.c once per precision with FT_T (the real type),
 * FT_TW (the plan's twiddle member) and FT_NAME (the suffix) defined.
 */
#define FT_CAT2(a, b) a##b
#define FT_CAT(a, b)  FT_CAT2(a, b)

/* In-place radix-2 transform of n contiguous complex values with the n/2
 * twiddles tw. */
static void FT_CAT(line_fft_, FT_NAME)(FT_T *z, size_t n, const FT_T *tw)
{
    for (size_t i = 1, j = 0; i < n; i++) { /* bit reversal */
        size_t bit = n >> 1;

        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            FT_T r = z[2 * i], m = z[2 * i + 1];

            z[2 * i] = z[2 * j];
            z[2 * i + 1] = z[2 * j + 1];
            z[2 * j] = r;
            z[2 * j + 1] = m;
        }
    }
    for (size_t len = 2; len <= n; len <<= 1) {
        size_t half = len / 2, step = n / len;

        for (size_t i = 0; i < n; i += len)
            for (size_t j = 0; j < half; j++) {
                FT_T wr = tw[2 * j * step], wi = tw[2 * j * step + 1];
                FT_T *a = z + 2 * (i + j), *b = z + 2 * (i + j + half);
                FT_T tr = b[0] * wr - b[1] * wi, ti = b[0] * wi + b[1] * wr;

                b[0] = a[0] - tr;
                b[1] = a[1] - ti;
                a[0] += tr;
                a[1] += ti;
            }
    }
}

void FT_CAT(ft_radix2_, FT_NAME)(ft_radix2 *p, FT_T *z)
{
    FT_T *line = p->line;

    for (int a = 0; a < p->rank; a++) {
        size_t n = p->dims[a], inner = 1;

        for (int b = a + 1; b < p->rank; b++)
            inner *= p->dims[b];
        if (inner == 1) { /* the last dimension: lines are contiguous */
            for (size_t o = 0; o < p->total; o += n)
                FT_CAT(line_fft_, FT_NAME)(z + 2 * o, n, p->FT_TW[a]);
            continue;
        }
        for (size_t outer = 0; outer < p->total; outer += n * inner)
            for (size_t in = 0; in < inner; in++) {
                FT_T *base = z + 2 * (outer + in);

                for (size_t i = 0; i < n; i++) {
                    line[2 * i] = base[2 * i * inner];
                    line[2 * i + 1] = base[2 * i * inner + 1];
                }
                FT_CAT(line_fft_, FT_NAME)(line, n, p->FT_TW[a]);
                for (size_t i = 0; i < n; i++) {
                    base[2 * i * inner] = line[2 * i];
                    base[2 * i * inner + 1] = line[2 * i + 1];
                }
            }
    }
}

#undef FT_CAT
#undef FT_CAT2
