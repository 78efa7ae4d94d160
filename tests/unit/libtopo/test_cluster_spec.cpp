// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/topology.hpp>

#include "../common/fabric_builders.hpp"

namespace {

const std::string kSpecs = std::string(TOPO_FIXTURES) + "/specs/";

topo::TopologyPtr build_file(const std::string& path) {
    topo::TopologyBuilder b;
    auto st = topo::load_cluster_spec(path, b);
    EXPECT_TRUE(st.has_value()) << (st ? "" : st.error().to_string());
    return topo::testing::freeze(std::move(b));
}

topo::TopologyPtr build_text(std::string_view text) {
    topo::TopologyBuilder b;
    auto st = topo::apply_cluster_spec_text(text, "spec.yaml", b);
    EXPECT_TRUE(st.has_value()) << (st ? "" : st.error().to_string());
    return topo::testing::freeze(std::move(b));
}

topo::Error spec_error(std::string_view text) {
    topo::TopologyBuilder b;
    auto st = topo::apply_cluster_spec_text(text, "spec.yaml", b);
    EXPECT_FALSE(st.has_value()) << text;
    if (st) {
        return {};
    }
    EXPECT_EQ(st.error().code, topo::Errc::Parse);
    // Nothing was added on error.
    EXPECT_EQ(b.host_count(), 0U);
    EXPECT_EQ(b.switch_count(), 0U);
    return st.error();
}

std::map<int, int> tier_histogram(const topo::Topology& t) {
    std::map<int, int> h;
    for (const auto& s : t.switches()) {
        ++h[s.tier];
    }
    return h;
}

TEST(ClusterSpecFixtures, Gb200Nvl72x4) {
    auto t = build_file(kSpecs + "gb200-nvl72x4.yaml");
    ASSERT_TRUE(t);
    auto s = t->summary();
    EXPECT_EQ(t->hosts().size(), 74U);
    EXPECT_EQ(s.compute_hosts, 72);
    EXPECT_EQ(s.service_hosts, 2);
    EXPECT_EQ(t->gpus().size(), 288U);
    EXPECT_EQ(t->nics().size(), 288U);
    // 4 racks x 4 rails leaves, 2 spines per rail.
    EXPECT_EQ(t->switches().size(), 24U);
    EXPECT_EQ(t->tiers(), 2);
    EXPECT_EQ(t->rails(), 4);
    EXPECT_EQ(tier_histogram(*t), (std::map<int, int>{{0, 16}, {1, 8}}));
    std::vector<const topo::NvlDomain*> racks;
    for (const auto& d : t->nvl_domains()) {
        if (d.multi_node) {
            racks.push_back(&d);
        }
    }
    ASSERT_EQ(racks.size(), 4U);
    EXPECT_EQ(racks[0]->name, "rack01");
    EXPECT_EQ(racks[3]->name, "rack04");
    for (const auto* d : racks) {
        EXPECT_EQ(d->hosts.size(), 18U) << d->name;
        EXPECT_EQ(d->usable_hosts, 16) << d->name;
    }
    EXPECT_EQ(t->host(racks[1]->hosts.front()).name, "gb019");
    auto gb = t->find_host("gb001");
    ASSERT_TRUE(gb.has_value());
    const auto& host = t->host(*gb);
    ASSERT_EQ(host.gpus.size(), 4U);
    EXPECT_EQ(t->gpu(host.gpus[0]).model, "NVIDIA GB200");
    ASSERT_EQ(host.nics.size(), 4U);
    EXPECT_EQ(t->nic(host.nics[3]).name, "mlx5_3");
    EXPECT_EQ(t->sw(t->nic(host.nics[3]).leaf).name, "leaf-su01-r3");
    EXPECT_EQ(t->nic(host.nics[3]).rate_gbps, 400);
    auto gb019 = t->find_host("gb019");
    ASSERT_TRUE(gb019.has_value());
    EXPECT_EQ(t->lowest_common_tier(*gb, *gb019), 1);
    auto login = t->find_host("login1");
    ASSERT_TRUE(login.has_value());
    EXPECT_EQ(t->host(*login).role, topo::HostRole::Service);
}

TEST(ClusterSpecFixtures, DgxH100ThreeTier) {
    auto t = build_file(kSpecs + "dgx-h100-3tier.yaml");
    ASSERT_TRUE(t);
    auto s = t->summary();
    EXPECT_EQ(s.compute_hosts, 128);
    EXPECT_EQ(s.service_hosts, 3);
    EXPECT_EQ(t->gpus().size(), 1024U);
    EXPECT_EQ(t->nics().size(), 1024U);
    // 4 SUs x 8 rails leaves; 2 pods x 8 rails x 4 spines; 8 rails x 2 cores.
    EXPECT_EQ(tier_histogram(*t), (std::map<int, int>{{0, 32}, {1, 64}, {2, 16}}));
    EXPECT_EQ(t->tiers(), 3);
    EXPECT_EQ(t->rails(), 8);
    std::size_t switch_links = 0;
    for (const auto& l : t->links()) {
        switch_links += l.nic.valid() ? 0 : 1;
    }
    EXPECT_EQ(switch_links, 32U * 4 + 64U * 2);
    auto a = t->find_host("dgx001");
    auto same_su = t->find_host("dgx032");
    auto same_pod = t->find_host("dgx033");
    auto other_pod = t->find_host("dgx128");
    ASSERT_TRUE(a && same_su && same_pod && other_pod);
    EXPECT_EQ(t->lowest_common_tier(*a, *same_su), 0);
    EXPECT_EQ(t->lowest_common_tier(*a, *same_pod), 1);
    EXPECT_EQ(t->lowest_common_tier(*a, *other_pod), 2);
    const auto& nic = t->nic(t->host(*a).nics.back());
    EXPECT_EQ(nic.name, "mlx5_11");
    EXPECT_EQ(t->sw(nic.leaf).name, "leaf-su01-r7");
    EXPECT_TRUE(t->find_switch("spine-p02-r7-04").has_value());
    EXPECT_TRUE(t->find_switch("core-r7-02").has_value());
}

TEST(ClusterSpecForms, NvlDomainsListAndJson) {
    auto t = build_text(R"({"nodes": [{"names": "gb[001-036]", "gpus": 4}],
  "nvl_domains": [{"name": "rackA", "nodes": "gb[001-018]", "usable": 16},
                  {"name": "rackB", "nodes": ["gb[019-030]", "gb[031-036]"]}]})");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->hosts().size(), 36U);
    EXPECT_EQ(t->gpus().size(), 144U);
    std::map<std::string, std::pair<std::size_t, int>> domains;
    for (const auto& d : t->nvl_domains()) {
        if (d.multi_node) {
            domains[d.name] = {d.hosts.size(), d.usable_hosts};
        }
    }
    EXPECT_EQ(domains, (std::map<std::string, std::pair<std::size_t, int>>{{"rackA", {18, 16}}, {"rackB", {18, 0}}}));
    EXPECT_TRUE(t->switches().empty());
}

