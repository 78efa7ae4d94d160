// SPDX-License-Identifier: Apache-2.0
// The what-if replay engine. One Engine replays the whole trace for one (policy, gate);
// simulate() runs one Engine per column. Everything is a function of (topology, trace,
// options): no clock, and failures come from per-host RNG streams seeded by (seed, host),
// so every policy sees the same failure times.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <span>
#include <utility>

#include <topo/placement/running.hpp>
#include <topo/placement/state.hpp>
#include <topo/whatif/whatif.hpp>

namespace topo::whatif {

namespace {

using placement::ClusterState;
using placement::NodeState;
using placement::Policy;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kHistCap = 16;

// Same-time order: repairs and finishes free hosts first; a flag precedes its failure.
// Wake: a job's wait for its switch count ends (Decide::Submit), or its hold off degraded
// hosts (Engine::hold_off_degraded); the pass after it retries.
enum class Ev : std::uint8_t { Repair = 0, Finish = 1, Flag = 2, Failure = 3, Arrival = 4, Wake = 5 };

struct Event {
    double t = 0;
    Ev type = Ev::Arrival;
    std::uint64_t seq = 0;
    int a = 0;  // job or host
    int b = 0;  // run generation for Finish

    bool operator>(const Event& o) const {
        if (t != o.t) return t > o.t;
        if (type != o.type) return type > o.type;
        return seq > o.seq;
    }
};

struct JobRt {
    int nodes = 1;
    int gph = 0;  // GPUs per host taken (partial jobs); exclusive: whole host
    bool exclusive = true;
    int req_gpn = 0;       // gpus_per_node passed to place()
    double work = 0;       // total work (duration)
    double remaining = 0;  // work still to do
    double limit = 0;      // time limit (estimate), >= work
    double first_start = -1;
    double run_start = 0;
    double run_cost = 0;  // restart cost paid at the start of this run
    double est_end = 0;
    int gen = 0;
    int restarts = 0;
    bool running = false;
    bool done = false;
    bool rejected = false;
    double units = 0;      // GPU-equivalents held while running (sum over hosts)
    double slow = 1;       // S_job of this run's placement (work advances at 1/slow)
    double slow_net = 1;   // its S_net (slow = slow_net x S_deg)
    double kept_wall = 0;  // wall-seconds of progress kept (not lost to failures), for ETTR
    std::vector<HostId> hosts;
    /// While it runs with the model: its leaf groups and pods (perf::span_of(hosts)), read
    /// once at start for its uplink use (Engine::uplinks) and its neighbours' (slowdown_of)
    perf::Span span;
    // Decide::Submit: the plan made at submission (empty: none, Slurm's tree alone)
    std::vector<std::pair<GroupId, int>> plan_groups;  // (leaf group, hosts): "[lg_a*3&lg_b*1]"
    double switch_deadline = 0;                        // until then Slurm holds the job for plan_groups.size() switches
    bool plan_avoids_degraded = false;                 // the plan's TOPOPLACE_EXCLUDE: degraded hosts left out
    double held_until = -1;      // held off degraded hosts until then (SimOptions::degraded_wait_s), -1: never held
    double withheld_until = -1;  // held for withheld hosts until then (SimOptions::withheld_wait_s), -1: never
};

struct HostRt {
    HostId id;
    int gpus = 0;  // GPUs of the host (0: not modelled)
    int cap = 1;   // units (GPUs, or 1 for a host without modelled GPUs)
    int free = 0;  // free units
    int jobs_on = 0;
    int group = -1;   // dense index among simulated groups
    int domain = -1;  // multi-node NVLink domain, -1 = none
    bool down = false;
    bool flagged = false;
    std::vector<int> jobs;
    // Contribution to the counters (to remove it on change).
    bool counted = false;
    int counted_free = 0;
    bool counted_idle = false;
    // Failure stream.
    Rng rng{0};
    double rate = 0;  // failures per second
    double next_fail = kInf;
    bool next_detect = false;
};

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    const double pos = p * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(sorted.size() - 1, lo + 1);
    const double f = pos - static_cast<double>(lo);
    return sorted[lo] * (1 - f) + sorted[hi] * f;
}

class Engine {
public:
    Engine(const placement::Placer& placer, const Trace& trace, const SimOptions& opt, Policy policy, bool gate,
           std::vector<Interval>* record, Decide decide = Decide::Start)
        : placer_(placer),
          topo_(placer.topology()),
          trace_(trace),
          opt_(opt),
          policy_(policy),
          gate_(gate),
          at_submit_(decide == Decide::Submit && (policy == Policy::Topo || policy == Policy::Cost)),
          record_(record),
          state_(topo_) {
        // the Placer's shape, built once per simulate() (it was built twice per run here:
        // 0.5 s per run at 16,384 hosts, its O(groups^2) pod search)
        const perf::FabricShape& shape = placer.fabric_shape();
        if (opt_.model != nullptr) {
            shape_ = shape;
            group_users_.assign(shape_.pod_of_group.size(), 0);
            pod_users_.assign(static_cast<std::size_t>(std::max(0, shape_.pods)), 0);
        }
        pods_ = shape.pod_of_group;
    }

    Status run(PolicyRun& out, int run_index, int runs);

private:
    void init_hosts();
    void refresh(int h);

    [[nodiscard]] bool available(int h) const { return !hosts_[h].down && !(gate_ && hosts_[h].flagged); }

    [[nodiscard]] int qualifying(const JobRt& j) const;

    /// How long the job's next run may take by its time limit: the restart cost (after a
    /// kill) plus the rest of the limit, at least the work still to do.
    [[nodiscard]] double run_limit(const JobRt& j) const {
        return (j.restarts > 0 ? opt_.restart_cost_s : 0) + std::max(j.remaining, j.limit - (j.work - j.remaining));
    }

    void push(double t, Ev type, int a, int b = 0) { events_.push(Event{t, type, seq_++, a, b}); }

    void schedule_failure(int h, double from);

    /// The request place() gets for job j now (its nodes, GPUs, exclusivity, time hints).
    [[nodiscard]] placement::Request request_of(const JobRt& job, double now) const {
        placement::Request req;
        req.nodes_min = job.nodes;
        req.gpus_per_node = job.req_gpn;
        req.exclusive = job.exclusive;
        req.now = now;
        req.time_limit = run_limit(job);
        req.avoid_degraded = opt_.degraded_rule;
        return req;
    }

    /// Start job j now if it fits; `withheld`: hosts backfill keeps for the queue head's
    /// reservation (the job ends after it starts), never offered to the job.
    Result<bool> try_start(int j, double now, std::span<const HostId> withheld = {});
    /// The topology plugin's hold off degraded hosts (SimOptions::degraded_wait_s): true while
    /// job j waits rather than take placement p.
    bool hold_off_degraded(int j, const placement::Placement& p, double now);
    /// The topology plugin's hold for withheld hosts (SimOptions::withheld_wait_s): true while
    /// job j waits rather than take placement p, which a placement on `all` (the request with
    /// no host withheld) beats.
    bool hold_for_withheld(int j, const placement::Placement& p, const placement::Request& all, double now);
    /// A hold of job j from its first try (`until` < 0: not held yet) for `bound` seconds,
    /// counted in `holds`, with a Wake at its end: true while it lasts.
    bool hold_once(double& until, double bound, int& holds, int j, double now);
    /// Decide::Submit: the plan on the state at the job's arrival (none when it does not fit).
    void plan_at_submit(int j, double now);
    /// Decide::Submit: what Slurm's tree does with that plan when it tries to start the job.
    [[nodiscard]] Result<placement::Placement> place_as_submitted(const JobRt& job, const placement::Request& req,
                                                                  double now);
    void start(int j, const placement::Placement& p, double now);

    /// p's lower bounds (groups, leaves, tier) set to those of topo on `req` now.
    void bound_by(placement::Placement& p, const placement::Request& req) {
        ++out_->place_calls;
        if (auto b = placer_.place(state_, req, Policy::Topo)) {
            p.lower_bound_groups = b->lower_bound_groups;
            p.lower_bound_leaves = b->lower_bound_leaves;
            p.lower_bound_tier = b->lower_bound_tier;
        }
    }

