// SPDX-License-Identifier: MIT
/* The typed result reader (host/results/result_view.h): every field read
 * from a document, absent members reading as absent, verdict headlines
 * and the per-run figures regress compares. */
#include "result_view.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char doc_text[] =
    "{\"schema\":\"bhost.result/1\","
    " \"run\":{\"config\":{\"path\":\"configs/x.yaml\",\"name\":\"x\",\"hash\":\"ab\"},"
    "  \"host_version\":\"0.9\",\"seed\":\"0x5eed\",\"started_at\":\"2026-11-27T10:00:00Z\","
    "  \"duration_s\":12.5,\"complete\":false,"
    "  \"git\":{\"commit\":\"c0ffee\",\"branch\":null,\"dirty\":true,\"source\":\"git\"},"
    "  \"command_line\":[\"bhost\",\"run\"]},"
    " \"system\":{\"hostname\":\"h\",\"cpu\":{\"model\":\"EPYC\"},\"fingerprint_hash\":\"f00\"},"
    " \"roofs\":{\"bandwidth_bytes_per_s\":2e10,\"bandwidth_case\":\"t/stream\"},"
    " \"comparison\":{\"baseline\":\"main\",\"counts\":{\"regressed\":1},"
    "  \"gate\":{\"fail_on_regression\":true}},"
    " \"cases\":["
    "  {\"id\":\"tensor/add[n=4]@cpu:0\",\"plugin\":\"tensor\",\"benchmark\":\"add\","
    "   \"backend\":\"cpu\",\"device\":0,\"status\":\"ok\",\"params\":{\"n\":4},"
    "   \"summary\":{\"n\":6,\"runs\":2,\"median\":100,\"cv\":0.1,\"between_run_cv\":0.02,"
    "     \"median_ci_lo\":90,\"median_ci_hi\":110,\"median_ci_level\":0.99},"
    "   \"throughput\":{\"bytes_per_s\":1e9},"
    "   \"roofline\":{\"fraction\":0.5,\"attainable\":2e9,\"bound\":\"memory\",\"unit\":\"B/s\"},"
    "   \"metrics\":{\"err\":{\"unit\":\"ulp\",\"direction\":\"lower\",\"values\":[3,1,null,2]},"
    "              \"rate\":{\"unit\":\"tokens/s\",\"direction\":\"higher\",\"values\":[50,70]}},"
    "   \"runs\":[{\"index\":1,\"status\":\"ok\",\"samples\":[[2,300],[1,100],[1,\"x\"]],"
    "              \"wall_ns\":2e9,\"metrics\":[{\"name\":\"err\",\"value\":3},"
    "              {\"name\":\"err\",\"value\":5}]},"
    "             {\"index\":0,\"status\":\"crashed\",\"message\":\"SIGSEGV\",\"wall_ns\":1e9}],"
    "   \"verdict\":{\"verdict\":\"regressed\",\"severity\":\"warning\",\"baseline_id\":\"b\","
    "     \"metrics\":[{\"metric\":\"err\",\"verdict\":\"within noise\"},"
    "                {\"metric\":\"time\",\"unit\":\"ns/iter\",\"verdict\":\"regressed\","
    "                 \"severity\":\"warning\",\"change\":0.2,\"change_lo\":0.1,"
    "                 \"change_hi\":null,\"baseline\":{\"median\":80},"
    "                 \"candidate\":{\"median\":100}}]}},"
    "  {\"id\":7},"
    "  {\"id\":\"selftest/noop\",\"status\":\"skipped\",\"summary\":null,\"verdict\":null}]}";

