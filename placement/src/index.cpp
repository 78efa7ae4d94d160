// SPDX-License-Identifier: Apache-2.0
// Placer::Index: the Slurm-style switch tree over leaf groups, its distances, and the
// per-leaf host lists. Mirrors slurm-conf/src/tree.cpp (what topology.conf says) so that
// the slurm-tree policy sees the same switches a live slurmctld would.
#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include "internal.hpp"

namespace topo::placement {

namespace {

constexpr int kInf = std::numeric_limits<int>::max() / 4;

std::string switch_label(const Switch& s) {
    return s.name.empty() ? s.guid : s.name;
}

struct UnionFind {
    std::vector<int> p;

    explicit UnionFind(std::size_t n) : p(n) { std::iota(p.begin(), p.end(), 0); }

    int find(int x) {
        while (p[static_cast<std::size_t>(x)] != x) {
            p[static_cast<std::size_t>(x)] = p[static_cast<std::size_t>(p[static_cast<std::size_t>(x)])];
            x = p[static_cast<std::size_t>(x)];
        }
        return x;
    }

    void unite(int a, int b) {
        a = find(a);
        b = find(b);
        if (a != b) p[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    }
};

}  // namespace

Placer::Placer(const Topology& topo) : topo_(&topo), idx_(std::make_unique<Index>()) {
    Index& ix = *idx_;
    const auto hosts = topo.hosts();
    ix.n_hosts = static_cast<int>(hosts.size());
    ix.leaf_of_host.assign(hosts.size(), -1);
    ix.domain_of_host.assign(hosts.size(), -1);
    ix.all_rails.assign(hosts.size(), 1);
    ix.host_gpus.resize(hosts.size());
    for (std::size_t h = 0; h < hosts.size(); ++h)
        ix.host_gpus[h] = static_cast<int>(hosts[h].gpus.size());

    // Level 0: one leaf per group with a placeable (non-service) host.
    std::multimap<std::uint32_t, int> phys_to_slurm;
    for (std::uint32_t g = 0; g < topo.groups().size(); ++g) {
        const auto& grp = topo.groups()[g];
        std::vector<std::uint32_t> hs;
        for (auto h : grp.hosts) {
            if (topo.host(h).role != HostRole::Service) hs.push_back(h.index());
        }
        if (hs.empty()) continue;
        std::sort(hs.begin(), hs.end());
        const int leaf = static_cast<int>(ix.sw.size());
        Index::Sw s;
        s.level = 0;
        s.leaves = {leaf};
        s.name = grp.name;
        s.group = GroupId{g};
        for (auto h : hs)
            ix.leaf_of_host[h] = leaf;
        ix.leaf_hosts.push_back(std::move(hs));
        ix.leaf_switch_count.push_back(static_cast<int>(grp.leaves.size()));
        for (auto l : grp.leaves)
            phys_to_slurm.emplace(l.index(), leaf);
        ix.sw.push_back(std::move(s));
    }
    ix.n_leaves = static_cast<int>(ix.sw.size());
    for (int c : ix.leaf_switch_count)
        ix.uniform_leaf_switches = ix.uniform_leaf_switches && c == ix.leaf_switch_count.front();

    // Levels 1..max tier, merged by the set of children reached (as slurm-conf does).
    const auto nsw = topo.switches().size();
    std::vector<std::vector<std::uint32_t>> down(nsw);
    int max_tier = 0;
    for (std::uint32_t i = 0; i < nsw; ++i) {
        max_tier = std::max(max_tier, topo.switches()[i].tier);
        for (auto u : topo.uplinks(SwitchId{i}))
            down[u.index()].push_back(i);
    }
    for (int k = 1; k <= max_tier; ++k) {
        std::map<std::vector<int>, std::vector<std::uint32_t>> by_children;
        for (std::uint32_t i = 0; i < nsw; ++i) {
            if (topo.switches()[i].tier != k) continue;
            std::set<int> ch;
            for (auto dn : down[i]) {
                auto [lo, hi] = phys_to_slurm.equal_range(dn);
                for (auto it = lo; it != hi; ++it)
                    ch.insert(it->second);
            }
            if (ch.empty()) continue;
            by_children[std::vector<int>(ch.begin(), ch.end())].push_back(i);
        }
        if (by_children.empty()) break;
        phys_to_slurm.clear();
        for (auto& [children, phys] : by_children) {
            Index::Sw s;
            s.level = k;
            s.children.assign(children.begin(), children.end());
            std::vector<std::string> labels;
            for (auto p : phys)
                labels.push_back(switch_label(topo.switches()[p]));
            std::sort(labels.begin(), labels.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
            s.name = labels.front();
            if (labels.size() > 1) s.name += "+" + std::to_string(labels.size() - 1);
            const int idx = static_cast<int>(ix.sw.size());
            for (auto p : phys)
                phys_to_slurm.emplace(p, idx);
            ix.sw.push_back(std::move(s));
        }
    }

    // Below-sets, connected parts, synthetic roots.
    auto fill_leaves = [&](std::size_t from) {
        for (std::size_t i = from; i < ix.sw.size(); ++i) {
            if (ix.sw[i].level == 0) continue;
            std::vector<int> l;
            for (int c : ix.sw[i].children) {
                const auto& cl = ix.sw[static_cast<std::size_t>(c)].leaves;
                l.insert(l.end(), cl.begin(), cl.end());
            }
            std::sort(l.begin(), l.end());
            l.erase(std::unique(l.begin(), l.end()), l.end());
            ix.sw[i].leaves = std::move(l);
        }
    };
    fill_leaves(0);
    const std::size_t n = ix.sw.size();
    UnionFind uf(n);
    std::vector<bool> is_child(n, false);
    for (std::size_t i = 0; i < n; ++i) {
        for (int c : ix.sw[i].children) {
            uf.unite(static_cast<int>(i), c);
            is_child[static_cast<std::size_t>(c)] = true;
        }
    }
    std::map<int, std::vector<int>> roots_of;
    std::map<int, int> leaves_in;
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_child[i]) roots_of[uf.find(static_cast<int>(i))].push_back(static_cast<int>(i));
        if (ix.sw[i].level == 0) ++leaves_in[uf.find(static_cast<int>(i))];
    }
    for (auto& [part, roots] : roots_of) {
        if (roots.size() < 2) continue;
        bool covered = false;
        for (int r : roots)
            covered = covered || static_cast<int>(ix.sw[static_cast<std::size_t>(r)].leaves.size()) == leaves_in[part];
        if (covered) continue;
        Index::Sw s;
        s.children = roots;
        for (int r : roots)
            s.level = std::max(s.level, ix.sw[static_cast<std::size_t>(r)].level + 1);
        s.name = "root" + std::to_string(part);
        ix.sw.push_back(std::move(s));
    }
    fill_leaves(n);
    ix.component.assign(static_cast<std::size_t>(ix.n_leaves), 0);
    for (int l = 0; l < ix.n_leaves; ++l)
        ix.component[static_cast<std::size_t>(l)] = uf.find(l);

    // Parents (the last switch listing a child wins, as in Slurm's table build).
    for (std::size_t i = 0; i < ix.sw.size(); ++i) {
        for (int c : ix.sw[i].children)
            ix.sw[static_cast<std::size_t>(c)].parent = static_cast<int>(i);
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
            for (auto h : ix.leaf_hosts[static_cast<std::size_t>(l)])
                bits[h / 64] |= std::uint64_t{1} << (h % 64);
        }
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
        for (auto h : x.hosts)
            ix.domain_of_host[h] = di;
        ix.domains.push_back(std::move(x));
    }
}

Placer::Placer(const Topology& topo, const perf::Params& model) : Placer(topo) { idx_->model = model; }

Placer::~Placer() = default;
Placer::Placer(Placer&&) noexcept = default;
Placer& Placer::operator=(Placer&&) noexcept = default;

}  // namespace topo::placement
