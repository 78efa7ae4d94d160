// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file place(): choose the hosts (and GPUs) for one job on a topology + state.
///
/// Pure and deterministic: no I/O, no clock, no globals. The same (topology, state,
/// request, policy) always yields the same placement, whatever order the state was
/// filled in.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <topo/perf/model.hpp>
#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::perf {
struct FabricShape;  // topo/perf/features.hpp
}  // namespace topo::perf

namespace topo::placement {

/// Selection policies (see docs/placement.md for the table).
enum class Policy : std::uint8_t {
    Topo,       ///< ours: lowest tier that fits, best fit, GPU/NVLink/rail aware
    SlurmTree,  ///< faithful model of Slurm 22.05 cons_tres _eval_nodes_topo
    Linear,     ///< no topology: consecutive best fit in config order
    /// topo's placement, or topo held to the lowest tier any placement could stay under now,
    /// whichever the performance model (docs/perf-model.md, default parameters) predicts
    /// runs faster; ties keep topo's (fewest leaf groups: large holes for the next job).
    Cost,
    /// round-robin over the leaf groups with free hosts, one host per group in turn (the
    /// plugin's --topo=spread); no switch count, NVLink domains or segments
    Spread,
    /// Slurm's tree as 24.05.3 and later select (topology/tree's eval_nodes_tree.c: 24.11,
    /// 26.05): slurm-tree with two changes, a closer leaf taken whenever it fits (not only
    /// when it fits as tightly: 64263118c3) and a used leaf's nodes taken off every switch
    /// above it (2ec1d02624). Name "slurm-tree-24".
    SlurmTree24,
};
[[nodiscard]] const char* policy_name(Policy p) noexcept;
[[nodiscard]] Result<Policy> policy_from_name(std::string_view s);

struct Request {
    int nodes_min = 1;             ///< node count (or lower end of a range)
    int nodes_max = 0;             ///< upper end of a range; 0 = nodes_min
    int gpus_per_node = 0;         ///< GPUs needed on every chosen node (0 = none)
    int total_gpus = 0;            ///< alternative to gpus_per_node (0 = unused)
    bool exclusive = true;         ///< whole nodes (only idle nodes qualify)
    std::optional<int> max_tier;   ///< highest switch tier the job may cross (none = any)
    int max_leaves = 0;            ///< most leaf groups the job may span (0 = any)
    bool one_nvl_domain = false;   ///< all hosts in one (multi-node) NVLink domain
    int segment = 0;               ///< hosts come in segments of this size, each inside one
                                   ///< leaf group / NVLink domain (0 = no segments)
    bool rail_aligned = false;     ///< only hosts with a NIC on every rail
    std::vector<HostId> excluded;  ///< never choose these
    /// Never choose hosts of these leaf groups: the same decision as every host of them in
    /// `excluded`, but `topo` and `cost` keep deciding from the group counts (O(groups), no
    /// per-host scan). The cost policy's third candidate (off shared uplinks) uses it.
    std::vector<GroupId> excluded_groups;
    /// Optional end-time hints (topo only): the job's expected run time in seconds
    /// (Slurm: its time limit) and the current time on the clock of
    /// HostState::release_at. With them topo puts jobs that end together in the same
    /// groups. time_limit 0 = unknown: no effect.
    double now = 0;
    double time_limit = 0;
    /// Degraded hosts (HostState::slowdown > 1; topo and cost policies only): a job of more
    /// than one node gets them only when no placement without them fits now; a job of one
    /// node (or shared GPUs on one) gets one first when one fits. false: treat them like
    /// any other host (the what-if's comparison "without the rule").
    bool avoid_degraded = true;
};

/// GPU indices per chosen host, stored flat: two allocations for the whole placement
/// instead of one vector per host (a 256-host decision allocated 256 small vectors).
/// Reads like a vector of lists: `gpus.size()`, `gpus[i]` (a span), `for (int g : gpus[i])`.
class GpuLists {
public:
    [[nodiscard]] std::size_t size() const noexcept { return begin_.empty() ? 0 : begin_.size() - 1; }

