// SPDX-License-Identifier: Apache-2.0
// The replay's S_job with the model on (issue 29): the engine keeps the running jobs'
// uplink use as counts changed at each start and end instead of re-reading every running
// job's hosts; each multi-node run's S_job must equal the model's on its hosts next to the
// multi-node jobs running at its start, read from the replay's intervals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/perf/features.hpp>
#include <topo/perf/model.hpp>
#include <topo/whatif/whatif.hpp>

namespace {

using topo::HostId;
using topo::placement::Policy;
using namespace topo::whatif;

topo::TopologyPtr from_spec_file(const std::string& name) {
    topo::TopologyBuilder b;
    auto st = topo::load_cluster_spec(std::string(TOPO_FIXTURES) + "/specs/" + name, b);
    EXPECT_TRUE(st) << st.error().to_string();
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t) << t.error().to_string();
    return *t;
}

class UplinkCounts : public ::testing::TestWithParam<Policy> {};

TEST_P(UplinkCounts, EachRunsSlowdownIsTheModelsNextToTheJobsRunningAtItsStart) {
    // 128 hosts, 4 leaf groups in 2 pods: multi-group and multi-pod jobs share uplinks often
    auto t = from_spec_file("dgx-h100-3tier.yaml");
    ASSERT_TRUE(t);
    GeneratorOptions g;
    g.jobs = 600;
    g.cluster_nodes = 128;
    g.max_nodes = 48;
    g.load = 0.9;
    g.seed = 7;
    auto trace = generate_trace(g);
    ASSERT_TRUE(trace);
    const topo::perf::Params params;
    SimOptions o;
    o.model = &params;
    auto iv = replay_intervals(*t, *trace, GetParam(), false, o);
    ASSERT_TRUE(iv) << iv.error().to_string();
    const topo::perf::FabricShape shape = topo::perf::fabric_shape(*t);
    const int gph = 8;
    int checked = 0;
    int shared = 0;  // runs whose S_job the other jobs' uplink use changed
    for (const Interval& a : *iv) {
        if (a.hosts.size() < 2) continue;
        // the multi-node jobs running when it started (one that ended then had ended);
        // runs started at the same time as another multi-node run are left out (their
        // order within that time is not in the intervals)
        std::vector<std::vector<HostId>> others;
        bool tie = false;
        for (const Interval& b : *iv) {
            if (&b == &a || b.hosts.size() < 2) continue;
            if (b.start == a.start) tie = true;
            if (b.start < a.start && a.start < b.end) others.push_back(b.hosts);
        }
        if (tie) continue;
        topo::perf::JobPlacement jp;
        jp.hosts = a.hosts;
        const auto prof = topo::perf::default_layout({}, static_cast<int>(a.hosts.size()) * gph, gph);
        const double with =
            topo::perf::slowdown(params, prof, topo::perf::features_of(*t, shape, jp, prof, gph, others)).s_job;
        const double alone =
            topo::perf::slowdown(params, prof, topo::perf::features_of(*t, shape, jp, prof, gph)).s_job;
        EXPECT_DOUBLE_EQ(a.slowdown, with) << "job " << a.job << " started at " << a.start;
        ++checked;
        shared += with != alone ? 1 : 0;
    }
    // enough runs judged, and uplink sharing among them (else the check shows nothing)
    EXPECT_GE(checked, 100);
    EXPECT_GE(shared, 10);
}

INSTANTIATE_TEST_SUITE_P(Policies, UplinkCounts, ::testing::Values(Policy::Topo, Policy::Cost, Policy::SlurmTree),
                         [](const auto& info) {
                             return info.param == Policy::SlurmTree
                                        ? std::string("slurm_tree")
                                        : std::string(topo::placement::policy_name(info.param));
                         });

}  // namespace
