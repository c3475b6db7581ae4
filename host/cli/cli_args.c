// SPDX-License-Identifier: MIT
#include "cli_args.h"

#include "cli.h"
#include "config.h"

#include <errno.h>
#include <stdlib.h>

int bh_arg_u64(const char *option, const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    unsigned long long v;

    errno = 0;
    if (!text || !*text || *text == '-') {
        bh_cli_error("%s expects an integer from %llu to %llu", option, (unsigned long long)min,
                     (unsigned long long)max);
        return -1;
    }
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        v = strtoull(text + 2, &end, 16);
    else
        v = strtoull(text, &end, 10);
    if (end == text || (text[0] == '0' && (text[1] == 'x' || text[1] == 'X') && end == text + 2))
        errno = EINVAL;
    if (errno != 0 || *end != '\0' || v < min || v > max) {
        bh_cli_error("%s expects an integer from %llu to %llu, got '%s'", option,
                     (unsigned long long)min, (unsigned long long)max, text);
        return -1;
    }
    *out = v;
    return 0;
}

int bh_arg_duration(const char *cmd, const char *opt, const char *text, int positive, uint64_t *ns)
{
    bh_error e = {""};

    if (bh_parse_duration(text, ns, &e) != 0) {
        bh_cli_error("%s: %s '%s': %s", cmd, opt, text, e.msg);
        return -1;
    }
    if (positive && *ns == 0) {
        bh_cli_error("%s: %s '%s': expected a duration above zero, e.g. 10ms", cmd, opt, text);
        return -1;
    }
    return 0;
}
