// SPDX-License-Identifier: MIT
/* What the tools that wrap a worker (measure: instructions, bhost run
 * --profile) share: finding a program on PATH as execvp would, whether
 * this build can run under Valgrind at all, and removing a run's private
 * folder of tool output. */
#ifndef BH_TOOL_ENV_H
#define BH_TOOL_ENV_H

/* The path of the first regular, executable file called name in a folder
 * of PATH (an empty entry is the current folder), looked up on every call
 * (new string, free() it); NULL when there is none or PATH is unset. */
char *bh_tool_find(const char *name);

/* Why a worker of this build cannot run under Valgrind, or NULL when it
 * can: a worker built with AddressSanitizer does not (static text).
 * Pure. */
const char *bh_tool_valgrind_refusal(void);

/* Removes dir, the files in it and, one level down, the files of its
 * folders (what the wrapping tools write); anything that cannot be
 * removed is left. */
void bh_tool_remove_dir(const char *dir);

#endif
