// SPDX-License-Identifier: MIT
/*
 * tok_uni.c -- Unicode properties for the pre-tokenizers and normalizers,
 * derived from utf8proc's general categories (no hand-made tables), plus
 * strict UTF-8 decoding.
 */
#include "tok_internal.h"

#include <pthread.h>
#include <utf8proc.h>

uint8_t bh_uni_table[TOK_UNI_TABLE_CPS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* UF_* bits of cp computed from utf8proc: general category plus
 * White_Space, which Unicode defines as Zs, Zl, Zp, U+0009..U+000D and
 * U+0085. */
static unsigned compute(uint32_t cp)
{
    unsigned f = 0;
    utf8proc_category_t c = utf8proc_category((utf8proc_int32_t)cp);

    switch (c) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LT:
        f = UF_L | UF_UP;
        break;
    case UTF8PROC_CATEGORY_LL:
        f = UF_L | UF_LO;
        break;
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
        f = UF_L | UF_UP | UF_LO;
        break;
    case UTF8PROC_CATEGORY_MN:
        f = UF_UP | UF_LO | UF_MN;
        break;
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
        f = UF_UP | UF_LO;
        break;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
        f = UF_N;
        break;
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
        f = UF_P;
        break;
    case UTF8PROC_CATEGORY_ZS:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
        f = UF_WS;
        break;
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CO:
        f = UF_CTL;
        break;
    default:
        break;
    }
    if ((cp >= 0x09 && cp <= 0x0D) || cp == 0x85)
        f |= UF_WS;
    return f;
}

/* Fills bh_uni_table from utf8proc (once, via bh_uni_init). */
static void build(void)
{
    for (uint32_t cp = 0; cp < TOK_UNI_TABLE_CPS; cp++)
        bh_uni_table[cp] = (uint8_t)compute(cp);
}

/* See tok_internal.h. */
void bh_uni_init(void)
{
    pthread_once(&once, build);
}

/* See tok_internal.h. */
unsigned bh_uni_flags(uint32_t cp)
{
    if (cp < TOK_UNI_TABLE_CPS)
        return bh_uni_table[cp];
    if (cp >= TOK_BAD_CP)
        return 0;
    return compute(cp);
}

/* See tok_internal.h: strict decoding (no overlongs, surrogates). */
uint32_t bh_utf8_dec(const uint8_t *s, size_t n, size_t *len)
{
    uint8_t b = s[0];
    uint32_t cp;
    size_t k;

    *len = 1;
    if (b < 0x80)
        return b;
    if (b >= 0xC2 && b <= 0xDF) {
        k = 2;
        cp = b & 0x1Fu;
    } else if (b >= 0xE0 && b <= 0xEF) {
        k = 3;
        cp = b & 0x0Fu;
    } else if (b >= 0xF0 && b <= 0xF4) {
        k = 4;
        cp = b & 0x07u;
    } else {
        return TOK_BAD_CP;
    }
    if (n < k)
        return TOK_BAD_CP;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return TOK_BAD_CP;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return TOK_BAD_CP;
    *len = k;
    return cp;
}

/* See tok_internal.h. */
size_t bh_utf8_enc(uint32_t cp, uint8_t *out)
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | (cp >> 6));
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (cp >> 12));
        out[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (cp >> 18));
    out[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}
