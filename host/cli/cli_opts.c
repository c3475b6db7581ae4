// SPDX-License-Identifier: MIT
/* The shared option parser of the bhost commands (see cli_opts.h). */
#include "cli_opts.h"

#include "cli.h"

#include <stdio.h>
#include <string.h>

void bh_opts_init(bh_opts *p, const char *cmd, const bh_opt *opts, int argc, char **argv,
                  int first)
{
    size_t n = 0;
    size_t k = 0;

    memset(p, 0, sizeof(*p));
    p->prog = "bhost";
    p->cmd = cmd;
    p->opts = opts;
    p->argc = argc;
    p->argv = argv;
    for (; opts[n].name && n < BH_OPTS_MAX; n++) {
        p->lo[n].name = opts[n].name;
        p->lo[n].has_arg = opts[n].arg == BH_OPT_VALUE ? required_argument : no_argument;
        p->lo[n].val = opts[n].id;
        if (opts[n].letter) {
            p->letters[k++] = opts[n].letter;
            if (opts[n].arg == BH_OPT_VALUE)
                p->letters[k++] = ':';
        }
    }
    opterr = 0;
    optind = first;
}

/* The id of the option whose short form is letter, or 0. */
static int id_of_letter(const bh_opts *p, int letter)
{
    for (const bh_opt *o = p->opts; o->name; o++)
        if (o->letter && o->letter == letter)
            return o->id;
    return 0;
}

int bh_opts_next(bh_opts *p)
{
    int longi = -1;
    int ch = getopt_long(p->argc, p->argv, p->letters, p->lo, &longi);
    int id;

    if (ch == -1) {
        p->next = optind;
        return 0;
    }
    id = longi >= 0 ? ch : id_of_letter(p, ch);
    if (ch == '?' || ch == ':' || id <= 0) {
        bh_cli_error("%s: unknown or incomplete option '%s' (see %s %s --help)", p->cmd,
                     p->argv[optind - 1], p->prog, p->cmd);
        return -1;
    }
    p->value = optarg;
    return id;
}

int bh_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return 1;
    }
    return 0;
}

void bh_cli_vreport(const char *prog, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}
