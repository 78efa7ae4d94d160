// SPDX-License-Identifier: Apache-2.0
// S_job and ETTR (PERF-MODEL 6.2, 6.3; docs/perf-model.md).
#include <algorithm>
#include <cmath>

#include <topo/perf/model.hpp>

namespace topo::perf {

std::string_view comm_name(Comm c) noexcept {
    switch (c) {
        case Comm::TP: return "TP";
        case Comm::CP: return "CP";
        case Comm::EP: return "EP";
        case Comm::PP: return "PP";
        case Comm::DP: return "DP";
    }
    return "?";
}

Profile default_layout(Profile p, int gpus, int gpus_per_host) {
    gpus = std::max(1, gpus);
    gpus_per_host = std::max(1, gpus_per_host);
    const int hosts = std::max(1, (gpus + gpus_per_host - 1) / gpus_per_host);
    if (p.tp <= 0) p.tp = std::min({8, gpus_per_host, gpus});
    p.cp = std::max(1, p.cp);
    p.ep = std::max(1, p.ep);
    const int per_replica_min = p.tp * p.cp;
    if (p.pp <= 0) {
        // PP over hosts, up to 16 stages (Llama 3 405B: TP8 PP16), and a divisor of what is left.
        int pp = std::min(16, std::max(1, gpus / std::max(1, per_replica_min)));
        pp = std::min(pp, hosts);
        while (pp > 1 && (gpus / per_replica_min) % pp != 0) --pp;
        p.pp = std::max(1, pp);
    }
    if (p.dp <= 0) p.dp = std::max(1, gpus / std::max(1, p.tp * p.cp * p.pp));
    if (p.model == Profile::Model::Moe && p.ep <= 1) p.ep = std::min(p.dp, 8);
    return p;
}

namespace {

double tier_factor(const std::array<double, kModelTiers>& t, int tier) {
    return t[static_cast<std::size_t>(std::clamp(tier, 0, kModelTiers - 1))];
}

/// x_c: share of the class's per-GPU bytes that crosses the uplinks into `tier` (6.2 row
/// M_over): a stage boundary carries all of it; an all-to-all over u units 1 - 1/u; a ring
/// or tree over m members placed unit-major u/m (u: leaf groups at tier 2, pods at 3).
double crossing_share(Comm c, const ClassFeatures& f, int tier) {
    if (c == Comm::PP) return 1.0;
    const int units = std::max(1, tier >= 3 ? f.pods : f.groups);
    if (c == Comm::EP) return 1.0 - 1.0 / units;
    return std::min(1.0, static_cast<double>(units) / std::max(1, f.members));
}

bool class_exists(const Profile& p, Comm c) {
    switch (c) {
        case Comm::TP: return p.tp > 1;
        case Comm::CP: return p.cp > 1;
        case Comm::EP: return p.ep > 1;
        case Comm::PP: return p.pp > 1;
        case Comm::DP: return p.dp > 1;
    }
    return false;
}

}  // namespace

Slowdown slowdown(const Params& p, const Profile& prof, const Features& f) {
    Slowdown s;
    const auto fi = static_cast<std::size_t>(p.fabric);
    double extra = 0.0;
    for (int ci = 0; ci < kComms; ++ci) {
        const Comm c = static_cast<Comm>(ci);
        if (!class_exists(prof, c) || f.hosts <= 1) continue;
        const ClassFeatures& cf = f.by_class[static_cast<std::size_t>(ci)];
        // M_nvl: a group that fits one NVLink domain but spans several
        double m_nvl = 1.0;
        if (cf.domains > 1 && cf.ideal_domains <= 1) {
            if (c == Comm::EP) {
                m_nvl = 1.0 + cf.outside * (p.b_p2p / p.b_nic - 1.0);
            } else {
                const double b = f.nvl72 ? p.b_nvl_nvl72 : p.b_nvl_hgx;
                m_nvl = b / std::min(b, p.eta * std::max(1, cf.gpus_per_domain) * p.b_nic);
            }
        }
        // M_tier, relative to the tier the best placement cannot avoid
        const auto& tt = c == Comm::PP ? p.tier_p2p : p.tier_collective;
        const double m_tier = tier_factor(tt, cf.tier) / tier_factor(tt, std::min(cf.tier, cf.ideal_tier));
        // M_over: the worst uplink tier crossed that the best placement would not cross;
        // M_share: the worst shared uplink tier crossed (sharing is never unavoidable).
        double m_over = 1.0;
        double m_share = 1.0;
        for (int k = 2; k <= std::min(cf.tier, kModelTiers - 1); ++k) {
            const double u = f.shared[static_cast<std::size_t>(k)];
            if (k > cf.ideal_tier) {
                m_over = std::max(m_over, tier_factor(p.oversubscription, k) * crossing_share(c, cf, k) * (1.0 + u));
            }
            m_share = std::max(m_share, 1.0 + p.kappa[fi] * u);
        }
        const double m_ecmp = cf.tier >= 2 && f.fragmented ? p.ecmp[fi] / p.ecmp[0] : 1.0;
        const double m = std::min(p.m_cap, m_nvl * m_tier * m_over * m_ecmp * m_share);
        s.m[static_cast<std::size_t>(ci)] = m;
        const double phi =
            p.phi[static_cast<std::size_t>(ci)] * (prof.optimized_overlap ? 1.0 : p.phi_unoptimized_factor);
        extra += phi * (m - 1.0);
    }
    s.s_net = 1.0 + extra;
    s.s_deg = 1.0 + p.rho * (std::max(1.0, f.slowest_degraded) - 1.0);
    s.s_job = s.s_net * s.s_deg;
    return s;
}

double young_interval_s(double checkpoint_cost_s, double mtti_s) {
    return std::sqrt(2.0 * std::max(0.0, checkpoint_cost_s) * std::max(0.0, mtti_s));
}

double daly_interval_s(double checkpoint_cost_s, double mtti_s, double restart_s) {
    const double d = std::max(0.0, checkpoint_cost_s);
    return std::max(d, std::sqrt(2.0 * d * (std::max(0.0, mtti_s) + std::max(0.0, restart_s))) - d);
}

Reliability reliability(const Params& p, int hosts, double interval_s) {
    Reliability r;
    r.lambda_per_s = std::max(1, hosts) * p.r_hw_per_node_day / 86400.0;
    r.mtti_s = r.lambda_per_s > 0 ? 1.0 / r.lambda_per_s : 0.0;
    r.checkpoint_interval_s = interval_s > 0 ? interval_s : young_interval_s(p.checkpoint_cost_s, r.mtti_s);
    const double tau = std::max(1e-9, r.checkpoint_interval_s);
    const double lost = p.t_detect_s + p.restart_s + tau / 2.0;
    r.ettr = std::clamp((1.0 - r.lambda_per_s * lost) / (1.0 + p.checkpoint_cost_s / tau), 0.0, 1.0);
    return r;
}

}  // namespace topo::perf
