// SPDX-License-Identifier: Apache-2.0
// The model: freeze() inference (tiers, rails, groups, domains), queries, snapshot.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <topo/builder.hpp>
#include <topo/snapshot.hpp>

namespace topo {
namespace {

// 2 scalable units x 2 hosts, 2 rails: host NIC k -> leaf su<u>-r<k>; leaves -> 2 spines.
struct Cable {
    std::string host, nic, leaf;
};

std::vector<std::function<void(TopologyBuilder&)>> small_fabric_steps() {
    std::vector<std::function<void(TopologyBuilder&)>> steps;
    for (const char* s : {"spine1", "spine2"}) {
        steps.emplace_back([s](TopologyBuilder& b) { b.add_switch(Switch{s, s, "", 36, -1, Provenance::Discovered}); });
    }
    for (int su = 1; su <= 2; ++su) {
        for (int r = 0; r < 2; ++r) {
            const std::string leaf = "su" + std::to_string(su) + "-r" + std::to_string(r);
            steps.emplace_back([leaf](TopologyBuilder& b) {
                b.add_switch(Switch{leaf, leaf, "", 36, -1, Provenance::Discovered});
            });
            for (const char* s : {"spine1", "spine2"}) {
                steps.emplace_back(
                    [leaf, s, r](TopologyBuilder& b) { b.add_switch_link(leaf, 20 + r, s, 1, 200, "4xHDR"); });
            }
            for (int h = 1; h <= 2; ++h) {
                const std::string host = "gpu" + std::to_string((su - 1) * 2 + h);
                steps.emplace_back([host, leaf, r, h](TopologyBuilder& b) {
                    Nic n;
                    n.name = "mlx5_" + std::to_string(r);
                    n.guid = "0x" + std::to_string(1000 + r) + host;
                    n.leaf_port = h;
                    n.rate_gbps = 200;
                    b.add_host(host, HostRole::Compute);
                    b.add_nic(host, n, leaf);
                });
            }
        }
    }
    return steps;
}

TopologyPtr build(bool shuffled, unsigned seed = 1) {
    auto steps = small_fabric_steps();
    if (shuffled) {
        // switches must exist before links resolve only at freeze, so any order works
        std::mt19937 rng(seed);
        std::shuffle(steps.begin(), steps.end(), rng);
    }
    TopologyBuilder b;
    for (auto& s : steps) s(b);
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t.has_value()) << (t ? "" : t.error().to_string());
    return *t;
}

TEST(Model, InfersTiersRailsAndGroups) {
    auto t = build(false);
    const Summary s = t->summary();
    EXPECT_EQ(s.hosts, 4);
    EXPECT_EQ(s.switches, 6);
    EXPECT_EQ(s.tiers, 2);
    EXPECT_EQ(s.rails, 2);
    ASSERT_EQ(t->groups().size(), 2U);
    EXPECT_EQ(t->groups()[0].hosts.size(), 2U);
    EXPECT_EQ(t->sw(*t->find_switch("spine1")).tier, 1);
    EXPECT_EQ(t->sw(*t->find_switch("su1-r0")).tier, 0);
    const HostId g1 = *t->find_host("gpu1");
    const HostId g2 = *t->find_host("gpu2");
    const HostId g3 = *t->find_host("gpu3");
    EXPECT_EQ(t->group_of(g1), t->group_of(g2));
    EXPECT_NE(t->group_of(g1), t->group_of(g3));
    EXPECT_EQ(t->lowest_common_tier(g1, g2), 0);
    EXPECT_EQ(t->lowest_common_tier(g1, g3), 1);
    EXPECT_EQ(t->hop_count(g1, g2), 2);
    EXPECT_EQ(t->hop_count(g1, g3), 4);
    EXPECT_EQ(t->hop_count(g1, g1), 0);
    // rail of NIC k is k; leaves of a host come in rail order
    for (auto nid : t->host(g3).nics) {
        const Nic& n = t->nic(nid);
        EXPECT_EQ(n.rail, n.name == "mlx5_0" ? 0 : 1);
    }
    auto leaves = t->leaves_of(g3);
    ASSERT_EQ(leaves.size(), 2U);
    EXPECT_EQ(t->sw(leaves[0]).name, "su2-r0");
    EXPECT_EQ(t->sw(leaves[1]).name, "su2-r1");
    EXPECT_EQ(t->uplinks(leaves[0]).size(), 2U);
}

TEST(Model, SnapshotIsDeterministicAndIndependentOfInputOrder) {
    const std::string a = to_snapshot_json(*build(false));
    for (unsigned seed = 1; seed <= 5; ++seed) {
        EXPECT_EQ(to_snapshot_json(*build(true, seed)), a) << "seed " << seed;
    }
}

TEST(Model, SnapshotRoundTripsByteForByte) {
    auto t = build(false);
    const std::string a = to_snapshot_json(*t);
    auto back = from_snapshot_json(a, "mem.json");
    ASSERT_TRUE(back.has_value()) << back.error().to_string();
    EXPECT_EQ(to_snapshot_json(**back), a);
    EXPECT_EQ((*back)->fingerprint(), t->fingerprint());
    EXPECT_NE(a.find("\"schema\": \"topoplace.snapshot\""), std::string::npos);
    EXPECT_NE(a.find("\"version\": 2"), std::string::npos);
}

TEST(Model, SnapshotErrorsNameTheFile) {
    auto r = from_snapshot_json("{\n  \"schema\": \"topoplace.snapshot\",\n  \"version\": 1,\n  oops\n}", "bad.json");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, Errc::Parse);
    EXPECT_EQ(r.error().file, "bad.json");
    EXPECT_EQ(r.error().line, 4);
    auto v = from_snapshot_json(R"({"schema": "topoplace.snapshot", "version": 99})", "new.json");
    ASSERT_FALSE(v.has_value());
    EXPECT_EQ(v.error().code, Errc::Parse);
    EXPECT_NE(v.error().message.find("written by a newer topoplace"), std::string::npos);
    auto o = from_snapshot_json(R"({"schema": "something-else", "version": 1})", "other.json");
    ASSERT_FALSE(o.has_value());
    EXPECT_EQ(o.error().code, Errc::Parse);
    // tampered content: fingerprint no longer matches
    std::string good = to_snapshot_json(*build(false));
    const auto pos = good.find("\"gpu4\"");
    ASSERT_NE(pos, std::string::npos);
    good.replace(pos, 6, "\"gpu9\"");
    auto tampered = from_snapshot_json(good, "t.json");
    ASSERT_FALSE(tampered.has_value());
    EXPECT_NE(tampered.error().message.find("fingerprint mismatch"), std::string::npos);
    auto empty = from_snapshot_json("", "empty.json");
    ASSERT_FALSE(empty.has_value());
    EXPECT_EQ(empty.error().code, Errc::Parse);
}

