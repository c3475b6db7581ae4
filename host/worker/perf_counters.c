// SPDX-License-Identifier: MIT
/* perf_event_open groups around the timed samples (perf_counters.h). */
#define _GNU_SOURCE
#include "perf_counters.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

static const char *const event_names[BH_PC_N] = {
    "cycles",        "instructions",     "branches",   "branch_misses",
    "l1d_reads",     "l1d_read_misses",  "llc_reads",  "llc_read_misses",
    "task_clock_ns", "context_switches", "page_faults"};

/* See perf_counters.h. */
const char *bh_pc_event_name(bh_pc_event ev)
{
    return ev >= 0 && ev < BH_PC_N ? event_names[ev] : "?";
}

/* See perf_counters.h. */
int bh_pc_event_group(bh_pc_event ev)
{
    if (ev <= BH_PC_BRANCH_MISSES)
        return 0;
    return ev <= BH_PC_LLC_READ_MISSES ? 1 : 2;
}

/* See perf_counters.h. */
int bh_pc_parse_group(const uint64_t *buf, size_t n_words, uint64_t *enabled, uint64_t *running,
                      uint64_t *values, size_t cap)
{
    uint64_t nr;

    if (n_words < 3)
        return -1;
    nr = buf[0];
    if (nr > cap || nr > n_words - 3)
        return -1;
    *enabled = buf[1];
    *running = buf[2];
    for (uint64_t i = 0; i < nr; i++)
        values[i] = buf[3 + i];
    return (int)nr;
}

/* See perf_counters.h. */
double bh_pc_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
    if (running == 0)
        return NAN;
    if (running >= enabled)
        return (double)value;
    return (double)value * ((double)enabled / (double)running);
}

#if defined(__linux__) && defined(SYS_perf_event_open)

/* The errno's symbolic name. */
static const char *errno_name(int err)
{
    switch (err) {
    case ENOENT:
        return "ENOENT";
    case ENODEV:
        return "ENODEV";
    case EOPNOTSUPP:
        return "EOPNOTSUPP";
    case EACCES:
        return "EACCES";
    case EPERM:
        return "EPERM";
    case ENOSYS:
        return "ENOSYS";
    case EINVAL:
        return "EINVAL";
    case EMFILE:
        return "EMFILE";
    case EBUSY:
        return "EBUSY";
    default:
        return "errno";
    }
}

/* The kernel's perf_event_paranoid level, or -99 when unreadable. */
static int paranoid_level(void)
{
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
    int v = -99;

    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = -99;
        fclose(f);
    }
    return v;
}

/* True when the kernel registered a CPU PMU (an event source named cpu,
 * cpu_core, cpu_atom, or an Arm PMU): a VM without a virtual PMU has none. */
static int have_cpu_pmu(void)
{
    DIR *d = opendir("/sys/bus/event_source/devices");
    struct dirent *de;
    int found = 0;

    while (d && !found && (de = readdir(d)) != NULL)
        found = strcmp(de->d_name, "cpu") == 0 || strncmp(de->d_name, "cpu_", 4) == 0 ||
                strncmp(de->d_name, "armv", 4) == 0 || strncmp(de->d_name, "arm_", 4) == 0;
    if (d)
        closedir(d);
    return found;
}

/* One line saying why perf_event_open failed with err for an event. */
static void explain(char *out, size_t cap, int err, const char *what)
{
    const char *why;
    char buf[96];

    switch (err) {
    case ENOENT:
    case ENODEV:
    case EOPNOTSUPP:
        if (strcmp(what, "software") == 0)
            why = "the kernel has no such software event";
        else if (!have_cpu_pmu())
            why = "no hardware PMU in this VM: the kernel registered no CPU PMU";
        else
            why = "the PMU lacks this event";
        break;
    case EACCES:
    case EPERM:
        snprintf(buf, sizeof(buf),
                 "kernel.perf_event_paranoid is %d; user-space counting needs <= 2 "
                 "or CAP_PERFMON",
                 paranoid_level());
        why = buf;
        break;
    case ENOSYS:
        why = "kernel without perf events, or a sandbox (seccomp, valgrind) refuses the call";
        break;
    default:
        why = strerror(err);
        break;
    }
    snprintf(out, cap, "perf_event_open: %s (%s)", errno_name(err), why);
}