    /// S_job (and S_net) of job j on its hosts next to the jobs running now, into the
    /// job's slow and slow_net (1 without a model).
    void slowdown_of(int j);
    void release(int j);
    /// Record (sign +1) or take off (-1) a running job's use of its leaf groups' uplinks in
    /// the state the placer reads (ClusterState::add_uplink_users): a job spanning several
    /// groups (pods) uses them all.
    void uplinks(int j, int sign);
    void kill(int j, double now);
    void finish(int j, double now);
    void fail_host(int h, double now);
    Status pass(double now);
    std::pair<double, int> shadow(const JobRt& head, double now);
    /// shadow() and reservation(): host h's jobs and free units once running job j has ended,
    /// in the scratch arrays (tmp_jobs_, tmp_free_; the first touch copies the host's own)
    void end_in_scratch(int h, int j);
    /// The hosts the queue head would start on at its reservation (shadow_t): its placement
    /// on the state where the running jobs estimated to end by then have released theirs.
    /// Slurm's backfill keeps those hosts for it from any job that would end later.
    std::vector<HostId> reservation(const JobRt& head, double shadow_t);
    /// The plugin's backfill look-ahead (lookahead=holes) on the reservation p, in the state at
    /// the reservation: among placements as good, off the idle hosts of part-used leaf groups,
    /// no wholly idle group taken in part, then idle hosts swapped for busy ones of their group.
    void spare_idle(const placement::Request& req, Policy pol, placement::Placement& p);
    void advance(double now);
    void observe(double now);
    void record_placement(const JobRt& j, const placement::Placement& p);

    const placement::Placer& placer_;  // indexes built once per topology, shared by runs
    const Topology& topo_;
    const Trace& trace_;
    const SimOptions& opt_;
    Policy policy_;
    bool gate_;
    bool at_submit_;  // this run decides at submission (topo or cost with Decide::Submit)
    std::vector<Interval>* record_;
    ClusterState state_;

    std::vector<HostRt> hosts_;
    std::vector<int> host_index_;  // HostId.index() -> hosts_ index or -1
    std::vector<int> group_size_;
    std::vector<int> group_idle_;
    int gmax_ = 1;
    int max_gpus_ = 0;
    int domain_cap_ = 0;     // largest usable multi-node domain
    std::vector<int> hist_;  // available hosts by free units
    int idle_ = 0;           // available hosts with no job
    double total_units_ = 0;
    double busy_units_ = 0;

    std::vector<JobRt> jobs_;
    std::set<std::pair<double, int>> queue_;    // (submit, index): FIFO by submit
    std::set<std::pair<double, int>> running_;  // (est_end, index)
    std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
    std::uint64_t seq_ = 0;
    int open_ = 0;  // jobs neither finished nor rejected

    // Scratch for shadow().
    std::vector<int> tmp_jobs_;
    std::vector<int> tmp_free_;
    std::vector<int> touched_;
    std::vector<std::pair<HostId, placement::HostState>> saved_;  // for reservation()
    std::vector<int> whole_;  // for spare_idle(): per leaf group, wholly idle now (-1 unknown)

    // Metrics.
    PolicyRun* out_ = nullptr;
    double last_t_ = 0;
    double frag_now_ = 0;
    double frag_area_ = 0;
    double busy_area_ = 0;
    double busy_now_ = 0;

    struct Step {
        double t, busy, frag;
    };

