// SPDX-License-Identifier: Apache-2.0
// slurm.conf node lines: Features (leaf group, spine, NVLink domain) and Weight.
// Why the weights look the way they do: see nodes.hpp and docs/slurm-conf.md.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

#include <topo/hostlist.hpp>
#include <topo/slurm_view.hpp>
#include <topo/slurmconf/nodes.hpp>

namespace topo::slurmconf {

namespace {

bool host_included(const Host& h, const TreeOptions& o) {
    return slurm_node(h, o.include_service);
}

/// Connected part of every switch of the generated tree (index = part id, 0 = the
/// part with most hosts; ties: the one whose first leaf comes first).
std::vector<std::size_t> part_ranks(const TreeConf& tc) {
    const auto n = tc.switches.size();
    std::vector<std::size_t> p(n);
    std::iota(p.begin(), p.end(), std::size_t{0});
    auto find = [&](std::size_t x) {
        while (p[x] != x) x = p[x] = p[p[x]];
        return x;
    };
    for (std::size_t i = 0; i < n; ++i) {
        for (auto c : tc.switches[i].children) {
            auto a = find(i);
            auto b = find(c);
            if (a != b) p[std::max(a, b)] = std::min(a, b);
        }
    }
    std::map<std::size_t, std::size_t> hosts_in;  // root -> hosts
    for (std::size_t i = 0; i < n; ++i) hosts_in[find(i)] += tc.switches[i].nodes.size();
    std::vector<std::pair<std::size_t, std::size_t>> order(hosts_in.begin(), hosts_in.end());
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::map<std::size_t, std::size_t> rank;
    for (std::size_t r = 0; r < order.size(); ++r) rank[order[r].first] = r;
    std::vector<std::size_t> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = rank[find(i)];
    return out;
}

}  // namespace

Result<NodeLines> generate_node_lines(const Topology& t, const TreeOptions& topts, const NodeLineOptions& o) {
    if (!o.features && !o.weights) {
        return fail(Errc::InvalidArgument, "node lines: ask for features, weights or both");
    }
    if (o.weight_base < 1 || o.weight_step < 1) {
        return fail(Errc::InvalidArgument, "node lines: weight base and step must be >= 1");
    }
    auto tree = generate_tree_conf(t, topts);
    if (!tree) return fail(tree.error());
    const auto& sw = tree->switches;

    struct Row {
        std::vector<std::string> feats;
        int weight = 0;
        bool in_tree = false;
    };

    std::map<std::string, Row> rows;  // host -> values
    std::map<std::string, std::size_t> leaf_of;
    for (std::size_t i = 0; i < sw.size(); ++i) {
        if (sw[i].level != 0) continue;
        for (const auto& h : sw[i].nodes) {
            leaf_of[h] = i;
            rows[h].in_tree = true;
            if (o.features) rows[h].feats.push_back(group_feature(sw[i].group));
        }
    }
    if (o.features) {
        std::map<std::size_t, std::vector<std::string>> spines_of;  // level-1 parents of each leaf
        for (const auto& s : sw) {
            if (s.level != 1) continue;
            for (auto c : s.children) spines_of[c].push_back(spine_feature(s.name));
        }
        for (auto& [h, r] : rows) {
            for (const auto& s : spines_of[leaf_of[h]]) r.feats.push_back(s);
        }
        for (const auto& d : t.nvl_domains()) {
            if (!d.multi_node) continue;
            for (auto h : d.hosts) {
                auto it = rows.find(t.host(h).name);
                if (it != rows.end()) it->second.feats.push_back(domain_feature(d.name));
            }
        }
    }

    NodeLines nl;
    nl.warnings = tree->warnings;
    std::vector<std::string> class_notes;
    if (o.weights) {
        // class key per leaf: (part rank, GPUs per host = max over the group's hosts)
        const auto ranks = part_ranks(*tree);
        std::map<std::size_t, std::tuple<std::size_t, std::size_t>> key_of_leaf;
        std::set<std::tuple<std::size_t, std::size_t>> keys;
        for (std::size_t i = 0; i < sw.size(); ++i) {
            if (sw[i].level != 0) continue;
            std::size_t gmin = SIZE_MAX;
            std::size_t gmax = 0;
            for (const auto& h : sw[i].nodes) {
                const auto id = t.find_host(h);
                const std::size_t g = id ? t.host(*id).gpus.size() : 0;
                gmin = std::min(gmin, g);
                gmax = std::max(gmax, g);
            }
            if (gmin != gmax) {
                nl.warnings.push_back("leaf group " + sw[i].group + " mixes hosts with " + std::to_string(gmin) +
                                      " and " + std::to_string(gmax) +
                                      " GPUs; they get one Weight (the group's largest GPU count) so that "
                                      "Weight does not split the group: " +
                                      compress_hostlist(sw[i].nodes));
            }
            key_of_leaf[i] = {ranks[i], gmax};
            keys.insert(key_of_leaf[i]);
        }
        std::map<std::tuple<std::size_t, std::size_t>, int> weight_of;
        int idx = 0;
        for (const auto& k : keys) {
            const int w = o.weight_base + o.weight_step * idx++;
            weight_of[k] = w;
            class_notes.push_back("Weight=" + std::to_string(w) + ": fabric part " + std::to_string(std::get<0>(k) + 1)
                                  + " (by size), " + std::to_string(std::get<1>(k)) + " GPU(s) per host");
        }
        for (auto& [h, r] : rows) r.weight = weight_of[key_of_leaf[leaf_of[h]]];
        // included hosts on no leaf: heaviest
        const int off_tree = o.weight_base + o.weight_step * idx;
        bool any_off = false;
        for (const auto& h : t.hosts()) {
            if (!host_included(h, topts) || h.group.valid()) continue;
            rows[h.name].weight = off_tree;
            any_off = true;
        }
        if (any_off) {
            class_notes.push_back("Weight=" + std::to_string(off_tree) + ": hosts on no leaf switch");
        }
    }

    // group hosts by equal line content
    std::map<std::string, std::vector<std::string>> by_value;
    for (auto& [h, r] : rows) {
        std::string v;
        if (!r.feats.empty()) {
            v += " Features=";
            for (std::size_t i = 0; i < r.feats.size(); ++i) v += (i ? "," : "") + r.feats[i];
        }
        if (o.weights) v += " Weight=" + std::to_string(r.weight);
        if (v.empty()) continue;  // features only, host on no leaf
        by_value[v].push_back(h);
    }
    std::vector<std::pair<std::string, std::string>> out;  // first host, line
    for (auto& [v, hosts] : by_value) {
        std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& c) { return natural_less(a, c); });
        out.emplace_back(hosts.front(), "NodeName=" + compress_hostlist(hosts) + v);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& c) { return natural_less(a.first, c.first); });

    std::ostringstream text;
    if (o.features && !o.weights) {
        text << "# Node features for slurm.conf, generated by topoplace slurm-conf --features. Minimum Slurm "
                "version: 22.05\n";
    } else {
        text << "# Node " << (o.features ? "features and weights" : "weights")
             << " for slurm.conf, generated by topoplace slurm-conf" << (o.features ? " --features" : "")
             << " --weights. Minimum Slurm version: 22.05\n";
    }
    text << "# Source fingerprint: " << t.fingerprint() << "\n"
         << "# Merge into the NodeName lines of these nodes.";
    if (o.features) {
        text << " Keep a job inside one leaf group with\n"
             << "#   sbatch -C \"[lg_g001|lg_g002|...]\"   (matching OR: all nodes get the same one)\n";
    } else {
        text << "\n";
    }
    if (o.weights) {
        text << "# Weights never differ inside a leaf group (Slurm takes lighter nodes before it looks at\n"
             << "# switches); lighter = larger fabric part, then fewer GPUs per host:\n";
        for (const auto& c : class_notes) text << "#   " << c << "\n";
    }
    for (auto& [first, line] : out) {
        nl.lines.push_back(line);
        text << line << "\n";
    }
    nl.text = text.str();
    return nl;
}

Result<FeaturesConf> generate_features(const Topology& t, const TreeOptions& opts) {
    auto nl = generate_node_lines(t, opts, NodeLineOptions{});
    if (!nl) return fail(nl.error());
    FeaturesConf fc;
    fc.lines = std::move(nl->lines);
    fc.warnings = std::move(nl->warnings);
    fc.text = std::move(nl->text);
    return fc;
}

}  // namespace topo::slurmconf
