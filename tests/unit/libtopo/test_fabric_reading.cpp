// SPDX-License-Identifier: Apache-2.0
// How topoplace reads real fabrics (issue 15, docs/discover.md): tiers, rails and leaf
// groups against a generator's truth, on named structures seen at real sites and on
// random ones; the generated fixture files kept in step with the generator.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/text_input.hpp>
#include <topo/topology.hpp>

#include "fabric_gen.hpp"

namespace {

using fabric_gen::Config;

struct Read {
    topo::TopologyPtr t;
    std::vector<std::string> warnings;
};

Read read(const std::string& text, const std::string& source = "gen") {
    auto fab = topo::parse_ibnetdiscover(text, source);
    EXPECT_TRUE(fab) << (fab ? "" : fab.error().to_string());
    if (!fab) return {};
    topo::TopologyBuilder b;
    auto st = topo::import_ib_fabric(*fab, {}, b);
    EXPECT_TRUE(st) << (st ? "" : st.error().to_string());
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t) << (t ? "" : t.error().to_string());
    if (!t) return {};
    Read r;
    r.t = *t;
    r.warnings.assign((*t)->warnings().begin(), (*t)->warnings().end());
    return r;
}

bool has_warning(const Read& r, const std::string& part) {
    for (const auto& w : r.warnings) {
        if (w.find(part) != std::string::npos) return true;
    }
    return false;
}

/// Every figure the reader infers equals the generator's truth; "" when it does.
std::string mismatch(const Config& c) {
    const auto f = fabric_gen::generate(c);
    const Read r = read(f.text);
    if (!r.t) return "not read";
    const topo::Topology& t = *r.t;
    const auto& truth = f.truth;
    std::ostringstream o;
    if (t.tiers() != truth.tiers) o << "tiers " << t.tiers() << " != " << truth.tiers << "; ";
    if (t.rails() != truth.rails) o << "rails " << t.rails() << " != " << truth.rails << "; ";
    int bad_tiers = 0;
    for (const auto& s : t.switches()) {
        auto it = truth.switch_tier.find(s.guid.substr(2));
        if (it == truth.switch_tier.end()) {
            o << "unknown switch " << s.guid << "; ";
        } else if (it->second != s.tier && bad_tiers++ < 3) {
            o << "switch " << s.name << " tier " << s.tier << " != " << it->second << "; ";
        }
    }
    int bad_rails = 0;
    for (const auto& n : t.nics()) {
        auto it = truth.nic_rail.find(n.guid.substr(2));
        if (it == truth.nic_rail.end()) {
            o << "unknown NIC " << n.guid << "; ";
            continue;
        }
        if (t.host(n.host).name != truth.nic_host.at(it->first)) o << "NIC " << n.guid << " on the wrong host; ";
        if (it->second != n.rail && bad_rails++ < 3) {
            o << t.host(n.host).name << " " << n.name << " rail " << n.rail << " != " << it->second << "; ";
        }
    }
    // Compute hosts: one leaf group per scalable unit, exactly.
    std::set<std::uint32_t> seen_groups;
    for (const auto& g : truth.compute_groups) {
        auto first = t.find_host(g.front());
        if (!first) {
            o << "no host " << g.front() << "; ";
            continue;
        }
        const auto gid = t.host(*first).group;
        if (!gid.valid()) {
            o << g.front() << " in no group; ";
            continue;
        }
        if (!seen_groups.insert(gid.index()).second) o << "two units share group of " << g.front() << "; ";
        std::set<std::string> want(g.begin(), g.end());
        std::set<std::string> have;
        for (auto h : t.groups()[gid.index()].hosts) have.insert(t.host(h).name);
        if (have != want)
            o << "group of " << g.front() << " holds " << have.size() << " hosts, want " << want.size() << "; ";
    }
    for (const auto& h : t.hosts()) {
        const bool compute = truth.compute_hosts.count(h.name) != 0;
        const bool service = truth.service_hosts.count(h.name) != 0;
        if (compute && h.role != topo::HostRole::Compute) o << h.name << " not compute; ";
        if (service && h.role != topo::HostRole::Service) o << h.name << " not service; ";
    }
    return o.str();
}

