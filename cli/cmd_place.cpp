// SPDX-License-Identifier: Apache-2.0
// topoplace place SNAPSHOT --nodes N [--nodes-max M] [--gpus-per-node G] [--total-gpus G]
//     [--shared] [--max-tier T] [--max-leaves L] [--nvl] [--segment S] [--rail-aligned]
//     [--exclude HOSTLIST] [--state FILE] [--health-store DIR [--health-fail open|closed]]
//     [--policy cost|topo|slurm-tree|slurm-tree-24|linear|spread] [--explain] [--json]
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <topo/health/flags.hpp>
#include <topo/health/store.hpp>
#include <topo/hostlist.hpp>
#include <topo/perf/model.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/running.hpp>
#include <topo/placement/slurm_state.hpp>
#include <topo/placement/state.hpp>
#include <topo/snapshot.hpp>
#include <topo/whatif/trace.hpp>  // parse_slurm_duration (sbatch -t syntax)

#include "commands.hpp"
#include "common.hpp"
#include <sys/stat.h>

namespace topo::cli {

namespace {

struct PlaceOptions {
    std::string snapshot;
    int nodes = 0;
    int nodes_max = 0;
    int gpus_per_node = 0;
    int total_gpus = 0;
    bool shared = false;
    std::optional<int> max_tier;
    int max_leaves = 0;
    bool nvl = false;
    int segment = 0;
    bool rail_aligned = false;
    std::string exclude;
    std::string time_limit;
    std::string state;
    std::string jobs;  // `scontrol show jobs` text: running jobs' uplinks, for the cost policy
    std::string health_store;
    std::string health_fail = "closed";
    std::string policy = "cost";
    std::string model;  // the cost policy's performance model file
    bool explain = false;
    bool json = false;
};

/// Mark the hosts the health store flags (health/flags.hpp: the reader the service and the
/// plugin use). A store that was never created flags nobody (as the launch gate reads it). A
/// refused store (tampered, unreadable): fail closed -> exit 69 with the store's error; fail
/// open -> warn and go on. Returns kOk to go on, else the exit code.
int apply_health(const Topology& topo, const PlaceOptions& o, placement::ClusterState& state) {
    if (o.health_store.empty()) return kOk;
    const auto mode = health::fail_mode_from_name(o.health_fail);
    std::vector<std::string> warnings;
    auto flags = health::health_flags(topo, o.health_store, &warnings);
    for (const auto& w : warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
    if (!flags) {
        if (mode == health::FailMode::Open) {
            std::fprintf(stderr, "topoplace: warning: %s (--health-fail open: placing without health flags)\n",
                         flags.error().to_string().c_str());
            return kOk;
        }
        std::fprintf(stderr, "topoplace: %s (--health-fail closed)\n", flags.error().to_string().c_str());
        return kUnavailable;
    }
    for (const auto& n : flags->unknown)
        std::fprintf(stderr, "topoplace: warning: health store flags \"%s\", not a host of %s\n", n.c_str(),
                     o.snapshot.c_str());
    state.mark_health(flags->unhealthy, flags->degraded);  // degraded: placed last for multi-node jobs
    return kOk;
}

nlohmann::json to_json(const Topology& t, const placement::Placement& p) {
    nlohmann::json hosts = nlohmann::json::array();
    std::vector<std::string> names;
    for (auto h : p.hosts) {
        hosts.push_back(t.host(h).name);
        names.push_back(t.host(h).name);
    }
    nlohmann::json leaves = nlohmann::json::array();
    for (auto l : p.leaves) leaves.push_back(switch_label(t.sw(l)));
    nlohmann::json groups = nlohmann::json::array();
    for (auto g : p.groups) groups.push_back(t.groups()[g.index()].name);
    nlohmann::json doms = nlohmann::json::array();
    for (auto d : p.nvl_domains) doms.push_back(t.nvl_domains()[d.index()].name);
    nlohmann::json gpus = nlohmann::json::array();
    for (std::size_t i = 0; i < p.gpus.size(); ++i)
        gpus.push_back(std::vector<int>(p.gpus[i].begin(), p.gpus[i].end()));
    return {{"schema", "topoplace.place"},
            {"ok", true},
            {"policy", placement::policy_name(p.policy)},
            {"hosts", hosts},
            {"hostlist", compress_hostlist(names)},
            {"gpus", gpus},
            {"total_gpus", p.total_gpus},
            {"leaves", leaves},
            {"groups", groups},
            {"max_tier", p.max_tier},
            {"switches_per_level", p.switches_per_level},
            {"lower_bound_leaves", p.lower_bound_leaves},
            {"lower_bound_groups", p.lower_bound_groups},
            {"lower_bound_tier", p.lower_bound_tier},
            {"hop_sum", p.hop_sum},
            {"nvl_domains", doms},
            {"ignored", p.ignored},
            {"explanation", p.explanation}};
}

void print_text(const Topology& t, const placement::Placement& p, bool explain) {
    std::vector<std::string> names;
    for (auto h : p.hosts) names.push_back(t.host(h).name);
    std::vector<std::string> groups;
    for (auto g : p.groups) groups.push_back(t.groups()[g.index()].name);
    std::vector<std::string> leaves;
    for (auto l : p.leaves) leaves.push_back(switch_label(t.sw(l)));
    std::printf("Policy=%s NodeList=%s NumNodes=%zu Gpus=%d\n", placement::policy_name(p.policy),
                compress_hostlist(names).c_str(), p.hosts.size(), p.total_gpus);
    std::printf("   LeafGroups=%zu LowerBound=%d Groups=%s\n", p.groups.size(), p.lower_bound_groups,
                compress_hostlist(groups).c_str());
    std::printf("   LeafSwitches=%zu LowerBound=%d Switches=%s\n", p.leaves.size(), p.lower_bound_leaves,
                compress_hostlist(leaves).c_str());
    std::printf("   MaxTier=%d LowerBound=%d HopSum=%ld", p.max_tier, p.lower_bound_tier, p.hop_sum);
    if (p.switches_per_level.size() > 1) std::printf(" Spines=%d", p.switches_per_level[1]);
    std::printf("\n");
    if (!p.nvl_domains.empty()) {
        std::string d;
        for (auto x : p.nvl_domains) d += (d.empty() ? "" : ",") + t.nvl_domains()[x.index()].name;
        std::printf("   NvlDomains=%s\n", d.c_str());
    }
    if (explain) {
        std::printf("   Explanation: %s\n", p.explanation.c_str());
        for (std::size_t i = 0; i < p.hosts.size(); ++i) {
            if (p.gpus[i].empty()) continue;
            std::string g;
            for (int x : p.gpus[i]) g += (g.empty() ? "" : ",") + std::to_string(x);
            std::printf("   %s GpuIdx=%s\n", t.host(p.hosts[i]).name.c_str(), g.c_str());
        }
    }
}

int run_place(const PlaceOptions& o) {
    auto pol = placement::policy_from_name(o.policy);
    if (!pol) return report(pol.error());
    if (o.nodes < 1 && o.total_gpus < 1) {
        std::fprintf(stderr, "topoplace: place: --nodes N (N >= 1) or --total-gpus G is required\n");
        return kUsage;
    }
    auto t = load_snapshot(o.snapshot);
    if (!t) return report(t.error());
    const Topology& topo = **t;

    std::vector<std::string> warnings;
    placement::ClusterState state(topo);
    if (!o.state.empty()) {
        auto text = read_text_file(o.state);
        if (!text) return report(text.error());
        const auto first = text->find_first_not_of(" \t\r\n");
        const bool json = first != std::string::npos && (*text)[first] == '{';
        auto st = json ? placement::parse_state_json(topo, *text, o.state, &warnings)
                       : placement::parse_scontrol_nodes(topo, *text, o.state, &warnings);
        if (!st) return report(st.error());
        state = std::move(*st);
    }
    // the running jobs that span leaf groups share those groups' uplinks (the cost policy's third
    // candidate keeps a spanning job off them); their hosts' states come from --state. Recorded
    // once the Placer (and its fabric shape) is built.
    std::vector<std::vector<HostId>> running;
    if (!o.jobs.empty()) {
        auto text = read_text_file(o.jobs);
        if (!text) return report(text.error());
        auto jobs = placement::parse_scontrol_jobs(topo, *text, o.jobs, &warnings);
        if (!jobs) return report(jobs.error());
        running.reserve(jobs->size());
        for (auto& j : *jobs) running.push_back(std::move(j.hosts));
    }
    for (const auto& w : warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
    if (const int rc = apply_health(topo, o, state); rc != kOk) return rc;

    placement::Request r;
    r.nodes_min = o.nodes < 1 ? 1 : o.nodes;
    r.nodes_max = o.nodes_max;
    r.gpus_per_node = o.gpus_per_node;
    r.total_gpus = o.total_gpus;
    r.exclusive = !o.shared;
    r.max_tier = o.max_tier;
    r.max_leaves = o.max_leaves;
    r.one_nvl_domain = o.nvl;
    r.segment = o.segment;
    r.rail_aligned = o.rail_aligned;
    if (!o.time_limit.empty()) {
        // sbatch -t syntax: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS
        const auto& tl = o.time_limit;
        const bool minutes = tl.find_first_not_of("0123456789") == std::string::npos && tl.size() <= 9;
        const double secs = minutes ? std::stod(tl) * 60.0 : whatif::parse_slurm_duration(tl).value_or(-1);
        if (secs <= 0) {
            std::fprintf(stderr,
                         "topoplace: place: --time-limit: '%s' is not a Slurm time limit "
                         "(minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, > 0)\n",
                         tl.c_str());
            return kUsage;
        }
        r.now = 0;  // the state's ends_in_s count from now
        r.time_limit = secs;
    }
    if (!o.exclude.empty()) {
        auto names = expand_hostlist(o.exclude);
        if (!names) {
            std::fprintf(stderr, "topoplace: place: --exclude: %s\n", names.error().message.c_str());
            return kUsage;
        }
        for (const auto& n : *names) {
            auto h = topo.find_host(n);
            if (!h) {
                std::fprintf(stderr, "topoplace: place: --exclude: host \"%s\" is not in %s\n", n.c_str(),
                             o.snapshot.c_str());
                return kUsage;
            }
            r.excluded.push_back(*h);
        }
    }

    perf::Params params;
    if (!o.model.empty()) {
        auto m = perf::read_params_file(o.model);
        if (!m) return report(m.error());
        params = *m;
    }
    const placement::Placer placer(topo, params);
    if (!o.jobs.empty()) {
        const int spanning = placement::record_running_uplinks(placer, state, running);
        if (*pol != placement::Policy::Cost)
            std::fprintf(stderr,
                         "topoplace: warning: --jobs is read by --policy cost only (%d of %zu running jobs span leaf "
                         "groups)\n",
                         spanning, running.size());
    }
    auto p = placer.place(state, r, *pol);
    if (!p) {
        const auto& e = p.error();
        if (o.json && (e.code == Errc::Busy || e.code == Errc::Unsatisfiable)) {
            nlohmann::json j = {{"schema", "topoplace.place"},
                                {"ok", false},
                                {"policy", placement::policy_name(*pol)},
                                {"error", e.code == Errc::Busy ? "busy" : "unsatisfiable"},
                                {"message", e.message}};
            std::cout << j.dump(2) << "\n";
        }
        const char* kind = e.code == Errc::Busy            ? "busy (cannot fit now)"
                           : e.code == Errc::Unsatisfiable ? "unsatisfiable (can never fit)"
                                                           : nullptr;
        if (kind != nullptr) {
            std::fprintf(stderr, "topoplace: place: %s: %s\n", kind, e.message.c_str());
            return kUnsatisfiable;
        }
        return report(e);
    }
    if (o.json) {
        std::cout << to_json(topo, *p).dump(2) << "\n";
    } else {
        print_text(topo, *p, o.explain);
    }
    return kOk;
}

}  // namespace

Runner add_place(CLI::App& app) {
    auto o = std::make_shared<PlaceOptions>();
    auto* sub = app.add_subcommand("place", "Choose hosts (and GPUs) for one job on a snapshot and a cluster state");
    sub->add_option("snapshot", o->snapshot, "snapshot file written by `topoplace discover`")->required();
    sub->add_option("-N,--nodes", o->nodes, "number of hosts (the lower end with --nodes-max)");
    sub->add_option("--nodes-max", o->nodes_max, "upper end of a node range: as many as fit now, up to this");
    sub->add_option("--gpus-per-node", o->gpus_per_node, "GPUs needed on every host")->check(CLI::NonNegativeNumber);
    sub->add_option("--total-gpus", o->total_gpus,
                    "GPUs for the whole job (with --shared and no --nodes: over as few hosts as possible)")
        ->check(CLI::NonNegativeNumber);
    sub->add_flag("--shared", o->shared, "share hosts with other jobs (default: whole idle hosts only)");
    sub->add_option("--max-tier", o->max_tier, "highest switch tier the job may cross (0 = one leaf group)")
        ->check(CLI::Range(0, 15));
    sub->add_option("--max-leaves", o->max_leaves, "most leaf groups the job may span (like --switches)")
        ->check(CLI::Range(0, 65536));
    sub->add_flag("--nvl", o->nvl, "all hosts inside one multi-node NVLink domain");
    sub->add_option("--segment", o->segment,
                    "hosts come in segments of S, each inside one leaf group (and NVLink domain)")
        ->check(CLI::NonNegativeNumber);
    sub->add_flag("--rail-aligned", o->rail_aligned, "only hosts with a NIC on every rail");
    sub->add_option("--exclude", o->exclude, "never choose these hosts (Slurm hostlist)");
    sub->add_option("--time-limit", o->time_limit,
                    "the job's time limit (sbatch -t syntax); with per-host ends_in_s in a JSON state, "
                    "topo puts jobs that end together in the same groups");
    sub->add_option("--state", o->state,
                    "cluster state: `scontrol show nodes --oneliner` text or {\"hosts\": {...}} JSON "
                    "(auto-detected); default: every host idle");
    sub->add_option("--jobs", o->jobs,
                    "the job table (`squeue --json`, or `scontrol show jobs` text or JSON): the running jobs that "
                    "span leaf groups share their uplinks (read by --policy cost; host states still come from "
                    "--state)");
    sub->add_option("--health-store", o->health_store,
                    "health flag store directory (`topoplace health`): flagged hosts are never chosen");
    sub->add_option("--health-fail", o->health_fail,
                    "when the health store is refused (tampered): closed = exit 69, open = warn and place")
        ->check(CLI::IsMember({"open", "closed"}))
        ->capture_default_str();
    sub->add_option("--model", o->model, "performance model file for --policy cost (default: the published defaults)");
    sub->add_option(
           "--policy", o->policy,
           "cost (the default: topo, topo at the lowest tier or, with --jobs, topo off shared uplinks: whichever the "
           "performance model predicts fastest), topo (fewest leaf groups, then the lowest tier), slurm-tree (Slurm "
           "22.05 topology/tree), slurm-tree-24 (Slurm 24.05.3+ topology/tree: 24.11, 26.05), linear, spread "
           "(round-robin over leaf groups, as --topo=spread)")
        ->check(CLI::IsMember({"topo", "slurm-tree", "slurm-tree-24", "linear", "cost", "spread"}))
        ->capture_default_str();
    sub->add_flag("--explain", o->explain, "print why these hosts (and the GPU indices)");
    sub->add_flag("--json", o->json, "print one JSON object");
    return [o]() { return run_place(*o); };
}

}  // namespace topo::cli
