// SPDX-License-Identifier: MIT
/*
 * bhost/plugin.hpp -- optional C++ helpers for bhost plugins (C++11 and
 * later; header-only, nothing to link).
 *
 * The ABI is plugin.h; this header adds no binary interface of its own. It
 * exists because no C++ exception may cross the ABI (the specification,
 * share/doc/bhost/plugin-api.md section 4): every callback the host calls
 * must catch everything. Here:
 *
 *  - bhost::guard(h, f)      runs f, turning any exception into set_error()
 *                            plus a status: bhost::error carries its own,
 *                            std::bad_alloc is BHOST_E_NOMEM, everything
 *                            else BHOST_E_INTERNAL.
 *  - bhost::error            an exception carrying a status, e.g.
 *                            throw bhost::error(BHOST_E_SKIP, "n is odd").
 *  - bhost::context          what create() receives, with typed parameter
 *                            readers that throw bhost::error on failure.
 *  - bhost::describe<B>(...) a bhost_bench_desc whose callbacks construct,
 *                            drive and delete a B, each one guarded. B has
 *                            B(const bhost::context &), setup(stream),
 *                            run(stream, iterations), verify(), and
 *                            optionally flops_per_iter(), bytes_per_iter(),
 *                            items_per_iter() and (ABI 1.1)
 *                            work_profile(bhost_work_profile &). setup/run return void or a
 *                            bhost_status; verify returns void, bool (false
 *                            = BHOST_E_VERIFY) or a bhost_status.
 *  - bhost::factory_of<List, N>   a bhost_bench_factory over a static array.
 *
 * Thread rules are those of plugin.h: callbacks built here add no locking.
 */
#ifndef BHOST_PLUGIN_HPP
#define BHOST_PLUGIN_HPP

#include <bhost/plugin.h>

#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace bhost {

/* The slot holding the host API table from init(); one per plugin file
 * (hidden visibility keeps it private to the .so). [any-thread] */
inline const bhost_host_api *&host_api_slot() noexcept
{
    static const bhost_host_api *api = nullptr;
    return api;
}

/* The host API table, or nullptr before set_host_api(). [any-thread] */
inline const bhost_host_api *host_api() noexcept
{
    return host_api_slot();
}

/* Keeps api for the helpers below; call it from init(). Returns
 * BHOST_E_VERSION when api is NULL or older than the 1.0 table. [main] */
inline bhost_status set_host_api(const bhost_host_api *api) noexcept
{
    if (api == nullptr || !BHOST_HAS(bhost_host_api, api, get_extension))
        return BHOST_E_VERSION;
    host_api_slot() = api;
    return BHOST_OK;
}

/* Passes msg to the host's set_error() for case h (h may be NULL outside
 * a case); does nothing before set_host_api(). [any-thread] */
inline void report_error(bhost_host *h, const char *msg) noexcept
{
    const bhost_host_api *api = host_api();

    if (api != nullptr)
        api->set_error(h, msg);
}

/* Logs msg through the host for case h. [any-thread] */
inline void log_message(bhost_host *h, bhost_log_level level,
                        const char *msg) noexcept
{
    const bhost_host_api *api = host_api();

    if (api != nullptr)
        api->log(h, level, msg);
}

/* An exception that becomes a specific status at the ABI boundary. */
class error : public std::exception {
public:
    /* status should be negative; the message is shown with the case. */
    error(bhost_status status, std::string message)
        : status_(status), message_(std::move(message))
    {
    }
    const char *what() const noexcept override { return message_.c_str(); }
    bhost_status status() const noexcept { return status_; }

private:
    bhost_status status_;
    std::string message_;
};

namespace detail {

/* A callback result as a status: a status as is, bool as OK/VERIFY. */
inline bhost_status status_of(bhost_status st) noexcept { return st; }
inline bhost_status status_of(bool ok) noexcept
{
    return ok ? BHOST_OK : BHOST_E_VERIFY;
}

template <class F>
bhost_status invoke(F &f, std::true_type /* returns void */)
{
    f();
    return BHOST_OK;
}

template <class F>
bhost_status invoke(F &f, std::false_type /* returns a value */)
{
    return status_of(f());
}

} // namespace detail

