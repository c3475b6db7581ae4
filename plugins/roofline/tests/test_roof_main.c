// SPDX-License-Identifier: MIT
/* Runs every group of the roof core's unit tests (test_roof.h). */
#include "test_roof.h"

int main(void)
{
    size_t (*const groups[])(const struct CMUnitTest **) = {
        test_roof_levels_group, test_roof_bw_group, test_roof_peak_group};
    static const char *const names[] = {"roof_levels", "roof_bw", "roof_peak"};
    int failed = 0;

    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        const struct CMUnitTest *tests;
        size_t n = groups[g](&tests);

        failed += _cmocka_run_group_tests(names[g], tests, n, NULL, NULL);
    }
    return failed != 0;
}
