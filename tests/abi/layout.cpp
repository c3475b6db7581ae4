// SPDX-License-Identifier: MIT
/* layout.cpp -- the same frozen layout checks, compiled as C++. */
#include "layout.c"
