// SPDX-License-Identifier: MIT
#include "host_api.h"
#include "rank_ext.h"

#include "bh_clock.h"
#include "bh_mem.h"
#include "ipc.h"
#include "loader.h"
#include "rules.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct bhost_host context;
static int log_fd = -1;
static size_t log_sent;   /* bytes of log text forwarded (plus 16 each) */
static int log_truncated; /* some log() text was cut or dropped */
static int log_dropping;  /* the budget is spent: drop every message */
static char last_error[1024];
static uint64_t alloc_count;
static uint64_t alloc_bytes;
static uint64_t alloc_live;
static uint64_t alloc_live_blocks; /* blocks handed out and not freed */
static uint64_t alloc_peak;

/* Header stored just before every block alloc() hands out; the live
 * blocks form a list (under lock) so that what a plugin leaks can be
 * reclaimed once the run is reported (bh_host_api_reclaim). */
typedef struct block_header {
    void *raw;
    uint64_t size;
    struct block_header *prev, *next;
} block_header;

static block_header *live_head; /* the live blocks, newest first */

/* Sends one log message (under lock). Text past BH_HOST_LOG_MSG_MAX is
 * cut and marked; once BH_HOST_LOG_TOTAL_MAX bytes were forwarded, the
 * rest is dropped and one host line says so. */
static void forward(const char *kind, bhost_log_level level, const char *msg)
{
    cJSON *m;
    char *text;
    char *marked;
    size_t len;

    if (log_fd < 0)
        return;
    if (log_dropping)
        return;
    text = bh_rules_clean_text(msg, BH_HOST_LOG_MSG_MAX, 1, &len);
    if (log_sent + strlen(text) + 16 > BH_HOST_LOG_TOTAL_MAX) {
        free(text);
        text = bh_xasprintf("bhost: more than %u bytes of log() text in this "
                            "run; the rest is dropped",
                            BH_HOST_LOG_TOTAL_MAX);
        kind = "host";
        level = BHOST_LOG_WARN;
        log_truncated = 1;
        log_dropping = 1;
    } else if (len > BH_HOST_LOG_MSG_MAX) {
        marked = bh_xasprintf("%s [cut: %zu bytes in all]", text, len);
        free(text);
        text = marked;
        log_truncated = 1;
    }
    log_sent += strlen(text) + 16;
    m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "log");
    cJSON_AddStringToObject(m, "kind", kind);
    cJSON_AddNumberToObject(m, "level", level);
    cJSON_AddStringToObject(m, "msg", text);
    bh_ipc_send(log_fd, m, NULL);
    cJSON_Delete(m);
    free(text);
}

