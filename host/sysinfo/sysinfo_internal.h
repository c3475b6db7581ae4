// SPDX-License-Identifier: MIT
/* Internal interface between the files of host/sysinfo: one collector per
 * section of the fingerprint, plus the small readers they share. Not for use
 * outside this folder. */
#ifndef BH_SYSINFO_INTERNAL_H
#define BH_SYSINFO_INTERNAL_H

#include <cjson/cJSON.h>
#include <hwloc.h>
#include <stdbool.h>

/* ---- sysinfo_read.c: reading /proc and /sys ---- */

/* Returns the first line of path with surrounding whitespace removed, as a
 * new string (caller frees), or NULL when the file is absent or unreadable.
 * An empty first line yields "". Works on /proc and /sys files. */
char *bh_sysinfo_read_line(const char *path);

/* Parses the first line of path as a decimal integer into *out.
 * 0, or -1 (nothing written) when absent, unreadable or not a number. */
int bh_sysinfo_read_long(const char *path, long *out);

/* Returns the value of the first "key<tabs> : value" line of /proc/cpuinfo
 * as a new string (caller frees), or NULL when there is no such line. */
char *bh_sysinfo_cpuinfo_value(const char *key);

/* Adds key = s to obj, or key = null when s is NULL. */
void bh_sysinfo_add_str(cJSON *obj, const char *key, const char *s);

/* Adds key = s to obj (null when s is NULL) and frees s. */
void bh_sysinfo_add_str_owned(cJSON *obj, const char *key, char *s);

/* Adds key = number to obj when ok, key = null otherwise. */
void bh_sysinfo_add_num_if(cJSON *obj, const char *key, bool ok, double v);

/* ---- section collectors; each adds its keys to root, never fails ---- */

/* sysinfo_os.c: "hostname" and "os" {sysname, release, version, machine}. */
void bh_sysinfo_add_os(cJSON *root);

/* sysinfo_os.c: "kernel" {aslr, isolated_cpus, nohz_full,
 * perf_event_paranoid}. */
void bh_sysinfo_add_kernel(cJSON *root);

/* sysinfo_os.c: "load_average" [1, 5, 15 minutes] or null. */
void bh_sysinfo_add_load(cJSON *root);

/* sysinfo_cpu.c: "cpu" {...}. topo may be NULL when hwloc failed; the
 * counts then fall back to sysconf or null. */
void bh_sysinfo_add_cpu(cJSON *root, hwloc_topology_t topo);

/* sysinfo_caches.c: "caches" [...], empty when topo is NULL. */
void bh_sysinfo_add_caches(cJSON *root, hwloc_topology_t topo);

/* sysinfo_memory.c: "memory" {total_bytes, numa}. topo may be NULL. */
void bh_sysinfo_add_memory(cJSON *root, hwloc_topology_t topo);

/* sysinfo_freq.c: "frequency" {governor, driver, boost, min_khz,
 * max_khz}. */
void bh_sysinfo_add_frequency(cJSON *root);

/* sysinfo_virt.c: "virtualization". */
void bh_sysinfo_add_virtualization(cJSON *root);

/* sysinfo_build.c: "compiler", "libc", "hwloc_version" (the release of the
 * hwloc library loaded, from topo's root info; null when topo is NULL) and
 * "hwloc_api_version" (hwloc_get_api_version). */
void bh_sysinfo_add_build(cJSON *root, hwloc_topology_t topo);

/* sysinfo_perf.c: true when a hardware instructions counter can be opened
 * for this process (perf_event_open succeeds); the fd is closed at once. */
bool bh_sysinfo_perf_counters_supported(void);

/* sysinfo.c: loads the hwloc topology of this machine (CPUs allowed to this
 * process, no I/O objects) into *out. 0, or -1 with *out untouched and
 * errno set. The caller destroys it with hwloc_topology_destroy. */
int bh_sysinfo_topology_load(hwloc_topology_t *out);

#endif