/* Every field of the first case and the document's top level. */
static void test_view_reads_fields(void **state)
{
    cJSON *doc = cJSON_Parse(doc_text);
    bh_result_view v;
    const bh_rv_case *c;

    (void)state;
    assert_non_null(doc);
    bh_result_view_load(doc, &v);
    assert_string_equal(v.schema, "bhost.result/1");
    assert_string_equal(v.run.config_name, "x");
    assert_string_equal(v.run.config_path, "configs/x.yaml");
    assert_string_equal(v.run.seed, "0x5eed");
    assert_true(v.run.duration_s == 12.5);
    assert_int_equal(v.run.complete, 0);
    assert_string_equal(v.run.git.commit, "c0ffee");
    assert_null(v.run.git.branch);
    assert_int_equal(v.run.git.dirty, 1);
    assert_null(v.run.finished_at);
    assert_null(v.run.shard);
    assert_true(isnan(v.run.shard_index));
    assert_string_equal(v.run.shard_partition, "");
    {
        /* a shard result's run.shard */
        cJSON *sd = cJSON_Parse("{\"run\":{\"shard\":{\"index\":2,\"count\":3,"
                                "\"cases_total\":9,\"partition\":\"ab\",\"positions\":[1]}}}");
        bh_result_view sv;

        bh_result_view_load_top(sd, &sv);
        assert_true(sv.run.shard_index == 2 && sv.run.shard_count == 3);
        assert_true(sv.run.shard_cases_total == 9);
        assert_string_equal(sv.run.shard_partition, "ab");
        assert_int_equal(cJSON_GetArraySize(sv.run.shard_positions), 1);
        bh_result_view_free(&sv);
        cJSON_Delete(sd);
    }
    assert_string_equal(v.system.cpu_model, "EPYC");
    assert_string_equal(v.system.fingerprint_hash, "f00");
    assert_true(v.roofs.bandwidth_bytes_per_s == 2e10);
    assert_true(isnan(v.roofs.flops_per_s));
    assert_string_equal(v.comparison.baseline, "main");
    assert_true(v.comparison.fail_on_regression);
    assert_null(v.comparison.gate_baseline_sha256);
    assert_true(bh_rv_comparison_count(&v.comparison, "regressed") == 1);
    assert_true(bh_rv_comparison_count(&v.comparison, "improved") == 0);
    assert_true(bh_rv_comparison_regressed(&v.comparison, "critical") == 0);
    assert_true(isnan(v.comparison.tests));
    assert_int_equal(v.comparison.n_families, 0);
    /* the case whose id is not a string is left out */
    assert_int_equal(v.n_cases, 2);
    assert_int_equal(v.cases_total, 3);
    assert_int_equal(v.n_verdicts, 1);
    assert_int_equal(v.n_roofline, 1);
    c = &v.cases[0];
    assert_string_equal(c->group, "tensor/add");
    assert_string_equal(c->rest, "[n=4]@cpu:0");
    assert_string_equal(c->op, "tensor/add[n=4]");
    assert_string_equal(c->at, "@cpu:0");
    assert_string_equal(c->backend, "cpu");
    assert_int_equal(c->device, 0);
    assert_true(c->ok);
    assert_true(c->summary.present);
    assert_true(c->summary.median == 100);
    assert_true(c->summary.spread_cv == 0.02);
    /* a tokens/s metric is the headline rate before bytes/s */
    assert_string_equal(c->rate_unit, "tokens/s");
    assert_true(c->rate == 60);
    assert_true(c->bytes_per_s == 1e9);
    assert_true(c->roof.fraction == 0.5);
    assert_string_equal(c->roof.bound, "memory");
    assert_true(fabs(c->wall_s - 3.0) < 1e-12);
    bh_result_view_free(&v);
    cJSON_Delete(doc);
}

/* The details the reports show: plugins, system, settings, outliers,
 * memory and the per-run figures of the verbose console. */
static const char details_text[] =
    "{\"run\":{\"plugins\":[{\"requested\":\"fx\",\"name\":\"fx\",\"version\":\"1.2\","
    "  \"status\":\"ok\",\"sha256\":\"5ha\",\"warning\":\"slow describe\"},3]},"
    " \"system\":{\"os\":{\"release\":\"6.1\"},\"compiler\":\"gcc 12\","
    "  \"cpu\":{\"logical_cores\":8,\"physical_cores\":4,\"numa_nodes\":1},"
    "  \"frequency\":{\"governor\":\"performance\",\"max_khz\":3e6},"
    "  \"load_average\":[0.5,0.25,0.1],"
    "  \"caches\":[{\"level\":1,\"type\":\"data\",\"size_bytes\":32768,\"count\":4},{}]},"
    " \"cases\":[{\"id\":\"fx/a\",\"status\":\"ok\","
    "  \"settings\":{\"warmup_ns\":1e6,\"sample_time_ns\":0,\"samples\":10,\"runs\":3,"
    "   \"timeout_ns\":1e10,\"max_time_ns\":6e10,\"pin\":\"none\"},"
    "  \"summary\":{\"median\":5,\"tukey\":{\"low_severe\":0,\"low_mild\":1,"
    "   \"high_mild\":2,\"high_severe\":3},\"flags\":[\"high_cv\"]},"
    "  \"memory\":{\"peak_rss_kb\":2048},"
    "  \"runs\":[{\"index\":0,\"status\":\"ok\",\"iters_per_sample\":64,"
    "   \"worker_maxrss_kb\":4096,\"bytes_per_iter\":16,\"warning\":\"late write\"}]}]}";

