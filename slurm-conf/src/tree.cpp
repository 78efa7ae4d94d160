// SPDX-License-Identifier: Apache-2.0
// topology.conf (topology/tree) and node Features generation.
//
// Why one Slurm leaf per host group: Slurm's tree plugin packs jobs on the lowest
// switch that holds enough nodes. In a rail-optimized fabric every host of a scalable
// unit sits on all rail leaves of that unit, so the unit is the true "leaf" for
// locality; listing each rail leaf would put a host under several leaves, which Slurm
// only logs and then handles badly.
//
// Why merge by "set of children reached": all spines of a pod reach the same leaves;
// they are one Slurm spine. When spines reach different (overlapping) sets of groups,
// as in psmn-x5-qdr, each distinct set becomes one Slurm switch and a group may have
// several parents; this is what the site's own generated file does and what Slurm
// accepts, and it keeps the real one-hop-apart information.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <topo/hostlist.hpp>
#include <topo/slurm_view.hpp>
#include <topo/slurmconf/tree.hpp>

namespace topo::slurmconf {

namespace {

bool host_included(const Host& h, const TreeOptions& o) {
    return slurm_node(h, o.include_service);
}

bool valid_switch_name(const std::string& s) {
    if (s.empty()) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
               || c == '.';
    });
}

std::string kind_name(int level, int top) {
    if (level == 0) return "leaf";
    if (level == top && top >= 2) return "core";
    if (level == 1) return "spine";
    return "l" + std::to_string(level);
}

Result<std::string> expand_template(const std::string& tpl, const std::string& kind, int level, const std::string& n,
                                    const std::string& group) {
    std::string out;
    for (std::size_t i = 0; i < tpl.size(); ++i) {
        if (tpl[i] != '{') {
            out += tpl[i];
            continue;
        }
        const auto close = tpl.find('}', i);
        if (close == std::string::npos) {
            return fail(Errc::InvalidArgument, "name template \"" + tpl + "\": unbalanced '{'");
        }
        const std::string key = tpl.substr(i + 1, close - i - 1);
        if (key == "kind") {
            out += kind;
        } else if (key == "level") {
            out += std::to_string(level);
        } else if (key == "n") {
            out += n;
        } else if (key == "group") {
            out += group.empty() ? n : group;
        } else {
            return fail(Errc::InvalidArgument, "name template \"" + tpl + "\": unknown placeholder {" + key
                                                   + "} (known: {kind} {level} {n} {group})");
        }
        i = close;
    }
    return out;
}

/// The structure, before naming.
struct Built {
    std::vector<TreeSwitch> sw;
    std::vector<std::string> warnings;
    std::size_t hosts = 0;
};

