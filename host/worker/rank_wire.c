// SPDX-License-Identifier: MIT
/* Byte-level helpers of the hub-rank wire (rank_wire.h). */
#include "rank_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

int bh_rank_write_all(int fd, const void *p, size_t n)
{
    const unsigned char *b = p;

    while (n > 0) {
        ssize_t w = write(fd, b, n);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

int bh_rank_read_all(int fd, void *p, size_t n)
{
    unsigned char *b = p;

    while (n > 0) {
        ssize_t r = read(fd, b, n);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

void bh_rank_put_u32(unsigned char *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

uint32_t bh_rank_get_u32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The value of the first of names[] that is set to a decimal number. */
static int first_number(const char *const *names, uint32_t *out)
{
    for (; *names; names++) {
        const char *v = getenv(*names);
        char *end;
        unsigned long n;

        if (!v || !*v)
            continue;
        n = strtoul(v, &end, 10);
        if (*end == '\0' && n <= UINT32_MAX) {
            *out = (uint32_t)n;
            return 0;
        }
    }
    return -1;
}

int bh_rank_from_env(uint32_t *rank, uint32_t *size)
{
    static const char *const ranks[] = {BH_RANK_ENV_RANK, "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                        "SLURM_PROCID", "PMI_RANK", NULL};
    static const char *const sizes[] = {BH_RANK_ENV_SIZE, "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS",
                                        "PMI_SIZE", NULL};

    if (first_number(ranks, rank) != 0)
        return -1;
    if (first_number(sizes, size) != 0)
        *size = 0; /* unknown: the hub knows */
    return 0;
}
