// SPDX-License-Identifier: MIT
#include "loader.h"

#include "bh_fs.h"
#include "bh_mem.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

__attribute__((weak)) const char *bh_loader_last_plugin_error(void)
{
    return "";
}

/* Checks the ELF magic and type (ET_DYN) before dlopen sees the file, so
 * "not a shared object" is told apart from a dlopen failure. */
static int check_elf(const char *path, bh_error *e)
{
    unsigned char hdr[18];
    ssize_t n;
    int fd = bh_open_regular(path, e);

    if (fd < 0)
        return -1;
    n = read(fd, hdr, sizeof(hdr));
    close(fd);
    if (n < (ssize_t)sizeof(hdr) || memcmp(hdr, "\177ELF", 4) != 0)
        return bh_error_set(e, "%s: not a shared object (no ELF header)",
                            path);
    /* e_type is at offset 16, little-endian on the hosts we support */
    if (hdr[5] == 1 && (hdr[16] | hdr[17] << 8) != 3)
        return bh_error_set(e, "%s: not a shared object (ELF type %d)", path,
                            hdr[16] | hdr[17] << 8);
    return 0;
}

/* True when s is a non-empty string of sane length. */
static int valid_text(const char *s, size_t max)
{
    return s && *s && strnlen(s, max + 1) <= max;
}

/* Validates the fields of the entry that the host reads before any plugin
 * code runs. */
static int check_entry(const char *path, const bhost_entry *en, bh_error *e)
{
    if (en->abi_major != BHOST_ABI_MAJOR)
        return bh_error_set(e,
                            "%s: plugin ABI major %u, this host speaks %u "
                            "(rebuild the plugin against bhost/plugin.h %d.x)",
                            path, en->abi_major, BHOST_ABI_MAJOR,
                            BHOST_ABI_MAJOR);
    if (en->struct_size < BHOST_ENTRY_SIZE_1_0)
        return bh_error_set(e,
                            "%s: bhost_entry_v1.struct_size is %u, smaller "
                            "than the ABI 1.0 size %zu",
                            path, en->struct_size,
                            (size_t)BHOST_ENTRY_SIZE_1_0);
    if (en->flags != 0)
        return bh_error_set(e, "%s: bhost_entry_v1.flags must be 0 (got %u)",
                            path, en->flags);
    if (!valid_text(en->plugin_id, 256) || !valid_text(en->name, 64) ||
        !valid_text(en->plugin_version, 64))
        return bh_error_set(e,
                            "%s: bhost_entry_v1 lacks plugin_id, name or "
                            "plugin_version",
                            path);
    if (!en->init || !en->get_interface)
        return bh_error_set(e, "%s: bhost_entry_v1 lacks init or "
                               "get_interface", path);
    return 0;
}

/* Checks an interface table's size against its 1.0 layout. */
static int check_tables(const char *path, bh_plugin *p, bh_error *e)
{
    if (p->benchmarks &&
        (p->benchmarks->struct_size < BHOST_BENCH_FACTORY_SIZE_1_0 ||
         !p->benchmarks->count || !p->benchmarks->get))
        return bh_error_set(e, "%s: malformed %s table", path,
                            BHOST_IFACE_BENCHMARKS);
    if (p->backend &&
        (p->backend->struct_size < BHOST_BACKEND_SIZE_1_0 ||
         !valid_text(p->backend->id, 64) || !p->backend->device_count ||
         !p->backend->device_info))
        return bh_error_set(e, "%s: malformed %s table", path,
                            BHOST_IFACE_BACKEND);
    return 0;
}

void bh_plugin_release(bh_plugin *p)
{
    free(p->path);
    memset(p, 0, sizeof(*p));
}

int bh_loader_open(const char *path, const bhost_host_api *api,
                   bh_plugin *out, bh_error *e)
{
    void *lib;
    const bhost_entry *en;
    bhost_status st;

    memset(out, 0, sizeof(*out));
    if (check_elf(path, e) != 0)
        return -1;
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return bh_error_set(e, "%s: dlopen failed: %s", path, dlerror());
    en = dlsym(lib, BHOST_ENTRY_SYMBOL);
    if (!en)
        return bh_error_set(e, "%s: no entry symbol %s (not a bhost plugin)",
                            path, BHOST_ENTRY_SYMBOL);
    if (check_entry(path, en, e) != 0)
        return -1;
    st = en->init(api);
    if (st != BHOST_OK) {
        const char *why = bh_loader_last_plugin_error();
        return bh_error_set(e, "%s: init failed with status %d%s%s", path,
                            st, *why ? ": " : "", why);
    }
    out->path = bh_xstrdup(path);
    out->entry = en;
    out->benchmarks = en->get_interface(BHOST_IFACE_BENCHMARKS);
    out->backend = en->get_interface(BHOST_IFACE_BACKEND);
    if (!out->benchmarks && !out->backend)
        return bh_error_set(e,
                            "%s: provides neither %s nor %s (missing "
                            "interfaces)",
                            path, BHOST_IFACE_BENCHMARKS, BHOST_IFACE_BACKEND);
    return check_tables(path, out, e);
}
