// SPDX-License-Identifier: MIT
/* The "virtualization" field: which hypervisor, if any, this system runs
 * under. Sources, in order: /sys/hypervisor/type (Xen and some others), the
 * x86 CPUID hypervisor bit and vendor leaf, the "hypervisor" flag of
 * /proc/cpuinfo (what the kernel saw, also right under valgrind's CPUID). */
#define _GNU_SOURCE
#include "sysinfo_internal.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* Maps a 12-byte CPUID hypervisor vendor signature to a short name, or NULL
 * when unknown (x86 only: other machines have no CPUID). */
static const char *vendor_name(const char sig[12])
{
    static const struct {
        const char sig[13];
        const char *name;
    } known[] = {
        {"KVMKVMKVM\0\0\0", "kvm"},  {"Linux KVM Hv", "kvm"},
        {"Microsoft Hv", "hyperv"},  {"VMwareVMware", "vmware"},
        {"XenVMMXenVMM", "xen"},     {"TCGTCGTCGTCG", "qemu"},
        {"bhyve bhyve ", "bhyve"},   {" lrpepyh  vr", "parallels"},
        {"ACRNACRNACRN", "acrn"},    {"VBoxVBoxVBox", "virtualbox"},
        {"QNXQVMBSQG\0\0", "qnx"},
    };

    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (memcmp(sig, known[i].sig, 12) == 0)
            return known[i].name;
    return NULL;
}
#endif

/* Reads the CPUID hypervisor state: returns true when the hypervisor bit is
 * set, with *name the vendor's short name or NULL when unrecognised. False
 * on non-x86 machines. */
static bool cpuid_hypervisor(const char **name)
{
    *name = NULL;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    char sig[12];

    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
        return false;
    __cpuid(0x40000000u, a, b, c, d);
    memcpy(sig, &b, 4);
    memcpy(sig + 4, &c, 4);
    memcpy(sig + 8, &d, 4);
    *name = vendor_name(sig);
    return true;
#else
    return false;
#endif
}

/* True when /proc/cpuinfo's flags list the "hypervisor" flag. */
static bool cpuinfo_hypervisor(void)
{
    char *flags = bh_sysinfo_cpuinfo_value("flags");
    char *save = NULL;
    bool found = false;

    for (char *tok = flags ? strtok_r(flags, " \t", &save) : NULL; tok && !found;
         tok = strtok_r(NULL, " \t", &save))
        found = strcmp(tok, "hypervisor") == 0;
    free(flags);
    return found;
}

/* Adds "virtualization" to root: the hypervisor's short name ("kvm", "xen",
 * "hyperv", ...), "unknown" when virtualized by an unrecognised one, or
 * "none". Never fails. */
void bh_sysinfo_add_virtualization(cJSON *root)
{
    char *sys = bh_sysinfo_read_line("/sys/hypervisor/type");
    const char *name = NULL;
    bool virt;

    if (sys && *sys) {
        cJSON_AddStringToObject(root, "virtualization", sys);
        free(sys);
        return;
    }
    free(sys);
    virt = cpuid_hypervisor(&name);
    if (!virt)
        virt = cpuinfo_hypervisor();
    cJSON_AddStringToObject(root, "virtualization",
                            name ? name : virt ? "unknown" : "none");
}
