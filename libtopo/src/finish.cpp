// SPDX-License-Identifier: Apache-2.0
// TopologyAccess::finish: the inference shared by TopologyBuilder::freeze and the
// snapshot loader (tiers, rails, leaf groups, NVLink domains, indexes, fingerprint).
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "topology_impl.hpp"

namespace topo {

namespace {

constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();

/// FNV-1a over the model's canonical fields (not over JSON text: serialising a
/// 100k-GPU model just to hash it cost a third of a snapshot load).
class Fnv {
public:
    void bytes(const void* p, std::size_t n) {
        const auto* c = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) {
            h_ ^= c[i];
            h_ *= 1099511628211ULL;
        }
    }
    Fnv& operator<<(std::string_view s) {
        const std::uint64_t n = s.size();
        bytes(&n, sizeof n);
        bytes(s.data(), s.size());
        return *this;
    }
    Fnv& operator<<(const std::string& s) { return *this << std::string_view(s); }
    Fnv& operator<<(std::int64_t v) {
        bytes(&v, sizeof v);
        return *this;
    }
    Fnv& operator<<(int v) { return *this << static_cast<std::int64_t>(v); }
    Fnv& operator<<(std::uint32_t v) { return *this << static_cast<std::int64_t>(v); }
    Fnv& operator<<(double v) {
        bytes(&v, sizeof v);
        return *this;
    }
    template <class Tag>
    Fnv& operator<<(Id<Tag> id) {
        return *this << static_cast<std::int64_t>(id.valid() ? static_cast<std::int64_t>(id.index()) : -1);
    }
    [[nodiscard]] std::string hex() const {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
        return buf;
    }

private:
    std::uint64_t h_ = 1469598103934665603ULL;
};

/// Replace bytes that are not valid UTF-8 with '?', so that every string of a frozen
/// model serialises to JSON and reads back identically.
void fix_utf8(std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool ok = len != 0 && i + len <= s.size();
        for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
        if (ok && c < 0x20 && c != '\t') ok = false;  // control characters: keep files printable
        if (!ok) {
            s[i] = '?';
            len = 1;
        }
        i += len;
    }
}


template <class E>
int en(E e) {
    return static_cast<int>(e);
}

struct NaturalLess {
    bool operator()(const std::string& a, const std::string& b) const { return natural_less(a, b); }
};

/// Union-find over dense indexes (path halving).
class DisjointSets {
public:
    explicit DisjointSets(std::size_t n) : parent_(n) {
        for (std::uint32_t i = 0; i < parent_.size(); ++i) parent_[i] = i;
    }
    std::uint32_t find(std::uint32_t x) {
        while (parent_[x] != x) {
            parent_[x] = parent_[parent_[x]];
            x = parent_[x];
        }
        return x;
    }
    void join(std::uint32_t a, std::uint32_t b) { parent_[find(a)] = find(b); }

private:
    std::vector<std::uint32_t> parent_;
};

}  // namespace

