// SPDX-License-Identifier: MIT
/*
 * wsim.h -- libwsim_core: kern.wasm (wasm/wk_*.c compiled by clang to
 * wasm32 and translated by wasm2c) instantiated in one of two builds of
 * the wasm2c runtime, explicit bounds checks or guard pages, with traps
 * turned into return codes; the same kernels with 128-bit vectors inside
 * the same linear memory (wsim_simd.c); copies in and out. Knows nothing of
 * bhost.
 *
 * Threads: one wasm call at a time per process (wabt's runtime keeps its
 * call-depth counter and signal handler process-wide). Memory: instances
 * come from malloc (their linear memory from the runtime: calloc/realloc
 * in the explicit build, an 8 GiB PROT_NONE reservation made accessible
 * page range by page range in the guard build).
 */
#ifndef WSIM_H
#define WSIM_H

#include <stddef.h>
#include <stdint.h>

/* Trap codes are wabt's wasm_rt_trap_t values; 0 means no trap. */
#define WSIM_TRAP_OOB 1         /* out-of-bounds memory access */
#define WSIM_TRAP_EXHAUSTION 8  /* call stack exhausted */

/* 64 KiB wasm pages; the module's declared maximum (65535 pages): wabt
 * 1.0.32 keeps a memory's byte size in a uint32_t, so a memory of the full
 * 65536 pages (4 GiB) would read as size 0 there. */
#define WSIM_PAGE 65536u
#define WSIM_MAX_PAGES 65535u

/* Exports of kern.wasm, called through wsim_ops.call. */
enum {
    WSIM_FN_AXPY,        /* (n, a:f32, x, y, z) */
    WSIM_FN_DOT,         /* (n, x, y) -> f32 */
    WSIM_FN_SGEMM,       /* (m, n, k, a, b, c) */
    WSIM_FN_SOFTMAX,     /* (rows, cols, x, y) */
    WSIM_FN_QMATMUL,     /* (m, n, k, a, bt, sa, sb, c) */
    WSIM_FN_HGEMM,       /* (m, n, k, a, bh, c) */
    WSIM_FN_QUANTIZE,    /* (m, k, x, q, scale) */
    WSIM_FN_MALLOC,      /* (size) -> addr */
    WSIM_FN_FREE,        /* (addr) */
    WSIM_FN_HEAP_CHECK,  /* () -> 0 or failed check */
    WSIM_FN_HEAP_STAT,   /* (which) -> counter */
    WSIM_FN_CHURN,       /* (ops, max_size) -> hash */
    WSIM_FN_CHURN_RESET, /* (seed) */
    WSIM_FN_GROW,        /* (pages) -> old pages or 0xFFFFFFFF */
    WSIM_FN_PAGES,       /* () -> pages */
    WSIM_FN_LOAD_U8,     /* (addr) -> byte */
    WSIM_FN_STORE_U8,    /* (addr, v) */
    WSIM_FN_EXPF,        /* (x:f32) -> f32 */
    WSIM_FN_COUNT
};

typedef union wsim_val {
    uint32_t u;
    int32_t i;
    float f;
} wsim_val;

/* The linear memory as it is now (data moves when the explicit build
 * grows it: read it again after every call). */
typedef struct wsim_mem {
    uint8_t *data;
    uint32_t size;  /* bytes */
    uint32_t pages; /* size / 64 KiB */
    uint32_t max_pages;
    uint32_t reserved;
} wsim_mem;

/* One build of the module and its runtime (w2c_glue.c). */
typedef struct wsim_ops {
    const char *name; /* "explicit" or "guard" */
    int guard;        /* 1: guard pages and a SIGSEGV handler */
    int reserved;
    /* A new instance (data segments loaded, memory at its initial size),
     * or NULL when out of memory. Installs the runtime's signal handler on
     * first use in the guard build. */
    void *(*create)(void);
    void (*destroy)(void *mod);
    void (*memory)(void *mod, wsim_mem *out);
    /* Calls export fn with args; the result, if any, in *ret. Returns 0,
     * or the trap code when the call trapped (the instance stays usable). */
    int (*call)(void *mod, int fn, const wsim_val *args, wsim_val *ret);
    /* Runs fn(arg) with traps caught the same way (for native code working
     * inside the linear memory). */
    int (*protect)(void (*fn)(void *), void *arg);
    /* Raises trap code from inside protect(); does not return. */
    void (*trap)(int code);
    const char *(*strerror)(int code);
} wsim_ops;

extern const wsim_ops wsim_bc_ops;  /* explicit bounds checks */
extern const wsim_ops wsim_sig_ops; /* guard pages */

/* One instance of kern.wasm. */
typedef struct wsim_inst {
    const wsim_ops *ops;
    void *mod;
    int last_trap; /* code of the last trap, 0 if none */
    int reserved;
} wsim_inst;

/* Instantiates the module in the guard (guard != 0) or explicit build.
 * NULL when out of memory. */
wsim_inst *wsim_open(int guard);
void wsim_close(wsim_inst *w);

/* Calls an export; 0 or the trap code (also kept in w->last_trap). */
int wsim_call(wsim_inst *w, int fn, const wsim_val *args, wsim_val *ret);

/* Allocates bytes with the module's own malloc: the address, or 0 when the
 * allocator is out of memory or trapped. */
uint32_t wsim_malloc(wsim_inst *w, uint32_t bytes);

/* Current memory. */
wsim_mem wsim_memory(const wsim_inst *w);

/* Copies n bytes host -> linear memory at addr, or back. Bounds-checked
 * as a wasm memory.copy would be: WSIM_TRAP_OOB (nothing copied) when
 * [addr, addr + n) is not inside the memory, else 0. */
int wsim_copy_in(wsim_inst *w, uint32_t addr, const void *src, size_t n);
int wsim_copy_out(wsim_inst *w, void *dst, uint32_t addr, size_t n);

/* A static description of a trap code. */
const char *wsim_trap_name(const wsim_inst *w, int code);

/* ---- 128-bit vector kernels inside the linear memory (wsim_simd.c) ----
 * The operations of wk_ops.c with wasm SIMD128's shapes (v128 loads and
 * stores, f32x4, i16x8 -> i32x4 dot), as native code on 16-byte vectors.
 * Every v128 or scalar access is bounds-checked against the current
 * memory size in the explicit build and left to the guard pages in the
 * guard build, exactly as a wasm engine does. Same arguments as the
 * exports; 0 or a trap code. */
int wsim_simd_axpy(wsim_inst *w, uint32_t n, float a, uint32_t x, uint32_t y,
                   uint32_t z);
int wsim_simd_dot(wsim_inst *w, uint32_t n, uint32_t x, uint32_t y,
                  float *out);
int wsim_simd_sgemm(wsim_inst *w, uint32_t m, uint32_t n, uint32_t k,
                    uint32_t a, uint32_t b, uint32_t c);
int wsim_simd_softmax(wsim_inst *w, uint32_t rows, uint32_t cols, uint32_t x,
                      uint32_t y);
int wsim_simd_qmatmul(wsim_inst *w, uint32_t m, uint32_t n, uint32_t k,
                      uint32_t a, uint32_t bt, uint32_t sa, uint32_t sb,
                      uint32_t c);

#endif /* WSIM_H */