TEST(ClusterSpecForms, RackGeneratorDefaultsAndNames) {
    auto t = build_text("nodes:\n  - names: n[1-8]\nracks: {nodes_per_rack: 4, name: \"nvl-{}\"}\n");
    ASSERT_TRUE(t);
    std::vector<std::string> names;
    for (const auto& d : t->nvl_domains()) {
        if (d.multi_node) {
            names.push_back(d.name);
        }
    }
    EXPECT_EQ(names, (std::vector<std::string>{"nvl-1", "nvl-2"}));
}

TEST(ClusterSpecForms, TwoTierSharedSpinesAndOffFabricNic) {
    auto t = build_text(R"(
nodes:
  - names: h[01-10]
    nics:
      - {name: ib0, rail: 0}
      - storage0
fabric: {hosts_per_leaf: 4, spines: 2, prefix: "x-"}
)");
    ASSERT_TRUE(t);
    EXPECT_EQ(tier_histogram(*t), (std::map<int, int>{{0, 3}, {1, 2}}));  // 3 leaves (4+4+2)
    EXPECT_TRUE(t->find_switch("x-leaf-su03").has_value());
    EXPECT_TRUE(t->find_switch("x-spine-02").has_value());
    auto h = t->find_host("h10");
    ASSERT_TRUE(h.has_value());
    int on_fabric = 0;
    for (auto n : t->host(*h).nics) {
        on_fabric += t->nic(n).leaf.valid() ? 1 : 0;
    }
    EXPECT_EQ(t->host(*h).nics.size(), 2U);
    EXPECT_EQ(on_fabric, 1);
}

