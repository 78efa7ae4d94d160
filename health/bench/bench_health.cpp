// SPDX-License-Identifier: Apache-2.0
// A full `health check` on a healthy node: IB (8 NDR HCAs + 2 more), GPUs (8 H100, PCI
// sysfs, /dev, kernel log), counter state file, two site probes. Target: <= 1 s.
// Baseline in the same run: the same check without site probes (the fixed cost of the
// built-in probes), and one store read (what the SPANK gate does per launch).
// The store as the topology plugin reads it inside slurmctld: 16,384 records (one per host
// of the largest fabric we model), 16 of them replaced between two re-reads (a busy second of
// node checks): the kept reader's re-read (StoreReader::refresh, 64 reads at most) against
// the whole read it replaces (Store::list(), the baseline), with the ratio.
//   build/<dir>/health/bench_health        (figures printed; ratio = full / baseline)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/health/check.hpp>
#include <topo/health/store.hpp>

#include <unistd.h>

namespace fs = std::filesystem;
using namespace topo;
using namespace topo::health;

namespace {

struct Fixture {
    fs::path dir;
    CheckOptions opts;
    std::string store;

    Fixture() {
        std::string t = (fs::temp_directory_path() / "topo-bench-health-XXXXXX").string();
        dir = ::mkdtemp(t.data());
        fs::copy(std::string(TOPO_FIXTURES) + "/health/dgx-h100-ndr", dir / "root", fs::copy_options::recursive);
        fs::create_directories(dir / "probes");
        fs::permissions(dir / "probes", fs::perms(0755));  // site probes must pass the trust rules
        for (const char* n : {"10-dcgm", "20-nccl"}) {
            std::ofstream(dir / "probes" / n) << "#!/bin/sh\necho pass\n";
            fs::permissions(dir / "probes" / n, fs::perms(0755));
        }
        TopologyBuilder b;
        if (!load_cluster_spec(std::string(TOPO_FIXTURES) + "/specs/dgx-h100-3tier.yaml", b)) std::abort();
        auto topo = std::move(b).freeze();
        if (!topo) std::abort();
        opts.root = (dir / "root").string();
        opts.expected = expected_for(**topo, "dgx001");
        opts.state_file = (dir / "counters").string();
        store = (dir / "store").string();
        StoreOptions so;
        so.create = true;
        so.trusted_uid = ::geteuid();
        auto s = Store::open(store, so);
        if (!s) std::abort();
        Record r;
        r.node = "dgx001";
        r.verdict = Verdict::Healthy;
        r.source = "check";
        if (!s->put(r)) std::abort();
    }

    ~Fixture() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

Fixture& fixture() {
    static Fixture f;
    return f;
}

// NOLINTBEGIN(readability-identifier-naming): Google Benchmark's BM_ names
void BM_CheckBuiltinProbes(benchmark::State& state) {  // baseline
    CheckOptions o = fixture().opts;
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        auto rep = run_check(o);
        if (!rep.ok) state.SkipWithError(rep.summary().c_str());
        benchmark::DoNotOptimize(rep);
    }
}

BENCHMARK(BM_CheckBuiltinProbes)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CheckFull(benchmark::State& state) {
    CheckOptions o = fixture().opts;
    o.probe_dir = (fixture().dir / "probes").string();
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        auto rep = run_check(o);
        if (!rep.ok) state.SkipWithError(rep.summary().c_str());
        benchmark::DoNotOptimize(rep);
    }
}

BENCHMARK(BM_CheckFull)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GateRead(benchmark::State& state) {
    StoreOptions so;
    so.trusted_uid = ::geteuid();
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        auto d = gate(fixture().store, "dgx001", FailMode::Closed, so);
        if (!d.allow) state.SkipWithError(d.message.c_str());
        benchmark::DoNotOptimize(d);
    }
}

BENCHMARK(BM_GateRead)->Unit(benchmark::kMicrosecond);

constexpr int kStoreRecords = 16384;

/// A store of kStoreRecords records, h00000 .. h16383, written directly (no fsync each).
struct BigStore {
    fs::path dir;
    StoreOptions so;

    BigStore() {
        std::string t = (fs::temp_directory_path() / "topo-bench-store-XXXXXX").string();
        dir = fs::path(::mkdtemp(t.data())) / "store";
        fs::create_directories(dir);
        fs::permissions(dir, fs::perms(0755));
        so.trusted_uid = ::geteuid();
        for (int i = 0; i < kStoreRecords; ++i) replace(i, "ok");
    }

    static std::string name(int i) {
        char b[16];
        std::snprintf(b, sizeof b, "h%05d", i);
        return b;
    }