/* Runs f() and returns its status (void means BHOST_OK, false means
 * BHOST_E_VERIFY). Any exception is caught here and never crosses the
 * ABI: its what() goes to set_error(h, ...) and the status is the
 * bhost::error's own, BHOST_E_NOMEM for std::bad_alloc, or
 * BHOST_E_INTERNAL. [same thread as the caller] */
template <class F> bhost_status guard(bhost_host *h, F &&f) noexcept
{
    try {
        return detail::invoke(f, std::is_void<decltype(f())>());
    } catch (const error &e) {
        report_error(h, e.what());
        return e.status() < 0 ? e.status() : BHOST_E_INTERNAL;
    } catch (const std::bad_alloc &e) {
        report_error(h, e.what());
        return BHOST_E_NOMEM;
    } catch (const std::exception &e) {
        report_error(h, e.what());
        return BHOST_E_INTERNAL;
    } catch (...) {
        report_error(h, "unknown C++ exception (not derived from "
                        "std::exception)");
        return BHOST_E_INTERNAL;
    }
}

/* Runs f() for a callback without a status (deinit, the *_per_iter
 * getters): an exception is logged as an error for case h and
 * fallback is returned. [same thread as the caller] */
template <class T, class F> T guard_value(bhost_host *h, T fallback, F &&f) noexcept
{
    try {
        return f();
    } catch (const std::exception &e) {
        log_message(h, BHOST_LOG_ERROR, e.what());
    } catch (...) {
        log_message(h, BHOST_LOG_ERROR, "unknown C++ exception");
    }
    return fallback;
}

/* What create() receives: the case handle, and the backend and device for
 * BHOST_BENCH_NEEDS_DEVICE benchmarks (NULL otherwise). Parameter readers
 * throw bhost::error(BHOST_E_INVALID, ...) when the host has no such
 * parameter of that type. [instance] */
struct context {
    bhost_host *host;
    const bhost_backend *backend;
    bhost_dev *device;

    std::int64_t i64(const char *key) const
    {
        std::int64_t v = 0;
        if (host_api()->param_i64(host, key, &v) != BHOST_OK)
            throw error(BHOST_E_INVALID, std::string("no I64 parameter '") +
                                             key + "'");
        return v;
    }
    double f64(const char *key) const
    {
        double v = 0;
        if (host_api()->param_f64(host, key, &v) != BHOST_OK)
            throw error(BHOST_E_INVALID, std::string("no F64 parameter '") +
                                             key + "'");
        return v;
    }
    bool boolean(const char *key) const { return i64(key) != 0; }
    std::string str(const char *key) const
    {
        std::uint32_t len = 0;
        if (host_api()->param_str(host, key, nullptr, 0, &len) != BHOST_OK)
            throw error(BHOST_E_INVALID, std::string("no STR parameter '") +
                                             key + "'");
        std::string s(static_cast<std::size_t>(len) + 1, '\0');
        host_api()->param_str(host, key, &s[0], len + 1, nullptr);
        s.resize(len);
        return s;
    }
    /* The run's seed: derive every random choice from it. */
    std::uint64_t seed() const { return host_api()->seed(host); }
    /* Reports an extra metric of a kind (ABI 1.1; a 1.0 host records a
     * PERFORMANCE metric as report_metric does and refuses the others);
     * throws on an invalid name or value. */
    void metric_kind(const char *name, const char *unit, bhost_metric_kind kind,
                     bhost_direction dir, double value, double limit = 0) const
    {
        const bhost_host_api *api = host_api();
        bhost_status st;

        if (BHOST_HAS(bhost_host_api, api, report_metric_kind))
            st = api->report_metric_kind(host, name, unit, kind, dir, value, limit);
        else if (kind == BHOST_METRIC_PERFORMANCE)
            st = api->report_metric(host, name, unit, dir, value);
        else
            st = BHOST_E_VERSION;
        if (st != BHOST_OK)
            throw error(BHOST_E_INVALID, std::string("host refused metric '") + name + "'");
    }
    /* Reports an extra metric; throws on an invalid name or value. */
    void metric(const char *name, const char *unit, bhost_direction dir,
                double value) const
    {
        if (host_api()->report_metric(host, name, unit, dir, value) !=
            BHOST_OK)
            throw error(BHOST_E_INVALID,
                        std::string("host refused metric '") + name + "'");
    }
};

