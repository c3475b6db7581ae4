// SPDX-License-Identifier: MIT
/*
 * bh_be_loader.c -- what the backends' lazy loaders of a vendor runtime
 * share: finding the library (an environment override, then a list of
 * sonames), resolving symbols, and recording why loading stopped.
 */
#include <bhost/backend_helper.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *bh_be_dlopen(const char *env, const char *const *names, size_t n,
                   char *name, size_t cap, const char **err)
{
    void *lib = NULL;
    const char *file = getenv(env);

    *err = "not found";
    if (file != NULL && *file != '\0') {
        lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        if (name != NULL)
            snprintf(name, cap, "%s", file);
        if (lib == NULL)
            *err = dlerror();
    }
    for (size_t i = 0; lib == NULL && i < n; i++) {
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (name != NULL)
            snprintf(name, cap, "%s", names[i]);
        if (lib == NULL)
            *err = dlerror();
    }
    return lib;
}

int bh_be_sym(void *lib, const char *name, void *slot)
{
    void *p = dlsym(lib, name);

    memcpy(slot, &p, sizeof(p));
    return p != NULL;
}

bhost_status bh_be_stop(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return BHOST_E_UNSUPPORTED;
}
