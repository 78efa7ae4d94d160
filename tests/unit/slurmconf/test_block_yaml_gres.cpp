// SPDX-License-Identifier: Apache-2.0
// slurm-conf: topology/block, topology.yaml, node Weight lines, gres.conf, warnings.
// Golden files: tests/golden/slurm-conf/; re-bless with TOPO_UPDATE_GOLDEN=1.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/hostlist.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/nvidia_smi_topo.hpp>
#include <topo/slurm_topology.hpp>
#include <topo/slurmconf/block.hpp>
#include <topo/slurmconf/gres.hpp>
#include <topo/slurmconf/nodes.hpp>
#include <topo/slurmconf/tree.hpp>
#include <topo/slurmconf/yaml.hpp>

#include "../common/fabric_builders.hpp"
#include "conf_helpers.hpp"

namespace topo::slurmconf {
namespace {

// ---------------------------------------------------------------- helpers

using testing::config_lines;
using testing::expect_golden;
using testing::Fab;
using testing::freeze;
using testing::import_ib;

std::string fixture(const std::string& rel) {
    return std::string(TOPO_FIXTURES) + "/" + rel;
}

TopologyPtr from_spec_file(const std::string& rel) {
    TopologyBuilder b;
    auto st = load_cluster_spec(fixture(rel), b);
    EXPECT_TRUE(st) << (st ? "" : st.error().to_string());
    return st ? freeze(std::move(b)) : nullptr;
}

TopologyPtr from_spec_text(const std::string& yaml) {
    TopologyBuilder b;
    auto st = apply_cluster_spec_text(yaml, "test-spec.yaml", b);
    EXPECT_TRUE(st) << (st ? "" : st.error().to_string());
    return st ? freeze(std::move(b)) : nullptr;
}

/// 4 leaves x 4 hosts under one spine.
TopologyPtr two_tier(int gpus = 0) {
    Fab f;
    f.sw("spine1");
    for (int l = 1; l <= 4; ++l) {
        const std::string leaf = "leaf" + std::to_string(l);
        f.sw(leaf).link(leaf, "spine1");
        f.hosts("n", (l - 1) * 4 + 1, l * 4, {leaf}, gpus);
    }
    return f.freeze();
}

SlurmTopology parse_conf(const std::string& text) {
    auto p = parse_topology_conf(text, "generated");
    EXPECT_TRUE(p.has_value()) << (p ? "" : p.error().to_string()) << "\n" << text;
    return p ? *p : SlurmTopology{};
}

/// NVL72-like racks as a cluster spec: racks named rack<NN>, 18 hosts each.
std::string racks_spec(const std::vector<std::pair<int, int>>& racks /* number, hosts */, int usable) {
    std::ostringstream s;
    int total = 0;
    for (auto [n, h] : racks) total += h;
    char names[64];
    std::snprintf(names, sizeof names, "gb[%03d-%03d]", 1, total);
    s << "version: 1\nnodes:\n  - names: " << names << "\n    gpus: {count: 4, model: NVIDIA GB200}\n"
      << "nvl_domains:\n";
    int next = 1;
    for (auto [n, h] : racks) {
        char hl[64];
        std::snprintf(hl, sizeof hl, "gb[%03d-%03d]", next, next + h - 1);
        char nm[16];
        std::snprintf(nm, sizeof nm, "rack%02d", n);
        s << "  - {name: " << nm << ", nodes: \"" << hl << "\", usable: " << std::min(usable, h) << "}\n";
        next += h;
    }
    return s.str();
}

// ---------------------------------------------------------------- block

TEST(SlurmBlock, Nvl72RacksSixteenOfEighteen) {
    auto t = from_spec_file("specs/gb200-nvl72x4.yaml");
    ASSERT_TRUE(t);
    BlockOptions o;
    o.source_label = "gb200-nvl72x4.yaml";
    auto c = generate_block_conf(*t, o);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->source, BlockSource::NvlDomains);
    // base block size = the 16 usable trays, not the 18 present
    EXPECT_EQ(c->block_sizes, (std::vector<int>{16, 32, 64}));
    EXPECT_EQ(config_lines(c->text), (std::vector<std::string>{
                                         "BlockSizes=16,32,64",
                                         "BlockName=rack01 Nodes=gb[001-018]",
                                         "BlockName=rack02 Nodes=gb[019-036]",
                                         "BlockName=rack03 Nodes=gb[037-054]",
                                         "BlockName=rack04 Nodes=gb[055-072]",
                                     }));
    EXPECT_NE(c->text.find("Minimum Slurm version: 24.05"), std::string::npos);
    EXPECT_TRUE(c->fake_nodes.empty());
    EXPECT_TRUE(c->warnings.empty()) << c->warnings.front();
    auto p = parse_conf(c->text);
    EXPECT_EQ(p.kind, SlurmTopologyKind::Block);
    EXPECT_EQ(p.blocks.size(), 4U);
    EXPECT_EQ(p.block_sizes, c->block_sizes);
    // login nodes (service) are not in any block and not warned about
    for (const auto& b : p.blocks) {
        for (const auto& n : b.nodes) EXPECT_EQ(n.rfind("gb", 0), 0U) << n;
    }
    expect_golden("gb200-nvl72x4.block.conf", c->text);
}

TEST(SlurmBlock, BlockSizesOverrideAndChecks) {
    auto t = from_spec_file("specs/gb200-nvl72x4.yaml");
    ASSERT_TRUE(t);
    auto sizes = parse_block_sizes("18,36,72");
    ASSERT_TRUE(sizes) << sizes.error().to_string();
    BlockOptions o;
    o.block_sizes = *sizes;
    auto c = generate_block_conf(*t, o);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_FALSE(c->sizes_inferred);
    EXPECT_EQ(config_lines(c->text)[0], "BlockSizes=18,36,72");
    EXPECT_NE(c->text.find("base block size 18 (given)"), std::string::npos);

    for (const char* bad : {"16,24", "32,16", "0", "16,,32", "x", "", "1,65536,131072", "16,-32"}) {
        auto r = parse_block_sizes(bad);
        EXPECT_FALSE(r) << bad;
        if (!r) {
            EXPECT_EQ(r.error().code, Errc::InvalidArgument);
        }
    }
    EXPECT_TRUE(parse_block_sizes("1,32768"));  // 2^15 is Slurm's last level
    EXPECT_FALSE(parse_block_sizes("1,65536"));
    o.block_sizes = {16, 48};
    EXPECT_FALSE(generate_block_conf(*t, o));
}

TEST(SlurmBlock, InferredSizesFollowTheBlockCount) {
    // Slurm enables levels up to the first 2^k >= number of base blocks.
    auto t = two_tier();
    ASSERT_TRUE(t);
    auto c = generate_block_conf(*t);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->source, BlockSource::LeafGroups);
    EXPECT_EQ(c->block_sizes, (std::vector<int>{4, 8, 16}));
    EXPECT_EQ(config_lines(c->text)[1], "BlockName=g001 Nodes=n[001-004]");

