// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The what-if simulator: replay a job trace on a topology under several
/// placement policies side by side (FIFO + EASY backfill, place(), completion, node
/// failures with checkpoint/restart, the launch health gate) and measure the outcome.
///
/// Deterministic: the same (topology, trace, options) gives the same results; failures
/// are drawn per host from the seed, so every policy sees the same failure times.
/// No I/O and no clock inside; progress is reported through a callback.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <topo/perf/features.hpp>
#include <topo/perf/model.hpp>
#include <topo/placement/place.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>
#include <topo/whatif/failures.hpp>
#include <topo/whatif/trace.hpp>

namespace topo::whatif {

/// When a topoplace policy (topo, cost) chooses a job's nodes, as each product path does
/// (docs/whatif.md "Modes"):
///  - Start: when Slurm starts the job, on the state then (topology/topoplace inside
///    slurmctld, Slurm 24.11 and 26.05);
///  - Submit: when the job is submitted, on the state then (the SPANK plugin +
///    job_submit.lua, Slurm 22.05): the plan's leaf groups go to Slurm as a preference and its
///    switch count as --switches=N@wait; a job that did not fit at submission gets no plan
///    (Slurm's tree alone); Slurm's tree allocates at start.
/// Baselines (slurm-tree, linear, spread) are Slurm's own choice at start in either mode.
enum class Decide : std::uint8_t { Start, Submit };
[[nodiscard]] const char* decide_name(Decide d) noexcept;  ///< "start", "submit"

struct SimOptions {
    std::vector<placement::Policy> policies{placement::Policy::Topo, placement::Policy::SlurmTree,
                                            placement::Policy::Linear};
    /// When topo and cost decide (each one replayed per entry; baselines once).
    std::vector<Decide> decides{Decide::Start};
    /// Decide::Submit: seconds Slurm waits for the plan's switch count before it takes any
    /// (the plugin's wait=, plugstack default 300 s: spank/core/core.hpp Config::wait).
    double switch_wait_s = 300;
    /// Decide::Submit: plan a job that arrives behind queued jobs too (the plugin's
    /// queued_plan=yes). Default false, as the plugin: a job that arrives with jobs queued ahead
    /// gets no plan (Slurm would not start it at once) and Slurm's tree chooses at its start.
    bool plan_queued = false;
    /// Health gate settings to run each policy with (false = off, true = on).
    std::vector<bool> gates{false};
    const FailureModel* failures = nullptr;  ///< null: no failures
    double checkpoint_interval_s = 0;        ///< 0 = no checkpoints (a killed job restarts from zero)
    double restart_cost_s = 0;               ///< paid at every restart before progress resumes
    double repair_s = 4 * 3600.0;            ///< a failed node is down this long (hardware causes)
    double gate_coverage = 0.5;              ///< share of detectable failures the gate sees coming
    double gate_window_s = 6 * 3600.0;       ///< ... this long before they happen
    int backfill_depth = 100;                ///< queue entries tried per backfill pass (Slurm bf_max_job_test)
    /// true: EASY backfill keeps the hosts the queue head would start on at its reservation
    /// from any job that would end after it, as Slurm's backfill does (its node-time map: such
    /// a job is offered only the nodes no reservation holds). false (default): only their
    /// count is kept and a backfilled job may take any free host, the closer of the two to
    /// the live replays with the topology plugin (docs/whatif.md).
    bool reserve_hosts = false;
    int series_points = 200;  ///< points in the utilization/fragmentation series
    std::uint64_t seed = 1;
    /// The performance model (docs/perf-model.md): when set, every run of a job takes
    /// remaining work x S_job of its placement (next to the jobs running then), so
    /// placement changes durations, waits and utilization; null = every S_job is 1.
    const perf::Params* model = nullptr;
    /// MFU of a job at its best placement, for the "effective MFU" figure (default 50 %;
    /// 2.1: 41-43 % Llama 3, 55 % MegaScale, 47-52 % Megatron at scale).
    double ideal_mfu = 0.5;
    /// Degraded hosts (issue 16 item 5): each compute host is degraded for the whole replay
    /// with this probability, drawn from the seed (the same hosts under every policy), and
    /// runs its jobs `degraded_slowdown` times slower (0: the model's degraded_default);
    /// they are flagged in the state as the health check would (HostState::slowdown).
    /// PERF-MODEL 6.2: p ~ 0.005 per node (MegaScale), s mild 1.1 / typical 1.34 (FALCON)
    /// / severe 3.0. Needs the model.
    double degraded_share = 0;
    /// These hosts degraded too, whatever the share (a live replay's flagged hosts).
    std::vector<HostId> degraded_hosts;
    double degraded_slowdown = 0;
    /// Run topo and cost with the rule that keeps degraded hosts out of multi-node jobs
    /// (Request::avoid_degraded); false = the same policies without it.
    bool degraded_rule = true;
    /// Decided at start with the rule (topo, cost): the topology plugin's hold (its
    /// `degraded_wait=`, spank/core/selector.hpp SelectorConfig::degraded_wait_s, default
    /// 600): a multi-node job whose placement on what it is offered takes a degraded host
    /// while enough healthy hosts are free (some withheld from it: the queue head's, with
    /// reserve_hosts) waits, at most its time limit x (S_deg - 1) and never longer than this;
    /// then it takes that placement. 0: never held.
    double degraded_wait_s = 600;
    /// Decided at start (topo, cost): the topology plugin's hold for withheld nodes (its
    /// `withheld_wait=`, SelectorConfig::withheld_wait_s, default 600): a multi-node job
    /// whose placement on what it is offered is beaten by a placement on every free host
    /// (with the hosts withheld from it: reserve_hosts) on leaf groups or spines, never worse
    /// on either or on degraded hosts, with a lower predicted slowdown, waits, at most its
    /// time limit x (S_offer / S_all - 1) and never longer than this; then it takes the
    /// offer's placement. 0: never held.
    double withheld_wait_s = 600;
    /// Called now and then with (runs done + fraction of this run) / runs, in [0, 1].
    std::function<void(double)> progress;
};

/// What one (policy, gate) replay measured. "Multi-node placement" = every placement
/// decision of a job on >= 2 nodes (restarts after failures included).
struct PolicyRun {
    placement::Policy policy = placement::Policy::Topo;
    bool gate = false;
    Decide decide = Decide::Start;
    std::string label;  ///< "topo", "topo+gate", "cost@submit"

