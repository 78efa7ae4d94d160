// SPDX-License-Identifier: Apache-2.0
// The model parameter file (`--model FILE`, docs/perf-model.md "Parameter file").
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

#include <topo/perf/model.hpp>
#include <topo/text_input.hpp>

namespace topo::perf {

namespace {

const char* fabric_key(Fabric f) {
    switch (f) {
        case Fabric::IbAdaptiveRouting: return "ib-ar";
        case Fabric::RoceEEcmp: return "roce-eecmp";
        case Fabric::RoceEcmp: return "roce-ecmp";
    }
    return "ib-ar";
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

template <std::size_t N>
std::string list(const std::array<double, N>& a) {
    std::string o = "[";
    for (std::size_t i = 0; i < N; ++i) o += (i > 0 ? ", " : "") + num(a[i]);
    return o + "]";
}

struct Reader {
    const std::string& source;
    Params& p;
    std::string error;
    int error_line = 0;

    bool fail_at(const YAML::Node& n, const std::string& msg) {
        error = msg;
        error_line = n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
        return false;
    }

    bool number(const YAML::Node& n, const std::string& key, double lo, double hi, double& out) {
        if (!n.IsScalar()) return fail_at(n, key + ": expected a number");
        double v = 0;
        try {
            v = n.as<double>();
        } catch (const YAML::Exception&) {
            return fail_at(n, key + ": \"" + n.Scalar() + "\" is not a number");
        }
        if (!std::isfinite(v) || v < lo || v > hi) {
            return fail_at(n, key + ": " + n.Scalar() + " is out of range [" + num(lo) + ", " + num(hi) + "]");
        }
        out = v;
        return true;
    }

    template <std::size_t N>
    bool array(const YAML::Node& n, const std::string& key, double lo, double hi, std::array<double, N>& out) {
        if (!n.IsSequence() || n.size() != N) {
            return fail_at(n, key + ": expected a list of " + std::to_string(N) + " numbers");
        }
        std::array<double, N> v{};
        for (std::size_t i = 0; i < N; ++i) {
            if (!number(n[i], key + "[" + std::to_string(i) + "]", lo, hi, v[i])) return false;
        }
        out = v;
        return true;
    }
};

}  // namespace

Result<Params> parse_params(std::string_view text, const std::string& source) {
    Params p;
    if (trim(text).empty()) return p;  // an empty file keeps every default
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::ParserException& e) {
        return fail(Errc::Parse, "not YAML: " + e.msg, source, e.mark.line + 1);
    } catch (const YAML::Exception& e) {
        return fail(Errc::Parse, std::string("not YAML: ") + e.what(), source);
    }
    if (root.IsNull()) return p;
    if (!root.IsMap()) return fail(Errc::Parse, "expected `key: value` lines", source, 1);
    Reader r{source, p, {}, 0};
    using Setter = std::function<bool(const YAML::Node&, const std::string&)>;
    const std::pair<const char*, Setter> keys[] = {
        {"phi",
         [&](const YAML::Node& n, const std::string& k) {
             if (!n.IsMap()) return r.fail_at(n, k + ": expected {TP: .., CP: .., EP: .., PP: .., DP: ..}");
             for (auto it = n.begin(); it != n.end(); ++it) {
                 const std::string c = it->first.as<std::string>();
                 int idx = -1;
                 for (int i = 0; i < kComms; ++i) {
                     if (c == comm_name(static_cast<Comm>(i))) idx = i;
                 }
                 if (idx < 0) return r.fail_at(it->first, k + ": unknown class \"" + c + "\" (TP, CP, EP, PP, DP)");
                 if (!r.number(it->second, k + "." + c, 0, 1, p.phi[static_cast<std::size_t>(idx)])) return false;
             }
             return true;
         }},
        {"phi_unoptimized_factor",
         [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 1, 10, p.phi_unoptimized_factor); }},
        {"tier_collective",
         [&](const YAML::Node& n, const std::string& k) { return r.array(n, k, 1, 10, p.tier_collective); }},
        {"tier_p2p", [&](const YAML::Node& n, const std::string& k) { return r.array(n, k, 1, 10, p.tier_p2p); }},
        {"oversubscription",
         [&](const YAML::Node& n, const std::string& k) { return r.array(n, k, 1, 64, p.oversubscription); }},
        {"ecmp", [&](const YAML::Node& n, const std::string& k) { return r.array(n, k, 1, 10, p.ecmp); }},
        {"kappa", [&](const YAML::Node& n, const std::string& k) { return r.array(n, k, 0, 5, p.kappa); }},
        {"fabric",
         [&](const YAML::Node& n, const std::string& k) {
             const std::string v = n.IsScalar() ? n.Scalar() : "";
             for (Fabric f : {Fabric::IbAdaptiveRouting, Fabric::RoceEEcmp, Fabric::RoceEcmp}) {
                 if (v == fabric_key(f)) {
                     p.fabric = f;
                     return true;
                 }
             }
             return r.fail_at(n, k + ": \"" + v + "\" is not one of ib-ar, roce-eecmp, roce-ecmp");
         }},
        {"b_nic", [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0.1, 10000, p.b_nic); }},
        {"b_nvl_hgx",
         [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0.1, 100000, p.b_nvl_hgx); }},
        {"b_nvl_nvl72",
         [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0.1, 100000, p.b_nvl_nvl72); }},
        {"b_p2p", [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0.1, 100000, p.b_p2p); }},
        {"eta", [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0.1, 4, p.eta); }},
        {"m_cap", [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 1, 1000, p.m_cap); }},
        {"rho", [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0, 1, p.rho); }},
        {"degraded_default",
         [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 1, 100, p.degraded_default); }},
        {"r_hw_per_node_day",
         [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0, 1, p.r_hw_per_node_day); }},
        {"t_detect_s",
         [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0, 86400, p.t_detect_s); }},
        {"restart_s", [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0, 86400, p.restart_s); }},
        {"checkpoint_cost_s",
         [&](const YAML::Node& n, const std::string& k) { return r.number(n, k, 0, 86400, p.checkpoint_cost_s); }},
    };
    try {
        for (auto it = root.begin(); it != root.end(); ++it) {
            if (!it->first.IsScalar())
                return fail(Errc::Parse, "a key must be a name", source, it->first.Mark().line + 1);
            const std::string key = it->first.Scalar();
            bool known = false;
            for (const auto& [name, set] : keys) {
                if (key != name) continue;
                known = true;
                if (!set(it->second, key)) return fail(Errc::Parse, r.error, source, r.error_line);
                p.overridden.emplace_back(key, source);
            }
            if (!known) {
                std::string all;
                for (const auto& [name, set] : keys) all += std::string(all.empty() ? "" : ", ") + name;
                return fail(Errc::Parse, "unknown key \"" + key + "\" (known: " + all + ")", source,
                            it->first.Mark().line + 1);
            }
        }
    } catch (const YAML::Exception& e) {
        return fail(Errc::Parse, std::string("bad value: ") + e.what(), source, e.mark.line + 1);
    }
    return p;
}

