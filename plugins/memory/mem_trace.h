// SPDX-License-Identifier: MIT
/*
 * mem_trace.h -- tensor-allocation traces for the fragmentation replay.
 *
 * Neither engine allocates while it runs (the inference engine sizes every
 * activation and the KV cache in ie_state_create, the optimizer core
 * updates caller-owned tensors in place), so there is no allocation
 * sequence to record from them. The traces here are generated from their
 * real tensor shapes (ie_preset of plugins/inference, opt_model_tensors of
 * plugins/optimizer) with the allocation order of an eager framework that
 * allocates one tensor per operator output and frees it after its last
 * use (PyTorch's default):
 *   decode     one or more GPT-2/LLaMA decode steps of one sequence: the
 *              activations of every layer, the KV cache grown by
 *              concatenation (a new tensor one row longer, the old one
 *              freed: HF transformers' legacy cache), logits and softmax;
 *   optimizer  training steps of Adam over the model's parameter tensors:
 *              gradients allocated in reverse module order (backward),
 *              Adam's m and v created lazily at the first step, each
 *              tensor's denominator temporaries (sqrt, then the division),
 *              the gradients freed by zero_grad(set_to_none=True).
 * Every trace ends with everything freed. No bhost dependency.
 */
#ifndef MEM_TRACE_H
#define MEM_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum { MEM_EV_ALLOC = 1, MEM_EV_FREE = 2 };

/* One event: allocate `bytes` into slot, or free the block in slot (bytes
 * repeats its size, for sized frees). */
typedef struct mem_event {
    uint32_t op;
    uint32_t slot;
    uint64_t bytes;
} mem_event;

typedef struct mem_trace {
    mem_event *ev;
    size_t count, cap;
    uint32_t slots; /* slot indices used: [0, slots) */
    uint32_t reserved;
    uint64_t allocs;    /* allocation events */
    uint64_t peak_live; /* most bytes live at once */
    uint64_t max_block; /* largest allocation */
    /* generator state */
    uint64_t *size_of; /* per slot: bytes when live, 0 when free */
    uint32_t *free_slots;
    uint32_t nfree, slot_cap;
    uint64_t live;
    int failed; /* out of memory while generating */
    int reserved2;
} mem_trace;

/* Generates the decode trace of decoder preset `model` (gpt2,
 * gpt2-medium, llama-7b, llama-13b, tiny-gpt2, tiny-llama): `steps`
 * decode steps starting with `context` cached tokens. 0, or -1 with the
 * reason in err (unknown or encoder model, out of memory). t is
 * overwritten (mem_trace_free it first); mem_trace_free releases it after
 * either outcome. */
int mem_trace_decode(mem_trace *t, const char *model, int context, int steps, char *err,
                     size_t cap);

/* Generates the optimizer trace of model layout `model` (gpt2, bert-base,
 * llama-7b: opt_model_tensors) for `steps` Adam steps, every tensor's
 * element count divided by `scale` (at least 1 element). 0 or -1 as
 * above. */
int mem_trace_optimizer(mem_trace *t, const char *model, int steps, int scale, char *err,
                        size_t cap);

/* Checks that every free names a live slot with its size and that nothing
 * is live at the end; recomputes allocs, peak_live and max_block. 0, or -1
 * with the first bad event in err. */
int mem_trace_check(mem_trace *t, char *err, size_t cap);

/* Frees everything t holds; t may be generated again. */
void mem_trace_free(mem_trace *t);

#endif /* MEM_TRACE_H */
