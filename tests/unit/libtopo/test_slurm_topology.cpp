// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/slurm_topology.hpp>
#include <topo/topology.hpp>

#include "../common/fabric_builders.hpp"

namespace {

namespace fs = std::filesystem;
using topo::SlurmTopology;
using topo::SlurmTopologyKind;

const std::string kDir = std::string(TOPO_FIXTURES) + "/slurm-topology/";
const std::string kShared = std::string(TOPO_SHARED_FIXTURES) + "/slurm-topology/";

SlurmTopology load_one(const std::string& path, topo::SlurmParseOptions opts = {}) {
    auto r = topo::load_slurm_topology(path, opts);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    if (!r) {
        return {};
    }
    EXPECT_EQ(r->size(), 1U);
    return r->front();
}

SlurmTopology conf(std::string_view text) {
    auto r = topo::parse_topology_conf(text, "t.conf");
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return r ? *r : SlurmTopology{};
}

topo::Error conf_error(std::string_view text) {
    auto r = topo::parse_topology_conf(text, "t.conf");
    EXPECT_FALSE(r.has_value()) << text;
    return r ? topo::Error{} : r.error();
}

std::size_t count_prefix(const SlurmTopology& t, std::string_view prefix) {
    return static_cast<std::size_t>(
        std::count_if(t.switches.begin(), t.switches.end(), [&](const auto& s) { return s.name.starts_with(prefix); }));
}

std::map<int, int> level_histogram(const SlurmTopology& t) {
    std::map<int, int> h;
    for (int l : t.levels()) {
        ++h[l];
    }
    return h;
}

topo::TopologyPtr import_and_freeze(const SlurmTopology& t) {
    topo::TopologyBuilder b;
    auto st = topo::import_slurm_topology(t, b);
    EXPECT_TRUE(st.has_value()) << (st ? "" : st.error().to_string());
    return topo::testing::freeze(std::move(b));
}

int tier_of(const topo::Topology& t, std::string_view sw) {
    auto id = t.find_switch(sw);
    EXPECT_TRUE(id.has_value()) << sw;
    return id ? t.sw(*id).tier : -99;
}

// ---- every fixture parses ----

TEST(SlurmTopologyFixtures, EveryCopiedFixtureParses) {
    int files = 0;
    for (const auto& e : fs::directory_iterator(kDir)) {
        SCOPED_TRACE(e.path().string());
        // psmn-x5-qdr has a real switch cycle, which Slurm rejects: parse it leniently.
        auto r = topo::load_slurm_topology(e.path().string(), {.reject_cycles = false});
        ASSERT_TRUE(r.has_value()) << r.error().to_string();
        EXPECT_FALSE(r->empty());
        ++files;
    }
    EXPECT_EQ(files, 12);  // 11 copied + topoplace-site-typo-overlap (ours)
}

TEST(SlurmTopologyFixtures, Tree10k4Level) {
    auto t = load_one(kDir + "slurm-testsuite-tree-10k-4level.topology.conf");
    EXPECT_EQ(t.kind, SlurmTopologyKind::Tree);
    EXPECT_EQ(t.switches.size(), 529U);
    EXPECT_EQ(t.leaves().size(), 500U);
    EXPECT_EQ(count_prefix(t, "grp"), 26U);
    EXPECT_EQ(count_prefix(t, "im"), 2U);
    ASSERT_EQ(t.roots().size(), 1U);
    EXPECT_EQ(t.roots()[0]->name, "root");
    auto nodes = t.node_names();
    EXPECT_EQ(nodes.size(), 10'000U);
    EXPECT_EQ(nodes.front(), "peta10000");
    EXPECT_EQ(nodes.back(), "peta19999");
    EXPECT_EQ(level_histogram(t), (std::map<int, int>{{0, 500}, {1, 26}, {2, 2}, {3, 1}}));
    EXPECT_TRUE(t.warnings.empty());
    EXPECT_EQ(t.switches[0].name, "root");
    EXPECT_EQ(t.switches[0].line, 3);
    EXPECT_EQ(t.switches[0].children, (std::vector<std::string>{"im0", "im1"}));
}

TEST(SlurmTopologyFixtures, Tree10kUnbalanced) {
    auto t = load_one(kDir + "slurm-testsuite-tree-10k-unbalanced.topology.conf");
    EXPECT_EQ(t.switches.size(), 528U);
    EXPECT_EQ(t.leaves().size(), 500U);
    EXPECT_EQ(count_prefix(t, "grp"), 26U);
    EXPECT_EQ(count_prefix(t, "im"), 1U);
    EXPECT_EQ(t.node_names().size(), 10'000U);
    // Slurm's level: 1 + the highest child, so root (over im0) is level 3.
    EXPECT_EQ(level_histogram(t), (std::map<int, int>{{0, 500}, {1, 26}, {2, 1}, {3, 1}}));
    EXPECT_EQ(t.switches[0].children.size(), 14U);  // im0 + grp[23-35]
}

TEST(SlurmTopologyFixtures, Tree400ThreeLevelAndNoRoot) {
    auto t = load_one(kDir + "slurm-testsuite-tree-400-3level.topology.conf");
    EXPECT_EQ(t.switches.size(), 23U);
    EXPECT_EQ(t.leaves().size(), 20U);
    EXPECT_EQ(t.node_names().size(), 400U);
    EXPECT_EQ(t.roots().size(), 1U);
    EXPECT_EQ(level_histogram(t), (std::map<int, int>{{0, 20}, {1, 2}, {2, 1}}));

    auto n = load_one(kDir + "slurm-testsuite-tree-400-noroot.topology.conf");
    EXPECT_EQ(n.switches.size(), 22U);
    EXPECT_EQ(n.leaves().size(), 20U);
    EXPECT_EQ(n.node_names().size(), 400U);
    ASSERT_EQ(n.roots().size(), 2U);
    EXPECT_EQ(n.roots()[0]->name, "grp10");
    EXPECT_EQ(n.roots()[1]->name, "grp11");
}

TEST(SlurmTopologyFixtures, Disconnected) {
    auto t = load_one(kDir + "slurm-testsuite-tree-disconnected.topology.conf");
    EXPECT_EQ(t.switches.size(), 7U);
    EXPECT_EQ(t.leaves().size(), 5U);
    EXPECT_EQ(t.node_names().size(), 40U);
    std::vector<std::string> roots;
    for (const auto* s : t.roots()) {
        roots.push_back(s->name);
    }
    EXPECT_EQ(roots, (std::vector<std::string>{"spineA", "spineB", "leafC"}));
}

TEST(SlurmTopologyFixtures, NstdaNoTrailingNewline) {
    auto t = load_one(kDir + "nstda-tara-dgx1.topology.conf");
    EXPECT_EQ(t.switches.size(), 5U);
    EXPECT_EQ(t.leaves().size(), 4U);
    EXPECT_EQ(t.node_names().size(), 10U);
    EXPECT_EQ(t.switches[4].name, "s4");
    EXPECT_EQ(t.switches[4].line, 7);
    EXPECT_EQ(t.switches[4].children, (std::vector<std::string>{"s0", "s1", "s2", "s3"}));
    EXPECT_TRUE(t.warnings.empty());
}

TEST(SlurmTopologyFixtures, TopographTree) {
    auto t = load_one(kDir + "topograph-expected-tree-3level.topology.conf");
    EXPECT_EQ(t.switches.size(), 19U);
    EXPECT_EQ(t.leaves().size(), 12U);
    EXPECT_EQ(t.node_names().size(), 96U);
    EXPECT_EQ(level_histogram(t), (std::map<int, int>{{0, 12}, {1, 6}, {2, 1}}));
    EXPECT_EQ(t.switches[0].children.front(), "switch.2.1");
}

TEST(SlurmTopologyFixtures, PsmnHasARealSwitchCycle) {
    // S-...851e lists S-...86a2 as a child and S-...86a2 lists S-...851e: Slurm's
    // _validate_switches would stop with "Switch configuration is not a tree".
    auto strict = topo::load_slurm_topology(kDir + "psmn-x5-qdr.topology.conf");
    ASSERT_FALSE(strict.has_value());
    EXPECT_EQ(strict.error().code, topo::Errc::Parse);
    EXPECT_EQ(strict.error().line, 11);
    EXPECT_NE(
        strict.error().message.find("switch cycle S-0008f105001086a2 -> S-0008f10500108530 -> S-0008f105001086a2"),
        std::string::npos)
        << strict.error().message;

    auto t = load_one(kDir + "psmn-x5-qdr.topology.conf", {.reject_cycles = false});
    EXPECT_EQ(t.switches.size(), 11U);
    EXPECT_EQ(t.leaves().size(), 6U);
    EXPECT_EQ(t.node_names().size(), 89U);
    ASSERT_FALSE(t.warnings.empty());
    EXPECT_NE(t.warnings[0].find("psmn-x5-qdr.topology.conf:11: switch cycle"), std::string::npos) << t.warnings[0];
}

TEST(SlurmTopologyFixtures, Block32) {
    auto t = load_one(kDir + "slurm-testsuite-block-32.topology.conf");
    EXPECT_EQ(t.kind, SlurmTopologyKind::Block);
    ASSERT_EQ(t.blocks.size(), 8U);
    for (const auto& b : t.blocks) {
        EXPECT_EQ(b.nodes.size(), 4U) << b.name;
    }
    EXPECT_EQ(t.blocks[7].name, "b8");
    EXPECT_EQ(t.blocks[7].line, 8);
    EXPECT_EQ(t.block_sizes, (std::vector<int>{4, 8, 16, 32, 64}));
    EXPECT_EQ(t.node_names().size(), 32U);
    EXPECT_TRUE(t.switches.empty());
}

TEST(SlurmTopologyFixtures, TopographBlock) {
    auto t = load_one(kDir + "topograph-expected-block-nvl.topology.conf");
    ASSERT_EQ(t.blocks.size(), 12U);
    EXPECT_EQ(t.blocks[0].name, "rack11");
    EXPECT_EQ(t.blocks[0].line, 2);
    EXPECT_EQ(t.block_sizes, (std::vector<int>{8, 16, 32}));
    EXPECT_EQ(t.node_names().size(), 96U);
}

TEST(SlurmTopologyFixtures, ManpageYaml) {
    auto r = topo::load_slurm_topology(kDir + "slurm-manpage-example.topology.yaml");
    ASSERT_TRUE(r.has_value()) << r.error().to_string();
    ASSERT_EQ(r->size(), 6U);
    const auto& all = *r;
    EXPECT_EQ(all[0].name, "topo1");
    EXPECT_TRUE(all[0].cluster_default);
    EXPECT_EQ(all[0].kind, SlurmTopologyKind::Tree);
    EXPECT_EQ(all[0].switches.size(), 3U);
    EXPECT_EQ(all[0].switches[0].children, (std::vector<std::string>{"s1", "s2"}));
    EXPECT_EQ(all[0].switches[0].line, 6);
    EXPECT_EQ(all[0].node_names().size(), 4U);
    EXPECT_EQ(all[1].kind, SlurmTopologyKind::Block);
    EXPECT_EQ(all[1].block_sizes, (std::vector<int>{4, 16}));
    EXPECT_EQ(all[1].blocks.size(), 4U);
    EXPECT_EQ(all[1].node_names().size(), 16U);
    EXPECT_EQ(all[2].kind, SlurmTopologyKind::Flat);
    EXPECT_EQ(all[3].kind, SlurmTopologyKind::Flat);
    EXPECT_EQ(all[4].kind, SlurmTopologyKind::Ring);
    EXPECT_EQ(all[4].blocks.size(), 2U);
    EXPECT_EQ(all[5].kind, SlurmTopologyKind::Torus3d);
    ASSERT_EQ(all[5].blocks.size(), 1U);
    EXPECT_EQ(all[5].blocks[0].nodes.size(), 32U);
    EXPECT_EQ(topo::default_slurm_topology(all), &all[0]);
    for (const auto& t : all) {
        EXPECT_TRUE(t.warnings.empty()) << t.name;
    }
}

// ---- our own site-style file: the defects of the shared-only site files below, so the
// checks run without ../shared (the copies are not allowed: no license stated) ----

TEST(SlurmTopologyConf, OwnSiteFileTypoOverlapTabsBanner) {
    const std::string path = kDir + "topoplace-site-typo-overlap.topology.conf";
    auto t = load_one(path);
    EXPECT_EQ(t.switches.size(), 6U);
    EXPECT_EQ(t.leaves().size(), 5U);
    ASSERT_EQ(t.roots().size(), 1U);
    EXPECT_EQ(t.roots()[0]->name, "top");
    EXPECT_EQ(t.roots()[0]->line, 11);    // after the 4-line banner and a blank line; tab-separated
    EXPECT_EQ(t.switches[1].name, "s1");  // double space between the keys
    EXPECT_EQ(t.switches[1].line, 7);
    EXPECT_EQ(t.node_names().size(), 79U);  // 80 listed, gpu-n051 twice
    ASSERT_EQ(t.warnings.size(), 2U);
    EXPECT_EQ(t.warnings[0], path + ":10: node gpu-n051 under two leaf switches: s2 (line 8) and s4");
    EXPECT_EQ(t.warnings[1],
              path + ":6: node names n[019-020] do not start with 'gpu-n' like the other 77 nodes (typo?)");
    auto topo = import_and_freeze(t);
    ASSERT_TRUE(topo);
    EXPECT_EQ(topo->hosts().size(), 79U);
    auto h = topo->find_host("gpu-n051");
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(topo->host(*h).nics.size(), 2U);
    // one node under two leaves among 78 single-leaf nodes is an exception, not a rail layout
    EXPECT_EQ(topo->rails(), 1);
}

// ---- fixtures kept out of the repository (license), in the shared tree only ----

TEST(SlurmTopologyShared, CirceTypoAndOverlap) {
    const std::string path = kShared + "circe-dgx2h-superpod.topology.conf";
    if (!fs::exists(path)) {
        GTEST_SKIP() << "shared fixture not available: " << path;
    }
    auto t = load_one(path);
    EXPECT_EQ(t.switches.size(), 5U);
    EXPECT_EQ(t.leaves().size(), 5U);
    EXPECT_EQ(t.node_names().size(), 79U);  // 80 listed, circe-n051 twice
    ASSERT_EQ(t.warnings.size(), 2U);
    // Overlap: Slurm's "Multiple leaf switches contain nodes".
    EXPECT_EQ(t.warnings[0], path + ":5: node circe-n051 under two leaf switches: s2 (line 3) and s4");
    // The typo: n[019-020] lacks the circe- prefix.
    EXPECT_EQ(t.warnings[1],
              path + ":1: node names n[019-020] do not start with 'circe-n' like the other 77 nodes (typo?)");
}

TEST(SlurmTopologyShared, UnswTabsAndDoubleSpaces) {
    const std::string path = kShared + "unsw-abacus.topology.conf";
    if (!fs::exists(path)) {
        GTEST_SKIP() << "shared fixture not available: " << path;
    }
    auto t = load_one(path);
    EXPECT_EQ(t.switches.size(), 5U);
    EXPECT_EQ(t.leaves().size(), 4U);
    EXPECT_EQ(t.node_names().size(), 13U);
    EXPECT_EQ(t.switches[4].name, "abacusc-net");
    EXPECT_EQ(t.switches[4].line, 8);
    EXPECT_EQ(t.switches[4].children.size(), 4U);
    EXPECT_TRUE(t.warnings.empty());
}

TEST(SlurmTopologyShared, PuppetFlat) {
    const std::string path = kShared + "puppet-managed-flat.topology.conf";
    if (!fs::exists(path)) {
        GTEST_SKIP() << "shared fixture not available: " << path;
    }
    auto t = load_one(path);
    EXPECT_EQ(t.switches.size(), 4U);
    EXPECT_EQ(t.leaves().size(), 4U);
    EXPECT_EQ(t.roots().size(), 4U);
    EXPECT_EQ(t.node_names().size(), 39U);
    EXPECT_EQ(t.switches[0].line, 8);
}

// ---- syntax ----

TEST(SlurmTopologyConf, CaseInsensitiveKeysCommentsAndBlanks) {
    auto t = conf(
        "# c\n\n  switchname=s0\tNODES=n[1-2]   linkspeed=100 # trailing\n"
        "SWITCHNAME = top  Switches = s0\r\n");
    ASSERT_EQ(t.switches.size(), 2U);
    EXPECT_EQ(t.switches[0].nodes, (std::vector<std::string>{"n1", "n2"}));
    EXPECT_EQ(t.switches[0].link_speed, "100");
    EXPECT_EQ(t.switches[0].line, 3);
    EXPECT_EQ(t.switches[1].name, "top");
    EXPECT_EQ(t.switches[1].line, 4);
}

TEST(SlurmTopologyConf, ContinuationLine) {
    auto t = conf("SwitchName=s0 \\\n  Nodes=n1\nSwitchName=s1 Nodes=n2\n");
    ASSERT_EQ(t.switches.size(), 2U);
    EXPECT_EQ(t.switches[0].nodes, (std::vector<std::string>{"n1"}));
    EXPECT_EQ(t.switches[1].line, 3);
}

// ---- negative tests, with exact lines ----

TEST(SlurmTopologyErrors, LineWithoutSwitchName) {
    auto e = conf_error("SwitchName=s0 Nodes=n1\n# ok\nNodes=n[2-3]\n");
    EXPECT_EQ(e.code, topo::Errc::Parse);
    EXPECT_EQ(e.line, 3);
    EXPECT_EQ(e.to_string(), "t.conf:3: line starts with 'Nodes', expected SwitchName, BlockName or BlockSizes");
}

TEST(SlurmTopologyErrors, UnknownKey) {
    auto e = conf_error("SwitchName=s0 Nodes=n1\nSwitchName=s1 Nodes=n2 Speed=10\n");
    EXPECT_EQ(e.line, 2);
    EXPECT_NE(e.message.find("unknown key 'Speed'"), std::string::npos) << e.message;
}

TEST(SlurmTopologyErrors, NotKeyValue) {
    auto e = conf_error("SwitchName=s0 Nodes=n1\n\nhello world\n");
    EXPECT_EQ(e.line, 3);
}

TEST(SlurmTopologyErrors, BadHostlist) {
    auto e = conf_error("SwitchName=s0 Nodes=n[1-2\n");
    EXPECT_EQ(e.line, 1);
    EXPECT_NE(e.message.find("unbalanced"), std::string::npos) << e.message;
    auto e2 = conf_error("SwitchName=s0 Nodes=n1\nSwitchName=s1 Nodes=n[9-3]\n");
    EXPECT_EQ(e2.line, 2);
    EXPECT_NE(e2.message.find("reversed"), std::string::npos) << e2.message;
}

TEST(SlurmTopologyErrors, UnknownChildSwitch) {
    auto e = conf_error("SwitchName=s0 Nodes=n1\nSwitchName=top Switches=s[0-1]\n");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.message, "switch 'top' lists undefined child switch 's1'");
}

TEST(SlurmTopologyErrors, Cycle) {
    auto e = conf_error(
        "SwitchName=leaf Nodes=n1\n"
        "SwitchName=a Switches=b,leaf\n"
        "SwitchName=b Switches=c\n"
        "SwitchName=c Switches=a\n");
    EXPECT_EQ(e.line, 4);
    EXPECT_EQ(e.message, "switch cycle a -> b -> c -> a (Slurm: not a tree)");
    auto self = conf_error("SwitchName=a Switches=a\n");
    EXPECT_EQ(self.line, 1);
    EXPECT_EQ(self.message, "switch cycle a -> a (Slurm: not a tree)");
}

TEST(SlurmTopologyErrors, BothOrNeitherAndDuplicates) {
    auto both = conf_error("SwitchName=s0 Nodes=n1\nSwitchName=s1 Nodes=n2 Switches=s0\n");
    EXPECT_EQ(both.line, 2);
    auto neither = conf_error("SwitchName=s0 Nodes=n1\nSwitchName=s1 LinkSpeed=5\n");
    EXPECT_EQ(neither.line, 2);
    auto dup = conf_error("SwitchName=s0 Nodes=n1\nSwitchName=s0 Nodes=n2\n");
    EXPECT_EQ(dup.line, 2);
    EXPECT_NE(dup.message.find("first defined at line 1"), std::string::npos);
    auto dupkey = conf_error("SwitchName=s0 Nodes=n1 nodes=n2\n");
    EXPECT_EQ(dupkey.line, 1);
    auto mixed = conf_error("SwitchName=s0 Nodes=n1\nBlockName=b1 Nodes=n2\n");
    EXPECT_EQ(mixed.line, 2);
}

TEST(SlurmTopologyErrors, EmptyAndBinary) {
    auto empty = conf_error("");
    EXPECT_EQ(empty.code, topo::Errc::Parse);
    EXPECT_EQ(empty.line, 1);
    EXPECT_EQ(empty.to_string(), "t.conf:1: empty file, not a topology.conf");
    auto comments_only = conf_error("# only\n\n# comments\n");
    EXPECT_EQ(comments_only.to_string(), "t.conf: no SwitchName or BlockName lines");
    auto comments = conf_error("# only\n\n# comments\n");
    EXPECT_EQ(comments.line, 0);
    auto bin =
        conf_error(std::string_view("\x7f"
                                    "ELF\x02\x01\x01\0\0\0\0",
                                    12));
    EXPECT_NE(bin.message.find("binary"), std::string::npos);
}

TEST(SlurmTopologyErrors, BlockSizes) {
    auto bad = conf_error("BlockName=b1 Nodes=n[1-4]\nBlockSizes=4,12\n");
    EXPECT_EQ(bad.line, 2);
    EXPECT_NE(bad.message.find("12 is not 4 times a power of two"), std::string::npos) << bad.message;
    auto nan = conf_error("BlockName=b1 Nodes=n[1-4]\nBlockSizes=4,x\n");
    EXPECT_EQ(nan.line, 2);
    auto alone = conf_error("BlockSizes=4\n");
    EXPECT_EQ(alone.line, 1);
}

TEST(SlurmTopologyErrors, MissingFile) {
    auto r = topo::load_slurm_topology(kDir + "no-such-file.conf");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, topo::Errc::Io);
}

TEST(SlurmTopologyYaml, ErrorsWithLines) {
    auto unknown = topo::parse_topology_yaml(
        "- topology: a\n  tree:\n    switches:\n"
        "      - switch: s1\n        nodez: n1\n",
        "t.yaml");
    ASSERT_FALSE(unknown.has_value());
    EXPECT_EQ(unknown.error().line, 5);
    EXPECT_NE(unknown.error().message.find("unknown key 'nodez'"), std::string::npos);

    auto child = topo::parse_topology_yaml(
        "- topology: a\n  tree:\n    switches:\n"
        "      - switch: top\n        children: s1\n",
        "t.yaml");
    ASSERT_FALSE(child.has_value());
    EXPECT_EQ(child.error().line, 4);

    auto syntax = topo::parse_topology_yaml("- topology: a\n  tree: [\n", "t.yaml");
    ASSERT_FALSE(syntax.has_value());
    EXPECT_EQ(syntax.error().code, topo::Errc::Parse);
    EXPECT_GT(syntax.error().line, 0);

    auto empty = topo::parse_topology_yaml("", "t.yaml");
    ASSERT_FALSE(empty.has_value());
    auto notlist = topo::parse_topology_yaml("topology: a\n", "t.yaml");
    ASSERT_FALSE(notlist.has_value());
    EXPECT_EQ(notlist.error().line, 1);
    auto two = topo::parse_topology_yaml("- topology: a\n  flat: true\n  tree: {switches: []}\n", "t.yaml");
    ASSERT_FALSE(two.has_value());
    auto sizes = topo::parse_topology_yaml(
        "- topology: a\n  block:\n    block_sizes: [4, x]\n    blocks: [{block: b, nodes: \"n[1-4]\"}]\n", "t.yaml");
    ASSERT_FALSE(sizes.has_value());
    EXPECT_EQ(sizes.error().line, 3);
    auto noname = topo::parse_topology_yaml("- flat: true\n", "t.yaml");
    ASSERT_FALSE(noname.has_value());
    EXPECT_EQ(noname.error().line, 1);
}

// ---- import into the builder ----

TEST(SlurmTopologyImport, Tree10kTiers) {
    auto t = load_one(kDir + "slurm-testsuite-tree-10k-4level.topology.conf");
    auto topo = import_and_freeze(t);
    ASSERT_TRUE(topo);
    EXPECT_EQ(topo->hosts().size(), 10'000U);
    EXPECT_EQ(topo->switches().size(), 529U);
    EXPECT_EQ(topo->nics().size(), 10'000U);
    EXPECT_EQ(topo->tiers(), 4);
    EXPECT_EQ(tier_of(*topo, "leaf100"), 0);
    EXPECT_EQ(tier_of(*topo, "grp10"), 1);
    EXPECT_EQ(tier_of(*topo, "im0"), 2);
    EXPECT_EQ(tier_of(*topo, "root"), 3);
    auto h = topo->find_host("peta10000");
    ASSERT_TRUE(h.has_value());
    const auto& host = topo->host(*h);
    EXPECT_EQ(host.role, topo::HostRole::Compute);
    EXPECT_EQ(host.provenance, topo::Provenance::Declared);
    ASSERT_EQ(host.nics.size(), 1U);
    const auto& nic = topo->nic(host.nics[0]);
    EXPECT_EQ(nic.guid, "slurm:peta10000:leaf100");
    EXPECT_EQ(nic.name, "");
    EXPECT_EQ(topo->sw(nic.leaf).name, "leaf100");
    auto other = topo->find_host("peta19999");
    ASSERT_TRUE(other.has_value());
    EXPECT_EQ(topo->lowest_common_tier(*h, *other), 3);
    const auto sw = topo->find_switch("root");
    ASSERT_TRUE(sw.has_value());
    EXPECT_EQ(topo->sw(*sw).provenance, topo::Provenance::Declared);
}

TEST(SlurmTopologyImport, SmallTrees) {
    struct Case {
        const char* file;
        int tiers;
        std::size_t hosts;
        std::size_t switches;
    };

    for (const Case& c : {Case{"slurm-testsuite-tree-400-3level.topology.conf", 3, 400, 23},
                          Case{"slurm-testsuite-tree-400-noroot.topology.conf", 2, 400, 22},
                          Case{"slurm-testsuite-tree-disconnected.topology.conf", 2, 40, 7},
                          Case{"topograph-expected-tree-3level.topology.conf", 3, 96, 19},
                          Case{"nstda-tara-dgx1.topology.conf", 2, 10, 5}}) {
        SCOPED_TRACE(c.file);
        auto topo = import_and_freeze(load_one(kDir + c.file));
        ASSERT_TRUE(topo);
        EXPECT_EQ(topo->tiers(), c.tiers);
        EXPECT_EQ(topo->hosts().size(), c.hosts);
        EXPECT_EQ(topo->switches().size(), c.switches);
    }
    auto topo = import_and_freeze(load_one(kDir + "topograph-expected-tree-3level.topology.conf"));
    ASSERT_TRUE(topo);
    EXPECT_EQ(tier_of(*topo, "switch.3.1"), 2);
    EXPECT_EQ(tier_of(*topo, "switch.2.6"), 1);
    EXPECT_EQ(tier_of(*topo, "switch.1.12"), 0);
}

TEST(SlurmTopologyImport, CirceOverlapGivesTwoNics) {
    const std::string path = kShared + "circe-dgx2h-superpod.topology.conf";
    if (!fs::exists(path)) {
        GTEST_SKIP() << "shared fixture not available: " << path;
    }
    auto topo = import_and_freeze(load_one(path));
    ASSERT_TRUE(topo);
    EXPECT_EQ(topo->hosts().size(), 79U);
    auto h = topo->find_host("circe-n051");
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(topo->host(*h).nics.size(), 2U);
    // The parse warnings reach the topology.
    auto w = topo->warnings();
    EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const std::string& s) {
        return s.find("circe-n051 under two leaf switches") != std::string::npos;
    }));
}

