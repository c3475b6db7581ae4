// SPDX-License-Identifier: MIT
/*
 * wk_probe.c -- wasm-only exports that expose the linear memory itself:
 * memory.grow and memory.size, and single-byte loads and stores at any
 * address (an address past the end traps: that is what the tests and the
 * ceiling benchmark check). Not compiled natively: they have no native
 * meaning.
 */
#include "wk.h"

/* memory.grow by pages: the old size in pages, or -1 (0xFFFFFFFF) when the
 * memory cannot grow that far. */
WK_EXPORT(wk_grow)
uint32_t wk_grow(uint32_t pages);
uint32_t wk_grow(uint32_t pages)
{
    return (uint32_t)__builtin_wasm_memory_grow(0, pages);
}

/* memory.size in pages. */
WK_EXPORT(wk_pages)
uint32_t wk_pages(void);
uint32_t wk_pages(void)
{
    return (uint32_t)__builtin_wasm_memory_size(0);
}

/* The byte at addr. */
WK_EXPORT(wk_load_u8)
uint32_t wk_load_u8(uint32_t addr);
uint32_t wk_load_u8(uint32_t addr)
{
    return *(volatile uint8_t *)(size_t)addr;
}

/* Stores v at addr. */
WK_EXPORT(wk_store_u8)
void wk_store_u8(uint32_t addr, uint32_t v);
void wk_store_u8(uint32_t addr, uint32_t v)
{
    *(volatile uint8_t *)(size_t)addr = (uint8_t)v;
}
