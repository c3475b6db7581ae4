// SPDX-License-Identifier: MIT
/* bhost-eval: the evaluations of bhost's statistics (docs/statistics.md
 * section 12), kept out of bhost itself. Each returns a BH_EXIT_* code. */
#ifndef BH_EVAL_H
#define BH_EVAL_H

/* bhost-eval regress sim|tally: the regression engine evaluating itself
 * (argv[0] is "regress"). */
int bh_eval_regress(int argc, char **argv);

/* bhost-eval history: the change-point detector on synthetic series. */
int bh_eval_history(int argc, char **argv);

#endif