Result<Built> build(const Topology& t, const TreeOptions& o) {
    Built b;
    // Hosts on no leaf.
    std::vector<std::string> lost;
    for (const auto& h : t.hosts()) {
        if (host_included(h, o) && !h.group.valid()) lost.push_back(h.name);
    }
    if (!lost.empty()) {
        b.warnings.push_back(std::to_string(lost.size()) + " host(s) on no leaf switch are not in the tree (Slurm's "
                             + "topology/tree will not place multi-node jobs on them): " + compress_hostlist(lost));
    }

    // Hosts whose NICs reach leaf switches of several other host groups (a miscabled
    // HCA, or a host bridging two scalable units): they become a Slurm leaf of their
    // own, under the parents of both, which is almost never what the site meant.
    if (auto w = guid_hosts_warning(t, o.include_service); !w.empty()) b.warnings.push_back(std::move(w));
    {
        // Only groups of hosts that are Slurm nodes count: a UFM server dual-homed on two
        // leaves, or an adapter named by GUID, says nothing about the real hosts' cabling.
        std::map<std::uint32_t, std::vector<std::size_t>> groups_on_leaf;
        for (std::size_t g = 0; g < t.groups().size(); ++g) {
            const auto& gh = t.groups()[g].hosts;
            if (std::none_of(gh.begin(), gh.end(), [&](HostId h) { return host_included(t.host(h), o); })) continue;
            for (auto l : t.groups()[g].leaves) groups_on_leaf[l.index()].push_back(g);
        }
        for (std::size_t g = 0; g < t.groups().size(); ++g) {
            const auto& grp = t.groups()[g];
            if (grp.leaves.size() < 2) continue;
            std::set<std::size_t> others;
            std::set<std::uint32_t> shared_leaves;
            for (auto l : grp.leaves) {
                for (auto other : groups_on_leaf[l.index()]) {
                    if (other == g) continue;
                    others.insert(other);
                    shared_leaves.insert(l.index());
                }
            }
            if (others.size() < 2 || shared_leaves.size() < 2) continue;
            std::vector<std::string> hs;
            for (auto h : grp.hosts) {
                if (host_included(t.host(h), o)) hs.push_back(t.host(h).name);
            }
            if (hs.empty()) continue;
            std::vector<std::string> leaves;
            for (auto l : grp.leaves) leaves.push_back(switch_label(t.sw(l)));
            std::sort(leaves.begin(), leaves.end(), [](const auto& a, const auto& c) { return natural_less(a, c); });
            std::string ls;
            for (std::size_t i = 0; i < leaves.size() && i < 8; ++i) ls += (i ? "," : "") + leaves[i];
            if (leaves.size() > 8) ls += ",...";
            b.warnings.push_back(std::to_string(hs.size()) + " host(s) on leaf switches of "
                                 + std::to_string(others.size())
                                 + " different host groups (miscabled?) get a Slurm leaf of their own (group "
                                 + grp.name + ", leaf switches " + ls + "): " + compress_hostlist(hs));
        }
    }

    // The structure: libtopo's Slurm view (slurm_view.hpp), the one placement indexes.
    const SlurmView tree = slurm_view(t, {.include_service = o.include_service});
    if (tree.switches.empty()) {
        return fail(Errc::InvalidArgument,
                    t.groups().empty()
                        ? "no host group in this topology (no host on any leaf switch): nothing to write; a "
                          "topology.conf without switches would stop slurmctld"
                        : "every host group holds only service hosts (use --include-service to place them)");
    }
    b.hosts = tree.nodes;
    for (const auto& v : tree.switches) {
        TreeSwitch s{.level = v.level, .children = v.children, .physical = v.physical, .synthetic = v.synthetic};
        if (v.level == 0) {
            s.group = t.groups()[v.group.index()].name;
            for (auto h : v.hosts) s.nodes.push_back(t.host(h).name);
            std::sort(s.nodes.begin(), s.nodes.end(), [](const auto& a, const auto& c) { return natural_less(a, c); });
        }
        b.sw.push_back(std::move(s));
    }
    std::map<std::size_t, std::vector<std::size_t>> leaves_of;  // part -> leaves
    for (std::size_t l = 0; l < tree.leaves; ++l) leaves_of[tree.switches[l].part].push_back(l);

    int top_level = 0;
    for (const auto& s : b.sw) top_level = std::max(top_level, s.level);
    if (top_level + 1 > kSlurmMaxTreeLevels) {
        std::vector<std::string> hs;
        for (std::size_t l = 0; l < tree.leaves; ++l) hs.insert(hs.end(), b.sw[l].nodes.begin(), b.sw[l].nodes.end());
        b.warnings.push_back("the tree has " + std::to_string(top_level + 1) + " switch levels; Slurm (22.05 "
                             + "topology_tree.c) stops resolving levels after " + std::to_string(kSlurmMaxTreeLevels)
                             + " passes (\"Switch configuration is not a tree\") if the file is reordered, and "
                             + "no real fabric is that deep: check the input for switch loops. Hosts: "
                             + compress_hostlist(hs));
    }

    if (tree.parts > 1) {
        std::ostringstream w;
        w << "the fabric has " << tree.parts
          << " disjoint parts with no common switch; Slurm will not place one job across them:";
        for (auto& [part, leaves] : leaves_of) {
            std::vector<std::string> hs;
            for (auto l : leaves) hs.insert(hs.end(), b.sw[l].nodes.begin(), b.sw[l].nodes.end());
            w << " [" << compress_hostlist(hs) << "]";
        }
        b.warnings.push_back(w.str());
    }
    return b;
}