/* A host warning about a refused host-API call, in the run's log. */
static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...)
{
    char text[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    forward("host", BHOST_LOG_WARN, text);
}

static void BHOST_ABI api_log(bhost_host *h, bhost_log_level level,
                              const char *msg)
{
    pthread_mutex_lock(&lock);
    forward("log", level, msg);
    pthread_mutex_unlock(&lock);
}

static void BHOST_ABI api_set_error(bhost_host *h, const char *msg)
{
    char *clean = bh_rules_clean_text(msg, sizeof(last_error) - 1, 0, NULL);

    pthread_mutex_lock(&lock);
    snprintf(last_error, sizeof(last_error), "%s", clean);
    pthread_mutex_unlock(&lock);
    free(clean);
}

static void *BHOST_ABI api_alloc(bhost_host *h, uint64_t size, uint64_t align)
{
    char *raw;
    uintptr_t p;
    block_header *hdr;

    if (align == 0)
        align = 16;
    if ((align & (align - 1)) != 0 || align > (UINT64_C(1) << 30) ||
        size > (UINT64_C(1) << 50))
        return NULL;
    if (align < sizeof(block_header))
        align = sizeof(block_header) * 2;
    raw = malloc(size + align + sizeof(block_header));
    if (!raw)
        return NULL;
    p = ((uintptr_t)raw + sizeof(block_header) + align - 1) & ~(uintptr_t)(align - 1);
    hdr = (block_header *)p - 1;
    hdr->raw = raw;
    hdr->size = size;
    pthread_mutex_lock(&lock);
    alloc_count++;
    alloc_bytes += size;
    alloc_live += size;
    alloc_live_blocks++;
    if (alloc_live > alloc_peak)
        alloc_peak = alloc_live;
    hdr->prev = NULL;
    hdr->next = live_head;
    if (live_head)
        live_head->prev = hdr;
    live_head = hdr;
    pthread_mutex_unlock(&lock);
    return (void *)p;
}

static void BHOST_ABI api_free(bhost_host *h, void *p)
{
    block_header *hdr;

    if (!p)
        return;
    hdr = (block_header *)p - 1;
    pthread_mutex_lock(&lock);
    alloc_live -= hdr->size;
    alloc_live_blocks--;
    if (hdr->prev)
        hdr->prev->next = hdr->next;
    else
        live_head = hdr->next;
    if (hdr->next)
        hdr->next->prev = hdr->prev;
    pthread_mutex_unlock(&lock);
    free(hdr->raw);
}

static uint64_t BHOST_ABI api_now_ns(bhost_host *h)
{
    return bh_now_ns();
}

/* The typed parameter record for key, or NULL. */
static const cJSON *param(bhost_host *h, const char *key)
{
    if (!h || !key || !h->params)
        return NULL;
    return cJSON_GetObjectItemCaseSensitive(h->params, key);
}

static bhost_status BHOST_ABI api_param_i64(bhost_host *h, const char *key,
                                            int64_t *out)
{
    const cJSON *p = param(h, key);
    const char *type = bh_json_str(p, "type", "");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");

    if (!p || !out)
        return BHOST_E_INVALID;
    if (strcmp(type, "i64") == 0 && cJSON_IsString(v)) {
        *out = strtoll(v->valuestring, NULL, 10);
        return BHOST_OK;
    }
    if (strcmp(type, "bool") == 0 && cJSON_IsBool(v)) {
        *out = cJSON_IsTrue(v) ? 1 : 0;
        return BHOST_OK;
    }
    return BHOST_E_INVALID;
}

static bhost_status BHOST_ABI api_param_f64(bhost_host *h, const char *key,
                                            double *out)
{
    const cJSON *p = param(h, key);
    const char *type = bh_json_str(p, "type", "");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");

    if (!p || !out)
        return BHOST_E_INVALID;
    if (strcmp(type, "f64") == 0 && cJSON_IsNumber(v)) {
        *out = v->valuedouble;
        return BHOST_OK;
    }
    if (strcmp(type, "i64") == 0 && cJSON_IsString(v)) {
        *out = (double)strtoll(v->valuestring, NULL, 10);
        return BHOST_OK;
    }
    return BHOST_E_INVALID;
}

static bhost_status BHOST_ABI api_param_str(bhost_host *h, const char *key,
                                            char *buf, uint32_t cap,
                                            uint32_t *len)
{
    const cJSON *p = param(h, key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, "value");
    size_t n;

    if (!p || strcmp(bh_json_str(p, "type", ""), "str") != 0 ||
        !cJSON_IsString(v))
        return BHOST_E_INVALID;
    n = strlen(v->valuestring);
    if (len)
        *len = (uint32_t)n;
    if (buf && cap > 0) {
        size_t c = n < cap - 1 ? n : cap - 1;
        memcpy(buf, v->valuestring, c);
        buf[c] = '\0';
    }
    return BHOST_OK;
}

/* True for metric names of the form [a-z0-9_.]+ up to 64 bytes. */
static int valid_metric_name(const char *s)
{
    size_t n = 0;

    if (!s || !*s)
        return 0;
    for (; s[n]; n++)
        if (n >= 64 || !((s[n] >= 'a' && s[n] <= 'z') ||
                         (s[n] >= '0' && s[n] <= '9') || s[n] == '_' ||
                         s[n] == '.'))
            return 0;
    return 1;
}

/* True when unit is at most BH_HOST_UNIT_MAX bytes of UTF-8 without
 * control bytes (NULL is ""). */
static int valid_unit(const char *unit)
{
    size_t n = unit ? strnlen(unit, BH_HOST_UNIT_MAX + 1) : 0;
    char *clean;
    int same;

    if (n > BH_HOST_UNIT_MAX)
        return 0;
    clean = bh_rules_clean_text(unit, n, 0, NULL);
    same = strcmp(clean, unit ? unit : "") == 0;
    free(clean);
    return same;
}

/* The index of metric name in h->metrics, or -1. */
static int metric_index(const bhost_host *h, const char *name)
{
    int i = 0;
    const cJSON *m;

    cJSON_ArrayForEach(m, h->metrics) {
        if (strcmp(bh_json_str(m, "name", ""), name) == 0)
            return i;
        i++;
    }
    return -1;
}

/* The reason report_metric refuses its arguments (under lock), or NULL. */
static const char *metric_refusal(const bhost_host *h, const char *name,
                                  const char *unit, bhost_metric_kind kind,
                                  bhost_direction direction, double value,
                                  double limit)
{
    if (!valid_metric_name(name))
        return "the name is not [a-z0-9_.]+ of at most 64 bytes";
    if (kind != BHOST_METRIC_PERFORMANCE && kind != BHOST_METRIC_INFORMATIONAL &&
        kind != BHOST_METRIC_CORRECTNESS)
        return "the kind is not PERFORMANCE, INFORMATIONAL or CORRECTNESS";
    if (kind != BHOST_METRIC_INFORMATIONAL && direction != BHOST_LOWER_IS_BETTER &&
        direction != BHOST_HIGHER_IS_BETTER)
        return "the direction is neither LOWER nor HIGHER_IS_BETTER";
    if (kind == BHOST_METRIC_CORRECTNESS && direction != BHOST_LOWER_IS_BETTER)
        return "a CORRECTNESS metric is an error: its direction must be LOWER_IS_BETTER";
    if (kind == BHOST_METRIC_CORRECTNESS && !(isfinite(limit) && limit >= 0))
        return "a CORRECTNESS metric needs a finite limit >= 0";
    if (!isfinite(value))
        return "the value is not finite (NaN or infinity)";
    if (!valid_unit(unit))
        return "the unit is longer than 64 bytes, has control characters or "
               "is not UTF-8";
    if (cJSON_GetArraySize(h->metrics) >= BH_HOST_METRICS_MAX &&
        metric_index(h, name) < 0)
        return "the run already reported " BH_HOST_METRICS_MAX_TEXT
               " other metrics";
    return NULL;
}

/* Records a metric of any kind (report_metric and report_metric_kind):
 * {name, unit, direction, value} plus "kind" when not performance and
 * "limit" for correctness. */
static bhost_status record_metric(bhost_host *h, const char *name, const char *unit,
                                  bhost_metric_kind kind, bhost_direction direction,
                                  double value, double limit)
{
    static const char *const kinds[] = {"", "performance", "informational", "correctness"};
    cJSON *m;
    const char *why;
    char q[80];

    if (!h)
        return BHOST_E_INVALID;
    pthread_mutex_lock(&lock);
    if (!h->metrics)
        h->metrics = cJSON_CreateArray();
    why = metric_refusal(h, name, unit, kind, direction, value, limit);
    if (why) {
        char *clean = bh_rules_clean_text(name, 64, 0, NULL);

        snprintf(q, sizeof(q), "%s", clean);
        free(clean);
        warn("report_metric(\"%s\", %g) refused: %s", q, value, why);
        pthread_mutex_unlock(&lock);
        return BHOST_E_INVALID;
    }
    if (metric_index(h, name) >= 0)
        cJSON_DeleteItemFromArray(h->metrics, metric_index(h, name));
    m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "name", name);
    cJSON_AddStringToObject(m, "unit", unit ? unit : "");
    cJSON_AddStringToObject(m, "direction",
                            direction == BHOST_HIGHER_IS_BETTER ? "higher"
                                                                : "lower");
    cJSON_AddNumberToObject(m, "value", value);
    if (kind != BHOST_METRIC_PERFORMANCE)
        cJSON_AddStringToObject(m, "kind", kinds[kind]);
    if (kind == BHOST_METRIC_CORRECTNESS)
        cJSON_AddNumberToObject(m, "limit", limit);
    cJSON_AddItemToArray(h->metrics, m);
    pthread_mutex_unlock(&lock);
    return BHOST_OK;
}

