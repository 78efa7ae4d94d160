// SPDX-License-Identifier: Apache-2.0
// libtopo's discover() (topo/discover.hpp): the pipeline `topoplace discover` runs, here
// without the CLI: a node description without a host list applies to every compute host
// of the fabric; HOSTLIST= targets some; optional readers absent or given; no inputs.
#include <gtest/gtest.h>

#include <string>

#include <topo/discover.hpp>

namespace {

using namespace topo;

const std::string kFx = TOPO_FIXTURES;

TEST(DiscoverPipeline, NodeDescriptionAppliesToEveryComputeHostOfTheFabric) {
    DiscoverInputs in;
    in.ibnetdiscover = {kFx + "/lab/lab-4x4.ibnetdiscover.txt"};
    in.nvsmi = {kFx + "/lab/lab-8gpu-2nic.topo-m.txt"};
    auto t = discover(in);
    ASSERT_TRUE(t) << t.error().to_string();
    const Summary s = (*t)->summary();
    ASSERT_GT(s.compute_hosts, 1);
    EXPECT_EQ(s.gpus, 8 * s.compute_hosts);
}

TEST(DiscoverPipeline, AHostListTargetsOnlyThoseHosts) {
    DiscoverInputs in;
    in.ibnetdiscover = {kFx + "/lab/lab-4x4.ibnetdiscover.txt"};
    auto bare = discover(in);
    ASSERT_TRUE(bare) << bare.error().to_string();
    std::string first;
    for (const auto& h : (*bare)->hosts())
        if (h.role == HostRole::Compute) {
            first = h.name;
            break;
        }
    ASSERT_FALSE(first.empty());
    in.nvsmi = {first + "=" + kFx + "/lab/lab-8gpu-2nic.topo-m.txt"};
    auto t = discover(in);
    ASSERT_TRUE(t) << t.error().to_string();
    EXPECT_EQ((*t)->summary().gpus, 8);
    in.nvsmi = {"n[3-1]=" + kFx + "/lab/lab-8gpu-2nic.topo-m.txt"};
    auto bad = discover(in);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("bad host list \"n[3-1]\""), std::string::npos) << bad.error().to_string();
}

TEST(DiscoverPipeline, OptionalReadersAreUsedWhenGivenAndNamedWhenNot) {
    DiscoverInputs in;
    in.hwloc = {"node1=whatever.xml"};
    auto no = discover(in);
    ASSERT_FALSE(no);
    EXPECT_EQ(no.error().code, Errc::Unsupported);
    EXPECT_NE(no.error().message.find("hwloc"), std::string::npos);
    // a reader given by the caller (the CLI passes hwloc's when built with it)
    DiscoverReaders r;
    int calls = 0;
    r.hwloc_file = [&](const std::string& f) -> Result<NodeDescription> {
        ++calls;
        EXPECT_EQ(f, "whatever.xml");
        NodeDescription nd;
        nd.hostname = "ignored";
        return nd;
    };
    auto yes = discover(in, r);
    ASSERT_TRUE(yes) << yes.error().to_string();
    EXPECT_EQ(calls, 1);
    ASSERT_EQ((*yes)->hosts().size(), 1U);
    EXPECT_EQ((*yes)->hosts()[0].name, "node1");
    DiscoverInputs live;
    live.ib_live = true;
    auto ib = discover(live);
    ASSERT_FALSE(ib);
    EXPECT_NE(ib.error().message.find("libibnetdisc"), std::string::npos);
}

TEST(DiscoverPipeline, NoInputsIsAnErrorNamingTheOptions) {
    auto t = discover(DiscoverInputs{});
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().code, Errc::InvalidArgument);
    EXPECT_NE(t.error().message.find("--ibnetdiscover"), std::string::npos);
}

}  // namespace
