// SPDX-License-Identifier: Apache-2.0
// topoplace predict: the model's slowdown and ETTR of a placement (docs/perf-model.md).
// topoplace calibrate: fit the model's tier and sharing factors to a site's nccl-tests runs.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <topo/atomic_file.hpp>
#include <topo/hostlist.hpp>
#include <topo/perf/features.hpp>
#include <topo/perf/model.hpp>
#include <topo/perf/nccl_tests.hpp>
#include <topo/snapshot.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

namespace {

Result<perf::Params> load_model(const std::string& file) {
    if (file.empty()) return perf::Params{};
    return perf::read_params_file(file);
}

struct PredictOptions {
    std::string snapshot;
    std::string hosts;
    std::string model;
    std::string profile = "dense";
    int tp = 0, pp = 0, dp = 0, ep = 0, cp = 1;
    int gpus_per_host = 0;
    bool unoptimized = false;
    std::vector<std::string> degraded;  // HOST=S
    std::vector<std::string> others;    // hostlists of other running jobs
    double checkpoint_interval = 0;
    bool json = false;
};

int run_predict(const PredictOptions& o) {
    auto params = load_model(o.model);
    if (!params) return report(params.error());
    auto t = load_snapshot(o.snapshot);
    if (!t) return report(t.error());
    const Topology& topo = **t;
    auto names = expand_hostlist(o.hosts);
    if (!names) return report(names.error());
    perf::JobPlacement job;
    for (const auto& n : *names) {
        auto h = topo.find_host(n);
        if (!h) return report(Error(Errc::InvalidArgument, "--hosts: no host " + n + " in " + o.snapshot));
        job.hosts.push_back(*h);
    }
    for (const auto& d : o.degraded) {
        const auto eq = d.find('=');
        auto h = topo.find_host(d.substr(0, eq));
        if (!h) return report(Error(Errc::InvalidArgument, "--degraded: no host " + d.substr(0, eq)));
        double s = params->degraded_default;
        if (eq != std::string::npos) {
            try {
                s = std::stod(d.substr(eq + 1));
            } catch (const std::exception&) {
                s = 0;
            }
            if (!(s >= 1.0 && s <= 100.0)) {
                return report(Error(Errc::InvalidArgument, "--degraded " + d + ": the slowdown must be 1 to 100"));
            }
        }
        job.degraded[*h] = s;
    }
    std::vector<std::vector<HostId>> others;
    for (const auto& ol : o.others) {
        auto on = expand_hostlist(ol);
        if (!on) return report(on.error());
        others.emplace_back();
        for (const auto& n : *on) {
            auto h = topo.find_host(n);
            if (h) others.back().push_back(*h);
        }
    }
    int gph = o.gpus_per_host;
    if (gph <= 0) {
        gph = 0;
        for (auto h : job.hosts) gph = std::max(gph, static_cast<int>(topo.host(h).gpus.size()));
        if (gph == 0) gph = 8;  // 6.1: HGX, 8 GPUs per NVLink domain
    }
    perf::Profile prof;
    prof.model = o.profile == "moe" ? perf::Profile::Model::Moe : perf::Profile::Model::Dense;
    prof.tp = o.tp;
    prof.pp = o.pp;
    prof.dp = o.dp;
    prof.ep = o.ep;
    prof.cp = o.cp;
    prof.optimized_overlap = !o.unoptimized;
    prof = perf::default_layout(prof, static_cast<int>(job.hosts.size()) * gph, gph);
    const auto shape = perf::fabric_shape(topo);
    const auto f = perf::features_of(topo, shape, job, prof, gph, others);
    const auto s = perf::slowdown(*params, prof, f);
    const auto r = perf::reliability(*params, static_cast<int>(job.hosts.size()), o.checkpoint_interval);
    if (o.json) {
        nlohmann::json j;
        j["hosts"] = job.hosts.size();
        j["gpus"] = f.gpus;
        j["layout"] = {{"tp", prof.tp}, {"cp", prof.cp}, {"ep", prof.ep}, {"pp", prof.pp}, {"dp", prof.dp}};
        j["s_net"] = s.s_net;
        j["s_deg"] = s.s_deg;
        j["s_job"] = s.s_job;
        for (int c = 0; c < perf::kComms; ++c) {
            const auto& cf = f.by_class[static_cast<std::size_t>(c)];
            j["classes"][std::string(perf::comm_name(static_cast<perf::Comm>(c)))] = {
                {"m", s.m[static_cast<std::size_t>(c)]},
                {"tier", cf.tier},
                {"ideal_tier", cf.ideal_tier},
                {"domains", cf.domains}};
        }
        j["mtti_h"] = r.mtti_s / 3600.0;
        j["checkpoint_interval_s"] = r.checkpoint_interval_s;
        j["ettr"] = r.ettr;
        std::printf("%s\n", j.dump(2).c_str());
        return kOk;
    }
    std::printf("Job Hosts=%zu GPUs=%d Layout=TP%d,CP%d,EP%d,PP%d,DP%d Overlap=%s\n", job.hosts.size(), f.gpus, prof.tp,
                prof.cp, prof.ep, prof.pp, prof.dp, prof.optimized_overlap ? "optimized" : "unoptimized");
    std::printf("   Slowdown=%.4f Network=%.4f Degraded=%.4f (against the best placement of this job)\n", s.s_job,
                s.s_net, s.s_deg);
    for (int c = 0; c < perf::kComms; ++c) {
        const auto& cf = f.by_class[static_cast<std::size_t>(c)];
        if (s.m[static_cast<std::size_t>(c)] == 1.0 && cf.tier == 0 && cf.domains <= 1) continue;
        std::printf("   %s M=%.3f Tier=%d BestTier=%d Domains=%d\n",
                    std::string(perf::comm_name(static_cast<perf::Comm>(c))).c_str(), s.m[static_cast<std::size_t>(c)],
                    cf.tier, cf.ideal_tier, cf.domains);
    }
    std::printf("   MTTI=%.2fh Checkpoint=%.0fs ETTR=%.3f\n", r.mtti_s / 3600.0, r.checkpoint_interval_s, r.ettr);
    return kOk;
}

struct CalibrateOptions {
    std::string leaf, pod, cross_pod, shared;
    std::string model;
    std::string output;
    double min_mib = 64;
};

Result<perf::Measurement> measurement(const std::string& label, const std::string& arg) {
    // FILE or FILE@N (the Nth table of the file, from 1)
    std::string file = arg;
    std::size_t which = 0;
    if (auto at = arg.rfind('@'); at != std::string::npos && at + 1 < arg.size()
                                  && arg.find_first_not_of("0123456789", at + 1) == std::string::npos) {
        file = arg.substr(0, at);
        which = static_cast<std::size_t>(std::stoul(arg.substr(at + 1)));
        if (which == 0) return fail(Errc::InvalidArgument, "--" + label + " " + arg + ": tables count from 1");
        --which;
    }
    std::vector<std::string> notes;
    auto runs = perf::read_nccl_tests(file, &notes);
    if (!runs) return fail(runs.error());
    for (const auto& n : notes) std::fprintf(stderr, "topoplace: warning: %s\n", n.c_str());
    if (which >= runs->size()) {
        return fail(Errc::InvalidArgument,
                    "--" + label + " " + arg + ": the file has " + std::to_string(runs->size()) + " result table(s)");
    }
    perf::Measurement m;
    m.label = label;
    m.source = file;
    m.run = (*runs)[which];
    if (runs->size() > 1 && which == 0) {
        std::fprintf(stderr, "topoplace: %s has %zu result tables; using the first (line %d); FILE@N picks another\n",
                     file.c_str(), runs->size(), m.run.first_line);
    }
    return m;
}

int run_calibrate(const CalibrateOptions& o) {
    auto base = load_model(o.model);
    if (!base) return report(base.error());
    auto leaf = measurement("leaf", o.leaf);
    if (!leaf) return report(leaf.error());
    std::map<std::string, perf::Measurement> others;
    for (const auto& [label, arg] :
         {std::pair<std::string, std::string>{"pod", o.pod}, {"cross-pod", o.cross_pod}, {"shared", o.shared}}) {
        if (arg.empty()) continue;
        auto m = measurement(label, arg);
        if (!m) return report(m.error());
        others.emplace(label, std::move(*m));
    }
    auto get = [&](const char* k) -> const perf::Measurement* {
        auto it = others.find(k);
        return it == others.end() ? nullptr : &it->second;
    };
    auto c = perf::calibrate(*base, *leaf, get("pod"), get("cross-pod"), get("shared"), o.min_mib * 1024 * 1024);
    if (!c) return report(c.error());
    for (const auto& f : c->fits) {
        std::fprintf(stderr, "%s = %.4f from %zu message size(s); largest residual %.1f%%\n", f.what.c_str(), f.value,
                     f.points.size(), 100.0 * f.max_abs_residual);
        for (const auto& p : f.points) {
            std::fprintf(stderr, "   %12.0f B  busbw ratio %.4f  residual %+.1f%%\n", p.bytes, p.ratio,
                         100.0 * p.residual);
        }
    }
    for (const auto& n : c->notes) std::fprintf(stderr, "topoplace: note: %s\n", n.c_str());
    const std::string text = perf::write_params(c->params);
    if (o.output.empty() || o.output == "-") {
        std::fputs(text.c_str(), stdout);
        return kOk;
    }
    auto st = write_file_atomic(o.output, text, 0644);
    if (!st) return report(st.error());
    std::fprintf(stderr, "topoplace: wrote %s\n", o.output.c_str());
    return kOk;
}

}  // namespace

