// SPDX-License-Identifier: Apache-2.0
// sbatch, salloc and srun (S_CTX_ALLOCATOR, S_CTX_LOCAL): the placement decision, made in the
// submitting process before the job reaches slurmctld, and its hand-off to job_submit.lua
// through job-control variables. The decision itself is the core's Decider (decider.hpp),
// the one the placement service makes: this file reads the request, offers the Decider its
// state sources and hands the answer to Slurm.
#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "decider.hpp"
#include "service.hpp"
#include "shell.h"
#include "shell.hpp"
#include "slurm_compat.hpp"
#include "slurm_jobs.hpp"
#include "slurm_nodes.hpp"
#include "state_cache.hpp"
#include <dlfcn.h>
#include <unistd.h>

using namespace topo;
using namespace topo::spank;
using namespace topo::spank::plugin;

namespace {

/// on_error policy for a plugin-side failure in allocator/local context.
int on_error(const Ctx& c, const std::string& what) {
    if (c.cfg.on_error == OnError::Fail) {
        slurm_error("topoplace: %s (on_error=fail: job refused)", what.c_str());
        return -1;
    }
    slurm_error("topoplace: %s (on_error=warn: job submitted without topology placement)", what.c_str());
    return 0;
}

/// The request being built by sbatch/salloc/srun (read-only use of the exported `opt` and
/// slurm_option_get(); see docs/spank.md "Reading the request").
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
    r.partition = one("partition");
    return r;
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
    const auto dir =
        state_cache_dir(::getuid(), std::getenv("XDG_RUNTIME_DIR"),  // NOLINT(concurrency-mt-unsafe): no threads
                        "/run/user", "/tmp", &why);
    if (dir.empty()) {
        slurm_debug("topoplace: no state cache: %s", why.c_str());
        return {};
    }
    const char* conf = std::getenv("SLURM_CONF");  // NOLINT(concurrency-mt-unsafe): no threads
    return state_cache_file(dir, conf != nullptr ? conf : "", topo.fingerprint());
}

constexpr int kServiceTimeoutMs = 500;  // the whole exchange; then the plugin decides itself

/// A request that gets no plan, decided in-process or by the service: refused before
/// submission (invalid, can never fit) or submitted without a plan (unsupported). A busy one
/// is answer()'s: it may still carry the health store's exclusions.
int without_plan(const Ctx& c, ServiceReply::Kind kind, const std::string& why) {
    switch (kind) {
        case ServiceReply::Kind::Invalid: slurm_error("topoplace: %s", why.c_str()); return -1;
        case ServiceReply::Kind::Never:
            slurm_error("topoplace: the request can never be placed: %s", why.c_str());
            return -1;
        default:  // Unsupported (e.g. -w: the user chose the nodes)
            explain(c, why);
            return 0;
    }
}

/// Hand a plan's variables to slurmctld (job_submit.lua reads them): 0 when all are set,
/// else on_error's answer.
int hand_off(spank_t sp, const Ctx& c, const std::vector<std::pair<std::string, std::string>>& env) {
    for (const auto& [k, v] : env) {
        if (v.empty()) continue;
        if (spank_job_control_setenv(sp, k.c_str(), v.c_str(), 1) != ESPANK_SUCCESS) {
            return on_error(c, "spank_job_control_setenv(" + k + ") failed");
        }
    }
    return 0;
}

/// Why a plan made now would be stale when the job starts, or nullopt. Slurm starts a job at
/// submission only when no job queued for nodes ranks above it; otherwise the job starts later,
/// on another state, and a plan on today's state steers it wrong (issue 31: on a busy 22.05
/// lab such plans landed worse than Slurm's tree alone and made jobs wait longer). With jobs
/// queued ahead (and queued_plan=no) the plan is dropped and Slurm's own topology chooses at
/// the job's start. One slurm_load_jobs RPC, made only for a job that has a plan.
std::optional<std::string> queued_ahead(const Ctx& c, const ServiceRequest& q, double* ms_taken) {
    if (c.cfg.queued_plan) return std::nullopt;
    const auto t0 = std::chrono::steady_clock::now();
    auto n = count_queued_jobs(q.sr.partition);
    *ms_taken = ms_since(t0);
    if (!n) return "cannot tell whether jobs are queued ahead of it (" + n.error().to_string() + ")";
    if (*n == 0) return std::nullopt;
    return std::to_string(*n) + (*n == 1 ? " job is" : " jobs are") + " queued for nodes ahead of it";
}

