// SPDX-License-Identifier: MIT
/*
 * layout_assert.h -- the compile-time assertions of the frozen layout
 * checks (layout.c, layout_sci.c), for C11 and C++11 alike.
 */
#ifndef BH_LAYOUT_ASSERT_H
#define BH_LAYOUT_ASSERT_H

#include <stddef.h>

#ifdef __cplusplus
#define BH_ASSERT(cond, what) static_assert(cond, what)
#else
#define BH_ASSERT(cond, what) _Static_assert(cond, what)
#endif

#define SIZE(type, n) BH_ASSERT(sizeof(type) == (n), "sizeof(" #type ")")
#define OFFSET(type, field, n)                                                 \
    BH_ASSERT(offsetof(type, field) == (n), "offsetof(" #type ", " #field ")")
#define VALUE(expr, n) BH_ASSERT((expr) == (n), #expr)

#endif /* BH_LAYOUT_ASSERT_H */