static void test_view_details(void **state)
{
    cJSON *doc = cJSON_Parse(details_text);
    bh_result_view v;
    const bh_rv_case *c;
    const bh_rv_run *r;
    bh_rv_plugin p;
    bh_rv_cache k;

    (void)state;
    assert_non_null(doc);
    bh_result_view_load(doc, &v);
    assert_int_equal(v.run.n_plugins, 2);
    p = bh_rv_run_plugin(&v.run, 0);
    assert_string_equal(p.requested, "fx");
    assert_string_equal(p.version, "1.2");
    assert_string_equal(p.sha256, "5ha");
    assert_string_equal(p.warning, "slow describe");
    p = bh_rv_run_plugin(&v.run, 1); /* not an object: every field absent */
    assert_null(p.name);
    assert_null(p.status);
    assert_string_equal(v.system.os_release, "6.1");
    assert_string_equal(v.system.compiler, "gcc 12");
    assert_string_equal(v.system.governor, "performance");
    assert_true(v.system.max_khz == 3e6);
    assert_true(v.system.logical_cores == 8 && v.system.physical_cores == 4);
    assert_true(v.system.numa_nodes == 1);
    assert_int_equal(cJSON_GetArraySize(v.system.load_average), 3);
    assert_int_equal(v.system.n_caches, 2);
    k = bh_rv_system_cache(&v.system, 0);
    assert_string_equal(k.type, "data");
    assert_true(k.level == 1 && k.size_bytes == 32768 && k.count == 4);
    k = bh_rv_system_cache(&v.system, 1);
    assert_null(k.type);
    assert_true(isnan(k.size_bytes));
    c = &v.cases[0];
    assert_non_null(c->settings.json);
    assert_true(c->settings.warmup_ns == 1e6 && c->settings.sample_time_ns == 0);
    assert_true(c->settings.samples == 10 && c->settings.runs == 3);
    assert_true(c->settings.timeout_ns == 1e10 && c->settings.max_time_ns == 6e10);
    assert_string_equal(c->settings.pin, "none");
    assert_true(c->summary.low_severe == 0 && c->summary.low_mild == 1);
    assert_true(c->summary.high_mild == 2 && c->summary.high_severe == 3);
    assert_int_equal(cJSON_GetArraySize(c->summary.flags), 1);
    assert_true(c->memory_peak_rss_kb == 2048);
    r = &c->runs[0];
    assert_true(r->iters_per_sample == 64 && r->worker_maxrss_kb == 4096);
    assert_true(r->bytes_per_iter == 16 && isnan(r->flops_per_iter) && isnan(r->items_per_iter));
    assert_string_equal(r->warning, "late write");
    bh_result_view_free(&v);
    cJSON_Delete(doc);
    /* a document without them reads them as absent */
    doc = cJSON_Parse("{\"cases\":[{\"id\":\"a\",\"runs\":[{}]}]}");
    bh_result_view_load(doc, &v);
    assert_int_equal(v.run.n_plugins, 0);
    assert_int_equal(v.system.n_caches, 0);
    assert_null(v.system.governor);
    assert_null(v.cases[0].settings.json);
    assert_null(v.cases[0].settings.pin);
    assert_null(v.cases[0].summary.flags);
    assert_true(isnan(v.cases[0].summary.high_severe));
    assert_true(isnan(v.cases[0].memory_peak_rss_kb));
    assert_null(v.cases[0].runs[0].warning);
    assert_true(isnan(v.cases[0].runs[0].iters_per_sample));
    bh_result_view_free(&v);
    cJSON_Delete(doc);
}

/* The top alone: the run and the count of cases, no case read. */
static void test_view_top_only(void **state)
{
    cJSON *doc = cJSON_Parse(doc_text);
    bh_result_view v;

    (void)state;
    bh_result_view_load_top(doc, &v);
    assert_string_equal(v.run.config_hash, "ab");
    assert_string_equal(v.system.hostname, "h");
    assert_int_equal(v.cases_total, 3);
    assert_int_equal(v.n_cases, 0);
    assert_null(v.cases);
    bh_result_view_free(&v);
    cJSON_Delete(doc);
}

