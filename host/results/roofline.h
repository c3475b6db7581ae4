// SPDX-License-Identifier: MIT
/* Roofline fractions: the machine's roofs measured in the same run (by
 * benchmarks reporting the metrics roof.bandwidth_bytes_per_s and
 * roof.flops_per_s) applied to every case's throughput. */
#ifndef BH_ROOFLINE_H
#define BH_ROOFLINE_H

#include <cjson/cJSON.h>

#define BH_ROOF_BANDWIDTH "roof.bandwidth_bytes_per_s"
#define BH_ROOF_FLOPS "roof.flops_per_s"

/* A fraction of its ceiling above this is flagged (measurement noise on
 * a ceiling measured in the same run stays under it). */
#define BH_ROOF_ABOVE 1.05
#define BH_ROOF_ABOVE_TEXT                                                     \
    "above its ceiling: check the bytes/FLOP accounting or the ceiling"

/* Adds a top-level "roofs" object (every ceiling the run measured: the
 * cases flagged as ceilings and the legacy roof metrics, with the best
 * DRAM bandwidth and f32 peak as before) and, to every case with a
 * throughput, a "roofline" object: its memory level, the ceilings chosen
 * for its working set, access, compute class, threads and device, the
 * arithmetic intensity, the attainable rate min(peak, intensity x
 * bandwidth), the fraction of it reached, whether the case is memory-,
 * compute- or latency-bound, and above 1.05 of its ceiling a flag.
 * Nothing is added when the run measured no ceiling. */
void bh_roofline_apply(cJSON *doc);

#endif