    int jobs = 0;            ///< jobs in the trace
    int finished = 0;        ///< jobs that completed
    int rejected = 0;        ///< jobs that can never fit (Unsatisfiable), dropped at submit
    int placements = 0;      ///< placement decisions (starts and restarts)
    int multi_node = 0;      ///< multi-node placements
    double mean_groups = 0;  ///< mean leaf groups spanned per multi-node placement
    double p95_groups = 0;
    double mean_groups_bound = 0;  ///< mean of Placement::lower_bound_groups, same placements
    double groups_ratio = 0;       ///< mean_groups / mean_groups_bound
    int at_bound = 0;              ///< multi-node placements at their lower bound
    int cross_spine = 0;           ///< multi-node placements with max_tier >= 1
    int cross_core = 0;            ///< ... max_tier >= 2
    int needless_tier = 0;         ///< ... max_tier > lower_bound_tier
    int nvl_candidates = 0;        ///< placements small enough for one multi-node NVLink domain
    int nvl_split = 0;             ///< ... that touched more than one domain
    double mean_wait_s = 0;        ///< first start - submit, over finished jobs
    double p95_wait_s = 0;
    double max_wait_s = 0;
    double makespan_s = 0;                               ///< last end - first submit
    double utilization = 0;                              ///< allocated GPU-seconds / (GPUs x span) while jobs arrive
                                                         ///< (first to last submit: the loaded part of the replay)
    double utilization_all = 0;                          ///< same over the whole makespan (includes the drain tail)
    double fragmentation = 0;                            ///< time-weighted mean while jobs arrive (docs/whatif.md)
    double goodput = 0;                                  ///< useful GPU-seconds / allocated GPU-seconds
    double ettr = 0;                                     ///< GPU-time-weighted sum(work) / sum(end - first start)
    int failures = 0;                                    ///< failures that hit the cluster during the replay
    std::vector<std::pair<double, HostId>> failure_log;  ///< (time, host) of each failure
    int jobs_killed = 0;                                 ///< job interruptions by failures
    int gate_saves = 0;                                  ///< flagged nodes the gate kept from new jobs
    double lost_gpu_hours = 0;                           ///< work lost (since last checkpoint + restart cost)
    int backfilled = 0;                                  ///< jobs started by backfill ahead of the queue head
    long place_calls = 0;                                ///< calls to place()
    // Decide::Submit only: jobs given a plan at submission, jobs that got none (no fit then),
    // and starts inside the plan's leaf groups (the preference held)
    int submit_planned = 0;
    /// Multi-node starts judged (fabrics of at most 12 pods) and of them those that no
    /// placement free at that moment dominated: no more leaf groups and pods, fewer of one
    /// (healthy hosts only when enough are free); the live replay's measure (issue 31).
    int dominance_judged = 0;
    int not_dominated = 0;
    int submit_no_plan = 0;
    int submit_queued = 0;  ///< of submit_no_plan: jobs queued ahead at arrival (plan_queued false)
    int started_in_plan = 0;
    // The performance model (0 when SimOptions::model is null)
    double mean_slowdown = 1;        ///< GPU-time weighted mean of S_job over finished work
    double p95_slowdown = 1;         ///< over placements of multi-node jobs
    double placement_gpu_hours = 0;  ///< GPU-hours lost to placement: sum GPUs x run time x (1 - 1/S_job)
    double failure_gpu_hours = 0;    ///< = lost_gpu_hours (lost work and restarts)
    double effective_mfu = 0;        ///< ideal_mfu / mean_slowdown x ettr
    /// The part of placement_gpu_hours due to degraded hosts in the job (S_deg of
    /// S_job = S_net S_deg: work x S_net x (S_deg - 1)).
    double degraded_gpu_hours = 0;
    int degraded_hosts = 0;        ///< compute hosts degraded in this replay
    int multi_node_degraded = 0;   ///< multi-node placements with a degraded host
    int single_node_degraded = 0;  ///< one-node placements on a degraded host
    int degraded_holds = 0;        ///< jobs held off degraded hosts (SimOptions::degraded_wait_s), once each
    int withheld_holds = 0;        ///< jobs held for withheld hosts (SimOptions::withheld_wait_s), once each
    std::vector<std::pair<int, double>> slowdown_by_size;  ///< (GPUs, S_job) of each multi-node placement