/* Runs, their sample medians and metrics; the case's metrics. */
static void test_view_runs_and_metrics(void **state)
{
    cJSON *doc = cJSON_Parse(doc_text);
    bh_result_view v;
    const bh_rv_case *c;
    const bh_rv_metric *m;
    double *med;
    size_t n;

    (void)state;
    bh_result_view_load(doc, &v);
    c = bh_result_view_find(&v, "tensor/add[n=4]@cpu:0");
    assert_non_null(c);
    assert_null(bh_result_view_find(&v, "tensor/add"));
    assert_int_equal(c->n_runs, 2);
    assert_int_equal(c->runs[0].index, 1);
    /* samples 150 and 100 ns/iter count, the malformed one does not */
    assert_int_equal(c->runs[0].n_samples, 2);
    assert_true(c->runs[0].median_ns == 125);
    assert_true(c->runs[0].iters == 3);
    assert_true(bh_rv_run_metric_value(&c->runs[0], "err") == 4);
    assert_true(isnan(bh_rv_run_metric_value(&c->runs[0], "other")));
    assert_false(c->runs[1].ok);
    assert_string_equal(c->runs[1].message, "SIGSEGV");
    assert_true(isnan(c->runs[1].median_ns));
    bh_rv_case_run_medians(c, &med, &n);
    assert_int_equal(n, 1);
    assert_true(med[0] == 125);
    free(med);
    m = bh_rv_case_metric(c, "err");
    assert_non_null(m);
    assert_string_equal(m->unit, "ulp");
    assert_false(m->higher_better);
    assert_int_equal(m->n_values, 3); /* the null is not a value */
    assert_true(m->values[0] == 1 && m->values[2] == 3); /* ascending */
    assert_true(m->median == 2);
    assert_true(bh_rv_case_metric(c, "rate")->higher_better);
    {
        /* a lone case object reads as the same case; a non-case reads as 0 */
        bh_rv_case lone;

        assert_int_equal(bh_rv_case_read(c->json, &lone), 1);
        assert_string_equal(lone.id, c->id);
        assert_int_equal(lone.n_runs, 2);
        assert_true(lone.runs[0].median_ns == 125);
        bh_rv_case_free(&lone);
        assert_int_equal(bh_rv_case_read(v.doc, &lone), 0);
        assert_int_equal(lone.n_runs, 0);
    }
    bh_result_view_free(&v);
    cJSON_Delete(doc);
}

/* The headline change is the time metric's; a null interval end is
 * unbounded; a case without a comparison has no verdict. */
static void test_view_verdicts(void **state)
{
    cJSON *doc = cJSON_Parse(doc_text);
    bh_result_view v;
    const bh_rv_case *c;

    (void)state;
    bh_result_view_load(doc, &v);
    c = &v.cases[0];
    assert_string_equal(c->verdict, "regressed");
    assert_string_equal(c->severity, "warning");
    assert_string_equal(c->baseline_id, "b");
    assert_int_equal(c->n_changes, 2);
    assert_non_null(c->head);
    assert_string_equal(c->head->metric, "time");
    assert_true(c->head->change == 0.2);
    assert_true(c->head->lo == 0.1);
    assert_true(isinf(c->head->hi) && c->head->hi > 0);
    assert_true(c->head->base == 80 && c->head->cand == 100);
    assert_null(v.cases[1].verdict);
    assert_false(v.cases[1].summary.present);
    assert_string_equal(v.cases[1].bench, "");
    assert_int_equal(v.cases[1].device, -1);
    assert_int_equal(bh_rv_verdict_rank("regressed", "warning"), 1);
    assert_int_equal(bh_rv_verdict_rank(NULL, NULL), 10);
    assert_true(bh_rv_status_failed("oom"));
    assert_false(bh_rv_status_failed("skipped"));
    bh_result_view_free(&v);
    cJSON_Delete(doc);
}

/* A document of the wrong shape reads as empty, without crashing. */
static void test_view_wrong_shapes(void **state)
{
    static const char *const texts[] = {"[]", "{}", "{\"cases\":{}}",
                                        "{\"run\":[],\"system\":3,\"cases\":[1,\"a\",null]}",
                                        "{\"cases\":[{\"id\":\"a\",\"runs\":{},\"metrics\":[],"
                                        "\"summary\":[],\"verdict\":\"x\"}]}"};

    (void)state;
    for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
        cJSON *doc = cJSON_Parse(texts[i]);
        bh_result_view v;

        assert_non_null(doc);
        bh_result_view_load(doc, &v);
        assert_true(v.n_cases <= 1);
        assert_null(v.run.config_name);
        assert_int_equal(v.run.complete, -1);
        if (v.n_cases) {
            assert_int_equal(v.cases[0].n_runs, 0);
            assert_int_equal(v.cases[0].n_metrics, 0);
            assert_null(v.cases[0].verdict);
        }
        bh_result_view_free(&v);
        cJSON_Delete(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_reads_fields),
        cmocka_unit_test(test_view_details),
        cmocka_unit_test(test_view_top_only),
        cmocka_unit_test(test_view_runs_and_metrics),
        cmocka_unit_test(test_view_verdicts),
        cmocka_unit_test(test_view_wrong_shapes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