    std::vector<Step> steps_;  // after each batch of same-time events
    double groups_sum_ = 0;
    double bound_sum_ = 0;
    std::vector<double> groups_;
    double useful_ = 0;
    double allocated_ = 0;
    double ettr_num_ = 0;
    double ettr_den_ = 0;
    double slow_num_ = 0;  // GPU-seconds run, for the GPU-time weighted mean S_job
    double slow_den_ = 0;  // ... of which ideal (S = 1) GPU-seconds
    std::vector<double> slowdowns_;
    perf::FabricShape shape_;
    /// The running jobs' uplink use, kept as they start and end (not re-read from every
    /// running job's hosts at each start): per leaf group, the running jobs spanning
    /// several groups with hosts in it; per pod, those spanning several pods.
    std::vector<int> group_users_;
    std::vector<int> pod_users_;
    std::vector<int> pods_;  // pod of each leaf group (-1: none), for judge_dominance()
    /// Before job j starts on p: is there a placement on the hosts free now (healthy ones
    /// when enough are) with no more leaf groups and pods than p and fewer of one? Counted
    /// into PolicyRun::dominance_judged / not_dominated (fabrics of at most 12 pods).
    void judge_dominance(const JobRt& job, const placement::Placement& p);
    std::map<HostId, double> degraded_;  // degraded compute hosts and their slowdown
};

void Engine::init_hosts() {
    auto ch = compute_hosts(topo_);
    host_index_.assign(topo_.hosts().size(), -1);
    std::vector<int> group_map(topo_.groups().size(), -1);
    std::vector<int> domain_of(topo_.hosts().size(), -1);
    for (std::size_t d = 0; d < topo_.nvl_domains().size(); ++d) {
        const auto& dom = topo_.nvl_domains()[d];
        if (!dom.multi_node) continue;
        for (HostId h : dom.hosts) domain_of[h.index()] = static_cast<int>(d);
        const int usable = dom.usable_hosts > 0 ? dom.usable_hosts : static_cast<int>(dom.hosts.size());
        domain_cap_ = std::max(domain_cap_, usable);
    }
    for (HostId h : ch) max_gpus_ = std::max(max_gpus_, static_cast<int>(topo_.host(h).gpus.size()));
    // Every host starts drained; compute hosts are made idle below. Service hosts are
    // never offered to place().
    for (std::size_t i = 0; i < topo_.hosts().size(); ++i) {
        const HostId id(static_cast<HostId::Rep>(i));
        placement::HostState hs = state_.at(id);
        hs.state = NodeState::Drain;
        hs.reason = "not a compute host";
        state_.set(id, std::move(hs));
    }
    for (HostId h : ch) {
        HostRt r;
        r.id = h;
        r.gpus = static_cast<int>(topo_.host(h).gpus.size());
        r.cap = r.gpus > 0 ? r.gpus : 1;
        r.free = r.cap;
        GroupId g = topo_.group_of(h);
        if (g.valid()) {
            int& gm = group_map[g.index()];
            if (gm < 0) {
                gm = static_cast<int>(group_size_.size());
                group_size_.push_back(0);
            }
            r.group = gm;
            ++group_size_[static_cast<std::size_t>(gm)];
        }
        r.domain = domain_of[h.index()];
        // Per-host failure stream: depends only on (seed, host name order).
        r.rng = Rng(opt_.seed * 0x9e3779b97f4a7c15ULL + 0x51ed27a1ULL * (h.index() + 1));
        if (opt_.failures != nullptr) {
            // The rate is per GPU; a host whose GPUs are not modelled counts as 8 GPUs.
            r.rate = opt_.failures->per_gpu_hour * (r.gpus > 0 ? r.gpus : 8) / 3600.0;
        }
        host_index_[h.index()] = static_cast<int>(hosts_.size());
        total_units_ += r.cap;
        placement::HostState hs = state_.at(h);
        hs.state = NodeState::Idle;
        hs.reason.clear();
        hs.free_gpus = -1;
        const bool named =
            std::find(opt_.degraded_hosts.begin(), opt_.degraded_hosts.end(), h) != opt_.degraded_hosts.end();
        if (opt_.degraded_share > 0 || named) {
            // its own stream: the same hosts whatever the failure model
            Rng d(opt_.seed * 0xd1b54a32d192ed03ULL + 0x2545f4914f6cdd1dULL * (h.index() + 1));
            if (named || d.uniform() < opt_.degraded_share) {
                hs.slowdown = opt_.degraded_slowdown > 1.0 ? opt_.degraded_slowdown
                              : opt_.model != nullptr      ? opt_.model->degraded_default
                                                           : 1.1;
                degraded_[h] = hs.slowdown;
            }
        }
        state_.set(h, std::move(hs));
        hosts_.push_back(std::move(r));
    }
    group_idle_.assign(group_size_.size(), 0);
    for (int s : group_size_) gmax_ = std::max(gmax_, s);
    hist_.assign(static_cast<std::size_t>(std::max(max_gpus_, 1)) + 1, 0);
    tmp_jobs_.assign(hosts_.size(), -1);
    tmp_free_.assign(hosts_.size(), 0);
    for (std::size_t i = 0; i < hosts_.size(); ++i) refresh(static_cast<int>(i));
}

/// A host's node state and free GPUs in the placer's state from its jobs and free units
/// (refresh(), and reservation() for the state at the reservation); no release time.
void occupancy(placement::HostState& hs, bool down, int jobs_on, int free, int gpus) {
    if (down) {
        hs.state = NodeState::Down;
    } else if (jobs_on == 0) {
        hs.state = NodeState::Idle;
    } else if (free > 0 && gpus > 0) {
        hs.state = NodeState::Mixed;
    } else {
        hs.state = NodeState::Alloc;
    }
    hs.free_gpus = gpus > 0 ? free : 0;
    if (gpus > 0 && free == gpus) hs.free_gpus = -1;
    hs.release_at = -1;
}

/// Re-derive one host's ClusterState entry and its counter contributions.
void Engine::refresh(int h) {
    auto& r = hosts_[static_cast<std::size_t>(h)];
    if (r.counted) {
        --hist_[static_cast<std::size_t>(std::min(r.counted_free, static_cast<int>(hist_.size()) - 1))];
        if (r.counted_idle) {
            --idle_;
            if (r.group >= 0) --group_idle_[static_cast<std::size_t>(r.group)];
        }
    }
    r.counted = available(h);
    r.counted_free = r.free;
    r.counted_idle = r.jobs_on == 0;
    if (r.counted) {
        ++hist_[static_cast<std::size_t>(std::min(r.free, static_cast<int>(hist_.size()) - 1))];
        if (r.counted_idle) {
            ++idle_;
            if (r.group >= 0) ++group_idle_[static_cast<std::size_t>(r.group)];
        }
    } else {
        r.counted_idle = false;
    }
    placement::HostState hs = state_.at(r.id);
    occupancy(hs, r.down, r.jobs_on, r.free, r.gpus);
    for (int jj : r.jobs) hs.release_at = std::max(hs.release_at, jobs_[static_cast<std::size_t>(jj)].est_end);
    hs.unhealthy = gate_ && r.flagged;
    hs.reason = hs.unhealthy ? "health gate: failure predicted" : "";
    state_.set(r.id, std::move(hs));
}

int Engine::qualifying(const JobRt& j) const {
    if (j.exclusive) return idle_;
    int n = 0;
    for (auto f = static_cast<std::size_t>(j.gph); f < hist_.size(); ++f) n += hist_[f];
    return n;
}

void Engine::schedule_failure(int h, double from) {
    auto& r = hosts_[static_cast<std::size_t>(h)];
    if (r.rate <= 0) return;
    r.next_fail = from + r.rng.exponential(r.rate);
    r.next_detect = r.rng.uniform() < opt_.gate_coverage;
    push(r.next_fail, Ev::Failure, h);
    if (gate_ && r.next_detect) push(std::max(from, r.next_fail - opt_.gate_window_s), Ev::Flag, h);
}

void Engine::record_placement(const JobRt& j, const placement::Placement& p) {
    ++out_->placements;
    if (j.nodes < 2) return;
    ++out_->multi_node;
    const int groups = static_cast<int>(p.groups.size());
    const int bound = p.lower_bound_groups;
    groups_.push_back(groups);
    groups_sum_ += groups;
    bound_sum_ += bound;
    if (groups <= bound) ++out_->at_bound;
    if (p.max_tier >= 1) ++out_->cross_spine;
    if (p.max_tier >= 2) ++out_->cross_core;
    if (p.max_tier > p.lower_bound_tier) ++out_->needless_tier;
    const auto b = static_cast<std::size_t>(std::clamp(bound, 0, kHistCap));
    const auto s = static_cast<std::size_t>(std::clamp(groups, 0, kHistCap));
    out_->groups_hist[b][s] += 1;
    if (domain_cap_ > 0 && j.nodes <= domain_cap_) {
        ++out_->nvl_candidates;
        int first = -2;
        bool split = false;
        for (HostId h : p.hosts) {
            const int d = hosts_[static_cast<std::size_t>(host_index_[h.index()])].domain;
            if (d < 0 || (first != -2 && d != first)) split = true;
            first = d;
        }
        if (split) ++out_->nvl_split;
    }
}

void Engine::start(int j, const placement::Placement& p, double now) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    job.running = true;
    ++job.gen;
    job.run_start = now;
    if (job.first_start < 0) job.first_start = now;
    job.run_cost = job.restarts > 0 ? opt_.restart_cost_s : 0;
    job.est_end = now + run_limit(job);
    job.hosts = p.hosts;
    job.units = 0;
    for (HostId hid : p.hosts) {
        const int h = host_index_[hid.index()];
        auto& r = hosts_[static_cast<std::size_t>(h)];
        const int take = job.exclusive ? r.cap : job.gph;
        r.free -= take;
        ++r.jobs_on;
        r.jobs.push_back(j);
        job.units += take;
        refresh(h);
    }
    busy_units_ += job.units;
    running_.emplace(job.est_end, j);
    uplinks(j, +1);
    slowdown_of(j);
    push(now + job.run_cost + job.remaining * job.slow, Ev::Finish, j, job.gen);
    record_placement(job, p);
    if (p.degraded_hosts > 0) ++(job.nodes > 1 ? out_->multi_node_degraded : out_->single_node_degraded);
    if (opt_.model != nullptr && job.nodes > 1) {
        slowdowns_.push_back(job.slow);
        out_->slowdown_by_size.emplace_back(static_cast<int>(job.units), job.slow);
    }
}

void Engine::slowdown_of(int j) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    job.slow = job.slow_net = 1.0;
    if (opt_.model == nullptr) return;
    perf::JobPlacement jp;
    for (HostId h : job.hosts) {
        if (auto it = degraded_.find(h); it != degraded_.end()) jp.degraded.emplace(h, it->second);
    }
    const bool multi = job.hosts.size() > 1;
    if (!multi && jp.degraded.empty()) return;  // one healthy host: no network, no S_deg
    // Uplink sharing: the other running multi-node jobs' use (perf::uplink_use() of their
    // hosts) is the counts less this job's own; features_of() reads it only at this job's
    // groups and pods, so only those entries are filled.
    perf::UplinkUse use;
    if (multi && running_.size() > 1) {
        use.busy_group.assign(group_users_.size(), 0);
        use.busy_pod.assign(pod_users_.size(), 0);
        const int own_g = job.span.groups.size() > 1 ? 1 : 0;
        const int own_p = job.span.pods.size() > 1 ? 1 : 0;
        for (auto g : job.span.groups)
            if (g < group_users_.size() && group_users_[g] - own_g > 0) use.busy_group[g] = 1;
        for (int p : job.span.pods) {
            const auto pi = static_cast<std::size_t>(p);
            if (p >= 0 && pi < pod_users_.size() && pod_users_[pi] - own_p > 0) use.busy_pod[pi] = 1;
        }
    }
    const int gph = std::max(1, max_gpus_);
    jp.hosts = job.hosts;
    const perf::Profile prof = perf::default_layout({}, static_cast<int>(job.hosts.size()) * gph, gph);
    const auto f = perf::features_of(topo_, shape_, jp, prof, gph, use);
    const auto sd = perf::slowdown(*opt_.model, prof, f);
    job.slow = sd.s_job;
    job.slow_net = sd.s_net;
}

void Engine::uplinks(int j, int sign) {
    if (opt_.model == nullptr) return;  // the fabric's pods are known only with a model
    auto& job = jobs_[static_cast<std::size_t>(j)];
    if (sign > 0) job.span = job.hosts.size() > 1 ? perf::span_of(topo_, shape_, job.hosts) : perf::Span{};
    placement::record_uplinks(topo_, shape_, state_, job.hosts, sign);
    // the same rule for slowdown_of()'s counts: a job spanning several groups (pods) uses
    // all of their uplinks
    const perf::Span& sp = job.span;
    if (sp.groups.size() > 1) {
        for (auto g : sp.groups)
            if (g < group_users_.size()) group_users_[g] += sign;
    }
    if (sp.pods.size() > 1) {
        for (int p : sp.pods) {
            const auto pi = static_cast<std::size_t>(p);
            if (p >= 0 && pi < pod_users_.size()) pod_users_[pi] += sign;
        }
    }
    if (sign < 0) job.span = {};
}