TEST(Model, RejectsDuplicateNicGuidsAndUnknownSwitches) {
    {
        TopologyBuilder b;
        b.add_switch(Switch{"leaf", "leaf", "", 0, -1, Provenance::Discovered});
        Nic n;
        n.name = "mlx5_0";
        n.guid = "0xabc";
        b.add_nic("a", n, "leaf");
        b.add_nic("b", n, "leaf");
        auto t = std::move(b).freeze();
        ASSERT_FALSE(t.has_value());
        EXPECT_NE(t.error().message.find("duplicate NIC GUID 0xabc"), std::string::npos);
    }
    {
        TopologyBuilder b;
        b.add_switch(Switch{"leaf", "leaf", "", 0, -1, Provenance::Discovered});
        b.add_switch_link("leaf", 1, "ghost", 2, 100, "4xEDR");
        auto t = std::move(b).freeze();
        ASSERT_FALSE(t.has_value());
        EXPECT_EQ(t.error().code, Errc::Parse);
        EXPECT_NE(t.error().message.find("ghost"), std::string::npos);
    }
}

NodeDescription two_by_two() {
    NodeDescription nd;
    nd.source = "test";
    for (int i = 0; i < 4; ++i) nd.gpus.push_back({i, "GPU" + std::to_string(i), "H100", "", "", i / 2});
    nd.nics.push_back({"mlx5_0", "", "", 0, 400});
    nd.nics.push_back({"mlx5_1", "", "", 1, 400});
    using P = PathClass;
    nd.gpu_nic = {{P::Pix, P::Sys}, {P::Pxb, P::Sys}, {P::Sys, P::Pix}, {P::Sys, P::Node}};
    nd.nvlinks = {{0, 1, 12, 0}, {2, 3, 12, 0}};
    return nd;
}

// One XML for several hosts (`--hwloc 'dgx[1-2]=dgx.xml'`): its NIC GUIDs identify none
// of them; they are dropped with a warning naming the file, not a duplicate-GUID error.
// A description GUID that is another host's fabric NIC is an error naming the file.
TEST(Model, NodeDescriptionGuidsOnSeveralHosts) {
    NodeDescription nd = two_by_two();
    nd.source = "dgx.xml";
    nd.nics[0].guid = "0x1000";
    nd.nics[1].guid = "0x1001";
    {
        TopologyBuilder b;
        b.apply_node_description("dgx1", nd);
        b.apply_node_description("dgx2", nd);
        auto t = std::move(b).freeze();
        ASSERT_TRUE(t.has_value()) << t.error().to_string();
        for (const auto& n : (*t)->nics()) EXPECT_EQ(n.guid, "") << n.name;
        const auto& w = (*t)->warnings();
        ASSERT_EQ(w.size(), 1U);
        EXPECT_EQ(w[0],
                  "dgx.xml: given for 2 hosts (dgx1, dgx2); its NIC GUIDs identify none of them and are left out");
    }
    {  // one host: the GUIDs are kept
        TopologyBuilder b;
        b.apply_node_description("dgx1", nd);
        auto t = std::move(b).freeze();
        ASSERT_TRUE(t.has_value());
        EXPECT_EQ((*t)->nic((*t)->host(HostId(0)).nics[0]).guid, "0x1000");
    }
    {  // the fabric says 0x1000 is dgx1's HCA; the XML is given for dgx2
        TopologyBuilder b;
        b.add_switch(Switch{"leaf", "leaf", "", 0, -1, Provenance::Discovered});
        Nic n;
        n.name = "HCA-1";
        n.guid = "0x1000";
        b.add_nic("dgx1", n, "leaf");
        b.apply_node_description("dgx2", nd);
        auto t = std::move(b).freeze();
        ASSERT_FALSE(t.has_value());
        EXPECT_EQ(t.error().code, Errc::Parse);
        EXPECT_EQ(t.error().file, "dgx.xml");
        EXPECT_NE(
            t.error().message.find("NIC GUID 0x1000 (mlx5_0, given for host dgx2) is the fabric NIC of host dgx1"),
            std::string::npos)
            << t.error().message;
    }
}

