// SPDX-License-Identifier: MIT
/*
 * rnn.h -- one-layer forward LSTM and GRU in f32 over T time steps (T = 1
 * is one cell step): the plugin's own gemm-based cell (OpenBLAS sgemm for
 * the input and recurrent projections, then the gate nonlinearities fused
 * in one pass), oneDNN's vanilla LSTM and GRU primitives (rnn_dnnl.c, when
 * oneDNN is built in), and the naive double-precision reference that
 * verifies both. No bhost dependency: unit-tested alone.
 *
 * Both implementations take the same tensors, in oneDNN's plain layouts:
 *   x     [T][B][I]      (tnc)   input of every step
 *   h0,c0 [B][H]         (ldnc)  initial hidden and cell state (c: LSTM)
 *   wx    [I][G][H]      (ldigo) input weights, gate g at column g*H
 *   wh    [H][G][H]      (ldigo) recurrent weights
 *   bias  [G][H]         (ldgo)
 *   hs    [T][B][H]      (tnc)   hidden state of every step (dst_layer)
 *   cT    [B][H]                 the last cell state (LSTM)
 * Gate order is oneDNN's (dev guide "RNN", and the ldigo 'g' axis):
 *   LSTM (G = 4): i, f, c~, o
 *     i,f,o = sigmoid(Wx x + Wh h + b), c~ = tanh(...),
 *     c_t = f c_{t-1} + i c~,  h_t = o tanh(c_t)   (no peephole)
 *   GRU (G = 3): u, r, o -- oneDNN's "vanilla" GRU, the reset gate applied
 *     before the recurrent product (not linear-before-reset):
 *     u,r = sigmoid(Wx x + Wh h + b),  o = tanh(Wx_o x + Wh_o (r h) + b_o),
 *     h_t = u h_{t-1} + (1 - u) o
 */
#ifndef SCI_RNN_H
#define SCI_RNN_H

#include <stddef.h>

typedef enum rnn_kind { RNN_LSTM = 0, RNN_GRU = 1 } rnn_kind;

/* The problem: cell kind, batch B, input size I, hidden size H, steps T. */
typedef struct rnn_shape {
    rnn_kind kind;
    size_t batch, input, hidden, steps;
} rnn_shape;

/* The weights, in the layouts above. */
typedef struct rnn_weights {
    const float *wx, *wh, *bias;
} rnn_weights;

/* The tensors of one forward pass (cT and c0 NULL for a GRU). */
typedef struct rnn_io {
    const float *x, *h0, *c0;
    float *hs, *cT;
} rnn_io;

/* Gates per cell: 4 (LSTM) or 3 (GRU). */
size_t rnn_gates(rnn_kind kind);

/* Element-wise FLOP per hidden unit per step, besides the gemms (each
 * sigmoid or tanh counted as one): LSTM 13 (4 bias adds, 5 nonlinearities,
 * 3 for c_t, 1 for h_t); GRU 11 (3 bias adds, 3 nonlinearities, 1 for
 * r h, 4 for h_t). */
double rnn_elementwise_flops(rnn_kind kind);

/* The own implementation (rnn_own.c, built with SCI_RNN_HAVE_BLAS): its
 * scratch: the gate pre-activations of all steps
 * and, for a GRU, r h of one step. */
typedef struct rnn_own {
    rnn_shape s;
    float *gates, *rh;
} rnn_own;

/* Allocates p's scratch for s. 0, or -1 when memory is short (p zeroed). */
int rnn_own_init(rnn_own *p, const rnn_shape *s);

/* Frees p's scratch (a zeroed p is fine). */
void rnn_own_free(rnn_own *p);

/* One forward pass: the input projection of all T steps as one sgemm, then
 * per step the recurrent sgemm (two for a GRU, around the reset) into the
 * step's gates and one fused pass of the nonlinearities. io->cT is also
 * the running cell state. OpenBLAS threads are the caller's. */
void rnn_own_forward(rnn_own *p, const rnn_weights *w, const rnn_io *io);

/* The reference for batch row b alone, in double from the same f32
 * inputs: hs_ref [T][H] (step t of row b), c_ref [H] (LSTM; else
 * unused, may be NULL). 0, or -1 when memory is short. */
int rnn_ref_row(const rnn_shape *s, const rnn_weights *w, const rnn_io *io, size_t b,
                double *hs_ref, double *c_ref);

/* The verification bound on |h - h_ref| and |c - c_ref| (see rnn_ref.c
 * for its derivation), for the weights and inputs rnn_fill makes. */
double rnn_error_bound(const rnn_shape *s);

/* Fills the weights (uniform in +-1/(I+H), bias +-0.1) and inputs (x, h0,
 * c0 uniform in [-1, 1]) from seed, through a splitmix64 stream. */
void rnn_fill(const rnn_shape *s, unsigned long long seed, float *wx, float *wh, float *bias,
              float *x, float *h0, float *c0);

/* oneDNN (rnn_dnnl.c, built with SCI_RNN_HAVE_DNNL). */
typedef struct rnn_dnnl rnn_dnnl;

/* Creates the engine, stream and a forward-inference primitive for s
 * over w (weights reordered once into the layout the primitive prefers).
 * NULL with a one-line reason in err (cap bytes). */
rnn_dnnl *rnn_dnnl_create(const rnn_shape *s, const rnn_weights *w, char *err, size_t cap);

/* One forward pass over io; 0, or -1 with the reason in err. */
int rnn_dnnl_forward(rnn_dnnl *d, const rnn_io *io, char *err, size_t cap);

/* Frees d (NULL is fine). */
void rnn_dnnl_free(rnn_dnnl *d);

#endif /* SCI_RNN_H */