    auto racks3 = from_spec_text(racks_spec({{1, 18}, {2, 18}, {3, 18}}, 18));
    ASSERT_TRUE(racks3);
    auto c3 = generate_block_conf(*racks3);
    ASSERT_TRUE(c3) << c3.error().to_string();
    EXPECT_EQ(c3->block_sizes, (std::vector<int>{18, 36, 72}));
    auto racks1 = from_spec_text(racks_spec({{1, 18}}, 16));
    ASSERT_TRUE(racks1);
    auto c1 = generate_block_conf(*racks1);
    ASSERT_TRUE(c1) << c1.error().to_string();
    EXPECT_EQ(c1->block_sizes, (std::vector<int>{16}));
}

TEST(SlurmBlock, MissingRackKeepsItsSlotWithAPlaceholder) {
    // rack03 is absent: rack04 must stay the 4th base block, so that the level-1
    // aggregate blocks are {rack01,rack02} and {rack03,rack04} as cabled.
    auto t = from_spec_text(racks_spec({{1, 18}, {2, 18}, {4, 18}}, 16));
    ASSERT_TRUE(t);
    auto c = generate_block_conf(*t);
    ASSERT_TRUE(c) << c.error().to_string();
    ASSERT_EQ(c->blocks.size(), 4U);
    EXPECT_TRUE(c->blocks[2].placeholder);
    EXPECT_EQ(c->blocks[2].name, "rack03");
    EXPECT_EQ(c->blocks[3].name, "rack04");
    EXPECT_EQ(c->blocks[2].fake_nodes.size(), 16U);
    EXPECT_EQ(c->fake_nodes.size(), 16U);
    EXPECT_EQ(c->block_sizes, (std::vector<int>{16, 32, 64}));
    EXPECT_NE(c->text.find("BlockName=rack03 Nodes=fake-rack03-[01-16]"), std::string::npos) << c->text;
    EXPECT_NE(c->text.find("#   NodeName=fake-rack03-[01-16] State=FUTURE"), std::string::npos) << c->text;
    ASSERT_FALSE(c->warnings.empty());
    EXPECT_NE(c->warnings.back().find("rack03"), std::string::npos) << c->warnings.back();
    auto p = parse_conf(c->text);
    ASSERT_EQ(p.blocks.size(), 4U);
    EXPECT_EQ(p.blocks[3].name, "rack04");
    // every block holds at least the base size (Slurm is fatal otherwise)
    for (const auto& b : p.blocks) EXPECT_GE(static_cast<int>(b.nodes.size()), p.block_sizes[0]) << b.name;
    expect_golden("nvl-missing-rack03.block.conf", c->text);

    BlockOptions no;
    no.placeholders = false;
    auto c2 = generate_block_conf(*t, no);
    ASSERT_TRUE(c2);
    EXPECT_EQ(c2->blocks.size(), 3U);
    EXPECT_EQ(c2->blocks[2].name, "rack04");
}

