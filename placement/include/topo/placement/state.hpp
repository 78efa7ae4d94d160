// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file ClusterState: the live overlay on an immutable Topology (busy, drained,
/// down, unhealthy, free GPUs). Never stored in the Topology itself.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <topo/ids.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::placement {

/// Slurm-like node state, reduced to what placement needs.
enum class NodeState : std::uint8_t { Idle, Mixed, Alloc, Drain, Down, Unknown };
[[nodiscard]] const char* node_state_name(NodeState s) noexcept;

/// The most GPUs one host may report (Gres=, GresUsed=, AllocTRES=, the JSON state, the
/// plugin's state files): counts above it are refused by the parsers as bad input. The state
/// keeps per-group histograms as wide as the largest host, so an absurd count (a typo, a
/// hostile file) must not reach it: gpu:446854927 asked for 7 GB (found by fuzz_state).
inline constexpr int kMaxHostGpus = 1024;

struct HostState {
    NodeState state = NodeState::Idle;
    int free_gpus = -1;      ///< -1 = all the host's GPUs are free
    bool unhealthy = false;  ///< flagged by the health store
    /// > 1: degraded (health verdict "degraded", docs/health.md): up and placeable, but a job
    /// on it runs about this much slower (a synchronous job at its slowest rank). The
    /// topo and cost policies keep degraded hosts out of multi-node jobs while other hosts
    /// fit and give them to single-node jobs first (Request::avoid_degraded).
    double slowdown = 1.0;
    std::string reason;          ///< drain/health reason, if any
    int total_gpus = -1;         ///< GPUs the host has (-1 = as many as the topology knows);
                                 ///< set from scontrol Gres= when the snapshot has no GPUs
    std::vector<int> busy_gpus;  ///< GPU indices known in use (GresUsed IDX:), sorted
    double release_at = -1;      ///< when its jobs are expected to end (Request::now's clock), -1 unknown
};

/// Per-leaf-group counts a ClusterState keeps so that a placement decision need not
/// look at every host (docs/placement.md, "Decision cost"). Only healthy hosts that are
/// not service hosts count.
struct GroupCounts {
    std::vector<int> idle_by_total;  ///< [t]: idle hosts with t GPUs
    std::vector<int> avail_by_free;  ///< [f]: idle (f = all GPUs) or mixed hosts with f GPUs free
    long free_gpus = 0;              ///< sum of f over those hosts
    bool operator==(const GroupCounts&) const = default;
};

class ClusterState {
public:
    /// Every host idle, every GPU free, bound to `topo` (by fingerprint).
    explicit ClusterState(const Topology& topo);

    /// A host's state. Changed only through the set_*() mutators below, which keep the
    /// group counts and the host's Brief up to date.
    [[nodiscard]] const HostState& at(HostId h) const { return hosts_.at(h.index()); }

    [[nodiscard]] std::size_t size() const noexcept { return hosts_.size(); }

    [[nodiscard]] const std::string& fingerprint() const noexcept { return fingerprint_; }

    /// GPUs free on a host now (the host's GPU count when free_gpus == -1).
    [[nodiscard]] int free_gpus(const Topology& topo, HostId h) const;
    /// GPUs the host has (HostState::total_gpus, else the topology's count).
    [[nodiscard]] int total_gpus(const Topology& topo, HostId h) const;
    /// Can the host take work at all (not drained/down/unknown/unhealthy)? Busy
    /// (alloc/mixed) hosts are "available" here; place() decides what fits on them.
    [[nodiscard]] bool available(HostId h) const;

    // Mutators that keep the group counts up to date in O(GPU classes).
    void set(HostId h, HostState s);
    void set_state(HostId h, NodeState s);
    void set_free_gpus(HostId h, int free_gpus);
    void set_total_gpus(HostId h, int total_gpus);
    void set_unhealthy(HostId h, bool unhealthy, std::string reason = {});
    /// Mark a host degraded (slowdown > 1) or not (1); values below 1 or not finite read as 1.
    void set_slowdown(HostId h, double slowdown);
    /// The health store's flags (health::health_flags() reads them, one way for every
    /// reader): unhealthy hosts with their reason, degraded hosts with their slowdown.
    void mark_health(std::span<const std::pair<HostId, std::string>> unhealthy,
                     std::span<const std::pair<HostId, double>> degraded);
    void set_busy_gpus(HostId h, std::vector<int> busy);
    /// The drain/health reason shown with the host.
    void set_reason(HostId h, std::string reason);
    /// When the host's jobs are expected to end (Request::now's clock; < 0 = unknown).
    void set_release_at(HostId h, double release_at);

