// SPDX-License-Identifier: Apache-2.0
// Inputs as other sites and tools write them (issue 15 points 1, 2, 7-9, 11): ibdiagnet's
// port labels, terminal captures, real dumps of other tools' test suites, hwloc NICs that
// are fabric NICs, one XML as a template, block topologies, name maps, partition modes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/node_description.hpp>
#include <topo/slurm_topology.hpp>
#include <topo/text_input.hpp>
#include <topo/topology.hpp>

#if defined(TOPO_HAVE_HWLOC) && __has_include(<topo/hwloc_reader.hpp>)
#include <topo/hwloc_reader.hpp>
#define TOPO_TEST_HWLOC 1
#endif

namespace {

using topo::Errc;
using topo::HostRole;
using topo::NodeDescription;
using topo::TopologyBuilder;

std::string fx(const std::string& dir, const std::string& name) {
    return std::string(TOPO_FIXTURES) + "/" + dir + "/" + name;
}

topo::TopologyPtr import(const topo::IbFabric& f, const topo::IbImportOptions& o = {}) {
    TopologyBuilder b;
    auto st = topo::import_ib_fabric(f, o, b);
    EXPECT_TRUE(st) << (st ? "" : st.error().to_string());
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t) << (t ? "" : t.error().to_string());
    return t ? *t : nullptr;
}

bool any_has(std::span<const std::string> ws, const std::string& part) {
    for (const auto& w : ws) {
        if (w.find(part) != std::string::npos) return true;
    }
    return false;
}

// ---- 1. ibdiagnet2.ibnetdiscover: labels after the port numbers

TEST(RealInputs, IbdiagnetPortLabelsAreLabelsNotGuids) {
    auto f = topo::read_ibnetdiscover_file(fx("ibnetdiscover", "topoplace-ibdiagnet2-ndr-labels.ibnetdiscover"));
    ASSERT_TRUE(f) << f.error().to_string();
    int switches = 0;
    int cas = 0;
    for (const auto& n : f->nodes) {
        if (n.type == topo::IbNode::Type::Switch) ++switches;
        if (n.type == topo::IbNode::Type::Ca) {
            ++cas;
            EXPECT_EQ(n.port_guid, n.guid) << "the CA's port GUID comes after its label";
            ASSERT_EQ(n.ports.size(), 1U);
            EXPECT_EQ(n.ports[0].label, "B9D0F0/0/0/1");
        }
    }
    EXPECT_EQ(switches, 3);
    EXPECT_EQ(cas, 4);
    EXPECT_EQ(f->nodes[0].ports[0].label, "1/1/1");
    EXPECT_EQ(f->nodes[0].ports[2].label, "17/1/1");
    EXPECT_EQ(f->nodes[0].ports[0].rate, "4xNDR");
    auto t = import(*f);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->tiers(), 2);
    EXPECT_EQ(t->rails(), 2);
    EXPECT_EQ(t->groups().size(), 1U);
    EXPECT_EQ(t->hosts().size(), 2U);
}

TEST(RealInputs, BadPortGroupsStillNameTheLine) {
    const std::string head = "vendid=0x2c9\nSwitch\t65 \"S-fc6a1c0300e5c3c0\"\t\t# \"MF0;l:MQM9700/U1\"\n";
    for (const char* bad : {"[1](1/1/1\t\"H-0c42a1030076b3ac\"[1]\t# \"x\" lid 1 4xNDR",
                            "[1](1 1)\t\"H-0c42a1030076b3ac\"[1]\t# \"x\" lid 1 4xNDR",
                            "[1](12345678901234567)\t\"H-0c42a1030076b3ac\"[1]\t# \"x\" lid 1 4xNDR"}) {
        auto f = topo::parse_ibnetdiscover(head + bad + "\n", "bad.txt");
        ASSERT_FALSE(f) << bad;
        EXPECT_EQ(f.error().code, Errc::Parse);
        EXPECT_EQ(f.error().file, "bad.txt");
        EXPECT_EQ(f.error().line, 3) << bad;
    }
}

// ---- 2. terminal captures: a byte-order mark, a prompt on the first line

TEST(RealInputs, CaptureWithBomAndPromptFirst) {
    auto f = topo::read_ibnetdiscover_file(fx("ibnetdiscover", "topoplace-prompt-bom.ibnetdiscover.txt"));
    ASSERT_TRUE(f) << f.error().to_string();
    EXPECT_EQ(f->nodes.size(), 3U);
    ASSERT_FALSE(f->warnings.empty());
    EXPECT_NE(f->warnings[0].find("\"[root@mgmt01 ~]# ibnetdiscover\""), std::string::npos) << f->warnings[0];
    EXPECT_EQ(f->warnings[0].find('?'), std::string::npos) << "no BOM bytes in messages: " << f->warnings[0];
    // a real port line before any node is still an error, at its line
    auto g = topo::parse_ibnetdiscover("\xEF\xBB\xBF[1]\t\"S-0002c90300a1b2c0\"[1]\t# \"x\" lid 1 4xEDR\n", "p.txt");
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().line, 1);
    EXPECT_NE(g.error().message.find("outside a node block"), std::string::npos);
}