static bhost_status BHOST_ABI api_report_metric(bhost_host *h,
                                                const char *name,
                                                const char *unit,
                                                bhost_direction direction,
                                                double value)
{
    return record_metric(h, name, unit, BHOST_METRIC_PERFORMANCE, direction, value, 0);
}

static bhost_status BHOST_ABI api_report_metric_kind(bhost_host *h, const char *name,
                                                     const char *unit, bhost_metric_kind kind,
                                                     bhost_direction direction, double value,
                                                     double limit)
{
    return record_metric(h, name, unit, kind, direction, value, limit);
}

static bhost_status BHOST_ABI api_set_iteration_time_ns(bhost_host *h,
                                                        uint64_t ns)
{
    if (!h)
        return BHOST_E_INVALID;
    h->manual_time_ns = ns;
    h->manual_time_set = 1;
    return BHOST_OK;
}

static uint64_t BHOST_ABI api_seed(bhost_host *h)
{
    return context.seed;
}

static const void *BHOST_ABI api_get_extension(bhost_host *h, const char *id)
{
    if (id && strcmp(id, BHOST_HOST_EXT_RANKS) == 0)
        return bh_rank_ext();
    return NULL;
}

static const bhost_host_api table = {
    sizeof(bhost_host_api),
    BHOST_ABI_MINOR,
    "0.1.0",
    api_log,
    api_set_error,
    api_alloc,
    api_free,
    api_now_ns,
    api_param_i64,
    api_param_f64,
    api_param_str,
    api_report_metric,
    api_set_iteration_time_ns,
    api_seed,
    api_get_extension,
    api_report_metric_kind,
};

