// SPDX-License-Identifier: MIT
/* hyperfine JSON (`--export-json`): {"results": [{"command", "times",
 * "exit_codes", "user", "system", "parameters", ...}]}. Each command is a
 * case; each of its timed executions (times[], seconds) is a run with one
 * sample [1, t x 1e9], failed when its exit code (exit_codes[]) is not 0;
 * the mean user and system CPU times are the informational metrics
 * user_s and system_s; memory_usage_byte, where hyperfine wrote it, is
 * each run's peak_rss_kb. hyperfine records nothing of the machine. */
#include "import_internal.h"

#include "bh_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The case params from "parameters" (a copy), or NULL. */
static cJSON *params_of(const cJSON *r)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "parameters");

    return cJSON_IsObject(p) ? cJSON_Duplicate(p, 1) : NULL;
}

/* "hyperfine/COMMAND", with "[k=v,...]" of its parameters (hyperfine -P,
 * -L: one command line may run with several values). */
static char *case_id(const char *cmd, const cJSON *r)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "parameters");
    bh_strbuf id = BH_STRBUF_INIT;
    const cJSON *it;
    int k = 0;

    bh_strbuf_printf(&id, "hyperfine/%s", cmd);
    cJSON_ArrayForEach(it, p) {
        if (cJSON_IsString(it))
            bh_strbuf_printf(&id, "%s%s=%s", k++ ? "," : "[", it->string, it->valuestring);
    }
    if (k)
        bh_strbuf_puts(&id, "]");
    return bh_strbuf_detach(&id);
}

/* Run k of result r: its time, exit code and memory. */
static int one_run(cJSON *c, const cJSON *r, const cJSON *t, int k, int ri, bh_error *e)
{
    const cJSON *code = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "exit_codes"), k);
    const cJSON *mem =
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "memory_usage_byte"), k);
    char *msg = NULL;
    cJSON *run;

    if (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0)
        return bh_error_set(e, "results[%d].times[%d]: expected a number of seconds >= 0", ri, k);
    if (cJSON_IsNumber(code) && code->valuedouble != 0)
        msg = bh_xasprintf("exit code %g", code->valuedouble);
    run = bh_imp_run(c, msg);
    if (bh_imp_sample(run, 1, t->valuedouble * 1e9) != 0) {
        free(msg);
        return bh_error_set(e, "results[%d].times[%d]: a time too large for nanoseconds", ri, k);
    }
    if (cJSON_IsNumber(mem) && mem->valuedouble >= 0)
        bh_imp_set_num(run, "peak_rss_kb", floor(mem->valuedouble / 1024));
    free(msg);
    return 0;
}

int bh_imp_hyperfine(bh_imp *imp, const char *path, const cJSON *root, bh_error *e)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "results");
    const cJSON *r;
    int ri = 0;

    (void)path;
    if (!cJSON_IsObject(root) || !cJSON_IsArray(list))
        return bh_error_set(e, "expected an object with a \"results\" array (hyperfine "
                               "--export-json)");
    cJSON_ArrayForEach(r, list) {
        const char *cmd = bh_imp_str(r, "command");
        const cJSON *times = cJSON_GetObjectItemCaseSensitive(r, "times");
        const cJSON *t;
        double v;
        char *id;
        cJSON *c;
        int k = 0;

        if (!cmd || !cJSON_IsArray(times))
            return bh_error_set(e,
                                "results[%d]: expected a command and a times array "
                                "(hyperfine --export-json)",
                                ri);
        id = case_id(cmd, r);
        c = bh_imp_case(imp, id, "hyperfine", cmd, params_of(r));
        free(id);
        cJSON_ArrayForEach(t, times) {
            if (one_run(c, r, t, k++, ri, e) != 0)
                return -1;
        }
        if (bh_imp_num(r, "user", &v))
            bh_imp_metric(c, "user_s", "s", v);
        if (bh_imp_num(r, "system", &v))
            bh_imp_metric(c, "system_s", "s", v);
        ri++;
    }
    return 0;
}
