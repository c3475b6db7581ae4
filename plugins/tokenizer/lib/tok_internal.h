// SPDX-License-Identifier: MIT
/*
 * tok_internal.h -- shared declarations of libbhtok's modules (not installed).
 */
#ifndef TOK_INTERNAL_H
#define TOK_INTERNAL_H

#include "bhtok.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TOK_MAX_FILE (UINT64_C(512) << 20) /* refuse larger vocab files */
#define TOK_MAX_IDS 4000000u               /* refuse absurd vocab sizes */

/* ---- errors (tok_util.c) ---- */

/* Formats a one-line message into err (when err != NULL); returns -1. */
int bh_tok_err(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Fills a freshly calloc'd array; NULL on overflow or out of memory. */
void *bh_tok_calloc(size_t n, size_t size);
/* Grows *p (element size es) to hold at least need elements. 0 or -1. */
int bh_tok_grow(void **p, size_t *cap, size_t need, size_t es);

/* ---- hashing and maps (tok_map.c) ---- */

uint64_t bh_tok_hash(const void *p, size_t n);

/* Byte string -> int32 map. Keys are copied into an internal blob. */
typedef struct bh_strmap {
    uint64_t *slots; /* (hash32 << 32) | (entry + 1); 0 = empty */
    size_t mask;
    uint32_t *off, *len; /* per entry, into blob */
    int32_t *val;
    size_t n, cap;
    char *blob;
    size_t blob_n, blob_cap;
} bh_strmap;

/* Inserts key -> val. Returns 1 when the key existed (value unchanged, *old
 * set when old != NULL), 0 when inserted, -1 when out of memory. */
int bh_strmap_put(bh_strmap *m, const void *key, size_t n, int32_t val,
                  int32_t *old);
/* Inserts or overwrites key -> val. 0 or -1 when out of memory. */
int bh_strmap_set(bh_strmap *m, const void *key, size_t n, int32_t val);
/* Value of key, or -1 when absent. [any-thread, read-only] */
int32_t bh_strmap_get(const bh_strmap *m, const void *key, size_t n);
/* The bytes of entry i (insertion order). */
const char *bh_strmap_key(const bh_strmap *m, size_t i, size_t *n);
void bh_strmap_free(bh_strmap *m);

/* uint64 -> uint64 map; the key UINT64_MAX is reserved. */
typedef struct bh_u64map {
    uint64_t *keys, *vals;
    size_t mask, n;
} bh_u64map;

int bh_u64map_put(bh_u64map *m, uint64_t key, uint64_t val);
/* true and *val when present. */
bool bh_u64map_get(const bh_u64map *m, uint64_t key, uint64_t *val);
void bh_u64map_free(bh_u64map *m);

/* ---- Unicode (tok_uni.c), all through utf8proc ---- */

#define UF_L 0x01u   /* \p{L} */
#define UF_N 0x02u   /* \p{N} */
#define UF_WS 0x04u  /* White_Space */
#define UF_UP 0x08u  /* [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] */
#define UF_LO 0x10u  /* [\p{Ll}\p{Lm}\p{Lo}\p{M}] */
#define UF_P 0x20u   /* \p{P} */
#define UF_MN 0x40u  /* \p{Mn} */
#define UF_CTL 0x80u /* Cc, Cf or Co (BERT's "control") */

#define TOK_BAD_CP 0x110000u /* an invalid UTF-8 byte */

/* Planes 0-2 are cached in bh_uni_table; the rest asks utf8proc. */
#define TOK_UNI_TABLE_CPS 0x30000u
extern uint8_t bh_uni_table[TOK_UNI_TABLE_CPS];

/* Builds the property tables once; safe from any thread. */
void bh_uni_init(void);
/* UF_* bits of cp (TOK_BAD_CP has none). bh_uni_init() must have run. */
unsigned bh_uni_flags(uint32_t cp);
/* Decodes one code point at s[0..n), n >= 1; *len gets its byte length.
 * An invalid or truncated sequence yields TOK_BAD_CP with *len = 1. */
uint32_t bh_utf8_dec(const uint8_t *s, size_t n, size_t *len);
/* UF_* bits of the character at s[i] (i < n); *len gets its length. */
static inline unsigned bh_uni_at(const uint8_t *s, size_t n, size_t i,
                                 size_t *len)
{
    if (s[i] < 0x80) {
        *len = 1;
        return bh_uni_table[s[i]];
    }
    return bh_uni_flags(bh_utf8_dec(s + i, n - i, len));
}

/* Encodes cp (< 0x110000) into out[4]; returns the byte length. */
size_t bh_utf8_enc(uint32_t cp, uint8_t *out);

/* ---- byte-level BPE (tok_bpe.c, tok_pretok.c) ---- */

#define PRETOK_NONE 0
#define PRETOK_GPT2 1
#define PRETOK_CL100K 2
#define PRETOK_O200K 3

/* End of the pre-token that starts at s[i] (i < n) for the given regex. */
size_t bh_pretok_next(int kind, const uint8_t *s, size_t n, size_t i);
/* The regex text of kind (for tokenizer.json Split patterns), or NULL. */
const char *bh_pretok_pattern(int kind);

#define BPE_RANKS 0  /* tiktoken: rank of the concatenation decides */
#define BPE_MERGES 1 /* merge list: rank of the (left, right) pair */

typedef struct bh_bpe {
    int mode;
    int pretok;
    bool whole_fast; /* a whole pre-token in the vocab is emitted as is */
    uint8_t *whole_ok; /* MERGES: per id, 1 when BPE of its bytes is itself */
    size_t nwhole;
    bh_strmap tokens; /* raw bytes -> id */
    bh_u64map pairs;  /* MERGES: left << 32 | right -> rank << 32 | id */
    int32_t byte_id[256];
} bh_bpe;

void bh_bpe_free(bh_bpe *b);
/* MERGES mode: marks the tokens whose own bytes BPE back into themselves,
 * so that a pre-token equal to one of them skips the merge loop. */
int bh_bpe_mark_whole(bh_tok *t);

/* ---- WordPiece (tok_wordpiece.c, tok_bert.c) ---- */

typedef struct bh_wp {
    bh_strmap vocab; /* piece text ("##" included) -> id */
    int32_t unk_id;
    size_t max_chars; /* words longer than this become unk */
    size_t max_piece; /* longest vocab entry in bytes */
    bool lowercase, strip_accents, clean_text, chinese_chars;
    char prefix[16]; /* continuing subword prefix, "##" */
    size_t prefix_n;
} bh_wp;

/* ---- SentencePiece (tok_spm_*.c) ---- */

#define SPM_NORMAL 1
#define SPM_UNKNOWN 2
#define SPM_CONTROL 3
#define SPM_USER 4
#define SPM_UNUSED 5
#define SPM_BYTE 6

/* The unigram piece trie (tok_spm_trie.c) as a double array: the child of
 * slot s under byte c is slot base[s] + c when check[] of it is s. Each slot
 * carries the piece ending there (id, or -1) and the score it adds. */
typedef struct bh_spm_trie {
    int32_t *base, *check, *id;
    double *score;
    size_t size, cap;
} bh_spm_trie;

typedef struct bh_spm {
    int model_type; /* 1 unigram, 2 bpe */
    size_t npieces;
    float *score;
    uint8_t *type;
    bh_strmap pieces;   /* NORMAL, USER_DEFINED, UNUSED -> id */
    bh_strmap reserved; /* CONTROL, UNKNOWN, BYTE -> id */
    bh_spm_trie trie;   /* unigram: NORMAL, USER_DEFINED, UNUSED pieces */
    int32_t unk_id;
    int32_t byte_piece[256]; /* id of <0xXX>, or -1 */
    float min_score, max_score;
    bool byte_fallback, has_user, has_unused;
    bool bpe_chunks; /* BPE: no piece has U+2581 after its start, so the
                        text splits before every U+2581 (and caches) */
    size_t max_user_len;
    bh_strmap user; /* user-defined symbols, for the prefix matcher */
    uint8_t user_first[32]; /* bitmap of the symbols' first bytes */
    uint8_t ascii_plain[128]; /* ASCII bytes the normalizer copies as is */
    /* normalizer */
    bool add_dummy_prefix, remove_extra_ws, escape_ws, ws_as_suffix;
    const uint32_t *charsmap_units; /* darts-clone array, or NULL */
    size_t charsmap_nunits;
    const char *charsmap_str;
    size_t charsmap_nstr;
    uint8_t *charsmap_copy; /* owns the two above */
} bh_spm;

/* ---- the tokenizer object (tok_tok.c) ---- */

#define TOK_KIND_BPE 1
#define TOK_KIND_WP 2
#define TOK_KIND_SPM 3

typedef struct tok_special {
    char *s;
    size_t n;
    int32_t id;
} tok_special;

struct bh_tok {
    int kind;
    bh_bpe bpe;
    bh_wp wp;
    bh_spm spm;
    /* id -> decoded bytes (BPE: raw bytes; WordPiece and SPM: the piece) */
    size_t nids;
    uint32_t *id_off, *id_len;
    char *id_blob;
    size_t id_blob_n, id_blob_cap;
    tok_special *special;
    size_t nspecial;
};

/* A direct-mapped cache of short pre-tokens -> ids (BPE). */
#define TOK_CACHE_SLOTS 4096u
#define TOK_CACHE_KEY 30u
#define TOK_CACHE_IDS 7u
typedef struct tok_cache_ent {
    uint64_t hash;
    uint8_t len, nids;
    char key[TOK_CACHE_KEY];
    int32_t ids[TOK_CACHE_IDS];
} tok_cache_ent;

/* Per-thread scratch memory. */
struct bh_tok_ws {
    const bh_tok *t;
    tok_cache_ent *cache; /* TOK_CACHE_SLOTS entries, allocated on first use */
    /* BPE */
    uint32_t *p_pos;
    int32_t *p_id;
    uint32_t *p_rank, *p_mid;
    int32_t *p_prev, *p_next;
    uint64_t *heap;
    size_t p_cap, heap_cap;
    struct tok_part *parts; /* long BPE pieces: one record per part */
    size_t parts_cap;
    /* normalization / Viterbi */
    bh_tok_bytes norm, tmp;
    uint32_t *cps;
    size_t cps_cap;
    float *vs;
    int32_t *vstart, *vid;
    size_t v_cap;
    /* special tokens: the next hit of each in the text being encoded */
    size_t *sp_hit;
    size_t sp_cap;
};

/* Sets up t's id -> bytes table from n entries (bytes at key[i], len[i]).
 * 0 or -1 when out of memory. */
int bh_tok_set_ids(bh_tok *t, size_t n);
int bh_tok_set_id(bh_tok *t, size_t id, const void *p, size_t len);
/* Adds a special token; 0, or -1 when out of memory. */
int bh_tok_add_special(bh_tok *t, const char *s, size_t n, int32_t id);

/* Model encoders: append ids of text (no specials in it). 0 or -1 (OOM). */
int bh_bpe_encode(const bh_tok *t, bh_tok_ws *ws, const uint8_t *s, size_t n,
                  bh_tok_ids *out);
/* Encodes one pre-token with the merges or ranks. */
int bh_bpe_piece(const bh_bpe *b, bh_tok_ws *ws, const uint8_t *s, size_t n,
                 bh_tok_ids *out);
int bh_wp_encode(const bh_tok *t, bh_tok_ws *ws, const uint8_t *s, size_t n,
                 bh_tok_ids *out);
int bh_bert_normalize(const bh_wp *wp, const uint8_t *s, size_t n,
                      bh_tok_bytes *out);
int bh_spm_normalize(const bh_spm *m, const uint8_t *s, size_t n,
                     bh_tok_bytes *out);
int bh_spm_encode(const bh_tok *t, bh_tok_ws *ws, const uint8_t *s, size_t n,
                  bh_tok_ids *out);
int bh_spm_trie_build(bh_spm *m);
/* Precomputes the normalizer's ASCII fast path (after the charsmap and the
 * user-defined symbols are loaded). */
void bh_spm_norm_init(bh_spm *m);
void bh_spm_trie_free(bh_spm_trie *t);
int bh_spm_bpe(const bh_spm *m, bh_tok_ws *ws, const uint8_t *s, size_t n,
               bh_tok_ids *out);
/* Emits one SentencePiece output piece by its text (unknown merging and
 * byte fallback included); *prev_unk carries state between calls. */
int bh_spm_emit_piece(const bh_spm *m, const uint8_t *s, size_t n,
                      bool *prev_unk, bh_tok_ids *out);
int bh_spm_decode(const bh_tok *t, const int32_t *ids, size_t n,
                  bh_tok_bytes *out);
int bh_wp_decode(const bh_tok *t, const int32_t *ids, size_t n,
                 bh_tok_bytes *out);

/* Loaders: fill t (already zeroed) or return -1 with a message in err. */
int bh_load_tiktoken(bh_tok *t, const char *path, int pretok, char *err,
                     size_t cap);
int bh_load_gpt2(bh_tok *t, const char *encoder_json, const char *vocab_bpe,
                 char *err, size_t cap);
int bh_load_hf_json(bh_tok *t, const char *path, char *err, size_t cap);
int bh_load_bert_vocab(bh_tok *t, const char *path, bool lowercase,
                       char *err, size_t cap);
int bh_load_spm(bh_tok *t, const char *path, char *err, size_t cap);

/* Shared by the GPT-2 and tokenizer.json loaders (tok_load_bpe.c). */
struct cJSON;
int bh_bpe_vocab_from_json(bh_tok *t, const struct cJSON *vocab,
                           const char *path, char *err, size_t cap,
                           size_t *maxid);
int bh_bpe_add_merge(bh_tok *t, const char *a, size_t an, const char *b,
                     size_t bn, uint32_t rank, const char *path, size_t line,
                     char *err, size_t cap);
int bh_bpe_finish(bh_tok *t, size_t maxid, const char *path, char *err,
                  size_t cap);
/* Grows the id table to n ids (new ids have no text). 0 or -1. */
int bh_tok_extend_ids(bh_tok *t, size_t n);

/* GPT-2's byte <-> code point map (tok_bytelevel.c). */
uint32_t bh_bytelevel_cp(uint8_t b);
/* The byte whose code point is cp, or -1. */
int bh_bytelevel_byte(uint32_t cp);
/* Converts byte-level text (UTF-8 of mapped code points) back into raw
 * bytes in out (capacity >= n). Returns the length, or -1 when a code point
 * is not in the map. */
long bh_bytelevel_unmap(const char *s, size_t n, uint8_t *out);

/* WordPiece setup shared by vocab.txt and tokenizer.json: defaults, then
 * (after the vocab is in) the unk id, longest piece and specials. */
int bh_wp_init_defaults(bh_wp *wp);
int bh_wp_finish(bh_tok *t, const char *unk, const char *path, char *err,
                 size_t cap);

/* A minimal protobuf wire-format reader (tok_pb.c). */
typedef struct pb_rd {
    const uint8_t *p, *end;
} pb_rd;
/* Reads the next field: 1 when one was read (*field, *wt, and *v for
 * varint and fixed, or *data and *len for length-delimited), 0 at the end, -1 when
 * malformed. */
int bh_pb_next(pb_rd *r, uint32_t *field, uint32_t *wt, uint64_t *v,
               const uint8_t **data, size_t *len);

#endif /* TOK_INTERNAL_H */
