// SPDX-License-Identifier: MIT
/*
 * template_cpp.cpp -- the C++ variant of the plugin template, written with
 * the optional helpers of <bhost/plugin.hpp>.
 *
 * One benchmark, "axpy": z = alpha * x + y over n floats (parameters n and
 * alpha), checked against a double-precision reference. The class below
 * is an ordinary C++ object: it may throw (std::vector allocations,
 * bhost::error for a status of its choice); bhost::describe<Axpy>() wraps
 * every callback so that no exception ever crosses the C ABI -- it becomes
 * set_error() plus a status instead.
 */
#include <bhost/plugin.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

const char plugin_name[] = "template_cpp";

/* One instance; constructed by create() with the case's parameters. */
class Axpy {
public:
    explicit Axpy(const bhost::context &c)
        : n_(static_cast<std::size_t>(c.i64("n"))), alpha_(c.f64("alpha")),
          seed_(c.seed())
    {
        if (!std::isfinite(alpha_))
            throw bhost::error(BHOST_E_INVALID, "alpha must be finite");
    }

    /* Untimed: inputs in [-1, 1) from the run's seed. */
    void setup(bhost_stream *)
    {
        std::uint64_t state = seed_;

        x_.resize(n_);
        y_.resize(n_);
        z_.assign(n_, 0.0f);
        for (std::size_t i = 0; i < n_; i++) {
            x_[i] = uniform(state);
            y_[i] = uniform(state);
        }
    }

    /* The timed work: 'iterations' times z = alpha * x + y. */
    void run(bhost_stream *, std::uint64_t iterations)
    {
        const float a = static_cast<float>(alpha_);

        for (std::uint64_t it = 0; it < iterations; it++) {
            bhost_clobber_memory();
            for (std::size_t i = 0; i < n_; i++)
                z_[i] = a * x_[i] + y_[i];
            bhost_do_not_optimize(z_.data());
        }
        ran_ = true;
    }

    /* Each element within two float roundings of the double reference. */
    void verify() const
    {
        const float a = static_cast<float>(alpha_);

        if (!ran_)
            throw bhost::error(BHOST_E_VERIFY, "verify before any run");
        for (std::size_t i = 0; i < n_; i++) {
            double ref = static_cast<double>(a) * x_[i] + y_[i];
            double tol = 2.0 * 0x1p-24 * (std::fabs(static_cast<double>(a) *
                                                    x_[i]) +
                                          std::fabs(y_[i])) +
                         1e-30;
            if (!(std::fabs(z_[i] - ref) <= tol))
                throw bhost::error(BHOST_E_VERIFY,
                                   std::string(plugin_name) + ": z[" +
                                       std::to_string(i) + "] = " +
                                       std::to_string(z_[i]) +
                                       ", reference " + std::to_string(ref));
        }
    }

    double flops_per_iter() const { return 2.0 * static_cast<double>(n_); }
    double bytes_per_iter() const { return 12.0 * static_cast<double>(n_); }

private:
    /* A float in [-1, 1) from a splitmix64 sequence. */
    static float uniform(std::uint64_t &state)
    {
        std::uint64_t z = (state += UINT64_C(0x9E3779B97F4A7C15));

        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        z ^= z >> 31;
        return static_cast<float>(static_cast<double>(z >> 11) * 0x1p-52 -
                                  1.0);
    }

    std::size_t n_;
    double alpha_;
    std::uint64_t seed_;
    std::vector<float> x_, y_, z_;
    bool ran_ = false;
};

const bhost_param_desc axpy_params[] = {
    bhost::param_i64("n", "Elements per vector", "65536", 1, 67108864),
    bhost::param_f64("alpha", "The scalar a in z = a x + y", "2.5", -1e6,
                     1e6),
};

const bhost_bench_desc axpy_desc = bhost::describe<Axpy>(
    "axpy", "z = alpha * x + y over float vectors", axpy_params,
    sizeof(axpy_params) / sizeof(axpy_params[0]));

const bhost_bench_desc *const benches[] = {&axpy_desc};

const bhost_bench_factory factory =
    bhost::factory_of<benches, sizeof(benches) / sizeof(benches[0])>::table();

/* Keeps the host API for the helpers. [main] */
bhost_status BHOST_ABI plugin_init(const bhost_host_api *api)
{
    return bhost::set_host_api(api);
}

/* Nothing to release. [main] */
void BHOST_ABI plugin_deinit(void) {}

/* The benchmark factory for BHOST_IFACE_BENCHMARKS, else NULL.
 * [any-thread] */
const void *BHOST_ABI plugin_get_interface(const char *id)
{
    if (id != nullptr && std::strcmp(id, BHOST_IFACE_BENCHMARKS) == 0)
        return &factory;
    return nullptr;
}

} // namespace

/* The one exported symbol; plugin.h declares it extern "C". */
const bhost_entry bhost_entry_v1 = {
    sizeof(bhost_entry),
    BHOST_ABI_MAJOR,
    BHOST_ABI_MINOR,
    0,
    "org.example.template-cpp",
    plugin_name,
    "0.1.0",
    "Template (C++): z = alpha * x + y with exception-safe callbacks",
    plugin_init,
    plugin_deinit,
    plugin_get_interface,
};