Result<TopologyPtr> TopologyAccess::finish(std::shared_ptr<Topology> topo, const std::vector<DeclaredDomain>& declared,
                                           const std::string* known_fingerprint) {
    Topology& t = *topo;
    Topology::Impl& impl = *t.impl_;
    // Inferred fields are recomputed from scratch, whatever the producer left there.
    for (auto& n : t.nics_) n.rail = -1;
    for (auto& h : t.hosts_) h.group = GroupId{};
    for (auto& g : t.gpus_) g.nvl_domain = DomainId{};
    for (auto& s : t.nvswitches_) s.nvl_domain = DomainId{};
    t.groups_.clear();
    t.domains_.clear();

    // ---- links: one per NIC on the fabric (in NIC order), then the switch cables
    {
        std::vector<Link> all;
        all.reserve(t.nics_.size() + t.links_.size());
        for (std::size_t i = 0; i < t.nics_.size(); ++i) {
            const Nic& n = t.nics_[i];
            if (!n.leaf.valid()) continue;
            Link l;
            l.kind = n.provenance == Provenance::Declared ? LinkKind::Declared : LinkKind::Ib;
            l.nic = NicId(static_cast<std::uint32_t>(i));
            l.a = n.leaf;
            l.port_a = n.leaf_port;
            l.gbps = n.rate_gbps;
            l.rate = n.rate;
            all.push_back(std::move(l));
        }
        for (auto& l : t.links_) {
            if (!l.nic.valid()) all.push_back(std::move(l));
        }
        t.links_ = std::move(all);
    }

    // ---- switch graph from the cables
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const auto& l : t.links_) {
        if (l.nic.valid() || !l.a.valid() || !l.b.valid()) continue;
        edges.emplace_back(l.a.index(), l.b.index());
        edges.emplace_back(l.b.index(), l.a.index());
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    impl.graph = SwitchGraph(boost::edges_are_sorted, edges.begin(), edges.end(), t.switches_.size());

    // ---- tiers: BFS distance from the leaves. A leaf is a switch a host plugs into,
    // or a host-less switch with a single neighbour switch: an unpopulated leaf hanging
    // off one spine (Selene's management leaf MLG01-05). Without the second rule such a
    // dead end would count as a tier above the cores.
    std::vector<SwitchId> leaves;
    {
        std::set<SwitchId> ls;
        for (const auto& n : t.nics_) {
            if (n.leaf.valid()) ls.insert(n.leaf);
        }
        std::vector<int> degree(t.switches_.size(), 0);
        for (const auto& [a, b2] : edges) ++degree[a];  // edges are unique and directed both ways
        // A host-less switch cabled to exactly the same switches as a populated leaf is an
        // unpopulated leaf too (the director dump's six empty QM8700 ToRs, uplinked to the
        // same 20 director leaf ASICs as the populated ToRs); BFS alone would put it one
        // tier above those ASICs, beside the director spines.
        std::vector<std::vector<std::uint32_t>> nbrs(t.switches_.size());
        for (const auto& [a, b2] : edges) nbrs[a].push_back(b2);  // sorted: edges are sorted
        std::set<std::vector<std::uint32_t>> leaf_nbrs;
        for (const auto& l : ls) leaf_nbrs.insert(nbrs[l.index()]);
        const std::set<SwitchId> host_leaves(ls.begin(), ls.end());
        for (std::size_t i = 0; i < t.switches_.size(); ++i) {
            const SwitchId id(static_cast<std::uint32_t>(i));
            if (host_leaves.count(id) != 0) continue;
            if (degree[i] == 1 && !host_leaves.empty()) ls.insert(id);
            if (degree[i] >= 1 && leaf_nbrs.count(nbrs[i]) != 0) ls.insert(id);
        }
        leaves.assign(ls.begin(), ls.end());
    }
    const auto dist = impl.bfs(leaves);
    int max_tier = -1;
    int orphans = 0;
    for (std::size_t i = 0; i < t.switches_.size(); ++i) {
        if (dist[i] == kUnreached) {
            t.switches_[i].tier = 0;
            ++orphans;
        } else {
            t.switches_[i].tier = static_cast<int>(dist[i]);
        }
        max_tier = std::max(max_tier, t.switches_[i].tier);
    }
    if (orphans > 0) {
        t.warnings_.push_back(std::to_string(orphans) +
                              " switch(es) have no path to any host; counted as tier 0");
    }
    // A top tier that the lower tiers do not need to connect the leaves is not a tier
    // of its own: e.g. PSMN X5's fifth spine, cabled only to two other spines. Demote
    // it (a real core tier joins pods that are otherwise disconnected).
    while (max_tier >= 2) {
        DisjointSets sets(t.switches_.size());
        for (const auto& [a, b2] : edges) {
            if (t.switches_[a].tier < max_tier && t.switches_[b2].tier < max_tier) sets.join(a, b2);
        }
        std::set<std::uint32_t> comps;
        for (const auto& n : t.nics_) {
            if (n.leaf.valid()) comps.insert(sets.find(n.leaf.index()));
        }
        if (comps.size() > 1) break;
        for (auto& sw : t.switches_) {
            if (sw.tier == max_tier) sw.tier = max_tier - 1;
        }
        --max_tier;
    }
    t.tiers_ = max_tier + 1;
    impl.uplinks.assign(t.switches_.size(), {});
    for (const auto& [a, b] : edges) {
        if (t.switches_[b].tier == t.switches_[a].tier + 1) impl.uplinks[a].emplace_back(b);
    }

    // ---- rails: NIC names of hosts whose NICs sit on distinct leaves. Service hosts
    // (UFM/SM servers, dual-homed on two leaves for availability) say nothing about a rail
    // layout: they neither count nor get a rail of their own.
    const auto rail_host = [](const Host& h) { return h.role != HostRole::Service; };
    std::set<std::string, NaturalLess> rail_names;
    bool rail_by_position = false;
    int multi_leaf_hosts = 0;
    int fabric_hosts = 0;
    int rail_fabric_hosts = 0;  // non-service hosts on the fabric
    std::size_t max_multi = 0;
    for (const auto& h : t.hosts_) {
        std::vector<SwitchId> ls;
        std::vector<std::string> ns;
        for (auto nid : h.nics) {
            const Nic& n = t.nics_[nid.index()];
            if (!n.leaf.valid()) continue;
            ls.push_back(n.leaf);
            ns.push_back(n.name);
        }
        if (ls.empty()) continue;
        ++fabric_hosts;
        if (rail_host(h)) ++rail_fabric_hosts;
        std::set<SwitchId> distinct(ls.begin(), ls.end());
        if (rail_host(h) && ls.size() >= 2 && distinct.size() == ls.size()) {
            ++multi_leaf_hosts;
            max_multi = std::max(max_multi, ls.size());
            for (const auto& nm : ns) {
                if (nm.empty()) rail_by_position = true;
                rail_names.insert(nm);
            }
        }
    }
    // Hosts that name their HCAs differently (HCA-1 vs mlx5_0) make the union larger
    // than any host: fall back to the position of the NIC on its host.
    if (rail_names.size() > max_multi) rail_by_position = true;
    std::map<std::string, int> rail_of_name;
    if (!rail_by_position) {
        int r = 0;
        for (const auto& nm : rail_names) rail_of_name[nm] = r++;
    }
    // A rail layout is the design of the fabric: (nearly) every host has one NIC per rail.
    // A few hosts on two leaves among single-leaf hosts (dual-homed storage or login nodes,
    // a node listed under two leaves in a topology.conf) are exceptions, not rails.
    const bool rail_layout = multi_leaf_hosts > 0 && 2 * multi_leaf_hosts >= rail_fabric_hosts;
    if (rail_layout) {
        t.rails_ = rail_by_position ? static_cast<int>(max_multi) : static_cast<int>(rail_names.size());
    } else {
        t.rails_ = fabric_hosts > 0 ? 1 : 0;
    }
    impl.host_leaves.assign(t.hosts_.size(), {});
    for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
        const Host& h = t.hosts_[hi];
        std::vector<std::pair<int, NicId>> on;
        std::set<SwitchId> distinct;
        for (auto nid : h.nics) {
            const Nic& n = t.nics_[nid.index()];
            if (n.leaf.valid()) {
                on.emplace_back(0, nid);
                distinct.insert(n.leaf);
            }
        }
        if (on.empty()) continue;
        const bool multi = rail_layout && rail_host(h) && on.size() >= 2 && distinct.size() == on.size();
        for (std::size_t k = 0; k < on.size(); ++k) {
            Nic& n = t.nics_[on[k].second.index()];
            if (!multi) {
                n.rail = 0;
            } else if (rail_by_position) {
                n.rail = static_cast<int>(k);
            } else {
                n.rail = rail_of_name.at(n.name);
            }
            on[k].first = n.rail;
        }
        std::stable_sort(on.begin(), on.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        auto& hl = impl.host_leaves[hi];
        for (const auto& [r, nid] : on) {
            const SwitchId leaf = t.nics_[nid.index()].leaf;
            if (std::find(hl.begin(), hl.end(), leaf) == hl.end()) hl.push_back(leaf);
        }
    }

    // ---- leaf groups: hosts with exactly the same leaf set, named in host order
    std::map<std::vector<SwitchId>, GroupId> group_by_leaves;
    for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
        const auto& hl = impl.host_leaves[hi];
        if (hl.empty()) continue;
        std::vector<SwitchId> key(hl.begin(), hl.end());
        std::sort(key.begin(), key.end());
        auto [it, ins] = group_by_leaves.try_emplace(key, GroupId(static_cast<std::uint32_t>(t.groups_.size())));
        if (ins) {
            LeafGroup g;
            char buf[32];
            std::snprintf(buf, sizeof buf, "g%03zu", t.groups_.size() + 1);
            g.name = buf;
            g.leaves = hl;
            t.groups_.push_back(std::move(g));
        }
        t.groups_[it->second.index()].hosts.emplace_back(static_cast<std::uint32_t>(hi));
        t.hosts_[hi].group = it->second;
    }

    // ---- NVLink domains: declared multi-node ones first, then per-host islands
    std::set<HostId> in_multi;
    for (const auto& dd : declared) {
        NvlDomain d;
        d.name = dd.name;
        d.multi_node = true;
        d.usable_hosts = dd.usable_hosts;
        const DomainId did(static_cast<std::uint32_t>(t.domains_.size()));
        for (auto hid : dd.hosts) {
            if (!hid.valid() || hid.index() >= t.hosts_.size()) {
                return fail(Errc::Parse, "NVLink domain " + dd.name + " names a host index out of range");
            }
            if (!in_multi.insert(hid).second) {
                return fail(Errc::Parse, "host " + t.hosts_[hid.index()].name +
                                             " is in two multi-node NVLink domains (second: " + dd.name + ")");
            }
            for (auto gid : t.hosts_[hid.index()].gpus) {
                d.gpus.push_back(gid);
                t.gpus_[gid.index()].nvl_domain = did;
            }
        }
        d.hosts = dd.hosts;
        t.domains_.push_back(std::move(d));
    }
    {
        // union-find over NVLink pairs, per host
        DisjointSets sets(t.gpus_.size());
        std::vector<bool> linked(t.gpus_.size(), false);
        for (const auto& p : t.nvlinks_) {
            linked[p.a.index()] = linked[p.b.index()] = true;
            sets.join(p.a.index(), p.b.index());
        }
        for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
            if (in_multi.contains(HostId(static_cast<std::uint32_t>(hi)))) continue;
            std::map<std::uint32_t, std::vector<GpuId>> comps;
            for (auto gid : t.hosts_[hi].gpus) {
                if (linked[gid.index()]) comps[sets.find(gid.index())].push_back(gid);
            }
            std::vector<std::vector<GpuId>> ordered;
            for (auto& [root, gs] : comps) ordered.push_back(std::move(gs));
            std::sort(ordered.begin(), ordered.end());
            int k = 0;
            for (auto& gs : ordered) {
                NvlDomain d;
                d.name = t.hosts_[hi].name + ":nvl" + std::to_string(k++);
                d.hosts.emplace_back(static_cast<std::uint32_t>(hi));
                const DomainId did(static_cast<std::uint32_t>(t.domains_.size()));
                for (auto gid : gs) t.gpus_[gid.index()].nvl_domain = did;
                d.gpus = std::move(gs);
                t.domains_.push_back(std::move(d));
            }
        }
    }

    // An NVSwitch belongs to the domain of the GPUs cabled to it.
    for (auto& s : t.nvswitches_) {
        for (auto g : s.gpus) {
            if (g.valid() && g.index() < t.gpus_.size() && t.gpus_[g.index()].nvl_domain.valid()) {
                s.nvl_domain = t.gpus_[g.index()].nvl_domain;
                break;
            }
        }
    }

    {
        // Reloading a snapshot re-adds its stored warnings before freeze adds its own:
        // keep the first occurrence of each, so the fingerprint is stable.
        std::set<std::string> seen;
        std::vector<std::string> unique;
        for (auto& w : t.warnings_) {
            if (seen.insert(w).second) unique.push_back(std::move(w));
        }
        t.warnings_ = std::move(unique);
    }
    for (auto& x : t.switches_) {
        fix_utf8(x.guid);
        fix_utf8(x.name);
        fix_utf8(x.description);
    }
    for (auto& x : t.hosts_) fix_utf8(x.name);
    for (auto& x : t.nics_) {
        fix_utf8(x.name);
        fix_utf8(x.guid);
        fix_utf8(x.pci_bus);
        fix_utf8(x.rate);
    }
    for (auto& x : t.gpus_) {
        fix_utf8(x.model);
        fix_utf8(x.pci_bus);
        fix_utf8(x.uuid);
    }
    for (auto& x : t.links_) fix_utf8(x.rate);
    for (auto& x : t.domains_) fix_utf8(x.name);
    for (auto& x : t.nvswitches_) fix_utf8(x.pci_bus);
    for (auto& x : t.warnings_) fix_utf8(x);
    impl.host_by_name.clear();
    for (std::size_t i = 0; i < t.hosts_.size(); ++i) impl.host_by_name.emplace(t.hosts_[i].name, HostId(static_cast<std::uint32_t>(i)));
    impl.switch_by_key.clear();
    for (std::size_t i = 0; i < t.switches_.size(); ++i) impl.switch_by_key.emplace(t.switches_[i].guid, SwitchId(static_cast<std::uint32_t>(i)));
    if (known_fingerprint != nullptr) {
        t.fingerprint_ = *known_fingerprint;
    } else {
        Fnv f;
        f << std::string_view("topoplace.snapshot/1");
        for (const auto& x : t.switches_) f << x.guid << x.name << x.description << x.num_ports << x.tier << en(x.provenance);
        for (const auto& x : t.hosts_) f << x.name << en(x.role) << x.sysimg_guid << x.group << en(x.provenance);
        for (const auto& x : t.nics_) {
            f << x.host << x.name << x.guid << x.pci_bus << x.leaf << x.leaf_port << x.rate << x.rate_gbps << x.numa
              << x.rail << en(x.provenance);
        }
        for (const auto& x : t.gpus_) f << x.host << x.index << x.model << x.pci_bus << x.uuid << x.numa << x.nvl_domain;
        for (const auto& x : t.links_) f << en(x.kind) << x.nic << x.a << x.b << x.port_a << x.port_b << x.gbps << x.rate;
        for (const auto& x : t.gpu_nic_) f << x.gpu << x.nic << en(x.cls);
        for (const auto& x : t.nvlinks_) f << x.a << x.b << x.links << x.gbps;
        for (const auto& x : t.domains_) {
            f << x.name << static_cast<int>(x.multi_node) << x.usable_hosts << static_cast<int>(x.hosts.size());
            for (auto h : x.hosts) f << h;
            for (auto g : x.gpus) f << g;
        }
        for (const auto& x : t.nvswitches_) {
            f << x.host << x.pci_bus << x.gbps << x.nvl_domain << static_cast<int>(x.gpus.size());
            for (auto g : x.gpus) f << g;
        }
        // Warnings are not hashed: they name input paths, and the fingerprint must
        // identify the topology, not where its files were read from.
        t.fingerprint_ = f.hex();
    }
    return TopologyPtr(std::move(topo));
}

}  // namespace topo
