// SPDX-License-Identifier: MIT
/*
 * ie_file.h -- weight files as a directory of tensors: the safetensors and
 * GGUF parsers (over a byte buffer, so they can be fuzzed without a file),
 * the read-only mapping of a file, and element conversion to f32.
 *
 * Parsers never trust the input: every length, count, offset and shape is
 * checked against the buffer before use; on failure they return IE_EFILE
 * with one line in err saying what was expected, and own nothing.
 */
#ifndef IE_FILE_H
#define IE_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Element types a tensor may have. Only F32, F16, BF16 and F64 convert. */
enum {
    IE_T_F32 = 1,
    IE_T_F16,
    IE_T_BF16,
    IE_T_F64,
    IE_T_OTHER /* integer, bool, fp8 or a quantized GGUF type */
};

#define IE_MAX_DIMS 4

typedef struct ie_tensor {
    const char *name;  /* NUL-terminated, owned by the directory */
    int type;          /* IE_T_* */
    int ndim;
    uint64_t shape[IE_MAX_DIMS]; /* outermost first (row-major) */
    const void *data;  /* inside the parsed buffer; NULL for IE_T_OTHER */
    uint64_t nbytes;
    char type_name[16]; /* as the file names it: "F32", "q4_0", ... */
} ie_tensor;

/* GGUF metadata the loader checks against the model shape (-1 / 0 when
 * absent). */
typedef struct ie_file_meta {
    char arch[32];
    int64_t block_count, embedding_length, feed_forward_length;
    int64_t head_count, head_count_kv, context_length;
    double norm_eps, rope_base;
} ie_file_meta;

typedef struct ie_tensor_dir {
    ie_tensor *t;
    int n;
    int gguf; /* 1: GGUF naming and layout conventions */
    ie_file_meta meta;
    char *strings; /* name storage */
} ie_tensor_dir;

/* Parses a safetensors image (8-byte header length, JSON header, data). */
int ie_st_parse(const uint8_t *buf, size_t len, ie_tensor_dir *out,
                char *err, size_t cap);

/* Parses a GGUF v2/v3 image. */
int ie_gguf_parse(const uint8_t *buf, size_t len, ie_tensor_dir *out,
                  char *err, size_t cap);

void ie_tensor_dir_free(ie_tensor_dir *d);

/* The tensor called name, or NULL. */
const ie_tensor *ie_tensor_find(const ie_tensor_dir *d, const char *name);

/* Element i of t as f32 (t->type F32, F16, BF16 or F64). */
float ie_tensor_get(const ie_tensor *t, uint64_t i);

/* Bytes per element of a convertible type, else 0. */
size_t ie_type_size(int type);

/* A whole file in memory: a read-only mapping, or a heap copy read(). */
typedef struct ie_mapped {
    const uint8_t *data;
    size_t len;
    int heap; /* 1: data is malloc'd (ie_read_file) */
} ie_mapped;

/* Bytes one read() call of ie_read_file asks for. */
#define IE_READ_CHUNK ((size_t)8 << 20)

/* Maps path; IE_EFILE with "PATH: why" in err on failure. */
int ie_map_file(const char *path, ie_mapped *out, char *err, size_t cap);

/* Reads path whole into a heap buffer with read() calls of IE_READ_CHUNK
 * bytes; IE_EFILE with "PATH: why" in err on failure. */
int ie_read_file(const char *path, ie_mapped *out, char *err, size_t cap);

/* Unmaps or frees what ie_map_file or ie_read_file gave, and zeroes m. */
void ie_unmap_file(ie_mapped *m);

/* Parses a mapped file as GGUF (magic "GGUF") or safetensors; the error
 * line is prefixed with path. */
int ie_parse_file(const char *path, const ie_mapped *m, ie_tensor_dir *out,
                  char *err, size_t cap);

/* Fills model m (allocated, see ie_internal.h) from a parsed directory;
 * path only names the file in messages. */
struct ie_model;
int ie_model_load_dir(struct ie_model *m, const ie_tensor_dir *dir,
                      const char *path);

/* Writes m's weights to path as a safetensors file with Hugging Face names
 * (gguf 0) or a GGUF v3 file with llama.cpp names (gguf 1), elements as
 * type ("F32", "F16" or "BF16"): a file ie_model_create() loads back into
 * the same model. 0, or -1 (errno from the failing call; path may be left
 * half-written) when memory is short, a write fails or type is unknown. */
int ie_model_write(const struct ie_model *m, const char *path, int gguf, const char *type);

#endif /* IE_FILE_H */
