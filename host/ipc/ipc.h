// SPDX-License-Identifier: MIT
/* The worker pipe protocol.
 *
 * The supervisor writes one job (a JSON object) into the worker's job pipe
 * and closes it. The worker answers on its result pipe with messages, one
 * JSON object per line, each with a string member "t" naming its type:
 *   hello    {pid}
 *   timer    {resolution_ns, overhead_ns}
 *   calib    {iters, sample_ns}
 *   sample   {iters, ns}
 *   log      {kind, level, msg}  (plugin text, capped: host_api.h)
 *   stage    {stage}  the plugin call the worker is about to make (load,
 *            describe, create, setup, run, verify, destroy, exit)
 *   result   {status, message, metrics[], flops/bytes/items_per_iter, ...}
 *   describe {...plugin description...}
 *   error    {kind, message}
 * The supervisor decodes the stream only after the worker exits, so a
 * worker that dies mid-line leaves a detectably truncated stream. */
#ifndef BH_IPC_H
#define BH_IPC_H

#include "bh_error.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* Upper bounds that keep a misbehaving worker from exhausting the host. */
#define BH_IPC_MAX_STREAM (64u << 20) /* bytes per worker stream */
#define BH_IPC_MAX_LINE (8u << 20)    /* bytes per message */
#define BH_IPC_MAX_MSGS 1000000u      /* messages per stream */

/* Fd numbers a worker finds its pipes on. */
#define BH_IPC_JOB_FD 3
#define BH_IPC_RESULT_FD 4

/* The worker's exit status when its result pipe was closed or replaced
 * during the job (by plugin code: the result could not reach the
 * supervisor), or when the supervisor was gone before the job started. */
#define BH_IPC_EXIT_PIPE_LOST 98

/* Writes msg as one line to fd (retrying on EINTR and short writes).
 * msg stays owned by the caller. 0 or -1 with e set. [any-thread] */
int bh_ipc_send(int fd, const cJSON *msg, bh_error *e);

/* Decodes a whole stream of n bytes into a new cJSON array of message
 * objects (caller deletes). Every line must be a JSON object with a
 * string "t"; an unterminated last line is an error ("truncated"), as are
 * oversize lines, too many messages and non-JSON bytes. Returns NULL with
 * e set, naming the 1-based line. */
cJSON *bh_ipc_decode(const char *buf, size_t n, bh_error *e);

/* The "t" of a decoded message, or "" when absent. */
const char *bh_ipc_type(const cJSON *msg);

/* Typed member readers for decoded messages: fall back to dflt when the
 * member is missing or has another type. */
double bh_json_num(const cJSON *obj, const char *key, double dflt);
const char *bh_json_str(const cJSON *obj, const char *key, const char *dflt);

#endif
