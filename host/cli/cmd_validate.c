// SPDX-License-Identifier: MIT
#include "catalog.h"
#include "cli.h"
#include "config.h"
#include "plan.h"
#include "regress_config.h"
#include "sysinfo.h"

#include <stdio.h>
#include <string.h>

static const char validate_usage[] =
    "usage: bhost validate CONFIG\n"
    "\n"
    "Checks CONFIG without running anything: the YAML schema, every plugin\n"
    "it names (loaded in a worker), that include patterns match benchmarks,\n"
    "that params exist with values of the declared types, and the pinning\n"
    "spec. A plugin that cannot be found or loaded, or a required backend\n"
    "that is unavailable, is an error. Prints the number of cases; exits 3\n"
    "on errors.\n";

static const bh_opt validate_options[] = {
    {NULL, 0, 0, BH_OPT_FLAG, NULL},
};

/* bhost validate CONFIG: everything run checks, nothing run. */
static int cmd_validate(int argc, char **argv)
{
    bh_error e = {""};
    bh_config *cfg;
    bh_catalog cat;
    bh_plan plan;
    size_t unrunnable = 0;
    int rc = BH_EXIT_OK;
    bh_opts p;

    bh_opts_init(&p, "validate", validate_options, argc, argv, 1);
    if (bh_opts_next(&p) < 0)
        return BH_EXIT_USAGE;
    if (argc - p.next != 1) {
        bh_cli_error("validate: expected exactly one CONFIG file");
        return BH_EXIT_USAGE;
    }
    argv[1] = argv[p.next];
    cfg = bh_config_load(argv[1], &e);
    if (!cfg) {
        bh_cli_error("%s", e.msg);
        return BH_EXIT_CONFIG;
    }
    {
        bh_regress_config reg;
        int bad = bh_regress_config_parse(cfg->regression_json,
                                          cfg->regression_pos_json, cfg->path,
                                          &reg, &e);

        bh_regress_config_free(&reg);
        if (bad) {
            bh_cli_error("%s", e.msg);
            bh_config_free(cfg);
            return BH_EXIT_CONFIG;
        }
    }
    for (size_t i = 0; i < cfg->n_suites; i++) {
        if (bh_sysinfo_pin_check(cfg->suites[i].settings.pin, &e) != 0) {
            bh_cli_error("%s:%d:%d: %s", cfg->suites[i].pos.file,
                         cfg->suites[i].pos.line, cfg->suites[i].pos.column,
                         e.msg);
            bh_config_free(cfg);
            return BH_EXIT_CONFIG;
        }
    }
    bh_catalog_init(&cat, cfg->plugin_path, cfg->n_plugin_path);
    if (bh_plan_build(cfg, &cat, &plan, &e) != 0) {
        bh_cli_error("%s", e.msg);
        rc = BH_EXIT_CONFIG;
    } else {
        size_t errors = 0;

        for (size_t i = 0; i < plan.n; i++) {
            const bh_case *c = &plan.cases[i];
            size_t len = strlen(c->id);
            const bh_suite *s = &cfg->suites[c->suite];

            if (c->pre_status == BH_ST_OK)
                continue;
            unrunnable++;
            /* a plugin that cannot be found or loaded, or a required
             * backend that is unavailable, makes the config invalid here */
            if ((len >= 2 && strcmp(c->id + len - 2, "/*") == 0) ||
                bh_status_is_failure(c->pre_status)) {
                errors++;
                bh_cli_error("%s:%d:%d: %s", s->plugin_pos.file,
                             s->plugin_pos.line, s->plugin_pos.column,
                             c->pre_reason ? c->pre_reason : c->id);
            } else {
                printf("%s: %s: %s\n", c->id, bh_status_name(c->pre_status),
                       c->pre_reason ? c->pre_reason : "");
            }
        }
        if (errors)
            rc = BH_EXIT_CONFIG;
        else
            printf("%s: ok, %zu case%s (%zu runnable)\n", argv[1], plan.n,
                   plan.n == 1 ? "" : "s", plan.n - unrunnable);
        bh_plan_free(&plan);
    }
    bh_catalog_free(&cat);
    bh_config_free(cfg);
    return rc;
}

const bh_cli_cmd bh_cli_validate = {
    .name = "validate",
    .handler = cmd_validate,
    .args = "CONFIG",
    .summary = "check a config and the plugins it names",
    .usage = validate_usage,
    .opts = validate_options,
};
