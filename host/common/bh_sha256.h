// SPDX-License-Identifier: MIT
/* SHA-256 (FIPS 180-4), for config and plugin file hashes in results. */
#ifndef BH_SHA256_H
#define BH_SHA256_H

#include "bh_error.h"

#include <stddef.h>
#include <stdint.h>

typedef struct bh_sha256_ctx {
    uint32_t h[8];
    uint64_t total;
    uint8_t block[64];
    size_t used;
} bh_sha256_ctx;

void bh_sha256_init(bh_sha256_ctx *c);
void bh_sha256_update(bh_sha256_ctx *c, const void *data, size_t n);
void bh_sha256_final(bh_sha256_ctx *c, uint8_t out[32]);
/* Hex digest of a buffer into hex[65]. */
void bh_sha256_hex(const void *data, size_t n, char hex[65]);
/* Hex digest of a whole file; 0 or -1 with e set. */
int bh_sha256_file(const char *path, char hex[65], bh_error *e);

#endif
