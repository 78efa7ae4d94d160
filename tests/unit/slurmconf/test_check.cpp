// SPDX-License-Identifier: Apache-2.0
// slurm-conf: the topology file checker (check.hpp) on the fixtures of
// tests/fixtures/slurm-conf/check/ (ours) and on text; the live slurmctld side is
// tests/lab/t-topocheck.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <topo/slurmconf/check.hpp>

#include "conf_helpers.hpp"

namespace topo::slurmconf {
namespace {

using testing::slurp;

std::string fixture_dir() {
    return std::string(TOPO_FIXTURES) + "/slurm-conf/check/";
}

SlurmConfFacts fixture_slurm_conf() {
    auto f = read_slurm_conf_facts(slurp(fixture_dir() + "slurm.conf"), "slurm.conf");
    EXPECT_TRUE(f.has_value());
    return f.has_value() ? *f : SlurmConfFacts{};
}

std::vector<Finding> check_fixture(const std::string& name, bool with_slurm = true) {
    CheckOptions o;
    o.label = name;
    const std::string text = slurp(fixture_dir() + name);
    if (with_slurm) {
        o.slurm = fixture_slurm_conf();
        // as t-topocheck.sh writes slurm.conf: the plugin the file is for
        o.slurm->topology_plugin = text.find("Block") != std::string::npos ? "topology/block" : "topology/tree";
        o.slurm->topology_plugin_line = 2;
    }
    return check_topology_file(text, o);
}

/// "fatal", "misplaces", "warning" or "clean": the worst finding for one release.
std::string worst(const std::vector<Finding>& fs, int rel) {
    std::string w = "clean";
    for (const auto& f : fs) {
        if (f.release != rel) continue;
        if (f.severity == Severity::Fatal) return "fatal";
        if (f.severity == Severity::Misplaces) w = "misplaces";
        if (f.severity == Severity::Warning && w == "clean") w = "warning";
    }
    return w;
}

bool has_rule(const std::vector<Finding>& fs, int rel, const std::string& rule, int line = -1) {
    return std::any_of(fs.begin(), fs.end(), [&](const Finding& f) {
        return f.release == rel && f.rule == rule && (line < 0 || f.line == line);
    });
}

struct Expect {
    const char* file;
    const char* r2205;
    const char* r2411;
    const char* r2605;
};

// What each fixture does to each release (the live results are in docs/slurm-conf.md).
const Expect kExpect[] = {
    {"tree-good.conf", "clean", "clean", "clean"},
    {"tree-both.conf", "fatal", "fatal", "fatal"},
    {"tree-neither.conf", "fatal", "fatal", "clean"},
    {"tree-long-name.conf", "clean", "fatal", "fatal"},
    {"tree-overflow.conf", "fatal", "fatal", "fatal"},
    {"tree-undefined-nodes.conf", "misplaces", "misplaces", "misplaces"},
    {"tree-disconnected.conf", "misplaces", "misplaces", "misplaces"},
    {"tree-invalid-child.conf", "fatal", "fatal", "fatal"},
    {"tree-loop.conf", "fatal", "fatal", "fatal"},
    {"tree-duplicate.conf", "fatal", "fatal", "fatal"},
    {"tree-unknown-key.conf", "fatal", "fatal", "fatal"},
    {"tree-bad-hostlist.conf", "fatal", "fatal", "fatal"},
    {"tree-two-leaves.conf", "misplaces", "misplaces", "misplaces"},
    {"tree-include-glob.conf", "fatal", "fatal", "fatal"},
    {"empty.conf", "misplaces", "misplaces", "fatal"},
    {"block-good.conf", "fatal", "clean", "clean"},
    {"block-sizes-bad.conf", "fatal", "fatal", "fatal"},
    {"block-small.conf", "fatal", "fatal", "clean"},
    {"block-no-nodes.conf", "fatal", "fatal", "clean"},
    {"block-name-hostlist.conf", "fatal", "fatal", "fatal"},
    {"empty.yaml", "misplaces", "misplaces", "fatal"},
    {"good.yaml", "misplaces", "misplaces", "clean"},
    {"yaml-two-kinds.yaml", "misplaces", "misplaces", "fatal"},
    {"yaml-no-kind.yaml", "misplaces", "misplaces", "fatal"},
    {"yaml-block-sizes.yaml", "misplaces", "misplaces", "fatal"},
};

TEST(TopologyCheck, EachFixtureAsExpectedPerRelease) {
    for (const auto& e : kExpect) {
        auto fs = check_fixture(e.file);
        EXPECT_EQ(worst(fs, kRelease2205), e.r2205) << e.file << " on 22.05";
        EXPECT_EQ(worst(fs, kRelease2411), e.r2411) << e.file << " on 24.11";
        EXPECT_EQ(worst(fs, kRelease2605), e.r2605) << e.file << " on 26.05";
        for (const auto& f : fs) {
            EXPECT_FALSE(f.source.empty()) << f.to_string();
            EXPECT_NE(f.source.find(".c:"), std::string::npos) << f.to_string();
        }
    }
}

TEST(TopologyCheck, FindingsNameTheLine) {
    auto fs = check_fixture("tree-both.conf");
    EXPECT_TRUE(has_rule(fs, kRelease2411, "tree-both-nodes-and-switches", 4));
    fs = check_fixture("tree-overflow.conf");
    ASSERT_TRUE(has_rule(fs, kRelease2605, "tree-name-overflows-hostlist", 4));
    const auto it =
        std::find_if(fs.begin(), fs.end(), [](const Finding& f) { return f.rule == "tree-name-overflows-hostlist"; });
    EXPECT_NE(it->message.find("sw18446744073709551615"), std::string::npos) << it->message;
    EXPECT_EQ(it->to_string().rfind("tree-overflow.conf:4: 22.05: fatal: tree-name-overflows-hostlist: ", 0), 0U)
        << it->to_string();
    fs = check_fixture("tree-disconnected.conf");
    EXPECT_TRUE(has_rule(fs, kRelease2205, "tree-disconnected", 5));
    fs = check_fixture("block-small.conf");
    EXPECT_TRUE(has_rule(fs, kRelease2411, "block-smaller-than-base", 3));
    EXPECT_TRUE(has_rule(fs, kRelease2411, "block-smaller-than-base", 4));
    fs = check_fixture("yaml-block-sizes.yaml");
    EXPECT_TRUE(has_rule(fs, kRelease2605, "block-sizes-invalid", 5));
}

TEST(TopologyCheck, UndefinedNodesNeedSlurmConf) {
    EXPECT_EQ(worst(check_fixture("tree-undefined-nodes.conf", false), kRelease2411), "clean");
    auto fs = check_fixture("tree-undefined-nodes.conf");
    ASSERT_TRUE(has_rule(fs, kRelease2411, "tree-undefined-nodes", 3));
}

TEST(TopologyCheck, SlurmConfNodesOutsideTheTopology) {
    CheckOptions o;
    o.label = "t.conf";
    auto facts = read_slurm_conf_facts("NodeName=n[01-10] CPUs=1\nTopologyPlugin=topology/tree\n", "slurm.conf");
    ASSERT_TRUE(facts.has_value());
    o.slurm = *facts;
    auto fs = check_topology_file(slurp(fixture_dir() + "tree-good.conf"), o);
    ASSERT_TRUE(has_rule(fs, kRelease2205, "switch-nodes-not-covered", 1));
    EXPECT_EQ(fs.front().file, "slurm.conf");
}

TEST(TopologyCheck, PluginFromSlurmConf) {
    CheckOptions o;
    o.label = "t.conf";
    auto facts = read_slurm_conf_facts("NodeName=n[01-08]\nTopologyPlugin=topology/block\n", "slurm.conf");
    ASSERT_TRUE(facts.has_value());
    o.slurm = *facts;
    o.releases = {kRelease2411};
    auto fs = check_topology_file(slurp(fixture_dir() + "tree-good.conf"), o);
    EXPECT_TRUE(has_rule(fs, kRelease2411, "conf-unknown-key", 2));
}

TEST(TopologyCheck, BlockSizesAsSlurmReadsThem) {
    CheckOptions o;
    o.label = "b.conf";
    o.releases = {kRelease2605};
    const std::string blocks = "BlockName=b1 Nodes=n[01-04]\nBlockName=b2 Nodes=n[05-08]\n";
    for (const char* ok : {"4", "4,8", "4,8,16", "4x,8", "4,,8", "4,4"}) {
        auto fs = check_topology_file(blocks + "BlockSizes=" + ok + "\n", o);
        EXPECT_EQ(worst(fs, kRelease2605), "clean") << ok;
    }
    for (const char* bad : {"0", "4,12", "4,6", "8,4", "x", "-4", "1,65536"}) {
        auto fs = check_topology_file(blocks + "BlockSizes=" + bad + "\n", o);
        EXPECT_TRUE(has_rule(fs, kRelease2605, "block-sizes-invalid", 3)) << bad;
    }
}

TEST(TopologyCheck, ConfSyntax) {
    CheckOptions o;
    o.label = "t.conf";
    o.releases = {kRelease2205};
    // comments, continuation lines, case-insensitive keys, quoted values
    auto fs = check_topology_file("# c\nswitchname=leaf1 \\\n  nodes=\"n[01-02]\" # x\n", o);
    EXPECT_TRUE(fs.empty()) << (fs.empty() ? "" : fs.front().to_string());
    fs = check_topology_file("SwitchName=leaf1 Nodes=n1\nthis is not a key\n", o);
    EXPECT_TRUE(has_rule(fs, kRelease2205, "conf-parse-error", 2));
    fs = check_topology_file("SwitchName=leaf1 Nodes=\n", o);
    EXPECT_TRUE(has_rule(fs, kRelease2205, "conf-parse-error", 1));
    fs = check_topology_file("SwitchName=leaf1 Nodes=n1 LinkSpeed=fast\n", o);
    EXPECT_TRUE(has_rule(fs, kRelease2205, "conf-parse-error", 1));
    fs = check_topology_file("SwitchName=leaf1 Nodes=n1\nInclude /etc/slurm/more.conf\n", o);
    EXPECT_TRUE(has_rule(fs, kRelease2205, "conf-include-not-followed", 2));
    EXPECT_EQ(worst(fs, kRelease2205), "warning");
    fs = check_topology_file("SwitchName=leaf1 Nodes=n1\ninclude topo.d/*.conf\n", o);
    EXPECT_TRUE(has_rule(fs, kRelease2205, "conf-include-glob", 2));
    fs = check_topology_file(std::string("SwitchName=a\0b", 14), o);
    EXPECT_EQ(worst(fs, kRelease2205), "fatal");
}

TEST(TopologyCheck, DeepChainIsNotATree) {
    std::string text = "SwitchName=s0 Nodes=n1\n";
    for (int i = 1; i <= 22; ++i)
        text += "SwitchName=s" + std::to_string(i) + " Switches=s" + std::to_string(i - 1) + "\n";
    // listed children first: Slurm resolves them in one pass whatever the depth
    CheckOptions o;
    o.label = "deep.conf";
    o.releases = {kRelease2411};
    EXPECT_EQ(worst(check_topology_file(text, o), kRelease2411), "clean");
    // parents first: one level per pass, past 21 passes it gives up
    std::string rev = "SwitchName=s0 Nodes=n1\n";
    for (int i = 22; i >= 1; --i)
        rev += "SwitchName=s" + std::to_string(i) + " Switches=s" + std::to_string(i - 1) + "\n";
    EXPECT_TRUE(has_rule(check_topology_file(rev, o), kRelease2411, "tree-not-a-tree"));
}

TEST(TopologyCheck, YamlSyntaxErrorNamesTheLine) {
    CheckOptions o;
    o.label = "t.yaml";
    auto fs = check_topology_file("- topology: a\n  tree: [\n", o);
    EXPECT_EQ(worst(fs, kRelease2605), "fatal");
    EXPECT_TRUE(has_rule(fs, kRelease2605, "yaml-syntax"));
}

TEST(TopologyCheck, GeneratedGoldensAreClean) {
    const std::string gold = std::string(TOPO_GOLDEN) + "/";

    struct G {
        const char* file;
        std::vector<int> releases;
    };

    const G goldens[] = {
        {"two-tier.topology.conf", {kRelease2205, kRelease2411, kRelease2605}},
        {"psmn-x5-qdr.topology.conf", {kRelease2205, kRelease2411, kRelease2605}},
        {"gb200-nvl72x4.block.conf", {kRelease2411, kRelease2605}},
        {"gb200-nvl72x4.topology.yaml", {kRelease2605}},
        {"psmn-x5-qdr.topology.yaml", {kRelease2605}},
    };
    for (const auto& g : goldens) {
        CheckOptions o;
        o.label = g.file;
        o.releases = g.releases;
        auto fs = check_topology_file(slurp(gold + g.file), o);
        EXPECT_TRUE(fs.empty()) << g.file << ": " << (fs.empty() ? "" : fs.front().to_string());
    }
}

}  // namespace
}  // namespace topo::slurmconf
