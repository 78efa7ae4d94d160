// SPDX-License-Identifier: Apache-2.0
// topoplace health check|list|flag|clear|gate: node health probes, the flag store and
// the drain lifecycle with Slurm (see docs/health.md).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>

#include <topo/health/check.hpp>
#include <topo/health/slurm.hpp>
#include <topo/health/store.hpp>
#include <topo/snapshot.hpp>

#include "commands.hpp"
#include "common.hpp"
#include <unistd.h>

namespace topo::cli {

namespace {

namespace h = topo::health;

constexpr const char* kDefaultStore = "/var/lib/topoplace/health";

struct HealthOptions {
    std::string store = kDefaultStore;
    bool json = false;
    // check
    std::string root = "/";
    std::string snapshot;
    std::string node;
    double timeout_s = 50;
    double probe_timeout_s = 10;
    std::string probe_dir;
    bool drain = false;
    std::string prometheus;
    std::string state;
    bool no_state = false;
    long long error_threshold = 10;
    std::string scontrol = "scontrol";
    bool no_store = false;
    // flag/clear/gate
    std::string target;
    std::string reason;
    std::string fail_mode = "closed";
    bool flag_degraded = false;
    double flag_slowdown = 0;
};

/// --timeout, --probe-timeout: seconds, a finite number from 1 ms to h::kMaxTimeout. Checked
/// on the text, before CLI11 converts it (a usage error, exit 64): nan, inf, 1e300, 0 or a
/// negative number never reach the seconds -> milliseconds conversion.
CLI::Validator seconds_bound() {
    return {[](std::string& text) -> std::string {
                const long long max = std::chrono::seconds(h::kMaxTimeout).count();
                char* end = nullptr;
                errno = 0;
                const double v = std::strtod(text.c_str(), &end);
                if (end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v < 0.001
                    || v > static_cast<double>(max))
                    return "must be a number of seconds from 0.001 to " + std::to_string(max) + ", not '" + text + "'";
                return {};
            },
            "", "seconds"};
}

/// Seconds (checked by seconds_bound()) to milliseconds.
std::chrono::milliseconds to_ms(double s) {
    const double max = static_cast<double>(std::chrono::milliseconds(h::kMaxTimeout).count());
    const double ms = std::isfinite(s) ? std::clamp(s * 1000.0, 1.0, max) : max;  // no UB, whatever s is
    return std::chrono::milliseconds(std::llround(ms));
}

void print_warnings(const h::Warnings& warnings) {
    for (const auto& w : warnings) std::fprintf(stderr, "topoplace: warning: %s\n", w.c_str());
}

std::int64_t now_unix() {
    return static_cast<std::int64_t>(std::time(nullptr));
}

Result<h::Store> open_store_for_write(const std::string& dir) {
    std::error_code ec;
    auto parent = std::filesystem::path(dir).parent_path();
    if (!parent.empty() && !std::filesystem::exists(parent, ec)) {
        std::filesystem::create_directories(parent, ec);
        if (!ec) std::filesystem::permissions(parent, std::filesystem::perms(0755), ec);  // whatever the umask
    }
    h::StoreOptions so;
    so.create = true;
    return h::Store::open(dir, so);
}

std::string fmt_time(std::int64_t t) {
    if (t <= 0) return "-";
    std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    ::gmtime_r(&tt, &tm);
    char b[32];
    std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return b;
}

nlohmann::json record_json(const h::Record& r) {
    nlohmann::json j = {{"node", r.node},     {"verdict", h::verdict_name(r.verdict)},
                        {"reason", r.reason}, {"source", r.source},
                        {"since", r.since},   {"last_check", r.last_check}};
    if (r.verdict == h::Verdict::Degraded) j["slowdown"] = h::degraded_slowdown(r);
    return j;
}

std::string slowdown_text(double s) {
    char b[64];
    if (s >= 1)
        std::snprintf(b, sizeof b, "slowdown %.3g", s);
    else
        std::snprintf(b, sizeof b, "slowdown %.3g assumed", h::kDegradedDefaultSlowdown);
    return b;
}

int run_check(const HealthOptions& o) {
    h::CheckOptions co;
    co.root = o.root;
    co.probe_dir = o.probe_dir;
    co.total_timeout = to_ms(o.timeout_s);
    co.probe_timeout = to_ms(o.probe_timeout_s);
    co.builtin_timeout = co.probe_timeout;
    co.error_threshold = o.error_threshold;
    const std::string node = h::default_node_name(o.node);
    if (node.empty()) return report(Error(Errc::InvalidArgument, "cannot tell the node name; give --node"));

    std::string slurm_name = h::short_name(node);
    h::SlurmNode slurm_node;
    h::Scontrol sc;
    sc.program = o.scontrol;
    if (o.drain) {
        auto sn = sc.find_node(node);
        if (!sn) return report(sn.error());
        slurm_node = *sn;
        slurm_name = sn->name;
    }
    if (!h::valid_node_name(slurm_name))
        return report(Error(Errc::InvalidArgument, "invalid node name '" + slurm_name + "'"));

    if (!o.snapshot.empty()) {
        auto t = load_snapshot(o.snapshot);
        if (!t) return report(t.error());
        co.expected = h::expected_for(**t, slurm_name);
        if (!co.expected.known)
            std::fprintf(stderr, "topoplace: warning: node %s is not in %s; HCA and GPU counts are not checked\n",
                         slurm_name.c_str(), o.snapshot.c_str());
    }
    // A refused store (tampered, foreign-owned) does not stop the check or a drain: the
    // error is reported at the end (exit 69), and no node is resumed, since an operator
    // flag in the store cannot be read.
    std::optional<h::Store> store;
    std::optional<Error> store_err;
    if (!o.no_store) {
        auto s = open_store_for_write(o.store);
        if (s)
            store = std::move(*s);
        else
            store_err = s.error();
    }
    if (!o.no_state) {
        if (!o.state.empty())
            co.state_file = o.state;
        else if (store)
            co.state_file = o.store + "/." + slurm_name + ".counters";
    }

    h::CheckReport rep = h::run_check(co);
    const std::int64_t now = now_unix();

    // Verdict: the check, unless an operator flagged the node (never overridden by a check;
    // an operator's "degraded" only by a failed check). Degraded is not unhealthy: the node
    // is neither drained nor kept from jobs, the placer keeps it out of multi-node jobs.
    bool healthy = rep.ok;
    bool degraded = rep.ok && rep.degraded;
    double slowdown = degraded ? rep.slowdown : 0;
    std::string reason = rep.summary();
    std::string store_note;
    if (store) {
        h::Warnings warnings;
        auto prev = store->get(slurm_name, &warnings);
        print_warnings(warnings);
        if (!prev) {
            store_err = prev.error();
        } else {
            h::Record r;
            r.node = slurm_name;
            r.source = "check";
            r.last_check = now;
            if (*prev && (*prev)->source == "operator" && (*prev)->verdict == h::Verdict::Unhealthy) {
                r = **prev;
                r.last_check = now;
                healthy = false;
                reason = "operator: " + r.reason + (rep.ok ? "" : "; " + reason);
                store_note = "operator flag kept";
            } else if (*prev && (*prev)->source == "operator" && (*prev)->verdict == h::Verdict::Degraded && rep.ok) {
                r = **prev;
                r.last_check = now;
                degraded = true;
                slowdown = r.slowdown;
                reason = "operator: " + r.reason + (rep.degraded ? "; " + reason : "");
                store_note = "operator flag kept";
            } else {
                r.verdict = !rep.ok ? h::Verdict::Unhealthy : degraded ? h::Verdict::Degraded : h::Verdict::Healthy;
                r.reason = r.verdict == h::Verdict::Healthy ? "" : reason;
                r.slowdown = slowdown;
                r.since = (*prev && (*prev)->verdict == r.verdict) ? (*prev)->since : now;
            }
            if (auto st = store->put(r); !st) store_err = st.error();
        }
    }

    std::string action = "none";
    if (o.drain && !(healthy && store_err)) {
        auto a = h::apply_lifecycle(sc, slurm_node, healthy, reason);
        if (!a) return report(a.error());
        action = h::action_name(*a);
    }
    if (!o.prometheus.empty()) {
        if (auto st = h::write_file_atomic(o.prometheus, h::prometheus_text(rep, slurm_name, now)); !st) {
            report(st.error());
            return kCantCreate;
        }
    }

    if (o.json) {
        nlohmann::json j;
        j["node"] = slurm_name;
        j["ok"] = rep.ok;
        j["healthy"] = healthy;
        j["degraded"] = degraded;
        if (degraded) j["slowdown"] = slowdown >= 1 ? slowdown : h::kDegradedDefaultSlowdown;
        j["seconds"] = rep.seconds;
        j["reason"] = reason;
        j["action"] = action;
        if (!store_note.empty()) j["note"] = store_note;
        j["probes"] = nlohmann::json::array();
        for (const auto& p : rep.probes) {
            nlohmann::json pj = {{"name", p.name}, {"ok", p.ok}, {"reason", p.reason}, {"seconds", p.seconds}};
            if (p.degraded) {
                pj["degraded"] = true;
                if (p.slowdown >= 1) pj["slowdown"] = p.slowdown;
            }
            j["probes"].push_back(pj);
        }
        std::cout << j.dump(2) << "\n";
    } else {
        for (const auto& p : rep.probes)
            std::printf("%-4s %-20s %s\n",
                        !p.ok        ? "FAIL"
                        : p.degraded ? "SLOW"
                                     : "ok",
                        p.name.c_str(), p.reason.c_str());
        const std::string verdict = !healthy   ? "UNHEALTHY"
                                    : degraded ? "DEGRADED (" + slowdown_text(slowdown) + ")"
                                               : "healthy";
        std::printf("%s: %s (%.3f s)%s%s\n", slurm_name.c_str(), verdict.c_str(), rep.seconds,
                    action != "none" ? ("; slurm: " + action).c_str() : "",
                    store_note.empty() ? "" : ("; " + store_note).c_str());
    }
    if (store_err) return report(*store_err);
    return healthy ? kOk : kUnsatisfiable;
}

int run_list(const HealthOptions& o) {
    // A store not created yet lists nothing; entries that are not records are skipped:
    // both with a warning (the store's one rule for readers, store.hpp).
    auto s = h::Store::open(o.store);
    if (!s) return report(s.error());
    h::Warnings warnings;
    auto l = s->list(&warnings);
    print_warnings(warnings);
    if (!l) return report(l.error());
    if (o.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : *l) j.push_back(record_json(r));
        std::cout << j.dump(2) << "\n";
        return kOk;
    }
    std::printf("%-16s %-10s %-9s %-21s %-21s %s\n", "NODE", "VERDICT", "SOURCE", "SINCE", "LAST_CHECK", "REASON");
    for (const auto& r : *l)
        std::printf(
            "%-16s %-10s %-9s %-21s %-21s %s\n", r.node.c_str(), h::verdict_name(r.verdict), r.source.c_str(),
            fmt_time(r.since).c_str(), fmt_time(r.last_check).c_str(),
            (r.verdict == h::Verdict::Degraded ? "[" + slowdown_text(r.slowdown) + "] " + r.reason : r.reason).c_str());
    return kOk;
}

int run_flag(const HealthOptions& o) {
    if (!h::valid_node_name(o.target))
        return report(Error(Errc::InvalidArgument, "invalid node name '" + o.target + "'"));
    if (o.reason.empty()) return report(Error(Errc::InvalidArgument, "flag needs --reason"));
    auto s = open_store_for_write(o.store);
    if (!s) return report(s.error());
    h::Warnings warnings;
    auto prev = s->get(o.target, &warnings);
    print_warnings(warnings);
    if (!prev) return report(prev.error());
    h::Record r;
    r.node = o.target;
    r.verdict = o.flag_degraded ? h::Verdict::Degraded : h::Verdict::Unhealthy;
    r.slowdown = o.flag_degraded ? o.flag_slowdown : 0;
    r.reason = o.reason;
    r.source = "operator";
    r.since = now_unix();
    r.last_check = *prev ? (*prev)->last_check : 0;
    if (auto st = s->put(r); !st) return report(st.error());
    if (o.flag_degraded)
        std::printf("%s: flagged degraded (%s): %s\n", r.node.c_str(), slowdown_text(r.slowdown).c_str(),
                    r.reason.c_str());
    else
        std::printf("%s: flagged unhealthy: %s\n", r.node.c_str(), r.reason.c_str());
    return kOk;
}

int run_clear(const HealthOptions& o) {
    if (!h::valid_node_name(o.target))
        return report(Error(Errc::InvalidArgument, "invalid node name '" + o.target + "'"));
    auto s = h::Store::open(o.store);
    if (!s) return report(s.error());
    if (auto st = s->remove(o.target); !st) return report(st.error());
    std::printf("%s: cleared\n", o.target.c_str());
    return kOk;
}

int run_gate(const HealthOptions& o) {
    auto mode = h::fail_mode_from_name(o.fail_mode);
    auto d = h::gate(o.store, o.target, mode.value_or(h::FailMode::Closed));
    print_warnings(d.warnings);
    if (!d.message.empty()) std::fprintf(stderr, "topoplace: %s\n", d.message.c_str());
    std::printf("%s: %s\n", o.target.c_str(), d.allow ? "allow" : "deny");
    return d.allow ? kOk : kUnsatisfiable;
}

}  // namespace

