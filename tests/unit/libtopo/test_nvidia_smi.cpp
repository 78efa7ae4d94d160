// SPDX-License-Identifier: Apache-2.0
// The `nvidia-smi topo -m` reader: every fixture (tab-separated, space-aligned, ANSI
// header, GPU-only), the NIC legend, affinity columns, and malformed inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <topo/nvidia_smi_topo.hpp>
#include <topo/text_input.hpp>

#include "node_helpers.hpp"

namespace topo {
namespace {

std::string local_fixture(const std::string& name) {
    return test::fixture_path("nvidia-smi-topo", name);
}

std::string shared_fixture(const std::string& name) {
    return std::string(TOPO_SHARED_FIXTURES) + "/nvidia-smi-topo/" + name;
}

using test::nearest_nics;

struct Expect {
    const char* file;
    bool shared;  // only in TOPO_SHARED_FIXTURES (license), skipped when absent
    std::size_t gpus;
    std::size_t nics;
    std::size_t gpu;
    std::vector<std::string> nearest;
    PathClass cls;
    std::size_t nvlink_pairs;
    int nv_links;  // NV# of the pairs
};

class NvidiaSmiFixture : public ::testing::TestWithParam<Expect> {};

TEST_P(NvidiaSmiFixture, GpusNicsNearestNicAndLinks) {
    const Expect& e = GetParam();
    const std::string path = e.shared ? shared_fixture(e.file) : local_fixture(e.file);
    if (e.shared && !std::filesystem::exists(path)) GTEST_SKIP() << "not available: " << path;
    auto r = read_nvidia_smi_topo_file(path);
    ASSERT_TRUE(r) << r.error().to_string();
    const NodeDescription& nd = *r;
    EXPECT_EQ(nd.source, path);
    EXPECT_EQ(nd.gpus.size(), e.gpus);
    EXPECT_EQ(nd.nics.size(), e.nics);
    EXPECT_TRUE(nd.warnings.empty()) << nd.warnings.front();
    for (std::size_t i = 0; i < nd.gpus.size(); ++i) {
        EXPECT_EQ(nd.gpus[i].index, static_cast<int>(i));
        EXPECT_EQ(nd.gpus[i].name, "GPU" + std::to_string(i));
    }
    ASSERT_EQ(nd.nvlinks.size(), e.nvlink_pairs);
    for (const auto& p : nd.nvlinks) {
        EXPECT_LT(p.a, p.b);
        EXPECT_EQ(p.links, e.nv_links);
    }
    if (e.nics == 0) {
        EXPECT_TRUE(nd.gpu_nic.empty());
        return;
    }
    ASSERT_EQ(nd.gpu_nic.size(), nd.gpus.size());
    PathClass best = PathClass::Unknown;
    EXPECT_EQ(nearest_nics(nd, e.gpu, &best), e.nearest);
    EXPECT_EQ(best, e.cls) << path_class_name(best);
}

// Counts by hand: the GPU<n> and NIC<n> columns of each header (grep -c '^GPU[0-9]'
// and '^NIC[0-9]'); NIC names from the "NIC Legend:" block.
INSTANTIATE_TEST_SUITE_P(
    NvidiaSmiFiles, NvidiaSmiFixture,
    ::testing::Values(
        // 4 visible H800 in a container, 17 NICs, ANSI header, empty affinity columns.
        Expect{"mlsys-tutorial-h800x4-17nic-ansi.topo-m.txt",
               false,
               4,
               17,
               0,
               {"mlx5_4", "mlx5_13"},
               PathClass::Pix,
               6,
               8},
        Expect{"mlsys-tutorial-nv18x8-gpuonly.topo-m.txt", false, 8, 0, 0, {}, PathClass::Unknown, 28, 18},
        Expect{"mlsys-tutorial-pcie8-allsys.topo-m.txt", false, 8, 0, 0, {}, PathClass::Unknown, 0, 0},
        Expect{
            "oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt", false, 8, 10, 0, {"mlx5_0", "mlx5_1"}, PathClass::Pxb, 28, 12},
        Expect{"stelline-asus-esc8000a-e12.topo-m.txt", false, 4, 4, 2, {"mlx5_2", "mlx5_3"}, PathClass::Node, 0, 0},
        Expect{"stelline-puget-threadripper-pro-wrx90.topo-m.txt",
               false,
               2,
               2,
               0,
               {"mlx5_0", "mlx5_1"},
               PathClass::Node,
               0,
               0},
        // Ours (written for the tests, see PROVENANCE.md): the glm52 layout, three NICs
        // behind GPU3's PCIe switch, tab-separated with a NIC Legend; runs without ../shared.
        Expect{"topoplace-h200x8-10nic-shared-switch.topo-m.txt",
               false,
               8,
               10,
               3,
               {"mlx5_0", "mlx5_1", "mlx5_2"},
               PathClass::Pix,
               28,
               18},
        Expect{"glm52-h200x8-10nic.topo-m.txt", true, 8, 10, 3, {"mlx5_0", "mlx5_1", "mlx5_2"}, PathClass::Pix, 28, 18},
        Expect{"sglang-issue30401-h100x8-8nic.topo-m.txt", true, 8, 8, 5, {"mlx5_5"}, PathClass::Pix, 28, 18}),
    test::file_param_name<Expect>);

TEST(NvidiaSmiTopo, DgxA100Nps4AffinityAndNicNuma) {
    auto r = read_nvidia_smi_topo_file(local_fixture("oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt"));
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->gpus[0].numa, 3);
    EXPECT_EQ(r->gpus[2].numa, 1);
    EXPECT_EQ(r->gpus[6].numa, 5);
    EXPECT_EQ(r->numa_nodes, 8);     // largest NUMA id 7
    EXPECT_EQ(r->nics[0].numa, 3);   // PXB to GPU0
    EXPECT_EQ(r->nics[8].numa, -1);  // mlx5_8/9 are SYS to every GPU
    EXPECT_EQ(r->gpu_nic[7][7], PathClass::Pxb);
}

TEST(NvidiaSmiTopo, GlmH200SeveralNicsOnOneSwitch) {
    const auto path = shared_fixture("glm52-h200x8-10nic.topo-m.txt");
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "not available: " << path;
    auto r = read_nvidia_smi_topo_file(path);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(nearest_nics(*r, 0), std::vector<std::string>{"mlx5_3"});
    EXPECT_EQ(nearest_nics(*r, 7), std::vector<std::string>{"mlx5_6"});
    EXPECT_EQ(r->gpus[4].numa, 1);
    EXPECT_EQ(r->nics[9].numa, 1);
}

TEST(NvidiaSmiTopo, AnsiHeaderWithEmptyAffinity) {
    auto r = read_nvidia_smi_topo_file(local_fixture("mlsys-tutorial-h800x4-17nic-ansi.topo-m.txt"));
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->nics[16].name, "mlx5_16");
    EXPECT_EQ(r->gpus[0].numa, -1);
    EXPECT_EQ(r->numa_nodes, 0);
    EXPECT_EQ(r->gpu_nic[3][16], PathClass::Pix);
}

