// SPDX-License-Identifier: MIT
/* RAPL zones through powercap sysfs, and the per-sample accumulation of
 * every meter (energy.h). */
#define _GNU_SOURCE
#include "energy.h"

#include "bh_clock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RAPL_PREFIX "intel-rapl:"

static const char *const source_names[BH_ENERGY_SOURCES] = {"rapl", "nvml", "rocm_smi"};

/* See energy.h. */
const char *bh_energy_source_name(bh_energy_source s)
{
    return s >= 0 && s < BH_ENERGY_SOURCES ? source_names[s] : "?";
}

/* See energy.h. */
uint64_t bh_energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_range)
{
    if (after >= before)
        return after - before;
    if (max_range == 0 || before > max_range)
        return 0;
    return (max_range - before) + after;
}

/* Parses the unsigned decimal at the start of text (trailing newline
 * allowed) into *v; 0, or -1 when it is not one. */
static int parse_u64(const char *text, uint64_t *v)
{
    char *end = NULL;

    if (*text < '0' || *text > '9')
        return -1;
    errno = 0;
    *v = strtoull(text, &end, 10);
    if (errno || (*end != '\0' && *end != '\n'))
        return -1;
    return 0;
}

/* Reads an unsigned decimal from fd at offset 0 (sysfs regenerates the
 * text on every read from the start). */
static int pread_u64(int fd, uint64_t *v)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return parse_u64(buf, v);
}

/* Reads the first line of dir/file into buf (newline removed); 0 or -1
 * with errno set. */
static int read_line(const char *dir, const char *file, char *buf, size_t cap)
{
    char path[4096];
    FILE *f;
    int ok;

    int len = snprintf(path, sizeof(path), "%s/%s", dir, file);

    if (len < 0 || (size_t)len >= sizeof(path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    f = fopen(path, "re");
    if (!f)
        return -1;
    ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of root's entries that start with intel-rapl:, sorted; *n of
 * them (free each and the array). NULL with errno when root is unreadable. */
static char **rapl_zones(const char *root, size_t *n)
{
    DIR *d = opendir(root);
    struct dirent *de;
    char **names = NULL;
    size_t cap = 0;

    *n = 0;
    if (!d)
        return NULL;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, RAPL_PREFIX, strlen(RAPL_PREFIX)) != 0)
            continue;
        if (*n == cap) {
            char **grown = realloc(names, (cap = cap ? cap * 2 : 8) * sizeof(*names));

            if (!grown)
                break;
            names = grown;
        }
        names[(*n)++] = strdup(de->d_name);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof(*names), cmp_str);
    return names ? names : calloc(1, sizeof(*names));
}

/* The highest power a zone's constraints allow, in watts: the largest
 * constraint_N_power_limit_uw and constraint_N_max_power_uw (N: long
 * term, short term, peak); 0 when it has none. */
static double zone_limit_watts(const char *dir)
{
    static const char *const kinds[] = {"power_limit_uw", "max_power_uw"};
    uint64_t best = 0;

    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 2; k++) {
            char file[64], text[32];
            uint64_t uw;

            snprintf(file, sizeof(file), "constraint_%d_%s", c, kinds[k]);
            if (read_line(dir, file, text, sizeof(text)) == 0 && parse_u64(text, &uw) == 0 &&
                uw > best)
                best = uw;
        }
    return (double)best * 1e-6;
}

/* Adds zone (a folder under root) when it is a package or dram domain;
 * a zone that cannot be read sets the source's reason. */
