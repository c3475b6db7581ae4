// SPDX-License-Identifier: MIT
/* The text form of bhost info (see info_text.h). */
#include "info_text.h"

#include "ipc.h"

#include <stdio.h>
#include <string.h>

/* Width of the label column. */
#define LABEL 12

/* A field of o that is a number, or NULL. */
static const cJSON *num_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v : NULL;
}

/* bytes as "48 KiB", "2 MiB", "23.5 GiB" into buf. */
static const char *size_text(double bytes, char *buf, size_t cap)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    size_t u = 0;

    while (bytes >= 1024 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
        bytes /= 1024;
        u++;
    }
    snprintf(buf, cap, bytes == (double)(long long)bytes ? "%.0f %s" : "%.1f %s", bytes, unit[u]);
    return buf;
}

/* "n word" or "n words". */
static void count_text(FILE *out, const char *sep, const cJSON *o, const char *key,
                       const char *word)
{
    const cJSON *v = num_of(o, key);

    if (v)
        fprintf(out, "%s%.0f %s%s", sep, v->valuedouble, word, v->valuedouble == 1 ? "" : "s");
}

/* host: name, OS and virtualization. */
static void print_host(FILE *out, const cJSON *sys)
{
    const cJSON *os = cJSON_GetObjectItemCaseSensitive(sys, "os");

    fprintf(out, "  %-*s%s, %s %s %s", LABEL, "host", bh_json_str(sys, "hostname", "?"),
            bh_json_str(os, "sysname", "?"), bh_json_str(os, "release", ""),
            bh_json_str(os, "machine", ""));
    if (bh_json_str(sys, "virtualization", NULL))
        fprintf(out, ", virtualization %s", bh_json_str(sys, "virtualization", ""));
    fputc('\n', out);
}

/* cpu: model, vendor, counts and the flags that are set. */
static void print_cpu(FILE *out, const cJSON *cpu)
{
    const cJSON *flag;
    const char *sep = "";

    if (!cJSON_IsObject(cpu))
        return;
    fprintf(out, "  %-*s%s (%s", LABEL, "cpu", bh_json_str(cpu, "model", "?"),
            bh_json_str(cpu, "vendor", "?"));
    if (num_of(cpu, "family"))
        fprintf(out, ", family %.0f model %.0f stepping %.0f", bh_json_num(cpu, "family", 0),
                bh_json_num(cpu, "model_number", 0), bh_json_num(cpu, "stepping", 0));
    fprintf(out, ")\n  %-*s", LABEL, "");
    count_text(out, "", cpu, "logical_cores", "logical core");
    count_text(out, ", ", cpu, "physical_cores", "physical core");
    count_text(out, ", ", cpu, "sockets", "socket");
    count_text(out, ", ", cpu, "numa_nodes", "NUMA node");
    if (cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(cpu, "smt")))
        fprintf(out, ", SMT %s", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cpu, "smt"))
                                     ? "on" : "off");
    fprintf(out, "\n  %-*sflags:", LABEL, "");
    cJSON_ArrayForEach(flag, cJSON_GetObjectItemCaseSensitive(cpu, "flags")) {
        if (cJSON_IsTrue(flag)) {
            fprintf(out, " %s", flag->string);
            sep = "x";
        }
    }
    fprintf(out, "%s\n", *sep ? "" : " (none of those bhost looks for)");
}

/* caches: "L1d 48 KiB x2, L2 2 MiB x2, ...". */
static void print_caches(FILE *out, const cJSON *caches)
{
    const cJSON *c;
    const char *sep = "";
    char size[32];

    if (cJSON_GetArraySize(caches) == 0)
        return;
    fprintf(out, "  %-*s", LABEL, "caches");
    cJSON_ArrayForEach(c, caches) {
        const char *type = bh_json_str(c, "type", "");

        fprintf(out, "%sL%.0f%s %s x%.0f", sep, bh_json_num(c, "level", 0),
                strcmp(type, "data") == 0 ? "d" : strcmp(type, "instruction") == 0 ? "i" : "",
                size_text(bh_json_num(c, "size_bytes", 0), size, sizeof(size)),
                bh_json_num(c, "count", 1));
        sep = ", ";
    }
    fputc('\n', out);
}

