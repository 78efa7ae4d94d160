// SPDX-License-Identifier: Apache-2.0
/// \file import_ib_fabric(): turn a raw InfiniBand subnet into switches, hosts and NICs.
///
/// Host recovery, per CA (first rule that answers wins):
///  1. SHARP "Aggregation Node" CAs (the switch's own port-41/65 endpoint) and routers are
///     not hosts: skipped and counted.
///  2. node-name-map entry for the CA's node GUID, port GUID or system image GUID. The
///     value is split like a description ("luna-0001 mlx5_0" or just "r422node1").
///  3. the node description "HOST HCA" ("luna-0001 mlx5_9", "node17 HCA-1",
///     "SAT111092710053 ibp11s0f0"), unless it is a factory string ("MT4129 ConnectX7
///     Mellanox Technologies") or a generic host name ("localhost", "ubuntu").
///  4. another CA with the same system image GUID that rules 2-3 named (only when all
///     such CAs agree on one host).
///  5. otherwise the CAs sharing a system image GUID form one host named
///     "H-<16 hex digits of the smallest node GUID>", which for a single CA is exactly
///     ibnetdiscover's own name for it (and what a topology.conf generated from raw
///     ibnetdiscover output calls it). A warning counts them.
///
/// Roles (documented rule; freeze and node descriptions may upgrade Unknown later):
///  * a host whose name looks like a service or storage machine (login, slurm, ufm,
///    cache, swift, mgmt, admin, head, nfs...; ai400x, ddn, lustre, gluster...) is
///    Service whatever its HCA count: a UFM appliance or a login node often has two HCAs
///    on the fabric but never runs jobs;
///  * in a multi-rail fabric (more "ordinary" hosts with >= 2 HCAs than with 1), hosts
///    with >= 2 HCAs on the fabric are Compute and single-HCA hosts are Service;
///  * in a single-rail fabric (most hosts have one HCA, e.g. PSMN, avakas), ordinary
///    hosts are Compute;
///  * hosts named by rule 5 are Unknown in a multi-rail fabric (usually a GPU node HCA
///    whose node description was never set; a name map fixes it) and Compute otherwise.
///
/// Compute vs storage fabric. Large GPU clusters have a separate storage fabric on which
/// every GPU node also has one or two HCAs (Selene: mlx5_4 and mlx5_10 on the storage
/// fabric, mlx5_0-3,6-9 on the compute fabric). Placing jobs by the storage fabric would
/// be wrong, so its switches must never become a GPU node's leaf.
///  * options.hca_regex set: only CA ports whose HCA name fully matches the regex are
///    on-fabric NICs. Other HCAs of such a host are recorded as NICs off the fabric
///    (empty leaf), and hosts with no matching HCA are skipped (counted in a warning).
///  * unset: the dump is classified as a storage fabric when BOTH
///      (a) storage targets (by host name) are at least 2 hosts and 5% of hosts, and
///      (b) most ordinary hosts with a numbered HCA name (mlx5_N, mlx4_N, HCA-N) do not
///          show their first HCA (index 0 / HCA-1) on this fabric (their first HCAs,
///          the compute rails, live on another fabric).
///    One signal alone only warns. On a storage fabric the switches, cables, storage
///    targets and service hosts are imported as usual, but the HCAs of ordinary (GPU)
///    hosts are recorded off the fabric with role Unknown, so a later import of the
///    compute fabric (or a node description) decides their leaves and role. A warning
///    always explains the decision and the figures, and how to override it.

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <topo/builder.hpp>
#include <topo/hostlist.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/text_input.hpp>

namespace topo {

namespace {

bool contains_ci(std::string_view hay, std::string_view needle) {
    return ascii_lower(hay).find(ascii_lower(needle)) != std::string::npos;
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) ++i;
        std::size_t j = i;
        while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j])) == 0) ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

bool is_sharp(const IbNode& n) {
    return contains_ci(n.description, "Aggregation Node");
}

