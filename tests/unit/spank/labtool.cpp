// SPDX-License-Identifier: Apache-2.0
// Helper for tests/lab/t-spank.sh: drives the real libraries the plugin uses, so that the
// lab test does not depend on the state of the CLI.
//   topo_spank_labtool flag DIR NODE REASON     health store: mark NODE unhealthy
//   topo_spank_labtool clear DIR NODE           health store: remove NODE's record
//   topo_spank_labtool place SNAPSHOT N [GPN]   place() (pack, the plugin's default policy) on `scontrol show nodes
//                                               --oneliner` text from stdin; prints
//                                               "<hostlist> <plan constraint>"
//   topo_spank_labtool gate-bench DIR NODE N    time N launch-gate decisions (open + get +
//                                               verdict), prints the median in microseconds
//   topo_spank_labtool decision-bench SNAPSHOT HEALTH SOCKET N
//                                               a 4-node pack decision N times both ways:
//                                               in-process as the plugin makes it without a
//                                               service (compiled snapshot load + health +
//                                               place + plan; node state: all idle, no RPC)
//                                               and through the service at SOCKET; prints
//                                               both medians in milliseconds
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <topo/health/store.hpp>
#include <topo/hostlist.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/slurm_state.hpp>
#include <topo/snapshot.hpp>
#include <topo/snapshot_bin.hpp>

#include "core.hpp"
#include "service.hpp"

using namespace topo;

namespace {
int die(const std::string& m) {
    std::fprintf(stderr, "labtool: %s\n", m.c_str());
    return 1;
}

/// A count argument: its leading decimal digits (0 when there are none), as the lab passes them.
int count_arg(const std::string& s) {
    return static_cast<int>(std::strtol(s.c_str(), nullptr, 10));
}

int run(const std::vector<std::string>& a);
}  // namespace

int main(int argc, char** argv) {
    try {
        return run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception& e) {
        return die(e.what());
    }
}

namespace {

int run(const std::vector<std::string>& a) {
    if (a.size() == 4 && a[0] == "flag") {
        health::StoreOptions so;
        so.create = true;
        auto s = health::Store::open(a[1], so);
        if (!s) return die(s.error().to_string());
        health::Record r;
        r.node = a[2];
        r.verdict = health::Verdict::Unhealthy;
        r.reason = a[3];
        r.source = "operator";
        r.since = r.last_check = static_cast<std::int64_t>(std::time(nullptr));
        auto st = s->put(r);
        return st ? 0 : die(st.error().to_string());
    }
    if (a.size() == 3 && a[0] == "clear") {
        auto s = health::Store::open(a[1]);
        if (!s) return die(s.error().to_string());
        auto st = s->remove(a[2]);
        return st ? 0 : die(st.error().to_string());
    }
    if ((a.size() == 3 || a.size() == 4) && a[0] == "place") {
        auto topo = load_snapshot(a[1]);
        if (!topo) return die(topo.error().to_string());
        std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        auto st = placement::parse_scontrol_nodes(**topo, text, "<stdin>");
        if (!st) return die(st.error().to_string());
        placement::Request r;
        r.nodes_min = count_arg(a[2]);
        if (a.size() == 4) r.gpus_per_node = count_arg(a[3]);
        r.exclusive = true;
        auto p = placement::place(**topo, *st, r, spank::Config{}.policy);  // the plugin's default policy
        if (!p) return die(p.error().to_string());
        auto plan = spank::make_plan(**topo, *p, spank::Mode::Pack, 300, {});
        std::printf("%s %s\n", compress_hostlist(plan.hosts).c_str(), spank::plan_constraint(plan).c_str());
        return 0;
    }
    if (a.size() == 4 && a[0] == "gate-bench") {
        const int n = std::max(1, count_arg(a[3]));
        std::vector<double> us;
        bool allow = true;
        for (int i = 0; i < n; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            const auto d = health::gate(a[1], a[2], health::FailMode::Closed);  // as the job prolog
            if (d.store_error) return die(d.message);
            allow = d.allow;
            us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(us.begin(), us.end());
        std::printf("%.1f %s\n", us[us.size() / 2], allow ? "allow" : "refuse");
        return 0;
    }
    if (a.size() == 5 && a[0] == "decision-bench") {
        const int n = std::max(1, count_arg(a[4]));
        spank::ServiceRequest q;
        q.snapshot = a[1];
        q.health = a[2];
        q.sr.nodes = "4";
        q.sr.exclusive = "exclusive";
        q.opts.mode = spank::Mode::Pack;
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v[v.size() / 2];
        };
        std::vector<double> local;
        std::vector<double> svc;
        for (int i = 0; i < n; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            auto r = load_snapshot_fast(a[1], 0, BinCheck::Checksum);
            if (!r) return die(r.error().to_string());
            auto bad = spank::health_flags(*r->topo, a[2]);
            if (!bad) return die(bad.error().to_string());
            const placement::Placer placer(*r->topo);  // as place() does at every call
            auto rep = spank::serve(placer, q, placement::ClusterState(*r->topo), *bad);
            if (rep.kind != spank::ServiceReply::Kind::Planned) return die("in-process: " + rep.message);
            local.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            t0 = std::chrono::steady_clock::now();
            auto s = spank::call_service(a[3], q, 2000);
            if (!s) return die(s.error().to_string());
            if (s->kind != spank::ServiceReply::Kind::Planned) return die("service: " + s->message);
            svc.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::printf("in-process %.3f ms, service %.3f ms\n", median(local), median(svc));
        return 0;
    }
    return die(
        "usage: flag DIR NODE REASON | clear DIR NODE | place SNAPSHOT N [GPN] | gate-bench DIR NODE N | "
        "decision-bench SNAPSHOT HEALTH SOCKET N");
}

}  // namespace
