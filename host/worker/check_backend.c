// SPDX-License-Identifier: MIT
/* Backend checks: the table (static part) and the calls on one device
 * (the "backend" part): device queries, open, memory, copies with a
 * verified round trip, bounds, map, streams, events, kernels, close. */
#include "check_plugin.h"

#include "host_api.h"
#include "ipc.h"
#include "loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_BYTES 65536u

int bh_check_backend_table(int fd, const bhost_backend *be, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *file = slash ? slash + 1 : path;
    char want[96];
    int id_ok;
    int fns;

    if (be->struct_size < BHOST_BACKEND_SIZE_1_0) {
        bh_check_report(fd, "backend.table", "FAIL",
                        "struct_size %u, smaller than the ABI 1.0 size %zu",
                        be->struct_size, (size_t)BHOST_BACKEND_SIZE_1_0);
        return 0;
    }
    id_ok = be->id && *be->id && strlen(be->id) <= 64 &&
            strspn(be->id, "abcdefghijklmnopqrstuvwxyz0123456789_-") ==
                strlen(be->id);
    fns = be->device_count && be->device_info && be->open && be->close &&
          be->alloc && be->free && be->map && be->copy_h2d && be->copy_d2h &&
          be->copy_d2d && be->stream_create && be->stream_destroy &&
          be->stream_sync && be->device_sync && be->event_create &&
          be->event_destroy && be->event_record && be->event_elapsed_ns &&
          be->get_kernel;
    if (!id_ok || !fns || be->reserved != 0) {
        bh_check_report(fd, "backend.table", "FAIL",
                        "%s%s%s", id_ok ? "" : "id missing or not [a-z0-9_-]+; ",
                        fns ? "" : "a function pointer is NULL (all 19 are "
                                   "required); ",
                        be->reserved ? "reserved is not 0" : "");
        return 0;
    }
    bh_check_report(fd, "backend.table", "PASS", "id '%s', %u bytes, every "
                                                 "function set",
                    be->id, be->struct_size);
    snprintf(want, sizeof(want), "backend-%s.so", be->id);
    if (strcmp(file, want) == 0)
        bh_check_report(fd, "backend.file_name", "PASS", "%s", want);
    else
        bh_check_report(fd, "backend.file_name", "FAIL",
                        "file is %s; a backend with id '%s' must be %s "
                        "(configs resolve backends: %s: to that file)",
                        file, be->id, want, be->id);
    return 1;
}

/* State of the device walk. */
typedef struct walk {
    int fd;
    const bhost_backend *be;
    bhost_dev *dev;
    bhost_buf *a;
    bhost_buf *b;
    unsigned char *pattern;
    unsigned char *back;
} walk;

/* Reports FAIL for check id when st is not OK; returns st == OK. */
static int ok(walk *w, const char *id, const char *what, bhost_status st)
{
    if (st == BHOST_OK)
        return 1;
    bh_check_report(w->fd, id, "FAIL", "%s returned %d: %s", what, st,
                    bh_check_last_error());
    return 0;
}