    [[nodiscard]] bool empty() const noexcept { return size() == 0; }

    /// Host i's GPU indices (ascending).
    [[nodiscard]] std::span<const int> operator[](std::size_t i) const noexcept {
        return {idx_.data() + begin_[i], idx_.data() + begin_[i + 1]};
    }

    /// Every index, host after host.
    [[nodiscard]] std::span<const int> flat() const noexcept { return idx_; }

    void reserve(std::size_t hosts, std::size_t gpus) {
        begin_.reserve(hosts + 1);
        idx_.reserve(gpus);
    }

    /// Start the next host's list with room for `n` indices; returns where to write them.
    int* open_host(std::size_t n) {
        if (begin_.empty()) begin_.push_back(0);
        const std::size_t at = idx_.size();
        idx_.resize(at + n);
        begin_.push_back(static_cast<std::uint32_t>(at + n));
        return idx_.data() + at;
    }

    /// Append the next host's list, the indices [first, last) (no zero-filled room first).
    void push_host(const int* first, const int* last) {
        if (begin_.empty()) begin_.push_back(0);
        idx_.insert(idx_.end(), first, last);
        begin_.push_back(static_cast<std::uint32_t>(idx_.size()));
    }

    /// Append `hosts` lists that are all 0, 1, ..., n-1 (whole hosts, no busy GPU listed):
    /// one resize for them all instead of one append per host.
    void push_hosts_first(std::size_t hosts, int n) {
        if (begin_.empty()) begin_.push_back(0);
        const auto k = static_cast<std::size_t>(std::max(0, n));
        const std::size_t at = idx_.size();
        idx_.resize(at + hosts * k);
        int* d = idx_.data() + at;
        for (std::size_t h = 0; h < hosts; ++h)
            for (std::size_t g = 0; g < k; ++g) *d++ = static_cast<int>(g);
        begin_.reserve(begin_.size() + hosts);
        for (std::size_t h = 0; h < hosts; ++h) begin_.push_back(begin_.back() + static_cast<std::uint32_t>(k));
    }

    /// Give back the last `k` places of the last host's list (fewer were written).
    void trim_last(std::size_t k) {
        idx_.resize(idx_.size() - k);
        begin_.back() -= static_cast<std::uint32_t>(k);
    }

    friend bool operator==(const GpuLists& a, const GpuLists& b) noexcept {
        return a.size() == b.size() && a.idx_ == b.idx_ && (a.size() == 0 || a.begin_ == b.begin_);
    }

private:
    std::vector<int> idx_;
    std::vector<std::uint32_t> begin_;  ///< size()+1 offsets into idx_ (empty when no host)
};

struct Placement {
    Policy policy = Policy::Topo;
    std::vector<HostId> hosts;          ///< natural name order
    GpuLists gpus;                      ///< per host (parallel to hosts): GPU indices
    std::vector<SwitchId> leaves;       ///< distinct leaf switches spanned
    std::vector<GroupId> groups;        ///< distinct leaf groups spanned
    int max_tier = 0;                   ///< highest tier crossed (0 = one leaf group)
    long hop_sum = 0;                   ///< summed pairwise hop distance
    int lower_bound_groups = 0;         ///< fewest leaf groups any placement could use now
    int lower_bound_leaves = 0;         ///< fewest leaf switches any placement could use now
    int lower_bound_tier = 0;           ///< lowest tier any placement could stay under now
    std::vector<DomainId> nvl_domains;  ///< NVLink domains touched (multi-node ones)
    std::string explanation;            ///< short human text (one or a few lines)
    /// Distinct switches of the Slurm-style tree touched, per level: [0] = leaf groups,
    /// [1] = spines (level-1 switches, merged per pod as in topology.conf), ...
    std::vector<int> switches_per_level;
    int total_gpus = 0;  ///< GPUs given to the job (sum over gpus)
    /// Request parts this policy cannot express and ignored (baselines only: Slurm 22.05
    /// tree has no NVLink domains or segments), e.g. "one_nvl_domain"; empty for topo.
    std::vector<std::string> ignored;
    int degraded_hosts = 0;  ///< degraded hosts among `hosts` (HostState::slowdown > 1)
};

/// Whether placement `q` beats `p` on the Slurm-style tree: no more leaf groups, spines
/// (switches_per_level[1]) or degraded hosts, and fewer leaf groups or spines (the live
/// judge's "dominated", with degraded hosts never traded in).
[[nodiscard]] bool beats(const Placement& q, const Placement& p) noexcept;

/// A topology with its placement indexes built once (Slurm-style switch tree, switch
/// distances, per-group host lists). Build one per Topology and reuse it: place() on a
/// Placer costs microseconds; the free function below builds a Placer every call.
/// The Topology must outlive the Placer. Thread-safe for concurrent const use.
class Placer {
public:
    explicit Placer(const Topology& topo);
    /// With a performance model for the cost policy (a site's `--model` file); the default
    /// constructor uses the published defaults (perf::Params{}).
    Placer(const Topology& topo, const perf::Params& model);
    ~Placer();
    Placer(Placer&& other) noexcept;
    Placer& operator=(Placer&& other) noexcept;
    Placer(const Placer&) = delete;
    Placer& operator=(const Placer&) = delete;