/// A description that a vendor firmware sets when nobody configured the node.
bool is_factory_description(std::string_view d) {
    auto w = words(d);
    if (w.empty()) return true;
    if (w[0].size() > 2 && w[0][0] == 'M' && w[0][1] == 'T' && std::isdigit(static_cast<unsigned char>(w[0][2])) != 0) {
        return true;
    }
    for (std::string_view s : {"Mellanox Technologies", "ConnectX", "Aggregation Node", "InfiniHost", "BlueField",
                               "QLogic Infiniband", "Infiniband HCA"}) {
        if (contains_ci(d, s)) return true;
    }
    return false;
}

bool is_generic_host(std::string_view h) {
    const std::string l = ascii_lower(h);
    for (std::string_view g : {"localhost", "localhost.localdomain", "localdomain", "ubuntu", "debian", "centos",
                               "rhel", "rocky", "linux", "(none)", "none", "unknown"}) {
        if (l == g) return true;
    }
    return false;
}

/// "luna-0001 mlx5_9" -> {"luna-0001", "mlx5_9"}; "node1.cluster HCA-1" -> {"node1", ...}.
std::pair<std::string, std::string> split_host_hca(std::string_view d) {
    auto w = words(d);
    if (w.empty()) return {};
    std::string host(w[0]);
    // Strip a DNS domain, but keep dotted IPv4 addresses whole.
    auto dot = host.find('.');
    if (dot != std::string::npos && dot > 0
        && !std::all_of(host.begin(), host.begin() + static_cast<std::ptrdiff_t>(dot),
                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
        host.resize(dot);
    }
    return {host, w.size() >= 2 ? std::string(w[1]) : std::string{}};
}

/// Alphanumeric tokens of a host name, lower-cased, leading/trailing digits removed.
std::vector<std::string> name_tokens(std::string_view name) {
    std::vector<std::string> out;
    std::string cur;
    auto flush = [&] {
        std::size_t b = 0;
        std::size_t e = cur.size();
        while (b < e && std::isdigit(static_cast<unsigned char>(cur[b])) != 0) ++b;
        while (e > b && std::isdigit(static_cast<unsigned char>(cur[e - 1])) != 0) --e;
        if (e > b) out.push_back(cur.substr(b, e - b));
        cur.clear();
    };
    for (char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            cur.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        } else {
            flush();
        }
    }
    flush();
    return out;
}

bool is_service_name(std::string_view host) {
    static const std::set<std::string, std::less<>> kService = {
        "login",     "slurm",   "slurmctld", "slurmdbd",   "ctld",   "ufm",      "cufm",     "ufmapl", "cache",
        "swift",     "mgmt",    "mgt",       "management", "admin",  "head",     "headnode", "master", "sched",
        "scheduler", "gateway", "bastion",   "nfs",        "opensm", "frontend", "submit"};
    for (const auto& t : name_tokens(host)) {
        if (kService.contains(t)) return true;
        if (t.size() > 3 && t.ends_with("ufm")) return true;
    }
    return false;
}

bool is_storage_target_name(std::string_view host) {
    static const std::set<std::string, std::less<>> kExact = {"oss",  "mds",  "mgs",     "nsd",  "ddn", "dss",
                                                              "vast", "weka", "storage", "stor", "osd"};
    for (const auto& t : name_tokens(host)) {
        if (kExact.contains(t)) return true;
        for (std::string_view s : {"ai400", "ai7990", "ai200", "es400", "es7990", "exascaler", "lustre", "gluster",
                                   "gpfs", "beegfs", "ceph", "netapp", "isilon", "purestorage"}) {
            if (t.find(s) != std::string::npos) return true;
        }
    }
    return false;
}

/// Index of an HCA from its name: mlx5_3 -> 3, HCA-1 -> 0; -1 when not numbered.
int hca_index(std::string_view hca) {
    auto digits_at = [&](std::size_t pos) -> int {
        if (pos >= hca.size()) return -1;
        int v = 0;
        for (std::size_t i = pos; i < hca.size(); ++i) {
            if (std::isdigit(static_cast<unsigned char>(hca[i])) == 0 || i - pos > 6) return -1;
            v = v * 10 + (hca[i] - '0');
        }
        return v;
    };
    if (hca.starts_with("mlx")) {
        auto us = hca.find('_');
        return us == std::string_view::npos ? -1 : digits_at(us + 1);
    }
    if (hca.starts_with("HCA-")) {
        int v = digits_at(4);
        return v <= 0 ? -1 : v - 1;
    }
    return -1;
}

