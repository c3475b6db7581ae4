// SPDX-License-Identifier: MIT
/* Energy meters read around the timed samples: docs/measurement.md.
 *
 * Sources:
 *   rapl      the powercap sysfs zones intel-rapl:N (package-N) and their
 *             dram subzones (Intel, and AMD on recent kernels through the
 *             same interface): energy_uj, wrapping at max_energy_range_uj.
 *             The root is /sys/class/powercap, or $BHOST_POWERCAP_ROOT
 *             (for tests: a tree of real files).
 *   nvml      nvmlDeviceGetTotalEnergyConsumption (mJ) of an NVIDIA GPU,
 *             from libnvidia-ml.so.1 loaded with dlopen (nothing links it).
 *   rocm_smi  rsmi_dev_energy_count_get of an AMD GPU, from
 *             librocm_smi64.so loaded with dlopen.
 * GPUs are read only for cases on a device (the job's device index).
 * A counter moves in steps, once per refresh period (RAPL about 1 ms,
 * NVML often 20-100 ms): the energy of every sample of the run is
 * accumulated, and the figures are per run (joules per iteration over all
 * its samples, average watts over their summed time), reported only when
 * that window is long enough for the period and the average is below the
 * domain's power limit (energy_check.c). Thread-compatible. */
#ifndef BH_ENERGY_H
#define BH_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#define BH_ENERGY_MAX_DOMAINS 16

typedef enum bh_energy_source {
    BH_ENERGY_RAPL,
    BH_ENERGY_NVML,
    BH_ENERGY_ROCM_SMI,
    BH_ENERGY_SOURCES
} bh_energy_source;

/* One meter: a RAPL zone or a GPU. */
typedef struct bh_energy_domain {
    char name[48]; /* "package-0", "dram-0", "gpu-0" */
    bh_energy_source source;
    int fd;                /* rapl: the open energy_uj file */
    uint32_t gpu;          /* nvml / rocm_smi: the device index */
    void *handle;          /* nvml: the nvmlDevice_t */
    uint64_t max_range_uj; /* where the counter wraps; 0: never */
    uint64_t begin_uj;     /* reading at the sample's start */
    int begun;             /* begin_uj is valid */
    double joules;         /* accumulated over the samples */
    uint64_t ns;           /* summed wall time of the samples read */
    uint32_t samples;      /* samples read (both readings ok) */
    uint32_t failed_reads;
    double limit_watts;  /* the power limit; 0: unknown */
    uint64_t period_ns;  /* the counter's refresh period; 0: unknown */
    int period_measured; /* period_ns was measured (else documented) */
} bh_energy_domain;

/* What a domain's figures are worth (bh_energy_judge). */
typedef enum bh_energy_status {
    BH_ENERGY_OK,          /* its energy.* metrics are reported */
    BH_ENERGY_TOO_SHORT,   /* the window is too short for the refresh */
    BH_ENERGY_IMPLAUSIBLE, /* above the power limit, or no energy at all */
} bh_energy_status;

/* The quantization bound: the energy of a window is known to +-1/K
 * (about 2 standard deviations) when the window holds enough refresh
 * periods: docs/measurement.md, "Too short and implausible". */
#define BH_ENERGY_K              20
/* The documented refresh of RAPL's energy status counters. */
#define BH_ENERGY_RAPL_PERIOD_NS 1000000ull
/* The longest a refresh period is measured for (bh_energy_settle_period). */
#define BH_ENERGY_POLL_NS        300000000ull
/* Above the power limit by more than this fraction is implausible: the
 * quantization bound 1/K plus 10% for the limit's own averaging window. */
#define BH_ENERGY_LIMIT_MARGIN   (1.0 / BH_ENERGY_K + 0.10)

