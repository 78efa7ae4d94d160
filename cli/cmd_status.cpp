// SPDX-License-Identifier: Apache-2.0
// topoplace status: the running jobs, what their placements cost now (predicted slowdown,
// the best placement they could have now, GPU-hours per hour lost to placement and to
// degraded hosts), as a table, JSON or Prometheus textfile metrics (issue 16 item 6).
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <topo/health/check.hpp>
#include <topo/health/flags.hpp>
#include <topo/health/store.hpp>
#include <topo/hostlist.hpp>
#include <topo/perf/model.hpp>
#include <topo/placement/running.hpp>
#include <topo/placement/slurm_state.hpp>
#include <topo/placement/state.hpp>
#include <topo/snapshot.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

namespace {

struct StatusOptions {
    std::string snapshot;
    std::string jobs;   // file; empty = run squeue --json
    std::string nodes;  // file (scontrol oneliner or state JSON); empty = run scontrol when jobs are live
    std::string health_store;
    std::string model;
    std::string scontrol = "scontrol";
    std::string squeue = "squeue";
    std::string prometheus;
    double max_seconds = 20;  // for the best-placement searches
    bool json = false;
};

/// `scontrol show nodes --oneliner`, bounded (30 s, 256 MiB), its stdout.
Result<std::string> scontrol_nodes(const std::string& prog) {
    auto r = health::run_process({prog, "show", "nodes", "--oneliner"}, std::chrono::seconds(30), false, 256U << 20);
    if (!r.started) return fail(Errc::Unsupported, "cannot run " + prog);
    if (r.timed_out) return fail(Errc::Unsupported, prog + " show nodes timed out after 30 s");
    if (r.exit_code != 0)
        return fail(Errc::Unsupported, prog + " show nodes failed (exit " + std::to_string(r.exit_code) + ")");
    if (r.truncated)
        return fail(Errc::Unsupported,
                    prog + " show nodes printed more than 256 MiB; save it to a file and give --nodes FILE");
    return r.out;
}

/// `squeue --all --json`, bounded like scontrol_nodes(): the job table in a form where no text a
/// user controls can pose as a field (22.05's `scontrol` has no --json; squeue has on all).
Result<std::string> squeue_json(const std::string& prog) {
    auto r = health::run_process({prog, "--all", "--json"}, std::chrono::seconds(30), false, 256U << 20);
    if (!r.started) return fail(Errc::Unsupported, "cannot run " + prog);
    if (r.timed_out) return fail(Errc::Unsupported, prog + " --json timed out after 30 s");
    if (r.exit_code != 0) {
        return fail(Errc::Unsupported, prog + " --all --json failed (exit " + std::to_string(r.exit_code)
                                           + "; it needs Slurm's serializer/json plugin, in slurm-wlm-basic-plugins)");
    }
    if (r.truncated) {
        return fail(Errc::Unsupported,
                    prog + " --json printed more than 256 MiB; save it to a file and give --jobs FILE");
    }
    return r.out;
}

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string prometheus(const Topology& t, const std::vector<placement::RunningJob>& jobs,
                       const placement::ClusterCost& c) {
    (void)t;
    std::string s;
    s += "# HELP topoplace_running_jobs Running jobs on the snapshot's hosts.\n# TYPE topoplace_running_jobs gauge\n";
    s += "topoplace_running_jobs " + std::to_string(jobs.size()) + "\n";
    s += "# HELP topoplace_running_gpus GPUs held by running jobs.\n# TYPE topoplace_running_gpus gauge\n";
    s += "topoplace_running_gpus " + std::to_string(c.running_gpus) + "\n";
    s += "# HELP topoplace_placement_lost_gpu_hours_per_hour GPU-hours per hour lost to placement now (sum of GPUs x "
         "(1 - 1/S_job)), degraded hosts included.\n"
         "# TYPE topoplace_placement_lost_gpu_hours_per_hour gauge\n";
    s += "topoplace_placement_lost_gpu_hours_per_hour " + fmt("%.6g", c.lost_gpus) + "\n";
    s += "# HELP topoplace_degraded_lost_gpu_hours_per_hour The part of it due to degraded hosts.\n"
         "# TYPE topoplace_degraded_lost_gpu_hours_per_hour gauge\n";
    s += "topoplace_degraded_lost_gpu_hours_per_hour " + fmt("%.6g", c.degraded_gpus) + "\n";
    s += "# HELP topoplace_recoverable_gpu_hours_per_hour What the best placements possible now would give back.\n"
         "# TYPE topoplace_recoverable_gpu_hours_per_hour gauge\n";
    s += "topoplace_recoverable_gpu_hours_per_hour " + fmt("%.6g", c.recoverable_gpus) + "\n";
    s += "# HELP topoplace_status_best_skipped_jobs Running jobs whose best placement was not searched (--max-seconds "
         "reached; recoverable leaves them out).\n# TYPE topoplace_status_best_skipped_jobs gauge\n";
    s += "topoplace_status_best_skipped_jobs " + std::to_string(c.best_skipped) + "\n";
    s += "# HELP topoplace_job_slowdown_ratio Predicted step-time slowdown of a running job against its best "
         "placement.\n"
         "# TYPE topoplace_job_slowdown_ratio gauge\n";
    for (const auto& jc : c.jobs) {
        const auto& j = jobs[jc.job];
        s += "topoplace_job_slowdown_ratio{job=\"" + health::prometheus_label(j.id) + "\"} " + fmt("%.6g", jc.now.s_job)
             + "\n";
    }
    return s;
}

int run_status(const StatusOptions& o) {
    perf::Params params;
    if (!o.model.empty()) {
        auto m = perf::read_params_file(o.model);
        if (!m) return report(m.error());
        params = *m;
    }
    auto t = load_snapshot(o.snapshot);
    if (!t) return report(t.error());
    const Topology& topo = **t;
    std::vector<std::string> warnings;

    auto jobs_text = o.jobs.empty() ? squeue_json(o.squeue) : read_text_file(o.jobs);
    if (!jobs_text) return report(jobs_text.error());
    auto jobs = placement::parse_scontrol_jobs(topo, *jobs_text, o.jobs.empty() ? "squeue --json" : o.jobs, &warnings);
    if (!jobs) return report(jobs.error());

    // The state: the file or slurmctld's; else idle, with the jobs' hosts taken.
    placement::ClusterState state(topo);
    std::string nodes_from = "the jobs' hosts";
    if (!o.nodes.empty() || o.jobs.empty()) {
        auto text = o.nodes.empty() ? scontrol_nodes(o.scontrol) : read_text_file(o.nodes);
        if (!text) return report(text.error());
        const std::string name = o.nodes.empty() ? "scontrol show nodes" : o.nodes;
        const auto first = text->find_first_not_of(" \t\r\n");
        auto st = first != std::string::npos && (*text)[first] == '{'
                      ? placement::parse_state_json(topo, *text, name, &warnings)
                      : placement::parse_scontrol_nodes(topo, *text, name, &warnings);
        if (!st) return report(st.error());
        state = std::move(*st);
        nodes_from = name;
    } else {
        for (const auto& j : *jobs) {
            for (auto h : j.hosts) {
                if (j.gpus == 0) {
                    state.set_state(h, placement::NodeState::Alloc);
                    state.set_free_gpus(h, 0);
                }
            }
        }
    }
    if (!o.health_store.empty()) {  // degraded hosts' slowdown (health/flags.hpp, as place and the plugin)
        auto flags = health::health_flags(topo, o.health_store, &warnings);
        if (!flags) return report(flags.error());
        state.mark_health({}, flags->degraded);
    }
    for (const auto& w : warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());

    const placement::Placer placer(topo);
    // however long the job table, the searches for the best placements stop at --max-seconds
    // (issue 32 point 2): status keeps its cycle, every job's slowdown is still computed
    const auto cost = placement::assess_running(
        placer, state, *jobs, params,
        std::chrono::steady_clock::now() + std::chrono::microseconds(static_cast<std::int64_t>(o.max_seconds * 1e6)));
    if (cost.best_skipped > 0)
        std::fprintf(stderr,
                     "topoplace: note: the best placement of %d of %zu running jobs was not searched: --max-seconds "
                     "%g reached (their BEST_NOW is '-' and the recoverable GPU-hours leave them out; raise "
                     "--max-seconds to search them all)\n",
                     cost.best_skipped, jobs->size(), o.max_seconds);

    if (!o.prometheus.empty()) {
        if (auto st = health::write_file_atomic(o.prometheus, prometheus(topo, *jobs, cost)); !st) {
            report(st.error());
            return kCantCreate;
        }
    }
    if (o.json) {
        nlohmann::ordered_json j;
        j["schema"] = "topoplace.status";
        j["snapshot"] = o.snapshot;
        j["nodes_from"] = nodes_from;
        j["running_jobs"] = jobs->size();
        j["running_gpus"] = cost.running_gpus;
        j["placement_lost_gpu_hours_per_hour"] = cost.lost_gpus;
        j["degraded_lost_gpu_hours_per_hour"] = cost.degraded_gpus;
        j["recoverable_gpu_hours_per_hour"] = cost.recoverable_gpus;
        j["best_now_skipped"] = cost.best_skipped;
        nlohmann::ordered_json arr = nlohmann::ordered_json::array();
        for (const auto& c : cost.jobs) {
            const auto& job = (*jobs)[c.job];
            nlohmann::ordered_json e;
            e["job"] = job.id;
            e["name"] = job.name;
            e["nodelist"] = job.nodelist;
            e["hosts"] = job.hosts.size();
            e["gpus"] = c.gpus;
            e["tier"] = c.tier;
            e["leaf_groups"] = c.groups;
            e["slowdown"] = c.now.s_job;
            e["slowdown_network"] = c.now.s_net;
            e["slowdown_degraded"] = c.now.s_deg;
            if (c.best_now > 0) e["best_now"] = c.best_now;
            e["lost_gpu_hours_per_hour"] = c.lost_gpus;
            arr.push_back(e);
        }
        j["jobs"] = arr;
        std::printf("%s\n", j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace).c_str());
        return kOk;
    }
    std::printf("%-12s %5s %5s %4s %6s %8s %8s %9s  %s\n", "JOBID", "HOSTS", "GPUS", "TIER", "GROUPS", "SLOWDOWN",
                "BEST_NOW", "LOST_GPUS", "NODELIST");
    for (const auto& c : cost.jobs) {
        const auto& job = (*jobs)[c.job];
        std::printf("%-12s %5zu %5d %4d %6d %8.4f %8s %9.2f  %s%s\n", job.id.c_str(), job.hosts.size(), c.gpus, c.tier,
                    c.groups, c.now.s_job, c.best_now > 0 ? fmt("%.4f", c.best_now).c_str() : "-", c.lost_gpus,
                    job.nodelist.c_str(), c.now.s_deg > 1.0 ? " (on a degraded host)" : "");
    }
    std::printf(
        "%zu running job(s), %d GPUs; GPU-hours per hour lost to placement %.2f (%.2f %% of them), "
        "of which to degraded hosts %.2f; the best placements now would give back %.2f\n",
        jobs->size(), cost.running_gpus, cost.lost_gpus,
        cost.running_gpus > 0 ? 100.0 * cost.lost_gpus / cost.running_gpus : 0.0, cost.degraded_gpus,
        cost.recoverable_gpus);
    return kOk;
}

}  // namespace

