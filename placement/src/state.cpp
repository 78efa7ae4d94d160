// SPDX-License-Identifier: Apache-2.0
// ClusterState: the overlay of node state on a Topology, its per-group counts and briefs.
// Its Slurm text inputs are in slurm_state.cpp.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <topo/enum_names.hpp>
#include <topo/hostlist.hpp>
#include <topo/placement/running.hpp>
#include <topo/placement/state.hpp>

namespace topo::placement {

namespace {
constexpr std::array<const char*, 6> kNodeStateNames{"idle", "mixed", "alloc", "drain", "down", "unknown"};
static_assert(kNodeStateNames.size() == static_cast<std::size_t>(NodeState::Unknown) + 1);
}  // namespace

const char* node_state_name(NodeState s) noexcept {
    return enum_name(s, kNodeStateNames, "unknown");
}

// ------------------------------------------------------------------ group counts

struct ClusterState::Layout {
    std::vector<int> group_of_host;                   ///< -1: service host or on no group
    std::vector<int> topo_gpus;                       ///< GPUs the topology knows per host
    std::vector<std::vector<std::uint32_t>> members;  ///< non-service hosts per group
};

ClusterState::ClusterState(const Topology& topo) : hosts_(topo.hosts().size()), fingerprint_(topo.fingerprint()) {
    auto l = std::make_shared<Layout>();
    const auto hosts = topo.hosts();
    l->group_of_host.assign(hosts.size(), -1);
    l->topo_gpus.resize(hosts.size());
    int max_gpus = 0;
    for (std::size_t h = 0; h < hosts.size(); ++h) {
        l->topo_gpus[h] = static_cast<int>(hosts[h].gpus.size());
        max_gpus = std::max(max_gpus, l->topo_gpus[h]);
    }
    l->members.resize(topo.groups().size());
    for (std::size_t g = 0; g < topo.groups().size(); ++g) {
        for (auto h : topo.groups()[g].hosts) {
            if (topo.host(h).role == HostRole::Service || l->group_of_host[h.index()] >= 0) continue;
            l->group_of_host[h.index()] = static_cast<int>(g);
            l->members[g].push_back(h.index());
        }
    }
    layout_ = std::move(l);
    const std::size_t ng = layout_->members.size();
    width_ = max_gpus + 1;
    idle_by_total_.assign(ng * static_cast<std::size_t>(width_), 0);
    avail_by_free_.assign(ng * static_cast<std::size_t>(width_), 0);
    free_sum_.assign(ng, 0);
    idle_hosts_.assign(ng, 0);
    briefs_.resize(hosts_.size());
    idle_bits_.assign((hosts_.size() + 63) / 64, 0);
    for (std::size_t h = 0; h < hosts_.size(); ++h) {
        add(h, +1);
        brief_host(h);
    }
}

void ClusterState::brief_host(std::size_t h) {
    const HostState& hs = hosts_[h];
    Brief& b = briefs_[h];
    const int total = std::min(hs.total_gpus >= 0 ? hs.total_gpus : layout_->topo_gpus[h], Brief::kMaxGpus);
    b.total = total;
    b.free = hs.free_gpus < 0 ? total : std::min(hs.free_gpus, total);
    b.state = hs.state;
    b.unhealthy = hs.unhealthy;
    b.busy_listed = !hs.busy_gpus.empty();
    const bool deg = hs.slowdown > 1.0;  // NaN compares false: not degraded
    if (deg != static_cast<bool>(b.degraded)) degraded_ += deg ? 1 : -1;
    b.degraded = deg;
    const std::uint64_t bit = std::uint64_t{1} << (h % 64);
    if (hs.state == NodeState::Idle && !hs.unhealthy)
        idle_bits_[h / 64] |= bit;
    else
        idle_bits_[h / 64] &= ~bit;
}

int ClusterState::degraded_count() const {
    return degraded_;
}

void ClusterState::add_uplink_users(GroupId g, int spanning, int multi_pod) {
    if (!g.valid() || g.index() >= layout_->members.size()) return;
    if (uplink_.empty()) uplink_.resize(layout_->members.size());
    UplinkUsers& u = uplink_[g.index()];
    const bool was = u.spanning > 0;
    u.spanning = std::max(0, u.spanning + spanning);
    u.multi_pod = std::max(0, u.multi_pod + multi_pod);
    uplink_groups_ += (u.spanning > 0 ? 1 : 0) - (was ? 1 : 0);
}

ClusterState::UplinkUsers ClusterState::uplink_users(GroupId g) const {
    if (!g.valid() || g.index() >= uplink_.size()) return {};
    return uplink_[g.index()];
}

const ClusterState::Brief* ClusterState::briefs() const {
    return briefs_.data();
}

void ClusterState::count_host(std::size_t h, int sign, std::vector<int>& idle, std::vector<int>& avail, long& free,
                              std::size_t base, int* idle_hosts) const {
    const HostState& hs = hosts_[h];
    if (hs.unhealthy) return;
    const int total = hs.total_gpus >= 0 ? hs.total_gpus : layout_->topo_gpus[h];
    if (hs.state == NodeState::Idle) {
        idle[base + static_cast<std::size_t>(total)] += sign;
        if (idle_hosts != nullptr) *idle_hosts += sign;
        avail[base + static_cast<std::size_t>(total)] += sign;
        free += sign * static_cast<long>(total);
    } else if (hs.state == NodeState::Mixed) {
        const int f = hs.free_gpus < 0 ? total : std::min(hs.free_gpus, total);
        avail[base + static_cast<std::size_t>(f)] += sign;
        free += sign * static_cast<long>(f);
    }
}

void ClusterState::add(std::size_t h, int sign) {
    const int g = layout_->group_of_host[h];
    if (g < 0) return;
    const auto gi = static_cast<std::size_t>(g);
    count_host(h, sign, idle_by_total_, avail_by_free_, free_sum_[gi], gi * static_cast<std::size_t>(width_),
               &idle_hosts_[gi]);
}

void ClusterState::ensure_width(int total) {
    if (total < width_) return;
    // Rare (scontrol Gres= larger than any host of the snapshot): widen, recount all.
    width_ = total + 1;
    recount_all();
}

void ClusterState::recount_all() {
    const std::size_t ng = layout_->members.size();
    const auto w = static_cast<std::size_t>(width_);
    idle_by_total_.assign(ng * w, 0);
    avail_by_free_.assign(ng * w, 0);
    free_sum_.assign(ng, 0);
    idle_hosts_.assign(ng, 0);
    for (std::size_t g = 0; g < ng; ++g)
        for (auto h : layout_->members[g])
            count_host(h, +1, idle_by_total_, avail_by_free_, free_sum_[g], g * w, &idle_hosts_[g]);
}

template <class F>
void ClusterState::mutate(HostId h, F&& f) {
    const auto i = h.index();
    HostState& hs = hosts_.at(i);
    add(i, -1);
    f(hs);
    brief_host(i);
    const int total = hs.total_gpus >= 0 ? hs.total_gpus : layout_->topo_gpus[i];
    if (total >= width_) {
        ensure_width(total);  // recounts every group, this host's new state included
        return;
    }
    add(i, +1);
}

void ClusterState::set(HostId h, HostState s) {
    mutate(h, [&](HostState& hs) { hs = std::move(s); });
}

void ClusterState::set_state(HostId h, NodeState s) {
    mutate(h, [&](HostState& hs) { hs.state = s; });
}

void ClusterState::set_free_gpus(HostId h, int free_gpus) {
    mutate(h, [&](HostState& hs) { hs.free_gpus = free_gpus; });
}

void ClusterState::set_total_gpus(HostId h, int total_gpus) {
    mutate(h, [&](HostState& hs) { hs.total_gpus = total_gpus; });
}

void ClusterState::set_unhealthy(HostId h, bool unhealthy, std::string reason) {
    mutate(h, [&](HostState& hs) {
        hs.unhealthy = unhealthy;
        if (!reason.empty() || !unhealthy) hs.reason = std::move(reason);
    });
}

void ClusterState::set_slowdown(HostId h, double slowdown) {
    const double s = std::isfinite(slowdown) && slowdown > 1.0 ? slowdown : 1.0;
    hosts_.at(h.index()).slowdown = s;  // not part of the counts
    brief_host(h.index());              // but of the host's Brief
}

void ClusterState::mark_health(std::span<const std::pair<HostId, std::string>> unhealthy,
                               std::span<const std::pair<HostId, double>> degraded) {
    for (const auto& [h, reason] : unhealthy) set_unhealthy(h, true, reason);
    for (const auto& [h, s] : degraded) set_slowdown(h, s);
}

void ClusterState::set_busy_gpus(HostId h, std::vector<int> busy) {
    hosts_.at(h.index()).busy_gpus = std::move(busy);  // not part of the counts
    brief_host(h.index());                             // but of the host's Brief
}

void ClusterState::set_reason(HostId h, std::string reason) {
    hosts_.at(h.index()).reason = std::move(reason);  // neither counts nor Brief
}

void ClusterState::set_release_at(HostId h, double release_at) {
    hosts_.at(h.index()).release_at = release_at;  // neither counts nor Brief
}

int ClusterState::group_hosts_fitting(GroupId g, bool exclusive, int gpus_per_node) const {
    if (gpus_per_node >= width_) return 0;
    if (exclusive && gpus_per_node <= 0) return idle_hosts_[g.index()];  // the whole row
    const auto w = static_cast<std::size_t>(width_);
    const auto& v = exclusive ? idle_by_total_ : avail_by_free_;
    const std::size_t base = static_cast<std::size_t>(g.index()) * w;
    int n = 0;
    for (std::size_t k = base + static_cast<std::size_t>(std::max(gpus_per_node, 0)); k < base + w; ++k) n += v[k];
    return n;
}

std::optional<int> ClusterState::group_fewest_free_fitting(GroupId g, int gpus_per_node) const {
    const auto w = static_cast<std::size_t>(width_);
    const std::size_t base = static_cast<std::size_t>(g.index()) * w;
    for (std::size_t f = static_cast<std::size_t>(std::max(gpus_per_node, 0)); f < w; ++f) {
        if (avail_by_free_[base + f] > 0) return static_cast<int>(f);
    }
    return std::nullopt;
}

long ClusterState::group_free_gpus(GroupId g) const {
    return free_sum_[g.index()];
}

GroupCounts ClusterState::group_counts(GroupId g) const {
    const auto w = static_cast<std::size_t>(width_);
    const auto b = static_cast<std::ptrdiff_t>(g.index() * w);
    GroupCounts c;
    c.idle_by_total.assign(idle_by_total_.begin() + b, idle_by_total_.begin() + b + static_cast<std::ptrdiff_t>(w));
    c.avail_by_free.assign(avail_by_free_.begin() + b, avail_by_free_.begin() + b + static_cast<std::ptrdiff_t>(w));
    c.free_gpus = free_sum_[g.index()];
    return c;
}

GroupCounts ClusterState::recount_group(GroupId g) const {
    const auto w = static_cast<std::size_t>(width_);
    GroupCounts c;
    c.idle_by_total.assign(w, 0);
    c.avail_by_free.assign(w, 0);
    for (auto h : layout_->members.at(g.index())) count_host(h, +1, c.idle_by_total, c.avail_by_free, c.free_gpus, 0);
    return c;
}

int ClusterState::total_gpus(const Topology& topo, HostId h) const {
    const auto& s = at(h);
    if (s.total_gpus >= 0) return s.total_gpus;
    return static_cast<int>(topo.host(h).gpus.size());
}

int ClusterState::free_gpus(const Topology& topo, HostId h) const {
    const int total = total_gpus(topo, h);
    const auto& s = at(h);
    if (s.free_gpus < 0) return total;
    return std::min(s.free_gpus, total);
}

bool ClusterState::available(HostId h) const {
    const auto& s = at(h);
    if (s.unhealthy) return false;
    return s.state == NodeState::Idle || s.state == NodeState::Mixed || s.state == NodeState::Alloc;
}

}  // namespace topo::placement
