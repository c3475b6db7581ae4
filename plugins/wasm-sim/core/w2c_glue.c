// SPDX-License-Identifier: MIT
/*
 * w2c_glue.c -- one build of kern.wasm as a wsim_ops table. Compiled twice,
 * with w2c_rename.h force-included:
 *   -DWSIM_PREFIX=wsim_bc_  -DWSIM_MODULE=kern_bc
 *       -DWASM_RT_MEMCHECK_SIGNAL_HANDLER=0
 *   -DWSIM_PREFIX=wsim_sig_ -DWSIM_MODULE=kern_sig
 *       -DWASM_RT_MEMCHECK_SIGNAL_HANDLER=1
 * and -DWSIM_W2C_HEADER="kern_bc.h" / "kern_sig.h" (the wasm2c output).
 *
 * Traps: wabt's runtime calls WSIM_PREFIX##on_trap (WASM_RT_TRAP_HANDLER)
 * from an explicit bounds check, or from its SIGSEGV handler when a guard
 * page is hit. Inside a call it unwinds there (siglongjmp in the guard
 * build, restoring the signal mask); outside any call the fault is not
 * the module's: the default action of the signal is restored and the
 * process ends as it would have without the runtime.
 */
#include "wasm-rt-impl.h"
#include WSIM_W2C_HEADER
#include "wsim.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>

/* What wasm-rt-impl.c reserves per memory in the guard build. */
#define WSIM_RESERVATION 0x200000000ul

#define MOD_T WSIM_CAT(WSIM_CAT(Z_, WSIM_MODULE), _instance_t)
#define MOD_FN(x) WSIM_CAT(WSIM_CAT(Z_, WSIM_MODULE), WSIM_CAT(_, x))
#define EXP(x) WSIM_CAT(WSIM_CAT(Z_, WSIM_MODULE), WSIM_CAT(Z_, x))

/* Where a trap unwinds to; NULL outside calls. */
static _Thread_local jmp_buf *active;
static int module_ready;
#if WASM_RT_MEMCHECK_SIGNAL_HANDLER
/* The runtime's SIGSEGV and SIGBUS handlers, as wasm_rt_init installed
 * them: put back at every instantiation, since a test harness or a host
 * may have replaced them since. */
static struct sigaction rt_segv, rt_bus;
#endif

/* Ends the process for a fault outside any wasm call. */
static void __attribute__((noreturn)) fatal(void)
{
    struct sigaction sa;
    sigset_t set;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigemptyset(&set);
    sigaddset(&set, SIGSEGV);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGSEGV);
    abort();
}

void WSIM_R(on_trap)(int code)
{
    jmp_buf *t = active;

    if (t == NULL)
        fatal();
    active = NULL;
    WASM_RT_LONGJMP(*t, code);
}

/* New instance; see wsim_ops.create. */
static void *glue_create(void)
{
    MOD_T *m = calloc(1, sizeof(*m));

    if (m == NULL)
        return NULL;
    if (!module_ready) {
        wasm_rt_init();
#if WASM_RT_MEMCHECK_SIGNAL_HANDLER
        sigaction(SIGSEGV, NULL, &rt_segv);
        sigaction(SIGBUS, NULL, &rt_bus);
#endif
        MOD_FN(init_module)();
        module_ready = 1;
    } else {
#if WASM_RT_MEMCHECK_SIGNAL_HANDLER
        sigaction(SIGSEGV, &rt_segv, NULL);
        sigaction(SIGBUS, &rt_bus, NULL);
#endif
    }
    MOD_FN(instantiate)(m);
    return m;
}

static void glue_destroy(void *mod)
{
#if WASM_RT_MEMCHECK_SIGNAL_HANDLER
    uint8_t *data;
#endif

    if (mod == NULL)
        return;
#if WASM_RT_MEMCHECK_SIGNAL_HANDLER
    data = EXP(memory)(mod)->data;
#endif
    MOD_FN(free)(mod);
#if WASM_RT_MEMCHECK_SIGNAL_HANDLER
    /* wabt 1.0.32 unmaps only the accessible part of the 8 GiB
     * reservation; release all of it (instances come and go by the
     * thousand in mem.grow and mem.ceiling) */
    if (data != NULL)
        munmap(data, WSIM_RESERVATION);
#endif
    free(mod);
}

static void glue_memory(void *mod, wsim_mem *out)
{
    const wasm_rt_memory_t *mem = EXP(memory)(mod);

    out->data = mem->data;
    out->size = mem->size;
    out->pages = mem->pages;
    out->max_pages = mem->max_pages;
    out->reserved = 0;
}