using Env = std::vector<std::pair<std::string, std::string>>;

/// What Slurm gets for a reply: the plan handed off; for a job that gets none (no fit now:
/// busy; or `stale` says why the plan would be stale, queued_ahead) only `unplanned`
/// (unplanned_env: the health store's exclusions); or the refusal.
int answer(spank_t sp, const Ctx& c, const ServiceReply& rep, std::string cost, const std::optional<std::string>& stale,
           double queue_ms, const Env& unplanned) {
    const bool busy = rep.kind == ServiceReply::Kind::Busy;
    if (rep.kind != ServiceReply::Kind::Planned && !busy) return without_plan(c, rep.kind, rep.message);
    if (!c.cfg.queued_plan && !busy) cost += ", queue " + std::to_string(queue_ms).substr(0, 5);
    if (busy || stale) {
        if (const int rc = hand_off(sp, c, unplanned); rc != 0) return rc;
        std::string ex;
        for (const auto& [k, v] : unplanned)
            if (k == "TOPOPLACE_EXCLUDE") ex = v;
        explain(c, (busy ? "no placement fits now (" + rep.message + ")"
                         : *stale + ": a plan made now would be stale when it starts")
                       + "; the job is left to Slurm's topology/tree at its start"
                       + (ex.empty() ? "" : ", without " + ex + " (health store)")
                       + (busy ? "" : " (plugstack queued_plan=yes plans anyway)") + " [ms: " + cost + "]");
        return 0;
    }
    if (const int rc = hand_off(sp, c, rep.env); rc != 0) return rc;
    explain(c, rep.text + " [ms: " + cost + "]");
    return 0;
}

/// A reply's exclusions: a busy answer's (unplanned_env's, made by the Decider in-process or
/// in the service); a plan's own (unhealthy hosts, and the degraded ones a multi-node plan
/// left out) when the service's plan is dropped as stale.
Env exclusions_of(const ServiceReply& rep) {
    Env out;
    for (const auto& kv : rep.env)
        if (kv.first == "TOPOPLACE_MODE" || kv.first == "TOPOPLACE_EXCLUDE") out.push_back(kv);
    if (out.size() < 2) return {};
    return out;
}

std::string ms(double v) {
    return std::to_string(v).substr(0, 5);
}

/// A state read from a file (the user's cache or the shared feed), with its age for
/// --topo-explain and its read time for the cache write.
template <class Read>
Result<SourcedState> state_file(const char* label, Read read) {
    const std::int64_t now = realtime_ns();
    double age = 0;
    auto r = read(now, &age);
    if (!r) return fail(std::move(r).error());
    return SourcedState{std::move(*r), std::string(label) + " " + std::to_string(age).substr(0, 4) + " s",
                        now - static_cast<std::int64_t>(age * 1e9)};
}

/// This job's request as the Decider and the service take it; nullopt (and `*rc`, on_error's
/// answer) when there is no snapshot or the client's request cannot be read.
std::optional<ServiceRequest> service_request(const Ctx& c, Mode mode, int* rc) {
    if (c.cfg.snapshot.empty()) {
        *rc = on_error(c, "no snapshot= in plugstack.conf");
        return std::nullopt;
    }
    auto sr = read_request();
    if (!sr) {
        *rc = on_error(c, "cannot read the job request (no exported opt/slurm_option_get in this client)");
        return std::nullopt;
    }
    ServiceRequest q;
    q.snapshot = c.cfg.snapshot;
    q.health = c.cfg.health;
    q.sr = *sr;
    q.opts = c.opts;
    q.opts.mode = mode;
    q.wait = c.cfg.wait;
    q.policy = c.cfg.policy;
    return q;
}

/// The health store's flags of `topo`'s hosts (none without health=); its warnings at verbose.
Result<HealthFlags> store_flags(const Ctx& c, const Topology& topo) {
    if (c.cfg.health.empty()) return HealthFlags{};
    std::vector<std::string> warns;
    auto flags = health_flags(topo, c.cfg.health, &warns);
    for (const auto& w : warns) slurm_verbose("topoplace: %s", w.c_str());
    return flags;
}

