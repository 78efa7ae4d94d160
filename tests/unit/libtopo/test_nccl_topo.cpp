// SPDX-License-Identifier: Apache-2.0
// NCCL / RCCL topology XML reader, on the 10 real files of tests/fixtures/nccl-topo
// (copies of ../shared/fixtures/nccl-topo, see PROVENANCE.md). The counts were checked
// by hand against each file (and with Python's ElementTree): GPUs = pci devices of class
// 0x03xxxx/0x12xxxx or with a <gpu> child; NICs = <net> elements, or pci devices of class
// 0x02xxxx without a <nic>; NVLink/xGMI pairs = distinct unordered GPU pairs of the
// <nvlink>/<xgmi> targets (a link to the GPU's own bus id, as in azure-ncv4, is none).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/nccl_topo.hpp>

#include "libtopo/node_helpers.hpp"

namespace topo {
namespace {

std::string fx(const std::string& name) {
    return std::string(TOPO_FIXTURES) + "/nccl-topo/" + name;
}

struct Row {
    const char* file;
    std::size_t gpus;
    std::size_t nics;
    std::int64_t numa_nodes;
    std::size_t nv_pairs;
    std::int64_t gpu;                  // a GPU ...
    std::vector<std::string> nearest;  // ... its nearest NICs ...
    PathClass cls;                     // ... and their path class
};

// Nearest NICs, by hand from the PCIe nesting:
//  p4d: GPU0 (0000:10:1c.0) and nic0 (EFA 0000:10:1b.0) under PCIe switch 0 -> PIX.
//  ncv4: GPU1 (numa 1) and eth0 (a <nic> directly under cpu 0) -> SYS; GPU0 -> PHB.
//  ndv2: 4 GPUs and the only NIC (0101) directly under cpu 0 -> PHB.
//  ndv4: 2 GPUs + 2 NICs per switch: GPU0 (0001) with 0101, 0102 (nic0, nic1) -> PIX.
//  ndv5: 1 GPU + 1 NIC per switch: GPU3 (0008) with 0104 (nic3) -> PIX.
//  mi300x: GPU0 (0c) sits under bridges 0a, 08, 05; mlx5_0 (07) under 05 -> PXB.
//  mi100 rome: GPU0 and mlx5_1 meet three PCIe bridges apart -> PXB; mlx5_3/5/7 on other
//    CPUs -> SYS.
//  16p1h: GPU0-mlx5_0 two bridges, GPU0-mlx5_1 four bridges: both PXB (one class).
//  xGMI pairs: 16p1h 28 (counts 1, 2 and 4), rome 12, mi300x 28 (all-to-all).
const std::vector<Row>& rows() {
    static const std::vector<Row> table = {
        {"aws-ofi-nccl-g5.48xl-topo.xml", 0, 0, 2, 0, -1, {}, PathClass::Unknown},
        {"aws-ofi-nccl-p4d-24xl-topo.xml", 8, 4, 2, 0, 0, {"nic0"}, PathClass::Pix},
        {"azure-ncv4-topo.xml", 4, 1, 4, 0, 1, {"eth0"}, PathClass::Sys},
        {"azure-ndv2-topo.xml", 8, 1, 2, 0, 0, {"nic0"}, PathClass::Phb},
        {"azure-ndv4-topo.xml", 8, 8, 4, 0, 0, {"nic0", "nic1"}, PathClass::Pix},
        {"azure-ndv5-topo.xml", 8, 8, 2, 0, 3, {"nic3"}, PathClass::Pix},
        {"rccl-topo_16p1h.xml", 16, 8, 4, 28, 0, {"mlx5_0", "mlx5_1"}, PathClass::Pxb},
        {"rccl-topo_8p_940-mi300x-8nic.xml", 8, 8, 2, 28, 0, {"mlx5_0"}, PathClass::Pxb},
        {"rccl-topo_8p_rome_4nics-mi100.xml", 8, 4, 4, 12, 0, {"mlx5_1"}, PathClass::Pxb},
        // ours: docker0 and a bridge under both CPUs, folded to one NIC each; GPU4 (cpu 1)
        // reaches them at its own CPU (PHB) and eno1 (a PCI NIC of cpu 0) across CPUs.
        {"topoplace-socket-only-docker0-dump.xml", 8, 3, 2, 28, 4, {"br-7f3a2c91d0e4", "docker0"}, PathClass::Phb},
    };
    return table;
}

TEST(NcclTopo, EveryFixture) {
    std::set<std::string> covered{"azure-ncv4-graph.xml"};  // GraphFileIsRefused
    for (const auto& row : rows()) {
        SCOPED_TRACE(row.file);
        covered.insert(row.file);
        auto r = read_nccl_topo_xml(fx(row.file));
        ASSERT_TRUE(r.has_value()) << r.error().to_string();
        EXPECT_EQ(r->source, fx(row.file));
        EXPECT_EQ(r->gpus.size(), row.gpus);
        EXPECT_EQ(r->nics.size(), row.nics);
        EXPECT_EQ(r->numa_nodes, row.numa_nodes);
        EXPECT_EQ(r->nvlinks.size(), row.nv_pairs);
        for (std::size_t i = 0; i < r->gpus.size(); ++i) {
            EXPECT_EQ(r->gpus[i].index, static_cast<int>(i));
            EXPECT_GE(r->gpus[i].numa, 0);
            EXPECT_FALSE(r->gpus[i].pci_bus.empty());
        }
        if (row.gpu >= 0 && !row.nearest.empty()) {
            EXPECT_EQ(test::nearest_nics(*r, static_cast<std::size_t>(row.gpu)), row.nearest);
            const auto& nics = r->nics;
            for (std::size_t j = 0; j < nics.size(); ++j) {
                if (nics[j].name == row.nearest.front()) {
                    EXPECT_EQ(r->gpu_nic[static_cast<std::size_t>(row.gpu)][j], row.cls);
                }
            }
        }
    }
    for (const auto& e : std::filesystem::directory_iterator(std::string(TOPO_FIXTURES) + "/nccl-topo")) {
        EXPECT_TRUE(covered.contains(e.path().filename().string())) << e.path() << " has no row";
    }
}

TEST(NcclTopo, GraphFileIsRefused) {
    auto r = read_nccl_topo_xml(fx("azure-ncv4-graph.xml"));
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::Parse);
    EXPECT_EQ(r.error().line, 1);
    EXPECT_NE(r.error().message.find("NCCL graph file"), std::string::npos);
}

TEST(NcclTopo, Mi300xDumpDetails) {
    auto r = read_nccl_topo_xml(fx("rccl-topo_8p_940-mi300x-8nic.xml"));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->gpus[0].model, "gfx942");
    EXPECT_EQ(r->gpus[0].pci_bus, "0000:0c:00.0");
    EXPECT_EQ(r->nics[0].name, "mlx5_0");
    EXPECT_EQ(r->nics[0].guid, "0xf01cbc0103dd6838");
    EXPECT_DOUBLE_EQ(r->nics[0].gbps, 400.0);
    for (const auto& p : r->nvlinks) EXPECT_EQ(p.links, 1);  // xGMI all-to-all, one link each
}