namespace detail {

template <class...> struct voider {
    typedef void type;
};

#define BHOST_HPP_HAS_GETTER(name)                                             \
    template <class B, class = void> struct has_##name : std::false_type {};   \
    template <class B>                                                         \
    struct has_##name<B, typename voider<decltype(                             \
                             std::declval<B &>().name())>::type>               \
        : std::true_type {};
BHOST_HPP_HAS_GETTER(flops_per_iter)
BHOST_HPP_HAS_GETTER(bytes_per_iter)
BHOST_HPP_HAS_GETTER(items_per_iter)
#undef BHOST_HPP_HAS_GETTER

/* B has work_profile(bhost_work_profile &) (ABI 1.1). */
template <class B, class = void> struct has_work_profile : std::false_type {};
template <class B>
struct has_work_profile<B, typename voider<decltype(std::declval<B &>().work_profile(
                               std::declval<bhost_work_profile &>()))>::type>
    : std::true_type {};

typedef double(BHOST_ABI *per_iter_fn)(void *);
typedef bhost_status(BHOST_ABI *profile_fn)(void *, bhost_work_profile *);

/* One instance: the case handle kept next to the user's object, so that
 * every later callback can report errors for the right case. */
template <class B> struct holder {
    bhost_host *host;
    B bench;
    explicit holder(const context &c) : host(c.host), bench(c) {}
};

/* verify() returning bool: false becomes BHOST_E_VERIFY with a generic
 * message (throw bhost::error(BHOST_E_VERIFY, why) to say more). */
template <class B>
bhost_status verify_of(B &b, bhost_host *h, std::true_type /* bool */)
{
    if (b.verify())
        return BHOST_OK;
    report_error(h, "verify() returned false: the output differs from the "
                    "reference");
    return BHOST_E_VERIFY;
}

/* verify() returning void or a status: passed through. */
template <class B>
auto verify_of(B &b, bhost_host *, std::false_type /* not bool */)
    -> decltype(b.verify())
{
    return b.verify();
}

/* The C callbacks of a benchmark class B; every one is guarded. */
template <class B> struct adapter {
    static bhost_status BHOST_ABI create(bhost_host *h, const bhost_backend *be,
                                         bhost_dev *dev, void **inst) noexcept
    {
        return guard(h, [&]() {
            context c = {h, be, dev};
            *inst = new holder<B>(c);
        });
    }
    static bhost_status BHOST_ABI setup(void *inst, bhost_stream *s) noexcept
    {
        holder<B> *p = static_cast<holder<B> *>(inst);
        return guard(p->host, [&]() { return p->bench.setup(s); });
    }
    static bhost_status BHOST_ABI run(void *inst, bhost_stream *s,
                                      std::uint64_t iterations) noexcept
    {
        holder<B> *p = static_cast<holder<B> *>(inst);
        return guard(p->host, [&]() { return p->bench.run(s, iterations); });
    }
    static bhost_status BHOST_ABI verify(void *inst) noexcept
    {
        holder<B> *p = static_cast<holder<B> *>(inst);
        return guard(p->host, [&]() {
            return verify_of(p->bench, p->host,
                             std::is_same<decltype(p->bench.verify()),
                                          bool>());
        });
    }
    /* Destructors are noexcept: one that throws terminates, as in C++. */
    static void BHOST_ABI destroy(void *inst) noexcept
    {
        delete static_cast<holder<B> *>(inst);
    }
    static double BHOST_ABI flops(void *inst) noexcept
    {
        holder<B> *p = static_cast<holder<B> *>(inst);
        return guard_value(p->host, 0.0, [&]() {
            return static_cast<double>(p->bench.flops_per_iter());
        });
    }
    static double BHOST_ABI bytes(void *inst) noexcept
    {
        holder<B> *p = static_cast<holder<B> *>(inst);
        return guard_value(p->host, 0.0, [&]() {
            return static_cast<double>(p->bench.bytes_per_iter());
        });
    }
    static double BHOST_ABI items(void *inst) noexcept
    {
        holder<B> *p = static_cast<holder<B> *>(inst);
        return guard_value(p->host, 0.0, [&]() {
            return static_cast<double>(p->bench.items_per_iter());
        });
    }
    static bhost_status BHOST_ABI profile(void *inst, bhost_work_profile *out) noexcept
    {
        holder<B> *p = static_cast<holder<B> *>(inst);
        return guard(p->host, [&]() { p->bench.work_profile(*out); });
    }
    static constexpr profile_fn profile_fn_of(std::true_type) { return &profile; }
    static constexpr profile_fn profile_fn_of(std::false_type) { return nullptr; }
    static constexpr per_iter_fn flops_fn(std::true_type) { return &flops; }
    static constexpr per_iter_fn bytes_fn(std::true_type) { return &bytes; }
    static constexpr per_iter_fn items_fn(std::true_type) { return &items; }
    static constexpr per_iter_fn flops_fn(std::false_type) { return nullptr; }
    static constexpr per_iter_fn bytes_fn(std::false_type) { return nullptr; }
    static constexpr per_iter_fn items_fn(std::false_type) { return nullptr; }
};

} // namespace detail