std::string hex16(const std::string& guid) {
    return guid.size() > 2 ? guid.substr(2) : guid;
}

std::string switch_short_name(const IbNode& n) {
    // "MF0;MLG01-02:MQM8700/U1" -> "MLG01-02"; "MF0;x-ib1-A:MCS8500/L01/U1" -> "x-ib1-A-L01".
    const std::string& d = n.description;
    auto semi = d.find(';');
    auto colon = d.find(':', semi == std::string::npos ? 0 : semi);
    if (semi != std::string::npos && colon != std::string::npos && colon > semi + 1 && d.starts_with("MF")) {
        std::string name = d.substr(semi + 1, colon - semi - 1);
        std::string_view rest = std::string_view(d).substr(colon + 1);
        std::size_t pos = 0;
        int k = 0;
        while (pos <= rest.size()) {
            auto slash = rest.find('/', pos);
            std::string_view part = rest.substr(pos, slash == std::string_view::npos ? rest.npos : slash - pos);
            bool unit = part.size() >= 2 && part[0] == 'U' && std::all_of(part.begin() + 1, part.end(), [](char c) {
                            return std::isdigit(static_cast<unsigned char>(c)) != 0;
                        });
            if (k > 0 && !part.empty() && !unit) name += "-" + std::string(part);
            ++k;
            if (slash == std::string_view::npos) break;
            pos = slash + 1;
        }
        if (!name.empty() && name.find_first_of(" \t,") == std::string::npos) return name;
    }
    if (!d.empty() && d.find_first_of(" \t,#;:\"'") == std::string::npos) return d;
    return {};
}

struct CaPort {
    const IbNode* node = nullptr;
    const IbPort* port = nullptr;  // null: the CA has no connected port
    std::string hca;               // NIC name
    std::string leaf;              // switch GUID, empty when not on a switch
};

/// The HCA regex is matched against the device name without a ":port" suffix.
bool hca_matches(const std::regex& re, const std::string& hca) {
    return std::regex_match(hca.substr(0, hca.find(':')), re);
}

struct HostRec {
    std::string sysimg;
    bool synthesized = false;
    std::vector<CaPort> cas;
};

}  // namespace

