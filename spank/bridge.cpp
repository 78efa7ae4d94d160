// SPDX-License-Identifier: Apache-2.0
// The C++ side of the topoplace SPANK plugin. Every entry goes through guarded(): no
// exception crosses into Slurm. No threads, no non-trivial globals (one heap context, freed
// in exit), nothing loaded in slurm_spank_init: the snapshot is read only when a job asks
// for placement (allocator/local) or rail environment (remote user_init).
#include "bridge.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <time.h>
#include <unistd.h>

#include "slurm_compat.hpp"

#include <topo/hostlist.hpp>
#include <topo/snapshot.hpp>
#include <topo/snapshot_bin.hpp>

#include "core.hpp"
#include "service.hpp"
#include "slurm_nodes.hpp"
#include "state_cache.hpp"

namespace {

using namespace topo;
using namespace topo::spank;

struct Ctx {
    Config cfg;
    bool cfg_ok = false;
    Options opts;
    std::string opt_error;  // first invalid option value (also reported by its callback)
    TopologyPtr topo;       // remote: loaded in user_init, shared by the forked tasks
};

Ctx* g_ctx = nullptr;  // trivially destructible; owned object freed in slurm_spank_exit

template <class F>
int guarded(const char* where, F&& f) noexcept {
    try {
        return std::forward<F>(f)();
    } catch (const std::exception& e) {
        slurm_error("topoplace: %s: %s", where, e.what());
    } catch (...) {
        slurm_error("topoplace: %s: unknown exception", where);
    }
    return -1;  // 22.05-24.11 count only negative returns as failure
}

std::vector<std::string> args_of(int ac, char** av) {
    std::vector<std::string> v;
    v.reserve(static_cast<std::size_t>(std::max(ac, 0)));
    for (int i = 0; i < ac; ++i)
        v.emplace_back(av[i] != nullptr ? av[i] : "");
    return v;
}

Ctx& ctx() {
    if (g_ctx == nullptr) g_ctx = new Ctx();
    return *g_ctx;
}

// ------------------------------------------------------------------ options
int opt_cb(int val, const char* optarg, int remote) noexcept {
    return guarded("option", [&]() -> int {
        Ctx& c = ctx();
        Error err;
        bool ok = true;
        switch (val) {
            case 0: {
                auto m = parse_mode(optarg);
                if (m)
                    c.opts.mode = *m;
                else {
                    ok = false;
                    err = m.error();
                }
                break;
            }
            case 1: {
                auto t = parse_max_tier(optarg);
                if (t)
                    c.opts.max_tier = *t;
                else {
                    ok = false;
                    err = t.error();
                }
                break;
            }
            case 2:
                c.opts.nvl = true;
                break;
            case 3: {
                auto s = parse_segment(optarg);
                if (s)
                    c.opts.segment = *s;
                else {
                    ok = false;
                    err = s.error();
                }
                break;
            }
            case 4:
                c.opts.explain = true;
                break;
            default:
                ok = false;
                err = Error(Errc::Internal, "unknown option value");
        }
        if (ok) return 0;
        if (c.opt_error.empty()) c.opt_error = err.message;
        // remote: the value was already accepted by sbatch/srun; a mismatch means a
        // different plugin build on the node. Report, never fail the step for it.
        slurm_error("topoplace: %s", err.message.c_str());
        return remote != 0 ? 0 : -1;
    });
}

struct spank_option g_options[] = {
    {const_cast<char*>("topo"), const_cast<char*>("MODE"),
     const_cast<char*>("topoplace: place the job topology-aware: pack (fewest leaf groups and switch tiers "
                       "that fit now), spread (round-robin over leaf groups) or off"),
     1, 0, opt_cb},
    {const_cast<char*>("topo-max-tier"), const_cast<char*>("N"),
     const_cast<char*>("topoplace: never cross a switch tier above N (0 = one leaf group)"), 1, 1, opt_cb},
    {const_cast<char*>("topo-nvl"), nullptr,
     const_cast<char*>("topoplace: keep all nodes in one multi-node NVLink domain"), 0, 2, opt_cb},
    {const_cast<char*>("topo-segment"), const_cast<char*>("S"),
     const_cast<char*>("topoplace: nodes come in segments of S, each inside one leaf group"), 1, 3, opt_cb},
    {const_cast<char*>("topo-explain"), nullptr, const_cast<char*>("topoplace: print the placement decision and why"),
     0, 4, opt_cb},
};

// ------------------------------------------------------------------ helpers
/// on_error policy for a plugin-side failure in allocator/local context.
int on_error(const Ctx& c, const std::string& what) {
    if (c.cfg.on_error == OnError::Fail) {
        slurm_error("topoplace: %s (on_error=fail: job refused)", what.c_str());
        return -1;
    }
    slurm_error("topoplace: %s (on_error=warn: job submitted without topology placement)", what.c_str());
    return 0;
}

/// One option of the request being built by sbatch/salloc/srun (read-only use of the
/// exported `opt` and slurm_option_get(); see docs/spank.md "Reading the request").
using option_get_f = char* (*)(void*, const char*);
using xfree_f = void (*)(void**);

std::optional<SlurmRequest> read_request() {
    void* opt = dlsym(RTLD_DEFAULT, "opt");
    auto get = reinterpret_cast<option_get_f>(dlsym(RTLD_DEFAULT, "slurm_option_get"));
    auto xf = reinterpret_cast<xfree_f>(dlsym(RTLD_DEFAULT, "slurm_xfree"));
    if (opt == nullptr || get == nullptr) return std::nullopt;
    auto one = [&](const char* name) {
        std::string s;
        if (char* v = get(opt, name)) {
            s = v;
            if (xf != nullptr) xf(reinterpret_cast<void**>(&v));
        }
        return s;
    };
    SlurmRequest r;
    r.nodes = one("nodes");
    r.gpus_per_node = one("gpus-per-node");
    r.gres = one("gres");
    r.gpus = one("gpus");
    r.exclusive = one("exclusive");
    r.nodelist = one("nodelist");
    r.exclude = one("exclude");
    return r;
}

Mode effective_mode(const Ctx& c) {
    if (c.opts.mode) return *c.opts.mode;
    if (c.opts.max_tier >= 0 || c.opts.nvl || c.opts.segment > 0) return Mode::Pack;
    return c.cfg.default_mode;
}

void explain(const Ctx& c, const std::string& text) {
    if (c.opts.explain)
        slurm_spank_log("topoplace: %s", text.c_str());
    else
        slurm_verbose("topoplace: %s", text.c_str());
}

/// The user's state cache file for this cluster and topology ("" = state_cache off, or no
/// private directory for it).
std::string state_cache_path(const Ctx& c, const Topology& topo) {
    if (c.cfg.state_cache <= 0) return {};
    std::string why;
    const auto dir = state_cache_dir(::getuid(), std::getenv("XDG_RUNTIME_DIR"), "/run/user", "/tmp", &why);
    if (dir.empty()) {
        slurm_debug("topoplace: no state cache: %s", why.c_str());
        return {};
    }
    const char* conf = std::getenv("SLURM_CONF");
    return state_cache_file(dir, conf != nullptr ? conf : "", topo.fingerprint());
}

constexpr int kServiceTimeoutMs = 500;  // the whole exchange; then the plugin decides itself

bool g_from_bin = false;  // the last load_model() used the compiled form (for --topo-explain)

/// The snapshot through its compiled form "<snapshot>.bin" when that is root-owned, not
/// group/world-writable and made from the JSON as it is now; otherwise the JSON, silently
/// (the reason at debug level): the same model and fingerprint either way (docs/spank.md "Cost").
/// The compiled form is checked by its payload checksum; its recorded fingerprint is not
/// recomputed (BinCheck::Checksum; `topoplace compile --check` does the full check).
Result<TopologyPtr> load_model(const std::string& path) {
    auto r = load_snapshot_fast(path, 0, BinCheck::Checksum);
    if (!r) return fail(std::move(r).error());
    g_from_bin = r->from_bin;
    if (!r->from_bin) slurm_debug("topoplace: compiled snapshot not used: %s", r->why_not_bin.c_str());
    return std::move(r->topo);
}

/// A request that gets no plan, decided in-process or by the service: refused before
/// submission (invalid, can never fit) or submitted without a plan (unsupported, busy).
int without_plan(const Ctx& c, ServiceReply::Kind kind, const std::string& why) {
    switch (kind) {
        case ServiceReply::Kind::Invalid:
            slurm_error("topoplace: %s", why.c_str());
            return -1;
        case ServiceReply::Kind::Never:
            slurm_error("topoplace: the request can never be placed: %s", why.c_str());
            return -1;
        case ServiceReply::Kind::Busy:
            // no plan; Slurm's own topology decides when nodes free up
            explain(c, "no placement fits now (" + why + "); the job is left to Slurm's topology/tree");
            return 0;
        default:  // Unsupported (e.g. -w: the user chose the nodes)
            explain(c, why);
            return 0;
    }
}

/// Hand a plan's variables to slurmctld (job_submit.lua reads them). nullopt = all set, else
/// what the decision returns (on_error).
std::optional<int> hand_off(spank_t sp, const Ctx& c, const std::vector<std::pair<std::string, std::string>>& env) {
    for (const auto& [k, v] : env) {
        if (v.empty()) continue;
        if (spank_job_control_setenv(sp, k.c_str(), v.c_str(), 1) != ESPANK_SUCCESS) {
            return on_error(c, "spank_job_control_setenv(" + k + ") failed");
        }
    }
    return std::nullopt;
}

/// The placement service (service=, topoplace-nodefeed --socket): the decision made by a
/// process that holds the model and the node state in memory. nullopt = no answer worth
/// taking (no service, another snapshot, a timeout, a malformed reply): decide in-process.
template <class Elapsed>
std::optional<int> ask_service(spank_t sp, const Ctx& c, Mode mode, Elapsed elapsed_ms) {
    auto sr = read_request();
    if (!sr) return std::nullopt;
    ServiceRequest q;
    q.snapshot = c.cfg.snapshot;
    q.health = c.cfg.health;
    q.sr = *sr;
    q.opts = c.opts;
    q.opts.mode = mode;
    q.wait = c.cfg.wait;
    auto rep = call_service(c.cfg.service, q, kServiceTimeoutMs);
    if (!rep || rep->kind == ServiceReply::Kind::Refused) {
        slurm_debug("topoplace: service not used: %s", rep ? rep->message.c_str() : rep.error().to_string().c_str());
        return std::nullopt;
    }
    if (rep->kind != ServiceReply::Kind::Planned) return without_plan(c, rep->kind, rep->message);
    if (auto failed = hand_off(sp, c, rep->env)) return failed;
    explain(c, rep->text + " [ms: service " + elapsed_ms() + "]");
    return 0;
}

int decide(spank_t sp, Ctx& c) {
    const Mode mode = effective_mode(c);
    if (mode == Mode::Off) {
        if (c.opts.explain) explain(c, "placement off for this job");
        return 0;
    }
    if (c.cfg.snapshot.empty()) return on_error(c, "no snapshot= in plugstack.conf");
    using clock = std::chrono::steady_clock;
    auto ms = [](clock::time_point a, clock::time_point b) {
        return std::to_string(std::chrono::duration<double, std::milli>(b - a).count()).substr(0, 5);
    };
    const auto t0 = clock::now();
    if (!c.cfg.service.empty()) {
        if (auto done = ask_service(sp, c, mode, [&] { return ms(t0, clock::now()); })) return *done;
    }
    auto topo = load_model(c.cfg.snapshot);
    if (!topo) return on_error(c, "cannot load snapshot: " + topo.error().to_string());
    auto sr = read_request();
    if (!sr) return on_error(c, "cannot read the job request (no exported opt/slurm_option_get in this client)");
    auto req = make_request(**topo, *sr, c.opts);
    if (!req) return without_plan(c, request_refusal(req.error().code), req.error().message);
    const auto t1 = clock::now();
    // Node state: the user's recent copy (state_cache=S, state_cache.hpp), else one
    // slurm_load_node RPC. A cached state on which the job does not fit now is not trusted
    // (it holds this user's earlier plans as taken, some of which may have ended): the RPC is
    // made and the job placed again.
    const std::string cache_path = state_cache_path(c, **topo);
    std::string nodes_from = "rpc";
    std::int64_t taken_ns = 0;
    std::optional<placement::ClusterState> state;
    // A state read from a file (`read` gives it and its age): taken when valid, its read time
    // kept for the cache write below; why not at debug level (a missing cache file is normal).
    auto from_file = [&](const char* label, const char* what, bool missing_is_normal, auto read) {
        const std::int64_t now = realtime_ns();
        double age = 0;
        auto r = read(now, &age);
        if (r) {
            state = std::move(*r);
            taken_ns = now - static_cast<std::int64_t>(age * 1e9);
            nodes_from = std::string(label) + " " + std::to_string(age).substr(0, 4) + " s";
        } else if (!(missing_is_normal && r.error().code == Errc::NotFound)) {
            slurm_debug("topoplace: state %s not used: %s", what, r.error().to_string().c_str());
        }
    };
    if (!cache_path.empty()) {
        from_file("cached", "cache", true, [&](std::int64_t now, double* age) {
            return read_state_cache(cache_path, **topo, ::getuid(), c.cfg.state_cache, now, age);
        });
    }
    // The shared feed (state_feed=, topoplace-nodefeed): the node table as slurmctld had it
    // at most state_feed_age seconds ago, read by root's feed instead of by this submission.
    if (!state && !c.cfg.state_feed.empty()) {
        from_file("feed", "feed", false, [&](std::int64_t now, double* age) {
            return read_state_feed(c.cfg.state_feed, **topo, c.cfg.state_feed_age, now, age);
        });
    }
    clock::time_point t1n;
    clock::time_point t2;
    // unhealthy hosts from the health store: excluded from the job, flagged in the state
    HealthFlags health;  // unhealthy (excluded) and degraded hosts
    std::vector<std::string> exclude;
    placement::Request job = *req;
    Result<placement::Placement> p = fail(Errc::Internal, "not placed");
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!state) {
            taken_ns = realtime_ns();
            auto st = load_node_state(**topo);
            if (!st) return on_error(c, st.error().to_string());
            state = std::move(*st);
            nodes_from = "rpc";
        }
        t1n = clock::now();
        if (attempt == 0 && !c.cfg.health.empty()) {  // read once, applied to every state tried
            std::vector<std::string> warns;
            auto bad = health_flags(**topo, c.cfg.health, &warns);
            for (const auto& w : warns) slurm_verbose("topoplace: %s", w.c_str());
            if (!bad) return on_error(c, "health store: " + bad.error().to_string());
            health = std::move(*bad);
            for (const auto& [h, reason] : health.unhealthy) {
                job.excluded.push_back(h);
                exclude.push_back((*topo)->host(h).name);
            }
        }
        state->mark_health(health.unhealthy, health.degraded);
        t2 = clock::now();
        p = placement::place(**topo, *state, job, mode == Mode::Spread ? placement::Policy::Spread : placement::Policy::Topo);
        if (p || nodes_from == "rpc" || p.error().code != Errc::Busy) break;
        state.reset();  // from the cache and busy there: ask slurmctld
    }
    const auto t3 = clock::now();
    if (!cache_path.empty() && (p || nodes_from == "rpc")) {
        // the next submission of this user sees this decision's hosts taken
        if (auto w = write_state_cache(cache_path, **topo, *state, p ? &*p : nullptr, job.exclusive, taken_ns); !w)
            slurm_debug("topoplace: state cache not written: %s", w.error().to_string().c_str());
    }
    if (!p) return without_plan(c, placement_refusal(p.error().code), p.error().message);
    const auto t4 = clock::now();
    health.exclude_degraded(**topo, p->hosts, exclude);
    Plan plan = make_plan(**topo, *p, mode, c.cfg.wait, exclude, &c.opts);
    if (auto failed = hand_off(sp, c, plan_env(plan))) return *failed;
    std::string text = plan_text(mode, plan, *p);
    // the decision's own cost, per step (docs/spank.md "Cost"; t-spank.sh section 7 prints it)
    text += " [ms: snapshot " + ms(t0, t1) + (g_from_bin ? " (compiled)" : " (json)") + ", nodes " + ms(t1, t1n) + " (" + nodes_from + ")" + ", health " + ms(t1n, t2) + ", place "
            + ms(t2, t3) + (cache_path.empty() ? std::string() : ", cache write " + ms(t3, t4)) + "]";
    explain(c, text);
    return 0;
}