// Pre-legend nvidia-smi: NIC columns named after the device, "SOC" for SYS, spaces.
TEST(NvidiaSmiTopo, OldStyleSocAndNamedNicColumns) {
    const std::string text =
        "        GPU0    GPU1    mlx5_0  CPU Affinity\n"
        "GPU0     X      SOC     PHB     0-9\n"
        "GPU1    SOC      X      SOC     10-19\n"
        "mlx5_0  PHB     SOC      X      \n"
        "\n"
        "Legend:\n"
        "  SOC  = Connection traversing PCIe as well as the SMP link between CPU sockets(e.g. QPI)\n";
    auto r = parse_nvidia_smi_topo(text, "old.txt");
    ASSERT_TRUE(r) << r.error().to_string();
    ASSERT_EQ(r->nics.size(), 1U);
    EXPECT_EQ(r->nics[0].name, "mlx5_0");
    EXPECT_EQ(r->gpu_nic[0][0], PathClass::Phb);
    EXPECT_EQ(r->gpu_nic[1][0], PathClass::Sys);
    EXPECT_TRUE(r->nvlinks.empty());
}

TEST(NvidiaSmiTopo, LeadingTextIsIgnored) {
    const std::string text =
        "$ nvidia-smi topo -m\n"
        "NVIDIA Topology:\n"
        "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
        "GPU0\t X \tNV4\t0-7\t0\n"
        "GPU1\tNV4\t X \t0-7\t0\n";
    auto r = parse_nvidia_smi_topo(text, "t.txt");
    ASSERT_TRUE(r) << r.error().to_string();
    ASSERT_EQ(r->nvlinks.size(), 1U);
    EXPECT_EQ(r->nvlinks[0].links, 4);
    EXPECT_EQ(r->numa_nodes, 1);
}

Error parse_error(const std::string& text) {
    auto r = parse_nvidia_smi_topo(text, "bad.txt");
    EXPECT_FALSE(r);
    return r ? Error{} : r.error();
}

TEST(NvidiaSmiErrors, EmptyInput) {
    for (const char* text : {"", "\n\n   \n"}) {
        const Error e = parse_error(text);
        EXPECT_EQ(e.code, Errc::Parse);
        EXPECT_EQ(e.file, "bad.txt");
        EXPECT_GE(e.line, 1);
    }
}

