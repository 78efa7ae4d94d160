// SPDX-License-Identifier: Apache-2.0
// Placer::Index: the Slurm-style switch tree over leaf groups (libtopo's slurm_view(), the
// one slurm-conf writes to topology.conf, so that the slurm-tree policy sees the switches a
// live slurmctld would), its distances, and the per-leaf host lists.
#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>

#include <topo/slurm_view.hpp>

#include "internal.hpp"

namespace topo::placement {

namespace {

constexpr int kInf = std::numeric_limits<int>::max() / 4;

}  // namespace

Placer::Placer(const Topology& topo) : topo_(&topo), idx_(std::make_unique<Index>()) {
    Index& ix = *idx_;
    const auto hosts = topo.hosts();
    ix.n_hosts = static_cast<int>(hosts.size());
    ix.leaf_of_host.assign(hosts.size(), -1);
    ix.domain_of_host.assign(hosts.size(), -1);
    ix.all_rails.assign(hosts.size(), 1);
    ix.host_gpus.resize(hosts.size());
    for (std::size_t h = 0; h < hosts.size(); ++h) ix.host_gpus[h] = static_cast<int>(hosts[h].gpus.size());

    // Slurm's switch tree, as topology.conf says it (libtopo/slurm_view.hpp): the leaves are
    // the leaf groups with a node, their hosts the placeable ones. Adapters named by GUID
    // are placeable too (a fabric dumped without node names is still a what-if).
    const SlurmView tree = slurm_view(topo, {.include_guid_named = true});
    for (std::size_t i = 0; i < tree.switches.size(); ++i) {
        const SlurmViewSwitch& v = tree.switches[i];
        Index::Sw s;
        s.level = v.level;
        s.group = v.group;
        s.children.assign(v.children.begin(), v.children.end());
        s.leaves.assign(v.leaves.begin(), v.leaves.end());
        if (v.level == 0) {
            s.name = topo.groups()[v.group.index()].name;
            std::vector<std::uint32_t> hs;
            for (auto h : v.hosts) {
                hs.push_back(h.index());
                ix.leaf_of_host[h.index()] = static_cast<int>(i);
            }
            ix.leaf_contiguous.push_back(
                !hs.empty() && std::is_sorted(hs.begin(), hs.end()) && hs.back() - hs.front() + 1 == hs.size() ? 1 : 0);
            ix.leaf_hosts.push_back(std::move(hs));
            ix.leaf_switch_count.push_back(static_cast<int>(v.physical.size()));
        } else if (v.synthetic) {
            s.name = "root" + std::to_string(v.part);
        } else {
            std::vector<std::string> labels;
            for (auto p : v.physical) labels.push_back(switch_label(topo.sw(p)));
            std::sort(labels.begin(), labels.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
            s.name = labels.front();
            if (labels.size() > 1) s.name += "+" + std::to_string(labels.size() - 1);
        }
        ix.sw.push_back(std::move(s));
    }
    ix.n_leaves = static_cast<int>(tree.leaves);
    for (int c : ix.leaf_switch_count)
        ix.uniform_leaf_switches = ix.uniform_leaf_switches && c == ix.leaf_switch_count.front();
    ix.component.assign(tree.leaves, 0);
    for (std::size_t l = 0; l < tree.leaves; ++l) ix.component[l] = static_cast<int>(tree.switches[l].part);

    // Parents (the last switch listing a child wins, as in Slurm's table build).
    for (std::size_t i = 0; i < ix.sw.size(); ++i) {
        for (int c : ix.sw[i].children) ix.sw[static_cast<std::size_t>(c)].parent = static_cast<int>(i);
        ix.top_level = std::max(ix.top_level, ix.sw[i].level);
    }

    // All-pairs hop distance over child-parent edges (Slurm: Floyd-Warshall).
    const std::size_t m = ix.sw.size();
    std::vector<std::vector<int>> adj(m);
    for (std::size_t i = 0; i < m; ++i) {
        for (int c : ix.sw[i].children) {
            adj[i].push_back(c);
            adj[static_cast<std::size_t>(c)].push_back(static_cast<int>(i));
        }
    }
    ix.dist.assign(m * m, kInf);
    for (std::size_t s = 0; s < m; ++s) {
        std::deque<int> q{static_cast<int>(s)};
        ix.dist[s * m + s] = 0;
        while (!q.empty()) {
            const int u = q.front();
            q.pop_front();
            for (int v : adj[static_cast<std::size_t>(u)]) {
                auto& dv = ix.dist[s * m + static_cast<std::size_t>(v)];
                if (dv == kInf) {
                    dv = ix.dist[s * m + static_cast<std::size_t>(u)] + 1;
                    q.push_back(v);
                }
            }
        }
    }
    ix.by_level_order.resize(m);
    std::iota(ix.by_level_order.begin(), ix.by_level_order.end(), 0);
    std::stable_sort(ix.by_level_order.begin(), ix.by_level_order.end(), [&](int a, int b) {
        return ix.sw[static_cast<std::size_t>(a)].level < ix.sw[static_cast<std::size_t>(b)].level;
    });
    // per leaf, the switches above it (those whose leaves include it), in by_level_order
    ix.above.assign(static_cast<std::size_t>(ix.n_leaves), {});
    for (int x : ix.by_level_order) {
        for (int l : ix.sw[static_cast<std::size_t>(x)].leaves) ix.above[static_cast<std::size_t>(l)].push_back(x);
    }

    // Rails: a host is rail-aligned when it has a NIC on every rail.
    const int rails = topo.rails();
    if (rails > 1) {
        for (std::uint32_t h = 0; h < hosts.size(); ++h) {
            std::vector<bool> seen(static_cast<std::size_t>(rails), false);
            int cnt = 0;
            for (auto nid : hosts[h].nics) {
                const int r = topo.nic(nid).rail;
                if (r >= 0 && r < rails && !seen[static_cast<std::size_t>(r)] && topo.nic(nid).leaf.valid()) {
                    seen[static_cast<std::size_t>(r)] = true;
                    ++cnt;
                }
            }
            ix.all_rails[h] = cnt == rails ? 1 : 0;
        }
    }

    for (std::size_t h = 0; h < hosts.size(); ++h)
        ix.all_rail_complete = ix.all_rail_complete && (ix.leaf_of_host[h] < 0 || ix.all_rails[h] != 0);

    // Slurm's per-switch node bitmaps (switch_record_table[i].node_bitmap).
    ix.n_words = (ix.n_hosts + 63) / 64;
    ix.sw_bits.assign(ix.sw.size() * static_cast<std::size_t>(ix.n_words), 0);
    for (std::size_t i = 0; i < ix.sw.size(); ++i) {
        auto* bits = ix.sw_bits.data() + i * static_cast<std::size_t>(ix.n_words);
        for (int l : ix.sw[i].leaves) {
            for (auto h : ix.leaf_hosts[static_cast<std::size_t>(l)]) bits[h / 64] |= std::uint64_t{1} << (h % 64);
        }
    }
    ix.sw_lo.assign(ix.sw.size(), 0);
    ix.sw_hi.assign(ix.sw.size(), 0);
    ix.sw_off.assign(ix.sw.size() + 1, 0);
    for (std::size_t i = 0; i < ix.sw.size(); ++i) {
        const auto nw = static_cast<std::uint32_t>(ix.n_words);
        const auto* bits = ix.sw_bits.data() + i * nw;
        std::uint32_t lo = 0;
        while (lo < nw && bits[lo] == 0) ++lo;
        std::uint32_t hi = nw;
        while (hi > lo && bits[hi - 1] == 0) --hi;
        ix.sw_lo[i] = lo;
        ix.sw_hi[i] = hi;
        ix.sw_off[i + 1] = ix.sw_off[i] + (hi - lo);
    }

    // Multi-node NVLink domains.
    for (std::uint32_t d = 0; d < topo.nvl_domains().size(); ++d) {
        const auto& dom = topo.nvl_domains()[d];
        if (!dom.multi_node) continue;
        Index::Domain x;
        x.id = DomainId{d};
        x.name = dom.name;
        x.usable = dom.usable_hosts;
        for (auto h : dom.hosts) {
            if (ix.leaf_of_host[h.index()] >= 0) x.hosts.push_back(h.index());
        }
        std::sort(x.hosts.begin(), x.hosts.end());
        const int di = static_cast<int>(ix.domains.size());
        for (auto h : x.hosts) ix.domain_of_host[h] = di;
        ix.domains.push_back(std::move(x));
    }
}

Placer::Placer(const Topology& topo, const perf::Params& model) : Placer(topo) {
    idx_->model = model;
}

Placer::~Placer() = default;
Placer::Placer(Placer&& other) noexcept = default;
Placer& Placer::operator=(Placer&& other) noexcept = default;

}  // namespace topo::placement