Status name_switches(Built& b, const TreeOptions& o) {
    int top = 0;
    std::map<int, int> per_level;
    for (const auto& s : b.sw) {
        top = std::max(top, s.level);
        ++per_level[s.level];
    }
    std::map<int, int> seen;
    std::set<std::string> used;
    for (auto& s : b.sw) {
        const int idx = ++seen[s.level];
        const int count = per_level[s.level];
        const int width = std::max(2, static_cast<int>(std::to_string(count).size()));
        std::string num = std::to_string(idx);
        if (static_cast<int>(num.size()) < width) num.insert(0, static_cast<std::size_t>(width) - num.size(), '0');
        const std::string kind = kind_name(s.level, top);
        std::string tpl = o.name_template;
        if (tpl.empty()) tpl = (count == 1 && s.level == top && s.level > 0) ? "{kind}" : "{kind}{n}";
        auto name = expand_template(tpl, kind, s.level, num, s.group);
        if (!name) return fail(name.error());
        if (!valid_switch_name(*name)) {
            return fail(Errc::InvalidArgument, "name template \"" + tpl + "\" gives \"" + *name
                                                   + "\": switch names may hold only letters, digits, '_', '-', '.'");
        }
        if (!used.insert(*name).second) {
            return fail(Errc::InvalidArgument,
                        "name template \"" + tpl + "\" gives the name \"" + *name + "\" twice; use {n} or {level}");
        }
        s.name = std::move(*name);
    }
    return Ok{};
}

std::string physical_summary(const Topology& t, const std::vector<SwitchId>& phys) {
    std::vector<std::string> labels;
    labels.reserve(phys.size());
    for (auto p : phys) labels.push_back(switch_label(t.sw(p)));
    std::sort(labels.begin(), labels.end(), [](const auto& a, const auto& c) { return natural_less(a, c); });
    std::string o;
    const std::size_t show = std::min<std::size_t>(labels.size(), 8);
    for (std::size_t i = 0; i < show; ++i) o += (i ? "," : "") + labels[i];
    if (phys.size() > show) o += ",... (" + std::to_string(phys.size()) + " in all)";
    return o;
}

}  // namespace

Result<TreeConf> generate_tree_conf(const Topology& t, const TreeOptions& opts) {
    auto built = build(t, opts);
    if (!built) return fail(built.error());
    Built& b = *built;
    if (auto st = name_switches(b, opts); !st) return fail(st.error());

    std::size_t nleaves = 0;
    for (const auto& s : b.sw) nleaves += s.level == 0 ? 1 : 0;
    std::ostringstream out;
    out << "# topology.conf for Slurm's topology/tree plugin (TopologyPlugin=topology/tree)\n"
        << "# Generated by topoplace slurm-conf --format tree. Minimum Slurm version: 22.05\n";
    if (!opts.source_label.empty()) out << "# Source: " << opts.source_label << "\n";
    out << "# Source fingerprint: " << t.fingerprint() << "\n"
        << "# " << nleaves << " leaf switch(es) (one per host group), " << (b.sw.size() - nleaves)
        << " switch(es) above, " << b.hosts << " host(s)\n";
    for (const auto& w : b.warnings) out << "# Warning: " << w << "\n";
    int level = -1;
    for (const auto& s : b.sw) {
        if (s.level != level) {
            level = s.level;
            out << "\n# Level " << level << "\n";
        }
        if (s.level == 0) {
            out << "# group " << s.group << ": " << s.nodes.size() << " host(s), leaf switch(es) "
                << physical_summary(t, s.physical) << "\n";
            out << "SwitchName=" << s.name << " Nodes=" << compress_hostlist(s.nodes) << "\n";
        } else {
            std::vector<std::string> ch;
            for (auto c : s.children) ch.push_back(b.sw[c].name);
            if (s.synthetic) {
                out << "# synthetic root: no single physical switch sits above all of these\n";
            } else {
                out << "# " << physical_summary(t, s.physical) << "\n";
            }
            out << "SwitchName=" << s.name << " Switches=" << compress_hostlist(ch) << "\n";
        }
    }
    TreeConf conf;
    conf.text = out.str();
    conf.switches = std::move(b.sw);
    conf.warnings = std::move(b.warnings);
    return conf;
}

}  // namespace topo::slurmconf