TEST(SlurmBlock, ShortRackIsPaddedToTheBaseSize) {
    auto t = from_spec_text(racks_spec({{1, 18}, {2, 18}, {3, 12}}, 16));
    ASSERT_TRUE(t);
    auto c = generate_block_conf(*t);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->block_sizes.front(), 16);
    ASSERT_EQ(c->blocks.size(), 3U);
    EXPECT_EQ(c->blocks[2].nodes.size(), 12U);
    EXPECT_EQ(c->blocks[2].fake_nodes.size(), 4U);
    EXPECT_EQ(c->blocks[2].fake_nodes.front(), "fake-rack03-13");
    bool warned = false;
    for (const auto& w : c->warnings) warned = warned || w.find("block rack03 has 12 host(s)") != std::string::npos;
    EXPECT_TRUE(warned) << c->text;
    auto p = parse_conf(c->text);
    for (const auto& b : p.blocks) EXPECT_GE(static_cast<int>(b.nodes.size()), 16) << b.name;

    BlockOptions o;
    o.fake_prefix = "gb";  // "gb" + "rack03-13" is not a real host: allowed
    EXPECT_TRUE(generate_block_conf(*t, o));
}

TEST(SlurmBlock, HostsOutsideEveryBlockAreNamed) {
    auto t = from_spec_text(
        "nodes:\n  - names: gb[001-040]\n"
        "nvl_domains:\n  - {name: rack01, nodes: \"gb[001-018]\"}\n  - {name: rack02, nodes: \"gb[019-036]\"}\n");
    ASSERT_TRUE(t);
    auto c = generate_block_conf(*t);
    ASSERT_TRUE(c) << c.error().to_string();
    ASSERT_FALSE(c->warnings.empty());
    EXPECT_NE(c->warnings.back().find("gb[037-040]"), std::string::npos) << c->warnings.back();
}

TEST(SlurmBlock, NothingToBlockIsAnError) {
    auto t = from_spec_text("nodes:\n  - names: n[1-4]\n");
    ASSERT_TRUE(t);
    auto c = generate_block_conf(*t);
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().code, Errc::InvalidArgument);
    BlockOptions o;
    o.source = BlockSource::NvlDomains;
    auto t2 = two_tier();
    auto c2 = generate_block_conf(*t2, o);
    ASSERT_FALSE(c2);
    EXPECT_NE(c2.error().message.find("NVLink domain"), std::string::npos);
}

TEST(SlurmBlockReal, PsmnAndSeleneLeafGroups) {
    for (const auto& [file, map, golden] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"psmn-x5-qdr.ibnetdiscover.txt", "psmn-x5-qdr.guid-hostname.map", "psmn-x5-qdr.block.conf"},
             {"selene-compute.ibnetdiscover.txt.gz", "", "selene-compute.block.conf"}}) {
        auto t = import_ib(file, map);
        ASSERT_TRUE(t);
        BlockOptions o;
        o.source_label = file;
        auto c = generate_block_conf(*t, o);
        ASSERT_TRUE(c) << c.error().to_string();
        auto tree = generate_tree_conf(*t);
        ASSERT_TRUE(tree);
        // one base block per Slurm leaf of the tree, same hosts
        std::set<std::set<std::string>> leaves;
        std::set<std::set<std::string>> blocks;
        for (const auto& s : tree->switches) {
            if (s.level == 0) leaves.insert({s.nodes.begin(), s.nodes.end()});
        }
        for (const auto& b : c->blocks) blocks.insert({b.nodes.begin(), b.nodes.end()});
        EXPECT_EQ(blocks, leaves) << file;
        auto p = parse_conf(c->text);
        for (const auto& b : p.blocks) EXPECT_GE(static_cast<int>(b.nodes.size()), p.block_sizes[0]) << b.name;
        expect_golden(golden, c->text);
    }
}

// ---------------------------------------------------------------- yaml

