// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The placement decision of the SPANK plugin and of topoplace-nodefeed's service, made
/// one way (docs/spank.md "Decision and hand-off"): the job request from Slurm's option strings,
/// the health store's exclusions and marks, place(), the plan. Slurm-free.
///
/// `decide_on()` is the decision on one node state. `Decider` owns where that state comes
/// from: its sources are tried in order (the plugin: the user's cache, the shared feed, the
/// RPC; the service: the state in memory, a re-read) and it owns the one rule both follow:
/// a `busy` answer on a state that may be stale (any source but the last) is decided once
/// more on the last source's fresh read. A fresh read that fails then leaves the busy answer.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <topo/health/flags.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

#include "core.hpp"

namespace topo::spank {

/// Milliseconds since `t0` (the timings --topo-explain and the service print).
inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// One job to place, as the plugin reads it from sbatch/salloc/srun (the service gets the same
/// fields over its socket, service.hpp).
struct ServiceRequest {
    std::string snapshot;  ///< the plugin's snapshot= (the service answers only for its own)
    std::string health;    ///< the plugin's health= (likewise: the same store, or no answer)
    SlurmRequest sr;
    Options opts;  ///< opts.mode is the effective mode
    int wait = 300;
    /// the plugin's policy= for pack jobs (Topo or Cost; the wire omits topo, so a first-version
    /// service answers every request that does not ask for cost)
    placement::Policy policy = placement::Policy::Topo;
};

/// The answer: a plan (the variables for job_submit.lua and the --topo-explain text) or why
/// there is none.
struct ServiceReply {
    enum class Kind { Planned, Unsupported, Invalid, Never, Busy, Refused };
    Kind kind = Kind::Refused;
    std::string message;  ///< why (all but Planned)
    /// Planned: the plan's variables (spank_job_control_setenv). Busy: unplanned_env's, the
    /// health store's exclusions the job still keeps at its start (empty when none).
    std::vector<std::pair<std::string, std::string>> env;
    std::string text;  ///< Planned: the --topo-explain line
};

/// What a request that gets no plan is told: from make_request's error (Unsupported or
/// Invalid) or from the engine's (Never or Busy).
[[nodiscard]] ServiceReply::Kind request_refusal(Errc code) noexcept;
[[nodiscard]] ServiceReply::Kind placement_refusal(Errc code) noexcept;

/// The --topo-explain text of a plan (without the cost figures).
[[nodiscard]] std::string plan_text(Mode mode, const Plan& plan, const placement::Placement& p);

/// What the health store says about the topology's hosts: health/flags.hpp, read the same
/// way by `topoplace place`, the service and the plugin.
using health::health_flags;
using health::HealthFlags;

/// One decision.
struct Decision {
    ServiceReply reply;
    std::optional<placement::Request> request;      ///< the request placed (absent: refused before)
    std::optional<placement::Placement> placement;  ///< when reply.kind is Planned
};

/// The decision on one node state: request, health exclusions, the health marks applied to
/// `state` (so that what is cached afterwards is what was decided on), place(), the plan.
/// `placer` holds the topology's placement indexes (the service keeps one for its snapshot).
[[nodiscard]] Decision decide_on(const placement::Placer& placer, const ServiceRequest& req,
                                 placement::ClusterState& state, const HealthFlags& health);

/// decide_on() on a copy of `state`, the reply only.
[[nodiscard]] ServiceReply serve(const placement::Placer& placer, const ServiceRequest& req,
                                 placement::ClusterState state, const HealthFlags& health);

/// A node state and where it came from.
struct SourcedState {
    placement::ClusterState state;
    std::string from;           ///< for --topo-explain: "rpc", "cached 1.2 s", "feed 0.4 s", "memory"
    std::int64_t taken_ns = 0;  ///< CLOCK_REALTIME of the slurmctld read it reflects
};

/// One source of node state. When `read` fails the next source is tried and the error goes
/// to the Decider's `note`, except Errc::NotFound from a source where that is normal (the
/// user's cache file before the first submission).
struct StateSource {
    std::string name;  ///< "cache", "feed", "rpc", "memory", "re-read"
    std::function<Result<SourcedState>()> read;
    bool missing_is_normal = false;
};

class Decider {
public:
    /// `sources` in the order tried; the last one is the fresh read (slurmctld's node table
    /// now). `note` receives why a source was not used (the plugin logs it at debug level).
    explicit Decider(std::vector<StateSource> sources, std::function<void(const std::string&)> note = {});

    struct Outcome {
        Decision decision;
        std::optional<SourcedState> state;  ///< decided on (health marks applied); empty when the
                                            ///< request was refused before any state was read
        bool fresh = false;                 ///< `state` is the last source's
        bool retried = false;               ///< busy on an earlier source: the last one was read
        double state_ms = 0;                ///< reading states (all sources tried)
        double place_ms = 0;                ///< deciding (all attempts)
    };

    /// The request is checked first (an invalid one reads no state). Fails only when no source
    /// gives a state (the last source's error).
    [[nodiscard]] Result<Outcome> decide(const placement::Placer& placer, const ServiceRequest& req,
                                         const HealthFlags& health) const;

private:
    std::vector<StateSource> sources_;
    std::function<void(const std::string&)> note_;
};

}  // namespace topo::spank