Status import_ib_fabric(const IbFabric& fabric, const IbImportOptions& options, TopologyBuilder& builder) {
    try {
        const std::string src = fabric.source.empty() ? std::string("ibnetdiscover") : fabric.source;
        std::map<std::string, const IbNode*> by_guid;
        std::size_t n_switches = 0;
        for (const auto& n : fabric.nodes) {
            by_guid.emplace(n.guid, &n);
            if (n.type == IbNode::Type::Switch) ++n_switches;
        }
        if (n_switches == 0) {
            int line = fabric.nodes.empty() ? 1 : fabric.nodes.front().line;
            std::string eg;
            if (!fabric.nodes.empty()) eg = " (e.g. \"" + fabric.nodes.front().description + "\")";
            return fail(Errc::Parse,
                        "no switch in the fabric: " + std::to_string(fabric.nodes.size()) + " node(s) only" + eg
                            + "; the dump was taken on an isolated HCA, or its link is down",
                        src, line);
        }

        std::optional<std::regex> hca_re;
        if (options.hca_regex) {
            try {
                hca_re.emplace(*options.hca_regex, std::regex::ECMAScript);
            } catch (const std::regex_error& e) {
                return fail(Errc::InvalidArgument, "bad HCA regex \"" + *options.hca_regex + "\": " + e.what());
            }
        }
        for (const auto& w : fabric.warnings) builder.warn(w);

        std::size_t map_hits = 0;
        auto lookup_map = [&](const IbNode& n) -> const std::string* {
            for (const std::string* g : {&n.guid, &n.port_guid, &n.sysimg_guid}) {
                if (g->empty()) continue;
                auto it = options.name_map.names.find(*g);
                if (it != options.name_map.names.end()) {
                    ++map_hits;
                    return &it->second;
                }
            }
            return nullptr;
        };
        auto is_switch = [&](const std::string& g) {
            auto it = by_guid.find(g);
            return it != by_guid.end() && it->second->type == IbNode::Type::Switch;
        };

        // ---- switches
        std::map<std::string, std::vector<std::string>> by_name;  // short name -> GUIDs
        std::map<std::string, std::string> sw_name;
        for (const auto& n : fabric.nodes) {
            if (n.type != IbNode::Type::Switch) continue;
            std::string name;
            if (const std::string* m = lookup_map(n)) name = *m;
            if (name.empty()) name = switch_short_name(n);
            if (name.empty()) name = "S-" + hex16(n.guid);
            sw_name[n.guid] = name;
            by_name[name].push_back(n.guid);
        }
        for (const auto& [name, guids] : by_name) {
            if (guids.size() < 2) continue;
            for (const auto& g : guids) sw_name[g] = "S-" + hex16(g);  // ambiguous name: use the GUID form
        }
        std::size_t loopbacks = 0;
        std::size_t cables = 0;
        for (const auto& n : fabric.nodes) {
            if (n.type != IbNode::Type::Switch) continue;
            Switch s;
            s.guid = n.guid;
            s.name = sw_name[n.guid];
            s.description = n.description;
            s.num_ports = n.num_ports;
            s.provenance = Provenance::Discovered;
            builder.add_switch(std::move(s));
        }
        for (const auto& n : fabric.nodes) {
            if (n.type != IbNode::Type::Switch) continue;
            for (const auto& p : n.ports) {
                if (!is_switch(p.peer_guid)) continue;
                if (p.peer_guid == n.guid) {
                    if (p.port < p.peer_port) ++loopbacks;
                    continue;
                }
                if (std::pair(n.guid, p.port) < std::pair(p.peer_guid, p.peer_port)) {
                    builder.add_switch_link(n.guid, p.port, p.peer_guid, p.peer_port, p.gbps, p.rate);
                    ++cables;
                }
            }
        }

        // ---- CAs -> hosts
        std::size_t sharp = 0;
        std::size_t routers = 0;
        std::size_t off_switch = 0;  // CA ports cabled to something else than a switch
        std::map<std::string, HostRec> hosts;
        std::vector<const IbNode*> unnamed;
        std::size_t bad_names = 0;
        std::string bad_name_example;
        std::map<std::string, std::set<std::string>> sysimg_hosts;  // from named CAs

        auto add_ca = [&](const IbNode& n, const std::string& host, const std::string& hca, bool synthesized) {
            HostRec& h = hosts[host];
            h.synthesized = synthesized;
            if (h.sysimg.empty()) h.sysimg = n.sysimg_guid;
            std::vector<const IbPort*> up;
            for (const auto& p : n.ports) {
                if (by_guid.contains(p.peer_guid)) up.push_back(&p);
            }
            if (up.empty()) {
                h.cas.push_back(CaPort{&n, nullptr, hca, {}});
                return;
            }
            for (const IbPort* p : up) {
                CaPort c;
                c.node = &n;
                c.port = p;
                c.hca = hca;
                if (up.size() > 1)
                    c.hca = hca.empty() ? "port" + std::to_string(p->port) : hca + ":" + std::to_string(p->port);
                if (is_switch(p->peer_guid)) {
                    c.leaf = p->peer_guid;
                } else {
                    ++off_switch;
                }
                h.cas.push_back(std::move(c));
            }
        };

        for (const auto& n : fabric.nodes) {
            if (n.type == IbNode::Type::Router) {
                ++routers;
                continue;
            }
            if (n.type != IbNode::Type::Ca) continue;
            if (is_sharp(n)) {
                ++sharp;
                continue;
            }
            std::pair<std::string, std::string> hh;
            if (const std::string* m = lookup_map(n)) hh = split_host_hca(*m);
            if (hh.first.empty() && !is_factory_description(n.description)) {
                hh = split_host_hca(n.description);
                if (is_generic_host(hh.first)) hh = {};
            }
            if (!hh.first.empty() && !is_valid_host_name(hh.first)) {
                // "n001,n[100-199] mlx5_0" would add nodes to topology.conf: name it by GUID.
                if (bad_names++ == 0) bad_name_example = hh.first.substr(0, 80);
                hh = {};
            }
            if (hh.first.empty()) {
                unnamed.push_back(&n);
                continue;
            }
            if (!n.sysimg_guid.empty()) sysimg_hosts[n.sysimg_guid].insert(hh.first);
            add_ca(n, hh.first, hh.second, false);
        }
        std::size_t by_sysimg = 0;
        std::map<std::string, std::vector<const IbNode*>> groups;  // sysimg (or node GUID) -> CAs
        for (const IbNode* n : unnamed) {
            auto it = n->sysimg_guid.empty() ? sysimg_hosts.end() : sysimg_hosts.find(n->sysimg_guid);
            if (it != sysimg_hosts.end() && it->second.size() == 1) {
                ++by_sysimg;
                // The HCA name is unknown; the description may still carry one ("ubuntu mlx5_1").
                std::string hca =
                    is_factory_description(n->description) ? std::string{} : split_host_hca(n->description).second;
                add_ca(*n, *it->second.begin(), hca, false);
                continue;
            }
            groups[n->sysimg_guid.empty() ? n->guid : n->sysimg_guid].push_back(n);
        }
        std::size_t synthesized = 0;
        for (auto& [key, cas] : groups) {
            std::string lowest = cas.front()->guid;
            for (const IbNode* n : cas) lowest = std::min(lowest, n->guid);
            const std::string name = "H-" + hex16(lowest);
            for (const IbNode* n : cas) {
                std::string hca =
                    is_factory_description(n->description) ? std::string{} : split_host_hca(n->description).second;
                add_ca(*n, name, hca, true);
                ++synthesized;
            }
        }

        // ---- on-fabric selection and classification
        auto on_fabric_count = [&](const HostRec& h, bool use_regex) {
            std::size_t k = 0;
            for (const auto& c : h.cas) {
                if (c.leaf.empty()) continue;
                if (use_regex && !(hca_re && hca_matches(*hca_re, c.hca))) continue;
                ++k;
            }
            return k;
        };
        std::size_t n_targets = 0;
        std::size_t n_service = 0;
        std::size_t m1 = 0;
        std::size_t m2 = 0;
        std::size_t numbered = 0;
        std::size_t without_first = 0;
        for (const auto& [name, h] : hosts) {
            if (h.synthesized) continue;
            if (is_storage_target_name(name)) {
                ++n_targets;
                continue;
            }
            if (is_service_name(name)) {
                ++n_service;
                continue;
            }
            std::size_t k = on_fabric_count(h, hca_re.has_value());
            if (k >= 2) ++m2;
            if (k == 1) ++m1;
            bool any_numbered = false;
            bool has_first = false;
            for (const auto& c : h.cas) {
                std::string base = c.hca.substr(0, c.hca.find(':'));
                int idx = hca_index(base);
                if (idx >= 0) any_numbered = true;
                if (idx == 0) has_first = true;
            }
            if (any_numbered) {
                ++numbered;
                if (!has_first) ++without_first;
            }
        }
        const bool multi_rail = m2 > 0 && m2 >= m1;
        bool storage = false;
        if (!hca_re) {
            const bool sig_targets = n_targets >= 2 && n_targets * 20 >= hosts.size();
            const bool sig_first = numbered > 0 && without_first * 2 > numbered;
            storage = sig_targets && sig_first;
            std::string figures = std::to_string(n_targets) + " storage target host(s) of "
                                  + std::to_string(hosts.size()) + ", " + std::to_string(without_first) + " of "
                                  + std::to_string(numbered) + " GPU/compute host(s) without their first HCA here";
            if (storage) {
                builder.warn(src +
                             ": classified as a STORAGE fabric (" + figures +
                             "); compute hosts' HCAs on it are recorded off-fabric with no leaf and role Unknown; "
                             "import the compute fabric for placement, or set an HCA regex to override");
            } else if (sig_targets || sig_first) {
                builder.warn(src + ": one storage-fabric signal only (" + figures
                             + "); treated as the compute fabric. Set an HCA regex if this is wrong");
            }
        }

        // ---- emit hosts and NICs
        std::size_t skipped_by_regex = 0;
        std::size_t nics_off = 0;
        for (const auto& [name, h] : hosts) {
            const bool target = !h.synthesized && is_storage_target_name(name);
            const bool service = !h.synthesized && !target && is_service_name(name);
            const bool ordinary = !h.synthesized && !target && !service;
            const std::size_t k = on_fabric_count(h, hca_re.has_value());
            if (hca_re && k == 0) {
                ++skipped_by_regex;
                continue;
            }
            HostRole role = HostRole::Unknown;
            if (target || service) {
                role = HostRole::Service;
            } else if (storage) {
                role = HostRole::Unknown;
            } else if (h.synthesized) {
                role = multi_rail ? HostRole::Unknown : HostRole::Compute;
            } else if (k >= 2 || (k == 1 && !multi_rail)) {
                role = HostRole::Compute;
            } else if (k == 1) {
                role = HostRole::Service;
            }
            builder.add_host(name, role, h.sysimg, Provenance::Discovered);
            for (const auto& c : h.cas) {
                Nic nic;
                nic.name = c.hca;
                nic.guid = c.node->port_guid.empty() ? c.node->guid : c.node->port_guid;
                if (c.port != nullptr && c.port->port != 1 && c.hca.find(':') != std::string::npos) {
                    nic.guid.clear();  // the dump gives the GUID of the first port only
                }
                nic.provenance = Provenance::Discovered;
                std::string leaf = c.leaf;
                if (c.port != nullptr) {
                    nic.rate = c.port->rate;
                    nic.rate_gbps = c.port->gbps;
                    nic.leaf_port = leaf.empty() ? 0 : c.port->peer_port;
                }
                if (hca_re && !hca_matches(*hca_re, c.hca)) leaf.clear();
                if (storage && ordinary) leaf.clear();
                if (leaf.empty()) {
                    nic.leaf_port = 0;
                    ++nics_off;
                }
                builder.add_nic(name, std::move(nic), leaf);
            }
        }

        // ---- findings
        if (sharp > 0) {
            builder.warn(src + ": skipped " + std::to_string(sharp)
                         + " SHARP aggregation node(s) (switch-internal CAs, not hosts)");
        }
        if (!options.name_map.names.empty() && map_hits == 0) {
            builder.warn(options.name_map.source + ": none of its " + std::to_string(options.name_map.names.size())
                         + " GUID(s) is a node of " + src
                         + " (the map of another fabric?); names come from the node descriptions");
        }
        if (routers > 0) builder.warn(src + ": skipped " + std::to_string(routers) + " IB router(s)");
        if (loopbacks > 0) {
            builder.warn(src + ": ignored " + std::to_string(loopbacks) + " loopback cable(s) from a switch to itself");
        }
        if (off_switch > 0) {
            builder.warn(src + ": " + std::to_string(off_switch)
                         + " CA port(s) are cabled to a non-switch node (back-to-back); recorded off-fabric");
        }
        if (by_sysimg > 0) {
            builder.warn(src + ": " + std::to_string(by_sysimg) +
                         " CA(s) without a usable node description were attached to their host through the "
                         "system image GUID");
        }
        if (bad_names > 0) {
            std::string shown = bad_name_example;
            for (char& c : shown) {
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
            }
            builder.warn(src + ": " + std::to_string(bad_names)
                         + " CA(s) have a host name that is not a valid node name (e.g. \"" + shown
                         + "\"; letters, digits, '-', '_', '.'): named by GUID (provide a node-name-map to fix)");
        }
        if (synthesized > 0) {
            builder.warn(src + ": " + std::to_string(synthesized) + " CA(s) in " + std::to_string(groups.size()) +
                         " host(s) have no usable node description and no node-name-map entry; named \"H-<node "
                         "GUID>\"" +
                         (multi_rail ? " with role Unknown" : "") + " (provide a node-name-map to fix)");
        }
        if (skipped_by_regex > 0) {
            builder.warn(src + ": skipped " + std::to_string(skipped_by_regex) + " host(s) with no HCA matching /"
                         + *options.hca_regex + "/");
        }
        (void)cables;
        (void)nics_off;
        (void)n_service;
        return Ok{};
    } catch (const std::exception& e) {
        return fail(Errc::Internal, std::string("InfiniBand import: ") + e.what(), fabric.source);
    }
}

}  // namespace topo