Runner add_predict(CLI::App& app) {
    auto o = std::make_shared<PredictOptions>();
    auto* sub = app.add_subcommand("predict",
                                   "Predicted step-time slowdown (against the best placement) and ETTR of a job on "
                                   "given hosts (docs/perf-model.md)");
    sub->add_option("snapshot", o->snapshot, "snapshot JSON")->required();
    sub->add_option("--hosts", o->hosts, "the job's hosts, in rank order (hostlist)")->required();
    sub->add_option("--model", o->model, "model parameter file (defaults: published measurements)");
    sub->add_option("--profile", o->profile, "dense or moe")->check(CLI::IsMember({"dense", "moe"}));
    sub->add_option("--tp", o->tp, "tensor-parallel size (default: min(8, GPUs per host))")
        ->check(CLI::Range(1, 1 << 20));
    sub->add_option("--pp", o->pp, "pipeline-parallel size (default: hosts, up to 16)")->check(CLI::Range(1, 1 << 20));
    sub->add_option("--dp", o->dp, "data-parallel size (default: the rest)")->check(CLI::Range(1, 1 << 20));
    sub->add_option("--ep", o->ep, "expert-parallel size (moe)")->check(CLI::Range(1, 1 << 20));
    sub->add_option("--cp", o->cp, "context-parallel size")->check(CLI::Range(1, 1 << 20));
    sub->add_option("--gpus-per-host", o->gpus_per_host, "GPUs (ranks) per host (default: the snapshot's, else 8)")
        ->check(CLI::Range(1, 1024));
    sub->add_flag("--unoptimized", o->unoptimized, "a stack without communication overlap (phi x 2.5)");
    sub->add_option("--degraded", o->degraded, "HOST[=SLOWDOWN]: a degraded host of the job (default slowdown 1.1)");
    sub->add_option("--other-job", o->others, "hostlist of another running job (its uplink use counts as sharing)");
    sub->add_option("--checkpoint-interval", o->checkpoint_interval, "seconds (default: Young's interval)")
        ->check(CLI::Range(0.0, 1e7));
    sub->add_flag("--json", o->json, "one JSON object");
    return [o]() { return run_predict(*o); };
}

Runner add_calibrate(CLI::App& app) {
    auto o = std::make_shared<CalibrateOptions>();
    auto* sub = app.add_subcommand(
        "calibrate",
        "Fit the model's tier and sharing factors to nccl-tests runs of this site and print the model file");
    sub->add_option("--leaf", o->leaf, "nccl-tests output inside one leaf group (the baseline); FILE@N: Nth table")
        ->required();
    sub->add_option("--pod", o->pod, "the same test across leaf groups of one pod");
    sub->add_option("--cross-pod", o->cross_pod, "the same test across pods");
    sub->add_option("--shared", o->shared, "across leaf groups beside a background job on the same uplinks");
    sub->add_option("--model", o->model, "start from this model file (default: the published defaults)");
    sub->add_option("--min-mib", o->min_mib, "fit on message sizes of at least this many MiB (default 64)")
        ->check(CLI::Range(0.0, 1e6));
    sub->add_option("-o,--output", o->output, "write the model file here (default: stdout)");
    return [o]() { return run_calibrate(*o); };
}

}  // namespace topo::cli
