// SPDX-License-Identifier: Apache-2.0
// Snapshot and import speed. Printed figures, not a timed test.
//   BM_SeleneImport         read+gunzip+parse+import+freeze of Selene's real fabric
//   BM_SeleneReadOnly       baseline: read+gunzip the same file (ratio = import / read)
//   BM_LoadGenerated        load_snapshot of a generated 12,500-host / 100,000-GPU
//                           3-tier 8-rail fabric (reports RSS growth in MB)
//   BM_LoadFreshProcess     the same load in a fresh process (this binary run with
//                           --load-once FILE): its peak RSS (VmHWM) and wall time, the
//                           figures the 200 MB / 1 s target is about
//   BM_JsonParseOnly        baseline: nlohmann::json::parse of the same file
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include <topo/builder.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/snapshot.hpp>
#include <topo/text_input.hpp>

#include <unistd.h>

namespace {

using namespace topo;

long status_kb(const char* key) {
    std::ifstream f("/proc/self/status");
    std::string k;
    while (f >> k) {
        if (k == key) {
            long v = 0;
            f >> v;
            return v;
        }
        std::string rest;
        std::getline(f, rest);
    }
    return 0;
}

long rss_kb() {
    return status_kb("VmRSS:");
}

/// 12,500 DGX-like hosts (8 GPUs, 8 NICs, one per rail), scalable units of 32
/// hosts with 8 rail leaves, pods of 16 SUs with 4 spines per rail, 8 cores per rail.
TopologyPtr generate(int hosts, int gpus_per_host, int rails) {
    TopologyBuilder b;
    const int su_size = 32;
    const int sus = (hosts + su_size - 1) / su_size;
    const int pod_sus = 16;
    const int pods = (sus + pod_sus - 1) / pod_sus;
    const int spines_per_rail = 4;
    const int cores_per_rail = 8;
    char buf[64];
    auto name = [&](const char* fmt, int a, int b2 = 0, int c = 0) {
        std::snprintf(buf, sizeof buf, fmt, a, b2, c);
        return std::string(buf);
    };
    for (int r = 0; r < rails; ++r) {
        for (int c = 0; c < cores_per_rail; ++c) {
            b.add_switch(Switch{name("core-r%d-%02d", r, c), "", "", 64, -1, Provenance::Declared});
        }
        for (int p = 0; p < pods; ++p) {
            for (int s = 0; s < spines_per_rail; ++s) {
                const std::string sp = name("spine-p%03d-r%d-%d", p, r, s);
                b.add_switch(Switch{sp, "", "", 64, -1, Provenance::Declared});
                for (int c = 0; c < cores_per_rail; ++c)
                    b.add_switch_link(sp, 33 + c, name("core-r%d-%02d", r, c), p, 400, "4xNDR");
            }
        }
    }
    NodeDescription nd;
    for (int g = 0; g < gpus_per_host; ++g) nd.gpus.push_back({g, "GPU" + std::to_string(g), "H100", "", "", g / 4});
    for (int r = 0; r < rails; ++r) nd.nics.push_back({"mlx5_" + std::to_string(r), "", "", r / 4, 400});
    for (int g = 0; g < gpus_per_host; ++g) {
        std::vector<PathClass> row;
        for (int r = 0; r < rails; ++r)
            row.push_back(g == r ? PathClass::Pix : (g / 4 == r / 4 ? PathClass::Node : PathClass::Sys));
        nd.gpu_nic.push_back(row);
        for (int h = g + 1; h < gpus_per_host; ++h) nd.nvlinks.push_back({g, h, 18, 0});
    }
    for (int su = 0; su < sus; ++su) {
        const int pod = su / pod_sus;
        for (int r = 0; r < rails; ++r) {
            const std::string leaf = name("leaf-su%03d-r%d", su, r);
            b.add_switch(Switch{leaf, "", "", 64, -1, Provenance::Declared});
            for (int s = 0; s < spines_per_rail; ++s)
                b.add_switch_link(leaf, 33 + s, name("spine-p%03d-r%d-%d", pod, r, s), su % pod_sus, 400, "4xNDR");
        }
        for (int i = 0; i < su_size && su * su_size + i < hosts; ++i) {
            const std::string host = name("gpu%05d", su * su_size + i + 1);
            b.add_host(host, HostRole::Compute);
            for (int r = 0; r < rails; ++r) {
                Nic n;
                n.name = "mlx5_" + std::to_string(r);
                n.guid = name("0x%08x%08x", su * su_size + i + 1, r);
                n.leaf_port = i + 1;
                n.rate = "4xNDR";
                n.rate_gbps = 400;
                b.add_nic(host, n, name("leaf-su%03d-r%d", su, r));
            }
            b.apply_node_description(host, nd);
        }
    }
    auto t = std::move(b).freeze();
    if (!t) {
        std::fprintf(stderr, "generate: %s\n", t.error().to_string().c_str());
        std::abort();
    }
    return *t;
}

const std::string& generated_path() {
    static const std::string path = [] {
        const std::string p = "/tmp/topoplace-bench-12500.json";
        auto t = generate(12500, 8, 8);
        const Summary s = t->summary();
        std::fprintf(stderr, "generated: %d hosts, %d GPUs, %d NICs, %d switches, %d tiers, %d rails\n", s.hosts,
                     s.gpus, s.nics, s.switches, s.tiers, s.rails);
        if (!save_snapshot(*t, p)) std::abort();
        return p;
    }();
    return path;
}

void BM_LoadGenerated(benchmark::State& state) {
    const std::string& p = generated_path();
    long grow = 0;
    for (auto _ : state) {
        const long before = rss_kb();
        auto t = load_snapshot(p);
        if (!t) {
            state.SkipWithError(t.error().to_string().c_str());
            return;
        }
        grow = std::max(grow, rss_kb() - before);
        benchmark::DoNotOptimize(t);
    }
    state.counters["rss_growth_MB"] = static_cast<double>(grow) / 1024.0;
}

BENCHMARK(BM_LoadGenerated)->Unit(benchmark::kMillisecond)->Iterations(3);

/// --load-once FILE: load the snapshot once and print "<VmHWM before kB> <VmHWM after kB> <wall s>".
int load_once(const char* path) {
    const long before = status_kb("VmHWM:");
    const auto t0 = std::chrono::steady_clock::now();
    auto t = load_snapshot(path);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!t) {
        std::fprintf(stderr, "%s\n", t.error().to_string().c_str());
        return 1;
    }
    std::printf("%ld %ld %.4f\n", before, status_kb("VmHWM:"), secs);
    return 0;
}