TEST(SlurmYaml, TreeAndBlockRoundTripThroughTheSlurmYamlReader) {
    auto t = from_spec_file("specs/gb200-nvl72x4.yaml");
    ASSERT_TRUE(t);
    YamlOptions o;
    o.tree.source_label = "gb200-nvl72x4.yaml";
    auto y = generate_topology_yaml(*t, o);
    ASSERT_TRUE(y) << y.error().to_string();
    EXPECT_EQ(y->topologies, (std::vector<std::string>{"tree", "block"}));
    EXPECT_EQ(y->cluster_default, "block");
    EXPECT_NE(y->text.find("Minimum Slurm version: 25.05"), std::string::npos);
    auto p = parse_topology_yaml(y->text, "generated.yaml");
    ASSERT_TRUE(p) << p.error().to_string() << "\n" << y->text;
    ASSERT_EQ(p->size(), 2U);
    const auto& tr = (*p)[0];
    const auto& bl = (*p)[1];
    EXPECT_EQ(tr.name, "tree");
    EXPECT_EQ(tr.kind, SlurmTopologyKind::Tree);
    EXPECT_FALSE(tr.cluster_default);
    EXPECT_EQ(bl.kind, SlurmTopologyKind::Block);
    EXPECT_TRUE(bl.cluster_default);
    EXPECT_EQ(default_slurm_topology(*p), &bl);
    // the same content as the .conf generators
    auto tc = generate_tree_conf(*t);
    auto bc = generate_block_conf(*t);
    ASSERT_TRUE(tc && bc);
    auto tp = parse_conf(tc->text);
    auto bp = parse_conf(bc->text);
    ASSERT_EQ(tr.switches.size(), tp.switches.size());
    for (std::size_t i = 0; i < tr.switches.size(); ++i) {
        EXPECT_EQ(tr.switches[i].name, tp.switches[i].name);
        EXPECT_EQ(tr.switches[i].nodes, tp.switches[i].nodes);
        EXPECT_EQ(tr.switches[i].children, tp.switches[i].children);
    }
    EXPECT_EQ(bl.block_sizes, bp.block_sizes);
    ASSERT_EQ(bl.blocks.size(), bp.blocks.size());
    for (std::size_t i = 0; i < bl.blocks.size(); ++i) {
        EXPECT_EQ(bl.blocks[i].name, bp.blocks[i].name);
        EXPECT_EQ(bl.blocks[i].nodes, bp.blocks[i].nodes);
    }
    expect_golden("gb200-nvl72x4.topology.yaml", y->text);
}

TEST(SlurmYaml, DefaultsAndChoices) {
    auto t = two_tier();
    ASSERT_TRUE(t);
    auto y = generate_topology_yaml(*t);
    ASSERT_TRUE(y) << y.error().to_string();
    EXPECT_EQ(y->topologies, (std::vector<std::string>{"tree"}));  // no NVLink domain: no block
    EXPECT_EQ(y->cluster_default, "tree");

    YamlOptions o;
    o.want_block = YamlOptions::Want::Yes;
    o.default_topology = "block";
    o.tree_name = "ib";
    o.block_name = "groups";
    y = generate_topology_yaml(*t, o);
    ASSERT_TRUE(y) << y.error().to_string();
    EXPECT_EQ(y->topologies, (std::vector<std::string>{"ib", "groups"}));
    EXPECT_EQ(y->cluster_default, "groups");
    auto p = parse_topology_yaml(y->text, "generated.yaml");
    ASSERT_TRUE(p) << p.error().to_string();
    EXPECT_EQ(default_slurm_topology(*p)->name, "groups");

    o.default_topology = "torus";
    EXPECT_FALSE(generate_topology_yaml(*t, o));
    o.default_topology = "";
    o.block_name = "ib";
    EXPECT_FALSE(generate_topology_yaml(*t, o));
    o.block_name = "a b";
    EXPECT_FALSE(generate_topology_yaml(*t, o));

    // only NVLink domains, no fabric: a block topology alone
    auto nvl = from_spec_text(racks_spec({{1, 18}, {2, 18}}, 16));
    ASSERT_TRUE(nvl);
    y = generate_topology_yaml(*nvl);
    ASSERT_TRUE(y) << y.error().to_string();
    EXPECT_EQ(y->topologies, (std::vector<std::string>{"block"}));
    EXPECT_EQ(y->cluster_default, "block");
    ASSERT_FALSE(y->warnings.empty());
    EXPECT_NE(y->warnings[0].find("no tree topology"), std::string::npos);
    auto p2 = parse_topology_yaml(y->text, "generated.yaml");
    ASSERT_TRUE(p2) << p2.error().to_string();

    auto none = from_spec_text("nodes:\n  - names: n[1-4]\n");
    ASSERT_TRUE(none);
    EXPECT_FALSE(generate_topology_yaml(*none));
}