    /// Hosts of topology group `g` that can take one more node of a request: exclusive
    /// = idle with at least `gpus_per_node` GPUs; shared = idle or mixed with at least
    /// `gpus_per_node` GPUs free. O(GPU classes).
    [[nodiscard]] int group_hosts_fitting(GroupId g, bool exclusive, int gpus_per_node) const;
    /// Fewest free GPUs (>= gpus_per_node) of an available idle or mixed host in the
    /// group, from the counts; nullopt when none has that many.
    [[nodiscard]] std::optional<int> group_fewest_free_fitting(GroupId g, int gpus_per_node) const;
    /// Free GPUs on the idle and mixed hosts of group `g`. O(1).
    [[nodiscard]] long group_free_gpus(GroupId g) const;
    /// The maintained counts of group `g`, and the same counted from scratch (checks).
    [[nodiscard]] GroupCounts group_counts(GroupId g) const;
    [[nodiscard]] GroupCounts recount_group(GroupId g) const;

    /// A host's state as a placement decision reads it, resolved and packed (8 bytes
    /// instead of a whole HostState), kept with the group counts: `total` = GPUs the host
    /// has, `free` = GPUs free now (min(free_gpus, total), `total` when free_gpus < 0).
    /// 24-bit counts: larger ones (the parsers refuse over kMaxHostGpus) read as kMaxGpus.
    struct Brief {
        static constexpr std::int32_t kMaxGpus = (1 << 23) - 1;
        std::int32_t total : 24 = 0;
        bool unhealthy : 1 = false;
        bool busy_listed : 1 = false;  ///< busy_gpus not empty
        bool degraded : 1 = false;     ///< slowdown > 1
        std::int32_t free : 24 = 0;
        NodeState state : 8 = NodeState::Idle;
    };

    static_assert(sizeof(Brief) == 8);

    /// One Brief per host (service hosts and hosts on no leaf group: not kept). Valid until the
    /// next mutation.
    [[nodiscard]] const Brief* briefs() const;
    /// Hosts with slowdown > 1. O(1).
    [[nodiscard]] int degraded_count() const;

    /// Bit h (word h / 64, bit h % 64) set when host h is idle and healthy (its Brief's state
    /// Idle, unhealthy false): the hosts a whole-node job may take, for a walk of a leaf
    /// group's idle hosts without reading every Brief. Valid until the next mutation.
    [[nodiscard]] const std::uint64_t* idle_bits() const noexcept { return idle_bits_.data(); }

    /// Running jobs whose traffic uses a leaf group's uplinks: those with hosts in the
    /// group that span several leaf groups (`spanning`), and of them those spanning several
    /// pods (`multi_pod`). The cost policy's model charges a job that shares them
    /// (PERF-MODEL 6.2 row M_share). Kept only by callers that know the running jobs (the
    /// what-if adds a job's groups when it starts and takes them off when it ends); a state
    /// read from node states alone has none, and the cost policy then sees no sharing.
    struct UplinkUsers {
        int spanning = 0;
        int multi_pod = 0;
    };

    /// Add (or, negative, take off) running jobs using group `g`'s uplinks; a count never
    /// goes below zero.
    void add_uplink_users(GroupId g, int spanning, int multi_pod);
    [[nodiscard]] UplinkUsers uplink_users(GroupId g) const;

    /// Groups with any uplink user. O(1).
    [[nodiscard]] int groups_with_uplink_users() const noexcept { return uplink_groups_; }

private:
    struct Layout;

    void add(std::size_t h, int sign);
    /// Add (sign +1) or remove (-1) host h's contribution to a group's counts; `idle_hosts`,
    /// when given, is the group's idle-host total.
    void count_host(std::size_t h, int sign, std::vector<int>& idle, std::vector<int>& avail, long& free,
                    std::size_t base, int* idle_hosts = nullptr) const;
    void ensure_width(int total);
    void recount_all();
    void brief_host(std::size_t h);
    template <class F>
    void mutate(HostId h, F&& f);

    std::vector<HostState> hosts_;
    std::string fingerprint_;
    std::shared_ptr<const Layout> layout_;
    // Group counts, flat [group * width_ + class], kept exact by every mutator.
    int width_ = 1;
    std::vector<int> idle_by_total_;
    std::vector<int> avail_by_free_;
    std::vector<long> free_sum_;
    std::vector<int> idle_hosts_;           ///< per group: idle healthy hosts (the sum of its
                                            ///< idle_by_total_ row, kept apart for the common
                                            ///< whole-node read)
    std::vector<Brief> briefs_;             ///< per host
    std::vector<std::uint64_t> idle_bits_;  ///< per host, one bit: see idle_bits()
    int degraded_ = 0;                      ///< briefs_ with degraded set
    std::vector<UplinkUsers> uplink_;       ///< per group (empty until the first add_uplink_users)
    int uplink_groups_ = 0;                 ///< groups with spanning > 0
};

}  // namespace topo::placement
