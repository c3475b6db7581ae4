// SPDX-License-Identifier: MIT
/*
 * w2c_rename.h -- force-included (-include) into every file of one build of
 * the wasm2c module (the generated C, wabt's wasm-rt-impl.c and
 * w2c_glue.c) so that the two builds, explicit bounds checks and guard
 * pages, can live in one plugin: every global symbol of wabt 1.0.32's
 * runtime gets the prefix WSIM_PREFIX (wsim_bc_ or wsim_sig_). The
 * runtime's traps go to WSIM_PREFIX##on_trap (w2c_glue.c), which unwinds
 * to the active call or, outside any call, ends the process with the
 * original signal.
 */
#ifndef WSIM_W2C_RENAME_H
#define WSIM_W2C_RENAME_H

#ifndef WSIM_PREFIX
#error "w2c_rename.h needs -DWSIM_PREFIX=<prefix>"
#endif

#define WSIM_CAT2(a, b) a##b
#define WSIM_CAT(a, b) WSIM_CAT2(a, b)
#define WSIM_R(x) WSIM_CAT(WSIM_PREFIX, x)

#define wasm_rt_init WSIM_R(wasm_rt_init)
#define wasm_rt_is_initialized WSIM_R(wasm_rt_is_initialized)
#define wasm_rt_free WSIM_R(wasm_rt_free)
#define wasm_rt_trap WSIM_R(wasm_rt_trap)
#define wasm_rt_strerror WSIM_R(wasm_rt_strerror)
#define wasm_rt_register_func_type WSIM_R(wasm_rt_register_func_type)
#define wasm_rt_register_tag WSIM_R(wasm_rt_register_tag)
#define wasm_rt_load_exception WSIM_R(wasm_rt_load_exception)
#define wasm_rt_throw WSIM_R(wasm_rt_throw)
#define wasm_rt_get_unwind_target WSIM_R(wasm_rt_get_unwind_target)
#define wasm_rt_set_unwind_target WSIM_R(wasm_rt_set_unwind_target)
#define wasm_rt_exception_tag WSIM_R(wasm_rt_exception_tag)
#define wasm_rt_exception_size WSIM_R(wasm_rt_exception_size)
#define wasm_rt_exception WSIM_R(wasm_rt_exception)
#define wasm_rt_allocate_memory WSIM_R(wasm_rt_allocate_memory)
#define wasm_rt_grow_memory WSIM_R(wasm_rt_grow_memory)
#define wasm_rt_free_memory WSIM_R(wasm_rt_free_memory)
#define wasm_rt_allocate_funcref_table WSIM_R(wasm_rt_allocate_funcref_table)
#define wasm_rt_free_funcref_table WSIM_R(wasm_rt_free_funcref_table)
#define wasm_rt_allocate_externref_table WSIM_R(wasm_rt_allocate_externref_table)
#define wasm_rt_free_externref_table WSIM_R(wasm_rt_free_externref_table)
#define wasm_rt_grow_funcref_table WSIM_R(wasm_rt_grow_funcref_table)
#define wasm_rt_grow_externref_table WSIM_R(wasm_rt_grow_externref_table)
#define wasm_rt_call_stack_depth WSIM_R(wasm_rt_call_stack_depth)
#define wasm_rt_saved_call_stack_depth WSIM_R(wasm_rt_saved_call_stack_depth)
#define wasm_rt_jmp_buf WSIM_R(wasm_rt_jmp_buf)

/* wasm_rt_trap() calls this instead of longjmp'ing to wasm_rt_jmp_buf. */
#define WASM_RT_TRAP_HANDLER WSIM_R(on_trap)
void WSIM_R(on_trap)(int code) __attribute__((noreturn));

#endif /* WSIM_W2C_RENAME_H */