TEST(Model, NodeDescriptionGivesNearestNicsAndNvlinkDomains) {
    TopologyBuilder b;
    b.apply_node_description("dgx1", two_by_two());
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t.has_value());
    const Host& h = (*t)->host(*(*t)->find_host("dgx1"));
    ASSERT_EQ(h.gpus.size(), 4U);
    ASSERT_EQ(h.nics.size(), 2U);
    EXPECT_EQ(h.role, HostRole::Compute);
    auto near = (*t)->nearest_nics(h.gpus[3]);
    ASSERT_EQ(near.size(), 1U);
    EXPECT_EQ((*t)->nic(near[0]).name, "mlx5_1");
    EXPECT_EQ((*t)->path(h.gpus[0], h.nics[1]), PathClass::Sys);
    EXPECT_EQ((*t)->summary().nvlink_domains, 2);
    EXPECT_EQ((*t)->nvl_domain_of(h.gpus[0]), (*t)->nvl_domain_of(h.gpus[1]));
    EXPECT_NE((*t)->nvl_domain_of(h.gpus[0]), (*t)->nvl_domain_of(h.gpus[2]));
    // locality survives the snapshot
    auto back = from_snapshot_json(to_snapshot_json(**t), "x");
    ASSERT_TRUE(back.has_value()) << back.error().to_string();
    EXPECT_EQ(to_snapshot_json(**back), to_snapshot_json(**t));
    EXPECT_EQ((*back)->nic((*back)->nearest_nics((*back)->host(HostId(0)).gpus[3])[0]).name, "mlx5_1");
}

TEST(Model, MultiNodeNvlinkDomainOverridesHostIslands) {
    TopologyBuilder b;
    std::vector<std::string> rack;
    for (int i = 1; i <= 18; ++i) {
        const std::string h = "gb" + std::to_string(i);
        rack.push_back(h);
        b.apply_node_description(h, two_by_two());
    }
    b.add_nvl_domain("rack01", rack, 16);
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ((*t)->summary().nvlink_domains, 1);
    const NvlDomain& d = (*t)->nvl_domains()[0];
    EXPECT_TRUE(d.multi_node);
    EXPECT_EQ(d.hosts.size(), 18U);
    EXPECT_EQ(d.gpus.size(), 72U);
    EXPECT_EQ(d.usable_hosts, 16);
    auto back = from_snapshot_json(to_snapshot_json(**t), "x");
    ASSERT_TRUE(back.has_value()) << back.error().to_string();
    EXPECT_EQ(to_snapshot_json(**back), to_snapshot_json(**t));
}

TEST(Model, NaturalOrder) {
    EXPECT_TRUE(natural_less("gpu2", "gpu10"));
    EXPECT_FALSE(natural_less("gpu10", "gpu2"));
    EXPECT_TRUE(natural_less("mlx5_2", "mlx5_10"));
    EXPECT_TRUE(natural_less("a", "b"));
    EXPECT_FALSE(natural_less("a", "a"));
    EXPECT_TRUE(natural_less("n01", "n1") != natural_less("n1", "n01"));
}

}  // namespace
}  // namespace topo

namespace topo {
namespace {

TEST(Model, InvalidUtf8IsRepairedSoSnapshotsRoundTrip) {
    TopologyBuilder b;
    b.add_switch(Switch{"0x1", "sw\xff\xfe", "desc \xc3", 36, -1, Provenance::Discovered});
    Nic n;
    n.name = "mlx5_0";
    n.guid = "0x2";
    // A host name must be a node name (issue 17): "host\x80" is refused, not repaired.
    {
        TopologyBuilder bad;
        bad.add_nic("host\x80", n, "");
        auto r = std::move(bad).freeze();
        ASSERT_FALSE(r.has_value());
        EXPECT_NE(r.error().message.find("\"host?\" is not a valid node name"), std::string::npos) << r.error().message;
    }
    b.add_nic("host1", n, "0x1");
    auto t = std::move(b).freeze();
    ASSERT_TRUE(t.has_value()) << t.error().to_string();
    EXPECT_TRUE((*t)->find_host("host1").has_value());
    const std::string js = to_snapshot_json(**t);
    auto back = from_snapshot_json(js, "x");
    ASSERT_TRUE(back.has_value()) << back.error().to_string();
    EXPECT_EQ(to_snapshot_json(**back), js);
}

}  // namespace
}  // namespace topo