TEST(ClusterSpecForms, GeneratedNicsWhenNoneDeclared) {
    auto t = build_text("nodes: [{names: \"n[1-4]\"}]\nfabric: {hosts_per_leaf: 2, rails: 2}\n");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->nics().size(), 8U);
    EXPECT_EQ(t->switches().size(), 4U);
    EXPECT_EQ(t->tiers(), 1);
}

TEST(ClusterSpecErrors, UnknownKeysWithLines) {
    auto top = spec_error("nodes:\n  - names: n1\nnvl_domain: []\n");
    EXPECT_EQ(top.line, 3);
    EXPECT_NE(top.message.find("unknown key 'nvl_domain'"), std::string::npos) << top.message;
    EXPECT_EQ(top.to_string().rfind("spec.yaml:3: ", 0), 0U) << top.to_string();
    auto group = spec_error("nodes:\n  - names: n1\n    gpu: 4\n");
    EXPECT_EQ(group.line, 3);
    auto fabric = spec_error("nodes:\n  - names: n1\nfabric:\n  hosts_per_leaf: 2\n  tiers: 3\n");
    EXPECT_EQ(fabric.line, 5);
}

TEST(ClusterSpecErrors, BadValuesWithLines) {
    EXPECT_EQ(spec_error("nodes:\n  - names: n1\n    gpus: -1\n").line, 3);
    EXPECT_EQ(spec_error("nodes:\n  - names: n1\n    gpus: {count: many}\n").line, 3);
    EXPECT_EQ(spec_error("nodes:\n  - names: n1\n    role: boss\n").line, 3);
    EXPECT_EQ(spec_error("nodes:\n  - names: \"n[3-1]\"\n").line, 2);
    EXPECT_EQ(spec_error("version: 2\nnodes:\n  - names: n1\n").line, 1);
    EXPECT_EQ(spec_error("nodes: []\n").line, 1);
    EXPECT_EQ(spec_error("name: x\n").line, 1);  // no nodes
    auto empty = spec_error("");
    EXPECT_EQ(empty.message, "empty cluster spec");
    auto syntax = spec_error("nodes:\n  - names: [n1\n");
    EXPECT_GT(syntax.line, 0);
    spec_error(std::string_view("\0\1\2\3", 4));
}

