// SPDX-License-Identifier: Apache-2.0
#pragma once
// A generator of rail-optimised InfiniBand fabrics as `ibnetdiscover` prints them, with
// the truth the reader must recover (issue 15): 2- or 3-tier fat trees, random sizes,
// per-host HCA naming, empty leaves, management servers on spines, a converged storage
// leaf, loopback cables. Written by the project; used by the property test and to write
// the tests/fixtures/ibnetdiscover/topoplace-gen-*.txt files.
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace fabric_gen {

struct Config {
    int tiers = 2;        ///< 2: leaves + spines; 3: pods of leaves + spines, super-spines
    int pods = 1;         ///< 3-tier only
    int sus_per_pod = 2;  ///< scalable units (host groups) with hosts, per pod
    int hosts_per_su = 4;
    int rails = 4;              ///< HCAs per compute host, one leaf per rail per SU
    int spines_per_pod = 2;     ///< each leaf of a pod is cabled to every spine of its pod
    int cores = 2;              ///< 3-tier: super-spines, each cabled to one spine of every pod
    int empty_leaves = 0;       ///< per pod: host-less leaves cabled to some of the pod's spines
    int mgmt_on_spines = 0;     ///< UFM/management servers (one HCA) cabled straight to spines
    bool storage_leaf = false;  ///< per pod: a leaf with storage targets + a minority of hosts' storage HCA
    int storage_targets = 2;
    int loopbacks = 0;           ///< cables from a leaf port to another port of the same leaf
    bool mixed_schemes = false;  ///< hosts of odd SUs call their HCAs HCA-N, others mlx5_N
    double renamed = 0.0;        ///< share of hosts with one HCA named off its rail (HCA-11 on rail 7's leaf)
    bool unnamed_switches = false;
    std::uint32_t seed = 1;
};

struct Truth {
    int tiers = 0;
    int rails = 0;
    std::map<std::string, int> switch_tier;                ///< switch GUID -> tier
    std::map<std::string, std::string> nic_host;           ///< NIC GUID -> host
    std::map<std::string, int> nic_rail;                   ///< NIC GUID -> rail (-1: storage leaf)
    std::vector<std::vector<std::string>> compute_groups;  ///< hosts of each populated SU
    std::set<std::string> compute_hosts;
    std::set<std::string> service_hosts;
};

struct Fabric {
    std::string text;
    Truth truth;
};

namespace detail {

struct Port {
    int port = 0;
    std::string peer;  // GUID
    int peer_port = 0;
};

struct Node {
    bool sw = false;
    std::string guid;
    std::string desc;
    int nports = 0;
    std::vector<Port> ports;
};

inline std::string hex16(std::uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace detail

inline Fabric generate(const Config& c) {
    using detail::Node;
    std::mt19937 rng(c.seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    std::vector<Node> nodes;
    std::map<std::string, std::size_t> idx;
    std::uint64_t next_sw = 0x7cfe900300a00000ULL;
    std::uint64_t next_ca = 0x0c42a10300b00000ULL;
    Fabric f;
    Truth& t = f.truth;
    auto add = [&](bool sw, const std::string& desc, int nports) {
        Node n;
        n.sw = sw;
        n.guid = detail::hex16(sw ? next_sw++ : next_ca++);
        n.desc = desc;
        n.nports = nports;
        idx[n.guid] = nodes.size();
        nodes.push_back(n);
        return nodes.back().guid;
    };
    auto free_port = [&](const std::string& g) {
        Node& n = nodes[idx[g]];
        return static_cast<int>(n.ports.size()) + 1;
    };
    auto cable = [&](const std::string& a, const std::string& b) {
        const int pa = free_port(a);
        if (a == b) {
            nodes[idx[a]].ports.push_back({pa, a, pa + 1});
            nodes[idx[a]].ports.push_back({pa + 1, a, pa});
            return;
        }
        const int pb = free_port(b);
        nodes[idx[a]].ports.push_back({pa, b, pb});
        nodes[idx[b]].ports.push_back({pb, a, pa});
    };
    auto swname = [&](const std::string& name) {
        return c.unnamed_switches ? std::string("MF0;MQM8700:MQM8700/U1") : "MF0;" + name + ":MQM8700/U1";
    };
    const int pods = c.tiers == 3 ? c.pods : 1;
    std::vector<std::string> cores;
    for (int k = 0; k < (c.tiers == 3 ? c.cores : 0); ++k) {
        cores.push_back(add(true, swname("core" + std::to_string(k)), 64));
        t.switch_tier[cores.back()] = 2;
    }
    std::vector<std::string> all_spines;
    int host_no = 0;
    int su_no = 0;
    for (int p = 0; p < pods; ++p) {
        std::vector<std::string> spines;
        for (int k = 0; k < c.spines_per_pod; ++k) {
            spines.push_back(add(true, swname("spine-p" + std::to_string(p) + "-" + std::to_string(k)), 64));
            t.switch_tier[spines.back()] = 1;
            all_spines.push_back(spines.back());
            for (std::size_t q = 0; q < cores.size(); ++q) {
                if (static_cast<int>(q) % c.spines_per_pod == k) cable(spines.back(), cores[q]);
            }
        }
        // a core for each spine position must exist for pods to be joined
        if (c.tiers == 3 && static_cast<int>(cores.size()) < c.spines_per_pod) {
            for (int k = static_cast<int>(cores.size()); k < c.spines_per_pod; ++k)
                cable(spines[k], cores[k % cores.size()]);
        }
        std::string storage;
        std::vector<std::string> targets;
        if (c.storage_leaf) {
            storage = add(true, swname("stor-leaf-p" + std::to_string(p)), 40);
            t.switch_tier[storage] = 0;
            for (const auto& s : spines) cable(storage, s);
            for (int k = 0; k < c.storage_targets; ++k) {
                const std::string name = "ddn" + std::to_string(p) + std::to_string(k);
                const std::string g = add(false, name + " mlx5_0", 1);
                cable(g, storage);
                t.nic_host[g] = name;
                t.nic_rail[g] = 0;  // -1 once a GPU node's HCA makes it a storage/side leaf (below)
                t.service_hosts.insert(name);
                targets.push_back(g);
            }
        }
        for (int s = 0; s < c.sus_per_pod + c.empty_leaves; ++s) {
            const bool populated = s < c.sus_per_pod;
            std::vector<std::string> leaves;
            const int nleaves = populated ? c.rails : 1;
            for (int r = 0; r < nleaves; ++r) {
                leaves.push_back(add(true,
                                     swname((populated ? "leaf-su" + std::to_string(su_no) + "-r" + std::to_string(r)
                                                       : "leaf-empty-p" + std::to_string(p) + "-" + std::to_string(s))),
                                     40));
                t.switch_tier[leaves.back()] = 0;
                if (populated) {
                    for (const auto& sp : spines) cable(leaves.back(), sp);
                } else {  // an empty ToR: cabled to some of its pod's spines (at least 2)
                    std::vector<std::string> sp = spines;
                    std::shuffle(sp.begin(), sp.end(), rng);
                    const int n = c.spines_per_pod <= 2 ? c.spines_per_pod : 2 + pick(c.spines_per_pod - 1);
                    for (int k = 0; k < n; ++k) cable(leaves.back(), sp[static_cast<std::size_t>(k)]);
                }
            }
            if (!populated) continue;
            const bool hca_scheme = c.mixed_schemes && su_no % 2 == 1;
            std::vector<std::string> group;
            for (int h = 0; h < c.hosts_per_su; ++h) {
                char hn[32];
                std::snprintf(hn, sizeof hn, "gpu%04d", ++host_no);
                group.push_back(hn);
                t.compute_hosts.insert(hn);
                const int renamed_rail =
                    c.rails > 1 && std::uniform_real_distribution<double>(0, 1)(rng) < c.renamed ? pick(c.rails) : -1;
                for (int r = 0; r < c.rails; ++r) {
                    std::string hca = hca_scheme ? "HCA-" + std::to_string(r + 1) : "mlx5_" + std::to_string(r);
                    if (r == renamed_rail) {
                        hca = hca_scheme ? "HCA-" + std::to_string(r + 1 + c.rails + 2)
                                         : "mlx5_" + std::to_string(r + c.rails + 2);
                    }
                    const std::string g = add(false, std::string(hn) + " " + hca, 1);
                    cable(g, leaves[static_cast<std::size_t>(r)]);
                    t.nic_host[g] = hn;
                    t.nic_rail[g] = r;
                }
                // a minority of the hosts (every third) also reach the storage leaf
                if (!storage.empty() && host_no % 3 == 2) {
                    const std::string hca =
                        hca_scheme ? "HCA-" + std::to_string(c.rails + 1) : "mlx5_" + std::to_string(c.rails);
                    const std::string g = add(false, std::string(hn) + " " + hca, 1);
                    cable(g, storage);
                    t.nic_host[g] = hn;
                    t.nic_rail[g] = -1;
                    for (const auto& tg : targets) t.nic_rail[tg] = -1;
                }
            }
            t.compute_groups.push_back(group);
            ++su_no;
            for (int k = 0; k < c.loopbacks; ++k) {
                const auto& l = leaves[static_cast<std::size_t>(pick(c.rails))];
                cable(l, l);
            }
        }
        if (c.loopbacks > 0) {
            // a loopback on an empty leaf, when there is one, too
            for (const auto& n : nodes) {
                if (n.sw && n.desc.find("leaf-empty-p" + std::to_string(p)) != std::string::npos) {
                    cable(n.guid, n.guid);
                    break;
                }
            }
        }
    }
    for (int k = 0; k < c.mgmt_on_spines; ++k) {
        const std::string name = "ufm" + std::to_string(k + 1);
        const std::string g = add(false, name + " mlx5_0", 1);
        cable(g, all_spines[static_cast<std::size_t>(k) % all_spines.size()]);
        t.nic_host[g] = name;
        t.nic_rail[g] = 0;
        t.service_hosts.insert(name);
    }
    t.tiers = c.tiers;
    t.rails = c.rails;
    // Print: ibnetdiscover's default layout.
    std::string& o = f.text;
    o += "#\n# Topology file: generated by topoplace's fabric generator (tests/unit/libtopo/fabric_gen.hpp)\n#\n\n";
    auto desc_of = [&](const std::string& g) { return nodes[idx.at(g)].desc; };
    for (const auto& n : nodes) {
        o += "vendid=0x2c9\n";
        o += n.sw ? "devid=0xd2f0\n" : "devid=0x101b\n";
        o += "sysimgguid=0x" + n.guid + "\n";
        if (n.sw) {
            o += "switchguid=0x" + n.guid + "(" + n.guid + ")\n";
            o += "Switch\t" + std::to_string(n.nports) + " \"S-" + n.guid + "\"\t\t# \"" + n.desc
                 + "\" enhanced port 0 lid 1 lmc 0\n";
        } else {
            o += "caguid=0x" + n.guid + "\n";
            o += "Ca\t1 \"H-" + n.guid + "\"\t\t# \"" + n.desc + "\"\n";
        }
        for (const auto& p : n.ports) {
            const Node& peer = nodes[idx.at(p.peer)];
            const std::string pname = std::string(peer.sw ? "S-" : "H-") + peer.guid;
            if (n.sw) {
                o += "[" + std::to_string(p.port) + "]\t\"" + pname + "\"[" + std::to_string(p.peer_port) + "]";
                if (!peer.sw) o += "(" + peer.guid + ") ";
                o += "\t\t# \"" + desc_of(p.peer) + "\" lid 2 4xHDR\n";
            } else {
                o += "[" + std::to_string(p.port) + "](" + n.guid + ") \t\"" + pname + "\"["
                     + std::to_string(p.peer_port) + "]\t\t# lid 3 lmc 0 \"" + desc_of(p.peer) + "\" lid 1 4xHDR\n";
            }
        }
        o += "\n";
    }
    return f;
}

}  // namespace fabric_gen