void Engine::release(int j) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    uplinks(j, -1);
    for (HostId hid : job.hosts) {
        const int h = host_index_[hid.index()];
        auto& r = hosts_[static_cast<std::size_t>(h)];
        const int take = job.exclusive ? r.cap : job.gph;
        r.free += take;
        --r.jobs_on;
        r.jobs.erase(std::find(r.jobs.begin(), r.jobs.end(), j));
        refresh(h);
    }
    busy_units_ -= job.units;
    running_.erase({job.est_end, j});
    job.running = false;
}

void Engine::finish(int j, double now) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    if (record_ != nullptr) {
        record_->push_back(Interval{j, job.run_start, now, job.hosts, job.exclusive ? -1 : job.gph, false, job.slow});
    }
    allocated_ += job.units * (now - job.run_start);
    useful_ += job.units * job.remaining;
    const double ran = std::max(0.0, now - job.run_start - job.run_cost);
    out_->placement_gpu_hours += job.units * ran * (1.0 - 1.0 / job.slow) / 3600.0;
    out_->degraded_gpu_hours += job.units * ran / job.slow * (job.slow - job.slow_net) / 3600.0;
    slow_num_ += job.units * ran;
    slow_den_ += job.units * ran / job.slow;
    job.kept_wall += job.remaining * job.slow;
    release(j);
    job.remaining = 0;
    job.done = true;
    --open_;
    ++out_->finished;
    out_->waits.push_back(job.first_start - trace_.jobs[static_cast<std::size_t>(j)].submit_s);
    // ETTR counts what failures cost (lost work, restarts, waiting for a restart), not the
    // placement's slowdown: a run's kept progress counts at the wall time it took.
    ettr_num_ += job.units * job.kept_wall;
    ettr_den_ += job.units * (now - job.first_start);
}

void Engine::kill(int j, double now) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    if (record_ != nullptr) {
        record_->push_back(Interval{j, job.run_start, now, job.hosts, job.exclusive ? -1 : job.gph, true, job.slow});
    }
    const double progress = std::max(0.0, now - job.run_start - job.run_cost);
    double saved = 0;
    if (opt_.checkpoint_interval_s > 0) {
        saved = std::floor(progress / opt_.checkpoint_interval_s) * opt_.checkpoint_interval_s;
    }
    // checkpoints are taken every interval of wall time; the work they hold is that time / S_job
    saved = std::min(saved / job.slow, job.remaining);
    out_->placement_gpu_hours += job.units * progress * (1.0 - 1.0 / job.slow) / 3600.0;
    out_->degraded_gpu_hours += job.units * progress / job.slow * (job.slow - job.slow_net) / 3600.0;
    slow_num_ += job.units * progress;
    slow_den_ += job.units * progress / job.slow;
    allocated_ += job.units * (now - job.run_start);
    useful_ += job.units * saved;
    out_->lost_gpu_hours += job.units * (now - job.run_start - saved * job.slow) / 3600.0;
    ++out_->jobs_killed;
    job.kept_wall += saved * job.slow;
    release(j);
    job.remaining -= saved;
    ++job.restarts;
    queue_.emplace(trace_.jobs[static_cast<std::size_t>(j)].submit_s, j);
}

void Engine::fail_host(int h, double now) {
    auto& r = hosts_[static_cast<std::size_t>(h)];
    ++out_->failures;
    out_->failure_log.emplace_back(now, r.id);
    // Cause: from the table's mix (same stream for every policy).
    bool down = true;
    if (opt_.failures != nullptr && !opt_.failures->causes.empty()) {
        double total = 0;
        for (const auto& c : opt_.failures->causes) total += c.weight;
        double u = r.rng.uniform() * total;
        for (const auto& c : opt_.failures->causes) {
            if (u < c.weight) {
                down = c.takes_node_down;
                break;
            }
            u -= c.weight;
        }
    } else {
        (void)r.rng.uniform();
    }
    auto victims = r.jobs;
    for (int j : victims) kill(j, now);
    r.flagged = false;
    if (down) {
        r.down = true;
        refresh(h);
        push(now + opt_.repair_s, Ev::Repair, h);
    } else {
        refresh(h);
        schedule_failure(h, now);
    }
}

Result<bool> Engine::try_start(int j, double now, std::span<const HostId> withheld) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    if (qualifying(job) < job.nodes) return false;
    const placement::Request req = request_of(job, now);
    placement::Request offered;  // what Slurm offers the job: all but the withheld hosts
    if (!withheld.empty()) {
        offered = req;
        offered.excluded.insert(offered.excluded.end(), withheld.begin(), withheld.end());
    }
    const placement::Request& asked = withheld.empty() ? req : offered;
    ++out_->place_calls;
    auto p = at_submit_ ? place_as_submitted(job, asked, now) : placer_.place(state_, asked, policy_);
    if (p && !withheld.empty()) {
        // the bound is what any placement on the hosts free now could do, withheld or not,
        // as the live judge reads all free nodes
        bound_by(*p, req);
    }
    if (!p) {
        const auto& e = p.error();
        if (e.code == Errc::Busy) return false;
        if (e.code == Errc::Unsatisfiable || e.code == Errc::InvalidArgument) {
            job.rejected = true;
            ++out_->rejected;
            --open_;
            return true;  // leaves the queue
        }
        return fail(Errc::Internal, std::string("place(): ") + e.to_string());
    }
    if (hold_off_degraded(j, *p, now)) return false;
    if (!withheld.empty() && hold_for_withheld(j, *p, req, now)) return false;
    if (static_cast<int>(p->hosts.size()) != job.nodes) {
        return fail(Errc::Internal,
                    "place() returned " + std::to_string(p->hosts.size()) + " hosts for " + std::to_string(job.nodes));
    }
    for (HostId h : p->hosts) {
        const int hi = h.index() < host_index_.size() ? host_index_[h.index()] : -1;
        if (hi < 0 || !available(hi)) {
            return fail(Errc::Internal, "place() chose an unavailable host " + topo_.host(h).name);
        }
        const auto& r = hosts_[static_cast<std::size_t>(hi)];
        if (job.exclusive ? r.jobs_on != 0 : r.free < job.gph) {
            return fail(Errc::Internal, "place() chose a busy host " + topo_.host(h).name);
        }
    }
    if (job.nodes >= 2) judge_dominance(job, *p);
    start(j, *p, now);
    return true;
}

bool Engine::hold_off_degraded(int j, const placement::Placement& p, double now) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    if (at_submit_ || !(policy_ == Policy::Topo || policy_ == Policy::Cost) || !opt_.degraded_rule
        || opt_.degraded_wait_s <= 0 || job.nodes < 2 || p.degraded_hosts == 0)
        return false;
    // healthy hosts free now, offered or withheld (the plugin's offer and idle_elsewhere)
    int healthy = 0;
    for (std::size_t hi = 0; hi < hosts_.size() && healthy < job.nodes; ++hi) {
        const auto& r = hosts_[hi];
        if (!available(static_cast<int>(hi)) || (job.exclusive ? r.jobs_on != 0 : r.free < job.gph)) continue;
        if (!degraded_.contains(r.id)) ++healthy;
    }
    if (healthy < job.nodes) return false;
    double slow = 1;
    for (HostId h : p.hosts)
        if (auto it = degraded_.find(h); it != degraded_.end()) slow = std::max(slow, it->second);
    // held once, from its first such try (the plugin's held_since_)
    return hold_once(job.held_until, std::min(opt_.degraded_wait_s, job.limit * (slow - 1)), out_->degraded_holds, j,
                     now);
}

bool Engine::hold_for_withheld(int j, const placement::Placement& p, const placement::Request& all, double now) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    if (at_submit_ || !(policy_ == Policy::Topo || policy_ == Policy::Cost) || opt_.withheld_wait_s <= 0
        || job.nodes < 2 || p.hosts.size() < 2 || p.groups.size() < 2)
        return false;
    // the plugin's withheld_gain (spank/core/selector.cpp): the same policy on the offer and
    // the withheld hosts (idle_elsewhere of the partition: every free host here)
    ++out_->place_calls;
    auto q = placer_.place(state_, all, policy_);
    if (!q || q->hosts.size() < 2) return false;
    if (!placement::beats(*q, p)) return false;
    const double sp = placer_.predicted_slowdown(state_, p.hosts);
    const double sq = placer_.predicted_slowdown(state_, q->hosts);
    if (!(sq > 0 && sq < sp)) return false;
    // held once, from its first such try (the plugin's withheld_since_)
    return hold_once(job.withheld_until, std::min(opt_.withheld_wait_s, job.limit * (sp / sq - 1)),
                     out_->withheld_holds, j, now);
}

