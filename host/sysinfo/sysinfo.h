// SPDX-License-Identifier: MIT
/* The system fingerprint recorded in every result, the comparability hash
 * and diff built on it, and CPU pinning of the calling process.
 *
 * Fingerprint layout (JSON object, snake_case keys, in this order):
 *   hostname             string | null
 *   os                   {sysname, release, version, machine}      (uname)
 *   cpu                  {model, vendor, family, model_number, stepping,
 *                         logical_cores, physical_cores, sockets, numa_nodes,
 *                         smt, flags {avx2, avx512f, avx512_bf16,
 *                         avx512_vnni, amx}}
 *   caches               [{level, type, size_bytes, line_bytes, count}]
 *                        one entry per distinct level/type/size/line,
 *                        sorted by level then data/instruction/unified
 *   memory               {total_bytes, numa [{node, bytes}]}
 *   frequency            {governor, driver, boost, min_khz, max_khz}
 *   kernel               {aslr, isolated_cpus, nohz_full,
 *                         perf_event_paranoid}
 *   virtualization       "none" | "kvm" | "xen" | ... | "unknown"
 *   load_average         [1 min, 5 min, 15 min] | null
 *   compiler             the compiler the host was built with
 *   libc                 "glibc 2.36" | "unknown"
 *   hwloc_version        release of the hwloc library loaded, "2.9.0"
 *   hwloc_api_version    hwloc_get_api_version(), "2.8.0" (API level)
 *   perf_counters        "supported" | "unsupported"
 *   fingerprint_hash     sha256 hex of the comparability fields
 *
 * A value that cannot be read is null (numbers, booleans, most strings);
 * frequency.governor is "unavailable" (as in VMs without cpufreq). */
#ifndef BH_SYSINFO_H
#define BH_SYSINFO_H

#include "bh_error.h"

#include <cjson/cJSON.h>

/* Collects the fingerprint of this machine as a new cJSON object; the caller
 * owns it (cJSON_Delete). Any thread; no global state. Never fails hard: a
 * field that cannot be read is null or "unavailable". Returns NULL only when
 * the root object itself cannot be allocated. */
cJSON *bh_sysinfo_collect(void);

/* Writes into hex (65 bytes, NUL-terminated) the sha256 of the canonical
 * JSON of the comparability fields of fp: cpu.model, cpu.logical_cores,
 * cpu.physical_cores, cpu.sockets, caches, memory.total_bytes,
 * cpu.numa_nodes, os.release, frequency.governor, cpu.smt, compiler.
 * A missing field hashes as null. Does not modify fp (bh_sysinfo_collect
 * stores the result as "fingerprint_hash"). Pure; any thread. */
void bh_sysinfo_hash(const cJSON *fp, char hex[65]);

/* Lists the comparability fields that differ between a and b as
 * "cpu.model: X != Y; os.release: P != Q" in a new string (caller frees), or
 * returns NULL when they all match. Pure; any thread. */
char *bh_sysinfo_diff(const cJSON *a, const cJSON *b);

/* Binds the calling process (all its threads, and the threads and children
 * it creates later) to the CPUs of spec, using hwloc:
 *   "none"   no-op (the topology is not even loaded)
 *   "auto"   one CPU chosen deterministically: the first PU of the last
 *            physical core, to stay off core 0 where interrupts land
 *   "0,2-3"  a list of logical PU OS indexes and inclusive ranges
 * Returns 0, or -1 with e set to a one-line message (bad spec, CPU not
 * present or not allowed, binding refused by the OS). Call it before
 * creating threads that must not be migrated. */
int bh_sysinfo_pin(const char *spec, bh_error *e);

/* Validates spec exactly as bh_sysinfo_pin would (syntax and that every CPU
 * exists and is usable here) without binding anything. 0, or -1 with e set.
 * For config validation; any thread. */
int bh_sysinfo_pin_check(const char *spec, bh_error *e);

/* Resolves spec to the CPUs it would bind, as an hwloc-style list string
 * ("1", "0,2-3"; "" for "none") into a new string (caller frees), or NULL
 * with e set when spec is invalid. For logs and results. */
char *bh_sysinfo_pin_resolve(const char *spec, bh_error *e);

/* 0 when this process can open a user-space hardware instructions counter
 * (perf_event_open; the fd is closed at once), else perf_event_open's
 * errno: ENOENT without a hardware PMU (a VM), EACCES at
 * perf_event_paranoid 3, ENOSYS without perf events. Any thread. */
int bh_sysinfo_perf_errno(void);

#endif