const bhost_host_api *bh_host_api_get(void)
{
    return &table;
}

bhost_host *bh_host_context(void)
{
    return &context;
}

void bh_host_api_set_log_fd(int fd)
{
    log_fd = fd;
}

int bh_host_api_log_truncated(void)
{
    int t;

    pthread_mutex_lock(&lock);
    t = log_truncated;
    pthread_mutex_unlock(&lock);
    return t;
}

void bh_host_api_stage(const char *stage)
{
    cJSON *m;

    if (log_fd < 0)
        return;
    m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "t", "stage");
    cJSON_AddStringToObject(m, "stage", stage);
    pthread_mutex_lock(&lock);
    bh_ipc_send(log_fd, m, NULL);
    pthread_mutex_unlock(&lock);
    cJSON_Delete(m);
}

const char *bh_host_api_last_error(void)
{
    return last_error;
}

void bh_host_api_clear_error(void)
{
    pthread_mutex_lock(&lock);
    last_error[0] = '\0';
    pthread_mutex_unlock(&lock);
}

void bh_host_api_alloc_stats(uint64_t *count, uint64_t *bytes, uint64_t *peak)
{
    pthread_mutex_lock(&lock);
    *count = alloc_count;
    *bytes = alloc_bytes;
    *peak = alloc_peak;
    pthread_mutex_unlock(&lock);
}

void bh_host_api_alloc_live(uint64_t *bytes, uint64_t *blocks)
{
    pthread_mutex_lock(&lock);
    *bytes = alloc_live;
    *blocks = alloc_live_blocks;
    pthread_mutex_unlock(&lock);
}

void bh_host_api_reclaim(void)
{
    pthread_mutex_lock(&lock);
    while (live_head) {
        block_header *h = live_head;

        live_head = h->next;
        alloc_live -= h->size;
        alloc_live_blocks--;
        free(h->raw);
    }
    pthread_mutex_unlock(&lock);
}

const char *bh_loader_last_plugin_error(void)
{
    return last_error;
}