bool Engine::hold_once(double& until, double bound, int& holds, int j, double now) {
    if (until < 0) {
        if (!(bound > 0)) return false;
        until = now + bound;
        ++holds;
        push(until, Ev::Wake, j);  // the pass after it tries the job again
    }
    return now < until;
}

void Engine::judge_dominance(const JobRt& job, const placement::Placement& p) {
    int npods = 1;
    for (int pd : pods_) npods = std::max(npods, pd + 1);
    if (npods > 12) return;
    // free hosts per (group, healthy?) that could take this job now
    const std::size_t ng = topo_.groups().size();
    std::vector<int> free_all(ng, 0);
    std::vector<int> free_ok(ng, 0);
    int n_ok = 0;
    for (std::size_t hi = 0; hi < hosts_.size(); ++hi) {
        const auto& r = hosts_[hi];
        if (!available(static_cast<int>(hi)) || (job.exclusive ? r.jobs_on != 0 : r.free < job.gph)) continue;
        const GroupId g = topo_.host(r.id).group;
        if (!g.valid()) continue;
        ++free_all[g.index()];
        if (!degraded_.contains(r.id)) {
            ++free_ok[g.index()];
            ++n_ok;
        }
    }
    const std::vector<int>& pool = n_ok >= job.nodes ? free_ok : free_all;
    const auto pod = [&](std::size_t g) { return g < pods_.size() && pods_[g] >= 0 ? pods_[g] : 0; };
    const int groups = static_cast<int>(p.groups.size());
    std::uint32_t used = 0;
    for (GroupId g : p.groups) used |= 1U << pod(g.index());
    const int spans = std::popcount(used);
    std::vector<int> counts;
    bool dominated = false;
    for (std::uint32_t mask = 1; mask < (1U << npods) && !dominated; ++mask) {
        const int k = std::popcount(mask);
        if (k > spans) continue;
        counts.clear();
        for (std::size_t g = 0; g < ng; ++g)
            if (pool[g] > 0 && (mask >> pod(g) & 1U) != 0) counts.push_back(pool[g]);
        std::sort(counts.begin(), counts.end(), std::greater<>());
        int got = 0;
        int l = 0;
        for (int c : counts) {
            if (got >= job.nodes) break;
            got += c;
            ++l;
        }
        if (got >= job.nodes && l <= groups && (l < groups || k < spans)) dominated = true;
    }
    ++out_->dominance_judged;
    if (!dominated) ++out_->not_dominated;
}

void Engine::plan_at_submit(int j, double now) {
    auto& job = jobs_[static_cast<std::size_t>(j)];
    job.plan_groups.clear();
    const placement::Request req = request_of(job, now);
    ++out_->place_calls;
    auto p = qualifying(job) >= job.nodes ? placer_.place(state_, req, policy_)
                                          : Result<placement::Placement>(fail(Errc::Busy, "not enough hosts"));
    if (!p) {
        ++out_->submit_no_plan;  // busy (or never: refused at its first start attempt)
        return;
    }
    ++out_->submit_planned;
    for (HostId h : p->hosts) {
        const GroupId g = topo_.host(h).group;
        auto it =
            std::find_if(job.plan_groups.begin(), job.plan_groups.end(), [&](const auto& gc) { return gc.first == g; });
        if (it == job.plan_groups.end()) {
            job.plan_groups.emplace_back(g, 1);
        } else {
            ++it->second;
        }
    }
    job.switch_deadline = now + opt_.switch_wait_s;
    job.plan_avoids_degraded = job.nodes > 1 && p->degraded_hosts == 0 && !degraded_.empty();
}

Result<placement::Placement> Engine::place_as_submitted(const JobRt& job, const placement::Request& req, double now) {
    // exc_nodes (hard, this job only): the degraded hosts a multi-node plan left out; for a job
    // with no plan, those the plugin still hands it (unplanned_env): the degraded hosts, for a
    // multi-node job while the rest can hold it
    const bool no_plan = job.plan_groups.empty();
    const bool keep_off_degraded = no_plan
                                       ? job.nodes > 1 && !degraded_.empty()
                                             && hosts_.size() >= degraded_.size() + static_cast<std::size_t>(job.nodes)
                                       : job.plan_avoids_degraded;
    placement::Request r = req;
    if (keep_off_degraded) {
        for (const auto& [h, s] : degraded_) r.excluded.push_back(h);
    }
    if (no_plan) return placer_.place(state_, r, Policy::SlurmTree);  // Slurm's tree alone
    // The preference, as Slurm reads "[lg_a*3&lg_b*1]": that many hosts of each planned
    // group, the first that qualify in node order; then Slurm's tree allocates exactly them.
    std::vector<char> chosen(topo_.hosts().size(), 0);
    std::vector<char> out_of_job(topo_.hosts().size(), 0);
    for (HostId h : r.excluded) out_of_job[h.index()] = 1;
    bool holds = true;
    for (const auto& [g, count] : job.plan_groups) {
        int got = 0;
        for (HostId h : topo_.groups()[g.index()].hosts) {
            if (got == count) break;
            const int hi = h.index() < host_index_.size() ? host_index_[h.index()] : -1;
            if (hi < 0 || out_of_job[h.index()] != 0 || !available(hi)) continue;
            const auto& hr = hosts_[static_cast<std::size_t>(hi)];
            if (job.exclusive ? hr.jobs_on != 0 : hr.free < job.gph) continue;
            chosen[h.index()] = 1;
            ++got;
        }
        holds = holds && got == count;
    }
    Result<placement::Placement> p = fail(Errc::Busy, "the planned groups cannot hold the job now");
    if (holds) {
        placement::Request pref = r;
        for (std::size_t h = 0; h < chosen.size(); ++h)
            if (chosen[h] == 0) pref.excluded.emplace_back(static_cast<std::uint32_t>(h));
        ++out_->place_calls;
        p = placer_.place(state_, pref, Policy::SlurmTree);
    }
    if (p) {
        ++out_->started_in_plan;
    } else {
        // the preference cannot hold it now: Slurm's tree on everything, at most the plan's
        // switch count until the wait is over
        if (now < job.switch_deadline) r.max_leaves = static_cast<int>(job.plan_groups.size());
        ++out_->place_calls;
        p = placer_.place(state_, r, Policy::SlurmTree);
        if (!p && now < job.switch_deadline && p.error().code == Errc::Unsatisfiable)
            return fail(Errc::Busy, "waiting for switches");
        if (!p) return p;
    }
    // judged against what any placement could do now (the bound of the unrestricted request)
    bound_by(*p, req);
    return p;
}

void Engine::end_in_scratch(int h, int j) {
    const auto hs = static_cast<std::size_t>(h);
    const auto& r = hosts_[hs];
    if (tmp_jobs_[hs] < 0) {
        tmp_jobs_[hs] = r.jobs_on;
        tmp_free_[hs] = r.free;
        touched_.push_back(h);
    }
    --tmp_jobs_[hs];
    tmp_free_[hs] += jobs_[static_cast<std::size_t>(j)].exclusive ? r.cap : jobs_[static_cast<std::size_t>(j)].gph;
}

/// EASY reservation for the queue head: the earliest time enough hosts qualify if
/// running jobs end at their estimates, and the surplus hosts then.
std::pair<double, int> Engine::shadow(const JobRt& head, double now) {
    int count = qualifying(head);
    if (count >= head.nodes) return {now, count - head.nodes};
    // whether host h could take the head, in the scratch (the host's own state until touched)
    auto fits = [&](int h) {
        const auto hs = static_cast<std::size_t>(h);
        const bool touched = tmp_jobs_[hs] >= 0;
        return head.exclusive ? (touched ? tmp_jobs_[hs] : hosts_[hs].jobs_on) == 0
                              : (touched ? tmp_free_[hs] : hosts_[hs].free) >= head.gph;
    };
    double when = kInf;
    for (const auto& [est, j] : running_) {
        for (HostId hid : jobs_[static_cast<std::size_t>(j)].hosts) {
            const int h = host_index_[hid.index()];
            if (!available(h)) continue;
            const bool before = fits(h);
            end_in_scratch(h, j);
            if (!before && fits(h)) ++count;
        }
        if (count >= head.nodes) {
            when = est;
            break;
        }
    }
    for (int h : touched_) tmp_jobs_[static_cast<std::size_t>(h)] = -1;
    touched_.clear();
    return {when, std::max(0, count - head.nodes)};
}

