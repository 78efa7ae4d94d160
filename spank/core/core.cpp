// SPDX-License-Identifier: Apache-2.0
#include "core.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include <topo/enum_names.hpp>
#include <topo/health/slurm.hpp>
#include <topo/hostlist.hpp>
#include <topo/placement/slurm_state.hpp>
#include <topo/slurm_view.hpp>

namespace topo::spank {

std::optional<long> strict_int(std::string_view s, long lo, long hi) {
    if (s.empty() || s.size() > 12) return std::nullopt;
    if (!std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
    long v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
    return v;
}

namespace {

std::string quote_arg(std::string_view s) {
    // Keep messages one printable, short line whatever the input: a user's 100 KB option
    // value would otherwise be a 100 KB line in slurmd's log at every step (issue 17).
    constexpr std::size_t kShown = 64;
    std::string o = "'";
    for (char c : s.substr(0, kShown)) {
        o += (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) ? '?' : c;
    }
    o += "'";
    if (s.size() > kShown) o += "...(" + std::to_string(s.size()) + " bytes)";
    return o;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t a = 0;
    while (true) {
        auto b = s.find(sep, a);
        out.push_back(s.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
        if (b == std::string_view::npos) break;
        a = b + 1;
    }
    return out;
}

}  // namespace

namespace {
constexpr std::array<const char*, 3> kModeNames{"pack", "spread", "off"};
static_assert(kModeNames.size() == static_cast<std::size_t>(Mode::Off) + 1);
}  // namespace

const char* mode_name(Mode m) noexcept {
    return enum_name(m, kModeNames, "off");
}

Result<Mode> parse_mode(const char* optarg) {
    std::string_view s = optarg != nullptr ? optarg : "";
    if (auto m = enum_from_name<Mode>(s, kModeNames)) return *m;
    return fail(Errc::InvalidArgument, "--topo=" + quote_arg(s) + ": expected pack, spread or off");
}

Result<int> parse_max_tier(const char* optarg) {
    std::string_view s = optarg != nullptr ? optarg : "";
    auto v = strict_int(s, 0, 15);
    if (!v) return fail(Errc::InvalidArgument, "--topo-max-tier=" + quote_arg(s) + ": expected an integer 0..15");
    return static_cast<int>(*v);
}

Result<int> parse_segment(const char* optarg) {
    std::string_view s = optarg != nullptr ? optarg : "";
    auto v = strict_int(s, 1, 65536);
    if (!v) return fail(Errc::InvalidArgument, "--topo-segment=" + quote_arg(s) + ": expected an integer 1..65536");
    return static_cast<int>(*v);
}

std::optional<placement::Policy> parse_pack_policy(std::string_view s) noexcept {
    if (s == "topo") return placement::Policy::Topo;
    if (s == "cost") return placement::Policy::Cost;
    return std::nullopt;
}

Result<Config> parse_config(const std::vector<std::string>& args) {
    Config c;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto where = "plugstack argument " + std::to_string(i + 1) + " " + quote_arg(a) + ": ";
        auto eq = a.find('=');
        if (eq == std::string::npos || eq == 0) return fail(Errc::InvalidArgument, where + "expected key=value");
        std::string key = a.substr(0, eq);
        std::string val = a.substr(eq + 1);
        if (!seen.insert(key).second) return fail(Errc::InvalidArgument, where + "'" + key.append("' given twice"));
        if (val.empty()) return fail(Errc::InvalidArgument, where + "empty value");
        auto yes_no = [&](bool& out) -> Status {
            if (val == "yes" || val == "1" || val == "on") {
                out = true;
            } else if (val == "no" || val == "0" || val == "off") {
                out = false;
            } else {
                return fail(Errc::InvalidArgument, where + "expected yes or no");
            }
            return Ok{};
        };
        static const std::pair<std::string_view, std::string Config::*> paths[] = {{"snapshot", &Config::snapshot},
                                                                                   {"health", &Config::health},
                                                                                   {"state_feed", &Config::state_feed},
                                                                                   {"service", &Config::service}};
        const auto* const path =
            std::find_if(std::begin(paths), std::end(paths), [&](const auto& kp) { return kp.first == key; });
        if (path != std::end(paths)) {
            if (val.front() != '/') return fail(Errc::InvalidArgument, where + "expected an absolute path");
            c.*(path->second) = val;
        } else if (key == "on_error") {
            if (val == "warn") {
                c.on_error = OnError::Warn;
            } else if (val == "fail") {
                c.on_error = OnError::Fail;
            } else {
                return fail(Errc::InvalidArgument, where + "expected warn or fail");
            }
        } else if (key == "default") {
            auto m = parse_mode(val.c_str());
            if (!m) return fail(Errc::InvalidArgument, where + "expected pack, spread or off");
            c.default_mode = *m;
        } else if (key == "wait") {
            auto v = strict_int(val, 0, 86400);
            if (!v) return fail(Errc::InvalidArgument, where + "expected seconds 0..86400");
            c.wait = static_cast<int>(*v);
        } else if (key == "state_cache") {
            auto v = strict_int(val, 0, 60);
            if (!v) return fail(Errc::InvalidArgument, where + "expected seconds 0..60");
            c.state_cache = static_cast<int>(*v);
        } else if (key == "state_feed_age") {
            auto v = strict_int(val, 1, 60);
            if (!v) return fail(Errc::InvalidArgument, where + "expected seconds 1..60");
            c.state_feed_age = static_cast<int>(*v);
        } else if (key == "policy") {
            const auto p = parse_pack_policy(val);
            if (!p) return fail(Errc::InvalidArgument, where + "expected topo or cost");
            c.policy = *p;
        } else if (key == "decide") {
            if (val == "auto") {
                c.decide = DecideAt::Auto;
            } else if (val == "submit") {
                c.decide = DecideAt::Submit;
            } else if (val == "start") {
                c.decide = DecideAt::Start;
            } else {
                return fail(Errc::InvalidArgument, where + "expected auto, submit or start");
            }
        } else if (key == "env") {
            if (auto s = yes_no(c.rail_env); !s) return fail(s.error());
        } else if (key == "drain") {
            if (auto s = yes_no(c.drain); !s) return fail(s.error());
        } else if (key == "queued_plan") {
            if (auto s = yes_no(c.queued_plan); !s) return fail(s.error());
        } else {
            return fail(Errc::InvalidArgument,
                        where + "unknown key (known: snapshot, health, on_error, default, policy, decide, wait, "
                              "state_cache, state_feed, state_feed_age, service, env, drain, queued_plan)");
        }
    }
    return c;
}

bool partitions_overlap(std::string_view theirs, std::string_view ours) {
    if (ours.empty()) return true;
    const auto mine = split(ours, ',');
    const auto all = split(theirs, ',');
    return std::any_of(all.begin(), all.end(), [&](std::string_view t) {
        return !t.empty() && std::find(mine.begin(), mine.end(), t) != mine.end();
    });
}

bool decides_at_start(DecideAt d, const char* topology_plugin) noexcept {
    if (d != DecideAt::Auto) return d == DecideAt::Start;
    return topology_plugin != nullptr && std::string_view(topology_plugin) == "topology/topoplace";
}

Result<placement::Request> make_request(const Topology& topo, const SlurmRequest& sr, const Options& opts) {
    placement::Request r;
    if (!sr.nodelist.empty()) {
        return fail(Errc::Unsupported, "--nodelist given: the job chose its nodes, topoplace does not place it");
    }
    if (!sr.nodes.empty()) {
        auto dash = sr.nodes.find('-');
        std::string_view a = std::string_view(sr.nodes).substr(0, dash);
        auto lo = strict_int(a, 1, 1'000'000);
        std::optional<long> hi = lo;
        if (dash != std::string::npos) hi = strict_int(std::string_view(sr.nodes).substr(dash + 1), 1, 1'000'000);
        if (!lo || !hi || *hi < *lo)
            return fail(Errc::InvalidArgument, "--nodes=" + quote_arg(sr.nodes) + ": not a node count");
        r.nodes_min = static_cast<int>(*lo);
        r.nodes_max = *hi == *lo ? 0 : static_cast<int>(*hi);
    }
    if (!sr.gpus_per_node.empty()) {
        auto n = placement::request_gpu_count(sr.gpus_per_node);
        if (!n)
            return fail(Errc::InvalidArgument, "--gpus-per-node=" + quote_arg(sr.gpus_per_node) + ": not a GPU count");
        r.gpus_per_node = *n;
    } else if (!sr.gres.empty()) {
        auto n = placement::request_gres_gpus(sr.gres);
        if (!n) return fail(Errc::InvalidArgument, "--gres=" + quote_arg(sr.gres) + ": not a GPU count");
        r.gpus_per_node = *n;
    }
    if (!sr.gpus.empty()) {
        auto n = placement::request_gpu_count(sr.gpus);
        if (!n) return fail(Errc::InvalidArgument, "--gpus=" + quote_arg(sr.gpus) + ": not a GPU count");
        r.total_gpus = *n;
    }
    r.exclusive = !sr.exclusive.empty() && sr.exclusive != "oversubscribe";
    r.max_tier = opts.max_tier;
    r.one_nvl_domain = opts.nvl;
    r.segment = opts.segment;
    if (!sr.exclude.empty()) {
        auto names = expand_hostlist(sr.exclude);
        if (!names)
            return fail(Errc::InvalidArgument, "--exclude=" + quote_arg(sr.exclude) + ": " + names.error().message);
        for (const auto& n : *names) {
            if (auto h = topo.find_host(n)) r.excluded.push_back(*h);
        }
    }
    return r;
}

std::string group_feature(const Topology& topo, GroupId g) {
    return topo::group_feature(topo.groups()[g.index()].name);
}

Plan make_plan(const Topology& topo, const placement::Placement& p, Mode mode, int wait,
               std::vector<std::string> exclude, const Options* opts) {
    Plan plan;
    plan.mode = mode;
    if (opts != nullptr) {
        plan.nvl = opts->nvl;
        plan.segment = opts->segment;
    }
    plan.wait = wait;
    plan.tier = p.max_tier;
    std::vector<GroupId> order;
    std::map<GroupId, int> count;
    for (auto h : p.hosts) {
        plan.hosts.push_back(topo.host(h).name);
        auto g = topo.group_of(h);
        if (!g.valid()) continue;
        if (count[g]++ == 0) order.push_back(g);
    }
    for (auto g : order) plan.groups.emplace_back(group_feature(topo, g), count[g]);
    plan.switches = static_cast<int>(order.size());
    std::sort(exclude.begin(), exclude.end(), [](const auto& a, const auto& b) { return natural_less(a, b); });
    exclude.erase(std::unique(exclude.begin(), exclude.end()), exclude.end());
    plan.exclude = std::move(exclude);
    return plan;
}

std::string plan_constraint(const Plan& p) {
    if (p.groups.empty()) return {};
    if (p.groups.size() == 1) return p.groups.front().first;
    std::string s = "[";
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
        if (i > 0) s += '&';
        s += p.groups[i].first + "*" + std::to_string(p.groups[i].second);
    }
    return s + "]";
}

std::vector<std::pair<std::string, std::string>> plan_env(const Plan& p) {
    std::vector<std::pair<std::string, std::string>> v;
    v.emplace_back("TOPOPLACE_MODE", mode_name(p.mode));
    v.emplace_back("TOPOPLACE_CONSTRAINT", plan_constraint(p));
    v.emplace_back("TOPOPLACE_SWITCHES", std::to_string(p.switches));
    v.emplace_back("TOPOPLACE_WAIT", std::to_string(p.wait));
    v.emplace_back("TOPOPLACE_TIER", std::to_string(p.tier));
    v.emplace_back("TOPOPLACE_HOSTS", compress_hostlist(p.hosts));
    v.emplace_back("TOPOPLACE_EXCLUDE", compress_hostlist(p.exclude));
    v.emplace_back("TOPOPLACE_NVL", p.nvl ? "1" : "");  // empty values are not handed over
    v.emplace_back("TOPOPLACE_SEGMENT", p.segment > 0 ? std::to_string(p.segment) : "");
    return v;
}

std::vector<std::pair<std::string, std::string>> start_env(Mode mode, const Options& o) {
    std::vector<std::pair<std::string, std::string>> v;
    v.emplace_back("TOPOPLACE_MODE", mode_name(mode));
    v.emplace_back("TOPOPLACE_MAX_TIER", o.max_tier ? std::to_string(*o.max_tier) : "");
    v.emplace_back("TOPOPLACE_NVL", o.nvl ? "1" : "");
    v.emplace_back("TOPOPLACE_SEGMENT", o.segment > 0 ? std::to_string(o.segment) : "");
    v.emplace_back("TOPOPLACE_DECIDE", "start");
    return v;
}

std::vector<std::pair<std::string, std::string>> unplanned_env(const Topology& topo, const placement::Request& req,
                                                               const health::HealthFlags& health, Mode mode) {
    std::vector<std::string> ex;
    for (const auto& [h, why] : health.unhealthy) ex.push_back(topo.host(h).name);
    if (req.nodes_min >= 2 && !health.degraded.empty()) {
        std::vector<char> out(topo.hosts().size(), 0);
        for (HostId h : req.excluded) out[h.index()] = 1;
        for (const auto& [h, s] : health.degraded) out[h.index()] = 1;
        long left = 0;
        for (const auto& g : topo.groups())
            for (HostId h : g.hosts) left += out[h.index()] == 0 ? 1 : 0;
        if (left >= req.nodes_min)
            for (const auto& [h, s] : health.degraded) ex.push_back(topo.host(h).name);
    }
    if (ex.empty()) return {};
    return {{"TOPOPLACE_MODE", std::string(mode_name(mode))}, {"TOPOPLACE_EXCLUDE", compress_hostlist(ex)}};
}

Result<std::vector<int>> parse_gpu_list(std::string_view s) {
    std::vector<int> out;
    if (s.empty()) return out;
    for (auto item : split(s, ',')) {
        auto dash = item.find('-');
        auto a = strict_int(item.substr(0, dash), 0, 4095);
        auto b = dash == std::string_view::npos ? a : strict_int(item.substr(dash + 1), 0, 4095);
        if (!a || !b || *b < *a) return fail(Errc::Parse, "GPU list " + quote_arg(s) + ": bad item " + quote_arg(item));
        for (long i = *a; i <= *b; ++i) out.push_back(static_cast<int>(i));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Result<TaskEnv> task_env(const Topology& topo, std::string_view host, const std::vector<int>& gpus,
                         const std::vector<std::string>& job_hosts) {
    auto h = topo.find_host(host);
    if (!h) return fail(Errc::NotFound, "host " + quote_arg(host) + " is not in the snapshot");
    TaskEnv env;
    const Host& hr = topo.host(*h);
    if (!gpus.empty()) {
        std::vector<NicId> nics;
        bool located = false;
        for (int idx : gpus) {
            for (auto g : hr.gpus) {
                if (topo.gpu(g).index != idx) continue;
                for (auto n : topo.nearest_nics(g)) {
                    located = true;
                    if (std::find(nics.begin(), nics.end(), n) == nics.end()) nics.push_back(n);
                }
            }
        }
        if (!located) {  // GPU locality unknown: every fabric NIC of the host
            for (auto n : hr.nics) {
                if (topo.nic(n).leaf.valid() && topo.nic(n).rail >= 0) nics.push_back(n);  // not a storage leaf's
            }
        }
        std::sort(nics.begin(), nics.end(), [&](NicId a, NicId b) {
            const Nic& x = topo.nic(a);
            const Nic& y = topo.nic(b);
            if (x.rail != y.rail) return x.rail < y.rail;
            return natural_less(x.name, y.name);
        });
        std::string hca = "=";
        std::string ucx;
        std::string rails;
        for (auto n : nics) {
            const Nic& x = topo.nic(n);
            if (x.name.empty()) continue;
            if (hca.size() > 1) {
                hca += ',';
                ucx += ',';
                rails += ',';
            }
            hca += x.name;
            ucx += x.name + ":1";
            rails += std::to_string(x.rail);
        }
        if (!ucx.empty()) {
            env.vars.emplace_back("NCCL_IB_HCA", hca);
            env.vars.emplace_back("UCX_NET_DEVICES", ucx);
            env.vars.emplace_back("TOPOPLACE_RAILS", rails);
            env.vars.emplace_back("TOPOPLACE_NICS_FROM", located ? "gpu-locality" : "all-host-nics");
        }
    }
    // the job's placement as Slurm made it
    std::set<SwitchId> leaves;
    std::map<GroupId, HostId> reps;
    for (const auto& name : job_hosts) {
        auto jh = topo.find_host(name);
        if (!jh) continue;
        for (auto l : topo.leaves_of(*jh)) leaves.insert(l);
        reps.emplace(topo.group_of(*jh), *jh);
    }
    int tier = 0;
    for (auto a = reps.begin(); a != reps.end(); ++a) {
        for (auto b = std::next(a); b != reps.end(); ++b) {
            if (auto t = topo.lowest_common_tier(a->second, b->second)) tier = std::max(tier, *t);
        }
    }
    if (hr.group.valid()) env.vars.emplace_back("TOPOPLACE_GROUP", topo.groups()[hr.group.index()].name);
    env.vars.emplace_back("TOPOPLACE_LEAVES", std::to_string(leaves.size()));
    env.vars.emplace_back("TOPOPLACE_GROUPS", std::to_string(reps.size()));
    env.vars.emplace_back("TOPOPLACE_TIER", std::to_string(tier));
    return env;
}

}  // namespace topo::spank
