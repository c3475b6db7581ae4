// SPDX-License-Identifier: MIT
/*
 * sp_mmio.c -- the Matrix Market reader (NIST's exchange format: a banner
 * line, % comments, a size line "M N NNZ", then NNZ lines "I J [VALUE]",
 * 1-based). Only the sparse "coordinate" form is read, with real, integer
 * or pattern values and general, symmetric or skew-symmetric layout; every
 * other form, and every malformed, truncated or oversized file, is refused
 * with one line naming the file and line.
 */
#define _GNU_SOURCE
#include "sp_matrix.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct mm_reader {
    FILE *f;
    const char *name;
    char *line;
    size_t cap;
    long lineno;
    char *err;
    size_t errcap;
} mm_reader;

typedef enum { MM_REAL, MM_INTEGER, MM_PATTERN } mm_field;
typedef enum { MM_GENERAL, MM_SYMMETRIC, MM_SKEW } mm_symmetry;

/* Writes "NAME:LINE: message" into the reader's err; returns -1. */
static int mm_fail(mm_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int mm_fail(mm_reader *r, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(r->err, r->errcap, "%s:%ld: ", r->name, r->lineno);

    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->errcap)
        vsnprintf(r->err + n, r->errcap - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Reads the next line into r->line without its newline: 1, or 0 at the
 * end of the file, or -1 (err set) for a read error or a NUL byte. */
static int next_line(mm_reader *r)
{
    ssize_t n = getline(&r->line, &r->cap, r->f);

    if (n < 0) {
        if (ferror(r->f))
            return mm_fail(r, "cannot read: %s", strerror(errno ? errno : EIO));
        return 0;
    }
    r->lineno++;
    if (memchr(r->line, '\0', (size_t)n))
        return mm_fail(r, "expected text, found a NUL byte");
    while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
        r->line[--n] = '\0';
    return 1;
}

/* Like next_line, skipping % comments and blank lines. */
static int next_data_line(mm_reader *r)
{
    int rc;

    while ((rc = next_line(r)) == 1) {
        const char *p = r->line + strspn(r->line, " \t");

        if (*p != '%' && *p != '\0')
            return 1;
    }
    return rc;
}

/* Parses a decimal integer at *p after blanks; advances *p. 0 or -1. */
static int parse_int(const char **p, long long *out)
{
    char *end;

    *p += strspn(*p, " \t");
    if (!isdigit((unsigned char)**p) && **p != '-' && **p != '+')
        return -1;
    errno = 0;
    *out = strtoll(*p, &end, 10);
    if (errno || end == *p)
        return -1;
    *p = end;
    return 0;
}

/* Parses a finite decimal number at *p after blanks; advances *p. 0 or -1. */
static int parse_real(const char **p, double *out)
{
    char *end;

    *p += strspn(*p, " \t");
    errno = 0;
    *out = strtod(*p, &end);
    if (end == *p || !isfinite(*out) || (end[0] && !isspace((unsigned char)end[0])))
        return -1;
    *p = end;
    return 0;
}

/* Whether only blanks remain at p. */
static int at_end(const char *p)
{
    return p[strspn(p, " \t")] == '\0';
}

/* Reads the banner: "%%MatrixMarket matrix coordinate FIELD SYMMETRY". */
static int read_banner(mm_reader *r, mm_field *field, mm_symmetry *sym)
{
    char obj[32] = "", fmt[32] = "", fld[32] = "", sy[32] = "", extra[2] = "";
    int rc = next_line(r);

    if (rc <= 0)
        return rc < 0 ? -1
                      : (r->lineno = 1,
                         mm_fail(r, "expected a %%%%MatrixMarket banner, found an empty file"));
    if (strncmp(r->line, "%%MatrixMarket", 14) != 0 ||
        sscanf(r->line + 14, "%31s %31s %31s %31s %1s", obj, fmt, fld, sy, extra) != 4)
        return mm_fail(r, "expected \"%%%%MatrixMarket matrix coordinate FIELD SYMMETRY\"");
    if (strcasecmp(obj, "matrix") != 0)
        return mm_fail(r, "expected the object \"matrix\", found \"%s\"", obj);
    if (strcasecmp(fmt, "coordinate") != 0)
        return mm_fail(r,
                       "expected the \"coordinate\" format, found \"%s\" (a dense file is "
                       "not a sparse matrix)",
                       fmt);
    if (strcasecmp(fld, "real") == 0 || strcasecmp(fld, "double") == 0)
        *field = MM_REAL;
    else if (strcasecmp(fld, "integer") == 0)
        *field = MM_INTEGER;
    else if (strcasecmp(fld, "pattern") == 0)
        *field = MM_PATTERN;
    else
        return mm_fail(r, "expected the field real, integer or pattern, found \"%s\"", fld);
    if (strcasecmp(sy, "general") == 0)
        *sym = MM_GENERAL;
    else if (strcasecmp(sy, "symmetric") == 0)
        *sym = MM_SYMMETRIC;
    else if (strcasecmp(sy, "skew-symmetric") == 0)
        *sym = MM_SKEW;
    else
        return mm_fail(r, "expected general, symmetric or skew-symmetric, found \"%s\"", sy);
    return 0;
}

/* Reads "M N NNZ" and checks it against the limits. */
static int read_size(mm_reader *r, mm_symmetry sym, size_t max_entries, sp_coo *out, long long *nnz)
{
    long long m, n;
    const char *p;
    int rc = next_data_line(r);

    if (rc <= 0)
        return rc < 0 ? -1
                      : mm_fail(r, "expected the size line \"ROWS COLS ENTRIES\", found "
                                   "the end of the file");
    p = r->line;
    if (parse_int(&p, &m) || parse_int(&p, &n) || parse_int(&p, nnz) || !at_end(p))
        return mm_fail(r, "expected the size line \"ROWS COLS ENTRIES\" (three integers)");
    if (m < 1 || n < 1 || m > SP_MAX_DIM || n > SP_MAX_DIM)
        return mm_fail(r, "expected ROWS and COLS in [1, %d], found %lld x %lld", SP_MAX_DIM, m, n);
    if (sym != MM_GENERAL && m != n)
        return mm_fail(r, "expected a square matrix for a symmetric layout, found %lld x %lld", m,
                       n);
    if (*nnz < 0 || (double)*nnz > (double)m * (double)n)
        return mm_fail(r, "expected ENTRIES in [0, ROWS x COLS], found %lld", *nnz);
    if ((unsigned long long)*nnz > max_entries)
        return mm_fail(r, "%lld entries is too large: at most %zu are read", *nnz, max_entries);
    out->rows = (int32_t)m;
    out->cols = (int32_t)n;
    return 0;
}

/* Reads one entry line and appends it (and its mirror) to out. */
static int read_entry(mm_reader *r, mm_field field, mm_symmetry sym, size_t max_entries,
                      sp_coo *out)
{
    long long i, j, iv;
    double v = 1.0;
    const char *p = r->line;

    if (parse_int(&p, &i) || parse_int(&p, &j))
        return mm_fail(r, "expected an entry \"ROW COL%s\"", field == MM_PATTERN ? "" : " VALUE");
    if (i < 1 || i > out->rows || j < 1 || j > out->cols)
        return mm_fail(r, "expected ROW in [1, %d] and COL in [1, %d], found %lld %lld", out->rows,
                       out->cols, i, j);
    if (field == MM_INTEGER && parse_int(&p, &iv) == 0)
        v = (double)iv;
    else if (field == MM_INTEGER || (field == MM_REAL && parse_real(&p, &v) != 0))
        return mm_fail(r, "expected a finite %s value after ROW COL",
                       field == MM_INTEGER ? "integer" : "real");
    if (!at_end(p))
        return mm_fail(r, "expected the end of the entry, found \"%.20s\"", p + strspn(p, " \t"));
    if (sym == MM_SKEW && i == j)
        return mm_fail(r, "expected no diagonal entry in a skew-symmetric matrix");
    if (out->n + (sym != MM_GENERAL && i != j ? 2 : 1) > max_entries)
        return mm_fail(r, "too large: more than %zu entries with the mirrored ones", max_entries);
    if (sp_coo_push(out, (int32_t)(i - 1), (int32_t)(j - 1), v) != 0 ||
        (sym != MM_GENERAL && i != j &&
         sp_coo_push(out, (int32_t)(j - 1), (int32_t)(i - 1), sym == MM_SKEW ? -v : v) != 0))
        return mm_fail(r, "out of memory after %zu entries", out->n);
    return 0;
}

/* Reads the banner, size line, entries and the end of r's file. */
static int read_all(mm_reader *r, size_t max_entries, sp_coo *out)
{
    mm_field field = MM_REAL;
    mm_symmetry sym = MM_GENERAL;
    long long nnz;
    int rc;

    if (read_banner(r, &field, &sym) != 0 || read_size(r, sym, max_entries, out, &nnz) != 0)
        return -1;
    for (long long k = 0; k < nnz; k++) {
        if ((rc = next_data_line(r)) <= 0)
            return rc < 0 ? -1
                          : mm_fail(r, "expected %lld entries, found %lld (the file ends early)",
                                    nnz, k);
        if (read_entry(r, field, sym, max_entries, out) != 0)
            return -1;
    }
    if ((rc = next_data_line(r)) != 0)
        return rc < 0 ? -1 : mm_fail(r, "expected the end of the file after %lld entries", nnz);
    return 0;
}

int sp_mm_read(FILE *f, const char *name, size_t max_entries, sp_coo *out, char *err, size_t errcap)
{
    mm_reader r = {f, name, NULL, 0, 0, err, errcap};
    int rc;

    memset(out, 0, sizeof(*out));
    rc = read_all(&r, max_entries, out);
    free(r.line);
    if (rc != 0)
        sp_coo_free(out);
    return rc;
}
