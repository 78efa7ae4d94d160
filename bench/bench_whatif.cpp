// SPDX-License-Identifier: Apache-2.0
// Replay speed of the what-if simulator as users run it (issue 29): `topoplace whatif`'s
// default replay, with the performance model on, under `cost`, `topo` and `slurm-tree`, on
// generated 3-tier rail-optimized fabrics of 4,096 and 16,384 hosts (8 GPUs and 8 rails
// each, scalable units of 32 hosts, pods of 8 SUs, 2 spines and 2 cores per rail), one
// policy per replay; a generated trace at offered load 0.85 (sizes 1..256 nodes). Baseline
// in the same run: the same policy's replay without the model (`--no-model`), so the
// ratio shows what the model costs on top of placement and queueing.
//
// Targets (issue 29, 1,000,000 jobs on 16,384 hosts on the 2-vCPU VM): cost <= 60 s,
// topo <= 60 s, slurm-tree <= 120 s, peak memory <= 2 GiB; (issue 6) 100,000 jobs on
// 4,096 hosts <= 10 s. Printed figures, not a timed test.
//
//   bench_whatif [--jobs4k=N] [--jobs16k=N] [benchmark flags, e.g. --benchmark_filter=16384]
//
// Defaults: 100,000 jobs on 4,096 hosts, 1,000,000 on 16,384. Peak memory is the process's
// (getrusage ru_maxrss) after each replay: it never goes down, so a row's figure bounds
// that replay's peak and includes the fabrics and traces built before it.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/perf/model.hpp>
#include <topo/whatif/whatif.hpp>

#include <sys/resource.h>

namespace {

using namespace topo;
using namespace topo::whatif;
using placement::Policy;

std::string spec_text(int hosts) {
    char names[64];
    std::snprintf(names, sizeof names, hosts >= 10000 ? "gpu[00001-%05d]" : "gpu[0001-%04d]", hosts);
    return std::string("version: 1\nname: bench-") + std::to_string(hosts) + "\nnodes:\n  - names: " + names
           + "\n    gpus: {count: 8, model: NVIDIA H100 80GB HBM3}\n"
             "fabric:\n  hosts_per_leaf: 32\n  rails: 8\n  spines_per_rail: 2\n  sus_per_pod: 8\n"
             "  cores_per_rail: 2\n  gbps: 400\n  rate: 4xNDR\n";
}

struct Fixture {
    TopologyPtr topo;
    Trace trace;
};

int g_jobs_4k = 100000;
int g_jobs_16k = 1000000;

const Fixture* fixture(int hosts) {
    static std::map<int, Fixture> cache;
    if (auto it = cache.find(hosts); it != cache.end()) return &it->second;
    Fixture x;
    TopologyBuilder b;
    const std::string spec = spec_text(hosts);
    if (auto st = apply_cluster_spec_text(spec, "bench-" + std::to_string(hosts) + ".yaml", b); !st) {
        std::fprintf(stderr, "spec: %s\n", st.error().to_string().c_str());
        return nullptr;
    }
    auto t = std::move(b).freeze();
    if (!t) {
        std::fprintf(stderr, "freeze: %s\n", t.error().to_string().c_str());
        return nullptr;
    }
    x.topo = *t;
    GeneratorOptions g;
    g.jobs = hosts == 16384 ? g_jobs_16k : g_jobs_4k;
    g.cluster_nodes = hosts;
    g.gpus_per_node = 8;
    g.load = 0.85;
    g.seed = 1;
    auto tr = generate_trace(g);
    if (!tr) {
        std::fprintf(stderr, "trace: %s\n", tr.error().to_string().c_str());
        return nullptr;
    }
    x.trace = std::move(*tr);
    return &cache.emplace(hosts, std::move(x)).first->second;
}

double peak_mib() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

struct Row {
    int jobs = 0;
    double model_s = -1;
    double plain_s = -1;
    double peak_mib = 0;
};

std::map<std::pair<int, std::string>, Row> g_rows;  // (hosts, policy)

// NOLINTBEGIN(readability-identifier-naming)
void BM_Replay(benchmark::State& state, int hosts, Policy policy, bool model) {
    const Fixture* f = fixture(hosts);
    if (f == nullptr) {
        state.SkipWithError("no fixture");
        return;
    }
    const perf::Params params;  // the published defaults, as `topoplace whatif` without --model
    SimOptions o;
    o.policies = {policy};
    o.model = model ? &params : nullptr;
    PolicyRun last;
    double secs = 0;
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        const auto t0 = std::chrono::steady_clock::now();
        auto r = simulate(*f->topo, f->trace, o);
        secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            state.SkipWithError(r.error().to_string().c_str());
            return;
        }
        last = std::move(r->runs[0]);
        benchmark::DoNotOptimize(last);
    }
    Row& row = g_rows[{hosts, placement::policy_name(policy)}];
    row.jobs = last.jobs;
    (model ? row.model_s : row.plain_s) = secs;
    row.peak_mib = peak_mib();
    state.counters["jobs"] = last.jobs;
    state.counters["jobs_per_s"] = last.jobs / secs;
    state.counters["place_calls"] = static_cast<double>(last.place_calls);
    state.counters["peak_MiB"] = row.peak_mib;
    state.counters["utilization"] = last.utilization;
    state.counters["mean_slowdown"] = last.mean_slowdown;
}