    /// Record i written anew (a temporary renamed into place, as Store::put does).
    void replace(int i, const std::string& reason) const {
        Record r;
        r.node = name(i);
        r.verdict = i % 512 == 0 ? Verdict::Degraded : Verdict::Healthy;
        r.reason = reason;
        r.source = "check";
        r.since = 1763900000;
        r.last_check = 1763900100;
        const fs::path tmp = dir / ("." + r.node + ".tmp");
        std::ofstream(tmp) << to_record_text(r);
        fs::rename(tmp, dir / r.node);
    }

    ~BigStore() {
        std::error_code ec;
        fs::remove_all(dir.parent_path(), ec);
    }
};

BigStore& big_store() {
    static BigStore s;
    return s;
}

void BM_StoreListWhole(benchmark::State& state) {  // baseline: the read the kept reader replaces
    auto s = Store::open(big_store().dir.string(), big_store().so);
    if (!s) std::abort();
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        auto l = s->list();
        if (!l || l->size() != kStoreRecords) state.SkipWithError("the store did not read whole");
        benchmark::DoNotOptimize(l);
    }
}

BENCHMARK(BM_StoreListWhole)->Unit(benchmark::kMicrosecond)->UseRealTime()->Iterations(20);

// arg 0: the directory listed at each change; 1: watched (inotify), listed only at the first call
void BM_StoreKeptReread(benchmark::State& state) {
    const bool watch = state.range(0) != 0;
    StoreReader r(big_store().dir.string(), big_store().so, watch);
    if (!r.refresh(kStoreRecords)) std::abort();
    int next = 0;
    std::size_t reads = 0;
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        state.PauseTiming();
        for (int k = 0; k < 16; ++k) big_store().replace((next++ * 1031) % kStoreRecords, "rechecked");
        state.ResumeTiming();
        auto c = r.refresh(64);
        if (!c || !r.complete()) state.SkipWithError("the re-read did not catch up");
        reads += c ? c->reads : 0;
        benchmark::DoNotOptimize(c);
    }
    state.counters["reads_per_call"] = static_cast<double>(reads) / static_cast<double>(state.iterations());
    state.counters["listings"] = static_cast<double>(r.listings());
    if (watch && !r.watching()) state.SkipWithError("no inotify watch (limits?)");
}

BENCHMARK(BM_StoreKeptReread)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime()->Iterations(200);

// NOLINTEND(readability-identifier-naming)

/// Prints the ratio and the verdict against the 1 s target after the runs.
class Reporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const auto& r : runs) {
            double ms = r.GetAdjustedRealTime();
            if (r.time_unit == benchmark::kMicrosecond) ms /= 1000.0;
            if (r.benchmark_name() == "BM_CheckBuiltinProbes/real_time") base_ = ms;
            if (r.benchmark_name() == "BM_CheckFull/real_time") full_ = ms;
            if (r.benchmark_name().rfind("BM_StoreListWhole", 0) == 0) list_ = ms;
            if (r.benchmark_name().rfind("BM_StoreKeptReread/0", 0) == 0) kept_ = ms;
            if (r.benchmark_name().rfind("BM_StoreKeptReread/1", 0) == 0) watched_ = ms;
        }
        ConsoleReporter::ReportRuns(runs);
    }

    void Finalize() override {
        ConsoleReporter::Finalize();
        if (base_ > 0 && full_ > 0)
            std::printf("full check %.2f ms = %.1fx the built-in probes alone (%.2f ms); target <= 1000 ms: %s\n",
                        full_, full_ / base_, base_, full_ <= 1000 ? "met" : "MISSED");
        if (list_ > 0 && kept_ > 0)
            std::printf(
                "store of %d records, 16 replaced: kept reader's re-read %.3f ms = %.4fx the whole read "
                "(%.2f ms, baseline)\n",
                kStoreRecords, kept_, kept_ / list_, list_);
        if (kept_ > 0 && watched_ > 0)
            std::printf(
                "store of %d records, 16 replaced: watched (inotify) re-read %.3f ms = %.4fx the listed re-read "
                "(%.3f ms, baseline) = %.5fx the whole read\n",
                kStoreRecords, watched_, watched_ / kept_, kept_, list_ > 0 ? watched_ / list_ : 0.0);
    }

private:
    double base_ = 0;
    double full_ = 0;
    double list_ = 0;
    double kept_ = 0;
    double watched_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    Reporter rep;
    benchmark::RunSpecifiedBenchmarks(&rep);
    benchmark::Shutdown();
    return 0;
}
