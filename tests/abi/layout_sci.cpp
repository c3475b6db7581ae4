// SPDX-License-Identifier: MIT
/* layout_sci.cpp -- the sci_kernels.h layout checks, compiled as C++. */
#include "layout_sci.c"
