// SPDX-License-Identifier: MIT
/* The "summary" object of a result case (docs/results-schema.md), written
 * from the statistics of host/stats/summary.h: the run pipeline and the
 * importers write it the same way. */
#ifndef BH_RESULT_SUMMARY_H
#define BH_RESULT_SUMMARY_H

#include "summary.h"

#include <cjson/cJSON.h>

/* The summary object of s (unit "ns/iter"; figures that are not finite
 * are null); a new object. */
cJSON *bh_result_summary_json(const bh_summary *s);

#endif