/* A benchmark descriptor driving class B (see the top of this file).
 * params points to param_count static bhost_param_desc entries; flags are
 * BHOST_BENCH_*; required_caps the BHOST_CAP_* bits a device must have.
 * All strings and params must be static. */
template <class B>
constexpr bhost_bench_desc describe(const char *id, const char *summary,
                                    const bhost_param_desc *params = nullptr,
                                    std::uint32_t param_count = 0,
                                    std::uint32_t flags = 0,
                                    bhost_caps required_caps = 0)
{
    return bhost_bench_desc{
        static_cast<std::uint32_t>(sizeof(bhost_bench_desc)),
        flags,
        id,
        summary,
        params,
        param_count,
        0,
        required_caps,
        &detail::adapter<B>::create,
        &detail::adapter<B>::setup,
        &detail::adapter<B>::run,
        &detail::adapter<B>::verify,
        &detail::adapter<B>::destroy,
        detail::adapter<B>::flops_fn(detail::has_flops_per_iter<B>()),
        detail::adapter<B>::bytes_fn(detail::has_bytes_per_iter<B>()),
        detail::adapter<B>::items_fn(detail::has_items_per_iter<B>()),
        detail::adapter<B>::profile_fn_of(detail::has_work_profile<B>()),
    };
}

/* Parameter descriptors. min > max means unbounded (BHOST_UNBOUNDED). */
constexpr bhost_param_desc param_i64(const char *key, const char *summary,
                                     const char *default_value, double min,
                                     double max)
{
    return bhost_param_desc{static_cast<std::uint32_t>(
                                sizeof(bhost_param_desc)),
                            BHOST_PARAM_I64, key, summary, default_value,
                            nullptr, min, max};
}
constexpr bhost_param_desc param_f64(const char *key, const char *summary,
                                     const char *default_value, double min,
                                     double max)
{
    return bhost_param_desc{static_cast<std::uint32_t>(
                                sizeof(bhost_param_desc)),
                            BHOST_PARAM_F64, key, summary, default_value,
                            nullptr, min, max};
}
constexpr bhost_param_desc param_str(const char *key, const char *summary,
                                     const char *default_value,
                                     const char *const *choices)
{
    return bhost_param_desc{static_cast<std::uint32_t>(
                                sizeof(bhost_param_desc)),
                            BHOST_PARAM_STR, key, summary, default_value,
                            choices, BHOST_UNBOUNDED};
}
constexpr bhost_param_desc param_bool(const char *key, const char *summary,
                                      const char *default_value)
{
    return bhost_param_desc{static_cast<std::uint32_t>(
                                sizeof(bhost_param_desc)),
                            BHOST_PARAM_BOOL, key, summary, default_value,
                            nullptr, BHOST_UNBOUNDED};
}

/* A bhost_bench_factory over List[0..N): a static array of pointers to
 * static descriptors. Use: factory_of<benches, 2>::table. */
template <const bhost_bench_desc *const *List, std::uint32_t N>
struct factory_of {
    static std::uint32_t BHOST_ABI count() noexcept { return N; }
    static const bhost_bench_desc *BHOST_ABI get(std::uint32_t i) noexcept
    {
        return i < N ? List[i] : nullptr;
    }
    static constexpr bhost_bench_factory table()
    {
        return bhost_bench_factory{static_cast<std::uint32_t>(
                                       sizeof(bhost_bench_factory)),
                                   0, &count, &get};
    }
};

} // namespace bhost

#endif /* BHOST_PLUGIN_HPP */
