// SPDX-License-Identifier: Apache-2.0
// Decision latency of place(): `topo` vs `slurm-tree` (and `linear`) in the same run, on
// a generated 4,096-host / 32,768-GPU 3-tier rail-optimized fabric (128 scalable units
// of 32 hosts, 8 rails, pods of 8 SUs with 2 spines per rail, 2 cores per rail) at about
// 70 % busy. Targets (issue #6): topo p99 <= 200 us and >= 10x faster than slurm-tree.
//
// Each benchmark cycles over the same 2,000 (state, request) cases, times every decision
// and reports p50/p99 as counters; main() prints the comparison and the ratio.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/running.hpp>

namespace {

using namespace topo;
using namespace topo::placement;

constexpr int kIterations = 20000;  ///< per benchmark: each of the 2,000 cases 10 times
constexpr int kSus = 128, kPerSu = 32, kRails = 8, kSusPerPod = 8, kSpinesPerRail = 2, kCoresPerRail = 2;

std::string num(const char* p, int i, int w) {
    char b[48];
    std::snprintf(b, sizeof b, "%s%0*d", p, w, i);
    return b;
}

/// `variant` (the --dump check only): NVLink domains of 16 hosts (15 usable) and every
/// 13th host without its rail-7 NIC (leaf groups with fewer leaf switches, hosts that
/// are not rail-aligned), so that every path of place() is exercised.
TopologyPtr build_fabric(bool variant = false) {
    TopologyBuilder b;
    std::map<std::string, int> port;
    auto sw = [&](const std::string& n) { b.add_switch(Switch{n, n, "", 128, -1, Provenance::Declared}); };
    auto link = [&](const std::string& a, const std::string& c) {
        b.add_switch_link(a, ++port[a], c, ++port[c], 400, "4xNDR");
    };
    const int pods = kSus / kSusPerPod;
    for (int r = 0; r < kRails; ++r) {
        for (int c = 0; c < kCoresPerRail; ++c) sw(num(("core-r" + std::to_string(r) + "-").c_str(), c, 2));
        for (int p = 0; p < pods; ++p) {
            for (int s = 0; s < kSpinesPerRail; ++s) {
                const auto sp = "spine-p" + num("", p, 2) + "-r" + std::to_string(r) + "-" + std::to_string(s);
                sw(sp);
                for (int c = 0; c < kCoresPerRail; ++c)
                    link(sp, num(("core-r" + std::to_string(r) + "-").c_str(), c, 2));
            }
        }
    }
    long guid = 1;
    int h = 1;
    for (int u = 0; u < kSus; ++u) {
        std::vector<std::string> leaves;
        for (int r = 0; r < kRails; ++r) {
            const auto leaf = num("leaf-su", u + 1, 3) + "-r" + std::to_string(r);
            sw(leaf);
            for (int s = 0; s < kSpinesPerRail; ++s) {
                link(leaf, "spine-p" + num("", u / kSusPerPod, 2) + "-r" + std::to_string(r) + "-" + std::to_string(s));
            }
            leaves.push_back(leaf);
        }
        for (int i = 0; i < kPerSu; ++i, ++h) {
            const auto name = num("gpu", h, 4);
            b.add_host(name, HostRole::Compute);
            for (int r = 0; r < kRails; ++r) {
                if (variant && r == kRails - 1 && h % 13 == 0) continue;
                Nic n;
                n.name = "mlx5_" + std::to_string(r);
                n.guid = "0x" + std::to_string(++guid);
                n.leaf_port = ++port[leaves[static_cast<std::size_t>(r)]];
                n.rate_gbps = 400;
                b.add_nic(name, n, leaves[static_cast<std::size_t>(r)]);
                Gpu g;
                g.index = r;
                g.model = "NVIDIA H100 80GB HBM3";
                b.add_gpu(name, g);
            }
        }
    }
    if (variant) {
        for (int d = 0; d < (h - 1) / 16; ++d) {
            std::vector<std::string> hs;
            for (int i = 1; i <= 16; ++i) hs.push_back(num("gpu", d * 16 + i, 4));
            b.add_nvl_domain(num("nvl", d, 3), hs, 15);
        }
    }
    auto t = std::move(b).freeze();
    if (!t) {
        std::fprintf(stderr, "fabric: %s\n", t.error().to_string().c_str());
        std::exit(1);  // NOLINT(concurrency-mt-unsafe): the benchmark's setup, one thread
    }
    return *t;
}

struct Case {
    int state;
    Request req;
};

struct World {
    TopologyPtr topo;
    std::unique_ptr<Placer> placer;
    std::vector<ClusterState> states;
    std::vector<ClusterState> degraded_states;  ///< the same, 0.5 % of hosts degraded (PERF-MODEL 6.2, MegaScale)
    /// the same with the running jobs' uplinks recorded: the busy hosts, in name order, cut into
    /// jobs of 1-64 hosts; those crossing a leaf group's edge span groups (the cost policy's
    /// third candidate, off shared uplinks)
    std::vector<ClusterState> shared_states;
    double spanning_jobs = 0;  ///< per shared state, mean
    std::vector<Case> cases;
    double busy_share = 0;
    double index_build_ms = 0;
};

World& world() {
    static World w = [] {
        World x;
        x.topo = build_fabric();
        const auto t0 = std::chrono::steady_clock::now();
        x.placer = std::make_unique<Placer>(*x.topo);
        x.index_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::mt19937 rng(70);
        std::uniform_real_distribution<double> u(0, 1);
        long busy = 0;
        long total = 0;
        for (int s = 0; s < 20; ++s) {
            ClusterState st(*x.topo);
            double level = 0.7;
            for (std::uint32_t h = 0; h < x.topo->hosts().size(); ++h) {
                if (h % kPerSu == 0) level = 0.4 + 0.6 * u(rng);  // clumpy, mean 0.7
                const HostId id{h};
                if (u(rng) < level) {
                    if (u(rng) < 0.2) {
                        st.set_state(id, NodeState::Mixed);
                        st.set_free_gpus(id, static_cast<int>(rng() % 8));
                    } else {
                        st.set_state(id, NodeState::Alloc);
                        st.set_free_gpus(id, 0);
                    }
                    ++busy;
                } else if (u(rng) < 0.01) {
                    st.set_state(id, NodeState::Drain);
                    ++busy;
                }
                ++total;
            }
            x.states.push_back(std::move(st));
        }
        x.busy_share = static_cast<double>(busy) / static_cast<double>(total);
        for (const auto& st : x.states) {
            ClusterState d = st;
            for (std::size_t h = 0; h < x.topo->hosts().size(); ++h) {
                if (rng() % 200 == 0) d.set_slowdown(HostId(static_cast<HostId::Rep>(h)), 1.1);
            }
            x.degraded_states.push_back(std::move(d));
        }
        for (const auto& st : x.states) {
            ClusterState d = st;
            std::vector<std::vector<HostId>> jobs(1);
            std::size_t want = 1 + rng() % 64;
            for (std::size_t h = 0; h < x.topo->hosts().size(); ++h) {
                const HostId id(static_cast<HostId::Rep>(h));
                if (st.at(id).state != NodeState::Alloc) continue;
                jobs.back().push_back(id);
                if (jobs.back().size() == want) {
                    jobs.emplace_back();
                    want = 1 + rng() % 64;
                }
            }
            x.spanning_jobs += record_running_uplinks(*x.placer, d, jobs);
            x.shared_states.push_back(std::move(d));
        }
        x.spanning_jobs /= static_cast<double>(x.shared_states.size());
        for (int i = 0; i < 2000; ++i) {
            Case c;
            c.state = static_cast<int>(rng() % x.states.size());
            if (const char* st = std::getenv("BENCH_PLACE_ONLY_STATE"))  // NOLINT(concurrency-mt-unsafe)
                c.state = static_cast<int>(std::strtol(st, nullptr, 10));
            const int k = static_cast<int>(rng() % 9);  // 1..256 hosts, powers of two
            c.req.nodes_min = 1 << k;
            if (rng() % 5 == 0) {
                c.req.exclusive = false;
                c.req.gpus_per_node = 1 + static_cast<int>(rng() % 8);
                c.req.nodes_min = 1 + static_cast<int>(rng() % 16);
            }
            // profiling: one class (setup, one thread)
            if (const char* only = std::getenv("BENCH_PLACE_ONLY_NODES")) {  // NOLINT(concurrency-mt-unsafe)
                c.req = Request{};
                c.req.nodes_min = std::max(1, static_cast<int>(std::strtol(only, nullptr, 10)));
            }
            x.cases.push_back(c);
        }
        return x;
    }();
    return w;
}

double thread_cpu_us() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

struct Figures {
    std::map<std::string, double> class_p50;  ///< cpu p50 per request class
    std::string tail;                         ///< what the slowest 1 % of decisions asked for
    std::string case_tail;                    ///< what the slowest 1 % of cases (least timing) asked for
    double p50 = 0, p99 = 0, max = 0, mean = 0;
    double cpu_p50 = 0, cpu_p99 = 0;
    /// per case, the least of its timings (every case runs 10 times, the passes interleaved):
    /// the decision's own cost without the machine's interruptions, p50/p99/max over cases
    double case_p50 = 0, case_p99 = 0, case_max = 0;
    long placed = 0, failed = 0;
    double groups = 0;
};

std::map<std::string, Figures> g_figures;

/// `hot`: every decision on the same state (a scheduler deciding on its current state,
/// or a what-if replay); otherwise the cases rotate over 20 states (cold caches).
/// `degraded`: the states with 0.5 % of hosts degraded (the degraded rule's extra work);
/// `shared`: the states with running multi-group jobs' uplinks recorded.
enum class Variant { Plain, Degraded, Shared };
void run_place(benchmark::State& state, Policy pol, bool hot, Variant v = Variant::Plain);

// Google Benchmark's BM_ names
// NOLINTBEGIN(readability-identifier-naming)
void BM_PlaceDegraded(benchmark::State& state, Policy pol) {
    run_place(state, pol, false, Variant::Degraded);
}

void BM_PlaceShared(benchmark::State& state, Policy pol) {
    run_place(state, pol, false, Variant::Shared);
}

void BM_Place(benchmark::State& state, Policy pol) {
    run_place(state, pol, false);
}

void BM_PlaceHot(benchmark::State& state, Policy pol) {
    run_place(state, pol, true);
}

// NOLINTEND(readability-identifier-naming)

void run_place(benchmark::State& state, Policy pol, bool hot, Variant v) {
    World& w = world();
    std::vector<double> us;
    std::vector<double> cpu;
    us.reserve(200000);
    cpu.reserve(200000);
    std::vector<std::pair<double, std::size_t>> by_case;  // cpu us, case index
    by_case.reserve(200000);
    std::vector<double> least(w.cases.size(), 1e300);  // wall us, per case
    std::size_t i = 0;
    long placed = 0;
    long failed = 0;
    double groups = 0;
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): Google Benchmark's loop
        const Case& c = w.cases[i % w.cases.size()];
        ++i;
        const double c0 = thread_cpu_us();
        const auto t0 = std::chrono::steady_clock::now();
        const auto& states = v == Variant::Degraded ? w.degraded_states
                             : v == Variant::Shared ? w.shared_states
                                                    : w.states;
        auto p = w.placer->place(states[hot ? 0U : static_cast<std::size_t>(c.state)], c.req, pol);
        const auto t1 = std::chrono::steady_clock::now();
        const double c1 = thread_cpu_us();
        cpu.push_back(c1 - c0);
        by_case.emplace_back(c1 - c0, (i - 1) % w.cases.size());
        benchmark::DoNotOptimize(p);
        us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        least[(i - 1) % w.cases.size()] = std::min(least[(i - 1) % w.cases.size()], us.back());
        if (p) {
            ++placed;
            groups += static_cast<double>(p->groups.size());
        } else {
            ++failed;
        }
    }
    std::sort(us.begin(), us.end());
    std::sort(cpu.begin(), cpu.end());
    Figures f;
    // The slowest 1 % by CPU time: how many nodes they asked for, exclusive or shared.
    std::sort(by_case.begin(), by_case.end(), std::greater<>());
    std::map<std::string, int> kinds;
    for (std::size_t k = 0; k < by_case.size() / 100; ++k) {
        const auto& r = w.cases[by_case[k].second].req;
        kinds[(r.exclusive ? "excl " : "shared ") + std::to_string(r.nodes_min)] += 1;
    }
    for (const auto& [kind, n] : kinds) f.tail += (f.tail.empty() ? "" : ", ") + kind + " x" + std::to_string(n);
    // CPU p50 per request class (exclusive by node count, shared).
    std::map<std::string, std::vector<double>> per_class;
    for (const auto& [t, ci] : by_case) {
        const auto& r = w.cases[ci].req;
        char key[32];
        std::snprintf(key, sizeof key, r.exclusive ? "excl %03d" : "shared", r.nodes_min);
        per_class[key].push_back(t);
    }
    for (auto& [k, times] : per_class) {
        std::sort(times.begin(), times.end());
        f.class_p50[k] = times[times.size() / 2];
    }
    f.cpu_p50 = cpu[cpu.size() / 2];
    f.cpu_p99 = cpu[std::min(cpu.size() - 1, cpu.size() * 99 / 100)];
    f.p50 = us[us.size() / 2];
    f.p99 = us[std::min(us.size() - 1, us.size() * 99 / 100)];
    f.max = us.back();
    {
        // the slowest 1 % of cases by their least timing: what sets case_p99
        std::vector<std::pair<double, std::size_t>> slow;
        for (std::size_t k = 0; k < least.size(); ++k)
            if (least[k] < 1e300) slow.emplace_back(least[k], k);
        std::sort(slow.begin(), slow.end(), std::greater<>());
        std::map<std::string, int> ck;
        for (std::size_t k = 0; k < slow.size() / 100; ++k) {
            const auto& r = w.cases[slow[k].second].req;
            ck[(r.exclusive ? "excl " : "shared ") + std::to_string(r.nodes_min)] += 1;
        }
        for (const auto& [kind, n] : ck)
            f.case_tail += (f.case_tail.empty() ? "" : ", ") + kind + " x" + std::to_string(n);
        // profiling: what the slowest cases decided (setup, one thread)
        if (std::getenv("BENCH_PLACE_EXPLAIN_SLOW") != nullptr) {  // NOLINT(concurrency-mt-unsafe)
            for (std::size_t k = 0; k < slow.size() / 100; ++k) {
                const Case& c = w.cases[slow[k].second];
                const auto& states = v == Variant::Degraded ? w.degraded_states
                                     : v == Variant::Shared ? w.shared_states
                                                            : w.states;
                auto p = w.placer->place(states[hot ? 0U : static_cast<std::size_t>(c.state)], c.req, pol);
                std::fprintf(stderr, "slow %.1f us, case %zu, state %d: %s\n", slow[k].first, slow[k].second, c.state,
                             p ? p->explanation.c_str() : p.error().to_string().c_str());
            }
        }
    }
    std::erase_if(least, [](double x) { return x >= 1e300; });  // cases not reached (fewer iterations)
    std::sort(least.begin(), least.end());
    if (!least.empty()) {
        f.case_p50 = least[least.size() / 2];
        f.case_p99 = least[std::min(least.size() - 1, least.size() * 99 / 100)];
        f.case_max = least.back();
    }
    double sum = 0;
    for (double x : us) sum += x;
    f.mean = sum / static_cast<double>(us.size());
    f.placed = placed;
    f.failed = failed;
    f.groups = placed > 0 ? groups / static_cast<double>(placed) : 0;
    state.counters["p50_us"] = f.p50;
    state.counters["p99_us"] = f.p99;
    state.counters["max_us"] = f.max;
    state.counters["cpu_p50_us"] = f.cpu_p50;
    state.counters["cpu_p99_us"] = f.cpu_p99;
    state.counters["case_p99_us"] = f.case_p99;
    state.counters["mean_groups"] = f.groups;
    g_figures[std::string(policy_name(pol)) + (hot ? " hot" : "")
              + (v == Variant::Degraded ? " degraded"
                 : v == Variant::Shared ? " shared"
                                        : "")] = f;
}

