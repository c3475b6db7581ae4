// SPDX-License-Identifier: MIT
/*
 * mob_profile.c -- the device profiles and the pacing that makes a run on
 * the host take as long as it would on the profile's device.
 *
 * The figures are round numbers of the class of device, not a model of a
 * particular phone: phone-big is the performance cluster of a current
 * phone (4 cores, LPDDR5-class bandwidth, throttles after tens of seconds
 * of full load), phone-little the efficiency cluster (1 core available to
 * the app, a third of a host core's speed, never hot enough to throttle at
 * f32), tablet a larger chassis (8 cores, more bandwidth, more heat
 * capacity and cooling, throttles later and less).
 */
#define _POSIX_C_SOURCE 200809L
#include "mob.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define MIB (UINT64_C(1) << 20)

static const mob_profile profiles[] = {
    {.name = "phone-big", .threads = 4, .working_set = 512 * MIB,
     .bandwidth = 15e9, .speed = 0.8, .power_w = 6.0,
     .cool_per_s = 1.0 / 40.0, .budget_j = 120.0},
    {.name = "phone-little", .threads = 1, .working_set = 96 * MIB,
     .bandwidth = 4e9, .speed = 0.35, .power_w = 1.5,
     .cool_per_s = 1.0 / 60.0, .budget_j = 120.0},
    {.name = "tablet", .threads = 8, .working_set = 2048 * MIB,
     .bandwidth = 30e9, .speed = 1.0, .power_w = 9.0,
     .cool_per_s = 1.0 / 50.0, .budget_j = 300.0},
};

const char *const mob_profile_names[] = {"phone-big", "phone-little",
                                         "tablet", NULL};

const mob_profile *mob_profile_find(const char *name)
{
    for (size_t i = 0; i < sizeof(profiles) / sizeof(*profiles); i++)
        if (name != NULL && strcmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

double mob_paced_ns(const mob_profile *p, double real_ns, double bytes)
{
    double compute = real_ns / p->speed;
    double memory = bytes / p->bandwidth * 1e9;

    return compute > memory ? compute : memory;
}

uint64_t mob_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void mob_sleep_until(uint64_t t_ns)
{
    struct timespec ts;

    ts.tv_sec = (time_t)(t_ns / 1000000000u);
    ts.tv_nsec = (long)(t_ns % 1000000000u);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}