TEST(SlurmYamlReal, PsmnAndSeleneParseBack) {
    for (const auto& [file, map, golden] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"psmn-x5-qdr.ibnetdiscover.txt", "psmn-x5-qdr.guid-hostname.map", "psmn-x5-qdr.topology.yaml"},
             {"selene-compute.ibnetdiscover.txt.gz", "", "selene-compute.topology.yaml"}}) {
        auto t = import_ib(file, map);
        ASSERT_TRUE(t);
        YamlOptions o;
        o.tree.source_label = file;
        o.want_block = YamlOptions::Want::Yes;  // block by leaf group, next to the tree
        auto y = generate_topology_yaml(*t, o);
        ASSERT_TRUE(y) << y.error().to_string();
        EXPECT_EQ(y->cluster_default, "tree");
        auto p = parse_topology_yaml(y->text, golden);
        ASSERT_TRUE(p) << p.error().to_string();
        ASSERT_EQ(p->size(), 2U);
        auto tc = generate_tree_conf(*t);
        ASSERT_TRUE(tc);
        EXPECT_EQ((*p)[0].switches.size(), tc->switches.size());
        EXPECT_EQ((*p)[0].node_names(), parse_conf(tc->text).node_names());
        expect_golden(golden, y->text);
    }
}

// ---------------------------------------------------------------- node lines: weights

TEST(SlurmWeights, EqualWithinAndAcrossGroupsOfOneFabric) {
    auto t = two_tier(8);
    ASSERT_TRUE(t);
    NodeLineOptions o;
    o.weights = true;
    auto nl = generate_node_lines(*t, {}, o);
    ASSERT_TRUE(nl) << nl.error().to_string();
    EXPECT_EQ(nl->lines, (std::vector<std::string>{
                             "NodeName=n[001-004] Features=lg_g001,sp_spine Weight=1",
                             "NodeName=n[005-008] Features=lg_g002,sp_spine Weight=1",
                             "NodeName=n[009-012] Features=lg_g003,sp_spine Weight=1",
                             "NodeName=n[013-016] Features=lg_g004,sp_spine Weight=1",
                         }));
    o.features = false;
    nl = generate_node_lines(*t, {}, o);
    ASSERT_TRUE(nl);
    EXPECT_EQ(nl->lines, (std::vector<std::string>{"NodeName=n[001-016] Weight=1"}));
    o.weights = false;
    EXPECT_FALSE(generate_node_lines(*t, {}, o));
    o.weights = true;
    o.weight_step = 0;
    EXPECT_FALSE(generate_node_lines(*t, {}, o));
}

TEST(SlurmWeights, ClassesAreWholeGroups) {
    // part A: leaves a1 (4 GPU hosts, 8 GPUs), a2 (4 CPU hosts); part B: leaf b1 (2 hosts);
    // one host on no leaf.
    Fab f;
    f.sw("sA").sw("a1").sw("a2").sw("sB").sw("b1");
    f.link("a1", "sA").link("a2", "sA").link("b1", "sB");
    f.hosts("g", 1, 4, {"a1"}, 8).hosts("c", 1, 4, {"a2"}, 0).hosts("b", 1, 2, {"b1"}, 8);
    f.host("lost1", {""}, 8);
    auto t = f.freeze();
    ASSERT_TRUE(t);
    NodeLineOptions o;
    o.weights = true;
    o.weight_base = 10;
    o.weight_step = 10;
    auto nl = generate_node_lines(*t, {}, o);
    ASSERT_TRUE(nl) << nl.error().to_string();
    // lightest: largest part, CPU hosts (fewer GPUs) first; then its GPU hosts; then the
    // smaller part; hosts on no leaf last.
    std::map<std::string, std::string> w;
    for (const auto& l : nl->lines) {
        const auto sp = l.find(' ');
        w[l.substr(9, sp - 9)] = l.substr(l.rfind("Weight="));
    }
    EXPECT_EQ(w["c[001-004]"], "Weight=10");
    EXPECT_EQ(w["g[001-004]"], "Weight=20");
    EXPECT_EQ(w["b[001-002]"], "Weight=30");
    EXPECT_EQ(w["lost1"], "Weight=40");
    EXPECT_NE(nl->text.find("Weight=40: hosts on no leaf switch"), std::string::npos) << nl->text;
}

TEST(SlurmWeights, MixedGpuCountsInOneGroupGetOneWeightAndAWarning) {
    Fab f;
    f.sw("s").sw("l1").sw("l2").link("l1", "s").link("l2", "s");
    f.hosts("a", 1, 2, {"l1"}, 8).hosts("a", 3, 4, {"l1"}, 4).hosts("b", 1, 4, {"l2"}, 4);
    auto t = f.freeze();
    ASSERT_TRUE(t);
    NodeLineOptions o;
    o.weights = true;
    o.features = false;
    auto nl = generate_node_lines(*t, {}, o);
    ASSERT_TRUE(nl) << nl.error().to_string();
    EXPECT_EQ(nl->lines, (std::vector<std::string>{"NodeName=a[001-004] Weight=2", "NodeName=b[001-004] Weight=1"}));
    ASSERT_EQ(nl->warnings.size(), 1U);
    EXPECT_NE(nl->warnings[0].find("a[001-004]"), std::string::npos) << nl->warnings[0];
}