    [[nodiscard]] Result<Placement> place(const ClusterState& state, const Request& req,
                                          Policy policy = Policy::Topo) const;

    [[nodiscard]] const Topology& topology() const noexcept { return *topo_; }

    /// The performance model's reading of the fabric (perf::fabric_shape), built on first use.
    [[nodiscard]] const perf::FabricShape& fabric_shape() const;

    /// The performance model's step-time slowdown of a job on `hosts` as the cost policy
    /// weighs its candidates (the Placer's parameters, the default layout of the hosts' GPUs,
    /// the running jobs' uplink use recorded in `state`), times the slowest host's
    /// HostState::slowdown (S_job = S_net S_deg); 1 for fewer than two hosts.
    [[nodiscard]] double predicted_slowdown(const ClusterState& state, std::span<const HostId> hosts) const;

    /// The placement indexes (defined in placement/src/internal.hpp: the engine's own files
    /// and white-box tests, e.g. that its switch tree is slurm-conf's).
    struct Index;

    [[nodiscard]] const Index& index() const noexcept { return *idx_; }

private:
    [[nodiscard]] Result<Placement> place_by_cost(const ClusterState& state, const Request& req) const;
    /// `why`: on no fit, say why (never or not now: an idle-cluster run and a scan of the
    /// state); false: Errc::Busy at once (the cost policy's candidates need no reason).
    [[nodiscard]] Result<Placement> place_degraded(const ClusterState& state, const Request& req, Policy policy,
                                                   bool why = true) const;
    [[nodiscard]] Result<Placement> place_one(const ClusterState& state, const Request& req, Policy policy,
                                              const std::vector<std::uint32_t>* skip = nullptr, bool why = true) const;
    /// topo for one of the cost policy's further candidates (degraded rule included; no reason
    /// computed when it does not fit).
    [[nodiscard]] Result<Placement> place_candidate(const ClusterState& state, const Request& req) const;
    const Topology* topo_;
    std::unique_ptr<Index> idx_;
};

/// Choose hosts for `req` on `state`.
/// Errors: Errc::Unsatisfiable when the request can never fit this topology (even on
/// an empty cluster), Errc::Busy when it cannot fit now, Errc::InvalidArgument for an
/// impossible request, Errc::StaleState when `state` belongs to another topology.
[[nodiscard]] Result<Placement> place(const Topology& topo, const ClusterState& state, const Request& req,
                                      Policy policy = Policy::Topo);

}  // namespace topo::placement