TEST(RealInputs, IbtopotoolTestDumps) {
    // jabl/ibtopotool's test dumps (MIT): the ibnetdiscover man page example, an IBM support
    // page, an NVIDIA KB page whose capture starts with a stderr warning line and uses single
    // spaces, an Oracle doc page with no blank line after the header.
    struct Want {
        const char* file;
        std::size_t switches, cas;
    };

    for (const Want& w :
         {Want{"ibtopotool-test1.ibnetdiscover.txt", 0, 0}, Want{"ibtopotool-test2.ibnetdiscover.txt", 1, 2},
          Want{"ibtopotool-test3.ibnetdiscover.txt", 0, 0}, Want{"ibtopotool-test4.ibnetdiscover.txt", 0, 0}}) {
        auto f = topo::read_ibnetdiscover_file(fx("ibnetdiscover", w.file));
        ASSERT_TRUE(f) << w.file << ": " << f.error().to_string();
        std::size_t sw = 0;
        std::size_t ca = 0;
        for (const auto& n : f->nodes) {
            sw += n.type == topo::IbNode::Type::Switch ? 1 : 0;
            ca += n.type == topo::IbNode::Type::Ca ? 1 : 0;
        }
        if (w.switches > 0) {
            EXPECT_EQ(sw, w.switches) << w.file;
            EXPECT_EQ(ca, w.cas) << w.file;
        }
        EXPECT_GT(sw, 0U) << w.file;
        auto t = import(*f);
        EXPECT_TRUE(t) << w.file;
    }
}

// ---- 7. the same GUID is the same NIC

NodeDescription xml_like(const std::string& source) {
    NodeDescription nd;
    nd.source = source;
    nd.hostname = "dgx1";
    for (int i = 0; i < 2; ++i) nd.gpus.push_back({i, "GPU" + std::to_string(i), "H100", "", "", i});
    nd.nics.push_back({"mlx5_0", "0000:0c:00.0", "0x1000", 0, 400});
    nd.nics.push_back({"mlx5_1", "0000:8c:00.0", "0x1001", 1, 400});
    nd.nics.push_back({"mlx5_4", "0000:1c:00.0", "0x1004", 0, 400});  // storage, not on this fabric
    nd.nics.push_back({"mlx5_5", "0000:9c:00.0", "0x1005", 1, 400});
    using P = topo::PathClass;
    nd.gpu_nic = {{P::Pix, P::Sys, P::Node, P::Sys}, {P::Sys, P::Pix, P::Sys, P::Node}};
    return nd;
}

TopologyBuilder fabric_with_hca_names() {
    // Two hosts on two rail leaves, their HCAs named "HCA-1"/"HCA-2" by their node
    // descriptions; dgx1's GUIDs are those of the XML.
    TopologyBuilder b;
    for (const char* s : {"leaf1", "leaf2", "spine"})
        b.add_switch(topo::Switch{s, s, "", 40, -1, topo::Provenance::Discovered});
    b.add_switch_link("leaf1", 40, "spine", 1, 400, "4xNDR");
    b.add_switch_link("leaf2", 40, "spine", 2, 400, "4xNDR");
    int port = 0;
    for (const char* h : {"dgx1", "dgx2"}) {
        b.add_host(h, HostRole::Compute);
        for (int r = 0; r < 2; ++r) {
            topo::Nic n;
            n.name = "HCA-" + std::to_string(r + 1);
            n.guid = std::string(h) == "dgx1" ? (r == 0 ? "0x1000" : "0x1001") : (r == 0 ? "0x2000" : "0x2001");
            n.leaf_port = ++port;
            n.rate = "4xNDR";
            n.rate_gbps = 400;
            b.add_nic(h, n, r == 0 ? "leaf1" : "leaf2");
        }
    }
    return b;
}

TEST(RealInputs, HwlocNicsMergeWithFabricNicsOfTheSameGuid) {
    TopologyBuilder b = fabric_with_hca_names();
    b.apply_node_description("dgx1", xml_like("dgx1.xml"));
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t) << t.error().to_string();
    const auto h = (*t)->find_host("dgx1");
    ASSERT_TRUE(h);
    const auto& host = (*t)->host(*h);
    ASSERT_EQ(host.nics.size(), 4U) << "2 fabric NICs merged with the XML's, 2 storage HCAs off the fabric";
    int on = 0;
    for (auto nid : host.nics) {
        const auto& n = (*t)->nic(nid);
        if (n.name == "mlx5_0" || n.name == "mlx5_1") {
            ++on;
            EXPECT_TRUE(n.leaf.valid()) << n.name << " keeps the fabric's cable";
            EXPECT_FALSE(n.pci_bus.empty()) << n.name << " takes the XML's PCI address";
            EXPECT_GE(n.rail, 0);
        } else {
            EXPECT_FALSE(n.leaf.valid()) << n.name;
        }
    }
    EXPECT_EQ(on, 2);
    // GPU0 -> nearest NIC is mlx5_0, which is cabled: NCCL_IB_HCA can be derived
    const auto near = (*t)->nearest_nics(host.gpus[0]);
    ASSERT_FALSE(near.empty());
    EXPECT_EQ((*t)->nic(near[0]).name, "mlx5_0");
    EXPECT_TRUE((*t)->nic(near[0]).leaf.valid());
}

