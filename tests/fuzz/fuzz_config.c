// SPDX-License-Identifier: MIT
/* libFuzzer target: the YAML config loader (bh_config_load) on arbitrary
 * bytes. The input is written to a file in a private directory, so relative
 * extends: and plugin_path: entries resolve there; a config the loader
 * accepts is freed again, so leaks show up under LeakSanitizer. */
#define _GNU_SOURCE
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static char path[128];

/* Creates the private directory once, in /dev/shm when there is one (no
 * disk writeback on every input); returns 0 or -1. */
static int setup_dir(void)
{
    if (dir[0])
        return 0;
    snprintf(dir, sizeof(dir), "/dev/shm/bh_fuzz_config_XXXXXX");
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof(dir), "/tmp/bh_fuzz_config_XXXXXX");
        if (!mkdtemp(dir))
            return -1;
    }
    snprintf(path, sizeof(path), "%s/fuzz.yaml", dir);
    return 0;
}

/* Writes the input as the config file and loads it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f;
    bh_error e = {""};
    bh_config *c;

    if (setup_dir() != 0)
        abort();
    f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    c = bh_config_load(path, &e);
    if (!c && !e.msg[0])
        abort(); /* a refusal must say why */
    bh_config_free(c);
    return 0;
}
