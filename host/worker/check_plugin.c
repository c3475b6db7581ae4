// SPDX-License-Identifier: MIT
#include "check_plugin.h"

#include "host_api.h"
#include "ipc.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void bh_check_report(int fd, const char *id, const char *result,
                     const char *fmt, ...)
{
    char reason[1024];
    cJSON *m = cJSON_CreateObject();
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    for (char *p = reason; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    cJSON_AddStringToObject(m, "t", "check");
    cJSON_AddStringToObject(m, "id", id);
    cJSON_AddStringToObject(m, "result", result);
    cJSON_AddStringToObject(m, "reason", reason);
    bh_ipc_send(fd, m, NULL);
    cJSON_Delete(m);
}

void bh_check_stage(int fd, const char *stage)
{
    cJSON *m = cJSON_CreateObject();

    cJSON_AddStringToObject(m, "t", "check_stage");
    cJSON_AddStringToObject(m, "stage", stage);
    bh_ipc_send(fd, m, NULL);
    cJSON_Delete(m);
}

const char *bh_check_last_error(void)
{
    const char *why = bh_host_api_last_error();

    return *why ? why : "(no message)";
}

/* True when s is set, non-empty, at most max bytes and one line. */
static int one_line(const char *s, size_t max)
{
    size_t n;

    if (!s || !*s)
        return 0;
    n = strnlen(s, max + 1);
    return n <= max && !memchr(s, '\n', n);
}

/* True when every byte of s is a lowercase letter, digit or one of
 * extra, and s starts with a letter or digit. */
static int charset(const char *s, const char *extra)
{
    if (!s || !*s || !((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              strchr(extra, *s)))
            return 0;
    return 1;
}

/* Reverse DNS: at least three dot-separated labels of [a-z0-9_-], each
 * starting with a letter or digit ("org.bhost.selftest"). */
static int reverse_dns(const char *s)
{
    int labels = 1;

    if (!one_line(s, 256) || !charset(s, "._-"))
        return 0;
    for (const char *p = s; *p; p++) {
        if (*p != '.')
            continue;
        if (!((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= '0' && p[1] <= '9')))
            return 0;
        labels++;
    }
    return labels >= 3;
}

/* MAJOR.MINOR.PATCH in decimal, optionally followed by a semver
 * pre-release or build suffix ("-rc1", "+abc"). */
static int semver(const char *s)
{
    for (int part = 0; part < 3; part++) {
        if (!s || *s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
        if (part < 2 && *s++ != '.')
            return 0;
    }
    return *s == '\0' || ((*s == '-' || *s == '+') && one_line(s + 1, 64));
}

/* The part of path after the last '/'. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');

    return slash ? slash + 1 : path;
}

/* Checks the entry fields; 1 when init() may be called. */
static int check_entry(int fd, const char *path, const bhost_entry *en)
{
    char want[96];

    if (en->abi_major != BHOST_ABI_MAJOR) {
        bh_check_report(fd, "entry.abi_major", "FAIL",
                        "abi_major is %u, this host speaks %d (rebuild "
                        "against bhost/plugin.h %d.x)",
                        en->abi_major, BHOST_ABI_MAJOR, BHOST_ABI_MAJOR);
        return 0;
    }
    bh_check_report(fd, "entry.abi_major", "PASS", "%u", en->abi_major);
    if (en->struct_size < BHOST_ENTRY_SIZE_1_0) {
        bh_check_report(fd, "entry.struct_size", "FAIL",
                        "%u bytes, smaller than the ABI 1.0 size %zu",
                        en->struct_size, (size_t)BHOST_ENTRY_SIZE_1_0);
        return 0;
    }
    if (en->struct_size > BHOST_ENTRY_SIZE_1_0 && en->abi_minor == 0)
        bh_check_report(fd, "entry.struct_size", "WARN",
                        "%u bytes, larger than the 1.0 size %zu, yet "
                        "abi_minor is 0",
                        en->struct_size, (size_t)BHOST_ENTRY_SIZE_1_0);
    else
        bh_check_report(fd, "entry.struct_size", "PASS",
                        "%u bytes (ABI 1.0 minimum %zu)", en->struct_size,
                        (size_t)BHOST_ENTRY_SIZE_1_0);
    bh_check_report(fd, "entry.abi_minor", "PASS", "1.%u%s", en->abi_minor,
                    en->abi_minor > BHOST_ABI_MINOR
                        ? " (newer than this host: appended fields are "
                          "ignored)"
                        : "");
    bh_check_report(fd, "entry.flags", en->flags == 0 ? "PASS" : "FAIL",
                    "%u (reserved, must be 0)", en->flags);
    if (reverse_dns(en->plugin_id))
        bh_check_report(fd, "entry.plugin_id", "PASS", "%s", en->plugin_id);
    else
        bh_check_report(fd, "entry.plugin_id", "FAIL",
                        "'%.80s' is not reverse DNS (expected at least three "
                        "labels of [a-z0-9_-], e.g. com.example.mybench)",
                        en->plugin_id ? en->plugin_id : "(null)");
    if (one_line(en->name, 64) && charset(en->name, "_.-")) {
        bh_check_report(fd, "entry.name", "PASS", "%s", en->name);
        snprintf(want, sizeof(want), "%s.so", en->name);
        if (strcmp(base_name(path), want) == 0)
            bh_check_report(fd, "entry.file_name", "PASS", "%s", want);
        else
            bh_check_report(fd, "entry.file_name", "WARN",
                            "file is %s, name is '%s': configs find it by "
                            "name only if the file is %s",
                            base_name(path), en->name, want);
    } else {
        bh_check_report(fd, "entry.name", "FAIL",
                        "'%.80s' is not a plugin name (expected "
                        "[a-z0-9_.-]+, at most 64 bytes)",
                        en->name ? en->name : "(null)");
    }
    if (semver(en->plugin_version))
        bh_check_report(fd, "entry.plugin_version", "PASS", "%s",
                        en->plugin_version);
    else
        bh_check_report(fd, "entry.plugin_version", "FAIL",
                        "'%.80s' is not MAJOR.MINOR.PATCH",
                        en->plugin_version ? en->plugin_version : "(null)");
    if (one_line(en->summary, 200))
        bh_check_report(fd, "entry.summary", "PASS", "%s", en->summary);
    else
        bh_check_report(fd, "entry.summary", "WARN",
                        "missing, multi-line or longer than 200 bytes");
    if (!en->init || !en->get_interface) {
        bh_check_report(fd, "entry.functions", "FAIL",
                        "init or get_interface is NULL");
        return 0;
    }
    if (!en->deinit)
        bh_check_report(fd, "entry.functions", "WARN",
                        "deinit is NULL (init and get_interface are set)");
    else
        bh_check_report(fd, "entry.functions", "PASS",
                        "init, deinit, get_interface set");
    return en->plugin_id && en->name && en->plugin_version;
}

/* Asks get_interface for ids no plugin may claim; both must be NULL. */
static void check_unknown_ids(int fd, const bhost_entry *en)
{
    static const char *const ids[] = {
        "org.bhost.check.no-such-interface/1",
        "bhost.benchmarks/999",
        "bhost.backend/999",
    };

    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        bh_check_stage(fd, "get_interface(unknown id)");
        if (en->get_interface(ids[i]) != NULL) {
            bh_check_report(fd, "interfaces.unknown", "FAIL",
                            "get_interface(\"%s\") returned a table; "
                            "unknown ids and revisions must give NULL",
                            ids[i]);
            return;
        }
    }
    bh_check_report(fd, "interfaces.unknown", "PASS",
                    "unknown ids and revisions give NULL");
}

/* Checks the interfaces; fills plan and *is_backend. */
static void check_interfaces(int fd, const char *path, const bhost_entry *en,
                             cJSON *plan, int *is_backend)
{
    const bhost_bench_factory *f;
    const bhost_backend *be;

    bh_check_stage(fd, "get_interface(\"" BHOST_IFACE_BENCHMARKS "\")");
    f = en->get_interface(BHOST_IFACE_BENCHMARKS);
    bh_check_stage(fd, "get_interface(\"" BHOST_IFACE_BACKEND "\")");
    be = en->get_interface(BHOST_IFACE_BACKEND);
    if (!f && !be) {
        bh_check_report(fd, "interfaces", "FAIL",
                        "provides neither %s nor %s", BHOST_IFACE_BENCHMARKS,
                        BHOST_IFACE_BACKEND);
        return;
    }
    bh_check_report(fd, "interfaces", "PASS", "%s%s%s",
                    f ? BHOST_IFACE_BENCHMARKS : "", f && be ? ", " : "",
                    be ? BHOST_IFACE_BACKEND : "");
    check_unknown_ids(fd, en);
    if (f)
        bh_check_benchmarks(fd, f, plan);
    if (be)
        *is_backend = bh_check_backend_table(fd, be, path);
}

/* The "static" part: load step by step, check, call init, inspect. */
static int static_part(const char *path, int fd)
{
    void *lib;
    const bhost_entry *en;
    bhost_status st;
    cJSON *plan = cJSON_CreateObject();
    cJSON *benches = cJSON_AddArrayToObject(plan, "benchmarks");
    int is_backend = 0;

    bh_check_stage(fd, "dlopen");
    lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        bh_check_report(fd, "load", "FAIL", "dlopen(RTLD_NOW | RTLD_LOCAL) "
                                            "failed: %s", dlerror());
        goto done;
    }
    bh_check_report(fd, "load", "PASS", "dlopen(RTLD_NOW | RTLD_LOCAL) "
                                        "resolved every symbol");
    en = dlsym(lib, BHOST_ENTRY_SYMBOL);
    if (!en) {
        bh_check_report(fd, "entry.symbol", "FAIL",
                        "no %s (not a bhost %d.x plugin)", BHOST_ENTRY_SYMBOL,
                        BHOST_ABI_MAJOR);
        goto done;
    }
    bh_check_report(fd, "entry.symbol", "PASS", "%s found",
                    BHOST_ENTRY_SYMBOL);
    bh_check_stage(fd, "reading the entry's fields");
    if (!check_entry(fd, path, en))
        goto done;
    bh_host_api_clear_error();
    bh_check_stage(fd, "init");
    st = en->init(bh_host_api_get());
    if (st != BHOST_OK) {
        bh_check_report(fd, "init", "FAIL", "returned %d: %s", st,
                        bh_check_last_error());
        goto done;
    }
    bh_check_report(fd, "init", "PASS", "returned BHOST_OK");
    check_interfaces(fd, path, en, benches, &is_backend);
done:
    cJSON_AddStringToObject(plan, "t", "check_plan");
    cJSON_AddBoolToObject(plan, "backend", is_backend);
    bh_ipc_send(fd, plan, NULL);
    cJSON_Delete(plan);
    return 0;
}

int bh_check_plugin_job(const cJSON *job, int fd)
{
    const char *part = bh_json_str(job, "part", "");
    const char *path = bh_json_str(job, "plugin", NULL);
    cJSON *done;
    int rc;

    if (!path) {
        bh_check_report(fd, "job", "FAIL", "check job without plugin");
        return 2;
    }
    if (strcmp(part, "static") == 0) {
        rc = static_part(path, fd);
    } else if (strcmp(part, "cycle") == 0) {
        rc = bh_check_cycle(job, fd);
    } else if (strcmp(part, "backend") == 0) {
        rc = bh_check_backend(job, fd);
    } else {
        bh_check_report(fd, "job", "FAIL",
                        "unknown check part '%s' (expected static, cycle or "
                        "backend)", part);
        return 2;
    }
    done = cJSON_CreateObject();
    cJSON_AddStringToObject(done, "t", "check_done");
    bh_ipc_send(fd, done, NULL);
    cJSON_Delete(done);
    return rc;
}