/* The meters of one run and what they accumulated. */
typedef struct bh_energy {
    bh_energy_domain dom[BH_ENERGY_MAX_DOMAINS];
    size_t n;
    char reason[BH_ENERGY_SOURCES][256]; /* why a source gave nothing */
    void *lib[BH_ENERGY_SOURCES];        /* dlopen handles */
    int gpu_init[BH_ENERGY_SOURCES];     /* nvmlInit / rsmi_init done */
    uint32_t samples;                    /* samples accumulated */
    uint64_t ns;                         /* their summed wall time */
    uint64_t begin_ns;
} bh_energy;

/* The name of a source in the result ("rapl", "nvml", "rocm_smi"). */
const char *bh_energy_source_name(bh_energy_source s);

/* The energy between two readings of a counter that wraps at max_range
 * (0: never wraps): after - before, or (max_range - before) + after when
 * the counter went round once; 0 for a decrease that cannot be a wrap
 * (no range, or before beyond it). */
uint64_t bh_energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_range);

/* Finds the RAPL package and dram zones under root (a powercap folder)
 * and opens them into en; reason[BH_ENERGY_RAPL] says why none was found
 * or readable. Returns the number of zones added. */
size_t bh_energy_open_rapl(bh_energy *en, const char *root);

/* Loads NVML and ROCm SMI with dlopen and, when gpu >= 0, adds that GPU's
 * meter from the first that has it; reasons say why not. Returns the
 * number of meters added. */
size_t bh_energy_open_gpu(bh_energy *en, int gpu);

/* Opens every source: RAPL under $BHOST_POWERCAP_ROOT or
 * /sys/class/powercap, and the GPU gpu (-1: a host case, no GPU read).
 * Returns the number of meters. Call bh_energy_close in every case. */
size_t bh_energy_open(bh_energy *en, int gpu);

/* Reads every meter at the start / end of a sample and adds the sample's
 * energy and wall time. A no-op without meters. */
void bh_energy_sample_begin(bh_energy *en);
void bh_energy_sample_end(bh_energy *en);

/* Reads one meter in microjoules; 0 or -1. */
int bh_energy_read_uj(const bh_energy *en, const bh_energy_domain *d, uint64_t *uj);

/* Reads a GPU meter (nvml or rocm_smi) in microjoules; 0 or -1
 * (energy_gpu.c, for bh_energy_read_uj). */
int bh_energy_gpu_read_uj(const bh_energy *en, const bh_energy_domain *d, uint64_t *uj);

/* Shuts NVML / ROCm SMI down and unloads them (energy_gpu.c). */
void bh_energy_gpu_close(bh_energy *en);

/* The summed sample time a domain needs for its energy to be within
 * +-1/K: K x period x min(sqrt(samples), 4K) (docs/measurement.md). */
uint64_t bh_energy_needed_ns(uint64_t period_ns, uint32_t samples);

/* Sets d->period_ns when the decision needs it and no period is known:
 * polls the counter until it has changed twice, for at most
 * BH_ENERGY_POLL_NS (then the period is taken as BH_ENERGY_POLL_NS).
 * Costs nothing when the window is long enough for any such period. */
void bh_energy_settle_period(const bh_energy *en, bh_energy_domain *d);

/* Judges d's accumulated figures: BH_ENERGY_IMPLAUSIBLE when the average
 * power is above limit_watts x (1 + BH_ENERGY_LIMIT_MARGIN), or when the
 * counter did not move over a long enough window; BH_ENERGY_TOO_SHORT
 * when the window is shorter than bh_energy_needed_ns; else
 * BH_ENERGY_OK; BH_ENERGY_TOO_SHORT too when no sample was read. A
 * period of 0 counts as BH_ENERGY_POLL_NS. reason gets a
 * one-line explanation with the figures (empty for BH_ENERGY_OK). */
bh_energy_status bh_energy_judge(const bh_energy_domain *d, char *reason, size_t cap);

/* The name of a status in the result ("ok", "too_short", "implausible"). */
const char *bh_energy_status_name(bh_energy_status s);

/* Closes the files and libraries. */
void bh_energy_close(bh_energy *en);

#endif