std::string spank_env(spank_t sp, const char* name) {
    char buf[8192];
    if (spank_getenv(sp, name, buf, sizeof buf) == ESPANK_SUCCESS) return buf;
    return {};
}

bool has_spank_env(spank_t sp, const char* name) {
    char buf[8192];
    return spank_getenv(sp, name, buf, sizeof buf) == ESPANK_SUCCESS;
}

/// Physical GPU indices of this task: CUDA_VISIBLE_DEVICES when its values are physical
/// (members of SLURM_STEP_GPUS/SLURM_JOB_GPUS, i.e. no device cgroup renumbering), else
/// the step's (or job's) GPU list.
std::vector<int> task_gpus(spank_t sp) {
    auto parse = [](const std::string& s) {
        auto v = parse_gpu_list(s);
        return v ? *v : std::vector<int>{};
    };
    std::vector<int> cvd = parse(spank_env(sp, "CUDA_VISIBLE_DEVICES"));
    std::vector<int> step = parse(spank_env(sp, "SLURM_STEP_GPUS"));
    if (step.empty()) step = parse(spank_env(sp, "SLURM_JOB_GPUS"));
    if (step.empty()) return cvd;
    if (cvd.empty()) return step;
    for (int g : cvd) {
        if (std::find(step.begin(), step.end(), g) == step.end()) return step;
    }
    return cvd;
}

}  // namespace

