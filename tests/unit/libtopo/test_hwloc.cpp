// SPDX-License-Identifier: Apache-2.0
// The hwloc reader: every hwloc XML fixture (v1, v2 and hwloc 3.x files), GPU and NIC
// detection, PCI-derived path classes, NVLink/xGMI matrices, errors, live discovery.
//
// Expected figures were checked by hand against the XML (OSDev and PCIDev objects,
// `lstopo-no-graphics -i FILE --whole-io`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/hwloc_reader.hpp>
#include <topo/snapshot.hpp>

#include "node_helpers.hpp"

namespace topo {
namespace {

std::string fixture(const std::string& name) {
    return test::fixture_path("hwloc", name);
}

using test::nearest_nics;

const NodeDescription::NvPair* find_pair(const NodeDescription& nd, int a, int b) {
    for (const auto& p : nd.nvlinks) {
        if (p.a == a && p.b == b) return &p;
    }
    return nullptr;
}

struct Expect {
    const char* file;
    std::size_t gpus;
    std::size_t nics;
    std::size_t gpu;                   // GPU whose nearest NIC is checked
    std::vector<std::string> nearest;  // empty: no NIC
    PathClass cls;
    std::size_t nvlink_pairs;
};

class HwlocFixture : public ::testing::TestWithParam<Expect> {};

TEST_P(HwlocFixture, GpusNicsNearestNicAndLinks) {
    const Expect& e = GetParam();
    auto r = read_hwloc_xml(fixture(e.file));
    ASSERT_TRUE(r) << r.error().to_string();
    const NodeDescription& nd = *r;
    EXPECT_EQ(nd.source, fixture(e.file));
    EXPECT_EQ(nd.gpus.size(), e.gpus);
    EXPECT_EQ(nd.nics.size(), e.nics);
    EXPECT_EQ(nd.nvlinks.size(), e.nvlink_pairs);
    for (std::size_t i = 0; i < nd.gpus.size(); ++i) {
        EXPECT_EQ(nd.gpus[i].index, static_cast<int>(i));
        EXPECT_FALSE(nd.gpus[i].model.empty()) << i;
    }
    if (e.nics == 0 || e.gpus == 0) {
        EXPECT_TRUE(nd.gpu_nic.empty());
        return;
    }
    ASSERT_EQ(nd.gpu_nic.size(), nd.gpus.size());
    for (const auto& row : nd.gpu_nic) ASSERT_EQ(row.size(), nd.nics.size());
    PathClass best = PathClass::Unknown;
    EXPECT_EQ(nearest_nics(nd, e.gpu, &best), e.nearest);
    EXPECT_EQ(best, e.cls) << path_class_name(best);
}

// GPU/NIC counts by hand:
//  corona: 8 rsmi OSDevs; NICs: mlx5_0 (+ hsi0 on the same PCI function), eno* Ethernet.
//  xe8640: nvml0-3 (+ cuda/opencl on the same PCI); mlx5_0-3, on 4d:00.0/.1, 5e:00.0, da:00.0.
//  sierra (v1 XML): cuda0-3 (card*/renderD* are DRM); mlx5_0-3 (hsi0-3 share them).
//  tuolumne: rsmi0-3; hsi0-3 (Slingshot), enp129s0 is Ethernet.
//  32em64t: cuda0 (84:00.0) and opencl0d1 (Radeon, 84:00.1); mlx5_0 with ib0.
//  minsky: nvml0-3, no NIC. dgx2h: nvml0-15 plus 12 NVSwitch PCIDevs, no NIC.
//  g4dn: nvml0-7; rdmap197s0 (EFA), eth0 (ENA) is Ethernet.
//  tioga: rsmi0-7; hsi0-3. JSC nodes: no GPU OSDev, 4 PCI 10de:20b0 (3D), mlx5_* NICs.
//  juwels cluster (v1 XML): 4 PCI 10de:1db1, card0 is the BMC VGA; mlx5_0-1.
INSTANTIATE_TEST_SUITE_P(
    HwlocFiles, HwlocFixture,
    ::testing::Values(Expect{"flux-llnl-corona-epyc-mi50x8.xml", 8, 1, 6, {"mlx5_0"}, PathClass::Phb, 0},
                      Expect{
                          "flux-llnl-ipa20-dell-xe8640-h100x4.xml", 4, 4, 0, {"mlx5_0", "mlx5_1"}, PathClass::Pix, 6},
                      Expect{"flux-llnl-sierra-power9-v100x4.xml", 4, 4, 2, {"mlx5_2", "mlx5_3"}, PathClass::Node, 0},
                      Expect{"flux-llnl-tuolumne-mi300a-spx.xml", 4, 4, 0, {"hsi0"}, PathClass::Phb, 6},
                      Expect{"hwloc-32em64t-k40m-radeon-mlx5.xml", 2, 1, 0, {"mlx5_0"}, PathClass::Pix, 0},
                      Expect{"hwloc-ibm-minsky-power8-p100x4-nvlink.xml", 4, 0, 0, {}, PathClass::Unknown, 2},
                      Expect{"hwloc-nvidia-dgx2h-v100x16-nvswitch.xml", 16, 0, 0, {}, PathClass::Unknown, 120},
                      Expect{"mpibind-aws-g4dn-metal-t4x8-efa.xml", 8, 1, 4, {"rdmap197s0"}, PathClass::Node, 0},
                      Expect{"mpibind-llnl-tioga-mi250x-xgmi.xml", 8, 4, 1, {"hsi0"}, PathClass::Phb, 28},
                      Expect{"psmgmt-jureca-dc-gpu-a100x4-hdr4.xml", 4, 4, 0, {"mlx5_0"}, PathClass::Pix, 0},
                      Expect{"psmgmt-juwels-booster-a100x4-hdr4.xml", 4, 4, 2, {"mlx5_2"}, PathClass::Pix, 0},
                      Expect{"psmgmt-juwels-cluster-gpu-v100x4-hwloc1.xml", 4, 2, 3, {"mlx5_1"}, PathClass::Pix, 0}),
    test::file_param_name<Expect>);

TEST(HwlocReader, Dgx2hNvSwitchGivesAllPairsSixLinks) {
    auto r = read_hwloc_xml(fixture("hwloc-nvidia-dgx2h-v100x16-nvswitch.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    // The file is hwloc 3.x XML: it loads through the in-memory downgrade, and says so.
    ASSERT_FALSE(r->warnings.empty());
    EXPECT_NE(r->warnings.front().find("downgraded"), std::string::npos);
    EXPECT_EQ(r->gpus.size(), 16U);  // the 12 NVSwitch PCI devices are not GPUs
    EXPECT_EQ(r->gpus[0].name, "nvml0");
    EXPECT_EQ(r->gpus[0].model, "Tesla V100-SXM3-32GB-H");
    EXPECT_EQ(r->gpus[0].pci_bus, "0000:34:00.0");
    EXPECT_EQ(r->gpus[0].numa, 0);
    EXPECT_EQ(r->gpus[15].numa, 1);
    EXPECT_EQ(r->numa_nodes, 2);
    // Each V100 has 6 x 25000 MB/s to the NVSwitches: every pair is reachable at 150 GB/s.
    const auto* p = find_pair(*r, 0, 15);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->links, 6);
    EXPECT_DOUBLE_EQ(p->gbps, 1200.0);
    for (const auto& q : r->nvlinks) EXPECT_LT(q.a, q.b);
}

TEST(HwlocReader, Xe8640H100NvLinkAndNuma) {
    auto r = read_hwloc_xml(fixture("flux-llnl-ipa20-dell-xe8640-h100x4.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->hostname, "testhost-nvidia");
    EXPECT_EQ(r->numa_nodes, 8);  // 2 sockets in SNC4
    EXPECT_EQ(r->gpus[0].name, "nvml0");
    EXPECT_EQ(r->gpus[0].model, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(r->gpus[0].numa, 3);
    EXPECT_FALSE(r->gpus[0].uuid.empty());
    // NVLinkBandwidth: 150000 MB/s between every pair = 6 NVLink4 links.
    const auto* p = find_pair(*r, 1, 2);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->links, 6);
    EXPECT_DOUBLE_EQ(p->gbps, 1200.0);
    // NICs: mlx5_0 with its GUID, on the PCIe switch of GPU0.
    EXPECT_EQ(r->nics[0].name, "mlx5_0");
    EXPECT_EQ(r->nics[0].pci_bus, "0000:4d:00.0");
    EXPECT_EQ(r->nics[0].guid, "0x043f720300aea282");
    EXPECT_EQ(r->nics[0].numa, 3);
    // GPU2 (0000:cb:00.0, NUMA 7) has no NIC in its NUMA node.
    EXPECT_EQ(r->gpu_nic[2][0], PathClass::Sys);
}

TEST(HwlocReader, MinskyP100NvLinkPairsOnly) {
    auto r = read_hwloc_xml(fixture("hwloc-ibm-minsky-power8-p100x4-nvlink.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    // GPU0-GPU1 and GPU2-GPU3 have 2 NVLink1 links (40000 MB/s); the GPU-CPU NVLinks
    // (to the POWER8 packages) are not GPU pairs.
    ASSERT_EQ(r->nvlinks.size(), 2U);
    EXPECT_EQ(r->nvlinks[0].a, 0);
    EXPECT_EQ(r->nvlinks[0].b, 1);
    EXPECT_EQ(r->nvlinks[0].links, 2);
    EXPECT_DOUBLE_EQ(r->nvlinks[0].gbps, 320.0);
    EXPECT_EQ(r->nvlinks[1].a, 2);
    EXPECT_EQ(r->nvlinks[1].b, 3);
    EXPECT_EQ(find_pair(*r, 0, 2), nullptr);
    EXPECT_EQ(r->hostname, "drac-12.grenoble.grid5000.fr");
}

TEST(HwlocReader, AmdXgmiBandwidth) {
    auto r = read_hwloc_xml(fixture("flux-llnl-tuolumne-mi300a-spx.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    const auto* p = find_pair(*r, 0, 3);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->links, 0);  // xGMI link count is not derivable
    EXPECT_DOUBLE_EQ(p->gbps, 800.0);
    EXPECT_EQ(r->gpus[0].name, "rsmi0");
    EXPECT_EQ(r->nics[0].name, "hsi0");
    EXPECT_TRUE(r->nics[0].guid.empty());
}

TEST(HwlocReader, PciOnlyGpusAndV1Xml) {
    auto r = read_hwloc_xml(fixture("psmgmt-juwels-booster-a100x4-hdr4.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->hostname, "jwb0004.juwels");
    EXPECT_EQ(r->gpus[0].name, "GPU0");
    EXPECT_EQ(r->gpus[0].pci_bus, "0000:03:00.0");
    EXPECT_EQ(r->gpus[0].model, "A100-SXM4-40GB");
    EXPECT_EQ(r->gpus[0].numa, 3);

    auto v1 = read_hwloc_xml(fixture("psmgmt-juwels-cluster-gpu-v100x4-hwloc1.xml"));
    ASSERT_TRUE(v1) << v1.error().to_string();
    EXPECT_EQ(v1->gpus[0].model, "Tesla V100-SXM2-16GB");
    EXPECT_EQ(v1->hostname, "jwc09n003.juwels");
    EXPECT_EQ(nearest_nics(*v1, 0), std::vector<std::string>{"mlx5_0"});
}

TEST(HwlocReader, MixedVendorsAndMovedTopologyInfo) {
    auto r = read_hwloc_xml(fixture("hwloc-32em64t-k40m-radeon-mlx5.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    // hwloc 3.x keeps HostName after the root object; the downgrade moves it back.
    EXPECT_EQ(r->hostname, "conan");
    ASSERT_EQ(r->gpus.size(), 2U);
    EXPECT_EQ(r->gpus[0].name, "cuda0");
    EXPECT_EQ(r->gpus[0].model, "Tesla K40m");
    EXPECT_EQ(r->gpus[1].name, "opencl0d1");  // the Radeon, OpenCL only
    EXPECT_EQ(r->gpus[1].pci_bus, "0000:84:00.1");
    // The two other NVIDIA 3D controllers have no GPU OS device: ignored with a warning.
    const auto ignored = std::count_if(r->warnings.begin(), r->warnings.end(), [](const std::string& w) {
        return w.find("no GPU OS device") != std::string::npos;
    });
    EXPECT_EQ(ignored, 2);
    ASSERT_EQ(r->nics.size(), 1U);
    EXPECT_EQ(r->nics[0].name, "mlx5_0");  // OpenFabrics name preferred over ib0
    EXPECT_EQ(r->nics[0].guid, "0x248a0703001e39fe");
}

TEST(HwlocReader, EfaNicWithoutGuid) {
    auto r = read_hwloc_xml(fixture("mpibind-aws-g4dn-metal-t4x8-efa.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    ASSERT_EQ(r->nics.size(), 1U);
    EXPECT_EQ(r->nics[0].name, "rdmap197s0");
    EXPECT_TRUE(r->nics[0].guid.empty());  // EFA reports an all-zero NodeGUID
    EXPECT_EQ(r->nics[0].numa, 1);
    EXPECT_EQ(r->gpu_nic[0][0], PathClass::Sys);
}

class HwlocErrors : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path()
               / ("topo-hwloc-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-"
                  + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
    }

    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }

    std::string write(const std::string& name, const std::string& content) {
        const auto p = (dir_ / name).string();
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }

    std::filesystem::path dir_;
};

TEST_F(HwlocErrors, MissingFileIsIo) {
    const auto path = (dir_ / "does-not-exist.xml").string();
    auto r = read_hwloc_xml(path);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::Io);
    EXPECT_NE(r.error().to_string().find("does-not-exist.xml"), std::string::npos);
}

TEST_F(HwlocErrors, GarbageXmlIsParseWithFileName) {
    for (const char* text :
         {"this is not XML at all\n", "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n  <object type=\"Machine\"",
          "<?xml version=\"1.0\"?>\n<notatopology/>\n"}) {
        const auto path = write("garbage.xml", text);
        auto r = read_hwloc_xml(path);
        ASSERT_FALSE(r) << text;
        EXPECT_EQ(r.error().code, Errc::Parse) << text;
        EXPECT_NE(r.error().to_string().find("garbage.xml"), std::string::npos) << r.error().to_string();
    }
}

TEST_F(HwlocErrors, EmptyAndBinaryFilesAreParse) {
    auto e = read_hwloc_xml(write("empty.xml", ""));
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().code, Errc::Parse);
    auto b = read_hwloc_xml(write("binary.xml", std::string("\x7f"
                                                            "ELF\x02\x01\x01\0\0\0\0\x03\x00",
                                                            14)));
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().code, Errc::Parse);
    EXPECT_NE(b.error().to_string().find("binary.xml"), std::string::npos);
}

TEST(HwlocLive, ThisMachineLoads) {
    auto r = read_hwloc_live();
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->source, "hwloc:live");
    EXPECT_GE(r->numa_nodes, 1);
    // No GPU on the build machines; NICs may or may not exist. Shapes must agree.
    if (!r->gpus.empty() && !r->nics.empty()) {
        EXPECT_EQ(r->gpu_nic.size(), r->gpus.size());
    } else {
        EXPECT_TRUE(r->gpu_nic.empty());
    }
}

TEST(HwlocReader, Dgx2hNvSwitchesAreEntitiesOfTheModel) {
    auto r = read_hwloc_xml(fixture("hwloc-nvidia-dgx2h-v100x16-nvswitch.xml"));
    ASSERT_TRUE(r) << r.error().to_string();
    // DGX-2H: 12 NVSwitches on two baseboards; each V100 has one NVLink to each of the
    // 6 switches of its baseboard (25 GB/s = 200 Gbit/s).
    ASSERT_EQ(r->nvswitches.size(), 12U);
    std::size_t cabled = 0;
    for (const auto& sw : r->nvswitches) {
        EXPECT_FALSE(sw.pci_bus.empty());
        cabled += sw.gpus.size();
        for (const auto& [g, gbps] : sw.gpus) EXPECT_DOUBLE_EQ(gbps, 200.0) << sw.pci_bus << " gpu " << g;
    }
    EXPECT_EQ(cabled, 16U * 6U);

    TopologyBuilder b;
    b.add_host("dgx2h", HostRole::Compute);
    b.apply_node_description("dgx2h", std::move(*r));
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t) << t.error().to_string();
    ASSERT_EQ((*t)->nvswitches().size(), 12U);
    EXPECT_EQ((*t)->summary().nvswitches, 12);
    // all 16 GPUs form one NVLink domain through the switches, and every switch is in it
    ASSERT_EQ((*t)->nvl_domains().size(), 1U);
    for (const auto& sw : (*t)->nvswitches()) {
        EXPECT_EQ(sw.nvl_domain, (*t)->gpu(GpuId(0)).nvl_domain);
        EXPECT_EQ(sw.gpus.size(), 8U);
    }
    auto back = from_snapshot_json(to_snapshot_json(**t), "dgx2h.json");
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ((*back)->nvswitches().size(), 12U);
    EXPECT_EQ((*back)->fingerprint(), (*t)->fingerprint());
}

}  // namespace
}  // namespace topo