Result<Params> read_params_file(const std::string& path) {
    auto text = read_text_file(path, std::size_t{1} << 20);
    if (!text) return fail(text.error());
    if (looks_binary(*text)) return fail(Errc::Parse, "binary data, not a model file", path, 1);
    return parse_params(*text, path);
}

std::string write_params(const Params& p) {
    std::ostringstream o;
    o << "# topoplace performance model (docs/perf-model.md; sources: PERF-MODEL.md rows named there)\n";
    o << "phi: {TP: " << num(p.phi[0]) << ", CP: " << num(p.phi[1]) << ", EP: " << num(p.phi[2])
      << ", PP: " << num(p.phi[3]) << ", DP: " << num(p.phi[4])
      << "}   # exposed share of step time (MegaScale Table 3)\n";
    o << "phi_unoptimized_factor: " << num(p.phi_unoptimized_factor) << "\n";
    o << "tier_collective: " << list(p.tier_collective) << "   # by model tier 0..3 (Arnold, CoreWeave)\n";
    o << "tier_p2p: " << list(p.tier_p2p) << "\n";
    o << "oversubscription: " << list(p.oversubscription) << "   # uplinks into tier k (1 = non-blocking)\n";
    o << "fabric: " << fabric_key(p.fabric) << "\n";
    o << "ecmp: " << list(p.ecmp) << "   # ib-ar, roce-eecmp, roce-ecmp\n";
    o << "kappa: " << list(p.kappa) << "\n";
    o << "b_nic: " << num(p.b_nic) << "\nb_nvl_hgx: " << num(p.b_nvl_hgx) << "\nb_nvl_nvl72: " << num(p.b_nvl_nvl72)
      << "\nb_p2p: " << num(p.b_p2p) << "\neta: " << num(p.eta) << "\nm_cap: " << num(p.m_cap) << "\n";
    o << "rho: " << num(p.rho) << "\ndegraded_default: " << num(p.degraded_default) << "\n";
    o << "r_hw_per_node_day: " << num(p.r_hw_per_node_day) << "\nt_detect_s: " << num(p.t_detect_s)
      << "\nrestart_s: " << num(p.restart_s) << "\ncheckpoint_cost_s: " << num(p.checkpoint_cost_s) << "\n";
    return o.str();
}

}  // namespace topo::perf
