// SPDX-License-Identifier: MIT
/*
 * mem_trace_build.h -- the trace builder the generators use (mem_trace.c):
 * allocate into a recycled slot, free a slot, finish with the check.
 */
#ifndef MEM_TRACE_BUILD_H
#define MEM_TRACE_BUILD_H

#include "mem_trace.h"

/* Appends an allocation of bytes (0 counts as 1) and returns its slot;
 * on out of memory marks t failed (mem_tb_done reports it). */
uint32_t mem_tb_alloc(mem_trace *t, uint64_t bytes);

/* Appends the free of slot (ignored when it is not live). */
void mem_tb_free(mem_trace *t, uint32_t slot);

/* mem_trace_check(t), or -1 with "out of memory" when generating failed. */
int mem_tb_done(mem_trace *t, char *err, size_t cap);

#endif /* MEM_TRACE_BUILD_H */
