// SPDX-License-Identifier: MIT
/*
 * fuzz_common.h -- shared by the inference loader fuzz targets: after a
 * parser accepts an input, the tensor directory is mapped onto micro
 * models of all three architectures (shapes small enough that valid files
 * fit libFuzzer's max_len), exercising the name tables, shape checks and
 * element conversion of ie_load.c as well.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "ie.h"
#include "ie_file.h"

/* The micro config of arch (IE_ARCH_*); layers 1. */
void fuzz_config(int arch, ie_config *c);

/* Loads dir into a fresh micro model of every architecture. */
void fuzz_load_all(const ie_tensor_dir *dir);

#endif
