// SPDX-License-Identifier: MIT
/* bhost info as text: the system fingerprint object (sysinfo) in short
 * labelled lines, for people; --json prints the object itself. */
#ifndef BH_INFO_TEXT_H
#define BH_INFO_TEXT_H

#include <cjson/cJSON.h>
#include <stdio.h>

/* Prints sys (bh_sysinfo_collect's object) on out: host and OS, CPU with
 * its cores and flags, caches, memory, frequency, kernel settings, load,
 * toolchain and the fingerprint hash. Absent fields are left out. */
void bh_info_print_system(FILE *out, const cJSON *sys);

/* Prints one backend object of bhost info (id, path, device_count,
 * reason, devices[]) as a line and one line per device. */
void bh_info_print_backend(FILE *out, const cJSON *be);

#endif