std::vector<HostId> Engine::reservation(const JobRt& head, double shadow_t) {
    std::vector<HostId> out;
    if (shadow_t >= kInf) return out;
    // free, in the state the placer reads, the hosts of the running jobs estimated to end by
    // shadow_t (their entries saved, restored below)
    saved_.clear();
    for (const auto& [est, j] : running_) {
        if (est > shadow_t) break;
        for (HostId hid : jobs_[static_cast<std::size_t>(j)].hosts) {
            const int h = host_index_[hid.index()];
            if (available(h)) end_in_scratch(h, j);
        }
    }
    for (int h : touched_) {
        const auto& r = hosts_[static_cast<std::size_t>(h)];
        placement::HostState hs = state_.at(r.id);
        saved_.emplace_back(r.id, hs);
        occupancy(hs, false, tmp_jobs_[static_cast<std::size_t>(h)], tmp_free_[static_cast<std::size_t>(h)], r.gpus);
        state_.set(r.id, std::move(hs));
        tmp_jobs_[static_cast<std::size_t>(h)] = -1;
    }
    touched_.clear();
    placement::Request req = request_of(head, shadow_t);
    ++out_->place_calls;
    // Slurm's backfill asks the node selection where the head would start (will_run): the
    // topology plugin's choice when it decides at start, Slurm's tree otherwise
    const Policy pol = at_submit_ ? Policy::SlurmTree : policy_;
    if (auto p = placer_.place(state_, req, pol)) {
        if (!at_submit_ && (policy_ == Policy::Cost || policy_ == Policy::Topo)) spare_idle(req, pol, *p);
        out = std::move(p->hosts);
    }
    for (auto& [id, hs] : saved_) state_.set(id, std::move(hs));
    saved_.clear();
    return out;
}

void Engine::spare_idle(const placement::Request& req, Policy pol, placement::Placement& p) {
    // the plugin's lookahead=holes (spank/core/selector.cpp Selector::spare_idle), on the
    // state at the reservation: hosts idle now are "idle", the rest of that state's free
    // hosts "busy"
    const auto idle_now = [&](HostId h) {
        const int hi = h.index() < host_index_.size() ? host_index_[h.index()] : -1;
        return hi >= 0 && available(hi) && hosts_[static_cast<std::size_t>(hi)].jobs_on == 0;
    };
    const auto& groups = topo_.groups();
    const auto group_of = [&](HostId h) { return topo_.host(h).group; };
    // a leaf group every host of which is idle now; holes: idle hosts of the other groups
    whole_.assign(groups.size(), -1);
    const auto wholly_idle = [&](GroupId g) {
        if (!g.valid()) return false;
        auto& w = whole_[g.index()];
        if (w < 0) w = std::all_of(groups[g.index()].hosts.begin(), groups[g.index()].hosts.end(), idle_now) ? 1 : 0;
        return w == 1;
    };
    const auto is_hole = [&](HostId h) { return idle_now(h) && !wholly_idle(group_of(h)); };
    const auto holes_in = [&](const placement::Placement& x) {
        return static_cast<int>(std::count_if(x.hosts.begin(), x.hosts.end(), is_hole));
    };
    const auto spines = [](const placement::Placement& x) {
        return x.switches_per_level.size() > 1 ? x.switches_per_level[1] : 0;
    };
    const auto as_good = [&](const placement::Placement& q) {
        return q.degraded_hosts <= p.degraded_hosts && q.groups.size() <= p.groups.size() && spines(q) <= spines(p)
               && q.max_tier <= p.max_tier && q.leaves.size() <= p.leaves.size();
    };
    const auto free_then = [&](HostId h) {
        const auto& hs = state_.at(h);
        return hs.state == NodeState::Idle || hs.state == NodeState::Mixed;
    };
    // 1. the same decision off the holes, kept when as good and on fewer of them
    if (const int holes = holes_in(p); holes > 0) {
        placement::Request r = req;
        for (const auto& g : groups)
            for (HostId h : g.hosts)
                if (is_hole(h)) r.excluded.push_back(h);
        ++out_->place_calls;
        if (auto q = placer_.place(state_, r, pol); q && as_good(*q) && holes_in(*q) < holes) p = std::move(*q);
    }
    // 1b. no wholly idle group taken in part (the rest of it would be new holes)
    const auto split_of = [&](const placement::Placement& x) {
        std::map<std::uint32_t, std::size_t> taken;
        for (HostId h : x.hosts)
            if (wholly_idle(group_of(h))) ++taken[group_of(h).index()];
        std::vector<std::uint32_t> split;
        for (const auto& [g, n] : taken)
            if (n < groups[g].hosts.size()) split.push_back(g);
        return split;
    };
    if (const auto split = split_of(p); !split.empty()) {
        placement::Request r = req;
        for (const std::uint32_t g : split)
            for (HostId h : groups[g].hosts) r.excluded.push_back(h);
        ++out_->place_calls;
        if (auto q = placer_.place(state_, r, pol);
            q && as_good(*q) && holes_in(*q) <= holes_in(p) && split_of(*q).size() < split.size())
            p = std::move(*q);
    }
    // 2. each idle host for one busy now in its leaf group, free then, not chosen, as fit
    std::set<HostId> chosen(p.hosts.begin(), p.hosts.end());
    for (HostId& h : p.hosts) {
        if (!idle_now(h)) continue;
        const GroupId g = group_of(h);
        if (!g.valid()) continue;
        const auto& hs = state_.at(h);
        for (HostId c : groups[g.index()].hosts) {
            const int ci = c.index() < host_index_.size() ? host_index_[c.index()] : -1;
            if (ci < 0 || !available(ci) || idle_now(c) || chosen.contains(c) || !free_then(c)) continue;
            const auto& cs = state_.at(c);
            if (cs.unhealthy || cs.slowdown != hs.slowdown
                || state_.total_gpus(topo_, c) != state_.total_gpus(topo_, h))
                continue;
            chosen.erase(h);
            chosen.insert(c);
            h = c;
            break;
        }
    }
}

Status Engine::pass(double now) {
    // Start jobs in FIFO order while they fit.
    while (!queue_.empty()) {
        const int j = queue_.begin()->second;
        auto ok = try_start(j, now);
        if (!ok) return fail(ok.error());
        if (!*ok) break;
        queue_.erase(queue_.begin());
    }
    if (queue_.empty()) return Ok{};
    // EASY backfill behind the blocked head.
    const JobRt& head = jobs_[static_cast<std::size_t>(queue_.begin()->second)];
    auto [shadow_t, extra] = shadow(head, now);
    // the head's hosts at its reservation, found when a job that would end after it is tried
    // (Slurm's backfill pins them; SimOptions::reserve_hosts false: counted, as before)
    std::vector<HostId> reserved;
    bool have_reserved = !opt_.reserve_hosts;
    int depth = 0;
    for (auto it = std::next(queue_.begin()); it != queue_.end() && depth < opt_.backfill_depth;) {
        ++depth;
        const int j = it->second;
        auto& job = jobs_[static_cast<std::size_t>(j)];
        const bool before_shadow = now + run_limit(job) <= shadow_t;
        if (!before_shadow && job.nodes > extra) {
            ++it;
            continue;
        }
        if (!before_shadow && !have_reserved) {
            reserved = reservation(head, shadow_t);
            have_reserved = true;
        }
        auto ok = before_shadow ? try_start(j, now) : try_start(j, now, reserved);
        if (!ok) return fail(ok.error());
        if (*ok) {
            if (!job.rejected) {
                ++out_->backfilled;
                if (!before_shadow) extra -= job.nodes;
            }
            it = queue_.erase(it);
        } else {
            ++it;
        }
    }
    return Ok{};
}

