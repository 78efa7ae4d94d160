// SPDX-License-Identifier: Apache-2.0
// Replay speed of the what-if simulator: a generated 100,000-job trace (load 0.85, sizes
// 1..256 nodes) replayed on a generated 4,096-host / 32,768-GPU 3-tier rail-optimized
// fabric (128 scalable units of 32 hosts, 8 rails, pods of 8 SUs, 2 spines and 2 cores per
// rail), once per policy. Target (issue #6): a 100k-job replay on 4,096 nodes <= 10 s.
// Baseline in the same run: the replay under `linear` (the cheapest placement), so the
// ratio shows what the topology-aware decisions cost on top of the queueing engine.
// Printed figures, not a timed test.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/whatif/whatif.hpp>

namespace {

using namespace topo;
using namespace topo::whatif;
using placement::Policy;

const char* kSpec = R"(version: 1
name: bench-4096
nodes:
  - names: gpu[0001-4096]
    gpus: {count: 8, model: NVIDIA H100 80GB HBM3}
fabric:
  hosts_per_leaf: 32
  rails: 8
  spines_per_rail: 2
  sus_per_pod: 8
  cores_per_rail: 2
  gbps: 400
  rate: 4xNDR
)";

struct Fixture {
    TopologyPtr topo;
    Trace trace;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture x;
        TopologyBuilder b;
        auto st = apply_cluster_spec_text(kSpec, "bench-4096.yaml", b);
        if (!st) std::fprintf(stderr, "spec: %s\n", st.error().to_string().c_str());
        auto t = std::move(b).freeze();
        if (!t) std::fprintf(stderr, "freeze: %s\n", t.error().to_string().c_str());
        x.topo = *t;
        GeneratorOptions g;
        g.jobs = 100000;
        g.cluster_nodes = 4096;
        g.gpus_per_node = 8;
        g.load = 0.85;
        g.seed = 1;
        x.trace = *generate_trace(g);
        return x;
    }();
    return f;
}

std::map<std::string, double> g_seconds;

void BM_Replay100k(benchmark::State& state, Policy policy) {
    const auto& f = fixture();
    SimOptions o;
    o.policies = {policy};
    PolicyRun last;
    double secs = 0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = simulate(*f.topo, f.trace, o);
        secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            state.SkipWithError(r.error().to_string().c_str());
            return;
        }
        last = r->runs[0];
        benchmark::DoNotOptimize(last);
    }
    g_seconds[placement::policy_name(policy)] = secs;
    state.counters["jobs"] = last.jobs;
    state.counters["jobs_per_s"] = last.jobs / secs;
    state.counters["place_calls"] = static_cast<double>(last.place_calls);
    state.counters["us_per_place_call"] = secs * 1e6 / static_cast<double>(std::max(1L, last.place_calls));
    state.counters["utilization"] = last.utilization;
    state.counters["mean_wait_s"] = last.mean_wait_s;
}

}  // namespace

BENCHMARK_CAPTURE(BM_Replay100k, linear_baseline, Policy::Linear)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay100k, topo, Policy::Topo)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay100k, slurm_tree, Policy::SlurmTree)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    const double base = g_seconds.count("linear") != 0 ? g_seconds["linear"] : 0;
    std::printf("\n100k-job replay on 4,096 nodes (target <= 10 s):\n");
    for (const auto& [name, s] : g_seconds) {
        std::printf("  %-11s %7.2f s  %s  ratio to linear %.2f\n", name.c_str(), s, s <= 10 ? "within" : "OVER ",
                    base > 0 ? s / base : 0.0);
    }
    return 0;
}
