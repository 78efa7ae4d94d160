// SPDX-License-Identifier: Apache-2.0
// topoplace show SNAPSHOT [--json | --dot]
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <topo/hostlist.hpp>
#include <topo/snapshot.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

namespace {

struct ShowOptions {
    std::string snapshot;
    bool json = false;
    bool dot = false;
};

const char* tier_name(int t, int tiers) {
    if (t == 0) return "leaf";
    if (t == tiers - 1 && tiers >= 3) return "core";
    if (t == 1) return "spine";
    return "upper";
}

std::vector<std::string> group_host_names(const Topology& t, const LeafGroup& g) {
    std::vector<std::string> out;
    out.reserve(g.hosts.size());
    for (auto h : g.hosts) out.push_back(t.host(h).name);
    return out;
}

nlohmann::json to_json(const Topology& t) {
    const Summary s = t.summary();
    nlohmann::json groups = nlohmann::json::array();
    nlohmann::json group_info = nlohmann::json::array();
    for (const auto& g : t.groups()) {
        groups.push_back(group_host_names(t, g));
        nlohmann::json leaves = nlohmann::json::array();
        for (auto l : g.leaves) leaves.push_back(switch_label(t.sw(l)));
        group_info.push_back(
            {{"name", g.name}, {"hosts", compress_hostlist(group_host_names(t, g))}, {"leaves", leaves}});
    }
    std::vector<int> per_tier(static_cast<std::size_t>(std::max(t.tiers(), 0)), 0);
    for (const auto& sw : t.switches()) {
        if (sw.tier >= 0 && sw.tier < t.tiers()) ++per_tier[static_cast<std::size_t>(sw.tier)];
    }
    return {{"schema", "topoplace.show"},
            {"fingerprint", t.fingerprint()},
            {"hosts", s.hosts},
            {"compute_hosts", s.compute_hosts},
            {"service_hosts", s.service_hosts},
            {"gpus", s.gpus},
            {"nics", s.nics},
            {"switches", s.switches},
            {"switches_per_tier", per_tier},
            {"tiers", s.tiers},
            {"rails", s.rails},
            {"nvlink_domains", s.nvlink_domains},
            {"nvswitches", s.nvswitches},
            {"groups", groups},
            {"group_info", group_info},
            {"warnings", std::vector<std::string>(t.warnings().begin(), t.warnings().end())}};
}

std::string dot_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o;
}

void print_dot(const Topology& t, std::ostream& out) {
    // Switches by tier (one rank per tier, core on top) and host groups collapsed into
    // one box each; a person can open it with `dot -Tsvg`.
    static const char* kColors[] = {"#cfe8ff", "#ffe3b3", "#ffc9c9", "#e0d4ff", "#d8f5d0"};
    out << "graph topoplace {\n  graph [rankdir=BT, splines=false, nodesep=0.1, ranksep=1.2];\n"
        << "  node [shape=box, style=filled, fontname=Helvetica, fontsize=9];\n";
    for (int tier = 0; tier < t.tiers(); ++tier) {
        out << "  { rank=same;";
        for (std::size_t i = 0; i < t.switches().size(); ++i) {
            if (t.switches()[i].tier == tier) out << " s" << i << ";";
        }
        out << " }\n";
    }
    for (std::size_t i = 0; i < t.switches().size(); ++i) {
        const Switch& s = t.switches()[i];
        out << "  s" << i << " [label=\"" << dot_escape(switch_label(s)) << "\", fillcolor=\""
            << kColors[std::min(std::max(s.tier, 0), 4)] << "\"];\n";
    }
    for (std::size_t gi = 0; gi < t.groups().size(); ++gi) {
        const LeafGroup& g = t.groups()[gi];
        out << "  g" << gi << " [shape=folder, fillcolor=\"#eeeeee\", label=\"" << g.name << "\\n"
            << dot_escape(compress_hostlist(group_host_names(t, g))) << "\\n"
            << g.hosts.size() << " hosts\"];\n";
        for (auto l : g.leaves) out << "  g" << gi << " -- s" << l.index() << ";\n";
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> drawn;
    for (const auto& l : t.links()) {
        if (l.nic.valid()) continue;
        if (drawn.insert({l.a.index(), l.b.index()}).second) {
            out << "  s" << l.a.index() << " -- s" << l.b.index() << ";\n";
        }
    }
    out << "}\n";
}

void print_text(const Topology& t, std::ostream& out) {
    const Summary s = t.summary();
    out << "Topology Fingerprint=" << t.fingerprint() << " Schema=" << kSnapshotSchema << "/" << kSnapshotVersion
        << "\n";
    out << "   Hosts=" << s.hosts << " ComputeHosts=" << s.compute_hosts << " ServiceHosts=" << s.service_hosts
        << " GPUs=" << s.gpus << " NICs=" << s.nics << "\n";
    out << "   Switches=" << s.switches << " Tiers=" << s.tiers << " Rails=" << s.rails
        << " NVLinkDomains=" << s.nvlink_domains << " NVSwitches=" << s.nvswitches << " Groups=" << t.groups().size()
        << "\n";
    for (int tier = 0; tier < t.tiers(); ++tier) {
        int n = 0;
        for (const auto& sw : t.switches()) n += sw.tier == tier ? 1 : 0;
        out << "   Tier" << tier << "(" << tier_name(tier, t.tiers()) << ")=" << n << "\n";
    }
    for (const auto& g : t.groups()) {
        out << "Group=" << g.name << " Hosts=" << compress_hostlist(group_host_names(t, g)) << " Leaves=";
        for (std::size_t i = 0; i < g.leaves.size(); ++i) out << (i ? "," : "") << switch_label(t.sw(g.leaves[i]));
        out << "\n";
    }
    std::map<std::string, int> multi;
    for (const auto& d : t.nvl_domains()) {
        if (!d.multi_node) continue;
        std::vector<std::string> hs;
        for (auto h : d.hosts) hs.push_back(t.host(h).name);
        out << "NVLinkDomain=" << d.name << " Hosts=" << compress_hostlist(hs) << " GPUs=" << d.gpus.size()
            << " UsableHosts=" << (d.usable_hosts ? d.usable_hosts : static_cast<int>(d.hosts.size())) << "\n";
    }
    for (const auto& w : t.warnings()) out << "Warning: " << w << "\n";
}

}  // namespace

Runner add_show(CLI::App& app) {
    auto opts = std::make_shared<ShowOptions>();
    auto* sub = app.add_subcommand("show", "Summarise a snapshot (text, --json or --dot)");
    sub->add_option("snapshot", opts->snapshot, "snapshot file written by `topoplace discover`")->required();
    auto* j = sub->add_flag("--json", opts->json,
                            "one JSON object: hosts, gpus, nics, switches, tiers, rails, "
                            "nvlink_domains, groups");
    sub->add_flag("--dot", opts->dot, "Graphviz graph of switches and host groups")->excludes(j);
    return [opts]() {
        auto t = load_snapshot(opts->snapshot);
        if (!t) return report(t.error());
        if (opts->json) {
            std::cout << to_json(**t).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        } else if (opts->dot) {
            print_dot(**t, std::cout);
        } else {
            print_text(**t, std::cout);
        }
        return static_cast<int>(kOk);
    };
}

}  // namespace topo::cli