/* perf_event_open(attr, this thread, any CPU, group_fd). */
static int open_event(struct perf_event_attr *attr, int group_fd)
{
    long fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);

    return fd < 0 ? -1 : (int)fd;
}

/* The attribute of ev: counting, disabled (the leader; siblings follow
 * it), inherited by threads created later, user space only for hardware. */
static void attr_of(bh_pc_event ev, struct perf_event_attr *a)
{
    static const uint64_t l1d = PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8);
    static const uint64_t ll = PERF_COUNT_HW_CACHE_LL | (PERF_COUNT_HW_CACHE_OP_READ << 8);
    static const uint64_t miss = (uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
    static const uint64_t access = (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;

    memset(a, 0, sizeof(*a));
    a->size = sizeof(*a);
    a->disabled = 1;
    a->inherit = 1;
    a->read_format =
        PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    switch (ev) {
    case BH_PC_CYCLES:
        a->type = PERF_TYPE_HARDWARE;
        a->config = PERF_COUNT_HW_CPU_CYCLES;
        break;
    case BH_PC_INSTRUCTIONS:
        a->type = PERF_TYPE_HARDWARE;
        a->config = PERF_COUNT_HW_INSTRUCTIONS;
        break;
    case BH_PC_BRANCHES:
        a->type = PERF_TYPE_HARDWARE;
        a->config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
        break;
    case BH_PC_BRANCH_MISSES:
        a->type = PERF_TYPE_HARDWARE;
        a->config = PERF_COUNT_HW_BRANCH_MISSES;
        break;
    case BH_PC_L1D_READS:
        a->type = PERF_TYPE_HW_CACHE;
        a->config = l1d | access;
        break;
    case BH_PC_L1D_READ_MISSES:
        a->type = PERF_TYPE_HW_CACHE;
        a->config = l1d | miss;
        break;
    case BH_PC_LLC_READS:
        a->type = PERF_TYPE_HW_CACHE;
        a->config = ll | access;
        break;
    case BH_PC_LLC_READ_MISSES:
        a->type = PERF_TYPE_HW_CACHE;
        a->config = ll | miss;
        break;
    case BH_PC_TASK_CLOCK:
        a->type = PERF_TYPE_SOFTWARE;
        a->config = PERF_COUNT_SW_TASK_CLOCK;
        break;
    case BH_PC_CONTEXT_SWITCHES:
        a->type = PERF_TYPE_SOFTWARE;
        a->config = PERF_COUNT_SW_CONTEXT_SWITCHES;
        break;
    case BH_PC_PAGE_FAULTS:
        a->type = PERF_TYPE_SOFTWARE;
        a->config = PERF_COUNT_SW_PAGE_FAULTS;
        break;
    default:
        break;
    }
    if (a->type != PERF_TYPE_SOFTWARE) {
        a->exclude_kernel = 1; /* allowed at perf_event_paranoid <= 2 */
        a->exclude_hv = 1;
    }
}

/* Opens the events first..last as group g; the first that opens leads.
 * The first failure's reason goes to reason (when still empty). */
static void open_group(bh_perf_counters *pc, int g, bh_pc_event first, bh_pc_event last,
                       char *reason, size_t cap)
{
    for (int ev = first; ev <= (int)last; ev++) {
        struct perf_event_attr a;
        int fd;

        attr_of((bh_pc_event)ev, &a);
        if (pc->leader[g] >= 0)
            a.disabled = 0; /* siblings count while their leader does */
        fd = open_event(&a, pc->leader[g]);
        if (fd < 0) {
            char line[200];

            explain(line, sizeof(line), errno, g == 2 ? "software" : "hardware");
            if (!*reason)
                snprintf(reason, cap, "%s: %s", bh_pc_event_name((bh_pc_event)ev), line);
            continue;
        }
        if (pc->leader[g] < 0)
            pc->leader[g] = fd;
        pc->fds[g][pc->n[g]] = fd;
        pc->events[g][pc->n[g]++] = (bh_pc_event)ev;
        if (g < 2)
            pc->n_hw++;
    }
}

/* See perf_counters.h. */
int bh_perf_counters_open(bh_perf_counters *pc)
{
    memset(pc, 0, sizeof(*pc));
    for (int g = 0; g < BH_PC_GROUPS; g++)
        pc->leader[g] = -1;
    pc->n_hw_wanted = BH_PC_LLC_READ_MISSES + 1;
    open_group(pc, 0, BH_PC_CYCLES, BH_PC_BRANCH_MISSES, pc->hw_reason, sizeof(pc->hw_reason));
    open_group(pc, 1, BH_PC_L1D_READS, BH_PC_LLC_READ_MISSES, pc->hw_reason, sizeof(pc->hw_reason));
    open_group(pc, 2, BH_PC_TASK_CLOCK, BH_PC_PAGE_FAULTS, pc->sw_reason, sizeof(pc->sw_reason));
    /* with no hardware event at all, the reason is the PMU's, not one event's */
    if (pc->n_hw == 0 && *pc->hw_reason) {
        const char *colon = strstr(pc->hw_reason, ": perf_event_open");

        if (colon)
            memmove(pc->hw_reason, colon + 2, strlen(colon + 2) + 1);
    }
    return pc->n_hw + pc->n[2];
}

/* ioctl(op) on every group leader, applied to the whole group. */
static void group_ioctl(const bh_perf_counters *pc, unsigned long op)
{
    for (int g = 0; g < BH_PC_GROUPS; g++)
        if (pc->leader[g] >= 0)
            (void)ioctl(pc->leader[g], op, PERF_IOC_FLAG_GROUP);
}

/* See perf_counters.h. */
void bh_perf_counters_enable(bh_perf_counters *pc)
{
    group_ioctl(pc, PERF_EVENT_IOC_ENABLE);
}

/* See perf_counters.h. */
void bh_perf_counters_disable(bh_perf_counters *pc)
{
    group_ioctl(pc, PERF_EVENT_IOC_DISABLE);
}

/* See perf_counters.h. */
int bh_perf_counters_read(const bh_perf_counters *pc, bh_pc_totals *t)
{
    int rc = 0;

    memset(t, 0, sizeof(*t));
    for (int i = 0; i < BH_PC_N; i++)
        t->value[i] = NAN;
    for (int g = 0; g < BH_PC_GROUPS; g++) {
        uint64_t buf[3 + BH_PC_GROUP_MAX];
        uint64_t raw[BH_PC_GROUP_MAX];
        ssize_t got;
        int nr;

        if (pc->leader[g] < 0)
            continue;
        got = read(pc->leader[g], buf, sizeof(buf));
        nr = got > 0 ? bh_pc_parse_group(buf, (size_t)got / sizeof(uint64_t), &t->enabled[g],
                                         &t->running[g], raw, BH_PC_GROUP_MAX)
                     : -1;
        if (nr != pc->n[g]) {
            rc = -1;
            continue;
        }
        t->read[g] = 1;
        for (int k = 0; k < nr; k++)
            t->value[pc->events[g][k]] = bh_pc_scale(raw[k], t->enabled[g], t->running[g]);
    }
    return rc;
}

#else /* no perf_event_open */

/* See perf_counters.h. */
int bh_perf_counters_open(bh_perf_counters *pc)
{
    memset(pc, 0, sizeof(*pc));
    for (int g = 0; g < BH_PC_GROUPS; g++)
        pc->leader[g] = -1;
    pc->n_hw_wanted = BH_PC_LLC_READ_MISSES + 1;
    snprintf(pc->hw_reason, sizeof(pc->hw_reason), "perf_event_open: not on this system");
    snprintf(pc->sw_reason, sizeof(pc->sw_reason), "perf_event_open: not on this system");
    return 0;
}

void bh_perf_counters_enable(bh_perf_counters *pc)
{
    (void)pc;
}

void bh_perf_counters_disable(bh_perf_counters *pc)
{
    (void)pc;
}

int bh_perf_counters_read(const bh_perf_counters *pc, bh_pc_totals *t)
{
    (void)pc;
    memset(t, 0, sizeof(*t));
    for (int i = 0; i < BH_PC_N; i++)
        t->value[i] = NAN;
    return 0;
}

#endif

/* See perf_counters.h. */
void bh_perf_counters_close(bh_perf_counters *pc)
{
    for (int g = 0; g < BH_PC_GROUPS; g++) {
        for (int k = 0; k < pc->n[g]; k++)
            close(pc->fds[g][k]);
        pc->n[g] = 0;
        pc->leader[g] = -1;
    }
}
