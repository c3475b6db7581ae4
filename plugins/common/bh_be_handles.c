// SPDX-License-Identifier: MIT
/*
 * bh_be_handles.c -- checks of the device, buffer, stream and event
 * handles a host passes back to a backend, with the messages every
 * backend gives.
 */
#include <bhost/backend_helper.h>

#include <inttypes.h>
#include <string.h>

/* The magic of a handle of any kind: its first field. */
static uint32_t magic_of(const void *handle)
{
    uint32_t magic;

    memcpy(&magic, handle, sizeof(magic));
    return magic;
}

bhost_host *bh_be_host_of(const bhost_dev *dev)
{
    bh_be_dev_head head;

    memcpy(&head, dev, sizeof(head));
    return head.h;
}

/* 1 when obj (a stream or event handle, may be NULL) has magic and
 * belongs to dev. */
static int owned(const void *obj, uint32_t magic, const bhost_dev *dev)
{
    bh_be_obj_head head;

    if (obj == NULL || magic_of(obj) != magic)
        return 0;
    memcpy(&head, obj, sizeof(head));
    return head.dev == dev;
}

bhost_status bh_be_check_dev(const bh_be *be, const bhost_dev *dev,
                             const char *op)
{
    if (dev == NULL || magic_of(dev) != be->dev_magic)
        return bh_be_fail(be, NULL, BHOST_E_INVALID, "%s: %s device handle",
                          op, dev == NULL ? "NULL" : "invalid");
    return BHOST_OK;
}

bhost_status bh_be_check_stream(const bh_be *be, const bhost_dev *dev,
                                const bhost_stream *s, const char *op)
{
    if (s != NULL && !owned(s, be->stream_magic, dev))
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "%s: stream is not a stream of this device", op);
    return BHOST_OK;
}

bhost_stream *bh_be_stream_of(const bh_be *be, const bhost_dev *dev,
                              bhost_stream *def, bhost_stream *s,
                              const char *op)
{
    if (s == NULL)
        return def;
    return bh_be_check_stream(be, dev, s, op) == BHOST_OK ? s : NULL;
}

bhost_status bh_be_check_range(const bh_be *be, const bhost_dev *dev,
                               const bhost_buf *buf, uint64_t off,
                               uint64_t n, const char *op, const char *what)
{
    bh_be_buf_head head;

    if (buf == NULL || magic_of(buf) != be->buf_magic)
        goto foreign;
    memcpy(&head, buf, sizeof(head));
    if (head.dev != dev)
        goto foreign;
    if (off > head.size || n > head.size - off)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "%s: %s range [%" PRIu64 ", +%" PRIu64
                          ") exceeds buffer size %" PRIu64,
                          op, what, off, n, head.size);
    return BHOST_OK;
foreign:
    return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                      "%s: %s is not a live buffer of this device", op, what);
}

bhost_status bh_be_check_event(const bh_be *be, const bhost_dev *dev,
                               const bhost_event *e, const char *op,
                               const char *what)
{
    if (!owned(e, be->event_magic, dev))
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "%s: %s is not an event of this device", op, what);
    return BHOST_OK;
}

bhost_status bh_be_call(const bh_be *be, const bhost_dev *dev,
                        bhost_stream *def, bhost_stream *s, const void *args,
                        const char *op, bhost_stream **t)
{
    *t = bh_be_stream_of(be, dev, def, s, op);
    if (*t == NULL)
        return BHOST_E_INVALID;
    if (args == NULL)
        return bh_be_fail(be, bh_be_host_of(dev), BHOST_E_INVALID,
                          "%s: NULL args", op);
    return BHOST_OK;
}
