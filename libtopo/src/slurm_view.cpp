// SPDX-License-Identifier: Apache-2.0
// Slurm's view of the fabric (see slurm_view.hpp): the one place the switch tree of
// topology.conf is built.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include <topo/hostlist.hpp>
#include <topo/slurm_view.hpp>

namespace topo {

namespace {

/// A host a job may run on: not a service host, unless service hosts are asked for.
bool placeable(const Host& h, bool include_service) noexcept {
    return include_service || h.role != HostRole::Service;
}

}  // namespace

bool slurm_node(const Host& h, bool include_service) noexcept {
    return placeable(h, include_service) && !is_guid_host_name(h.name);
}

std::string guid_hosts_warning(const Topology& t, bool include_service) {
    std::vector<std::string> left;
    for (const auto& h : t.hosts()) {
        if (placeable(h, include_service) && is_guid_host_name(h.name)) left.push_back(h.name);
    }
    if (left.empty()) return {};
    std::string list;
    for (std::size_t i = 0; i < left.size() && i < 4; ++i) list += (i > 0 ? "," : "") + left[i];
    if (left.size() > 4) list += ",...";
    return std::to_string(left.size()) + " adapter(s) without a node description are named by GUID and left out ("
           + list + "); name them with ibnetdiscover's --node-name-map (\"0xGUID hostname\") to include them";
}

std::string feature_token(std::string_view name) {
    std::string o;
    o.reserve(name.size());
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                        || c == '.' || c == '-';
        o += ok ? c : '_';
    }
    return o;
}

std::string group_feature(std::string_view group_name) {
    return "lg_" + feature_token(group_name);
}

std::string spine_feature(std::string_view switch_name) {
    return "sp_" + feature_token(switch_name);
}

std::string domain_feature(std::string_view domain_name) {
    return "nvl_" + feature_token(domain_name);
}

namespace {

struct UnionFind {
    std::vector<std::size_t> p;

    explicit UnionFind(std::size_t n) : p(n) { std::iota(p.begin(), p.end(), std::size_t{0}); }

    std::size_t find(std::size_t x) {
        while (p[x] != x) x = p[x] = p[p[x]];
        return x;
    }

    void unite(std::size_t a, std::size_t b) {
        a = find(a);
        b = find(b);
        if (a != b) p[std::max(a, b)] = std::min(a, b);
    }
};

void fill_leaves(std::vector<SlurmViewSwitch>& sw, std::size_t from) {
    for (std::size_t i = from; i < sw.size(); ++i) {  // children always have smaller indexes
        if (sw[i].level == 0) {
            sw[i].leaves = {i};
            continue;
        }
        std::vector<std::size_t> l;
        for (auto c : sw[i].children) l.insert(l.end(), sw[c].leaves.begin(), sw[c].leaves.end());
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
        sw[i].leaves = std::move(l);
    }
}

}  // namespace

SlurmView slurm_view(const Topology& t, const SlurmViewOptions& opt) {
    SlurmView tree;
    auto& sw = tree.switches;

    // Level 0: one Slurm leaf per leaf group with a Slurm node.
    std::multimap<std::uint32_t, std::size_t> phys_to_slurm;  // fabric switch -> Slurm switches below
    for (std::uint32_t g = 0; g < t.groups().size(); ++g) {
        const auto& grp = t.groups()[g];
        SlurmViewSwitch s;
        s.group = GroupId{g};
        for (auto h : grp.hosts) {
            const Host& host = t.host(h);
            if (placeable(host, opt.include_service) && (opt.include_guid_named || !is_guid_host_name(host.name)))
                s.hosts.push_back(h);
        }
        if (s.hosts.empty()) continue;
        std::sort(s.hosts.begin(), s.hosts.end());
        s.physical = grp.leaves;
        tree.nodes += s.hosts.size();
        for (auto l : grp.leaves) phys_to_slurm.emplace(l.index(), sw.size());
        sw.push_back(std::move(s));
    }
    tree.leaves = sw.size();
    if (sw.empty()) return tree;

    // Levels 1..max tier, merged by the set of Slurm switches reached below.
    const auto nsw = t.switches().size();
    std::vector<std::vector<std::uint32_t>> down(nsw);
    int max_tier = 0;
    for (std::uint32_t i = 0; i < nsw; ++i) {
        max_tier = std::max(max_tier, t.switches()[i].tier);
        for (auto u : t.uplinks(SwitchId{i})) down[u.index()].push_back(i);
    }
    for (int k = 1; k <= max_tier; ++k) {
        std::map<std::vector<std::size_t>, std::vector<SwitchId>> by_children;  // ordered: deterministic
        for (std::uint32_t i = 0; i < nsw; ++i) {
            if (t.switches()[i].tier != k) continue;
            std::set<std::size_t> ch;
            for (auto d : down[i]) {
                auto [lo, hi] = phys_to_slurm.equal_range(d);
                for (auto it = lo; it != hi; ++it) ch.insert(it->second);
            }
            if (ch.empty()) continue;
            by_children[std::vector<std::size_t>(ch.begin(), ch.end())].push_back(SwitchId{i});
        }
        if (by_children.empty()) break;
        phys_to_slurm.clear();
        for (auto& [children, phys] : by_children) {
            SlurmViewSwitch s;
            s.level = k;
            s.children = children;
            s.physical = phys;
            for (auto p : phys) phys_to_slurm.emplace(p.index(), sw.size());
            sw.push_back(std::move(s));
        }
    }
    fill_leaves(sw, 0);

    // Connected parts; a synthetic root over a part whose tops do not cover its leaves.
    const std::size_t n = sw.size();
    UnionFind uf(n);
    std::vector<bool> is_child(n, false);
    for (std::size_t i = 0; i < n; ++i) {
        for (auto c : sw[i].children) {
            uf.unite(i, c);
            is_child[c] = true;
        }
    }
    std::map<std::size_t, std::vector<std::size_t>> roots_of;
    std::map<std::size_t, std::size_t> leaves_in;
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_child[i]) roots_of[uf.find(i)].push_back(i);
        if (sw[i].level == 0) ++leaves_in[uf.find(i)];
    }
    std::vector<SlurmViewSwitch> synthetic;
    for (auto& [part, roots] : roots_of) {
        if (roots.size() < 2) continue;
        const std::size_t all = leaves_in[part];  // (a structured binding: not captured, for clang 14)
        const bool covered =
            std::any_of(roots.begin(), roots.end(), [&](std::size_t r) { return sw[r].leaves.size() == all; });
        if (covered) continue;
        SlurmViewSwitch s;
        s.synthetic = true;
        s.children = roots;
        for (auto r : roots) s.level = std::max(s.level, sw[r].level + 1);
        synthetic.push_back(std::move(s));
    }
    std::stable_sort(synthetic.begin(), synthetic.end(),
                     [](const auto& a, const auto& b) { return a.level < b.level; });
    for (auto& s : synthetic) sw.push_back(std::move(s));
    fill_leaves(sw, n);
    for (std::size_t i = 0; i < sw.size(); ++i) {
        sw[i].part = i < n ? uf.find(i) : uf.find(sw[i].children.front());
        tree.top_level = std::max(tree.top_level, sw[i].level);
    }
    tree.parts = roots_of.size();
    return tree;
}

}  // namespace topo