TEST(NcclTopo, AppliesToAHostLikeHwloc) {
    auto r = read_nccl_topo_xml(fx("azure-ndv5-topo.xml"));
    ASSERT_TRUE(r.has_value());
    TopologyBuilder b;
    b.apply_node_description("ndv5-1", *r);
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t.has_value()) << t.error().to_string();
    const Host& h = (*t)->host(*(*t)->find_host("ndv5-1"));
    ASSERT_EQ(h.gpus.size(), 8U);
    ASSERT_EQ(h.nics.size(), 8U);
    EXPECT_EQ(h.role, HostRole::Compute);
    auto near = (*t)->nearest_nics(h.gpus[3]);
    ASSERT_EQ(near.size(), 1U);
    EXPECT_EQ((*t)->nic(near[0]).name, "nic3");
}

// NCCL_TOPO_DUMP_FILE on a host whose only interfaces are sockets: NCCL lists each
// virtual interface (docker0, bridges), which has no PCI device, under every CPU. The
// file is NCCL's own: read it, one NIC per name, and say in one line what was folded.
TEST(NcclTopo, VirtualInterfaceUnderEveryCpuIsFolded) {
    auto r = read_nccl_topo_xml(fx("topoplace-socket-only-docker0-dump.xml"));
    ASSERT_TRUE(r.has_value()) << r.error().to_string();
    ASSERT_EQ(r->gpus.size(), 8U);
    std::vector<std::string> names;
    for (const auto& n : r->nics) names.push_back(n.name);
    EXPECT_EQ(names, (std::vector<std::string>{"br-7f3a2c91d0e4", "docker0", "eno1"}));
    EXPECT_EQ(r->nics[1].numa, -1);  // under every CPU: no locality of its own
    EXPECT_EQ(r->nics[2].numa, 0);
    EXPECT_EQ(r->nics[2].pci_bus, "0000:4b:00.0");
    EXPECT_DOUBLE_EQ(r->nics[1].gbps, 10.0);
    // every GPU meets a folded interface at its own CPU; eno1 only from cpu 0
    for (std::size_t g = 0; g < 8; ++g) {
        EXPECT_EQ(r->gpu_nic[g][1], PathClass::Phb) << g;
        EXPECT_EQ(r->gpu_nic[g][2], g < 4 ? PathClass::Phb : PathClass::Sys) << g;
    }
    std::vector<std::string> folded;
    for (const auto& w : r->warnings) {
        if (w.find("folded") != std::string::npos) folded.push_back(w);
    }
    ASSERT_EQ(folded.size(), 1U) << ::testing::PrintToString(r->warnings);
    EXPECT_NE(folded[0].find(fx("topoplace-socket-only-docker0-dump.xml") + ":36:"), std::string::npos) << folded[0];
    EXPECT_NE(folded[0].find("br-7f3a2c91d0e4, docker0"), std::string::npos) << folded[0];
    EXPECT_NE(folded[0].find("under each of 2 CPUs"), std::string::npos) << folded[0];
    // the node description applies to a host like any other
    TopologyBuilder b;
    b.apply_node_description("dgx-1", *r);
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t.has_value()) << t.error().to_string();
    EXPECT_EQ((*t)->host(*(*t)->find_host("dgx-1")).gpus.size(), 8U);
}

