// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include <topo/builder.hpp>
#include <topo/hostlist.hpp>

#include "topology_impl.hpp"

namespace topo {

namespace {

template <class T>
void fill_if_empty(T& dst, const T& src) {
    if (dst == T{}) dst = src;
}

int role_rank(HostRole r) {
    switch (r) {
        case HostRole::Compute: return 2;
        case HostRole::Service: return 1;
        case HostRole::Unknown: return 0;
    }
    return 0;
}

std::string nic_key(const Nic& n) {
    return n.name.empty() ? "#" + n.guid : n.name;
}

/// Re-key a host's NIC under the name a node description gives it (the same NIC:
/// its cable and GUID stay).
using NicMap = std::map<std::string, TopologyBuilder::PendingNic>;

void rename_nic(NicMap& nics, NicMap::iterator it, const std::string& name) {
    auto node = nics.extract(it);
    node.key() = name;
    node.mapped().nic.name = name;
    nics.insert(std::move(node));
}

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

void TopologyBuilder::add_host(const std::string& name, HostRole role, const std::string& sysimg_guid,
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
    auto [it, inserted] = h.nics.try_emplace(nic_key(nic), PendingNic{nic, leaf_key, {}});
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

void TopologyBuilder::add_switch_link(const std::string& a_key, int port_a, const std::string& b_key, int port_b,
                                      double gbps, const std::string& rate, LinkKind kind) {
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
    for (const auto& g : node.gpus)
        add_gpu(host, Gpu{.index = g.index, .model = g.model, .pci_bus = g.pci_bus, .uuid = g.uuid, .numa = g.numa});
    for (const auto& n : node.nics) {
        Nic nic;
        nic.name = n.name;
        nic.pci_bus = n.pci_bus;
        nic.numa = n.numa;
        nic.rate_gbps = n.gbps;
        PendingHost& h = hosts_[host];
        // The same GUID is the same NIC: a fabric NIC that its node description calls
        // "HCA-1" is the XML's "mlx5_0". Keep the fabric's cabling, take the
        // description's name (the device name NCCL and UCX want) and PCI locality.
        if (!n.guid.empty() && !n.name.empty() && h.nics.find(n.name) == h.nics.end()) {
            for (auto it = h.nics.begin(); it != h.nics.end(); ++it) {
                if (it->second.nic.guid != n.guid || !it->second.desc_source.empty()) continue;
                rename_nic(h.nics, it, n.name);
                break;
            }
        }
        const auto it = h.nics.find(n.name);
        if (it != h.nics.end()) {
            fill_if_empty(it->second.nic.pci_bus, n.pci_bus);
            if (it->second.nic.numa < 0) it->second.nic.numa = n.numa;
        } else {
            nic.guid = n.guid;
            nic.provenance = Provenance::Discovered;
            add_nic(host, nic, {});
            h.nics[nic_key(nic)].desc_source = node.source.empty() ? "node description" : node.source;
        }
    }
    PendingHost& h = hosts_[host];
    if (!node.gpus.empty() && h.role != HostRole::Service) h.role = HostRole::Compute;
    for (const auto& w : node.warnings) warn(w);
    h.nodes.push_back(std::move(node));
}

void TopologyBuilder::apply_node_template(const std::vector<std::string>& hosts, const NodeDescription& node) {
    if (hosts.size() <= 1) {
        for (const auto& h : hosts) apply_node_description(h, node);
        return;
    }
    // Which host's fabric NICs carry the description's GUIDs (the node it was taken on)?
    std::map<std::string, std::string> desc_name_of;  // GUID -> the description's NIC name
    for (const auto& n : node.nics) {
        if (!n.guid.empty() && !n.name.empty()) desc_name_of.emplace(n.guid, n.name);
    }
    std::map<std::string, std::pair<std::string, std::string>> owner;  // GUID -> (host, fabric NIC name)
    for (const auto& [hn, ph] : hosts_) {
        for (const auto& [k, pn] : ph.nics) {
            if (pn.desc_source.empty() && !pn.nic.guid.empty() && desc_name_of.count(pn.nic.guid) != 0) {
                owner.emplace(pn.nic.guid, std::make_pair(hn, pn.nic.name));
            }
        }
    }
    if (owner.empty()) {  // GUIDs of no fabric NIC: freeze() drops them with a warning
        for (const auto& h : hosts) apply_node_description(h, node);
        return;
    }
    std::map<std::string, std::string> alias;  // description name -> the owner's fabric name
    std::set<std::string> owners;
    for (const auto& [guid, o] : owner) {
        owners.insert(o.first);
        if (!o.second.empty() && o.second != desc_name_of.at(guid)) alias.emplace(desc_name_of.at(guid), o.second);
    }
    std::size_t ignored = 0;
    for (const auto& h : hosts) {
        if (owners.count(h) != 0) {  // the node it was taken on: every GUID is its own
            apply_node_description(h, node);
            continue;
        }
        NodeDescription copy = node;
        bool any = false;
        for (auto& n : copy.nics) {
            if (n.guid.empty()) continue;
            n.guid.clear();
            any = true;
            auto a = alias.find(n.name);
            auto hp = hosts_.find(h);
            if (a == alias.end() || hp == hosts_.end()) continue;
            auto& nics = hp->second.nics;
            auto old = nics.find(a->second);
            if (old == nics.end() || nics.count(n.name) != 0 || !old->second.desc_source.empty()) continue;
            rename_nic(nics, old, n.name);
        }
        if (any) ++ignored;
        apply_node_description(h, std::move(copy));
    }
    if (ignored > 0) {
        std::string src = node.source.empty() ? "node description" : node.source;
        std::string msg = src + ": applied to " + std::to_string(hosts.size())
                          + " hosts as a template; its NIC GUIDs are " + "those of " + *owners.begin()
                          + (owners.size() > 1 ? " and others" : "") + " and are ignored for the other "
                          + std::to_string(ignored) + " host(s), whose NICs are matched by name";
        if (!alias.empty()) {
            msg += " (";
            std::size_t k = 0;
            for (const auto& [d, f] : alias) {
                if (k++ == 4) {
                    msg += ", ...";
                    break;
                }
                msg += (k > 1 ? ", " : "") + f + " read as " + d;
            }
            msg += ", as on " + *owners.begin() + ")";
        }
        warn(std::move(msg));
    }
}

void TopologyBuilder::add_nvl_domain(const std::string& name, const std::vector<std::string>& hosts, int usable_hosts) {
    PendingDomain& d = domains_[name];
    for (const auto& h : hosts) {
        add_host(h);
        d.hosts.push_back(h);
    }
    d.usable_hosts = usable_hosts;
}

void TopologyBuilder::warn(std::string message) {
    warnings_.push_back(std::move(message));
}

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
    // Host names end up in topology.conf, NodeName= lines and hostlists: refuse what would
    // change those lines' meaning, and more hosts than Slurm itself takes (docs/security.md).
    if (hosts_.size() > kMaxHostlistNames) {
        return fail(Errc::Parse, std::to_string(hosts_.size()) + " hosts: more than Slurm's limit of "
                                     + std::to_string(kMaxHostlistNames) + " nodes");
    }
    for (const auto& [name, h] : hosts_) {
        if (!is_valid_host_name(name)) {
            std::string shown = name.substr(0, 80);
            for (char& c : shown) {
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
            }
            return fail(Errc::Parse,
                        "host name \"" + shown + "\" is not a valid node name (letters, digits, '-', '_', '.')");
        }
    }
    std::vector<std::string> names;
    names.reserve(hosts_.size());
    for (const auto& [name, h] : hosts_) names.push_back(name);
    std::sort(names.begin(), names.end(), NaturalLess{});
    // NIC GUIDs that only node descriptions gave: one XML or matrix applied to several
    // hosts (`--hwloc dgx.xml` for every DGX) repeats its GUIDs on each of them. They
    // identify none of those hosts, so they are dropped (with a warning naming the file);
    // the fabric's own GUIDs stay identities, and a description GUID that is another
    // host's fabric NIC is an error naming the file.
    {
        struct Owner {
            std::string host;
            PendingNic* nic;
        };

        std::unordered_map<std::string, std::vector<Owner>> by_guid;
        for (auto& [name, ph] : hosts_) {
            for (auto& [k, pn] : ph.nics) {
                if (!pn.nic.guid.empty()) by_guid[pn.nic.guid].push_back(Owner{name, &pn});
            }
        }
        std::map<std::string, std::set<std::string, NaturalLess>> dropped;  // source -> hosts
        for (auto& [guid, owners] : by_guid) {
            std::set<std::string> hosts;
            const PendingNic* fabric = nullptr;
            std::string fabric_host;
            for (const auto& o : owners) {
                hosts.insert(o.host);
                if (o.nic->desc_source.empty()) {
                    fabric = o.nic;
                    fabric_host = o.host;
                }
            }
            if (hosts.size() < 2) continue;
            if (fabric != nullptr) {
                for (const auto& o : owners) {
                    if (o.nic->desc_source.empty() || o.host == fabric_host) continue;
                    return fail(Errc::Parse,
                                "NIC GUID " + guid + " (" + o.nic->nic.name + ", given for host " + o.host
                                    + ") is the fabric NIC of host " + fabric_host
                                    + ": is this the description of another host?",
                                o.nic->desc_source);
                }
                continue;
            }
            for (auto& o : owners) {
                dropped[o.nic->desc_source].insert(o.host);
                o.nic->nic.guid.clear();
            }
        }
        for (const auto& [src, hs] : dropped) {
            std::string list;
            std::size_t shown = 0;
            for (const auto& h : hs) {
                if (shown++ == 5) {
                    list += ", ...";
                    break;
                }
                list += (list.empty() ? "" : ", ") + h;
            }
            t.warnings_.push_back(src + ": given for " + std::to_string(hs.size()) + " hosts (" + list
                                  + "); its NIC GUIDs identify none of them and are left out");
        }
    }
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
                    return fail(Errc::Parse,
                                "host " + name + " NIC " + k + " plugs into unknown switch " + pn.leaf_key);
                }
                n.leaf = *sid;
            }
            if (!n.guid.empty()) {
                auto [it, ins] = nic_guid_owner.emplace(n.guid, name);
                if (!ins && it->second != name) {
                    return fail(Errc::Parse,
                                "duplicate NIC GUID " + n.guid + " on hosts " + it->second + " and " + name);
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

    // ---- switch cables (deduplicated); finish() adds one link per NIC on the fabric
    using CableKey = std::tuple<std::uint32_t, int, std::uint32_t, int>;
    std::map<CableKey, Link> cables;
    for (const auto& pl : links_) {
        auto a = resolve(pl.a);
        auto b = resolve(pl.b);
        if (!a || !b) {
            return fail(Errc::Parse, "link " + pl.a + "[" + std::to_string(pl.port_a) + "] <-> " + pl.b + "["
                                         + std::to_string(pl.port_b) + "] names an unknown switch "
                                         + (!a ? pl.a : pl.b));
        }
        if (*a == *b) {
            t.warnings_.push_back("switch " + pl.a + " is cabled to itself (port " + std::to_string(pl.port_a)
                                  + "); ignored");
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
    for (auto& [k, l] : cables) t.links_.push_back(std::move(l));

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
                    if (gmap[i] && nmap[j] && nd.gpu_nic[i][j] != PathClass::Unknown) {  // "?" says nothing
                        paths.emplace_back((std::uint64_t{gmap[i]->index()} << 32) | nmap[j]->index(),
                                           nd.gpu_nic[i][j]);
                    }
                }
            }
            for (const auto& p : nd.nvlinks) {
                if (p.a < 0 || p.b < 0 || static_cast<std::size_t>(p.a) >= gmap.size()
                    || static_cast<std::size_t>(p.b) >= gmap.size() || !gmap[p.a] || !gmap[p.b] || p.a == p.b) {
                    continue;
                }
                GpuId a = *gmap[p.a];
                GpuId b = *gmap[p.b];
                if (b < a) std::swap(a, b);
                t.nvlinks_.push_back(NvLinkPair{a, b, p.links, p.gbps});
            }
            // NVSwitches: the first source that lists any wins (hwloc XML knows them,
            // nvidia-smi matrices do not).
            const bool have = !t.nvswitches_.empty() && t.nvswitches_.back().host.index() == hi;
            for (std::size_t k = 0; !have && k < nd.nvswitches.size(); ++k) {
                NvSwitch sw;
                sw.host = HostId(static_cast<std::uint32_t>(hi));
                sw.pci_bus = nd.nvswitches[k].pci_bus;
                for (const auto& [pos, gbps] : nd.nvswitches[k].gpus) {
                    if (pos < 0 || static_cast<std::size_t>(pos) >= gmap.size() || !gmap[pos]) continue;
                    sw.gpus.push_back(*gmap[pos]);
                    sw.gbps = std::max(sw.gbps, gbps);
                }
                std::sort(sw.gpus.begin(), sw.gpus.end());
                sw.gpus.erase(std::unique(sw.gpus.begin(), sw.gpus.end()), sw.gpus.end());
                t.nvswitches_.push_back(std::move(sw));
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

    // ---- declared multi-node NVLink domains (islands are inferred in finish)
    std::vector<DeclaredDomain> declared;
    std::set<HostId> in_multi;
    for (const auto& [name, pd] : domains_) {
        DeclaredDomain d;
        d.name = name;
        d.usable_hosts = pd.usable_hosts;
        for (const auto& hn : pd.hosts) {
            const HostId hid = impl.host_by_name.at(hn);
            if (in_multi.contains(hid)) {
                return fail(Errc::Parse, "host " + hn + " is in two multi-node NVLink domains (second: " + name + ")");
            }
            in_multi.insert(hid);
            d.hosts.push_back(hid);
        }
        std::sort(d.hosts.begin(), d.hosts.end());
        declared.push_back(std::move(d));
    }
    return TopologyAccess::finish(std::move(topo), declared);
}

}  // namespace topo