Runner add_status(CLI::App& app) {
    auto o = std::make_shared<StatusOptions>();
    auto* sub = app.add_subcommand(
        "status", "Running jobs: their placement, predicted slowdown, the best placement now, GPU-hours lost per hour");
    sub->add_option("snapshot", o->snapshot, "snapshot file written by `topoplace discover`")->required();
    sub->add_option("--jobs", o->jobs,
                    "the job table: `squeue --json` or `scontrol show jobs --json` output, or `scontrol show jobs` "
                    "text (default: run squeue --all --json)");
    sub->add_option("--nodes", o->nodes,
                    "`scontrol show nodes --oneliner` output or the feed's state JSON (default: run scontrol when the "
                    "jobs come from it; with --jobs FILE and no --nodes, every other host is idle)");
    sub->add_option("--health-store", o->health_store, "flag store: degraded hosts and their slowdown");
    sub->add_option("--model", o->model, "performance model file (default: the published defaults)");
    sub->add_option("--scontrol", o->scontrol, "scontrol program (the node states)")->capture_default_str();
    sub->add_option("--squeue", o->squeue, "squeue program (the job table)")->capture_default_str();
    sub->add_option("--prometheus", o->prometheus, "also write node_exporter textfile metrics to FILE (atomically)");
    sub->add_option("--max-seconds", o->max_seconds,
                    "stop searching the running jobs' best placements after this many seconds (the rest get none, "
                    "said on stderr); each job's slowdown where it runs is computed for every job")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
    sub->add_flag("--json", o->json, "print one JSON object");
    return [o]() { return run_status(*o); };
}

}  // namespace topo::cli