void BM_LoadFreshProcess(benchmark::State& state) {
    const std::string& p = generated_path();
    char exe[4096] = {};
    const auto n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        state.SkipWithError("cannot find /proc/self/exe");
        return;
    }
    const std::string cmd = std::string("'") + exe + "' --load-once '" + p + "'";
    long peak = 0;
    long base = 0;
    double wall = 0;
    for (auto _ : state) {
        std::FILE* f = popen(cmd.c_str(), "r");
        long b0 = 0;
        long b1 = 0;
        double w = 0;
        const int got = f != nullptr ? std::fscanf(f, "%ld %ld %lf", &b0, &b1, &w) : 0;
        const int rc = f != nullptr ? pclose(f) : -1;
        if (got != 3 || rc != 0) {
            state.SkipWithError("the --load-once child failed");
            return;
        }
        peak = std::max(peak, b1);
        base = std::max(base, b0);
        wall = std::max(wall, w);
    }
    state.counters["peak_rss_MB"] = static_cast<double>(peak) / 1024.0;
    state.counters["peak_rss_before_load_MB"] = static_cast<double>(base) / 1024.0;
    state.counters["load_wall_s_max"] = wall;
}

BENCHMARK(BM_LoadFreshProcess)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_JsonParseOnly(benchmark::State& state) {
    const std::string& p = generated_path();
    auto text = read_text_file(p);
    for (auto _ : state) {
        auto doc = nlohmann::json::parse(*text);
        benchmark::DoNotOptimize(doc);
    }
}

BENCHMARK(BM_JsonParseOnly)->Unit(benchmark::kMillisecond)->Iterations(3);

const std::string kSelene = std::string(TOPO_FIXTURES) + "/ibnetdiscover/selene-compute.ibnetdiscover.txt.gz";

void BM_SeleneImport(benchmark::State& state) {
    for (auto _ : state) {
        auto fab = read_ibnetdiscover_file(kSelene);
        if (!fab) {
            state.SkipWithError(fab.error().to_string().c_str());
            return;
        }
        TopologyBuilder b;
        if (!import_ib_fabric(*fab, {}, b)) {
            state.SkipWithError("import failed");
            return;
        }
        auto t = std::move(b).freeze();
        benchmark::DoNotOptimize(t);
    }
}

BENCHMARK(BM_SeleneImport)->Unit(benchmark::kMillisecond);

void BM_SeleneReadOnly(benchmark::State& state) {
    for (auto _ : state) {
        auto text = read_text_file(kSelene);
        benchmark::DoNotOptimize(text);
    }
}

BENCHMARK(BM_SeleneReadOnly)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::strcmp(argv[1], "--load-once") == 0) return load_once(argv[2]);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
