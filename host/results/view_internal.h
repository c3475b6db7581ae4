// SPDX-License-Identifier: MIT
/* The parts of the result view each file reads (internal to
 * host/results). */
#ifndef BH_VIEW_INTERNAL_H
#define BH_VIEW_INTERNAL_H

#include "result_view.h"

/* Reads verdict object v (or NULL: no comparison) into c's verdict
 * fields. */
void bh_rv_verdict_read(const cJSON *v, bh_rv_case *c);

#endif