TEST(ClusterSpecErrors, Consistency) {
    auto dup = spec_error("nodes:\n  - names: n[1-2]\n  - names: n2\n");
    EXPECT_EQ(dup.line, 3);
    EXPECT_NE(dup.message.find("n2 is declared twice (first at line 2)"), std::string::npos) << dup.message;
    auto undeclared = spec_error("nodes:\n  - names: n[1-2]\nnvl_domains:\n  - {name: r, nodes: \"n[1-3]\"}\n");
    EXPECT_EQ(undeclared.line, 4);
    auto two = spec_error(
        "nodes: [{names: \"n[1-4]\"}]\nnvl_domains:\n  - {name: a, nodes: \"n[1-2]\"}\n"
        "  - {name: b, nodes: \"n[2-3]\"}\n");
    EXPECT_EQ(two.line, 4);
    EXPECT_NE(two.message.find("n2 is in two NVLink domains: a and b"), std::string::npos);
    auto usable =
        spec_error("nodes: [{names: \"n[1-4]\"}]\nnvl_domains:\n  - {name: a, nodes: \"n[1-2]\", usable: 3}\n");
    EXPECT_EQ(usable.line, 3);
    auto racks = spec_error("nodes: [{names: \"n[1-5]\"}]\nracks: {nodes_per_rack: 2}\n");
    EXPECT_EQ(racks.line, 2);
    auto count = spec_error("nodes: [{names: \"n[1-5]\"}]\nracks:\n  nodes_per_rack: 2\n  count: 3\n");
    EXPECT_EQ(count.line, 4);
    auto placeholder = spec_error("nodes: [{names: \"n[1-4]\"}]\nracks:\n  nodes_per_rack: 2\n  name: rack\n");
    EXPECT_EQ(placeholder.line, 4);
    auto rail =
        spec_error("nodes:\n  - names: n1\n    nics: [{name: ib0, rail: 0}]\nfabric: {hosts_per_leaf: 2, rails: 2}\n");
    EXPECT_EQ(rail.line, 4);
    EXPECT_NE(rail.message.find("n1 has no NIC on rail 1"), std::string::npos) << rail.message;
    auto cores = spec_error("nodes: [{names: n1}]\nfabric: {hosts_per_leaf: 2, cores: 2}\n");
    EXPECT_EQ(cores.line, 2);
}

TEST(ClusterSpecErrors, MissingFile) {
    topo::TopologyBuilder b;
    auto st = topo::load_cluster_spec(kSpecs + "no-such.yaml", b);
    ASSERT_FALSE(st.has_value());
    EXPECT_EQ(st.error().code, topo::Errc::Io);
}

}  // namespace

namespace {

// Issue 17 finding 1: a 4 KB spec used to expand past 3 GB.
TEST(ClusterSpecBounds, HostlistBombIsRefusedWithLine) {
    auto e = spec_error("nodes:\n  - names: n[0-999999]\n    gpus: {count: 8}\n");
    EXPECT_EQ(e.line, 2) << e.to_string();
    EXPECT_NE(e.message.find("more than"), std::string::npos) << e.message;
    std::string many = "nodes:\n";
    for (int i = 0; i < 5; ++i) {
        many += "  - names: g" + std::to_string(i) + "n[0-65535]\n";
    }
    auto e2 = spec_error(many);
    EXPECT_NE(e2.message.find("host names in this file"), std::string::npos) << e2.message;
}

TEST(ClusterSpecBounds, HostsTimesNicsBombIsRefusedWithLine) {
    // found by fuzz_cluster_spec (session 10): two short hostlists, 69,071 hosts x 69,071
    // NICs, asked for 70 GB before the bound
    auto e = spec_error("nodes:\n  - names: gb[002-69072]\n    nics: \"m[002-69072]\"\n");
    EXPECT_EQ(e.line, 3) << e.to_string();
    EXPECT_NE(e.message.find("NICs per host; at most 256"), std::string::npos) << e.message;
    auto e2 = spec_error("nodes:\n  - names: gb[00001-40000]\n    nics: \"mlx5_[0-7]\"\n");
    EXPECT_EQ(e2.line, 2) << e2.to_string();
    EXPECT_NE(e2.message.find("this group declares 320000 NICs"), std::string::npos) << e2.message;
    // the bound is for the whole file
    auto e3 = spec_error(
        "nodes:\n  - names: a[00001-30000]\n    nics: \"mlx5_[0-7]\"\n"
        "  - names: b[00001-30000]\n    nics: \"mlx5_[0-7]\"\n");
    EXPECT_EQ(e3.line, 4) << e3.to_string();
    // a large real size is fine: 16,384 hosts of 8 NICs
    topo::TopologyBuilder b;
    auto ok =
        topo::apply_cluster_spec_text("nodes:\n  - names: n[00001-16384]\n    nics: \"mlx5_[0-7]\"\n", "s.yaml", b);
    EXPECT_TRUE(ok) << ok.error().to_string();
}

}  // namespace
