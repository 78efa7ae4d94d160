// SPDX-License-Identifier: Apache-2.0
// The snapshot loader fills the model straight from its tables (no TopologyBuilder).
// For every real input we import, the loaded model must be the one that was saved:
// same fingerprint, byte-identical re-serialisation, same answers to queries.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/nvidia_smi_topo.hpp>
#include <topo/snapshot.hpp>

#include "fixture_models.hpp"
#ifdef TOPO_HAVE_HWLOC
#include <topo/hwloc_reader.hpp>
#endif

namespace fs = std::filesystem;
using namespace topo;

namespace {

void expect_round_trip(const Topology& t, const std::string& what) {
    SCOPED_TRACE(what);
    const std::string js = to_snapshot_json(t);
    auto back = from_snapshot_json(js, what + ".json");
    ASSERT_TRUE(back) << back.error().to_string();
    const Topology& u = **back;
    EXPECT_EQ(u.fingerprint(), t.fingerprint());
    EXPECT_EQ(to_snapshot_json(u), js);
    ASSERT_EQ(u.hosts().size(), t.hosts().size());
    EXPECT_EQ(u.tiers(), t.tiers());
    EXPECT_EQ(u.rails(), t.rails());
    EXPECT_EQ(u.groups().size(), t.groups().size());
    for (std::size_t i = 0; i < t.groups().size(); ++i) {
        EXPECT_EQ(u.groups()[i].hosts, t.groups()[i].hosts);
        EXPECT_EQ(u.groups()[i].leaves, t.groups()[i].leaves);
    }
    for (std::size_t i = 0; i < t.hosts().size(); i += 1 + t.hosts().size() / 50) {
        const HostId a(static_cast<std::uint32_t>(i));
        const HostId b(static_cast<std::uint32_t>(t.hosts().size() - 1 - i));
        EXPECT_EQ(u.leaves_of(a), t.leaves_of(a));
        EXPECT_EQ(u.lowest_common_tier(a, b), t.lowest_common_tier(a, b));
        EXPECT_EQ(u.hop_count(a, b), t.hop_count(a, b));
        EXPECT_EQ(u.find_host(t.host(a).name), std::optional<HostId>(a));
    }
    for (std::size_t g = 0; g < t.gpus().size(); ++g) {
        const GpuId id(static_cast<std::uint32_t>(g));
        EXPECT_EQ(u.nearest_nics(id), t.nearest_nics(id));
        EXPECT_EQ(u.nvl_domain_of(id), t.nvl_domain_of(id));
    }
}

}  // namespace

TEST(SnapshotLoad, EveryIbnetdiscoverFixtureRoundTrips) {
    EXPECT_GE(test::for_each_fixture_model("ibnetdiscover", expect_round_trip), 11);
}

TEST(SnapshotLoad, ClusterSpecsRoundTrip) {
    const int n = test::for_each_fixture_model("specs", [](const Topology& t, const std::string& path) {
        if (path.find("nvl72") != std::string::npos) {
            EXPECT_EQ(t.nvl_domains().size(), 4U) << path;
        }
        expect_round_trip(t, path);
    });
    EXPECT_GE(n, 2);
}

TEST(SnapshotLoad, NodeLocalityRoundTrips) {
    EXPECT_GE(test::for_each_fixture_model("nodes", expect_round_trip), 6);
}

TEST(SnapshotLoad, CorruptTablesAreParseErrorsNotCrashes) {
    TopologyBuilder b;
    ASSERT_TRUE(load_cluster_spec(std::string(TOPO_FIXTURES) + "/specs/dgx-h100-3tier.yaml", b));
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t);
    const std::string good = to_snapshot_json(**t);
    auto mutate = [&](const std::string& from, const std::string& to) {
        std::string s = good;
        const auto p = s.find(from);
        EXPECT_NE(p, std::string::npos) << from;
        if (p != std::string::npos) s.replace(p, from.size(), to);
        return from_snapshot_json(s, "bad.json");
    };
    // a NIC row pointing at host 99999, a link to switch 99999, a GPU row with a bad host
    const auto nics_at = good.find("\"nics\"");
    const auto row = good.find("[0,", nics_at);
    ASSERT_NE(row, std::string::npos);
    std::string s = good;
    s.replace(row, 3, "[99999,");
    auto r = from_snapshot_json(s, "bad.json");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::Parse);
    EXPECT_NE(r.error().to_string().find("bad.json"), std::string::npos);
    EXPECT_NE(r.error().message.find("out of range"), std::string::npos) << r.error().message;
    auto m = mutate("\"kind\"]", "\"colour\"]");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, Errc::Parse);
}

TEST(SnapshotLoad, VersionOneFilesStillLoad) {
    TopologyBuilder b;
    ASSERT_TRUE(load_cluster_spec(std::string(TOPO_FIXTURES) + "/specs/gb200-nvl72x4.yaml", b));
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t);
    std::string v2 = to_snapshot_json(**t);
    ASSERT_NE(v2.find("\"version\": 2,"), std::string::npos);
    // a version-1 writer wrote neither the nvswitches table nor its summary key
    std::string v1 = v2;
    v1.replace(v1.find("\"version\": 2,"), 13, "\"version\": 1,");
    const auto a = v1.find("  \"nvswitches\": {");
    ASSERT_NE(a, std::string::npos);
    v1.erase(a, v1.find('\n', a) + 1 - a);
    auto back = from_snapshot_json(v1, "v1.json");
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ((*back)->fingerprint(), (*t)->fingerprint());
    // and a version-2 file without the table is an error that says which table
    std::string broken = v2;
    const auto c = broken.find("  \"nvswitches\": {");
    broken.erase(c, broken.find('\n', c) + 1 - c);
    auto bad = from_snapshot_json(broken, "v2.json");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("nvswitches"), std::string::npos) << bad.error().message;
}

// Regression: a matrix whose NICs only partly match the host's (the spec names 8 rail
// NICs, the DGX A100 matrix 10 others too) left "?" cells that the loader turned into
// Unknown paths, so the reloaded model hashed differently ("fingerprint mismatch").
TEST(SnapshotLoad, PartlyMatchingNicMatrixRoundTrips) {
    TopologyBuilder b;
    ASSERT_TRUE(load_cluster_spec(std::string(TOPO_FIXTURES) + "/specs/dgx-h100-3tier.yaml", b));
    auto nd = read_nvidia_smi_topo_file(std::string(TOPO_FIXTURES)
                                        + "/nvidia-smi-topo/oyanghd-dgx-a100-epyc7742-nps4.topo-m.txt");
    ASSERT_TRUE(nd) << nd.error().to_string();
    for (const char* h : {"dgx001", "dgx077"}) b.apply_node_description(h, *nd);
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t) << t.error().to_string();
    expect_round_trip(**t, "spec+matrix");
}