// What is not NCCL's pattern stays refused at its line: the same name on two PCI
// devices, or twice under one CPU.
TEST(NcclTopo, DuplicateNicsThatAreNotFoldedAreRefused) {
    const std::string two_pci =
        "<system version=\"1\">\n <cpu numaid=\"0\">\n"
        "  <pci busid=\"0000:01:00.0\" class=\"0x020000\"><nic><net name=\"eth0\" dev=\"0\"/></nic></pci>\n"
        "  <pci busid=\"0000:02:00.0\" class=\"0x020000\"><nic><net name=\"eth0\" dev=\"1\"/></nic></pci>\n"
        " </cpu>\n</system>\n";
    auto a = parse_nccl_topo_xml(two_pci, "t.xml");
    ASSERT_FALSE(a.has_value());
    EXPECT_EQ(a.error().to_string(), "t.xml:4: NIC eth0 appears twice");
    const std::string same_cpu =
        "<system version=\"1\">\n <cpu numaid=\"0\">\n"
        "  <nic><net name=\"docker0\" dev=\"0\"/></nic>\n"
        "  <nic><net name=\"docker0\" dev=\"0\"/></nic>\n"
        " </cpu>\n <cpu numaid=\"1\">\n  <nic><net name=\"docker0\" dev=\"0\"/></nic>\n </cpu>\n</system>\n";
    auto b = parse_nccl_topo_xml(same_cpu, "t.xml");
    ASSERT_FALSE(b.has_value());
    EXPECT_EQ(b.error().to_string(), "t.xml:4: NIC docker0 appears twice");
}

TEST(NcclTopo, BadInputNamesFileAndLine) {
    const auto err = [](std::string_view text) {
        auto r = parse_nccl_topo_xml(text, "t.xml");
        EXPECT_FALSE(r.has_value());
        return r ? Error{} : r.error();
    };
    EXPECT_EQ(err("").to_string(), "t.xml:1: empty file, not an NCCL topology");
    EXPECT_EQ(err("\n\nhello").line, 3);
    auto trunc = err("<system version=\"1\">\n  <cpu numaid=\"0\">\n    <pci busid=\"0000:01:00.0\" class=\"0x0302");
    EXPECT_EQ(trunc.line, 3);
    EXPECT_NE(trunc.message.find("truncated"), std::string::npos) << trunc.message;
    auto unclosed = err("<system version=\"1\">\n  <cpu numaid=\"0\">\n");
    EXPECT_NE(unclosed.message.find("<cpu> opened on line 2 is never closed"), std::string::npos) << unclosed.message;
    auto mismatch = err("<system>\n<cpu>\n</system>\n");
    EXPECT_EQ(mismatch.line, 3);
    EXPECT_NE(mismatch.message.find("</system> closes <cpu> of line 2"), std::string::npos) << mismatch.message;
    auto other = err("<?xml version=\"1.0\"?>\n<topology/>\n");
    EXPECT_NE(other.message.find("no <system> element"), std::string::npos);
    EXPECT_EQ(other.line, 2);
}

}  // namespace
}  // namespace topo