void Engine::advance(double now) {
    const double dt = now - last_t_;
    if (dt > 0) {
        frag_area_ += frag_now_ * dt;
        busy_area_ += busy_now_ * dt;
    }
    last_t_ = now;
}

void Engine::observe(double now) {
    busy_now_ = busy_units_;
    // Fragmentation: 1 - (idle hosts of the best leaf group) / min(idle hosts, largest
    // group). 0 when the idle hosts form the largest hole they could; 1 when scattered.
    if (idle_ > 0) {
        int best = 0;
        for (int g : group_idle_) best = std::max(best, g);
        frag_now_ = 1.0 - static_cast<double>(best) / std::min(idle_, gmax_);
    } else {
        frag_now_ = 0;
    }
    steps_.push_back({now, busy_now_, frag_now_});
}

Status Engine::run(PolicyRun& out, int run_index, int runs) {
    out_ = &out;
    out.policy = policy_;
    out.gate = gate_;
    out.decide = at_submit_ ? Decide::Submit : Decide::Start;
    out.label = std::string(placement::policy_name(policy_)) + (at_submit_ ? "@submit" : "") + (gate_ ? "+gate" : "");
    out.groups_hist.assign(kHistCap + 1, std::vector<int>(kHistCap + 1, 0));
    degraded_.clear();
    init_hosts();
    if (hosts_.empty()) return fail(Errc::InvalidArgument, "the topology has no compute hosts");
    out.degraded_hosts = static_cast<int>(degraded_.size());
    const auto& tj = trace_.jobs;
    out.jobs = static_cast<int>(tj.size());
    jobs_.resize(tj.size());
    for (std::size_t i = 0; i < tj.size(); ++i) {
        auto& j = jobs_[i];
        j.nodes = std::max(1, tj[i].nodes);
        j.work = std::max(0.0, tj[i].duration_s);
        j.remaining = j.work;
        j.limit = std::max(j.work, tj[i].timelimit_s);
        const int g = tj[i].gpus_per_node;
        j.exclusive = j.nodes > 1 || g <= 0 || max_gpus_ == 0 || g >= max_gpus_;
        j.gph = j.exclusive ? 0 : g;
        j.req_gpn = max_gpus_ == 0 ? 0 : (j.exclusive ? std::min(std::max(g, 0), max_gpus_) : g);
        push(tj[i].submit_s, Ev::Arrival, static_cast<int>(i));
    }
    open_ = static_cast<int>(tj.size());
    const double t0 = tj.empty() ? 0 : tj.front().submit_s;
    last_t_ = t0;
    for (std::size_t h = 0; h < hosts_.size(); ++h) schedule_failure(static_cast<int>(h), t0);
    observe(t0);
    std::size_t batches = 0;
    double end_t = t0;
    while (open_ > 0 && !events_.empty()) {
        const double now = events_.top().t;
        advance(now);
        while (!events_.empty() && events_.top().t == now) {
            const Event e = events_.top();
            events_.pop();
            switch (e.type) {
                case Ev::Arrival: {
                    auto& j = jobs_[static_cast<std::size_t>(e.a)];
                    const int want = tj[static_cast<std::size_t>(e.a)].gpus_per_node;
                    if (j.nodes > static_cast<int>(hosts_.size()) || (max_gpus_ > 0 && want > max_gpus_)) {
                        j.rejected = true;
                        ++out.rejected;
                        --open_;
                    } else {
                        // the plugin plans only for a job Slurm would start at once: none
                        // queued ahead of it (SimOptions::plan_queued)
                        const bool queued_ahead = !queue_.empty();
                        queue_.emplace(tj[static_cast<std::size_t>(e.a)].submit_s, e.a);
                        if (at_submit_ && queued_ahead && !opt_.plan_queued) {
                            j.plan_groups.clear();
                            ++out_->submit_no_plan;
                            ++out_->submit_queued;
                        } else if (at_submit_) {
                            plan_at_submit(e.a, now);
                            if (!j.plan_groups.empty()) push(j.switch_deadline, Ev::Wake, e.a);
                        }
                    }
                    break;
                }
                case Ev::Wake: break;  // the pass below tries the job again
                case Ev::Finish: {
                    auto& j = jobs_[static_cast<std::size_t>(e.a)];
                    if (j.running && j.gen == e.b) {
                        finish(e.a, now);
                        end_t = now;
                    }
                    break;
                }
                case Ev::Failure: {
                    auto& r = hosts_[static_cast<std::size_t>(e.a)];
                    if (r.next_fail == now) fail_host(e.a, now);
                    break;
                }
                case Ev::Flag: {
                    auto& r = hosts_[static_cast<std::size_t>(e.a)];
                    if (!r.flagged && r.next_fail >= now) {
                        r.flagged = true;
                        ++out.gate_saves;
                        refresh(e.a);
                    }
                    break;
                }
                case Ev::Repair: {
                    auto& r = hosts_[static_cast<std::size_t>(e.a)];
                    r.down = false;
                    refresh(e.a);
                    schedule_failure(e.a, now);
                    break;
                }
            }
        }
        if (auto st = pass(now); !st) return st;
        observe(now);
        if (opt_.progress && (++batches % 4096) == 0) {
            const double done =
                1.0 - static_cast<double>(open_) / static_cast<double>(std::max<std::size_t>(1, tj.size()));
            opt_.progress((run_index + done) / runs);
        }
    }
    if (open_ > 0) return fail(Errc::Internal, std::to_string(open_) + " jobs never finished");
    advance(end_t);

    // Metrics.
    out.makespan_s = end_t - t0;
    std::sort(out.waits.begin(), out.waits.end());
    if (!out.waits.empty()) {
        double s = 0;
        for (double w : out.waits) s += w;
        out.mean_wait_s = s / static_cast<double>(out.waits.size());
        out.p95_wait_s = percentile(out.waits, 0.95);
        out.max_wait_s = out.waits.back();
    }
    if (out.multi_node > 0) {
        out.mean_groups = groups_sum_ / out.multi_node;
        out.mean_groups_bound = bound_sum_ / out.multi_node;
        out.groups_ratio = bound_sum_ > 0 ? groups_sum_ / bound_sum_ : 0;
        std::sort(groups_.begin(), groups_.end());
        out.p95_groups = percentile(groups_, 0.95);
    }
    if (out.makespan_s > 0) {
        out.utilization_all = busy_area_ / (total_units_ * out.makespan_s);
        out.utilization = out.utilization_all;
        out.fragmentation = frag_area_ / out.makespan_s;
    }
    // The loaded window: first to last submit (the drain after the last arrival says
    // more about the trace's longest job than about the policy).
    const double t_last = tj.empty() ? t0 : tj.back().submit_s;
    if (t_last > t0) {
        double busy = 0;
        double frag = 0;
        for (std::size_t i = 0; i < steps_.size(); ++i) {
            const double a = std::max(steps_[i].t, t0);
            const double b = std::min(i + 1 < steps_.size() ? steps_[i + 1].t : end_t, t_last);
            if (b <= a) continue;
            busy += steps_[i].busy * (b - a);
            frag += steps_[i].frag * (b - a);
        }
        out.utilization = busy / (total_units_ * (t_last - t0));
        out.fragmentation = frag / (t_last - t0);
    }
    out.goodput = allocated_ > 0 ? useful_ / allocated_ : 0;
    out.ettr = ettr_den_ > 0 ? ettr_num_ / ettr_den_ : 0;
    out.failure_gpu_hours = out.lost_gpu_hours;
    if (opt_.model != nullptr) {
        out.mean_slowdown = slow_den_ > 0 ? slow_num_ / slow_den_ : 1.0;
        std::sort(slowdowns_.begin(), slowdowns_.end());
        out.p95_slowdown = slowdowns_.empty() ? 1.0 : percentile(slowdowns_, 0.95);
        out.effective_mfu = opt_.ideal_mfu / out.mean_slowdown * out.ettr;
    }
    // Series: bucket averages of the step functions.
    const int n = std::max(1, opt_.series_points);
    out.series_step_s = out.makespan_s > 0 ? out.makespan_s / n : 0;
    out.util_series.assign(static_cast<std::size_t>(n), 0);
    out.frag_series.assign(static_cast<std::size_t>(n), 0);
    if (out.series_step_s > 0) {
        for (std::size_t i = 0; i < steps_.size(); ++i) {
            const double a = steps_[i].t;
            const double b = i + 1 < steps_.size() ? steps_[i + 1].t : end_t;
            if (b <= a) continue;
            // Spread [a, b) over the buckets it covers.
            const double step = out.series_step_s;
            const auto last = static_cast<double>(out.util_series.size() - 1);
            const auto ka = static_cast<std::size_t>(std::clamp(std::floor((a - t0) / step), 0.0, last));
            const auto kb = static_cast<std::size_t>(std::clamp(std::floor((b - t0) / step), 0.0, last));
            for (std::size_t k = ka; k <= kb; ++k) {
                const double lo = std::max(a, t0 + static_cast<double>(k) * step);
                const double hi =
                    k == out.util_series.size() - 1 ? b : std::min(b, t0 + static_cast<double>(k + 1) * step);
                if (hi <= lo) continue;
                out.util_series[k] += steps_[i].busy / total_units_ * (hi - lo) / step;
                out.frag_series[k] += steps_[i].frag * (hi - lo) / step;
            }
        }
    }
    return Ok{};
}

}  // namespace