TEST(SlurmWeights, Nvl72Golden) {
    auto t = from_spec_file("specs/gb200-nvl72x4.yaml");
    ASSERT_TRUE(t);
    NodeLineOptions o;
    o.weights = true;
    auto nl = generate_node_lines(*t, {}, o);
    ASSERT_TRUE(nl) << nl.error().to_string();
    EXPECT_EQ(nl->lines.size(), 4U);
    EXPECT_NE(nl->text.find("Minimum Slurm version: 22.05"), std::string::npos);
    expect_golden("gb200-nvl72x4.nodes.conf", nl->text);
}

// ---------------------------------------------------------------- gres

TEST(SlurmGres, TypeFromModel) {
    EXPECT_EQ(gpu_type_from_model("NVIDIA H100 80GB HBM3"), "h100");
    EXPECT_EQ(gpu_type_from_model("NVIDIA A100-SXM4-80GB"), "a100");
    EXPECT_EQ(gpu_type_from_model("Tesla V100-SXM2-32GB"), "v100");
    EXPECT_EQ(gpu_type_from_model("NVIDIA GB200"), "gb200");
    EXPECT_EQ(gpu_type_from_model("NVIDIA L40S"), "l40s");
    EXPECT_EQ(gpu_type_from_model("AMD Instinct MI250X"), "mi250x");
    EXPECT_EQ(gpu_type_from_model("NVIDIA GeForce RTX 3090"), "");
    EXPECT_EQ(gpu_type_from_model(""), "");
}

/// two_tier hosts; n001-n008 get the nvidia-smi matrix `file`.
TopologyPtr with_smi(const std::string& file) {
    TopologyBuilder b;
    auto desc = read_nvidia_smi_topo_file(fixture("nvidia-smi-topo/" + file));
    EXPECT_TRUE(desc) << (desc ? "" : desc.error().to_string());
    if (!desc) return nullptr;
    b.add_switch(Switch{"s", "s", "", 36, -1, Provenance::Discovered});
    b.add_switch(Switch{"l1", "l1", "", 36, -1, Provenance::Discovered});
    b.add_switch_link("l1", 1, "s", 1, 200, "4xHDR");
    for (int i = 1; i <= 12; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "n%03d", i);
        b.add_host(name, HostRole::Compute);
        Nic n;
        n.name = "ib0";
        n.guid = "0x" + std::to_string(9000 + i);
        n.leaf_port = i + 1;
        b.add_nic(name, n, "l1");
        if (i <= 8) b.apply_node_description(name, *desc);
    }
    return freeze(std::move(b));
}

TEST(SlurmGres, LinksFromARealNvidiaSmiMatrix) {
    // DGX A100: 8 GPUs, every pair NV12.
    auto t = with_smi("oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt");
    ASSERT_TRUE(t);
    auto g = generate_gres_conf(*t);
    ASSERT_TRUE(g) << g.error().to_string();
    ASSERT_EQ(g->lines.size(), 9U) << g->text;
    EXPECT_EQ(g->lines[0], "AutoDetect=off");
    EXPECT_EQ(g->lines[1], "NodeName=n[001-008] Name=gpu File=/dev/nvidia0 Links=-1,12,12,12,12,12,12,12");
    EXPECT_EQ(g->lines[8], "NodeName=n[001-008] Name=gpu File=/dev/nvidia7 Links=12,12,12,12,12,12,12,-1");
    EXPECT_NE(g->text.find("4 host(s) without GPUs: n[009-012]"), std::string::npos) << g->text;
    expect_golden("dgx-a100.gres.conf", g->text);

    GresOptions o;
    o.links = false;
    o.type = "a100";
    o.file_template = "/lab/dev/nvidia{index}";
    auto g2 = generate_gres_conf(*t, o);
    ASSERT_TRUE(g2);
    EXPECT_EQ(g2->lines, (std::vector<std::string>{
                             "AutoDetect=off", "NodeName=n[001-008] Name=gpu Type=a100 File=/lab/dev/nvidia[0-7]"}));
}

