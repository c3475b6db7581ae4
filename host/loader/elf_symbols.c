// SPDX-License-Identifier: MIT
#include "elf_symbols.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A mapped ELF file and how to read its fields. */
typedef struct elf_file {
    const unsigned char *p;
    size_t size;
    int is64;
    int big_endian;
} elf_file;

/* An unsigned field of width bytes at off, in the file's byte order. The
 * caller has checked that off + width <= size. */
static uint64_t field(const elf_file *f, size_t off, unsigned width)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < width; i++) {
        unsigned shift = f->big_endian ? 8 * (width - 1 - i) : 8 * i;
        v |= (uint64_t)f->p[off + i] << shift;
    }
    return v;
}

/* True when [off, off + len) lies inside the file (overflow-safe). */
static int inside(const elf_file *f, uint64_t off, uint64_t len)
{
    return off <= f->size && len <= f->size - off;
}

/* One section header's fields the symbol reader needs. */
typedef struct section {
    uint32_t type;
    uint32_t link;
    uint64_t offset;
    uint64_t size;
    uint64_t entsize;
} section;

/* Reads section header i; 0, or -1 when it lies outside the file. */
static int read_section(const elf_file *f, uint64_t shoff, uint64_t shentsize,
                        uint64_t i, section *s)
{
    uint64_t need = f->is64 ? 64 : 40;
    uint64_t at;

    if (shentsize < need || i > UINT64_MAX / shentsize ||
        shoff > UINT64_MAX - i * shentsize)
        return -1;
    at = shoff + i * shentsize;
    if (!inside(f, at, need))
        return -1;
    s->type = (uint32_t)field(f, at + 4, 4);
    if (f->is64) {
        s->offset = field(f, at + 24, 8);
        s->size = field(f, at + 32, 8);
        s->link = (uint32_t)field(f, at + 40, 4);
        s->entsize = field(f, at + 56, 8);
    } else {
        s->offset = field(f, at + 16, 4);
        s->size = field(f, at + 20, 4);
        s->link = (uint32_t)field(f, at + 24, 4);
        s->entsize = field(f, at + 36, 4);
    }
    return 0;
}

/* Collects the defined, non-local symbols of the symbol table sym whose
 * names are in strtab str. */
static int collect(const elf_file *f, const char *path, const section *sym,
                   const section *str, bh_elf_symbol **out, size_t *n,
                   bh_error *e)
{
    uint64_t entsize = f->is64 ? 24 : 16;
    size_t cap = 0;

    if (sym->entsize != 0 && sym->entsize < entsize)
        return bh_error_set(e, "%s: .dynsym entry size %llu, expected %llu",
                            path, (unsigned long long)sym->entsize,
                            (unsigned long long)entsize);
    if (sym->entsize)
        entsize = sym->entsize;
    if (!inside(f, sym->offset, sym->size) ||
        !inside(f, str->offset, str->size))
        return bh_error_set(e, "%s: .dynsym or its string table lies outside "
                               "the file (truncated ELF?)",
                            path);
    for (uint64_t i = 1; i < sym->size / entsize; i++) {
        uint64_t at = sym->offset + i * entsize;
        uint32_t name = (uint32_t)field(f, at, 4);
        unsigned info = f->p[at + (f->is64 ? 4 : 12)];
        uint16_t shndx = (uint16_t)field(f, at + (f->is64 ? 6 : 14), 2);
        const char *s;
        bh_elf_symbol es;

        if (shndx == SHN_UNDEF || ELF64_ST_BIND(info) == STB_LOCAL)
            continue;
        if (name >= str->size ||
            !memchr(f->p + str->offset + name, '\0', str->size - name))
            return bh_error_set(e, "%s: .dynsym symbol %llu has a name "
                                   "outside its string table",
                                path, (unsigned long long)i);
        s = (const char *)f->p + str->offset + name;
        es.name = bh_xstrdup(s);
        es.type = ELF64_ST_TYPE(info);
        es.binding = ELF64_ST_BIND(info);
        BH_PUSH(*out, *n, cap, es);
    }
    return 0;
}

/* Parses the mapped file: header, section table, .dynsym. */
static int parse(elf_file *f, const char *path, bh_elf_symbol **out,
                 size_t *n, bh_error *e)
{
    uint64_t shoff, shentsize, shnum;
    unsigned type;
    section s;

    if (f->size < SELFMAG || memcmp(f->p, ELFMAG, SELFMAG) != 0)
        return bh_error_set(e, "%s: not an ELF file (no ELF magic)", path);
    if (f->size < 52)
        return bh_error_set(e, "%s: truncated ELF header (%zu bytes)", path,
                            f->size);
    if ((f->p[EI_CLASS] != ELFCLASS32 && f->p[EI_CLASS] != ELFCLASS64) ||
        (f->p[EI_DATA] != ELFDATA2LSB && f->p[EI_DATA] != ELFDATA2MSB))
        return bh_error_set(e, "%s: unknown ELF class %u or byte order %u",
                            path, f->p[EI_CLASS], f->p[EI_DATA]);
    f->is64 = f->p[EI_CLASS] == ELFCLASS64;
    f->big_endian = f->p[EI_DATA] == ELFDATA2MSB;
    if (f->is64 && f->size < 64)
        return bh_error_set(e, "%s: truncated ELF header", path);
    type = (unsigned)field(f, 16, 2);
    if (type != ET_DYN)
        return bh_error_set(e, "%s: ELF type %u, expected a shared object "
                               "(ET_DYN)",
                            path, type);
    shoff = f->is64 ? field(f, 40, 8) : field(f, 32, 4);
    shentsize = field(f, f->is64 ? 58 : 46, 2);
    shnum = field(f, f->is64 ? 60 : 48, 2);
    if (shoff == 0)
        return bh_error_set(e, "%s: no section headers (stripped with "
                               "sstrip?); cannot read .dynsym",
                            path);
    if (shnum == 0) { /* extended numbering: the count is in section 0 */
        if (read_section(f, shoff, shentsize, 0, &s) != 0)
            return bh_error_set(e, "%s: section header 0 outside the file",
                                path);
        shnum = s.size;
    }
    for (uint64_t i = 0; i < shnum; i++) {
        section str;

        if (read_section(f, shoff, shentsize, i, &s) != 0)
            return bh_error_set(e, "%s: section header %llu outside the file",
                                path, (unsigned long long)i);
        if (s.type != SHT_DYNSYM)
            continue;
        if (read_section(f, shoff, shentsize, s.link, &str) != 0 ||
            str.type != SHT_STRTAB)
            return bh_error_set(e, "%s: .dynsym links to section %u, which "
                                   "is not a string table",
                                path, s.link);
        return collect(f, path, &s, &str, out, n, e);
    }
    return bh_error_set(e, "%s: no .dynsym section (not a dynamic shared "
                           "object)",
                        path);
}

int bh_elf_dynamic_symbols(const char *path, bh_elf_symbol **out, size_t *n,
                           bh_error *e)
{
    struct stat st;
    elf_file f;
    void *map;
    int fd;
    int rc;

    *out = NULL;
    *n = 0;
    fd = bh_open_regular(path, e);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return bh_error_set(e, "%s: an empty file", path);
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return bh_error_set(e, "%s: cannot map: %s", path, strerror(errno));
    memset(&f, 0, sizeof(f));
    f.p = map;
    f.size = (size_t)st.st_size;
    rc = parse(&f, path, out, n, e);
    munmap(map, (size_t)st.st_size);
    if (rc != 0) {
        bh_elf_symbols_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void bh_elf_symbols_free(bh_elf_symbol *syms, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(syms[i].name);
    free(syms);
}
