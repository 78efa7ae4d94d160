// SPDX-License-Identifier: Apache-2.0
#include <topo/builder.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>
#include <tuple>
#include <unordered_map>

#include "topology_impl.hpp"

namespace topo {

namespace {

constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();

template <class T>
void fill_if_empty(T& dst, const T& src) {
    if (dst == T{}) dst = src;
}

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

int role_rank(HostRole r) {
    switch (r) {
        case HostRole::Compute: return 2;
        case HostRole::Service: return 1;
        case HostRole::Unknown: return 0;
    }
    return 0;
}

std::string nic_key(const Nic& n) { return n.name.empty() ? "#" + n.guid : n.name; }

struct NaturalLess {
    bool operator()(const std::string& a, const std::string& b) const { return natural_less(a, b); }
};

}  // namespace

void TopologyBuilder::add_switch(Switch s) {
    auto [it, inserted] = switches_.try_emplace(s.guid, s);
    if (!inserted) {
        Switch& d = it->second;
        fill_if_empty(d.name, s.name);
        fill_if_empty(d.description, s.description);
        if (d.num_ports == 0) d.num_ports = s.num_ports;
    }
}

bool TopologyBuilder::has_switch(std::string_view key) const {
    return switches_.find(std::string(key)) != switches_.end();
}

void TopologyBuilder::add_host(const std::string& name,
                               HostRole role,
                               const std::string& sysimg_guid,
                               Provenance provenance) {
    auto [it, inserted] = hosts_.try_emplace(name);
    PendingHost& h = it->second;
    if (inserted) {
        h.role = role;
        h.sysimg_guid = sysimg_guid;
        h.provenance = provenance;
        return;
    }
    if (role_rank(role) > role_rank(h.role)) h.role = role;
    fill_if_empty(h.sysimg_guid, sysimg_guid);
}

bool TopologyBuilder::has_host(std::string_view name) const {
    return hosts_.find(std::string(name)) != hosts_.end();
}

void TopologyBuilder::add_nic(const std::string& host, Nic nic, const std::string& leaf_key) {
    add_host(host);
    PendingHost& h = hosts_[host];
    auto [it, inserted] = h.nics.try_emplace(nic_key(nic), PendingNic{nic, leaf_key});
    if (!inserted) {
        PendingNic& d = it->second;
        fill_if_empty(d.nic.guid, nic.guid);
        fill_if_empty(d.nic.pci_bus, nic.pci_bus);
        fill_if_empty(d.nic.rate, nic.rate);
        if (d.nic.rate_gbps == 0) d.nic.rate_gbps = nic.rate_gbps;
        if (d.nic.numa < 0) d.nic.numa = nic.numa;
        if (d.nic.leaf_port == 0) d.nic.leaf_port = nic.leaf_port;
        fill_if_empty(d.leaf_key, leaf_key);
    }
}

void TopologyBuilder::add_switch_link(const std::string& a_key,
                                      int port_a,
                                      const std::string& b_key,
                                      int port_b,
                                      double gbps,
                                      const std::string& rate,
                                      LinkKind kind) {
    links_.push_back(PendingLink{a_key, b_key, port_a, port_b, gbps, rate, kind});
}

void TopologyBuilder::add_gpu(const std::string& host, Gpu gpu) {
    add_host(host);
    PendingHost& h = hosts_[host];
    auto [it, inserted] = h.gpus.try_emplace(gpu.index, gpu);
    if (!inserted) {
        Gpu& d = it->second;
        fill_if_empty(d.model, gpu.model);
        fill_if_empty(d.pci_bus, gpu.pci_bus);
        fill_if_empty(d.uuid, gpu.uuid);
        if (d.numa < 0) d.numa = gpu.numa;
    }
}

void TopologyBuilder::apply_node_description(const std::string& host, const NodeDescription& node) {
    apply_node_description(host, NodeDescription(node));
}

void TopologyBuilder::apply_node_description(const std::string& host, NodeDescription&& node) {
    add_host(host);
    for (const auto& g : node.gpus) {
        Gpu gpu;
        gpu.index = g.index;
        gpu.model = g.model;
        gpu.pci_bus = g.pci_bus;
        gpu.uuid = g.uuid;
        gpu.numa = g.numa;
        add_gpu(host, gpu);
    }
    for (const auto& n : node.nics) {
        Nic nic;
        nic.name = n.name;
        nic.pci_bus = n.pci_bus;
        nic.numa = n.numa;
        nic.rate_gbps = n.gbps;
        PendingHost& h = hosts_[host];
        const auto it = h.nics.find(n.name);
        if (it != h.nics.end()) {
            fill_if_empty(it->second.nic.pci_bus, n.pci_bus);
            if (it->second.nic.numa < 0) it->second.nic.numa = n.numa;
        } else {
            nic.guid = n.guid;
            nic.provenance = Provenance::Discovered;
            add_nic(host, nic, {});
        }
    }
    PendingHost& h = hosts_[host];
    if (!node.gpus.empty() && h.role != HostRole::Service) h.role = HostRole::Compute;
    for (const auto& w : node.warnings) warn(w);
    h.nodes.push_back(std::move(node));
}

void TopologyBuilder::add_nvl_domain(const std::string& name,
                                     const std::vector<std::string>& hosts,
                                     int usable_hosts) {
    PendingDomain& d = domains_[name];
    for (const auto& h : hosts) {
        add_host(h);
        d.hosts.push_back(h);
    }
    d.usable_hosts = usable_hosts;
}

void TopologyBuilder::warn(std::string message) { warnings_.push_back(std::move(message)); }

std::vector<std::string> TopologyBuilder::host_names() const {
    std::vector<std::string> out;
    out.reserve(hosts_.size());
    for (const auto& [name, h] : hosts_) out.push_back(name);
    std::sort(out.begin(), out.end(), NaturalLess{});
    return out;
}

Result<TopologyPtr> TopologyBuilder::freeze() && {
    auto topo = std::make_shared<Topology>();
    Topology& t = *topo;
    Topology::Impl& impl = *t.impl_;
    t.warnings_ = std::move(warnings_);

    // ---- switches, in key order
    t.switches_.reserve(switches_.size());
    for (auto& [key, s] : switches_) {
        const SwitchId id(static_cast<std::uint32_t>(t.switches_.size()));
        impl.switch_by_key.emplace(key, id);
        s.tier = -1;
        t.switches_.push_back(std::move(s));
    }
    auto resolve = [&](const std::string& key) -> std::optional<SwitchId> {
        const auto it = impl.switch_by_key.find(key);
        if (it == impl.switch_by_key.end()) return std::nullopt;
        return it->second;
    };

    // ---- hosts, NICs and GPUs in natural order
    std::vector<std::string> names;
    names.reserve(hosts_.size());
    for (const auto& [name, h] : hosts_) names.push_back(name);
    std::sort(names.begin(), names.end(), NaturalLess{});
    std::unordered_map<std::string, std::string> nic_guid_owner;
    nic_guid_owner.reserve(hosts_.size() * 8);
    t.hosts_.reserve(names.size());
    for (const auto& name : names) {
        PendingHost& ph = hosts_[name];
        const HostId hid(static_cast<std::uint32_t>(t.hosts_.size()));
        Host h;
        h.name = name;
        h.role = ph.role;
        h.sysimg_guid = ph.sysimg_guid;
        h.provenance = ph.provenance;
        std::vector<std::string> keys;
        for (const auto& [k, n] : ph.nics) keys.push_back(k);
        std::sort(keys.begin(), keys.end(), NaturalLess{});
        for (const auto& k : keys) {
            PendingNic& pn = ph.nics[k];
            Nic n = pn.nic;
            n.host = hid;
            n.leaf = SwitchId{};
            n.rail = -1;
            if (!pn.leaf_key.empty()) {
                auto sid = resolve(pn.leaf_key);
                if (!sid) {
                    return fail(Errc::Parse, "host " + name + " NIC " + k + " plugs into unknown switch " + pn.leaf_key);
                }
                n.leaf = *sid;
            }
            if (!n.guid.empty()) {
                auto [it, ins] = nic_guid_owner.emplace(n.guid, name);
                if (!ins && it->second != name) {
                    return fail(Errc::Parse, "duplicate NIC GUID " + n.guid + " on hosts " + it->second + " and " + name);
                }
            }
            h.nics.emplace_back(static_cast<std::uint32_t>(t.nics_.size()));
            t.nics_.push_back(std::move(n));
        }
        for (auto& [idx, g] : ph.gpus) {
            g.host = hid;
            g.nvl_domain = DomainId{};
            h.gpus.emplace_back(static_cast<std::uint32_t>(t.gpus_.size()));
            t.gpus_.push_back(g);
        }
        if (h.role == HostRole::Unknown && !h.gpus.empty()) h.role = HostRole::Compute;
        impl.host_by_name.emplace(name, hid);
        t.hosts_.push_back(std::move(h));
    }

    // ---- links: one per NIC on the fabric, then switch cables (deduplicated)
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
        t.links_.push_back(std::move(l));
    }
    using CableKey = std::tuple<std::uint32_t, int, std::uint32_t, int>;
    std::map<CableKey, Link> cables;
    for (const auto& pl : links_) {
        auto a = resolve(pl.a);
        auto b = resolve(pl.b);
        if (!a || !b) {
            return fail(Errc::Parse, "link " + pl.a + "[" + std::to_string(pl.port_a) + "] <-> " + pl.b + "[" +
                                         std::to_string(pl.port_b) + "] names an unknown switch " +
                                         (!a ? pl.a : pl.b));
        }
        if (*a == *b) {
            t.warnings_.push_back("switch " + pl.a + " is cabled to itself (port " + std::to_string(pl.port_a) +
                                  "); ignored");
            continue;
        }
        Link l;
        l.kind = pl.kind;
        l.a = *a;
        l.b = *b;
        l.port_a = pl.port_a;
        l.port_b = pl.port_b;
        l.gbps = pl.gbps;
        l.rate = pl.rate;
        if (l.b < l.a) {
            std::swap(l.a, l.b);
            std::swap(l.port_a, l.port_b);
        }
        cables.emplace(CableKey{l.a.index(), l.port_a, l.b.index(), l.port_b}, std::move(l));
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    edges.reserve(cables.size() * 2);
    for (auto& [k, l] : cables) {
        edges.emplace_back(l.a.index(), l.b.index());
        edges.emplace_back(l.b.index(), l.a.index());
        t.links_.push_back(std::move(l));
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
        for (std::size_t i = 0; i < t.switches_.size(); ++i) {
            if (degree[i] == 1 && !ls.empty()) ls.insert(SwitchId(static_cast<std::uint32_t>(i)));
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
        std::vector<std::uint32_t> parent(t.switches_.size());
        for (std::uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
        auto find = [&](std::uint32_t x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        };
        for (const auto& [a, b2] : edges) {
            if (t.switches_[a].tier < max_tier && t.switches_[b2].tier < max_tier) parent[find(a)] = find(b2);
        }
        std::set<std::uint32_t> comps;
        for (const auto& n : t.nics_) {
            if (n.leaf.valid()) comps.insert(find(n.leaf.index()));
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

    // ---- rails: NIC names of hosts whose NICs sit on distinct leaves
    std::set<std::string, NaturalLess> rail_names;
    bool rail_by_position = false;
    int multi_leaf_hosts = 0;
    int fabric_hosts = 0;
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
        std::set<SwitchId> distinct(ls.begin(), ls.end());
        if (ls.size() >= 2 && distinct.size() == ls.size()) {
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
    if (multi_leaf_hosts > 0) {
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
        const bool multi = on.size() >= 2 && distinct.size() == on.size();
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

    // ---- locality from node descriptions: GPU<->NIC classes and NVLink pairs.
    // Vectors sorted once (not maps): a 12,500-host DGX fabric has 800k GPU/NIC pairs.
    std::vector<std::pair<std::uint64_t, PathClass>> paths;  // key gpu<<32|nic, in insertion order
    for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
        const Host& h = t.hosts_[hi];
        const PendingHost& ph = hosts_[h.name];
        for (const auto& nd : ph.nodes) {
            std::vector<std::optional<GpuId>> gmap;
            gmap.reserve(nd.gpus.size());
            for (const auto& g : nd.gpus) {
                std::optional<GpuId> id;
                for (auto gid : h.gpus) {
                    if (t.gpus_[gid.index()].index == g.index) id = gid;
                }
                gmap.push_back(id);
            }
            std::vector<std::optional<NicId>> nmap;
            nmap.reserve(nd.nics.size());
            for (const auto& n : nd.nics) {
                std::optional<NicId> id;
                for (auto nid : h.nics) {
                    if (t.nics_[nid.index()].name == n.name) id = nid;
                }
                nmap.push_back(id);
            }
            for (std::size_t i = 0; i < nd.gpu_nic.size() && i < gmap.size(); ++i) {
                for (std::size_t j = 0; j < nd.gpu_nic[i].size() && j < nmap.size(); ++j) {
                    if (gmap[i] && nmap[j]) {
                        paths.emplace_back((std::uint64_t{gmap[i]->index()} << 32) | nmap[j]->index(), nd.gpu_nic[i][j]);
                    }
                }
            }
            for (const auto& p : nd.nvlinks) {
                if (p.a < 0 || p.b < 0 || static_cast<std::size_t>(p.a) >= gmap.size() ||
                    static_cast<std::size_t>(p.b) >= gmap.size() || !gmap[p.a] || !gmap[p.b] || p.a == p.b) {
                    continue;
                }
                GpuId a = *gmap[p.a];
                GpuId b = *gmap[p.b];
                if (b < a) std::swap(a, b);
                t.nvlinks_.push_back(NvLinkPair{a, b, p.links, p.gbps});
            }
        }
    }
    // later sources win for the same pair: stable sort, keep the last of each key
    std::stable_sort(paths.begin(), paths.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    t.gpu_nic_.reserve(paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (i + 1 < paths.size() && paths[i + 1].first == paths[i].first) continue;
        t.gpu_nic_.push_back(GpuNicPath{GpuId(static_cast<std::uint32_t>(paths[i].first >> 32)),
                                        NicId(static_cast<std::uint32_t>(paths[i].first & 0xffffffffU)),
                                        paths[i].second});
    }
    paths.clear();
    paths.shrink_to_fit();
    // first source wins for NVLink pairs
    std::stable_sort(t.nvlinks_.begin(), t.nvlinks_.end(),
                     [](const NvLinkPair& x, const NvLinkPair& y) { return std::tie(x.a, x.b) < std::tie(y.a, y.b); });
    t.nvlinks_.erase(std::unique(t.nvlinks_.begin(), t.nvlinks_.end(),
                                 [](const NvLinkPair& x, const NvLinkPair& y) { return x.a == y.a && x.b == y.b; }),
                     t.nvlinks_.end());

    // ---- NVLink domains: declared multi-node ones first, then per-host islands
    std::set<HostId> in_multi;
    for (const auto& [name, pd] : domains_) {
        NvlDomain d;
        d.name = name;
        d.multi_node = true;
        d.usable_hosts = pd.usable_hosts;
        const DomainId did(static_cast<std::uint32_t>(t.domains_.size()));
        std::vector<HostId> hs;
        for (const auto& hn : pd.hosts) {
            const HostId hid = impl.host_by_name.at(hn);
            if (in_multi.contains(hid)) {
                return fail(Errc::Parse, "host " + hn + " is in two multi-node NVLink domains (second: " + name + ")");
            }
            in_multi.insert(hid);
            hs.push_back(hid);
        }
        std::sort(hs.begin(), hs.end());
        for (auto hid : hs) {
            for (auto gid : t.hosts_[hid.index()].gpus) {
                d.gpus.push_back(gid);
                t.gpus_[gid.index()].nvl_domain = did;
            }
        }
        d.hosts = std::move(hs);
        t.domains_.push_back(std::move(d));
    }
    {
        // union-find over NVLink pairs, per host
        std::vector<std::uint32_t> parent(t.gpus_.size());
        for (std::uint32_t i = 0; i < parent.size(); ++i) parent[i] = i;
        auto find = [&](std::uint32_t x) {
            while (parent[x] != x) {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            return x;
        };
        std::vector<bool> linked(t.gpus_.size(), false);
        for (const auto& p : t.nvlinks_) {
            linked[p.a.index()] = linked[p.b.index()] = true;
            parent[find(p.a.index())] = find(p.b.index());
        }
        for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
            if (in_multi.contains(HostId(static_cast<std::uint32_t>(hi)))) continue;
            std::map<std::uint32_t, std::vector<GpuId>> comps;
            for (auto gid : t.hosts_[hi].gpus) {
                if (linked[gid.index()]) comps[find(gid.index())].push_back(gid);
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
    for (auto& x : t.warnings_) fix_utf8(x);
    impl.host_by_name.clear();
    for (std::size_t i = 0; i < t.hosts_.size(); ++i) impl.host_by_name.emplace(t.hosts_[i].name, HostId(static_cast<std::uint32_t>(i)));
    impl.switch_by_key.clear();
    for (std::size_t i = 0; i < t.switches_.size(); ++i) impl.switch_by_key.emplace(t.switches_[i].guid, SwitchId(static_cast<std::uint32_t>(i)));
    {
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
        // Warnings are not hashed: they name input paths, and the fingerprint must
        // identify the topology, not where its files were read from.
        t.fingerprint_ = f.hex();
    }
    return TopologyPtr(std::move(topo));
}

}  // namespace topo