/// decide=start (or auto under TopologyPlugin=topology/topoplace): slurmctld chooses the
/// nodes when the job starts (docs/topology-plugin.md). Here only what can be known now: the
/// request is checked (invalid, or never placeable on this fabric even when every host is
/// free and healthy hosts only are counted), and the job's options go to the job record
/// (spank_job_env) for the topology plugin. No node state is read and no plan is made: a plan
/// on the state at submission is stale by the time a waiting job starts.
int decide_at_start(spank_t sp, Ctx& c, Mode mode) {
    const auto env = start_env(mode, c.opts);
    if (mode == Mode::Off) {
        if (c.opts.explain) explain(c, "placement off for this job");
        return hand_off(sp, c, env);
    }
    int rc = 0;
    const auto q = service_request(c, mode, &rc);
    if (!q) return rc;
    const auto t0 = std::chrono::steady_clock::now();
    bool from_bin = false;
    auto topo = load_model(c.cfg.snapshot, &from_bin);
    if (!topo) return on_error(c, "cannot load snapshot: " + topo.error().to_string());
    const placement::Placer placer(**topo);
    auto health = store_flags(c, **topo);
    if (!health) return on_error(c, "health store: " + health.error().to_string());
    // every host free: what fails here fails on any state (Never), the rest is for slurmctld
    placement::ClusterState all_free(**topo);
    const Decision d = decide_on(placer, *q, all_free, *health);
    switch (d.reply.kind) {
        case ServiceReply::Kind::Invalid:
        case ServiceReply::Kind::Never: return without_plan(c, d.reply.kind, d.reply.message);
        case ServiceReply::Kind::Unsupported: explain(c, d.reply.message); return 0;
        default: break;
    }
    if (rc = hand_off(sp, c, env); rc != 0) return rc;
    explain(c, std::string("mode ") + mode_name(mode) + ": the nodes are chosen when Slurm starts the job "
                   + "(TopologyPlugin=topology/topoplace; plugstack decide=submit plans at submission) [ms: check "
                   + ms(ms_since(t0)) + (from_bin ? " (compiled)" : " (json)") + "]");
    return 0;
}