// NOLINTEND(readability-identifier-naming)

/// Reads and removes this benchmark's own flags (before Google Benchmark sees argv).
bool own_flags(int& argc, char** argv) {
    int out = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        int* target = a.rfind("--jobs4k=", 0) == 0 ? &g_jobs_4k : a.rfind("--jobs16k=", 0) == 0 ? &g_jobs_16k : nullptr;
        if (target == nullptr) {
            argv[out++] = argv[i];
            continue;
        }
        const std::string v = a.substr(a.find('=') + 1);
        char* end = nullptr;
        const long n = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end != 0 || n <= 0 || n > 100000000) return false;
        *target = static_cast<int>(n);
    }
    argc = out;
    return true;
}

}  // namespace

// NOLINTBEGIN(readability-identifier-naming): Google Benchmark's names
// the baseline first, then what users run, per fabric and policy
BENCHMARK_CAPTURE(BM_Replay, 4096_hosts_cost_no_model_baseline, 4096, Policy::Cost, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 4096_hosts_cost_model, 4096, Policy::Cost, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 4096_hosts_topo_no_model_baseline, 4096, Policy::Topo, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 4096_hosts_topo_model, 4096, Policy::Topo, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 4096_hosts_slurm_tree_no_model_baseline, 4096, Policy::SlurmTree, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 4096_hosts_slurm_tree_model, 4096, Policy::SlurmTree, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 16384_hosts_cost_no_model_baseline, 16384, Policy::Cost, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 16384_hosts_cost_model, 16384, Policy::Cost, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 16384_hosts_topo_no_model_baseline, 16384, Policy::Topo, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 16384_hosts_topo_model, 16384, Policy::Topo, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 16384_hosts_slurm_tree_no_model_baseline, 16384, Policy::SlurmTree, false)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Replay, 16384_hosts_slurm_tree_model, 16384, Policy::SlurmTree, true)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

// NOLINTEND(readability-identifier-naming)

int main(int argc, char** argv) {
    if (!own_flags(argc, argv)) {
        std::fprintf(stderr, "usage: bench_whatif [--jobs4k=N] [--jobs16k=N] [benchmark flags]\n");
        return 1;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();

    std::printf(
        "\nWhat-if replays, offered load 0.85, one policy per replay (model: the default "
        "performance model; baseline: --no-model):\n");
    std::printf("  %-6s %-10s %9s %9s %11s %11s %7s %9s  %s\n", "hosts", "policy", "jobs", "model s", "jobs/s",
                "no-model s", "ratio", "peak MiB", "target");
    for (const auto& [key, row] : g_rows) {
        const auto& [hosts, policy] = key;
        std::string target;
        if (hosts == 16384 && row.jobs == 1000000 && row.model_s >= 0) {
            const double limit = policy == "slurm-tree" ? 120 : 60;
            char b[96];
            std::snprintf(b, sizeof b, "<= %.0f s: %s; peak <= 2 GiB: %s", limit,
                          row.model_s <= limit ? "within" : "OVER", row.peak_mib <= 2048 ? "within" : "OVER");
            target = b;
        } else if (hosts == 4096 && row.jobs == 100000 && row.model_s >= 0) {
            target = row.model_s <= 10 ? "<= 10 s: within" : "<= 10 s: OVER";
        } else {
            target = "(targets are for 1,000,000 jobs on 16,384 hosts and 100,000 on 4,096)";
        }
        std::printf("  %-6d %-10s %9d %9.2f %11.0f %11.2f %7.2f %9.0f  %s\n", hosts, policy.c_str(), row.jobs,
                    row.model_s, row.model_s > 0 ? row.jobs / row.model_s : 0.0, row.plain_s,
                    row.plain_s > 0 && row.model_s >= 0 ? row.model_s / row.plain_s : 0.0, row.peak_mib,
                    target.c_str());
    }
    return 0;
}