TEST(SlurmTopologyImport, BlocksBecomeNvlDomains) {
    auto t = load_one(kDir + "slurm-testsuite-block-32.topology.conf");
    auto topo = import_and_freeze(t);
    ASSERT_TRUE(topo);
    EXPECT_EQ(topo->hosts().size(), 32U);
    // Each block is also a declared leaf, under one declared switch standing for the
    // network between blocks (issue 15 point 9: without them nothing could be placed).
    EXPECT_EQ(topo->switches().size(), 8U + 1U);
    EXPECT_EQ(topo->groups().size(), 8U);
    EXPECT_EQ(topo->tiers(), 2);
    ASSERT_EQ(topo->nvl_domains().size(), 8U);
    for (const auto& d : topo->nvl_domains()) {
        EXPECT_TRUE(d.multi_node) << d.name;
        EXPECT_EQ(d.hosts.size(), 4U) << d.name;
    }
}

TEST(SlurmTopologyImport, YamlTreeAndUnsupportedKinds) {
    auto r = topo::load_slurm_topology(kDir + "slurm-manpage-example.topology.yaml");
    ASSERT_TRUE(r.has_value());
    auto topo = import_and_freeze(*topo::default_slurm_topology(*r));
    ASSERT_TRUE(topo);
    EXPECT_EQ(topo->hosts().size(), 4U);
    EXPECT_EQ(topo->tiers(), 2);
    EXPECT_EQ(tier_of(*topo, "sw_root"), 1);
    topo::TopologyBuilder b;
    auto ring = topo::import_slurm_topology((*r)[4], b);
    ASSERT_FALSE(ring.has_value());
    EXPECT_EQ(ring.error().code, topo::Errc::Unsupported);
    EXPECT_TRUE(topo::import_slurm_topology((*r)[2], b).has_value());  // flat: nothing to add
}

}  // namespace

