// SPDX-License-Identifier: MIT
#include "ipc.h"

#include "bh_json_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes all n bytes; 0 or -1 with errno set. */
static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);

        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int bh_ipc_send(int fd, const cJSON *msg, bh_error *e)
{
    char *text = bh_json_print_unformatted(msg);
    size_t len;
    int rc;

    if (!text)
        return bh_error_set(e, "cannot encode message");
    len = strlen(text);
    text[len] = '\n'; /* replace the NUL: one line per message */
    rc = write_all(fd, text, len + 1);
    free(text);
    if (rc != 0)
        return bh_error_set(e, "cannot write to pipe: %s", strerror(errno));
    return 0;
}

cJSON *bh_ipc_decode(const char *buf, size_t n, bh_error *e)
{
    cJSON *arr;
    size_t line = 0;
    size_t pos = 0;

    if (n > BH_IPC_MAX_STREAM)
        return bh_error_set(e, "worker stream of %zu bytes exceeds %u", n,
                            BH_IPC_MAX_STREAM),
               NULL;
    arr = cJSON_CreateArray();
    while (pos < n) {
        const char *start = buf + pos;
        const char *nl = memchr(start, '\n', n - pos);
        size_t len;
        cJSON *msg;
        const char *end = NULL;

        line++;
        if (!nl) {
            bh_error_set(e, "line %zu: truncated message (no newline)", line);
            goto fail;
        }
        len = (size_t)(nl - start);
        pos += len + 1;
        if (len > BH_IPC_MAX_LINE || line > BH_IPC_MAX_MSGS) {
            bh_error_set(e, "line %zu: message too large or too many", line);
            goto fail;
        }
        if (memchr(start, '\0', len)) {
            bh_error_set(e, "line %zu: NUL byte in message", line);
            goto fail;
        }
        msg = cJSON_ParseWithLengthOpts(start, len, &end, 0);
        while (msg && end && end < start + len &&
               (*end == ' ' || *end == '\t' || *end == '\r'))
            end++;
        if (msg && end != start + len) {
            cJSON_Delete(msg);
            msg = NULL;
        }
        if (!msg || !cJSON_IsObject(msg) ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(msg, "t"))) {
            cJSON_Delete(msg);
            bh_error_set(e, "line %zu: not a protocol message", line);
            goto fail;
        }
        cJSON_AddItemToArray(arr, msg);
    }
    return arr;
fail:
    cJSON_Delete(arr);
    return NULL;
}

const char *bh_ipc_type(const cJSON *msg)
{
    return bh_json_str(msg, "t", "");
}

double bh_json_num(const cJSON *obj, const char *key, double dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsNumber(it) ? it->valuedouble : dflt;
}

const char *bh_json_str(const cJSON *obj, const char *key, const char *dflt)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsString(it) ? it->valuestring : dflt;
}