TEST(SlurmGres, PartialNvlinkAndNoNvlink) {
    // 4 x H800 with NV8 pairs (mlsys tutorial); PCIe-only box: no Links.
    auto t = with_smi("mlsys-tutorial-h800x4-17nic-ansi.topo-m.txt");
    ASSERT_TRUE(t);
    auto g = generate_gres_conf(*t);
    ASSERT_TRUE(g) << g.error().to_string();
    const auto smi = read_nvidia_smi_topo_file(fixture("nvidia-smi-topo/mlsys-tutorial-h800x4-17nic-ansi.topo-m.txt"));
    ASSERT_TRUE(smi);
    ASSERT_EQ(g->lines.size(), smi->gpus.size() + 1);
    // the matrix is symmetric and -1 on the diagonal, numbers from the NV# cells
    std::map<std::pair<int, int>, int> want;
    for (const auto& p : smi->nvlinks) {
        want[{p.a, p.b}] = p.links;
        want[{p.b, p.a}] = p.links;
    }
    for (std::size_t i = 0; i < smi->gpus.size(); ++i) {
        const auto& l = g->lines[i + 1];
        const auto row = l.substr(l.find("Links=") + 6);
        std::vector<int> v;
        std::stringstream ss(row);
        for (std::string x; std::getline(ss, x, ',');) v.push_back(std::stoi(x));
        ASSERT_EQ(v.size(), smi->gpus.size()) << l;
        for (std::size_t j = 0; j < v.size(); ++j) {
            const int exp = i == j ? -1
                                   : (want.count({static_cast<int>(i), static_cast<int>(j)}) != 0U
                                          ? want[{static_cast<int>(i), static_cast<int>(j)}]
                                          : 0);
            EXPECT_EQ(v[j], exp) << l;
        }
    }

    auto pcie = with_smi("mlsys-tutorial-pcie8-allsys.topo-m.txt");
    ASSERT_TRUE(pcie);
    auto g2 = generate_gres_conf(*pcie);
    ASSERT_TRUE(g2) << g2.error().to_string();
    EXPECT_EQ(g2->lines,
              (std::vector<std::string>{"AutoDetect=off", "NodeName=n[001-008] Name=gpu File=/dev/nvidia[0-7]"}));
}

TEST(SlurmGres, HostsWithDifferentLayoutsGetTheirOwnLines) {
    Fab f;
    f.sw("s").sw("l1").link("l1", "s");
    f.hosts("a", 1, 3, {"l1"}, 8).hosts("b", 1, 2, {"l1"}, 4);
    auto t = f.freeze();
    ASSERT_TRUE(t);
    auto g = generate_gres_conf(*t);
    ASSERT_TRUE(g) << g.error().to_string();
    EXPECT_EQ(g->lines, (std::vector<std::string>{
                            "AutoDetect=off",
                            "NodeName=a[001-003] Name=gpu Type=h100 File=/dev/nvidia[0-7]",
                            "NodeName=b[001-002] Name=gpu Type=h100 File=/dev/nvidia[0-3]",
                        }));
}

TEST(SlurmGres, Errors) {
    auto t = two_tier(0);
    ASSERT_TRUE(t);
    auto g = generate_gres_conf(*t);
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().code, Errc::InvalidArgument);
    auto t8 = two_tier(8);
    GresOptions o;
    o.file_template = "/dev/nvidia";
    EXPECT_FALSE(generate_gres_conf(*t8, o));
    o.file_template = "/dev/nvidia{index}";
    o.type = "h 100";
    EXPECT_FALSE(generate_gres_conf(*t8, o));
}

// ---------------------------------------------------------------- warnings

TEST(SlurmWarnings, HostOnLeavesOfTwoGroupsIsNamed) {
    Fab f;
    f.sw("s").sw("l1").sw("l2").sw("l3");
    f.link("l1", "s").link("l2", "s").link("l3", "s");
    f.hosts("a", 1, 3, {"l1"}).hosts("b", 1, 3, {"l2"}).hosts("c", 1, 3, {"l3"});
    f.host("x001", {"l1", "l2"});
    auto t = f.freeze();
    ASSERT_TRUE(t);
    auto c = generate_tree_conf(*t);
    ASSERT_TRUE(c) << c.error().to_string();
    bool found = false;
    for (const auto& w : c->warnings)
        found =
            found || (w.find("x001") != std::string::npos && w.find("2 different host groups") != std::string::npos);
    EXPECT_TRUE(found) << c->text;
    EXPECT_NE(c->text.find("# Warning: 1 host(s) on leaf switches of 2 different host groups"), std::string::npos);
    // a rail-optimized unit (hosts on their own rail leaves) is not warned about
    Fab r;
    r.sw("s").sw("r0").sw("r1").link("r0", "s").link("r1", "s");
    r.hosts("g", 1, 4, {"r0", "r1"});
    auto rt = r.freeze();
    ASSERT_TRUE(rt);
    auto rc = generate_tree_conf(*rt);
    ASSERT_TRUE(rc);
    EXPECT_TRUE(rc->warnings.empty()) << rc->warnings.front();
}

