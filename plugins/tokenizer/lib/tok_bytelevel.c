// SPDX-License-Identifier: MIT
/*
 * tok_bytelevel.c -- GPT-2's reversible byte <-> code point map: bytes
 * '!'..'~', 0xA1..0xAC and 0xAE..0xFF map to the same code point, the other
 * 68 bytes to U+0100, U+0101, ... in byte order.
 */
#include "tok_internal.h"

/* True for the bytes GPT-2 maps to their own code point. */
static bool printable(unsigned b)
{
    return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
}

/* Code point GPT-2 uses for byte b. */
uint32_t bh_bytelevel_cp(uint8_t b)
{
    if (printable(b))
        return b;
    if (b <= 32)
        return 256u + b;
    if (b >= 127 && b <= 160)
        return 256u + 33u + (b - 127u);
    return 256u + 67u; /* 173 */
}

/* Byte that code point cp stands for, or -1. */
int bh_bytelevel_byte(uint32_t cp)
{
    if (cp < 256)
        return printable(cp) ? (int)cp : -1;
    if (cp >= 256 + 68)
        return -1;
    uint32_t k = cp - 256;
    if (k <= 32)
        return (int)k;
    if (k <= 66)
        return (int)(127 + (k - 33));
    return 173;
}

/* See tok_internal.h: byte-level text back to raw bytes. */
long bh_bytelevel_unmap(const char *s, size_t n, uint8_t *out)
{
    size_t i = 0, o = 0, len;
    while (i < n) {
        uint32_t cp = bh_utf8_dec((const uint8_t *)s + i, n - i, &len);
        int b = cp == TOK_BAD_CP ? -1 : bh_bytelevel_byte(cp);
        if (b < 0)
            return -1;
        out[o++] = (uint8_t)b;
        i += len;
    }
    return (long)o;
}