/* Calls export fn; see wsim_ops.call. */
static void dispatch(MOD_T *m, int fn, const wsim_val *a, wsim_val *r)
{
    switch (fn) {
    case WSIM_FN_AXPY:
        EXP(wk_axpy)(m, a[0].u, a[1].f, a[2].u, a[3].u, a[4].u);
        break;
    case WSIM_FN_DOT:
        r->f = EXP(wk_dot)(m, a[0].u, a[1].u, a[2].u);
        break;
    case WSIM_FN_SGEMM:
        EXP(wk_sgemm)(m, a[0].u, a[1].u, a[2].u, a[3].u, a[4].u, a[5].u);
        break;
    case WSIM_FN_SOFTMAX:
        EXP(wk_softmax)(m, a[0].u, a[1].u, a[2].u, a[3].u);
        break;
    case WSIM_FN_QMATMUL:
        EXP(wk_qmatmul)(m, a[0].u, a[1].u, a[2].u, a[3].u, a[4].u, a[5].u,
                        a[6].u, a[7].u);
        break;
    case WSIM_FN_HGEMM:
        EXP(wk_hgemm)(m, a[0].u, a[1].u, a[2].u, a[3].u, a[4].u, a[5].u);
        break;
    case WSIM_FN_QUANTIZE:
        EXP(wk_quantize_rows)(m, a[0].u, a[1].u, a[2].u, a[3].u, a[4].u);
        break;
    case WSIM_FN_MALLOC:
        r->u = EXP(wk_malloc)(m, a[0].u);
        break;
    case WSIM_FN_FREE:
        EXP(wk_free)(m, a[0].u);
        break;
    case WSIM_FN_HEAP_CHECK:
        r->u = EXP(wk_heap_check)(m);
        break;
    case WSIM_FN_HEAP_STAT:
        r->u = EXP(wk_heap_stat)(m, a[0].u);
        break;
    case WSIM_FN_CHURN:
        r->u = EXP(wk_churn)(m, a[0].u, a[1].u);
        break;
    case WSIM_FN_CHURN_RESET:
        EXP(wk_churn_reset)(m, a[0].u);
        break;
    case WSIM_FN_GROW:
        r->u = EXP(wk_grow)(m, a[0].u);
        break;
    case WSIM_FN_PAGES:
        r->u = EXP(wk_pages)(m);
        break;
    case WSIM_FN_LOAD_U8:
        r->u = EXP(wk_load_u8)(m, a[0].u);
        break;
    case WSIM_FN_STORE_U8:
        EXP(wk_store_u8)(m, a[0].u, a[1].u);
        break;
    case WSIM_FN_EXPF:
        r->f = EXP(wk_expf)(m, a[0].f);
        break;
    default:
        wasm_rt_trap(WASM_RT_TRAP_UNREACHABLE);
    }
}

/* Sets the unwind target and runs fn(arg); 0 or the trap code. */
static int glue_protect(void (*fn)(void *), void *arg)
{
    jmp_buf jb;
    int code;

#if WASM_RT_USE_STACK_DEPTH_COUNT
    wasm_rt_saved_call_stack_depth = wasm_rt_call_stack_depth;
#endif
    code = WASM_RT_SETJMP(jb);
    if (code != 0)
        return code;
    active = &jb;
    fn(arg);
    active = NULL;
    return 0;
}

/* One export call, as protect() runs it. */
typedef struct call_ctx {
    MOD_T *m;
    int fn;
    const wsim_val *args;
    wsim_val *ret;
} call_ctx;

static void call_thunk(void *p)
{
    call_ctx *c = p;

    dispatch(c->m, c->fn, c->args, c->ret);
}

static int glue_call(void *mod, int fn, const wsim_val *args, wsim_val *ret)
{
    call_ctx c;

    c.m = mod;
    c.fn = fn;
    c.args = args;
    c.ret = ret;
    return glue_protect(call_thunk, &c);
}

static void glue_trap(int code)
{
    wasm_rt_trap((wasm_rt_trap_t)code);
}

static const char *glue_strerror(int code)
{
    return wasm_rt_strerror((wasm_rt_trap_t)code);
}

const wsim_ops WSIM_R(ops) = {
    .name = WASM_RT_MEMCHECK_SIGNAL_HANDLER ? "guard" : "explicit",
    .guard = WASM_RT_MEMCHECK_SIGNAL_HANDLER,
    .create = glue_create,
    .destroy = glue_destroy,
    .memory = glue_memory,
    .call = glue_call,
    .protect = glue_protect,
    .trap = glue_trap,
    .strerror = glue_strerror,
};
