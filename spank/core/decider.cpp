// SPDX-License-Identifier: Apache-2.0
// The one placement decision of the plugin and the service (see decider.hpp).
#include "decider.hpp"

#include <chrono>

#include <topo/hostlist.hpp>

namespace topo::spank {

namespace {

/// The request to place and the names of the hosts the health store excludes (for the plan).
struct Job {
    placement::Request request;
    std::vector<std::string> exclude;
};

Result<Job> job_of(const Topology& topo, const ServiceRequest& req, const HealthFlags& health) {
    auto r = make_request(topo, req.sr, req.opts);
    if (!r) return fail(std::move(r).error());
    Job job{std::move(*r), {}};
    for (const auto& [h, reason] : health.unhealthy) {
        job.request.excluded.push_back(h);
        job.exclude.push_back(topo.host(h).name);
    }
    return job;
}

Decision refused_request(const Error& e) {
    Decision d;
    d.reply.kind = request_refusal(e.code);
    d.reply.message = e.message;
    return d;
}

Decision place_job(const placement::Placer& placer, const ServiceRequest& req, const Job& job,
                   placement::ClusterState& state, const HealthFlags& health) {
    const Topology& topo = placer.topology();
    const Mode mode = req.opts.mode.value_or(Mode::Pack);
    Decision d;
    d.request = job.request;
    state.mark_health(health.unhealthy, health.degraded);
    const placement::Policy policy = mode == Mode::Spread                    ? placement::Policy::Spread
                                     : req.policy == placement::Policy::Cost ? placement::Policy::Cost
                                                                             : placement::Policy::Topo;
    auto p = placer.place(state, job.request, policy);
    if (!p) {
        d.reply.kind = placement_refusal(p.error().code);
        d.reply.message = p.error().message;
        // no fit now: Slurm chooses at the start, still off the hosts the store flags
        if (d.reply.kind == ServiceReply::Kind::Busy) d.reply.env = unplanned_env(topo, job.request, health, mode);
        return d;
    }
    std::vector<std::string> exclude = job.exclude;
    health.exclude_degraded(topo, p->hosts, exclude);
    const Plan plan = make_plan(topo, *p, mode, req.wait, std::move(exclude), &req.opts);
    d.reply.kind = ServiceReply::Kind::Planned;
    for (auto& kv : plan_env(plan))
        if (!kv.second.empty()) d.reply.env.push_back(std::move(kv));
    d.reply.text = plan_text(mode, plan, *p);
    d.placement = std::move(*p);
    return d;
}

}  // namespace

ServiceReply::Kind request_refusal(Errc code) noexcept {
    return code == Errc::Unsupported ? ServiceReply::Kind::Unsupported : ServiceReply::Kind::Invalid;
}

ServiceReply::Kind placement_refusal(Errc code) noexcept {
    return code == Errc::Unsatisfiable || code == Errc::InvalidArgument ? ServiceReply::Kind::Never
                                                                        : ServiceReply::Kind::Busy;
}

std::string plan_text(Mode mode, const Plan& plan, const placement::Placement& p) {
    std::string text = std::string(mode_name(mode)) + ": " + compress_hostlist(plan.hosts) + " -> constraint "
                       + plan_constraint(plan) + ", switches " + std::to_string(plan.switches) + "@"
                       + std::to_string(plan.wait) + "s, tier " + std::to_string(plan.tier);
    if (!plan.exclude.empty()) text += ", exclude " + compress_hostlist(plan.exclude);
    if (!p.explanation.empty()) text += "; " + p.explanation;
    return text;
}

Decision decide_on(const placement::Placer& placer, const ServiceRequest& req, placement::ClusterState& state,
                   const HealthFlags& health) {
    auto job = job_of(placer.topology(), req, health);
    if (!job) return refused_request(job.error());
    return place_job(placer, req, *job, state, health);
}

ServiceReply serve(const placement::Placer& placer, const ServiceRequest& req, placement::ClusterState state,
                   const HealthFlags& health) {
    return decide_on(placer, req, state, health).reply;
}

Decider::Decider(std::vector<StateSource> sources, std::function<void(const std::string&)> note)
    : sources_(std::move(sources)), note_(std::move(note)) {}

Result<Decider::Outcome> Decider::decide(const placement::Placer& placer, const ServiceRequest& req,
                                         const HealthFlags& health) const {
    Outcome out;
    auto job = job_of(placer.topology(), req, health);
    if (!job) {
        out.decision = refused_request(job.error());
        return out;
    }
    auto note = [&](const StateSource& s, const Error& e) {
        if (note_) note_("state " + s.name + " not used: " + e.to_string());
    };
    Error last_error(Errc::NotFound, "no source of node state");
    auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < sources_.size() && !out.state; ++i) {
        auto r = sources_[i].read();
        if (r) {
            out.state = std::move(*r);
            out.fresh = i + 1 == sources_.size();
        } else {
            if (!(sources_[i].missing_is_normal && r.error().code == Errc::NotFound)) note(sources_[i], r.error());
            last_error = std::move(r).error();
        }
    }
    out.state_ms = ms_since(t0);
    if (!out.state) return fail(std::move(last_error));
    t0 = std::chrono::steady_clock::now();
    out.decision = place_job(placer, req, *job, out.state->state, health);
    out.place_ms = ms_since(t0);
    if (out.decision.reply.kind != ServiceReply::Kind::Busy || out.fresh) return out;
    // busy on a state that may be stale (it may hold jobs that have ended): once on a fresh read
    t0 = std::chrono::steady_clock::now();
    auto fresh = sources_.back().read();
    out.state_ms += ms_since(t0);
    if (!fresh) {
        note(sources_.back(), fresh.error());
        return out;
    }
    out.state = std::move(*fresh);
    out.fresh = true;
    out.retried = true;
    t0 = std::chrono::steady_clock::now();
    out.decision = place_job(placer, req, *job, out.state->state, health);
    out.place_ms += ms_since(t0);
    return out;
}

}  // namespace topo::spank
