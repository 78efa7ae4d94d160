// SPDX-License-Identifier: Apache-2.0
// topoplace whatif SNAPSHOT (--trace FILE | --generate N [--load L]) [--policies P,...]
//   [--failures FILE] [--checkpoint-interval S] [--restart-cost S] [--health-gate on|off|both]
//   [--seed S] [--json] [--report DIR] [--progress]
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <topo/hostlist.hpp>
#include <topo/perf/model.hpp>
#include <topo/snapshot.hpp>
#include <topo/whatif/failures.hpp>
#include <topo/whatif/report.hpp>
#include <topo/whatif/trace.hpp>
#include <topo/whatif/whatif.hpp>

#include "commands.hpp"
#include "common.hpp"
#include <unistd.h>

namespace topo::cli {

namespace {

struct WhatifOptions {  // (members by size: no padding between them)
    std::string snapshot;
    std::string trace;
    std::string durations;
    std::string policies = "cost,topo,slurm-tree-24,slurm-tree,linear";
    std::string failures;
    std::string health_gate = "off";
    std::string report;
    std::string model;
    std::string degraded_rule = "on";
    std::string decide = "start";
    std::string degraded_hosts;
    std::string command_line;
    std::uint64_t seed = 1;
    double load = 0.85;
    double checkpoint_interval = 0;
    double restart_cost = 0;
    double repair_time = 4 * 3600.0;
    double gate_coverage = 0.5;
    double gate_window = 6 * 3600.0;
    double ideal_mfu = 0.5;
    double degraded = 0;
    double degraded_slowdown = 0;
    double degraded_wait = 600;  // the topology plugin's degraded_wait= default
    double withheld_wait = 600;  // the topology plugin's withheld_wait= default
    double switch_wait = 300;
    bool plan_queued = false;
    int generate = 0;
    int max_nodes = 0;
    int backfill_depth = 100;
    std::string backfill_reservation = "count";
    bool json = false;
    bool progress = false;
    bool no_model = false;
};

/// A one-line progress bar on stderr: "whatif [#########.........]  45%".
class ProgressBar {
public:
    void update(double f) {
        const int pct = static_cast<int>(std::lround(f * 100));
        if (pct == last_) return;
        last_ = pct;
        constexpr int kWidth = 30;
        const int fill = pct * kWidth / 100;
        std::fprintf(stderr, "\rwhatif [%s%s] %3d%%", std::string(static_cast<std::size_t>(fill), '#').c_str(),
                     std::string(static_cast<std::size_t>(kWidth - fill), '.').c_str(), pct);
        std::fflush(stderr);
    }