BENCHMARK_CAPTURE(BM_Place, topo, Policy::Topo)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Place, slurm_tree, Policy::SlurmTree)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Place, linear, Policy::Linear)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Place, cost, Policy::Cost)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PlaceDegraded, topo, Policy::Topo)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PlaceShared, cost, Policy::Cost)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PlaceHot, topo, Policy::Topo)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PlaceHot, slurm_tree, Policy::SlurmTree)->Iterations(kIterations)->Unit(benchmark::kMicrosecond);

// ------------------------------------------------------------------ --dump (equivalence)

/// One line per decision with everything place() returns (or its error), for comparing
/// two builds: `bench_place --dump=FILE` with each, then `cmp` (docs/placement.md).
std::string canon(const Result<Placement>& r) {
    std::string o;
    if (!r) {
        o = "ERR " + std::to_string(static_cast<int>(r.error().code)) + " " + r.error().to_string();
        return o;
    }
    const Placement& p = *r;
    o += std::string("OK ") + policy_name(p.policy) + " h";
    for (std::size_t i = 0; i < p.hosts.size(); ++i) {
        o += " " + std::to_string(p.hosts[i].index()) + ":";
        for (int g : p.gpus[i]) o += std::to_string(g) + ",";
    }
    o += " l";
    for (auto s : p.leaves) o += " " + std::to_string(s.index());
    o += " g";
    for (auto g : p.groups) o += " " + std::to_string(g.index());
    o += " d";
    for (auto d : p.nvl_domains) o += " " + std::to_string(d.index());
    o += " spl";
    for (int x : p.switches_per_level) o += " " + std::to_string(x);
    o += " t" + std::to_string(p.max_tier) + " hop" + std::to_string(p.hop_sum) + " lb"
         + std::to_string(p.lower_bound_groups) + "/" + std::to_string(p.lower_bound_leaves) + "/"
         + std::to_string(p.lower_bound_tier) + " G" + std::to_string(p.total_gpus) + " ign";
    for (const auto& i : p.ignored) o += " " + i;
    o += " | " + p.explanation;
    return o;
}

