// SPDX-License-Identifier: Apache-2.0
// place(): the policies dispatched, degraded hosts kept out, the Unsatisfiable/Busy
// distinction. Unit capacities: capacity.cpp; lower bounds: bounds.cpp; the finishing of
// every choice: finish.cpp; the policies: policy_*.cpp.
#include <algorithm>
#include <charconv>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include <topo/enum_names.hpp>
#include <topo/hostlist.hpp>
#include <topo/perf/features.hpp>
#include <topo/placement/place.hpp>

#include "internal.hpp"

namespace topo::placement {

namespace {

/// " GPU(s)", " segment(s)" or " host(s)": what a request of this mode counts.
const char* unit_noun(UnitMode m) noexcept {
    switch (m) {
        case UnitMode::Gpus: return " GPU(s)";
        case UnitMode::Segments: return " segment(s)";
        case UnitMode::Nodes: return " host(s)";
    }
    return " host(s)";
}

constexpr std::array<const char*, 6> kPolicyNames{"topo", "slurm-tree", "linear", "cost", "spread", "slurm-tree-24"};
static_assert(kPolicyNames.size() == static_cast<std::size_t>(Policy::SlurmTree24) + 1);
}  // namespace

const char* policy_name(Policy p) noexcept {
    return enum_name(p, kPolicyNames, "topo");
}

Result<Policy> policy_from_name(std::string_view s) {
    if (s == "slurm_tree" || s == "tree") return Policy::SlurmTree;  // accepted spellings
    if (auto p = enum_from_name<Policy>(s, kPolicyNames)) return *p;
    return fail(Errc::InvalidArgument,
                "unknown policy \"" + std::string(s) + "\" (topo, slurm-tree, slurm-tree-24, linear, cost, spread)");
}

namespace {

/// topo with one_nvl_domain: the best domain that holds the job.
bool choose_topo_nvl(Work& w, Choice& c) {
    const auto& ix = *w.ix;

    struct Best {
        int groups = 0, tier = 0, free = 0, dom = -1;
    } best;

    for (std::size_t d = 0; d < ix.domains.size(); ++d) {
        const auto& dom = ix.domains[d];
        if (dom.usable > 0 && w.nodes > dom.usable) continue;
        w.restrict_domain = static_cast<int>(d);
        compute_caps(w);
        Choice cd;
        if (!choose_topo(w, cd)) continue;
        int free = 0;
        for (auto h : dom.hosts) free += w.host_units[h] > 0 ? 1 : 0;
        std::set<int> leaves;
        for (auto h : cd.hosts) leaves.insert(ix.leaf_of_host[h]);
        std::vector<int> used(leaves.begin(), leaves.end());
        int tier = 0;
        if (used.size() > 1) {
            for (int x : ix.by_level_order) {
                const auto& s = ix.sw[static_cast<std::size_t>(x)];
                if (std::includes(s.leaves.begin(), s.leaves.end(), used.begin(), used.end())) {
                    tier = s.level;
                    break;
                }
            }
        }
        const Best cand{static_cast<int>(used.size()), tier, free, static_cast<int>(d)};
        if (best.dom < 0 || std::tie(cand.groups, cand.tier, cand.free) < std::tie(best.groups, best.tier, best.free)) {
            best = cand;
            c = std::move(cd);
        }
    }
    w.restrict_domain = best.dom;
    if (best.dom < 0) return false;
    compute_caps(w);  // caps of the chosen domain, for the bounds
    c.why = "NVLink domain " + ix.domains[static_cast<std::size_t>(best.dom)].name
            + " (best fit: " + std::to_string(best.free) + " free host(s)); " + c.why;
    return true;
}

/// Unit capacities on the state as it is now (not the ideal, empty cluster), over the whole
/// cluster (no NVLink domain chosen).
void caps_now(Work& w) {
    w.ideal = false;
    w.restrict_domain = -1;
    compute_caps(w);
}

/// The request sized to `n` hosts (n / segment units with segments; a GPU request keeps its
/// one host and its GPUs).
void size_for(Work& w, int n) {
    if (w.mode == UnitMode::Gpus) return;
    w.nodes = n;
    w.demand = w.mode == UnitMode::Segments ? n / w.seg : n;
}

/// topo's unit capacities: from the group counts where they describe the request, else
/// per host.
void topo_caps(Work& w) {
    if (caps_from_counts_ok(w)) {
        compute_caps_from_counts(w);
    } else {
        compute_caps(w);
    }
}

bool run_policy(Work& w, Policy policy, Choice& c) {
    const bool nvl = w.req.one_nvl_domain && w.nodes > 1 && w.mode != UnitMode::Gpus;
    switch (policy) {
        case Policy::Cost:  // Placer::place() runs topo for it
        case Policy::Topo:
            if (nvl) return choose_topo_nvl(w, c);
            topo_caps(w);
            return choose_topo(w, c);
        case Policy::SlurmTree:
        case Policy::SlurmTree24:
            w.tree2405 = policy == Policy::SlurmTree24;
            // node counts per leaf from the group counts where they describe the request, as
            // topo's (issue 29: the per-host caps were 37 % of a replay at 16,384 hosts);
            // choose_slurm_tree reads them so in Nodes mode only
            if (w.mode == UnitMode::Nodes) {
                topo_caps(w);
            } else {
                compute_caps(w);
            }
            return choose_slurm_tree(w, c);
        case Policy::Linear: compute_caps(w); return choose_linear(w, c);
        case Policy::Spread:  // Placer::place() runs place_spread for it
            return false;
    }
    return false;
}

/// Why an ideal (idle, healthy) cluster cannot take the request.
std::string unsatisfiable_reason(const Work& w) {
    const auto& ix = *w.ix;
    long units = 0;
    int max_gpus = 0;
    int placeable = 0;
    for (int h = 0; h < ix.n_hosts; ++h) {
        if (ix.leaf_of_host[static_cast<std::size_t>(h)] < 0) continue;
        ++placeable;
        max_gpus = std::max(max_gpus, w.state->total_gpus(*w.topo, HostId{static_cast<std::uint32_t>(h)}));
        units += w.host_units[static_cast<std::size_t>(h)];
    }
    std::ostringstream o;
    o << "can never fit: ";
    if (w.gpn > max_gpus) {
        o << "needs " << w.gpn << " GPU(s) per host, the most any host has is " << max_gpus;
    } else if (w.req.one_nvl_domain && ix.domains.empty()) {
        o << "one NVLink domain requested, the topology has no multi-node NVLink domain";
    } else if (w.req.one_nvl_domain) {
        std::size_t most = 0;
        for (const auto& d : ix.domains) {
            most =
                std::max(most, d.usable > 0 ? std::min<std::size_t>(d.hosts.size(), static_cast<std::size_t>(d.usable))
                                            : d.hosts.size());
        }
        o << "needs " << w.nodes << " host(s) in one NVLink domain, the largest domain allows " << most;
    } else if (units < w.demand) {
        o << "needs " << w.demand << unit_noun(w.mode) << ", an idle cluster offers " << units << " (" << placeable
          << " placeable host(s)";
        if (!w.req.excluded.empty()) o << ", " << w.req.excluded.size() << " excluded";
        if (!w.req.excluded_groups.empty()) o << ", " << w.req.excluded_groups.size() << " leaf group(s) excluded";
        if (w.req.rail_aligned) o << ", rail-aligned only";
        o << ")";
    } else {
        o << "no switch subtree, leaf-count or NVLink-domain limit allows " << w.demand << unit_noun(w.mode);
        if (w.req.max_tier) o << " (max tier " << *w.req.max_tier << ")";
        if (w.req.max_leaves > 0) o << " (max " << w.req.max_leaves << " leaf group(s))";
    }
    return o.str();
}

}  // namespace

namespace {

/// The model's slowdown of `hosts` in id order (the Placer's parameters, the default layout
/// of its GPUs), next to the running jobs' uplink use `use`.
double model_slowdown(const Placer::Index& ix, const Topology& t, const perf::FabricShape& shape,
                      const perf::Params& params, const perf::UplinkUse& use, perf::JobPlacement& jp) {
    if (jp.hosts.size() < 2) return 1.0;
    int gph = 0;  // (the index's per-host counts: the hosts' records are not read)
    for (auto h : jp.hosts) gph = std::max(gph, ix.host_gpus[h.index()]);
    if (gph == 0) gph = 8;  // PERF-MODEL 6.1: HGX, 8 GPUs per host
    const perf::Profile prof = perf::default_layout({}, static_cast<int>(jp.hosts.size()) * gph, gph);
    return perf::slowdown(params, prof, perf::features_of(t, shape, jp, prof, gph, use)).s_job;
}

/// The slowest of `hosts` as the state records it (HostState::slowdown: a degraded host runs
/// every step of a synchronous job that much slower, PERF-MODEL 6.2): S_deg of S_job = S_net S_deg.
double slowest_host(const ClusterState& state, const std::vector<HostId>& hosts) {
    double s = 1.0;
    if (hosts.size() < 2) return s;
    for (const HostId h : hosts) s = std::max(s, state.at(h).slowdown);
    return s;
}

/// The running jobs' uplink use as the state records it (ClusterState::uplink_users).
perf::UplinkUse uplink_use_of(const Topology& t, const perf::FabricShape& shape, const ClusterState& state) {
    perf::UplinkUse u;
    if (state.groups_with_uplink_users() == 0) return u;
    const std::size_t ng = t.groups().size();
    u.busy_group.assign(ng, 0);
    u.busy_pod.assign(static_cast<std::size_t>(std::max(0, shape.pods)), 0);
    for (std::size_t g = 0; g < ng; ++g) {
        const auto uu = state.uplink_users(GroupId{static_cast<std::uint32_t>(g)});
        if (uu.spanning > 0) u.busy_group[g] = 1;
        const int pod = g < shape.pod_of_group.size() ? shape.pod_of_group[g] : -1;
        if (uu.multi_pod > 0 && pod >= 0 && static_cast<std::size_t>(pod) < u.busy_pod.size())
            u.busy_pod[static_cast<std::size_t>(pod)] = 1;
    }
    return u;
}

}  // namespace

const perf::FabricShape& Placer::fabric_shape() const {
    std::call_once(idx_->shape_once, [this] { idx_->shape = perf::fabric_shape(*topo_); });
    return idx_->shape;
}

bool beats(const Placement& q, const Placement& p) noexcept {
    auto spines = [](const Placement& x) { return x.switches_per_level.size() > 1 ? x.switches_per_level[1] : 0; };
    const auto pg = p.groups.size();
    const auto qg = q.groups.size();
    const int ps = spines(p);
    const int qs = spines(q);
    return qg <= pg && qs <= ps && (qg < pg || qs < ps) && q.degraded_hosts <= p.degraded_hosts;
}

double Placer::predicted_slowdown(const ClusterState& state, std::span<const HostId> hosts) const {
    if (hosts.size() < 2) return 1.0;
    const perf::FabricShape& shape = fabric_shape();
    const perf::UplinkUse use = uplink_use_of(*topo_, shape, state);
    perf::JobPlacement jp;
    jp.hosts.assign(hosts.begin(), hosts.end());
    return model_slowdown(*idx_, *topo_, shape, idx_->model, use, jp) * slowest_host(state, jp.hosts);
}

namespace {

/// A request read for one policy: place_one's checks passed, its Work (no caps yet), the
/// node counts to try (nmax down to nmin by step) and the request parts the policy ignores.
struct Prepared {
    Work w;
    int nmin = 1;
    int nmax = 1;
    int step = 1;
    std::vector<std::string> ignored;
};

Status prepare(const Topology& t, const Placer::Index& ix, const ClusterState& state, const Request& req, Policy policy,
               const std::vector<std::uint32_t>* skip, Prepared& out) {
    Work& w = out.w;
    if (req.gpus_per_node < 0 || req.total_gpus < 0 || req.segment < 0 || req.max_leaves < 0
        || (req.max_tier && *req.max_tier < 0)) {
        return fail(Errc::InvalidArgument, "negative GPU, segment, tier or leaf count in the request");
    }
    w.topo = &t;
    w.ix = &ix;
    w.state = &state;
    w.briefs = state.briefs();
    w.idle_bits = state.idle_bits();
    w.skip = skip;
    w.req = req;
    w.gpn = req.gpus_per_node;
    const bool gpu_units = req.total_gpus > 0 && req.gpus_per_node == 0 && !req.exclusive && req.nodes_min <= 1
                           && req.nodes_max <= 1 && req.segment == 0;
    if (!gpu_units && req.nodes_min < 1) return fail(Errc::InvalidArgument, "node count must be at least 1");
    int nmax = req.nodes_max == 0 ? req.nodes_min : req.nodes_max;
    if (nmax < req.nodes_min) return fail(Errc::InvalidArgument, "node range max is below min");
    if (req.gpus_per_node > 0 && req.total_gpus > 0 && req.total_gpus != req.gpus_per_node * req.nodes_min) {
        return fail(Errc::InvalidArgument,
                    "give GPUs per node or total GPUs, not both (unless total = per node x nodes)");
    }
    if (req.segment > 0) {
        if (req.nodes_min % req.segment != 0 || nmax % req.segment != 0) {
            return fail(Errc::InvalidArgument, "node count " + std::to_string(req.nodes_min)
                                                   + " is not a multiple of the segment size "
                                                   + std::to_string(req.segment));
        }
    }
    if (!req.excluded.empty()) w.excluded.assign(t.hosts().size(), 0);
    for (auto h : req.excluded) {
        if (!h.valid() || h.index() >= t.hosts().size()) {
            return fail(Errc::InvalidArgument, "excluded host id out of range");
        }
        w.excluded[h.index()] = 1;
    }
    if (!req.excluded_groups.empty()) {
        std::vector<std::uint8_t> skip_group(t.groups().size(), 0);
        for (auto g : req.excluded_groups) {
            if (!g.valid() || g.index() >= t.groups().size()) {
                return fail(Errc::InvalidArgument, "excluded leaf group id out of range");
            }
            skip_group[g.index()] = 1;
        }
        w.skip_leaf.assign(static_cast<std::size_t>(ix.n_leaves), 0);
        for (int l = 0; l < ix.n_leaves; ++l) {
            const GroupId g = ix.sw[static_cast<std::size_t>(l)].group;
            if (g.valid() && g.index() < skip_group.size())
                w.skip_leaf[static_cast<std::size_t>(l)] = skip_group[g.index()];
        }
    }
    if (gpu_units) {
        w.mode = UnitMode::Gpus;
        w.nodes = 1;
        w.demand = req.total_gpus;
        nmax = 1;
    } else if (req.total_gpus > 0 && req.gpus_per_node == 0) {
        w.gpn = (req.total_gpus + req.nodes_min - 1) / req.nodes_min;  // even split over the nodes
    }
    if (req.segment > 0 && w.mode != UnitMode::Gpus) {
        w.mode = UnitMode::Segments;
        w.seg = req.segment;
    }
    const int nmin = w.mode == UnitMode::Gpus ? 1 : req.nodes_min;
    const int step = w.mode == UnitMode::Segments ? w.seg : 1;
    std::vector<std::string>& ignored = out.ignored;
    if (policy != Policy::Topo) {
        if (req.one_nvl_domain) ignored.emplace_back("one_nvl_domain");
        if (req.segment > 0) ignored.emplace_back("segment");
        if (req.max_tier) ignored.emplace_back("max_tier");
        if (policy == Policy::Linear && req.max_leaves > 0) ignored.emplace_back("max_leaves");
    }
    if (w.mode != UnitMode::Gpus && nmax > nmin) {
        // Bounded work (issue 17): a range such as 1-1000000 scans down from the most hosts
        // that could fit now (the free units of the whole cluster under the request's
        // constraints), not from its max; larger counts could not fit, so the decision is the
        // same and the scan is at most one pass per host.
        size_for(w, nmin);
        caps_now(w);
        long cap = 0;
        for (int c : w.leaf_cap) cap += c;
        if (w.mode == UnitMode::Segments) cap *= w.seg;
        // slurm-tree and linear ignore segments: only the host count bounds them there
        if (w.mode == UnitMode::Segments && policy != Policy::Topo) cap = static_cast<long>(t.hosts().size());
        cap = std::min<long>(cap, static_cast<long>(t.hosts().size()));
        if (cap < nmax) nmax = std::max(nmin, static_cast<int>(cap - (cap - nmin) % step));
        w.host_units.clear();  // as before: the policies compute (or not) their own
        w.leaf_cap.clear();
    }
    out.nmin = nmin;
    out.nmax = nmax;
    out.step = step;
    return Ok{};
}

/// The bounds on the caps a policy saw: the whole cluster under the request's constraints
/// (topo with --nvl: inside the chosen NVLink domain); topo's scan found them, other
/// policies (and leaf groups of unequal leaf switches) pay lower_bounds().
Bounds bounds_of(const Work& w, const Choice& c) {
    const auto& ix = *w.ix;
    if (c.lb_groups < 0 || !ix.uniform_leaf_switches) return lower_bounds(w);
    Bounds b;
    b.groups = c.lb_groups;
    b.tier = c.lb_tier;
    b.leaf_switches = c.lb_groups * (ix.leaf_switch_count.empty() ? 1 : ix.leaf_switch_count.front());
    return b;
}

/// finish() of a policy's choice with bounds_of() it, and the request parts the policy
/// ignored.
Placement finish_with_bounds(const Work& w, Choice& c, Policy policy, const std::vector<std::string>& ignored) {
    Placement p = finish(w, c, policy, bounds_of(w, c));
    p.ignored = ignored;
    if (!ignored.empty()) {
        std::string s;
        for (const auto& i : ignored) s += (s.empty() ? "" : ",") + i;
        p.explanation += " Ignored (not expressible in this policy): " + s + ".";
    }
    return p;
}

}  // namespace

namespace {

/// One of the cost policy's candidates: a finished placement, or (the two that come from
/// one topo scan) a choice finished only if it wins.
struct CostCand {
    const char* what = "";
    double s = 1.0;  ///< predicted slowdown
    int tier = 0;
    std::size_t groups = 0;
    std::optional<Placement> p;   ///< finished
    Choice c;                     ///< unfinished: the policy's choice
    std::optional<int> max_tier;  ///< unfinished: the Request::max_tier it was chosen under
};

/// A finished candidate.
CostCand placed(Placement&& p, const char* what) {
    CostCand k;
    k.what = what;
    k.tier = p.max_tier;
    k.groups = p.groups.size();
    k.p = std::move(p);
    return k;
}

/// An unfinished candidate: choice `c`, chosen under Request::max_tier `max_tier`.
CostCand chosen(const Placer::Index& ix, Choice&& c, std::optional<int> max_tier, const char* what) {
    CostCand k;
    k.what = what;
    std::vector<int> used;
    k.tier = tier_of_choice(ix, c, used);
    k.groups = used.size();
    k.max_tier = max_tier;
    k.c = std::move(c);
    return k;
}

/// Hosts of a choice in id order (finish()'s order, which the model's rank layout follows);
/// kept in c.sorted for finish().
std::vector<HostId> hosts_in_order(const Placer::Index& ix, Choice& c) {
    ids_ascending(c.hosts, ix.n_words, c.sorted);
    std::vector<HostId> out;
    out.reserve(c.sorted.size());
    for (auto h : c.sorted) out.emplace_back(h);
    return out;
}

}  // namespace

Result<Placement> Placer::place_by_cost(const ClusterState& state, const Request& req) const {
    // Candidates, each a topo placement under one more constraint; the least predicted
    // slowdown wins, ties to the earlier (topo's own choice keeps its hole-keeping order):
    //  a: topo's choice;
    //  b: the job held to the lowest tier any placement could stay under now;
    //  c: a multi-group job kept off the leaf groups whose uplinks running multi-group jobs
    //     use (the model's M_share and M_over; only where the state records those jobs).
    // a and b come from one scan of the switches (choose_topo with `low`) and only the
    // winner is finished, for a fixed node count without NVLink domain or degraded hosts to
    // keep out; otherwise each candidate is placed in full (the same decisions).
    const Index& ix = *idx_;
    std::vector<CostCand> cands;
    const bool one_scan = (req.nodes_max == 0 || req.nodes_max == req.nodes_min) && !req.one_nvl_domain
                          && !(req.avoid_degraded && state.degraded_count() > 0);
    Prepared pr;
    if (one_scan) {
        if (auto ok = prepare(*topo_, ix, state, req, Policy::Topo, nullptr, pr); !ok)
            return fail(std::move(ok).error());
    }
    Work& w = pr.w;
    Choice ca;
    Choice cb;
    bool scanned = false;
    int lbt = -1;  // the lowest tier that holds the job (a's bound)
    if (one_scan) {
        size_for(w, pr.nmax);
        topo_caps(w);
        scanned = choose_topo(w, ca, &cb);
    }
    if (scanned) {
        if (ca.hosts.size() < 2) {
            Placement p = finish_with_bounds(w, ca, Policy::Topo, pr.ignored);
            p.policy = Policy::Cost;
            return p;
        }
        lbt = bounds_of(w, ca).tier;
        cands.push_back(chosen(ix, std::move(ca), req.max_tier, "topo's choice"));
    } else {
        auto a = place(state, req, Policy::Topo);  // the error, or the full placement
        if (!a) return a;
        a->policy = Policy::Cost;
        if (a->hosts.size() < 2) return a;
        cands.push_back(placed(std::move(*a), "topo's choice"));
    }
    // a crosses a higher tier than the lowest that holds the job (b, when it fits)
    const bool lower = scanned ? cands[0].tier > lbt : cands[0].p->max_tier > cands[0].p->lower_bound_tier;
    const bool shared = cands[0].groups > 1 && state.groups_with_uplink_users() > 0;
    if (!lower && !shared) {
        if (cands[0].p) return std::move(*cands[0].p);
        Placement p = finish_with_bounds(w, cands[0].c, Policy::Topo, pr.ignored);
        p.policy = Policy::Cost;
        return p;
    }
    const perf::FabricShape& shape = fabric_shape();
    const perf::UplinkUse use = shared ? uplink_use_of(*topo_, shape, state) : perf::UplinkUse{};
    auto slowdown_of = [&](CostCand& k) {
        perf::JobPlacement jp;
        jp.hosts = k.p ? k.p->hosts : hosts_in_order(ix, k.c);
        // a candidate held to a lower tier may take a degraded host (none without it fits
        // there): weighed at its S_job, the fabric's slowdown times the slowest host's
        return model_slowdown(ix, *topo_, shape, ix.model, use, jp) * slowest_host(state, jp.hosts);
    };
    cands[0].s = slowdown_of(cands[0]);
    const char* const held = "held to the lowest tier";
    if (lower && scanned && !cb.hosts.empty()) {
        const int tier = cb.lb_tier;
        cands.push_back(chosen(ix, std::move(cb), tier, held));
        cands.back().s = slowdown_of(cands.back());
    } else if (lower && !scanned) {
        Request low = req;
        low.max_tier =
            req.max_tier ? std::min(*req.max_tier, cands[0].p->lower_bound_tier) : cands[0].p->lower_bound_tier;
        if (auto p = place_candidate(state, low)) {
            cands.push_back(placed(std::move(*p), held));
            cands.back().s = slowdown_of(cands.back());
        }
    }
    bool touches = false;
    if (shared) {
        auto busy = [&](GroupId g) { return g.index() < use.busy_group.size() && use.busy_group[g.index()] != 0; };
        if (cands[0].p) {
            for (auto g : cands[0].p->groups) touches = touches || busy(g);
        } else {
            for (auto h : cands[0].c.hosts)
                touches = touches || busy(ix.sw[static_cast<std::size_t>(ix.leaf_of_host[h])].group);
        }
    }
    if (shared && touches) {
        Request off = req;
        for (std::size_t g = 0; g < use.busy_group.size(); ++g) {
            if (use.busy_group[g] != 0) off.excluded_groups.emplace_back(static_cast<std::uint32_t>(g));
        }
        if (auto p = place_candidate(state, off)) {
            cands.push_back(placed(std::move(*p), "off shared uplinks"));
            cands.back().s = slowdown_of(cands.back());
        }
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < cands.size(); ++i)
        if (cands[i].s < cands[best].s - 1e-9) best = i;
    CostCand& win = cands[best];
    if (!win.p) {
        w.req.max_tier = win.max_tier;  // the bounds of the tier it was held to
        win.p = finish_with_bounds(w, win.c, Policy::Topo, pr.ignored);
    }
    Placement out = std::move(*win.p);
    out.policy = Policy::Cost;
    // "\ncost: WHAT, tier T, G group(s), predicted S; WHAT: tier T, G group(s), S; ..." with S as
    // printf's %.4f (std::to_chars: the same digits, without printf's cost, 6 % of a decision)
    std::string& e = out.explanation;
    auto num = [&e](auto v) {
        char b[32];
        e.append(b, std::to_chars(b, b + sizeof b, v).ptr);
    };
    auto fixed4 = [&e](double v) {
        char b[64];
        const auto r = std::to_chars(b, b + sizeof b, v, std::chars_format::fixed, 4);
        e.append(b, r.ec == std::errc{} ? r.ptr : b);
    };
    auto cand = [&](const CostCand& k, const char* after, int tier, std::size_t groups, const char* sep) {
        e += k.what;
        e += after;
        e += "tier ";
        num(tier);
        e += ", ";
        num(groups);
        e += " group(s), ";
        e += sep;
        fixed4(k.s);
    };
    e += "\ncost: ";
    cand(win, ", ", out.max_tier, out.groups.size(), "predicted ");
    for (std::size_t i = 0; i < cands.size(); ++i) {
        if (i == best) continue;
        e += "; ";
        cand(cands[i], ": ", cands[i].tier, cands[i].groups, "");
    }
    return out;
}

Result<Placement> Placer::place(const ClusterState& state, const Request& req, Policy policy) const {
    // every policy and path below reads `state` by this topology's host ids
    if (state.fingerprint() != topo_->fingerprint() || state.size() != topo_->hosts().size()) {
        return fail(Errc::StaleState, "cluster state was built for another topology (fingerprint "
                                          + state.fingerprint().substr(0, 12) + ", topology "
                                          + topo_->fingerprint().substr(0, 12) + ")");
    }
    if (!req.excluded_groups.empty() && policy != Policy::Topo && policy != Policy::Cost) {
        // the other policies read exclusions per host
        Request r = req;
        for (auto g : req.excluded_groups) {
            if (!g.valid() || g.index() >= topo_->groups().size())
                return fail(Errc::InvalidArgument, "excluded leaf group id out of range");
            for (auto h : topo_->groups()[g.index()].hosts) r.excluded.push_back(h);
        }
        r.excluded_groups.clear();
        return place(state, r, policy);
    }
    if (policy == Policy::Cost) return place_by_cost(state, req);
    if (policy == Policy::Spread) return place_spread(*topo_, state, req);
    if (policy == Policy::Topo && req.avoid_degraded && state.degraded_count() > 0) {
        return place_degraded(state, req, policy);
    }
    return place_one(state, req, policy);
}

namespace {

std::string host_names(const Topology& t, const std::vector<HostId>& hosts) {
    std::vector<std::string> names;
    names.reserve(hosts.size());
    for (auto h : hosts) names.push_back(t.host(h).name);
    return compress_hostlist(names);
}

}  // namespace

Result<Placement> Placer::place_candidate(const ClusterState& state, const Request& req) const {
    if (req.avoid_degraded && state.degraded_count() > 0) return place_degraded(state, req, Policy::Topo, false);
    return place_one(state, req, Policy::Topo, nullptr, false);
}

Result<Placement> Placer::place_degraded(const ClusterState& state, const Request& req, Policy policy, bool why) const {
    // Issue 16 item 5: degraded hosts stay out of multi-node jobs while other hosts fit
    // (one slow rank slows every rank of a synchronous job) and go to one-node jobs first.
    const Topology& t = *topo_;
    const Index& ix = *idx_;
    const ClusterState::Brief* briefs = state.briefs();
    const int nmax = req.nodes_max == 0 ? req.nodes_min : req.nodes_max;
    const bool multi = std::max(req.nodes_min, nmax) > 1;
    std::vector<std::uint32_t> skip;  // the placeable degraded hosts
    std::vector<HostId> degraded;
    for (int h = 0; h < ix.n_hosts; ++h) {
        if (ix.leaf_of_host[static_cast<std::size_t>(h)] < 0 || !briefs[h].degraded) continue;
        skip.push_back(static_cast<std::uint32_t>(h));
        degraded.emplace_back(static_cast<HostId::Rep>(h));
    }
    if (degraded.empty()) return place_one(state, req, policy, nullptr, why);
    Request first = req;
    if (!multi) {  // only the degraded hosts
        for (std::size_t h = 0; h < t.hosts().size(); ++h) {
            if (!briefs[h].degraded) first.excluded.emplace_back(static_cast<HostId::Rep>(h));
        }
    }
    auto a = place_one(state, first, policy, multi ? &skip : nullptr, why);
    if (a) {
        if (multi) {
            a->explanation += "\ndegraded: kept " + std::to_string(degraded.size()) + " degraded host(s) out ("
                              + host_names(t, degraded) + "): a multi-node job runs at its slowest host";
        } else {
            a->explanation +=
                "\ndegraded: on a degraded host (one-node jobs take degraded hosts first; "
                "multi-node jobs only when nothing else fits)";
        }
        return a;
    }
    if (a.error().code != Errc::Busy && a.error().code != Errc::Unsatisfiable) return a;
    if (!multi) return place_one(state, req, policy, nullptr, why);
    // As few degraded hosts as fit, the least slow first: allow the k least slow, the
    // smallest k that fits (more hosts never make a fit impossible: binary search,
    // O(log degraded) decisions).
    std::vector<std::pair<double, HostId>> by_speed;
    by_speed.reserve(degraded.size());
    for (auto h : degraded) by_speed.emplace_back(state.at(h).slowdown, h);
    std::sort(by_speed.begin(), by_speed.end());
    auto allowing = [&](std::size_t k) {
        Request r = req;
        for (std::size_t i = k; i < by_speed.size(); ++i) r.excluded.push_back(by_speed[i].second);
        return place_one(state, r, policy, nullptr, why);
    };
    auto b = allowing(by_speed.size());
    if (!b) return b;
    std::size_t lo = 1;  // the answer is in [lo, hi]; hi fits
    std::size_t hi = by_speed.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (auto m = allowing(mid)) {
            b = std::move(m);
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    // Which k: the k least slow, but hosts flagged equally slow are alike, and the first k
    // by id are not the best k by place. The hosts slower than none of the k-th are taken;
    // among those as slow as the k-th, each choice of the rest is placed (at most
    // kMaxDegradedChoices of them, else the first) and the fewest degraded hosts, then leaf
    // groups, then spines, then tier, then hops wins (a lexicographic minimum: no other choice is
    // better on both groups and spines).
    constexpr std::size_t kMaxDegradedChoices = 16;  // extra decisions, only when forced onto degraded hosts
    if (const std::size_t k = hi; k > 0 && k < by_speed.size()) {
        const double sk = by_speed[k - 1].first;
        std::size_t less = 0;
        std::vector<HostId> tie;
        for (const auto& [sd, h] : by_speed) {
            if (sd < sk) ++less;
            if (sd == sk) tie.push_back(h);
        }
        const std::size_t r = k - less;  // how many of `tie` the job takes
        // C(tie, r), stopped once past the cap
        std::size_t choices = 1;
        for (std::size_t i = 0; i < r && choices <= kMaxDegradedChoices; ++i)
            choices = choices * (tie.size() - i) / (i + 1);
        if (tie.size() > r && choices <= kMaxDegradedChoices) {
            auto key = [](const Placement& p) {
                const int spines = p.switches_per_level.size() > 1 ? p.switches_per_level[1] : 0;
                return std::tuple(p.degraded_hosts, p.groups.size(), spines, p.max_tier, p.hop_sum);
            };
            Request slower = req;  // the degraded hosts slower than the k-th: out of every choice
            for (std::size_t i = k; i < by_speed.size(); ++i)
                if (by_speed[i].first > sk) slower.excluded.push_back(by_speed[i].second);
            std::vector<bool> pick(tie.size(), false);
            std::fill(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(r), true);
            do {  // every r-subset of tie (prev_permutation over a sorted-descending mask)
                Request q = slower;
                for (std::size_t i = 0; i < tie.size(); ++i)
                    if (!pick[i]) q.excluded.push_back(tie[i]);
                if (auto c = place_one(state, q, policy, nullptr, why); c && key(*c) < key(*b)) b = std::move(c);
            } while (std::prev_permutation(pick.begin(), pick.end()));
        }
    }
    if (multi && b->degraded_hosts > 0) {
        std::vector<HostId> used;
        for (auto h : b->hosts) {
            if (briefs[h.index()].degraded) used.push_back(h);
        }
        b->explanation += "\ndegraded: uses " + std::to_string(used.size()) + " degraded host(s) ("
                          + host_names(t, used) + "): no placement without them fits now";
    }
    return b;
}

Result<Placement> Placer::place_one(const ClusterState& state, const Request& req, Policy policy,
                                    const std::vector<std::uint32_t>* skip, bool why) const {
    const Topology& t = *topo_;
    const Index& ix = *idx_;
    Prepared pr;
    if (auto ok = prepare(t, ix, state, req, policy, skip, pr); !ok) return fail(std::move(ok).error());
    Work& w = pr.w;
    const int nmin = pr.nmin;
    const int nmax = pr.nmax;
    const int step = pr.step;
    const std::vector<std::string>& ignored = pr.ignored;
    for (int n = nmax; n >= nmin; n -= step) {
        size_for(w, n);
        w.ideal = false;
        w.restrict_domain = -1;
        Choice c;
        if (w.mode != UnitMode::Gpus) {
            c.hosts.reserve(static_cast<std::size_t>(w.nodes));
            c.gpus_per_host.reserve(static_cast<std::size_t>(w.nodes));
        }
        if (run_policy(w, policy, c)) return finish_with_bounds(w, c, policy, ignored);
    }
    if (!why) return fail(Errc::Busy, "no fit now (reason not computed)");
    // Why not: never, or not now?
    w.nodes = nmin;
    w.demand = w.mode == UnitMode::Gpus ? req.total_gpus : w.mode == UnitMode::Segments ? nmin / w.seg : nmin;
    w.ideal = true;
    w.restrict_domain = -1;
    Choice ci;
    const bool ideal_ok = run_policy(w, policy, ci);
    if (!ideal_ok) {
        w.restrict_domain = -1;
        compute_caps(w);
        return fail(Errc::Unsatisfiable, std::string(policy_name(policy)) + ": " + unsatisfiable_reason(w));
    }
    caps_now(w);
    long free = 0;
    for (auto u : w.host_units) free += u;
    const Bounds b = lower_bounds(w);
    std::ostringstream o;
    o << policy_name(policy) << ": cannot fit now: needs " << w.demand << unit_noun(w.mode) << ", " << free << " free";
    if (b.groups < 0) {
        o << " and no allowed switch subtree holds enough";
    } else if (req.max_leaves > 0 && b.groups > req.max_leaves) {
        o << "; needs at least " << b.groups << " leaf group(s), max " << req.max_leaves;
    }
    if (req.one_nvl_domain) o << "; no NVLink domain has enough free hosts";
    return fail(Errc::Busy, o.str());
}

Result<Placement> place(const Topology& topo, const ClusterState& state, const Request& req, Policy policy) {
    const Placer p(topo);
    return p.place(state, req, policy);
}

}  // namespace topo::placement
