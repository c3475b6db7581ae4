// SPDX-License-Identifier: MIT
/* Roofline fractions: the machine's roofs measured in the same run (by
 * benchmarks reporting the metrics roof.bandwidth_bytes_per_s and
 * roof.flops_per_s) applied to every case's throughput. */
#ifndef BH_ROOFLINE_H
#define BH_ROOFLINE_H

#include <cjson/cJSON.h>

#define BH_ROOF_BANDWIDTH "roof.bandwidth_bytes_per_s"
#define BH_ROOF_FLOPS "roof.flops_per_s"

/* Adds a top-level "roofs" object (the highest median of each roof metric
 * over ok cases, with the case it came from) and, to every case with a
 * throughput, a "roofline" object: arithmetic intensity, the attainable
 * rate min(peak, intensity x bandwidth), the fraction of it reached and
 * whether the case is memory- or compute-bound. Nothing is added when the
 * run measured no roof. */
void bh_roofline_apply(cJSON *doc);

#endif