TEST(NvidiaSmiErrors, NoGpuHeader) {
    const Error e = parse_error("No devices were found\nplease check the driver\n");
    EXPECT_EQ(e.code, Errc::Parse);
    EXPECT_NE(e.message.find("no GPU header"), std::string::npos) << e.message;
    EXPECT_EQ(e.line, 2);
}

TEST(NvidiaSmiErrors, WrongCellCountNamesTheLine) {
    const Error e = parse_error(
        "\tGPU0\tGPU1\tNIC0\n"
        "GPU0\t X \tNV2\tPIX\n"
        "GPU1\tNV2\t X \n"  // one cell short
        "NIC0\tPIX\tSYS\t X \n");
    EXPECT_EQ(e.code, Errc::Parse);
    EXPECT_EQ(e.line, 3);
    EXPECT_NE(e.to_string().find("bad.txt:3:"), std::string::npos) << e.to_string();
    EXPECT_NE(e.message.find("GPU1"), std::string::npos) << e.message;

    const Error too_many = parse_error(
        "        GPU0    GPU1\n"
        "GPU0     X      NV2\n"
        "GPU1    NV2      X      PIX    SYS\n");
    EXPECT_EQ(too_many.line, 3);
}

TEST(NvidiaSmiErrors, TruncatedMatrix) {
    // A real fixture cut after its third matrix row, in the middle of the fourth.
    auto full = read_text_file(local_fixture("stelline-asus-esc8000a-e12.topo-m.txt"));
    ASSERT_TRUE(full) << full.error().to_string();
    const auto lines = split_lines(*full);
    std::string cut;
    for (int i = 0; i < 3; ++i) cut += std::string(lines[static_cast<std::size_t>(i)]) + "\n";
    cut += std::string(lines[3].substr(0, 22));  // "GPU2    SYS     SYS   "
    const Error mid_row = parse_error(cut);
    EXPECT_EQ(mid_row.code, Errc::Parse);
    EXPECT_EQ(mid_row.line, 4);

    // Cut between rows: every device of the header must have its row.
    std::string rows_missing;
    for (int i = 0; i < 4; ++i) rows_missing += std::string(lines[static_cast<std::size_t>(i)]) + "\n";
    const Error missing = parse_error(rows_missing);
    EXPECT_EQ(missing.code, Errc::Parse);
    EXPECT_NE(missing.message.find("truncated"), std::string::npos) << missing.message;
    EXPECT_NE(missing.message.find("GPU3"), std::string::npos) << missing.message;
    EXPECT_EQ(missing.line, 5);
}

TEST(NvidiaSmiErrors, UnknownCellToken) {
    const Error e = parse_error(
        "\tGPU0\tGPU1\n"
        "GPU0\t X \tNVX\n"
        "GPU1\tNV2\t X \n");
    EXPECT_EQ(e.code, Errc::Parse);
    EXPECT_EQ(e.line, 2);
    EXPECT_NE(e.message.find("NVX"), std::string::npos) << e.message;

    const Error off_diag = parse_error(
        "\tGPU0\tGPU1\n"
        "GPU0\tPIX\t X \n"
        "GPU1\t X \tPIX\n");
    EXPECT_EQ(off_diag.line, 2);
}

TEST(NvidiaSmiErrors, UnknownAndDuplicateRows) {
    const Error unknown = parse_error("\tGPU0\n GPU0\t X \nGPU7\t X \n");
    EXPECT_EQ(unknown.code, Errc::Parse);
    const Error dup = parse_error("\tGPU0\nGPU0\t X \nGPU0\t X \n");
    EXPECT_EQ(dup.code, Errc::Parse);
    EXPECT_EQ(dup.line, 3);
}

TEST(NvidiaSmiErrors, BinaryData) {
    std::string bin = "\tGPU0\tGPU1\nGPU0\t X";
    bin += std::string("\0\x01\x02\x03\x04\x05\x06\x07\x08", 9);
    bin += "\n\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\n";
    const Error e = parse_error(bin);
    EXPECT_EQ(e.code, Errc::Parse);
    EXPECT_EQ(e.line, 2);
    EXPECT_NE(e.message.find("binary"), std::string::npos) << e.message;
}

TEST(NvidiaSmiErrors, MissingFileIsIo) {
    auto r = read_nvidia_smi_topo_file(local_fixture("no-such-file.topo-m.txt"));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::Io);
}

// Never crash: every prefix of a real matrix either parses or is a Parse error.
TEST(NvidiaSmiErrors, EveryPrefixIsHandled) {
    auto full = read_text_file(local_fixture("oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt"));
    ASSERT_TRUE(full);
    for (std::size_t n = 0; n <= full->size(); n += 7) {
        auto r = parse_nvidia_smi_topo(std::string_view(*full).substr(0, n), "prefix.txt");
        if (!r) {
            EXPECT_EQ(r.error().code, Errc::Parse) << n;
        }
    }
}

}  // namespace
}  // namespace topo
