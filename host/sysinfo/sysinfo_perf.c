// SPDX-License-Identifier: MIT
/* Probe for hardware performance counters: whether this process may open a
 * user-space instructions counter. VMs without a virtual PMU, containers
 * under a seccomp filter and perf_event_paranoid=3 all answer no. */
#define _GNU_SOURCE
#include "sysinfo_internal.h"
#include "sysinfo.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

/* See sysinfo.h. */
int bh_sysinfo_perf_errno(void)
{
#if defined(__linux__) && defined(SYS_perf_event_open)
    struct perf_event_attr attr;
    long fd;

    memset(&attr, 0, sizeof(attr));
    attr.size = sizeof(attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1; /* allowed at perf_event_paranoid <= 2 */
    attr.exclude_hv = 1;
    fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0)
        return errno;
    close((int)fd);
    return 0;
#else
    return ENOSYS;
#endif
}

/* True when perf_event_open(PERF_COUNT_HW_INSTRUCTIONS) succeeds for this
 * process on any CPU (bh_sysinfo_perf_errno is 0). */
bool bh_sysinfo_perf_counters_supported(void)
{
    return bh_sysinfo_perf_errno() == 0;
}