// ---- named structures (each seen on a real fabric; issue 15 points 3-6)

TEST(FabricReading, ManagementServersOnSpinesKeepThreeTiers) {
    // A 3-tier HDR cluster whose UFM/management servers are cabled straight to two spines:
    // those spines must not become leaves (which flattened the fabric to 2 tiers).
    Config c;
    c.tiers = 3;
    c.pods = 3;
    c.sus_per_pod = 2;
    c.rails = 4;
    c.spines_per_pod = 4;
    c.cores = 4;
    c.mgmt_on_spines = 10;
    EXPECT_EQ(mismatch(c), "");
    const Read r = read(fabric_gen::generate(c).text);
    EXPECT_TRUE(has_warning(r, "are read as spines, not leaves")) << testing::PrintToString(r.warnings);
}

TEST(FabricReading, EmptyLeavesStayLeaves) {
    // ToRs without hosts yet, each cabled to some of its pod's spines, on 2 and 3 tiers.
    for (int tiers : {2, 3}) {
        Config c;
        c.tiers = tiers;
        c.pods = 2;
        c.spines_per_pod = 6;
        c.cores = 6;
        c.empty_leaves = 5;
        c.seed = 7;
        EXPECT_EQ(mismatch(c), "") << tiers << " tiers";
    }
}

TEST(FabricReading, BipartiteWithTwoHostsAndLoopbacks) {
    // 40 leaves / 20 spines, hosts on one leaf only, loopback cables on some leaves: every
    // host-less leaf is still a leaf (14 of them were called spines), 2 tiers.
    Config c;
    c.tiers = 2;
    c.sus_per_pod = 1;
    c.hosts_per_su = 2;
    c.rails = 1;
    c.spines_per_pod = 20;
    c.empty_leaves = 39;
    c.loopbacks = 3;
    EXPECT_EQ(mismatch(c), "");
}

TEST(FabricReading, ConvergedStorageLeafIsNotARail) {
    // 8 rails; a storage leaf holding storage targets and one HCA of every third GPU node,
    // uplinked to the same spines: still 8 rails and one group per unit (it read as 9
    // rails and twice the groups), with a warning that says what was decided.
    Config c;
    c.tiers = 2;
    c.sus_per_pod = 7;
    c.hosts_per_su = 3;
    c.rails = 8;
    c.spines_per_pod = 4;
    c.storage_leaf = true;
    c.storage_targets = 4;
    EXPECT_EQ(mismatch(c), "");
    const Read r = read(fabric_gen::generate(c).text);
    EXPECT_EQ(r.t->groups().size(), 7U + 1U);  // the 7 units, and the storage targets' leaf
    EXPECT_TRUE(has_warning(r, "read as storage/side leaves, not rails")) << testing::PrintToString(r.warnings);
}

TEST(FabricReading, RailsFollowTheLeafNotTheHcaName) {
    // Some hosts call one HCA by another number (HCA-11 on rail 7's leaf): the leaf decides.
    Config c;
    c.tiers = 2;
    c.sus_per_pod = 3;
    c.hosts_per_su = 8;
    c.rails = 8;
    c.spines_per_pod = 4;
    c.renamed = 0.25;
    c.seed = 3;
    EXPECT_EQ(mismatch(c), "");
    const Read r = read(fabric_gen::generate(c).text);
    EXPECT_TRUE(has_warning(r, "named unlike most NICs on their rail leaf")) << testing::PrintToString(r.warnings);
    // mixed naming schemes between units as well (HCA-N on odd units, mlx5_N on even ones)
    c.mixed_schemes = true;
    EXPECT_EQ(mismatch(c), "");
}

// ---- the property: random rail-optimised fabrics, all structures at once