namespace {

// Issue 17 finding 1: a 30-byte topology.conf used to name a million hosts (2.6 GB, 32 s).
TEST(SlurmTopologyBounds, NodesPastSlurmsLimitAreRefusedWithLine) {
    auto e = conf_error("SwitchName=s0 Nodes=n[0-999999]\n");
    EXPECT_EQ(e.to_string().rfind("t.conf:1: ", 0), 0U) << e.to_string();
    EXPECT_NE(e.message.find("more than 65536 names in this file"), std::string::npos) << e.message;
    // The bound is per file: two lines of 40000 each exceed it on line 3.
    auto e2 = conf_error(
        "SwitchName=s0 Nodes=a[0-39999]\nSwitchName=s1 Nodes=b[0-39999]\n"
        "SwitchName=s2 Nodes=c[0-39999]\n");
    EXPECT_EQ(e2.to_string().rfind("t.conf:2: ", 0), 0U) << e2.to_string();
    auto e3 = conf_error("BlockName=b0 Nodes=n[0-70000]\n");
    EXPECT_EQ(e3.to_string().rfind("t.conf:1: ", 0), 0U) << e3.to_string();
}

TEST(SlurmTopologyBounds, YamlBudgetCoversAliases) {
    // An anchor repeated by aliases still counts every expansion.
    std::string y = "- topology: t\n  cluster_default: true\n  block:\n    block_sizes: [1]\n    blocks:\n";
    y += "      - block: b0\n        nodes: &all n[0-65535]\n";
    for (int i = 1; i < 6; ++i) {
        y += "      - block: b" + std::to_string(i) + "\n        nodes: *all\n";
    }
    auto r = topo::parse_topology_yaml(y, "t.yaml");
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("names in this file"), std::string::npos) << r.error().to_string();
}

}  // namespace
