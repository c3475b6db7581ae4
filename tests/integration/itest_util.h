// SPDX-License-Identifier: MIT
/* The cmocka side of the integration tests (test_run, test_history,
 * test_compare, test_faults): one temporary directory per test binary and
 * paths in it, running the real bhost binary through proc_util.h and
 * asserting on its exit code and output, reading its JSON. Every check
 * that fails is a cmocka failure (fail_msg) saying what was expected.
 * Include after <cmocka.h>; single-threaded, like the tests. */
#ifndef BH_TEST_ITEST_UTIL_H
#define BH_TEST_ITEST_UTIL_H

#include <cjson/cJSON.h>

#include "proc_util.h"

/* Creates this binary's temporary directory under $TMPDIR (or /tmp),
 * named prefix_XXXXXX. reaper != 0: through tp_init() (this process
 * becomes the subreaper of what bhost starts; sanitizer options for crash
 * fixtures). Returns the directory, or NULL (then the group setup fails). */
const char *it_setup(const char *prefix, int reaper);

/* Removes the directory and everything under it, and frees every path
 * it_path() and it_config() handed out. */
void it_teardown(void);

/* it_teardown() as a cmocka group teardown. */
int it_group_teardown(void **state);

/* The temporary directory of it_setup(). */
const char *it_dir(void);

/* "<dir>/<name>", valid until it_teardown(). */
const char *it_path(const char *name);

/* "$BHOST_ITEST_CONFIGS/<name>" (a config of tests/integration/configs),
 * valid until it_teardown(). */
const char *it_config(const char *name);

/* The value of an environment variable the meson test sets; a failure
 * when it is missing or empty. */
const char *it_env(const char *name);

/* Starts "$BHOST_EXE args..." (NULL-terminated) with its output in files
 * under the temporary directory; finish with tp_finish(). */
void it_start(tp_proc *p, const char *const *args);

/* it_start() and tp_finish(): p->code, p->out and p->err filled (free
 * with tp_proc_free). */
void it_run(tp_proc *p, const char *const *args);

/* A failure, with both output streams, unless p exited with want. */
void it_expect_code(const tp_proc *p, int want);

/* A failure unless hay (may be NULL) contains needle. */
void it_assert_has(const char *hay, const char *needle);

/* The number of newlines in s. */
int it_count_lines(const char *s);

/* Writes text to path (truncating); a failure when it cannot. */
void it_write(const char *path, const char *text);

/* The whole file at path as one complete JSON document (cJSON_Delete
 * it); a failure otherwise. */
cJSON *it_load_json(const char *path);

/* text as one complete JSON document; a failure naming what otherwise. */
cJSON *it_parse_json(const char *text, const char *what);

/* Member key of object o; a failure when it is missing. */
cJSON *it_member(const cJSON *o, const char *key);

/* The string member key of o; a failure when it is missing or not a
 * string. */
const char *it_str_of(const cJSON *o, const char *key);

/* The case with id in a result document's "cases"; a failure when none. */
const cJSON *it_case_of(const cJSON *doc, const char *id);

/* The case with id, after asserting its status and that its message
 * contains phrase (NULL: the message is not checked). */
const cJSON *it_expect_case(const cJSON *doc, const char *id,
                            const char *status, const char *phrase);

#endif