static void add_zone(bh_energy *en, const char *root, const char *zone)
{
    char dir[4096], name[64], path[4200];
    bh_energy_domain *dm;
    uint64_t range = 0, now;
    unsigned pkg = 0;
    int fd;

    snprintf(dir, sizeof(dir), "%s/%s", root, zone);
    if (en->n == BH_ENERGY_MAX_DOMAINS || read_line(dir, "name", name, sizeof(name)) != 0)
        return;
    if (strncmp(name, "package", 7) != 0 && strcmp(name, "dram") != 0)
        return;
    (void)sscanf(zone + strlen(RAPL_PREFIX), "%u", &pkg);
    snprintf(path, sizeof(path), "%s/energy_uj", dir);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || pread_u64(fd, &now) != 0) {
        int err = errno;

        snprintf(en->reason[BH_ENERGY_RAPL], sizeof(en->reason[0]), "%.120s: %.40s%s", path,
                 fd < 0 ? strerror(err) : "not a number",
                 fd < 0 && (err == EACCES || err == EPERM)
                     ? " (energy_uj is readable by root only since Linux 5.10)"
                     : "");
        if (fd >= 0)
            close(fd);
        return;
    }
    if (read_line(dir, "max_energy_range_uj", path, sizeof(path)) == 0)
        (void)parse_u64(path, &range);
    dm = &en->dom[en->n++];
    memset(dm, 0, sizeof(*dm));
    dm->source = BH_ENERGY_RAPL;
    dm->fd = fd;
    dm->max_range_uj = range;
    dm->period_ns = BH_ENERGY_RAPL_PERIOD_NS;
    dm->limit_watts = zone_limit_watts(dir);
    if (strcmp(name, "dram") == 0)
        snprintf(dm->name, sizeof(dm->name), "dram-%u", pkg);
    else
        snprintf(dm->name, sizeof(dm->name), "%.40s", name);
}

/* See energy.h. */
size_t bh_energy_open_rapl(bh_energy *en, const char *root)
{
    size_t before = en->n, n = 0;
    char **zones = rapl_zones(root, &n);

    for (size_t i = 0; i < n; i++) {
        add_zone(en, root, zones[i]);
        free(zones[i]);
    }
    free(zones);
    if (n == 0)
        snprintf(en->reason[BH_ENERGY_RAPL], sizeof(en->reason[0]),
                 "no %.180s/" RAPL_PREFIX "* (no RAPL in this VM)", root);
    else if (en->n == before && !*en->reason[BH_ENERGY_RAPL])
        snprintf(en->reason[BH_ENERGY_RAPL], sizeof(en->reason[0]),
                 "no package or dram zone under %.200s", root);
    return en->n - before;
}

/* See energy.h. */
size_t bh_energy_open(bh_energy *en, int gpu)
{
    const char *root = getenv("BHOST_POWERCAP_ROOT");

    memset(en, 0, sizeof(*en));
    bh_energy_open_rapl(en, root && *root ? root : "/sys/class/powercap");
    bh_energy_open_gpu(en, gpu);
    return en->n;
}

/* See energy.h. */
int bh_energy_read_uj(const bh_energy *en, const bh_energy_domain *d, uint64_t *uj)
{
    if (d->source == BH_ENERGY_RAPL)
        return pread_u64(d->fd, uj);
    return bh_energy_gpu_read_uj(en, d, uj);
}

/* See energy.h. */
void bh_energy_sample_begin(bh_energy *en)
{
    if (!en->n)
        return;
    for (size_t i = 0; i < en->n; i++)
        en->dom[i].begun = bh_energy_read_uj(en, &en->dom[i], &en->dom[i].begin_uj) == 0;
    en->begin_ns = bh_now_ns();
}

/* See energy.h. */
void bh_energy_sample_end(bh_energy *en)
{
    uint64_t end_ns;

    if (!en->n)
        return;
    end_ns = bh_now_ns();
    for (size_t i = 0; i < en->n; i++) {
        bh_energy_domain *d = &en->dom[i];
        uint64_t now;

        if (!d->begun || bh_energy_read_uj(en, d, &now) != 0) {
            d->failed_reads++;
            continue;
        }
        d->joules += (double)bh_energy_delta_uj(d->begin_uj, now, d->max_range_uj) * 1e-6;
        d->ns += end_ns - en->begin_ns;
        d->samples++;
    }
    en->ns += end_ns - en->begin_ns;
    en->samples++;
}

/* See energy.h. */
void bh_energy_close(bh_energy *en)
{
    for (size_t i = 0; i < en->n; i++)
        if (en->dom[i].source == BH_ENERGY_RAPL && en->dom[i].fd >= 0)
            close(en->dom[i].fd);
    en->n = 0;
    bh_energy_gpu_close(en);
}