    std::vector<double> waits;                  ///< per finished job, sorted
    std::vector<std::vector<int>> groups_hist;  ///< [bound][spanned] counts (small, capped)
    std::vector<double> util_series;            ///< busy GPU share per time bucket
    std::vector<double> frag_series;            ///< fragmentation per time bucket
    double series_step_s = 0;                   ///< bucket width
};

struct Replay {
    std::string topology;  ///< short description (hosts, GPUs, groups, tiers)
    std::string trace;     ///< source
    int hosts = 0;         ///< compute hosts simulated
    int gpus = 0;          ///< their GPUs
    int groups = 0;        ///< leaf groups
    int tiers = 0;
    int nvl_multi_domains = 0;  ///< multi-node NVLink domains
    double offered_load = 0;
    std::string failures;  ///< failure model summary, empty when none
    std::string degraded;  ///< degraded hosts summary, empty when none
    bool model = false;    ///< the performance model stretched durations (SimOptions::model)
    double ideal_mfu = 0;  ///< SimOptions::ideal_mfu when the model was on
    std::vector<PolicyRun> runs;
};

/// The report's first line: GPU-hours lost to placement and failures by the first policy
/// (with the gate as it was run) against slurm-tree (else the next), naming when each
/// decides; "" when there are not two policies or no model. E.g. "cost (decided at job
/// start: topology/topoplace, Slurm 24.11+) loses 1,234 fewer GPU-hours to placement and
/// failures than slurm-tree (Slurm alone) (12.3 % of slurm-tree's loss) on this trace".
[[nodiscard]] std::string headline(const Replay& r);

/// Replay `trace` on `topo` under every (policy, gate) of `opt`.
/// Errors: InvalidArgument (no compute hosts, empty trace, bad options).
[[nodiscard]] Result<Replay> simulate(const Topology& topo, const Trace& trace, const SimOptions& opt);

/// Hosts the simulator treats as compute hosts (role Compute, or Unknown with GPUs).
[[nodiscard]] std::vector<HostId> compute_hosts(const Topology& topo);

/// For tests: replay one policy and return every (job, start, end, hosts) interval.
struct Interval {
    int job = 0;  ///< index in the trace
    double start = 0;
    double end = 0;  ///< end of this run (finish or kill)
    std::vector<HostId> hosts;
    int gpus_per_host = 0;  ///< GPUs taken on each host; -1 = the whole host (exclusive)
    bool killed = false;
    double slowdown = 1;  ///< S_job of this run's placement next to the jobs running at its start (1 without a model)
};

[[nodiscard]] Result<std::vector<Interval>> replay_intervals(const Topology& topo, const Trace& trace,
                                                             placement::Policy policy, bool gate, const SimOptions& opt,
                                                             Decide decide = Decide::Start);

}  // namespace topo::whatif
