// SPDX-License-Identifier: MIT
/*
 * test_roof.h -- the test groups of the roof core's unit tests, one per
 * file, run by test_roof_main.c.
 */
#ifndef TEST_ROOF_H
#define TEST_ROOF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* Each group's tests into *tests; the number of them returned. */
size_t test_roof_levels_group(const struct CMUnitTest **tests);
size_t test_roof_bw_group(const struct CMUnitTest **tests);
size_t test_roof_peak_group(const struct CMUnitTest **tests);

#endif
