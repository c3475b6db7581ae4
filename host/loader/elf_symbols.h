// SPDX-License-Identifier: MIT
/* Reading the dynamic symbol table of an ELF shared object from the file
 * itself, without loading it: what `nm -D --defined-only` shows. Used by
 * `bhost check-plugin` to check that a plugin exports exactly one symbol
 * before any of its code runs. */
#ifndef BH_ELF_SYMBOLS_H
#define BH_ELF_SYMBOLS_H

#include "bh_error.h"

#include <stddef.h>

typedef struct bh_elf_symbol {
    char *name;     /* owned */
    int type;       /* STT_OBJECT, STT_FUNC, ... from <elf.h> */
    int binding;    /* STB_GLOBAL, STB_WEAK, STB_GNU_UNIQUE */
} bh_elf_symbol;

/* Reads path (32- or 64-bit ELF, either byte order) and returns in *out
 * the n symbols of its .dynsym section that are defined in the file and
 * not local, in table order (free with bh_elf_symbols_free). Fails with a
 * one-line message naming path when the file cannot be read, is not ELF,
 * is not a shared object (e_type ET_DYN), has no section headers or
 * .dynsym, or any table lies outside the file. Returns 0 or -1. Reads the
 * file only; never runs any of its code. [any-thread] */
int bh_elf_dynamic_symbols(const char *path, bh_elf_symbol **out, size_t *n,
                           bh_error *e);

/* Frees what bh_elf_dynamic_symbols returned; syms may be NULL. */
void bh_elf_symbols_free(bh_elf_symbol *syms, size_t n);

#endif