/* device_info with the full struct, a smaller struct and a bad index. */
static int check_info(walk *w, uint32_t count, bhost_caps *caps)
{
    bhost_device_info info;
    union {
        bhost_device_info info; /* for its alignment */
        unsigned char bytes[sizeof(bhost_device_info)];
    } small_buf;
    unsigned char *small = small_buf.bytes;
    size_t small_size = offsetof(bhost_device_info, vendor);
    bhost_status st;

    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    bh_check_stage(w->fd, "device_info(0)");
    if (!ok(w, "backend.device_info", "device_info(0)",
            w->be->device_info(0, &info)))
        return 0;
    *caps = info.caps;
    if (!memchr(info.name, '\0', sizeof(info.name)) || !info.name[0] ||
        !memchr(info.vendor, '\0', sizeof(info.vendor)))
        bh_check_report(w->fd, "backend.device_info", "FAIL",
                        "name empty, or name/vendor not NUL-terminated in "
                        "their arrays");
    else if ((info.caps & ~BHOST_CAPS_KNOWN) & UINT64_C(0xFFFFFFFF))
        bh_check_report(w->fd, "backend.device_info", "WARN",
                        "caps 0x%llx has bits bhost does not define",
                        (unsigned long long)info.caps);
    else if (!(info.timer_resolution_ns > 0))
        bh_check_report(w->fd, "backend.device_info", "WARN",
                        "'%s': timer_resolution_ns is not positive",
                        info.name);
    else
        bh_check_report(w->fd, "backend.device_info", "PASS",
                        "'%s' [%s], caps 0x%llx, timer resolution %g ns",
                        info.name, info.vendor, (unsigned long long)info.caps,
                        info.timer_resolution_ns);
    memset(small, 0xA5, sizeof(small_buf.bytes));
    small_buf.info.struct_size = (uint32_t)small_size;
    bh_check_stage(w->fd, "device_info(0) with a smaller struct");
    st = w->be->device_info(0, &small_buf.info);
    for (size_t i = small_size; st == BHOST_OK && i < sizeof(small_buf.bytes);
         i++) {
        if (small[i] != 0xA5) {
            bh_check_report(w->fd, "backend.device_info.struct_size", "FAIL",
                            "with struct_size %zu it wrote byte %zu: the "
                            "callee must write only fields that fit",
                            small_size, i);
            return 1;
        }
    }
    bh_check_report(w->fd, "backend.device_info.struct_size", "PASS",
                    st == BHOST_OK ? "wrote only the %zu bytes the caller "
                                     "declared"
                                   : "refused a %zu-byte struct",
                    small_size);
    memset(&info, 0, sizeof(info));
    info.struct_size = sizeof(info);
    bh_check_stage(w->fd, "device_info(count)");
    st = w->be->device_info(count, &info);
    bh_check_report(w->fd, "backend.device_info.range",
                    st != BHOST_OK ? "PASS" : "WARN",
                    st != BHOST_OK ? "device_info(%u) past the end refused"
                                   : "device_info(%u) past the end returned "
                                     "BHOST_OK",
                    count);
    return 1;
}

/* h2d then d2h of BUF_BYTES with a pattern, compared byte for byte. */
static void check_round_trip(walk *w)
{
    const char *id = "backend.copy_h2d_d2h";

    memset(w->back, 0, BUF_BYTES);
    bh_check_stage(w->fd, "copy_h2d");
    if (!ok(w, id, "copy_h2d",
            w->be->copy_h2d(w->dev, NULL, w->a, 0, w->pattern, BUF_BYTES)))
        return;
    bh_check_stage(w->fd, "copy_d2h");
    if (!ok(w, id, "copy_d2h",
            w->be->copy_d2h(w->dev, NULL, w->back, w->a, 0, BUF_BYTES)) ||
        !ok(w, id, "stream_sync(NULL)", w->be->stream_sync(w->dev, NULL)))
        return;
    if (memcmp(w->back, w->pattern, BUF_BYTES) != 0)
        bh_check_report(w->fd, id, "FAIL",
                        "bytes read back differ from the %u bytes written",
                        BUF_BYTES);
    else
        bh_check_report(w->fd, id, "PASS", "%u bytes round-tripped intact",
                        BUF_BYTES);
}

/* d2d of half a buffer into the middle of another, read back. */
static void check_d2d(walk *w)
{
    const char *id = "backend.copy_d2d";
    uint64_t half = BUF_BYTES / 2;

    bh_check_stage(w->fd, "copy_d2d");
    if (!ok(w, id, "copy_d2d",
            w->be->copy_d2d(w->dev, NULL, w->b, 4096, w->a, 64, half)))
        return;
    memset(w->back, 0, BUF_BYTES);
    bh_check_stage(w->fd, "copy_d2h after copy_d2d");
    if (!ok(w, id, "copy_d2h",
            w->be->copy_d2h(w->dev, NULL, w->back, w->b, 4096, half)) ||
        !ok(w, id, "stream_sync(NULL)", w->be->stream_sync(w->dev, NULL)))
        return;
    if (memcmp(w->back, w->pattern + 64, half) != 0)
        bh_check_report(w->fd, id, "FAIL",
                        "d2d of %llu bytes (src_off 64, dst_off 4096) read "
                        "back different bytes",
                        (unsigned long long)half);
    else
        bh_check_report(w->fd, id, "PASS", "%llu bytes at offsets intact",
                        (unsigned long long)half);
}