/* memory: total and per NUMA node. */
static void print_memory(FILE *out, const cJSON *mem)
{
    const cJSON *node;
    char size[32];
    const char *sep = " (";

    if (!num_of(mem, "total_bytes"))
        return;
    fprintf(out, "  %-*s%s", LABEL, "memory",
            size_text(bh_json_num(mem, "total_bytes", 0), size, sizeof(size)));
    cJSON_ArrayForEach(node, cJSON_GetObjectItemCaseSensitive(mem, "numa")) {
        fprintf(out, "%snode %.0f: %s", sep, bh_json_num(node, "node", 0),
                size_text(bh_json_num(node, "bytes", 0), size, sizeof(size)));
        sep = ", ";
    }
    fprintf(out, "%s\n", *sep == ',' ? ")" : "");
}

/* frequency and kernel: their fields as key value pairs, nulls left out. */
static void print_pairs(FILE *out, const char *label, const cJSON *o)
{
    const cJSON *v;
    const char *sep = "";

    if (!cJSON_IsObject(o))
        return;
    fprintf(out, "  %-*s", LABEL, label);
    cJSON_ArrayForEach(v, o) {
        if (cJSON_IsString(v))
            fprintf(out, "%s%s %s", sep, v->string, *v->valuestring ? v->valuestring : "(none)");
        else if (cJSON_IsNumber(v))
            fprintf(out, "%s%s %g", sep, v->string, v->valuedouble);
        else if (cJSON_IsBool(v))
            fprintf(out, "%s%s %s", sep, v->string, cJSON_IsTrue(v) ? "yes" : "no");
        else
            continue;
        sep = ", ";
    }
    fprintf(out, "%s\n", *sep ? "" : "(unknown)");
}

void bh_info_print_system(FILE *out, const cJSON *sys)
{
    const cJSON *load = cJSON_GetObjectItemCaseSensitive(sys, "load_average");
    const cJSON *v;

    fputs("system:\n", out);
    print_host(out, sys);
    print_cpu(out, cJSON_GetObjectItemCaseSensitive(sys, "cpu"));
    print_caches(out, cJSON_GetObjectItemCaseSensitive(sys, "caches"));
    print_memory(out, cJSON_GetObjectItemCaseSensitive(sys, "memory"));
    print_pairs(out, "frequency", cJSON_GetObjectItemCaseSensitive(sys, "frequency"));
    print_pairs(out, "kernel", cJSON_GetObjectItemCaseSensitive(sys, "kernel"));
    if (cJSON_GetArraySize(load) > 0) {
        fprintf(out, "  %-*s", LABEL, "load");
        cJSON_ArrayForEach(v, load) fprintf(out, "%s%.2f", v == load->child ? "" : " ",
                                            cJSON_IsNumber(v) ? v->valuedouble : 0);
        fputs(" (1, 5, 15 min)\n", out);
    }
    fprintf(out, "  %-*s%s, %s, hwloc %s (API %s)\n", LABEL, "toolchain",
            bh_json_str(sys, "compiler", "?"), bh_json_str(sys, "libc", "?"),
            bh_json_str(sys, "hwloc_version", "?"), bh_json_str(sys, "hwloc_api_version", "?"));
    fprintf(out, "  %-*s%s\n", LABEL, "perf", bh_json_str(sys, "perf_counters", "?"));
    fprintf(out, "  %-*s%s\n", LABEL, "fingerprint", bh_json_str(sys, "fingerprint_hash", "?"));
}

void bh_info_print_backend(FILE *out, const cJSON *be)
{
    const cJSON *d;
    int n = (int)bh_json_num(be, "device_count", 0);
    char size[32];

    fprintf(out, "  %s (%s): %d device%s%s%s\n", bh_json_str(be, "id", "?"),
            bh_json_str(be, "path", "?"), n, n == 1 ? "" : "s",
            bh_json_str(be, "reason", NULL) ? ", " : "", bh_json_str(be, "reason", ""));
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(be, "devices"))
        fprintf(out, "    %d: %s [%s] driver %s, runtime %s, %s\n",
                (int)bh_json_num(d, "index", 0), bh_json_str(d, "name", "?"),
                bh_json_str(d, "vendor", "?"), bh_json_str(d, "driver_version", "-"),
                bh_json_str(d, "runtime_version", "-"),
                size_text(bh_json_num(d, "global_mem_bytes", 0), size, sizeof(size)));
}
