// SPDX-License-Identifier: Apache-2.0
// Helper for tests/lab/t-spank.sh: drives the real libraries the plugin uses, so that the
// lab test does not depend on the state of the CLI.
//   topo_spank_labtool flag DIR NODE REASON     health store: mark NODE unhealthy
//   topo_spank_labtool clear DIR NODE           health store: remove NODE's record
//   topo_spank_labtool place SNAPSHOT N [GPN]   place() (pack) on `scontrol show nodes
//                                               --oneliner` text from stdin; prints
//                                               "<hostlist> <plan constraint>"
//   topo_spank_labtool gate-bench DIR NODE N    time N launch-gate decisions (open + get +
//                                               verdict), prints the median in microseconds
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <topo/health/store.hpp>
#include <topo/hostlist.hpp>
#include <topo/placement/place.hpp>
#include <topo/snapshot.hpp>

#include "core.hpp"

using namespace topo;

namespace {
int die(const std::string& m) {
    std::fprintf(stderr, "labtool: %s\n", m.c_str());
    return 1;
}
}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> a(argv + 1, argv + argc);
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
        r.nodes_min = std::atoi(a[2].c_str());
        if (a.size() == 4) r.gpus_per_node = std::atoi(a[3].c_str());
        r.exclusive = true;
        auto p = placement::place(**topo, *st, r);
        if (!p) return die(p.error().to_string());
        auto plan = spank::make_plan(**topo, *p, spank::Mode::Pack, 300, {});
        std::printf("%s %s\n", compress_hostlist(plan.hosts).c_str(), spank::plan_constraint(plan).c_str());
        return 0;
    }
    if (a.size() == 4 && a[0] == "gate-bench") {
        const int n = std::max(1, std::atoi(a[3].c_str()));
        std::vector<double> us;
        bool allow = true;
        for (int i = 0; i < n; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            auto s = health::Store::open(a[1]);
            if (!s) return die(s.error().to_string());
            auto rec = s->get(a[2]);
            if (!rec) return die(rec.error().to_string());
            allow = spank::gate_verdict(*rec).allow;
            us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(us.begin(), us.end());
        std::printf("%.1f %s\n", us[us.size() / 2], allow ? "allow" : "refuse");
        return 0;
    }
    return die("usage: flag DIR NODE REASON | clear DIR NODE | place SNAPSHOT N [GPN] | gate-bench DIR NODE N");
}