/* Copies reaching past a buffer's end must be BHOST_E_INVALID. */
static void check_bounds(walk *w)
{
    bhost_status st[3];

    bh_host_api_clear_error();
    bh_check_stage(w->fd, "copy_h2d past the end");
    st[0] = w->be->copy_h2d(w->dev, NULL, w->a, BUF_BYTES - 8, w->pattern, 16);
    bh_check_stage(w->fd, "copy_d2h past the end");
    st[1] = w->be->copy_d2h(w->dev, NULL, w->back, w->a, BUF_BYTES, 1);
    bh_check_stage(w->fd, "copy_d2d past the end");
    st[2] = w->be->copy_d2d(w->dev, NULL, w->b, 0, w->a, 8, BUF_BYTES);
    w->be->stream_sync(w->dev, NULL);
    if (st[0] == BHOST_OK || st[1] == BHOST_OK || st[2] == BHOST_OK)
        bh_check_report(w->fd, "backend.copy_bounds", "FAIL",
                        "a copy past a buffer's end returned BHOST_OK "
                        "(h2d %d, d2h %d, d2d %d)",
                        st[0], st[1], st[2]);
    else if (st[0] != BHOST_E_INVALID || st[1] != BHOST_E_INVALID ||
             st[2] != BHOST_E_INVALID)
        bh_check_report(w->fd, "backend.copy_bounds", "WARN",
                        "refused, but not with BHOST_E_INVALID (h2d %d, d2h "
                        "%d, d2d %d)",
                        st[0], st[1], st[2]);
    else
        bh_check_report(w->fd, "backend.copy_bounds", "PASS",
                        "h2d, d2h and d2d past the end: BHOST_E_INVALID");
}

/* A HOST_VISIBLE buffer: map, write through the pointer, read back. */
static void check_map(walk *w)
{
    const char *id = "backend.map";
    bhost_buf *buf = NULL;
    unsigned char *p;
    bhost_status st;

    bh_host_api_clear_error();
    bh_check_stage(w->fd, "alloc(HOST_VISIBLE)");
    st = w->be->alloc(w->dev, 4096, BHOST_MEM_HOST_VISIBLE, &buf);
    if (st == BHOST_E_UNSUPPORTED) {
        bh_check_report(w->fd, id, "WARN", "HOST_VISIBLE memory unsupported: "
                                           "%s", bh_check_last_error());
        return;
    }
    if (!ok(w, id, "alloc(4096, HOST_VISIBLE)", st))
        return;
    bh_check_stage(w->fd, "map");
    p = w->be->map(w->dev, buf);
    if (!p) {
        bh_check_report(w->fd, id, "FAIL",
                        "map() of a HOST_VISIBLE buffer returned NULL");
    } else {
        memcpy(p, w->pattern, 4096);
        memset(w->back, 0, 4096);
        bh_check_stage(w->fd, "copy_d2h of a mapped buffer");
        if (ok(w, id, "copy_d2h",
               w->be->copy_d2h(w->dev, NULL, w->back, buf, 0, 4096)) &&
            ok(w, id, "stream_sync(NULL)", w->be->stream_sync(w->dev, NULL)))
            bh_check_report(w->fd, id,
                            memcmp(w->back, w->pattern, 4096) ? "FAIL"
                                                              : "PASS",
                            "writes through map() %s by copy_d2h",
                            memcmp(w->back, w->pattern, 4096) ? "not seen"
                                                              : "seen");
    }
    bh_check_stage(w->fd, "free(HOST_VISIBLE)");
    w->be->free(w->dev, buf);
}

/* A created stream: a copy on it, stream_sync, device_sync, destroy; and
 * a pair of events around a copy with elapsed time read back. */
static void check_stream_events(walk *w)
{
    bhost_stream *s = NULL;
    bhost_event *e0 = NULL, *e1 = NULL;
    uint64_t ns = 0;

    bh_check_stage(w->fd, "stream_create");
    if (!ok(w, "backend.stream", "stream_create",
            w->be->stream_create(w->dev, &s)))
        return;
    bh_check_stage(w->fd, "copy_h2d on a stream");
    if (ok(w, "backend.stream", "copy_h2d on the stream",
           w->be->copy_h2d(w->dev, s, w->a, 0, w->pattern, BUF_BYTES)) &&
        ok(w, "backend.stream", "stream_sync", w->be->stream_sync(w->dev, s)) &&
        ok(w, "backend.stream", "device_sync", w->be->device_sync(w->dev)))
        bh_check_report(w->fd, "backend.stream", "PASS",
                        "create, copy, stream_sync, device_sync");
    bh_check_stage(w->fd, "event_create");
    if (ok(w, "backend.events", "event_create",
           w->be->event_create(w->dev, &e0)) &&
        ok(w, "backend.events", "event_create",
           w->be->event_create(w->dev, &e1)) &&
        ok(w, "backend.events", "event_record",
           w->be->event_record(w->dev, s, e0)) &&
        ok(w, "backend.events", "copy_d2d between events",
           w->be->copy_d2d(w->dev, s, w->b, 0, w->a, 0, BUF_BYTES)) &&
        ok(w, "backend.events", "event_record",
           w->be->event_record(w->dev, s, e1)) &&
        ok(w, "backend.events", "stream_sync", w->be->stream_sync(w->dev, s)) &&
        ok(w, "backend.events", "event_elapsed_ns",
           w->be->event_elapsed_ns(w->dev, e0, e1, &ns)))
        bh_check_report(w->fd, "backend.events",
                        ns < UINT64_C(60000000000) ? "PASS" : "WARN",
                        "elapsed %llu ns around a %u-byte copy",
                        (unsigned long long)ns, BUF_BYTES);
    bh_check_stage(w->fd, "event_destroy, stream_destroy");
    if (e0)
        w->be->event_destroy(w->dev, e0);
    if (e1)
        w->be->event_destroy(w->dev, e1);
    w->be->stream_destroy(w->dev, s);
}

