// SPDX-License-Identifier: MIT
// Anchor for bhost's host-overhead figure: Google Benchmark's empty loop,
// the per-iteration cost of the harness itself (libbenchmark-dev).
#include <benchmark/benchmark.h>

#include <cstdint>

static void BM_empty(benchmark::State &state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(state.iterations());
}
BENCHMARK(BM_empty);

static void BM_counter(benchmark::State &state)
{
    std::uint64_t counter = 0;
    for (auto _ : state) {
        counter++;
        benchmark::DoNotOptimize(counter);
    }
}
BENCHMARK(BM_counter);

BENCHMARK_MAIN();