extern "C" {

int topo_spank_init(spank_t sp, int ac, char** av) noexcept {
    return guarded("init", [&]() -> int {
        const spank_context_t where = spank_context();
        if (where == S_CTX_SLURMD || where == S_CTX_JOB_SCRIPT || where == S_CTX_ERROR) return 0;
        Ctx& c = ctx();
        auto cfg = parse_config(args_of(ac, av));
        if (!cfg) {
            slurm_error("topoplace: plugstack.conf: %s", cfg.error().message.c_str());
            // a client refuses to submit; a node does not fail steps for a config typo
            return where == S_CTX_REMOTE ? 0 : -1;
        }
        c.cfg = *cfg;
        c.cfg_ok = true;
        for (auto& o : g_options) {
            if (spank_option_register(sp, &o) != ESPANK_SUCCESS) {
                slurm_error("topoplace: cannot register --%s", o.name);
                return where == S_CTX_REMOTE ? 0 : -1;
            }
        }
        return 0;
    });
}

int topo_spank_init_post_opt(spank_t sp, int /*ac*/, char** /*av*/) noexcept {
    return guarded("init_post_opt", [&]() -> int {
        const spank_context_t where = spank_context();
        if (where != S_CTX_ALLOCATOR && where != S_CTX_LOCAL) return 0;
        if (g_ctx == nullptr || !g_ctx->cfg_ok) return 0;
        Ctx& c = *g_ctx;
        if (!c.opt_error.empty()) return -1;
        // srun inside an allocation creates a step: the nodes are already chosen
        const bool in_allocation = std::getenv("SLURM_JOB_ID") != nullptr;  // NOLINT(concurrency-mt-unsafe)
        if (where == S_CTX_LOCAL && in_allocation) return 0;
        try {
            return decide(sp, c);
        } catch (const std::exception& e) {
            return on_error(c, std::string("internal error: ") + e.what());
        }
    });
}

int topo_spank_user_init(spank_t /*sp*/, int /*ac*/, char** /*av*/) noexcept {
    return guarded("user_init", [&]() -> int {
        if (spank_context() != S_CTX_REMOTE || g_ctx == nullptr || !g_ctx->cfg_ok) return 0;
        Ctx& c = *g_ctx;
        if (!c.cfg.rail_env || c.cfg.snapshot.empty() || effective_mode(c) == Mode::Off) return 0;
        auto topo = load_model(c.cfg.snapshot);
        if (!topo) {
            // never fail a step from here (a failing user_init drains the node)
            slurm_error("topoplace: no rail environment: %s", topo.error().to_string().c_str());
            return 0;
        }
        c.topo = *topo;
        return 0;
    });
}

int topo_spank_task_init(spank_t sp, int /*ac*/, char** /*av*/) noexcept {
    return guarded("task_init", [&]() -> int {
        if (spank_context() != S_CTX_REMOTE || g_ctx == nullptr || g_ctx->topo == nullptr) return 0;
        const std::string node = spank_env(sp, "SLURMD_NODENAME");
        if (node.empty()) return 0;
        std::vector<std::string> hosts;
        if (auto h = expand_hostlist(spank_env(sp, "SLURM_JOB_NODELIST")); h) hosts = *h;
        auto env = task_env(*g_ctx->topo, node, task_gpus(sp), hosts);
        if (!env) {
            slurm_verbose("topoplace: %s", env.error().message.c_str());
            return 0;
        }
        // A variable counts as ours when TOPOPLACE_OWNED records the value it has now
        // (e.g. inherited from the batch step by srun); anything else was set by the user.
        const std::string owned = spank_env(sp, "TOPOPLACE_OWNED");
        auto ours = [&](const std::string& k, const std::string& cur) {
            return owned.find("|" + k + "=" + cur + "|") != std::string::npos;
        };
        std::string now_owned = "|";
        for (const auto& [k, v] : env->vars) {
            if (has_spank_env(sp, k.c_str())) {
                const std::string cur = spank_env(sp, k.c_str());
                if (!ours(k, cur)) continue;  // set explicitly: leave it
            }
            spank_setenv(sp, k.c_str(), v.c_str(), 1);
            now_owned.append(k).append("=").append(v).append("|");
        }
        spank_setenv(sp, "TOPOPLACE_OWNED", now_owned.c_str(), 1);
        return 0;
    });
}

int topo_spank_job_prolog(spank_t /*sp*/, int ac, char** av) noexcept {
    return guarded("job_prolog", [&]() -> int {
        auto cfg = parse_config(args_of(ac, av));
        if (!cfg) {
            // sbatch/srun already refuse this configuration; a typo must not drain every node
            slurm_error("topoplace: plugstack.conf: %s (launch gate disabled)", cfg.error().message.c_str());
            return 0;
        }
        if (cfg->health.empty()) return 0;
        const bool strict = cfg->on_error == OnError::Fail;
        const char* node = std::getenv("SLURMD_NODENAME");  // NOLINT(concurrency-mt-unsafe): no threads
        const char* job = std::getenv("SLURM_JOB_ID");      // NOLINT(concurrency-mt-unsafe): no threads
        if (node == nullptr || *node == '\0') {
            slurm_error("topoplace: launch gate: SLURMD_NODENAME not set");
            return strict ? -1 : 0;
        }
        // health::gate(): the store's rules, the verdict and the drain reason, as `topoplace
        // health gate` (a degraded node is allowed); on_error=fail is its fail-closed mode
        const health::GateDecision d =
            health::gate(cfg->health, node, strict ? health::FailMode::Closed : health::FailMode::Open);
        // a store not created yet (every launch until the first check) or a stray entry
        for (const auto& w : d.warnings) slurm_debug("topoplace: launch gate on %s: %s", node, w.c_str());
        if (d.store_error) {
            slurm_error("topoplace: launch gate on %s: %s", node, d.message.c_str());
            return d.allow ? 0 : -1;
        }
        if (d.allow) return 0;
        slurm_error("topoplace: job %s refused on node %s: %s", job != nullptr ? job : "?", node, d.drain_reason.c_str());
        if (cfg->drain) {
            // Drain with our reason first; Slurm's own "Prolog error" drain then keeps it.
            if (const int e = compat::drain_node(node, d.drain_reason.c_str()); e != 0)
                slurm_error("topoplace: cannot drain %s: %s", node, slurm_strerror(e));
        }
        return -1;
    });
}

int topo_spank_exit(spank_t /*sp*/, int /*ac*/, char** /*av*/) noexcept {
    return guarded("exit", [&]() -> int {
        delete g_ctx;
        g_ctx = nullptr;
        return 0;
    });
}

}  // extern "C"
