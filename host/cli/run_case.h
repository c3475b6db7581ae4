// SPDX-License-Identifier: MIT
/* bhost run PLUGIN/BENCH: a one-benchmark run without a config file. The
 * operand is parsed into a bh_case_request, checked against what the
 * plugin declares (a "did you mean" for a wrong plugin, benchmark or
 * parameter name) and turned into an in-memory config
 * (bh_config_for_case) that the rest of run treats as any other. */
#ifndef BH_RUN_CASE_H
#define BH_RUN_CASE_H

#include "catalog.h"
#include "config.h"

#include <stddef.h>

/* True when the run operand arg names a benchmark rather than a config:
 * no file of that name exists and it does not end in .yaml or .yml. */
int bh_run_case_is_spec(const char *arg);

/* The config of spec "PLUGIN/BENCH[K=V,...][@BACKEND[:DEVICE]]" with the
 * -p KEY=VALUE params added (the operand's first) and, unless spec names
 * one, the --backend names (NULL/0: cpu). NULL after printing one line
 * naming what was expected. */
bh_config *bh_run_case_config(const char *spec, char *const *params, size_t n_params,
                              const char *const *backends, size_t n_backends);

/* Checks the config's one suite against the plugin's description: the
 * plugin exists, declares the benchmark, and the benchmark declares every
 * parameter given. 0, or -1 after printing one line with the closest
 * name ("did you mean") or the names there are. A plugin that exists but
 * fails to load passes: its case fails with the reason. */
int bh_run_case_check(const bh_config *cfg, bh_catalog *cat);

/* msg without the "SPEC:1:1: " position the plan puts before errors in
 * cfg's request (borrowed from msg). */
const char *bh_run_case_message(const bh_config *cfg, const char *msg);

#endif