const char* decide_name(Decide d) noexcept {
    return d == Decide::Submit ? "submit" : "start";
}

namespace {
/// How a run's placements were decided, for the headline: which product path it models.
std::string decided_how(const PolicyRun& x) {
    if (x.policy != placement::Policy::Topo && x.policy != placement::Policy::Cost) {
        if (x.policy == placement::Policy::SlurmTree) return x.label + " (Slurm alone)";
        if (x.policy == placement::Policy::SlurmTree24) return x.label + " (Slurm alone, 24.11+'s tree)";
        return x.label;
    }
    return x.decide == Decide::Submit ? x.label + " (planned at submission: SPANK plugin + job_submit.lua, Slurm 22.05)"
                                      : x.label + " (decided at job start: topology/topoplace, Slurm 24.11+)";
}
}  // namespace

std::string headline(const Replay& r) {
    if (!r.model || r.runs.size() < 2) return {};
    const PolicyRun& a = r.runs[0];
    // against slurm-tree (what the site runs without topoplace) when it was replayed, else the
    // next policy with the same health gate
    const PolicyRun* b = nullptr;
    for (const auto& x : r.runs) {
        if (x.policy == a.policy || x.gate != a.gate) continue;
        if (x.policy == placement::Policy::SlurmTree || x.policy == placement::Policy::SlurmTree24) {
            b = &x;
            break;
        }
        if (b == nullptr) b = &x;
    }
    if (b == nullptr) return {};
    const std::string an = decided_how(a);
    const std::string bn = decided_how(*b);
    const double la = a.placement_gpu_hours + a.failure_gpu_hours;
    const double lb = b->placement_gpu_hours + b->failure_gpu_hours;
    char buf[768];
    const double d = lb - la;
    std::snprintf(buf, sizeof buf,
                  "%s loses %.1f %s GPU-hours to placement and failures than %s (%.1f %% of %s's loss) on this trace; "
                  "effective MFU %.1f %% vs %.1f %%",
                  an.c_str(), std::abs(d), d >= 0 ? "fewer" : "more", bn.c_str(),
                  lb > 0 ? 100.0 * std::abs(d) / lb : 0.0, b->label.c_str(), 100 * a.effective_mfu,
                  100 * b->effective_mfu);
    return buf;
}

std::vector<HostId> compute_hosts(const Topology& topo) {
    std::vector<HostId> out;
    for (std::size_t i = 0; i < topo.hosts().size(); ++i) {
        const auto& h = topo.hosts()[i];
        if (h.role == HostRole::Compute || (h.role == HostRole::Unknown && !h.gpus.empty())) {
            out.emplace_back(static_cast<HostId::Rep>(i));
        }
    }
    return out;
}

Result<Replay> simulate(const Topology& topo, const Trace& trace, const SimOptions& opt) {
    if (trace.jobs.empty()) return fail(Errc::InvalidArgument, "the trace has no jobs");
    if (opt.policies.empty() || opt.gates.empty()) return fail(Errc::InvalidArgument, "no policy to replay");
    if (opt.checkpoint_interval_s < 0 || opt.restart_cost_s < 0 || opt.repair_s < 0 || opt.gate_window_s < 0
        || opt.gate_coverage < 0 || opt.gate_coverage > 1) {
        return fail(Errc::InvalidArgument, "negative time or coverage outside [0, 1]");
    }
    if (!(opt.degraded_share >= 0 && opt.degraded_share <= 1) || !(opt.degraded_slowdown >= 0)
        || (opt.degraded_slowdown > 0 && opt.degraded_slowdown < 1)) {
        return fail(Errc::InvalidArgument, "degraded share outside [0, 1] or degraded slowdown below 1");
    }
    if ((opt.degraded_share > 0 || !opt.degraded_hosts.empty()) && opt.model == nullptr) {
        return fail(Errc::InvalidArgument, "degraded hosts need the performance model (their cost is S_deg)");
    }
    Replay r;
    auto ch = compute_hosts(topo);
    r.hosts = static_cast<int>(ch.size());
    for (HostId h : ch) r.gpus += static_cast<int>(topo.host(h).gpus.size());
    r.groups = static_cast<int>(topo.groups().size());
    r.tiers = topo.tiers();
    for (const auto& d : topo.nvl_domains()) r.nvl_multi_domains += d.multi_node ? 1 : 0;
    r.topology = std::to_string(r.hosts) + " compute hosts, " + std::to_string(r.gpus) + " GPUs, "
                 + std::to_string(r.groups) + " leaf groups, " + std::to_string(r.tiers) + " switch tiers";
    if (r.nvl_multi_domains > 0)
        r.topology += ", " + std::to_string(r.nvl_multi_domains) + " multi-node NVLink domains";
    r.trace = trace.source;
    r.offered_load = offered_load(trace, r.hosts);
    if (opt.failures != nullptr) r.failures = opt.failures->summary;
    r.model = opt.model != nullptr;
    r.ideal_mfu = r.model ? opt.ideal_mfu : 0.0;
    if (opt.degraded_share > 0 || !opt.degraded_hosts.empty()) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "%.2f %% of compute hosts degraded%s (slowdown %.2f), %s",
                      opt.degraded_share * 100, opt.degraded_hosts.empty() ? "" : " and the hosts named",
                      opt.degraded_slowdown > 1 ? opt.degraded_slowdown : opt.model->degraded_default,
                      opt.degraded_rule ? "kept out of multi-node jobs while others fit" : "placed like any host");
        r.degraded = buf;
    }
    if (opt.decides.empty()) return fail(Errc::InvalidArgument, "no decision mode to replay");

    // topo and cost once per decision mode, the baselines (Slurm's own choice) once
    struct Run {
        Policy p;
        Decide d;
    };

    std::vector<Run> plan;
    for (Policy p : opt.policies) {
        const bool ours = p == Policy::Topo || p == Policy::Cost;
        for (std::size_t i = 0; i < (ours ? opt.decides.size() : 1); ++i)
            plan.push_back({p, ours ? opt.decides[i] : Decide::Start});
    }
    const int runs = static_cast<int>(plan.size() * opt.gates.size());
    const placement::Placer placer =
        opt.model != nullptr ? placement::Placer(topo, *opt.model) : placement::Placer(topo);
    int k = 0;
    for (bool gate : opt.gates) {
        for (const Run& run : plan) {
            PolicyRun pr;
            Engine e(placer, trace, opt, run.p, gate, nullptr, run.d);
            if (auto st = e.run(pr, k, runs); !st) return fail(st.error());
            r.runs.push_back(std::move(pr));
            ++k;
            if (opt.progress) opt.progress(static_cast<double>(k) / runs);
        }
    }
    return r;
}

Result<std::vector<Interval>> replay_intervals(const Topology& topo, const Trace& trace, Policy policy, bool gate,
                                               const SimOptions& opt, Decide decide) {
    std::vector<Interval> iv;
    PolicyRun pr;
    const placement::Placer placer =
        opt.model != nullptr ? placement::Placer(topo, *opt.model) : placement::Placer(topo);
    Engine e(placer, trace, opt, policy, gate, &iv, decide);
    if (auto st = e.run(pr, 0, 1); !st) return fail(st.error());
    return iv;
}

}  // namespace topo::whatif