// ---- 8. one XML for every compute host

TEST(RealInputs, OneXmlAsTemplateIgnoresItsGuidsOnOtherHosts) {
    TopologyBuilder b = fabric_with_hca_names();
    b.apply_node_template({"dgx1", "dgx2"}, xml_like("dgx1.xml"));
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t) << t.error().to_string();
    for (const char* hn : {"dgx1", "dgx2"}) {
        const auto& host = (*t)->host(*(*t)->find_host(hn));
        ASSERT_EQ(host.nics.size(), 4U) << hn;
        const auto near = (*t)->nearest_nics(host.gpus[1]);
        ASSERT_FALSE(near.empty()) << hn;
        EXPECT_EQ((*t)->nic(near[0]).name, "mlx5_1") << hn;
        EXPECT_TRUE((*t)->nic(near[0]).leaf.valid()) << hn << ": HCA-2 read as mlx5_1";
        EXPECT_EQ((*t)->nic(near[0]).guid, std::string(hn) == "dgx1" ? "0x1001" : "0x2001") << hn;
    }
    EXPECT_TRUE(any_has((*t)->warnings(),
                        "dgx1.xml: applied to 2 hosts as a template; its NIC GUIDs are those of dgx1 "
                        "and are ignored for the other 1 host(s)"))
        << testing::PrintToString(std::vector<std::string>((*t)->warnings().begin(), (*t)->warnings().end()));
    EXPECT_TRUE(any_has((*t)->warnings(), "HCA-1 read as mlx5_0"));
}

// ---- 9. a block topology places

TEST(RealInputs, BlockTopologyMakesPlaceableGroups) {
    auto all = topo::load_slurm_topology(fx("slurm-topology", "topograph-expected-block-nvl.topology.conf"));
    ASSERT_TRUE(all) << all.error().to_string();
    const auto* def = topo::default_slurm_topology(*all);
    ASSERT_NE(def, nullptr);
    TopologyBuilder b;
    ASSERT_TRUE(topo::import_slurm_topology(*def, b));
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t) << t.error().to_string();
    EXPECT_EQ((*t)->groups().size(), 12U) << "one group per block";
    EXPECT_EQ((*t)->tiers(), 2) << "the blocks, and the network that joins them";
    for (const auto& g : (*t)->groups()) EXPECT_EQ(g.hosts.size(), 8U) << g.name;
    EXPECT_EQ((*t)->nvl_domains().size(), 12U);
}

// ---- 11. a name map of another fabric; partition modes

TEST(RealInputs, NameMapMatchingNothingWarns) {
    auto f = topo::read_ibnetdiscover_file(fx("ibnetdiscover", "topoplace-prompt-bom.ibnetdiscover.txt"));
    ASSERT_TRUE(f);
    topo::IbImportOptions o;
    auto m = topo::read_node_name_map(fx("ibnetdiscover", "psmn-x5-qdr.guid-hostname.map"));
    ASSERT_TRUE(m);
    o.name_map = *m;
    auto t = import(*f, o);
    ASSERT_TRUE(t);
    EXPECT_TRUE(any_has(t->warnings(), "psmn-x5-qdr.guid-hostname.map: none of its"));
    // the right map says nothing
    auto g = topo::read_ibnetdiscover_file(fx("ibnetdiscover", "psmn-x5-qdr.ibnetdiscover.txt"));
    ASSERT_TRUE(g);
    auto u = import(*g, o);
    ASSERT_TRUE(u);
    EXPECT_FALSE(any_has(u->warnings(), "none of its"));
}

#ifdef TOPO_TEST_HWLOC
TEST(RealInputs, Mi300aCpxPartitionsAreFoldedWithAWarning) {
    auto nd = topo::read_hwloc_xml(fx("hwloc", "topoplace-tuolumne-mi300a-cpx-variant.xml"));
    ASSERT_TRUE(nd) << nd.error().to_string();
    EXPECT_EQ(nd->gpus.size(), 4U);
    ASSERT_TRUE(any_has(nd->warnings, "24 GPU partitions on 4 device(s)")) << testing::PrintToString(nd->warnings);
    auto spx = topo::read_hwloc_xml(fx("hwloc", "flux-llnl-tuolumne-mi300a-spx.xml"));
    ASSERT_TRUE(spx);
    EXPECT_FALSE(any_has(spx->warnings, "partitions"));
}
#endif

}  // namespace