/* Opens device index and walks every call; closes it again. */
static void walk_device(walk *w, uint32_t index, bhost_caps caps)
{
    bh_check_stage(w->fd, "open");
    if (!ok(w, "backend.open", "open", w->be->open(index, bh_host_context(),
                                                   &w->dev)))
        return;
    bh_check_report(w->fd, "backend.open", "PASS", "device %u opened", index);
    bh_check_stage(w->fd, "alloc");
    if (ok(w, "backend.alloc", "alloc(65536, DEVICE)",
           w->be->alloc(w->dev, BUF_BYTES, BHOST_MEM_DEVICE, &w->a)) &&
        ok(w, "backend.alloc", "alloc(65536, DEVICE)",
           w->be->alloc(w->dev, BUF_BYTES, BHOST_MEM_DEVICE, &w->b))) {
        bh_check_report(w->fd, "backend.alloc", "PASS",
                        "two %u-byte device buffers", BUF_BYTES);
        check_round_trip(w);
        check_d2d(w);
        check_bounds(w);
        check_map(w);
        check_stream_events(w);
        bh_check_kernels(w->fd, w->be, w->dev, caps);
    }
    bh_check_stage(w->fd, "free");
    if (w->a)
        w->be->free(w->dev, w->a);
    if (w->b)
        w->be->free(w->dev, w->b);
    bh_check_stage(w->fd, "close");
    w->be->close(w->dev);
    bh_check_report(w->fd, "backend.close", "PASS", "buffers freed, device "
                                                    "closed");
}

int bh_check_backend(const cJSON *job, int fd)
{
    walk w;
    bh_plugin p;
    bh_error e = {""};
    uint32_t index = (uint32_t)bh_json_num(job, "device", 0);
    uint32_t count = 0;
    bhost_caps caps = 0;

    memset(&w, 0, sizeof(w));
    w.fd = fd;
    bh_check_stage(fd, "load");
    if (bh_loader_open(bh_json_str(job, "plugin", ""), bh_host_api_get(), &p,
                       &e) != 0 || !p.backend) {
        bh_check_report(fd, "backend.load", "FAIL", "cannot load: %s",
                        e.msg[0] ? e.msg : "no backend interface");
        bh_plugin_release(&p);
        return 0;
    }
    w.be = p.backend;
    bh_host_api_clear_error();
    bh_check_stage(fd, "device_count");
    if (!ok(&w, "backend.device_count", "device_count",
            w.be->device_count(&count))) {
        bh_plugin_release(&p);
        return 0;
    }
    if (count <= index) {
        bh_check_report(fd, "backend.device_count", "WARN",
                        "%u device(s), so device %u is not checked: %s", count,
                        index, bh_check_last_error());
        bh_plugin_release(&p);
        return 0;
    }
    bh_check_report(fd, "backend.device_count", "PASS", "%u device(s)", count);
    w.pattern = malloc(BUF_BYTES);
    w.back = malloc(BUF_BYTES);
    if (!w.pattern || !w.back) {
        bh_check_report(fd, "backend.memory", "FAIL", "host out of memory");
    } else {
        for (uint32_t i = 0; i < BUF_BYTES; i++)
            w.pattern[i] = (unsigned char)((i * 2654435761u) >> 13);
        if (check_info(&w, count, &caps))
            walk_device(&w, index, caps);
    }
    free(w.pattern);
    free(w.back);
    bh_plugin_release(&p);
    return 0;
}
