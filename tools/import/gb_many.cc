// SPDX-License-Identifier: MIT
// A Google Benchmark program with N registered benchmarks (N from the
// environment variable GB_MANY, default 1000), for measuring `bhost
// import gbench` on a large real file (tools/bench-import.sh) and for the
// import tests' seeds: each benchmark sums a small array whose length
// depends on its index, so the benchmarks differ but run in microseconds.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

static void sum_array(benchmark::State &state, int len)
{
    std::vector<int> v(static_cast<size_t>(len), 1);
    for (auto _ : state) {
        long s = 0;
        for (int x : v)
            s += x;
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(state.iterations() * len);
}

int main(int argc, char **argv)
{
    const char *env = std::getenv("GB_MANY");
    int n = env ? std::atoi(env) : 1000;

    for (int i = 0; i < n; i++)
        benchmark::RegisterBenchmark(("BM_sum/" + std::to_string(i)).c_str(), sum_array,
                                     1 + i % 64);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