Runner add_health(CLI::App& app) {
    auto o = std::make_shared<HealthOptions>();
    auto* sub = app.add_subcommand("health", "Node health: checks, the flag store, drain/resume in Slurm");
    sub->require_subcommand(1);

    auto* check = sub->add_subcommand("check", "Probe this node (IB, GPUs, site probes); record, drain or resume");
    check->add_option("--root", o->root, "read /sys and /dev under DIR (tests: a fake tree)")->capture_default_str();
    check->add_option("--snapshot", o->snapshot, "topoplace snapshot: expected HCAs, rate and GPU count of the node");
    check->add_option("--node", o->node, "Slurm node name (default: $SLURMD_NODENAME, else the short host name)");
    check->add_flag("--json", o->json, "print the result as JSON");
    check->add_option("--timeout", o->timeout_s, "bound on the whole check, seconds (<= 3600)")
        ->check(seconds_bound())
        ->capture_default_str();
    check->add_option("--probe-timeout", o->probe_timeout_s, "bound on each probe (built-in, site), seconds (<= 3600)")
        ->check(seconds_bound())
        ->capture_default_str();
    check->add_option("--probe-dir", o->probe_dir, "directory of site probe executables (run in name order)");
    check->add_option("--store", o->store, "flag store directory")->capture_default_str();
    check->add_flag("--no-store", o->no_store, "do not record the result in the flag store");
    check->add_flag("--drain", o->drain,
                    "drain the node in Slurm on failure (Reason=\"topoplace: ...\"); resume it when it passes and "
                    "the drain is topoplace's own");
    check->add_option("--prometheus", o->prometheus, "write node_exporter textfile metrics to FILE (atomically)");
    check->add_option("--state", o->state, "IB error counter state file (default: <store>/.<node>.counters)");
    check->add_flag("--no-state", o->no_state, "do not follow error counters between runs");
    check->add_option("--error-threshold", o->error_threshold, "max growth of one IB error counter between two checks")
        ->capture_default_str();
    check->add_option("--scontrol", o->scontrol, "scontrol program")->capture_default_str();

    auto* list = sub->add_subcommand("list", "Show the flag store");
    list->add_option("--store", o->store, "flag store directory")->capture_default_str();
    list->add_flag("--json", o->json, "print JSON");

    auto* flag = sub->add_subcommand("flag", "Mark a node unhealthy (or degraded) by hand (kept until `clear`)");
    flag->add_option("node", o->target, "Slurm node name")->required();
    flag->add_option("--reason", o->reason, "why")->required();
    flag->add_flag("--degraded", o->flag_degraded,
                   "degraded, not unhealthy: jobs still run there, multi-node jobs avoid it while others fit");
    flag->add_option("--slowdown", o->flag_slowdown, "with --degraded: how much slower a job runs there (1-100)")
        ->check(CLI::Range(1.0, 100.0));
    flag->add_option("--store", o->store, "flag store directory")->capture_default_str();

    auto* clear = sub->add_subcommand("clear", "Remove a node's record");
    clear->add_option("node", o->target, "Slurm node name")->required();
    clear->add_option("--store", o->store, "flag store directory")->capture_default_str();

    auto* gate = sub->add_subcommand("gate", "Would a job launch on NODE be allowed? (what the SPANK gate decides)");
    gate->add_option("node", o->target, "Slurm node name")->required();
    gate->add_option("--store", o->store, "flag store directory")->capture_default_str();
    gate->add_option("--fail-mode", o->fail_mode, "when the store cannot be trusted: open (allow) or closed (deny)")
        ->check(CLI::IsMember({"open", "closed"}))
        ->capture_default_str();

    return [o, check, list, flag, clear, gate]() {
        if (check->parsed()) return run_check(*o);
        if (list->parsed()) return run_list(*o);
        if (flag->parsed()) return run_flag(*o);
        if (clear->parsed()) return run_clear(*o);
        if (gate->parsed()) return run_gate(*o);
        return static_cast<int>(kUsage);
    };
}

}  // namespace topo::cli