TEST(SlurmWarnings, DeeperThanSlurmsLevelLimit) {
    // two chains of 22 switches from two leaves up to one top switch: tiers are
    // inferred from the leaves, so the top is tier 22 (23 Slurm levels)
    Fab f;
    const int depth = kSlurmMaxTreeLevels + 2;
    f.sw("top");
    for (const char* c : {"a", "b"}) {
        for (int k = 0; k < depth; ++k) f.sw(c + std::to_string(k));
        for (int k = 0; k + 1 < depth; ++k) f.link(c + std::to_string(k), c + std::to_string(k + 1));
        f.link(c + std::to_string(depth - 1), "top");
    }
    f.hosts("n", 1, 2, {"a0"}).hosts("m", 1, 2, {"b0"});
    auto t = f.freeze();
    ASSERT_TRUE(t);
    auto c = generate_tree_conf(*t);
    ASSERT_TRUE(c) << c.error().to_string();
    int top = 0;
    for (const auto& s : c->switches) top = std::max(top, s.level);
    EXPECT_GT(top + 1, kSlurmMaxTreeLevels) << c->text;
    bool found = false;
    for (const auto& w : c->warnings) found = found || w.find("switch levels") != std::string::npos;
    EXPECT_TRUE(found) << c->text;
    auto ok = generate_tree_conf(*two_tier());
    ASSERT_TRUE(ok);
    for (const auto& w : ok->warnings) EXPECT_EQ(w.find("switch levels"), std::string::npos);
}

// ---------------------------------------------------------------- more real fabrics: tree, block, yaml goldens

TEST(SlurmGoldenReal, TreeBlockYamlOnMoreFabrics) {
    for (const auto& [file, stem] : std::vector<std::pair<std::string, std::string>>{
             {"topograph-dgxh100-ndr-plane1.ibnetdiscover.txt", "topograph-dgxh100-ndr-plane1"},
             {"plafrim2-subnet0-qdr.ibnetdiscover-s-p.txt", "plafrim2-subnet0-qdr"},
             {"superbench-faked-hdr-3tier.ibnetdiscover-f.txt", "superbench-hdr-3tier"}}) {
        SCOPED_TRACE(file);
        auto t = import_ib(file);
        ASSERT_TRUE(t);
        TreeOptions to;
        to.source_label = file;
        auto tc = generate_tree_conf(*t, to);
        ASSERT_TRUE(tc) << tc.error().to_string();
        EXPECT_NE(tc->text.find("Minimum Slurm version: 22.05"), std::string::npos);
        auto tp = parse_conf(tc->text);
        EXPECT_FALSE(tp.switches.empty());
        BlockOptions bo;
        bo.source_label = file;
        auto bc = generate_block_conf(*t, bo);
        ASSERT_TRUE(bc) << bc.error().to_string();
        EXPECT_NE(bc->text.find("Minimum Slurm version: 24.05"), std::string::npos);
        auto bp = parse_conf(bc->text);
        EXPECT_EQ(bp.node_names(), tp.node_names());  // every host of the tree is in a block
        YamlOptions yo;
        yo.tree = to;
        yo.block = bo;
        yo.want_block = YamlOptions::Want::Yes;
        auto yc = generate_topology_yaml(*t, yo);
        ASSERT_TRUE(yc) << yc.error().to_string();
        EXPECT_NE(yc->text.find("Minimum Slurm version: 25.05"), std::string::npos);
        auto yp = parse_topology_yaml(yc->text, stem + ".topology.yaml");
        ASSERT_TRUE(yp) << yp.error().to_string();
        ASSERT_EQ(yp->size(), 2U);
        EXPECT_EQ((*yp)[0].node_names(), tp.node_names());
        EXPECT_EQ((*yp)[1].blocks.size(), bp.blocks.size());
        expect_golden(stem + ".topology.conf", tc->text);
        expect_golden(stem + ".block.conf", bc->text);
        expect_golden(stem + ".topology.yaml", yc->text);
    }
}

// ---------------------------------------------------------------- goldens for the NVL72 cluster file

TEST(SlurmGolden, Nvl72TreeAndGres) {
    auto t = from_spec_file("specs/gb200-nvl72x4.yaml");
    ASSERT_TRUE(t);
    TreeOptions o;
    o.source_label = "gb200-nvl72x4.yaml";
    auto c = generate_tree_conf(*t, o);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_NE(c->text.find("Minimum Slurm version: 22.05"), std::string::npos);
    expect_golden("gb200-nvl72x4.topology.conf", c->text);
    auto g = generate_gres_conf(*t);
    ASSERT_TRUE(g) << g.error().to_string();
    expect_golden("gb200-nvl72x4.gres.conf", g->text);
}

}  // namespace
}  // namespace topo::slurmconf
