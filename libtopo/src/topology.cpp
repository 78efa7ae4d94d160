// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <deque>
#include <limits>
#include <set>

#include <topo/topology.hpp>

#include "topology_impl.hpp"

namespace topo {

namespace {
constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();
}

const char* path_class_name(PathClass c) noexcept {
    switch (c) {
        case PathClass::Self: return "X";
        case PathClass::NvLink: return "NV";
        case PathClass::Pix: return "PIX";
        case PathClass::Pxb: return "PXB";
        case PathClass::Phb: return "PHB";
        case PathClass::Node: return "NODE";
        case PathClass::Sys: return "SYS";
        case PathClass::Unknown: return "?";
    }
    return "?";
}

std::optional<PathClass> path_class_from_name(std::string_view s) noexcept {
    if (s == "X") return PathClass::Self;
    if (s.starts_with("NV")) return PathClass::NvLink;
    if (s == "PIX") return PathClass::Pix;
    if (s == "PXB") return PathClass::Pxb;
    if (s == "PHB") return PathClass::Phb;
    if (s == "NODE") return PathClass::Node;
    if (s == "SYS" || s == "SOC") return PathClass::Sys;
    if (s == "?") return PathClass::Unknown;
    return std::nullopt;
}

bool natural_less(std::string_view a, std::string_view b) noexcept {
    std::size_t i = 0;
    std::size_t j = 0;
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t i2 = i;
            std::size_t j2 = j;
            while (i2 < a.size() && a[i2] == '0') ++i2;
            while (j2 < b.size() && b[j2] == '0') ++j2;
            std::size_t ie = i2;
            std::size_t je = j2;
            while (ie < a.size() && digit(a[ie])) ++ie;
            while (je < b.size() && digit(b[je])) ++je;
            if (ie - i2 != je - j2) return ie - i2 < je - j2;
            const int c = a.substr(i2, ie - i2).compare(b.substr(j2, je - j2));
            if (c != 0) return c < 0;
            // equal value: fewer leading zeros first, for a total order
            if (i2 - i != j2 - j) return i2 - i < j2 - j;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

Topology::Topology() : impl_(std::make_unique<Impl>()) {}

Topology::~Topology() = default;
Topology::Topology(Topology&&) noexcept = default;
Topology& Topology::operator=(Topology&&) noexcept = default;

std::vector<std::uint32_t> Topology::Impl::bfs(const std::vector<SwitchId>& sources) const {
    const auto n = static_cast<std::size_t>(boost::num_vertices(graph));
    std::vector<std::uint32_t> dist(n, kUnreached);
    std::deque<std::uint32_t> q;
    for (auto s : sources) {
        if (s.index() < n && dist[s.index()] == kUnreached) {
            dist[s.index()] = 0;
            q.push_back(s.index());
        }
    }
    while (!q.empty()) {
        const auto v = q.front();
        q.pop_front();
        for (auto [it, end] = boost::adjacent_vertices(v, graph); it != end; ++it) {
            if (dist[*it] == kUnreached) {
                dist[*it] = dist[v] + 1;
                q.push_back(*it);
            }
        }
    }
    return dist;
}

std::optional<HostId> Topology::find_host(std::string_view name) const {
    const auto it = impl_->host_by_name.find(name);
    if (it == impl_->host_by_name.end()) return std::nullopt;
    return it->second;
}

std::optional<SwitchId> Topology::find_switch(std::string_view key) const {
    const auto it = impl_->switch_by_key.find(key);
    if (it != impl_->switch_by_key.end()) return it->second;
    for (std::size_t i = 0; i < switches_.size(); ++i) {
        if (switches_[i].name == key) return SwitchId(static_cast<std::uint32_t>(i));
    }
    return std::nullopt;
}

std::vector<SwitchId> Topology::leaves_of(HostId h) const {
    return impl_->host_leaves.at(h.index());
}

std::span<const SwitchId> Topology::uplinks(SwitchId s) const {
    return impl_->uplinks.at(s.index());
}

std::optional<int> Topology::lowest_common_tier(HostId a, HostId b) const {
    std::set<SwitchId> sa(impl_->host_leaves.at(a.index()).begin(), impl_->host_leaves.at(a.index()).end());
    std::set<SwitchId> sb(impl_->host_leaves.at(b.index()).begin(), impl_->host_leaves.at(b.index()).end());
    if (sa.empty() || sb.empty()) return std::nullopt;
    for (int t = 0; t <= tiers_; ++t) {
        for (auto s : sa) {
            if (sb.contains(s)) return std::max(t, switches_[s.index()].tier);
        }
        auto up = [&](const std::set<SwitchId>& in) {
            std::set<SwitchId> out;
            for (auto s : in) {
                for (auto u : impl_->uplinks[s.index()]) out.insert(u);
            }
            return out;
        };
        sa = up(sa);
        sb = up(sb);
        if (sa.empty() || sb.empty()) break;
    }
    // Not a clean up/down tree: fall back to half the switch distance.
    auto hops = hop_count(a, b);
    if (!hops) return std::nullopt;
    return (*hops - 2 + 1) / 2;
}

std::optional<int> Topology::hop_count(HostId a, HostId b) const {
    if (a == b) return 0;
    const auto& la = impl_->host_leaves.at(a.index());
    const auto& lb = impl_->host_leaves.at(b.index());
    if (la.empty() || lb.empty()) return std::nullopt;
    const auto dist = impl_->bfs(la);
    std::uint32_t best = kUnreached;
    for (auto s : lb) best = std::min(best, dist[s.index()]);
    if (best == kUnreached) return std::nullopt;
    return static_cast<int>(best) + 2;
}

PathClass Topology::path(GpuId g, NicId n) const {
    for (const auto& p : gpu_nic_) {
        if (p.gpu == g && p.nic == n) return p.cls;
    }
    return PathClass::Unknown;
}

std::vector<NicId> Topology::nearest_nics(GpuId g) const {
    // gpu_nic_ is sorted by (gpu, nic): binary search the GPU's range.
    auto lo =
        std::lower_bound(gpu_nic_.begin(), gpu_nic_.end(), g, [](const GpuNicPath& p, GpuId id) { return p.gpu < id; });
    PathClass best = PathClass::Unknown;
    std::vector<NicId> out;
    for (auto it = lo; it != gpu_nic_.end() && it->gpu == g; ++it) {
        if (it->cls == PathClass::Unknown) continue;
        if (it->cls < best) {
            best = it->cls;
            out.clear();
        }
        if (it->cls == best) out.push_back(it->nic);
    }
    return out;
}

Summary Topology::summary() const {
    Summary s;
    for (const auto& h : hosts_) {
        const bool on_fabric =
            std::any_of(h.nics.begin(), h.nics.end(), [&](NicId n) { return nics_[n.index()].leaf.valid(); });
        if (switches_.empty() || on_fabric) ++s.hosts;
        if (h.role == HostRole::Compute) ++s.compute_hosts;
        if (h.role == HostRole::Service) ++s.service_hosts;
    }
    s.gpus = static_cast<int>(gpus_.size());
    s.nics = static_cast<int>(nics_.size());
    s.switches = static_cast<int>(switches_.size());
    s.tiers = tiers_;
    s.rails = rails_;
    s.nvlink_domains = static_cast<int>(domains_.size());
    s.nvswitches = static_cast<int>(nvswitches_.size());
    s.links = static_cast<int>(links_.size());
    return s;
}

}  // namespace topo