int decide(spank_t sp, Ctx& c) {
    const Mode mode = effective_mode(c);
    if (decides_at_start(c.cfg.decide, compat::topology_plugin())) return decide_at_start(sp, c, mode);
    if (mode == Mode::Off) {
        if (c.opts.explain) explain(c, "placement off for this job");
        return 0;
    }
    int rc = 0;
    const auto qr = service_request(c, mode, &rc);
    if (!qr) return rc;
    const ServiceRequest& q = *qr;
    const auto t0 = std::chrono::steady_clock::now();

    // The placement service (service=, topoplace-nodefeed --socket): the same decision, made
    // by a process that holds the model and the node state in memory. No answer worth taking
    // (no service, another snapshot, a timeout, a malformed reply): decide here.
    if (!c.cfg.service.empty()) {
        auto rep = call_service(c.cfg.service, q, kServiceTimeoutMs);
        if (rep && rep->kind != ServiceReply::Kind::Refused) {
            const std::string cost = "service " + ms(ms_since(t0));
            double queue_ms = 0;
            std::optional<std::string> stale;
            if (rep->kind == ServiceReply::Kind::Planned) stale = queued_ahead(c, q, &queue_ms);
            // busy: the service's answer carries the health store's exclusions (unplanned_env);
            // a plan dropped as stale: the plan's own
            const bool busy = rep->kind == ServiceReply::Kind::Busy;
            return answer(sp, c, *rep, cost, stale, queue_ms, busy || stale ? exclusions_of(*rep) : Env{});
        }
        slurm_debug("topoplace: service not used: %s", rep ? rep->message.c_str() : rep.error().to_string().c_str());
    }

    bool from_bin = false;
    auto topo = load_model(c.cfg.snapshot, &from_bin);
    if (!topo) return on_error(c, "cannot load snapshot: " + topo.error().to_string());
    const placement::Placer placer(**topo);
    const double snapshot_ms = ms_since(t0);

    // unhealthy hosts from the health store: excluded from the job, flagged in the state
    auto t1 = std::chrono::steady_clock::now();
    auto flags = store_flags(c, **topo);
    if (!flags) return on_error(c, "health store: " + flags.error().to_string());
    const HealthFlags health = std::move(*flags);
    const double health_ms = ms_since(t1);

    // Node state, in the Decider's order: the user's recent copy (state_cache=S,
    // state_cache.hpp), the shared feed (state_feed=, topoplace-nodefeed: the node table as
    // slurmctld had it at most state_feed_age seconds ago), one slurm_load_node RPC. A busy
    // answer on the cache or the feed is decided again on the RPC's fresh state.
    const std::string cache_path = state_cache_path(c, **topo);
    std::vector<StateSource> sources;
    if (!cache_path.empty()) {
        sources.push_back({"cache",
                           [&] {
                               return state_file("cached", [&](std::int64_t now, double* age) {
                                   return read_state_cache(cache_path, **topo, ::getuid(), c.cfg.state_cache, now, age);
                               });
                           },
                           true});
    }
    if (!c.cfg.state_feed.empty()) {
        sources.push_back({"feed", [&] {
                               return state_file("feed", [&](std::int64_t now, double* age) {
                                   return read_state_feed(c.cfg.state_feed, **topo, c.cfg.state_feed_age, now, age);
                               });
                           }});
    }
    sources.push_back({"rpc", [&]() -> Result<SourcedState> {
                           const std::int64_t taken = realtime_ns();
                           auto st = load_node_state(**topo);
                           if (!st) return fail(std::move(st).error());
                           return SourcedState{std::move(*st), "rpc", taken};
                       }});
    const Decider decider(std::move(sources),
                          [](const std::string& why) { slurm_debug("topoplace: %s", why.c_str()); });
    auto out = decider.decide(placer, q, health);
    if (!out) return on_error(c, out.error().to_string());
    const Decision& d = out->decision;

    double queue_ms = 0;
    std::optional<std::string> stale;
    if (d.reply.kind == ServiceReply::Kind::Planned) stale = queued_ahead(c, q, &queue_ms);
    // the next submission of this user sees this decision's hosts taken (not those of a plan
    // dropped because the job is queued: it takes no hosts now)
    const placement::Placement* taken = d.placement && !stale ? &*d.placement : nullptr;
    auto t3 = std::chrono::steady_clock::now();
    if (!cache_path.empty() && out->state && (taken != nullptr || out->fresh)) {
        const bool exclusive = d.request && d.request->exclusive;
        if (auto w = write_state_cache(cache_path, **topo, out->state->state, taken, exclusive, out->state->taken_ns);
            !w)
            slurm_debug("topoplace: state cache not written: %s", w.error().to_string().c_str());
    }
    // the decision's own cost, per step (docs/spank.md "Cost"; t-spank.sh section 7 prints it)
    std::string cost =
        "snapshot " + ms(snapshot_ms) + (from_bin ? " (compiled)" : " (json)") + ", health " + ms(health_ms);
    if (out->state)
        cost += ", nodes " + ms(out->state_ms) + " (" + out->state->from + (out->retried ? " after a busy answer" : "")
                + "), place " + ms(out->place_ms);
    if (!cache_path.empty()) cost += ", cache write " + ms(ms_since(t3));
    // busy: the Decider's answer carries unplanned_env's exclusions; a plan dropped as stale
    // gets the same list
    Env unplanned;
    if (d.reply.kind == ServiceReply::Kind::Busy)
        unplanned = exclusions_of(d.reply);
    else if (d.request && stale)
        unplanned = unplanned_env(**topo, *d.request, health, mode);
    return answer(sp, c, d.reply, cost, stale, queue_ms, unplanned);
}

}  // namespace

extern "C" {

int topo_submit_decide(spank_t sp, int local) noexcept {
    return guarded("init_post_opt", [&]() -> int {
        Ctx* c = configured();
        if (c == nullptr) return 0;
        if (!c->opt_error.empty()) return -1;
        // srun inside an allocation creates a step: the nodes are already chosen
        const bool in_allocation = std::getenv("SLURM_JOB_ID") != nullptr;  // NOLINT(concurrency-mt-unsafe)
        if (local != 0 && in_allocation) return 0;
        try {
            return decide(sp, *c);
        } catch (const std::exception& e) {
            return on_error(*c, std::string("internal error: ") + e.what());
        }
    });
}

}  // extern "C"