TEST(FabricReading, RandomFabricsMatchTheirTruth) {
    std::mt19937 rng(20261126);
    auto in = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1)); };
    int checked = 0;
    for (int i = 0; i < 150; ++i) {
        Config c;
        c.seed = rng();
        c.tiers = in(2, 3);
        c.pods = in(2, 4);
        c.sus_per_pod = in(1, 4);
        c.hosts_per_su = in(2, 8);
        c.rails = in(1, 8);
        c.spines_per_pod = in(2, 8);
        c.cores = in(c.spines_per_pod, 2 * c.spines_per_pod);
        c.empty_leaves = in(0, 3);
        c.mgmt_on_spines = in(0, 4);
        c.storage_leaf = c.rails >= 2 && in(0, 1) == 1;
        c.storage_targets = in(2, 4);
        c.loopbacks = in(0, 2);
        c.mixed_schemes = c.rails >= 2 && c.sus_per_pod * (c.tiers == 3 ? c.pods : 1) >= 2 && in(0, 3) == 0;
        // A renamed HCA is a minority on its leaf by construction: one in ten hosts, in
        // units of four or more, and not together with mixed schemes (whose rails come
        // from positions, which a renamed HCA shifts).
        c.renamed = !c.mixed_schemes && c.rails >= 3 && c.hosts_per_su >= 4 ? 0.1 * in(0, 1) : 0.0;
        const std::string m = mismatch(c);
        EXPECT_EQ(m, "") << "config " << i << ": tiers=" << c.tiers << " pods=" << c.pods << " sus=" << c.sus_per_pod
                         << " hosts=" << c.hosts_per_su << " rails=" << c.rails << " spines=" << c.spines_per_pod
                         << " cores=" << c.cores << " empty=" << c.empty_leaves << " mgmt=" << c.mgmt_on_spines
                         << " storage=" << c.storage_leaf << " loops=" << c.loopbacks << " mixed=" << c.mixed_schemes
                         << " renamed=" << c.renamed << " seed=" << c.seed;
        ++checked;
    }
    EXPECT_EQ(checked, 150);
}

// ---- the generated fixture files (tests/fixtures/ibnetdiscover/topoplace-gen-*.txt) are
// what the generator writes today; TOPO_REGEN_FIXTURES=1 rewrites them.

struct Named {
    const char* file;
    Config config;
};

std::vector<Named> named_fixtures() {
    std::vector<Named> v;
    Config a;
    a.tiers = 3;
    a.pods = 2;
    a.sus_per_pod = 2;
    a.hosts_per_su = 2;
    a.rails = 4;
    a.spines_per_pod = 2;
    a.cores = 2;
    a.mgmt_on_spines = 3;
    v.push_back({"topoplace-gen-3tier-mgmt-on-spines.ibnetdiscover.txt", a});
    Config b;
    b.tiers = 2;
    b.sus_per_pod = 1;
    b.hosts_per_su = 2;
    b.rails = 1;
    b.spines_per_pod = 4;
    b.empty_leaves = 7;
    b.loopbacks = 2;
    v.push_back({"topoplace-gen-2tier-empty-leaves-loopbacks.ibnetdiscover.txt", b});
    Config s;
    s.tiers = 2;
    s.sus_per_pod = 3;
    s.hosts_per_su = 3;
    s.rails = 8;
    s.spines_per_pod = 2;
    s.storage_leaf = true;
    s.storage_targets = 2;
    v.push_back({"topoplace-gen-8rail-converged-storage-leaf.ibnetdiscover.txt", s});
    Config h;
    h.tiers = 2;
    h.sus_per_pod = 2;
    h.hosts_per_su = 4;
    h.rails = 8;
    h.spines_per_pod = 2;
    h.renamed = 0.5;
    h.seed = 11;
    v.push_back({"topoplace-gen-8rail-hca-renamed.ibnetdiscover.txt", h});
    return v;
}

TEST(FabricReading, GeneratedFixturesAreCurrent) {
    const bool regen = std::getenv("TOPO_REGEN_FIXTURES") != nullptr;
    for (const auto& n : named_fixtures()) {
        const std::string path = std::string(TOPO_FIXTURES) + "/ibnetdiscover/" + n.file;
        const std::string want = fabric_gen::generate(n.config).text;
        if (regen) {
            std::ofstream(path, std::ios::binary) << want;
            continue;
        }
        auto have = topo::read_text_file(path);
        ASSERT_TRUE(have) << path;
        EXPECT_EQ(*have, want) << path << " differs from the generator (TOPO_REGEN_FIXTURES=1 rewrites it)";
        EXPECT_EQ(mismatch(n.config), "") << n.file;
    }
}

}  // namespace
