// SPDX-License-Identifier: MIT
// Shared by every compute shader of backend-vulkan: the element type T
// (float, or double when compiled with -DBH_F64) and the push-constant
// scalar type. Set 0 always has storage buffers at bindings 0, 1, 2.
#ifdef BH_F64
#define T double
#else
#define T float
#endif
