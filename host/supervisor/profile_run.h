// SPDX-License-Identifier: MIT
/* Profiling a case (bhost run CONFIG --filter CASE --profile TOOL): its
 * worker runs under a profiler, the profile is written to a folder next
 * to the result, a flame graph SVG is drawn where the profile has call
 * stacks, and a record naming them goes into the case's "profile". What
 * each tool profiles:
 *
 *   callgrind  the timed samples only: the case runs as measure:
 *              instructions does (callgrind_run.h), collection switched
 *              on around each sample's run() call; it also gets its
 *              instruction counts. Flame graph from the calls= pairs.
 *   perf       perf record (its default event, cpu-clock where the VM
 *              has no hardware counters), started with events disabled
 *              (-D -1) and switched on through a control FIFO around the
 *              run stage (calibration, warm-up and samples). Flame graph
 *              from `perf script`.
 *   massif     the whole worker (massif has no start/stop requests); the
 *              worker takes a detailed snapshot at the start and at the
 *              end of the run stage (files .massif.begin/.massif.end).
 *              Flame graph of the peak snapshot's heap tree.
 *   heaptrack, nsys, rocprofv3
 *              the whole worker; no flame graph.
 *
 * docs/profiling.md. */
#ifndef BH_PROFILE_RUN_H
#define BH_PROFILE_RUN_H

#include "bh_error.h"
#include "plan.h"

#include <cjson/cJSON.h>

typedef enum bh_prof_tool {
    BH_PROF_NONE = 0,
    BH_PROF_PERF,
    BH_PROF_CALLGRIND,
    BH_PROF_MASSIF,
    BH_PROF_HEAPTRACK,
    BH_PROF_NSYS,
    BH_PROF_ROCPROF
} bh_prof_tool;

/* The accepted names, for messages. */
#define BH_PROF_TOOLS "perf, callgrind, massif, heaptrack, nsys, rocprofv3"

/* The tool called name ("rocprofv" is rocprofv3 too), or -1. Pure. */
int bh_prof_tool_parse(const char *name);

/* The tool's name as the result records it ("callgrind"). Pure. */
const char *bh_prof_tool_name(bh_prof_tool t);

/* What a profiled run asks for. */
typedef struct bh_prof_request {
    bh_prof_tool tool;
    char *dir;      /* where the profiles go (made when the first run starts) */
    char *rel_dir;  /* how the result names dir: relative to the result's folder */
    cJSON *records; /* case id -> its profile record, filled by the runs */
} bh_prof_request;

/* Checks that tool can run here. Returns 0; -1 with e = "--profile TOOL:
 * PROGRAM not found on PATH (what installs it)" when its program is not
 * on PATH. Looked up again before each run. [main] */
int bh_prof_check_tool(bh_prof_tool tool, bh_error *e);

/* Marks the runnable cases of plan unsupported, with the reason, when
 * the tool is a Valgrind tool (callgrind, massif) and this build cannot
 * run under Valgrind (an AddressSanitizer build). [main] */
void bh_prof_check_plan(const bh_prof_request *req, bh_plan *plan);

/* One profiled run. */
typedef struct bh_prof_run {
    const bh_prof_request *req; /* NULL: the run is not profiled */
    char *slug;                 /* the case id as a file name */
    char *out;                  /* the profile's path (heaptrack, nsys, rocprofv3: a
                                   prefix their outputs start with) */
    char *tmp;                  /* a private folder (perf's FIFOs, perf script's text) */
    char *ctl, *ack;            /* perf's control and acknowledgement FIFOs */
    int ack_fd;                 /* the host's read end of ack (-1: none), held open so
                                   that perf's open of it does not block */
    char *begin, *end;          /* massif: the snapshots at the run stage's ends */
    char *argv[17];             /* the wrapping command, NULL-terminated; empty for
                                   callgrind (callgrind_run.h wraps the worker) */
} bh_prof_run;

/* Prepares the profiled run of c when req asks for a profile (req NULL
 * or tool NONE: x->req NULL, nothing else happens): creates req->dir,
 * and for perf the private folder with its FIFOs; fills x->argv. Returns
 * 0, or -1 with e when a folder or FIFO cannot be made or the tool has
 * left PATH. Finish with bh_prof_end, also after a failure. [main] */
int bh_prof_begin(const bh_prof_request *req, const bh_case *c, bh_prof_run *x, bh_error *e);

/* The file callgrind's output is kept in (bh_cg_begin's keep), or NULL
 * when the run is not a callgrind profile. */
const char *bh_prof_callgrind_file(const bh_prof_run *x);

/* The wrapping command for bh_spawn_worker_wrapped, or NULL when this
 * profile does not wrap the worker itself. */
char *const *bh_prof_wrap(const bh_prof_run *x);

/* Adds what the worker needs to mark its run stage to the job ("profile",
 * and for perf "profile_ctl"/"profile_ack", for massif
 * "profile_begin"/"profile_end"). Nothing when x is not profiled. */
void bh_prof_add_job(const bh_prof_run *x, cJSON *job);

/* After the run r of case c ended: finds the profile; draws its flame
 * graph (callgrind, perf, massif) next to it as .svg; records {tool, path,
 * svg, region, ...} under c's id in req->records (paths relative to the
 * result's folder). A profiler that failed or wrote nothing makes an ok
 * run failed, "--profile TOOL: ..." with the tool's last line of output;
 * a run that failed without reaching the worker gets that prefix too. A
 * flame graph that cannot be drawn is recorded as svg null with
 * svg_error. Removes the private folder; frees x. [main] */
void bh_prof_end(bh_prof_run *x, const bh_case *c, bh_run *r);

#endif
