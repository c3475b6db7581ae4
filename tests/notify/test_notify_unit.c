// SPDX-License-Identifier: MIT
/* Unit tests of the alert module without a network: reading --notify
 * values (a mistyped URL's secret never echoed), the mail text, the
 * critical count, and where the GitHub calls go (the pull request from
 * GITHUB_REF, the event file or the target; what is missing). */
#define _GNU_SOURCE
#include "notify.h"
#include "notify_github_api.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A result with one case whose time metric has the given verdict and
 * severity. */
static cJSON *doc_with(const char *verdict, const char *severity)
{
    char text[1024];

    snprintf(text, sizeof(text),
             "{\"run\": {\"config\": {\"name\": \"cfg\"}}, \"system\": {\"hostname\": \"h\"},"
             " \"cases\": [{\"id\": \"p/spin[n=1]\", \"verdict\": {\"baseline_id\": \"p/spin\","
             " \"metrics\": [{\"metric\": \"time\", \"unit\": \"ns/iter\", \"verdict\": \"%s\","
             " \"severity\": \"%s\", \"change\": 1.5, \"change_lo\": 1.4, \"change_hi\": 1.6,"
             " \"baseline\": {\"median\": 100}, \"candidate\": {\"median\": 250}}]}}]}",
             verdict, severity);
    return cJSON_Parse(text);
}

static void test_targets(void **state)
{
    bh_notify_target t;
    bh_error e = {""};

    (void)state;
    assert_int_equal(bh_notify_target_parse("https://hooks.example.org/x", &t, &e), 0);
    assert_int_equal(t.kind, BH_NOTIFY_WEBHOOK);
    assert_int_equal(bh_notify_target_parse("slack:https://hooks.slack.com/T/B/S", &t, &e), 0);
    assert_int_equal(t.kind, BH_NOTIFY_SLACK);
    assert_string_equal(t.url, "https://hooks.slack.com/T/B/S");
    assert_int_equal(bh_notify_target_parse("github:comment", &t, &e), 0);
    assert_true(t.kind == BH_NOTIFY_GITHUB_COMMENT && !t.repo[0] && t.pr == 0);
    assert_int_equal(bh_notify_target_parse("github:comment:a-b/c.d#12", &t, &e), 0);
    assert_string_equal(t.repo, "a-b/c.d");
    assert_int_equal(t.pr, 12);
    assert_int_equal(bh_notify_target_parse("github:issue:o/r", &t, &e), 0);
    assert_true(t.kind == BH_NOTIFY_GITHUB_ISSUE && strcmp(t.repo, "o/r") == 0);
    assert_int_equal(bh_notify_target_parse("email:a@x.org,b@y.org", &t, &e), 0);
    assert_string_equal(t.to, "a@x.org,b@y.org");
    const char *bad[] = {"github:issue:o/r#1",
                         "github:comment:o#1",
                         "github:comment:o/r/s",
                         "github:comment:o/r#0",
                         "github:commentx",
                         "email:",
                         "email:a",
                         "email:a@x,",
                         "email:<a@x>",
                         "slack:hooks.slack.com/S3cret",
                         "htps://hooks.example.org/S3cret",
                         "hooks.slack.com/services/S3cret"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        e.msg[0] = '\0';
        assert_int_equal(bh_notify_target_parse(bad[i], &t, &e), -1);
        if (!strstr(e.msg, "expected"))
            fail_msg("%s: %s", bad[i], e.msg);
        assert_null(strstr(e.msg, "S3cret"));
    }
}