int dump(const char* path, int per_fabric) {
    std::FILE* f = std::fopen(path, "w");
    if (f == nullptr) {
        std::perror(path);
        return 1;
    }
    long lines = 0;
    for (int variant = 0; variant < 2; ++variant) {
        const auto topo = build_fabric(variant != 0);
        const Placer placer(*topo);
        const auto n = static_cast<std::uint32_t>(topo->hosts().size());
        std::mt19937 rng(static_cast<unsigned>(1234 + variant));
        std::uniform_real_distribution<double> u(0, 1);
        std::vector<ClusterState> states;
        for (int s = 0; s < 40; ++s) {
            ClusterState st(*topo);
            const double mean = 0.05 + 0.9 * u(rng);
            double level = mean;
            for (std::uint32_t h = 0; h < n; ++h) {
                if (h % kPerSu == 0) level = std::clamp(mean + 0.4 * (u(rng) - 0.5), 0.0, 1.0);
                const HostId id{h};
                const int total = !topo->host(id).gpus.empty() ? static_cast<int>(topo->host(id).gpus.size()) : 8;
                if (u(rng) < 0.03) st.set_total_gpus(id, 4);
                const int tot = st.total_gpus(*topo, id);
                if (u(rng) < level) {
                    if (u(rng) < 0.3) {
                        st.set_state(id, NodeState::Mixed);
                        const int fr = static_cast<int>(rng() % static_cast<unsigned>(tot + 1));
                        st.set_free_gpus(id, fr);
                        if (u(rng) < 0.5) {  // which GPUs are busy
                            std::vector<int> busy(static_cast<std::size_t>(tot));
                            std::iota(busy.begin(), busy.end(), 0);
                            std::shuffle(busy.begin(), busy.end(), rng);
                            busy.resize(static_cast<std::size_t>(tot - fr));
                            std::sort(busy.begin(), busy.end());
                            st.set_busy_gpus(id, busy);
                        }
                    } else {
                        st.set_state(id, NodeState::Alloc);
                        st.set_free_gpus(id, 0);
                    }
                } else if (u(rng) < 0.02) {
                    st.set_state(id, u(rng) < 0.5 ? NodeState::Drain : NodeState::Down);
                } else if (u(rng) < 0.01) {
                    st.set_unhealthy(id, true, "xid");
                }
                (void)total;
            }
            states.push_back(std::move(st));
        }
        for (int i = 0; i < per_fabric; ++i) {
            const auto& st = states[rng() % states.size()];
            Request r;
            const int k = static_cast<int>(rng() % 11);  // 1..1024
            r.nodes_min = 1 << k;
            if (rng() % 4 == 0) r.nodes_min = 1 + static_cast<int>(rng() % 300);
            if (rng() % 6 == 0) r.nodes_max = r.nodes_min + static_cast<int>(rng() % 40);
            const auto kind = rng() % 10;
            if (kind < 2) {
                r.exclusive = false;
                r.gpus_per_node = 1 + static_cast<int>(rng() % 8);
            } else if (kind == 2) {
                r.exclusive = false;
                r.nodes_min = 1;
                r.nodes_max = 0;
                r.total_gpus = 1 + static_cast<int>(rng() % 12);
            } else if (kind == 3) {
                r.exclusive = false;
                r.total_gpus = r.nodes_min * (1 + static_cast<int>(rng() % 8)) - static_cast<int>(rng() % 3);
                r.nodes_max = 0;
            } else if (kind == 4) {
                r.gpus_per_node = 1 + static_cast<int>(rng() % 8);
            }
            if (rng() % 8 == 0) r.max_leaves = 1 + static_cast<int>(rng() % 12);
            if (rng() % 8 == 0) r.max_tier = static_cast<int>(rng() % 3);
            if (rng() % 8 == 0) r.rail_aligned = true;
            if (rng() % 8 == 0) {
                r.segment = 1 << (rng() % 4);
                r.nodes_min = std::max(1, r.nodes_min / r.segment) * r.segment;
                if (r.nodes_max != 0)
                    r.nodes_max = std::max(r.nodes_min / r.segment, r.nodes_max / r.segment) * r.segment;
            }
            if (rng() % 8 == 0) {
                r.one_nvl_domain = true;
                r.nodes_min = 1 + static_cast<int>(rng() % 16);
                r.nodes_max = 0;
                if (r.segment > 0) r.nodes_min = std::max(1, r.nodes_min / r.segment) * r.segment;
            }
            if (rng() % 8 == 0) {
                for (int e = 0; e < 50; ++e) r.excluded.emplace_back(static_cast<std::uint32_t>(rng() % n));
            }
            for (Policy pol : {Policy::Topo, Policy::SlurmTree, Policy::Linear, Policy::Cost}) {
                std::fprintf(f, "%d %d %s\n", variant, i, canon(placer.place(st, r, pol)).c_str());
                ++lines;
            }
        }
    }
    {
        // "2": degraded hosts (1 %, slowdown 1.1: the rule's paths) and end-time hints (the
        // time-limit tie-breaks), on the first fabric; topo and cost (the policies with both)
        const auto topo = build_fabric(false);
        const Placer placer(*topo);
        const auto n = static_cast<std::uint32_t>(topo->hosts().size());
        std::mt19937 rng(4321);
        std::uniform_real_distribution<double> u(0, 1);
        std::vector<ClusterState> states;
        for (int s = 0; s < 20; ++s) {
            ClusterState st(*topo);
            const double busy = 0.3 + 0.6 * u(rng);
            for (std::uint32_t h = 0; h < n; ++h) {
                const HostId id{h};
                if (u(rng) < busy) {
                    st.set_state(id, NodeState::Alloc);
                    st.set_free_gpus(id, 0);
                    st.set_release_at(id, 1000.0 + 3600.0 * u(rng));
                } else if (u(rng) < 0.1) {
                    st.set_state(id, NodeState::Mixed);
                    st.set_free_gpus(id, 1 + static_cast<int>(rng() % 7));
                    st.set_release_at(id, 1000.0 + 3600.0 * u(rng));
                }
                if (u(rng) < 0.01) st.set_slowdown(id, 1.1);
            }
            states.push_back(std::move(st));
        }
        for (int i = 0; i < per_fabric; ++i) {
            const auto& st = states[rng() % states.size()];
            Request r;
            r.nodes_min = 1 << (rng() % 9);  // 1..256
            if (rng() % 4 == 0) {
                r.exclusive = false;
                r.gpus_per_node = 1 + static_cast<int>(rng() % 8);
                r.nodes_min = 1 + static_cast<int>(rng() % 16);
            }
            if (rng() % 2 == 0) {
                r.now = 1000;
                r.time_limit = 600.0 * static_cast<double>(1 + rng() % 12);
            }
            if (rng() % 8 == 0) r.avoid_degraded = false;
            for (Policy pol : {Policy::Topo, Policy::Cost}) {
                std::fprintf(f, "2 %d %s\n", i, canon(placer.place(st, r, pol)).c_str());
                ++lines;
            }
        }
    }
    std::fclose(f);
    std::printf("dump: %ld decisions written to %s\n", lines, path);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--dump=", 0) == 0) {
            int per = 3000;
            if (i + 1 < argc && std::string(argv[i + 1]).rfind("--dump-n=", 0) == 0)
                per = static_cast<int>(std::strtol(argv[i + 1] + 9, nullptr, 10));
            return dump(argv[i] + 7, per);
        }
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    World& w = world();
    const auto s = w.topo->summary();
    std::printf(
        "fabric: %d hosts, %d GPUs, %d switches, %d tiers, %d rails, %zu leaf groups; states %.0f %% busy; "
        "Placer index built in %.1f ms\n",
        s.hosts, s.gpus, s.switches, s.tiers, s.rails, w.topo->groups().size(), 100 * w.busy_share, w.index_build_ms);
    std::printf("'cost shared': the same states with %.1f running jobs spanning leaf groups recorded per state\n",
                w.spanning_jobs);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf(
        "\nwall = steady_clock per decision; cpu = this thread's CPU time per decision (robust to a loaded "
        "machine)\n");
    std::printf("%-14s %9s %9s %9s %9s %11s %11s %8s %7s %12s\n", "policy", "p50_us", "p99_us", "max_us", "mean_us",
                "cpu_p50_us", "cpu_p99_us", "placed", "failed", "mean_groups");
    for (const char* n :
         {"topo", "slurm-tree", "linear", "cost", "cost shared", "topo degraded", "topo hot", "slurm-tree hot"}) {
        auto it = g_figures.find(n);
        if (it == g_figures.end()) continue;
        const auto& f = it->second;
        std::printf("%-14s %9.1f %9.1f %9.1f %9.1f %11.1f %11.1f %8ld %7ld %12.3f\n", n, f.p50, f.p99, f.max, f.mean,
                    f.cpu_p50, f.cpu_p99, f.placed, f.failed, f.groups);
    }
    // Per case, the least of its 10 timings: what the decision itself costs. On a shared or
    // virtual machine an interrupt or a neighbour adds tens of microseconds to about 1 % of
    // 5-10 us decisions, whatever they compute (the "hot" rows repeat one decision and still
    // show it), so the raw p99 of a fast policy measures the machine; this one measures the
    // slowest decisions.
    std::printf("\nper case, the least of its %d timings (the cases' passes interleaved: same cache state as above)\n",
                kIterations / static_cast<int>(w.cases.size()));
    std::printf("%-14s %9s %9s %9s\n", "policy", "case_p50", "case_p99", "case_max");
    for (const char* n : {"topo", "slurm-tree", "linear", "cost", "cost shared", "topo degraded"}) {
        auto it = g_figures.find(n);
        if (it == g_figures.end()) continue;
        const auto& f = it->second;
        std::printf("%-14s %9.1f %9.1f %9.1f   slowest 1 %%: %s\n", n, f.case_p50, f.case_p99, f.case_max,
                    f.case_tail.c_str());
    }
    for (const char* n : {"topo", "cost", "cost shared", "topo degraded"}) {
        if (!g_figures.contains(n) || !g_figures.contains("slurm-tree")) continue;
        const auto& a = g_figures[n];
        const auto& b = g_figures["slurm-tree"];
        std::printf(
            "per case: ratio slurm-tree/%s p50 %.2fx, p99 %.2fx (target >= 10x: %s); %s p99 %.1f us (<= 200: %s)\n", n,
            b.case_p50 / a.case_p50, b.case_p99 / a.case_p99, b.case_p99 >= 10 * a.case_p99 ? "met" : "NOT met", n,
            a.case_p99, a.case_p99 <= 200 ? "met" : "NOT met");
    }
    // the cost policy and the degraded rule against the same slurm-tree run (issue 16 item 4:
    // decisions in microseconds, >= 10x faster than slurm-tree, p99 <= 200 us)
    for (const char* n : {"cost", "cost shared", "topo degraded"}) {
        if (!g_figures.contains(n) || !g_figures.contains("slurm-tree")) continue;
        const auto& a = g_figures[n];
        const auto& b = g_figures["slurm-tree"];
        std::printf(
            "ratio slurm-tree/%s: wall p50 %.2fx, p99 %.2fx; cpu p50 %.2fx, p99 %.2fx (target >= 10x); "
            "%s p99 <= 200 us: wall %.1f us (%s), cpu %.1f us (%s)\n",
            n, b.p50 / a.p50, b.p99 / a.p99, b.cpu_p50 / a.cpu_p50, b.cpu_p99 / a.cpu_p99, n, a.p99,
            a.p99 <= 200 ? "met" : "NOT met", a.cpu_p99, a.cpu_p99 <= 200 ? "met" : "NOT met");
    }
    for (const char* sfx : {"", " hot"}) {
        const std::string ka = std::string("topo") + sfx;
        const std::string kb = std::string("slurm-tree") + sfx;
        if (!g_figures.contains(ka) || !g_figures.contains(kb)) continue;
        const auto& a = g_figures[ka];
        const auto& b = g_figures[kb];
        std::printf("%s:\n", *sfx != '\0' ? "same state (hot)" : "20 states rotating (cold)");
        std::printf(
            "ratio slurm-tree/topo: wall p50 %.2fx, p99 %.2fx, mean %.2fx; cpu p50 %.2fx, p99 %.2fx "
            "(target >= 10x)\n",
            b.p50 / a.p50, b.p99 / a.p99, b.mean / a.mean, b.cpu_p50 / a.cpu_p50, b.cpu_p99 / a.cpu_p99);
        std::printf("topo p99 target <= 200 us: wall %.1f us (%s), cpu %.1f us (%s)\n", a.p99,
                    a.p99 <= 200 ? "met" : "NOT met", a.cpu_p99, a.cpu_p99 <= 200 ? "met" : "NOT met");
        std::printf("slowest 1 %% (cpu) asked for: topo [%s]; slurm-tree [%s]\n", a.tail.c_str(), b.tail.c_str());
        std::printf("cpu p50 per request class (us): class topo slurm-tree ratio\n");
        for (const auto& [k, v] : a.class_p50) {
            const auto it = b.class_p50.find(k);
            if (it == b.class_p50.end()) continue;
            std::printf("  %-10s %8.1f %8.1f %6.1fx\n", k.c_str(), v, it->second, it->second / v);
        }
    }
    return 0;
}