    void done() const {
        if (last_ >= 0) std::fprintf(stderr, "\n");
    }

private:
    int last_ = -1;
};

std::string fmt_double(double v) {
    std::ostringstream o;
    o << v;
    return o.str();
}

int run_whatif(const WhatifOptions& o) {
    if (o.trace.empty() == (o.generate <= 0)) {
        std::fprintf(stderr, "topoplace: whatif: give exactly one of --trace FILE or --generate N\n");
        return kUsage;
    }
    whatif::SimOptions so;
    so.policies.clear();
    std::stringstream ps(o.policies);
    for (std::string name; std::getline(ps, name, ',');) {
        auto p = placement::policy_from_name(name);
        if (!p) {
            std::fprintf(
                stderr,
                "topoplace: whatif: unknown policy '%s' (topo, slurm-tree, slurm-tree-24, linear, cost, spread)\n",
                name.c_str());
            return kUsage;
        }
        so.policies.push_back(*p);
    }
    if (so.policies.empty()) {
        std::fprintf(stderr, "topoplace: whatif: --policies is empty\n");
        return kUsage;
    }
    so.decides.clear();
    std::stringstream ds(o.decide);
    for (std::string name; std::getline(ds, name, ',');) {
        if (name == "start") {
            so.decides.push_back(whatif::Decide::Start);
        } else if (name == "submit") {
            so.decides.push_back(whatif::Decide::Submit);
        } else {
            std::fprintf(stderr, "topoplace: whatif: --decide: unknown mode '%s' (start, submit)\n", name.c_str());
            return kUsage;
        }
    }
    if (so.decides.empty()) {
        std::fprintf(stderr, "topoplace: whatif: --decide is empty\n");
        return kUsage;
    }
    so.switch_wait_s = o.switch_wait;
    so.plan_queued = o.plan_queued;
    if (!o.degraded_hosts.empty() && o.no_model) {
        std::fprintf(stderr, "topoplace: --degraded-hosts needs the performance model: drop --no-model\n");
        return kUsage;
    }
    so.gates = o.health_gate == "both" ? std::vector<bool>{false, true} : std::vector<bool>{o.health_gate == "on"};
    perf::Params model;
    if (!o.no_model && !o.model.empty()) {
        auto m = perf::read_params_file(o.model);
        if (!m) return report(m.error());
        model = *m;
    }
    if (!o.no_model) so.model = &model;
    so.ideal_mfu = o.ideal_mfu;
    so.degraded_share = o.degraded;
    so.degraded_slowdown = o.degraded_slowdown;
    so.degraded_rule = o.degraded_rule == "on";
    so.degraded_wait_s = o.degraded_wait;
    so.withheld_wait_s = o.withheld_wait;
    if (o.degraded > 0 && o.no_model) {
        std::fprintf(
            stderr,
            "topoplace: --degraded needs the performance model (a degraded host costs S_deg): drop --no-model\n");
        return kUsage;
    }
    so.checkpoint_interval_s = o.checkpoint_interval;
    so.restart_cost_s = o.restart_cost;
    so.repair_s = o.repair_time;
    so.gate_coverage = o.gate_coverage;
    so.gate_window_s = o.gate_window;
    so.backfill_depth = o.backfill_depth;
    so.reserve_hosts = o.backfill_reservation == "hosts";
    so.seed = o.seed;

    auto topo = load_snapshot(o.snapshot);
    if (!topo) return report(topo.error());
    const auto& t = **topo;
    if (!o.degraded_hosts.empty()) {
        auto names = expand_hostlist(o.degraded_hosts);
        if (!names) return report(names.error());
        for (const auto& n : *names) {
            auto h = t.find_host(n);
            if (!h) {
                std::fprintf(stderr, "topoplace: whatif: --degraded-hosts: %s is not a host of %s\n", n.c_str(),
                             o.snapshot.c_str());
                return kUsage;
            }
            so.degraded_hosts.push_back(*h);
        }
    }

    whatif::FailureModel fm;
    if (!o.failures.empty()) {
        auto f = whatif::read_failure_table(o.failures);
        if (!f) return report(f.error());
        fm = std::move(*f);
        so.failures = &fm;
    }

    whatif::Trace trace;
    if (!o.trace.empty()) {
        auto tr = whatif::read_trace_file(o.trace);
        if (!tr) return report(tr.error());
        trace = std::move(*tr);
        if (trace.jobs.empty()) {
            std::fprintf(stderr, "topoplace: %s: no replayable jobs\n", o.trace.c_str());
            for (const auto& n : trace.notes) std::fprintf(stderr, "topoplace: note: %s\n", n.c_str());
            return kDataErr;
        }
    } else {
        whatif::GeneratorOptions g;
        g.jobs = o.generate;
        g.load = o.load;
        g.seed = o.seed;
        g.max_nodes = o.max_nodes;
        auto hosts = whatif::compute_hosts(t);
        g.cluster_nodes = static_cast<int>(hosts.size());
        int gmax = 0;
        for (HostId h : hosts) gmax = std::max(gmax, static_cast<int>(t.host(h).gpus.size()));
        g.gpus_per_node = gmax;
        if (!o.durations.empty()) {
            auto d = whatif::read_runtime_samples(o.durations);
            if (!d) return report(d.error());
            g.duration_samples = std::move(*d);
        }
        auto tr = whatif::generate_trace(g);
        if (!tr) return report(tr.error());
        trace = std::move(*tr);
    }
    for (const auto& n : trace.notes) std::fprintf(stderr, "topoplace: note: %s\n", n.c_str());

    ProgressBar bar;
    const bool show = o.progress || isatty(STDERR_FILENO) != 0;
    if (show) so.progress = [&bar](double f) { bar.update(f); };
    auto r = whatif::simulate(t, trace, so);
    if (show) bar.done();
    if (!r) return report(r.error());

    whatif::ReportContext ctx;
    ctx.command = o.command_line;
    ctx.snapshot = o.snapshot;
    ctx.settings = {{"seed", std::to_string(o.seed)},
                    {"health_gate", o.health_gate},
                    {"checkpoint_interval_s", fmt_double(o.checkpoint_interval)},
                    {"restart_cost_s", fmt_double(o.restart_cost)},
                    {"repair_time_s", fmt_double(o.repair_time)},
                    {"gate_coverage", fmt_double(o.gate_coverage)},
                    {"gate_window_s", fmt_double(o.gate_window)},
                    {"backfill_depth", std::to_string(o.backfill_depth)},
                    {"backfill_reservation", o.backfill_reservation}};
    if (o.generate > 0) {
        ctx.settings.emplace_back("generate", std::to_string(o.generate));
        ctx.settings.emplace_back("load", fmt_double(o.load));
    }
    if (!o.failures.empty()) ctx.settings.emplace_back("failures", o.failures);
    ctx.settings.emplace_back("model", o.no_model ? "off" : (o.model.empty() ? "defaults" : o.model));
    if (o.degraded > 0) {
        ctx.settings.emplace_back("degraded", fmt_double(o.degraded));
        if (o.degraded_slowdown > 0) ctx.settings.emplace_back("degraded_slowdown", fmt_double(o.degraded_slowdown));
        ctx.settings.emplace_back("degraded_rule", o.degraded_rule);
    }
    if (o.degraded_wait != 600) ctx.settings.emplace_back("degraded_wait", fmt_double(o.degraded_wait));
    if (o.withheld_wait != 600) ctx.settings.emplace_back("withheld_wait", fmt_double(o.withheld_wait));

    if (!o.report.empty()) {
        if (auto st = whatif::write_report(*r, ctx, o.report); !st) {
            report(st.error());
            return kCantCreate;
        }
    }
    std::cout << (o.json ? whatif::render_json(*r, ctx) : whatif::render_table(*r));
    std::cout.flush();
    return std::cout ? kOk : kCantCreate;
}

}  // namespace

Runner add_whatif(CLI::App& app) {
    auto opts = std::make_shared<WhatifOptions>();
    auto* sub = app.add_subcommand("whatif", "Replay a job trace on a snapshot under several placement policies");
    sub->add_option("snapshot", opts->snapshot, "snapshot file written by `topoplace discover`")->required();
    auto* trace = sub->add_option("--trace", opts->trace,
                                  "job trace: sacct --parsable2 export, CSV submit_s,duration_s,nodes,gpus_per_node"
                                  "[,timelimit_s], or an Alibaba pod/instance list");
    auto* gen = sub->add_option("--generate", opts->generate, "generate a trace of N jobs instead")
                    ->check(CLI::Range(1, 10000000));
    trace->excludes(gen);
    sub->add_option("--load", opts->load, "offered load of the generated trace")
        ->check(CLI::Range(0.01, 10.0))
        ->capture_default_str();
    sub->add_option("--durations", opts->durations,
                    "generated durations drawn from this runtime sample (one column 'runtime', seconds)");
    sub->add_option("--max-nodes", opts->max_nodes, "largest generated job (default min(nodes/4, 256))")
        ->check(CLI::Range(0, 1000000));
    sub->add_option("--policies", opts->policies,
                    "comma-separated: topo, slurm-tree, slurm-tree-24, linear, cost, spread")
        ->capture_default_str();
    sub->add_option("--decide", opts->decide,
                    "when topo and cost choose: start (topology/topoplace, Slurm 24.11+), submit (the SPANK "
                    "plugin's plan at submission, Slurm 22.05), or start,submit side by side")
        ->capture_default_str();
    sub->add_option("--switch-wait", opts->switch_wait,
                    "--decide submit: seconds Slurm waits for the plan's switch count (the plugin's wait=)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_flag("--plan-queued", opts->plan_queued,
                  "--decide submit: plan jobs that arrive behind queued jobs too (the plugin's queued_plan=yes); "
                  "by default they get no plan, as with the plugin");
    sub->add_option("--degraded-hosts", opts->degraded_hosts,
                    "hostlist of hosts degraded for the whole replay, besides --degraded's share (e.g. a live "
                    "replay's flagged hosts)");
    sub->add_option("--failures", opts->failures, "failure table (e.g. the Llama 3 405B interruption table)");
    sub->add_option("--checkpoint-interval", opts->checkpoint_interval,
                    "seconds between checkpoints (0 = none: a killed job restarts from zero)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--restart-cost", opts->restart_cost, "seconds lost at every restart")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--repair-time", opts->repair_time, "seconds a failed node stays down")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--health-gate", opts->health_gate, "launch health gate: on, off, or both (side by side)")
        ->check(CLI::IsMember({"on", "off", "both"}))
        ->capture_default_str();
    sub->add_option("--gate-coverage", opts->gate_coverage,
                    "share of hardware failures the gate sees coming (an assumption, see docs/whatif.md)")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    sub->add_option("--gate-window", opts->gate_window, "seconds before a failure that the gate flags the node")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--backfill-depth", opts->backfill_depth, "queue entries tried per backfill pass")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    sub->add_option("--backfill-reservation", opts->backfill_reservation,
                    "what backfill keeps for the queue head: only the count of hosts its reservation "
                    "needs (count), or those hosts, never offered to a job that would end after it (hosts)")
        ->check(CLI::IsMember({"hosts", "count"}))
        ->capture_default_str();
    sub->add_option("--seed", opts->seed, "seed for the generator and the failures")->capture_default_str();
    sub->add_option("--model", opts->model, "performance model file (default: the published defaults)");
    sub->add_flag("--no-model", opts->no_model, "no performance model: every placement runs at full speed");
    sub->add_option("--ideal-mfu", opts->ideal_mfu, "MFU of a job at its best placement, for effective MFU")
        ->check(CLI::Range(0.01, 1.0))
        ->capture_default_str();
    sub->add_option("--degraded", opts->degraded,
                    "share of compute hosts degraded for the whole replay (PERF-MODEL: 0.005, MegaScale)")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    sub->add_option("--degraded-slowdown", opts->degraded_slowdown,
                    "how much slower a degraded host runs a job (0 = the model's degraded_default, 1.1)")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    sub->add_option("--degraded-rule", opts->degraded_rule,
                    "on: topo and cost keep degraded hosts out of multi-node jobs while others fit; off: no rule")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    sub->add_option("--degraded-wait", opts->degraded_wait,
                    "seconds topo and cost decided at start hold a multi-node job rather than put it on a degraded "
                    "host while healthy ones are free but withheld (the topology plugin's degraded_wait=; at most "
                    "its limit x (slowdown - 1); arises with --backfill-reservation hosts; 0: never)")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
    sub->add_option("--withheld-wait", opts->withheld_wait,
                    "seconds topo and cost decided at start hold a multi-node job whose placement on its offer "
                    "the hosts withheld from it would beat on leaf groups or spines (the topology plugin's "
                    "withheld_wait=; at most its limit x (S_offer / S_all - 1); arises with "
                    "--backfill-reservation hosts; 0: never)")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
    sub->add_flag("--json", opts->json, "print one JSON object instead of the table");
    sub->add_option("--report", opts->report, "write DIR/index.html with plots");
    sub->add_flag("--progress", opts->progress, "progress bar on stderr even when it is not a terminal");
    return [opts, sub]() {
        // The command line for the report (what a reader needs to reproduce it).
        std::string cmd = "topoplace whatif";
        cmd += " " + opts->snapshot;
        if (!opts->trace.empty()) cmd += " --trace " + opts->trace;
        if (opts->generate > 0)
            cmd += " --generate " + std::to_string(opts->generate) + " --load " + fmt_double(opts->load);
        cmd += " --policies " + opts->policies + " --seed " + std::to_string(opts->seed);
        if (opts->decide != "start")
            cmd += " --decide " + opts->decide + " --switch-wait " + fmt_double(opts->switch_wait)
                   + (opts->plan_queued ? " --plan-queued" : "");
        if (!opts->failures.empty()) cmd += " --failures " + opts->failures;
        if (opts->checkpoint_interval > 0) cmd += " --checkpoint-interval " + fmt_double(opts->checkpoint_interval);
        if (opts->restart_cost > 0) cmd += " --restart-cost " + fmt_double(opts->restart_cost);
        if (opts->health_gate != "off") cmd += " --health-gate " + opts->health_gate;
        if (opts->degraded > 0) {
            cmd += " --degraded " + fmt_double(opts->degraded);
            if (opts->degraded_slowdown > 0) cmd += " --degraded-slowdown " + fmt_double(opts->degraded_slowdown);
            if (opts->degraded_rule != "on") cmd += " --degraded-rule " + opts->degraded_rule;
        }
        if (opts->degraded_wait != 600) cmd += " --degraded-wait " + fmt_double(opts->degraded_wait);
        if (opts->withheld_wait != 600) cmd += " --withheld-wait " + fmt_double(opts->withheld_wait);
        opts->command_line = cmd;
        return run_whatif(*opts);
    };
}

}  // namespace topo::cli