static void test_text(void **state)
{
    cJSON *d = doc_with("regressed", "critical");
    size_t n = 0;
    char *text = bh_notify_text(d, "res.json", &n);
    cJSON *p = bh_notify_payload(d, NULL, &n);

    (void)state;
    assert_int_equal(n, 1);
    assert_non_null(text);
    assert_int_equal(strncmp(text, "bhost: 1 regression in cfg on h\n", 32), 0);
    assert_non_null(strstr(text, "\ncritical: p/spin[n=1] time +150.0% [+140.0%, +160.0%]: "));
    assert_non_null(strstr(text, "result: res.json\n"));
    assert_int_equal(bh_notify_n_critical(p), 1);
    free(text);
    cJSON_Delete(p);
    cJSON_Delete(d);
    d = doc_with("regressed", "warning");
    p = bh_notify_payload(d, NULL, &n);
    assert_int_equal(bh_notify_n_critical(p), 0);
    assert_int_equal(bh_notify_n_critical(NULL), 0);
    cJSON_Delete(p);
    cJSON_Delete(d);
    d = doc_with("improved", "none");
    assert_null(bh_notify_text(d, NULL, &n));
    assert_int_equal(n, 0);
    cJSON_Delete(d);
}

/* Resolves target text with the environment as set; the error in e. */
static int resolve(const char *text, bh_gh *g, bh_error *e)
{
    bh_notify_target t;
    int rc;

    assert_int_equal(bh_notify_target_parse(text, &t, e), 0);
    rc = bh_gh_resolve(&t, g, e);
    bh_gh_free(g);
    return rc;
}

static void test_github_env(void **state)
{
    char event[] = "/tmp/bh_notify_eventXXXXXX";
    int fd = mkstemp(event);
    bh_gh g;
    bh_error e = {""};

    (void)state;
    assert_true(fd >= 0);
    assert_true(write(fd, "{\"pull_request\": {\"number\": 77}}", 32) == 32);
    close(fd);
    unsetenv("GH_TOKEN");
    unsetenv("GITHUB_TOKEN");
    unsetenv("GITHUB_REPOSITORY");
    unsetenv("GITHUB_REF");
    unsetenv("GITHUB_EVENT_PATH");
    unsetenv("GITHUB_API_URL");
    assert_int_equal(resolve("github:comment", &g, &e), -1);
    assert_non_null(strstr(e.msg, "no repository"));
    setenv("GITHUB_REPOSITORY", "acme/w", 1);
    assert_int_equal(resolve("github:comment", &g, &e), -1);
    assert_non_null(strstr(e.msg, "github:comment acme/w: no pull request"));
    setenv("GITHUB_REF", "refs/pull/31/merge", 1);
    assert_int_equal(resolve("github:comment", &g, &e), -1);
    assert_string_equal(e.msg, "github:comment acme/w#31: no token: set GITHUB_TOKEN");
    setenv("GH_TOKEN", "tok", 1);
    assert_int_equal(resolve("github:comment", &g, &e), 0);
    assert_string_equal(g.api, "https://api.github.com");
    assert_int_equal(g.pr, 31);
    setenv("GITHUB_REF", "refs/heads/main", 1);
    setenv("GITHUB_EVENT_PATH", event, 1);
    setenv("GITHUB_API_URL", "http://127.0.0.1:9//", 1);
    assert_int_equal(resolve("github:comment", &g, &e), 0);
    assert_int_equal(g.pr, 77);
    assert_string_equal(g.api, "http://127.0.0.1:9");
    assert_int_equal(resolve("github:comment:o/r#5", &g, &e), 0);
    assert_true(g.pr == 5 && strcmp(g.repo, "o/r") == 0);
    assert_string_equal(g.shown, "github:comment o/r#5");
    assert_int_equal(resolve("github:issue", &g, &e), 0);
    assert_true(g.pr == 0 && strcmp(g.shown, "github:issue acme/w") == 0);
    setenv("GITHUB_REPOSITORY", "acme w", 1);
    assert_int_equal(resolve("github:issue", &g, &e), -1);
    setenv("GITHUB_REPOSITORY", "acme/w", 1);
    setenv("GITHUB_API_URL", "file:///etc", 1);
    assert_int_equal(resolve("github:issue", &g, &e), -1);
    assert_non_null(strstr(e.msg, "GITHUB_API_URL"));
    unlink(event);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_targets),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_github_env),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
