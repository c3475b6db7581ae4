// SPDX-License-Identifier: MIT
/* The watchdog process (watchdog.h). */
#define _GNU_SOURCE
#include "watchdog.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* Poll period of the watchdog, in ms. */
#define WATCH_MS 50

/* The page this process and its watchdog share. */
typedef struct watch_page {
    volatile sig_atomic_t voluntary; /* a job-control stop is wanted */
    volatile unsigned resumes;       /* SIGCONTs the watchdog sent */
    volatile unsigned stopped_ms;    /* stopped time before those, summed */
} watch_page;

static watch_page *page;

/* True when process pid is stopped ('T' in /proc/pid/stat); uses only
 * async-signal-safe calls (the watchdog is a fork of a process that may
 * have had threads). */
static int is_stopped(pid_t pid)
{
    char path[40] = "/proc/";
    char buf[512];
    char num[16];
    int k = 0, fd;
    ssize_t n;
    const char *close_paren = NULL;

    for (pid_t v = pid; v > 0 && k < 15; v /= 10)
        num[k++] = (char)('0' + v % 10);
    for (int i = 0; i < k; i++)
        path[6 + i] = num[k - 1 - i];
    memcpy(path + 6 + k, "/stat", 6);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    for (const char *p = buf; *p; p++)
        if (*p == ')')
            close_paren = p;
    return close_paren && close_paren[1] == ' ' && close_paren[2] == 'T';
}

/* The watchdog's loop: never returns. */
_Noreturn static void watch(pid_t host)
{
    const struct timespec period = {0, WATCH_MS * 1000000L};
    unsigned stopped_for = 0;

    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != host)
        _exit(0);
    setpgid(0, 0); /* out of the terminal's job control and the host's group */
    for (;;) {
        nanosleep(&period, NULL);
        if (!is_stopped(host) || page->voluntary) {
            stopped_for = 0;
            continue;
        }
        stopped_for += WATCH_MS;
        page->stopped_ms += stopped_for;
        page->resumes++;
        stopped_for = 0;
        kill(host, SIGCONT);
    }
}

/* See watchdog.h. */
int bh_watchdog_start(void)
{
    pid_t host = getpid();
    pid_t pid;

    if (page)
        return 0;
    page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        page = NULL;
        return -1;
    }
    memset(page, 0, sizeof(*page));
    pid = fork();
    if (pid == 0)
        watch(host);
    return pid > 0 ? 0 : -1;
}

/* See watchdog.h. */
void bh_watchdog_voluntary(int on)
{
    if (page)
        page->voluntary = on;
}

/* See watchdog.h. */
unsigned bh_watchdog_resumes(void)
{
    return page ? page->resumes : 0;
}

/* See watchdog.h. */
unsigned bh_watchdog_stopped_ms(void)
{
    return page ? page->stopped_ms : 0;
}
