// SPDX-License-Identifier: Apache-2.0
// tp_select.h over topo::spank::Selector: no exception leaves these functions.
#include "tp_select.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "selector.hpp"

struct tps {
    std::unique_ptr<topo::spank::Selector> sel;
    std::set<std::string> logged;  // problem kinds logged once already
};

namespace {

void put(char* buf, std::size_t len, const std::string& s) noexcept {
    if (buf == nullptr || len == 0) return;
    std::snprintf(buf, len, "%s", s.c_str());
}

constexpr std::size_t kMaxConf = std::size_t{64} * 1024;

}  // namespace

extern "C" struct tps* tps_open(const char* conf, const char* confdir, char* msg, std::size_t msglen) {
    put(msg, msglen, "");
    try {
        std::string text;
        const std::string file = conf != nullptr ? conf : "";
        if (!file.empty()) {
            std::ifstream in(file, std::ios::binary);
            if (in) {
                std::vector<char> buf(kMaxConf + 1);
                in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
                if (static_cast<std::size_t>(in.gcount()) > kMaxConf) {
                    put(msg, msglen, file + ": larger than 64 KiB");
                    return nullptr;
                }
                text.assign(buf.data(), static_cast<std::size_t>(in.gcount()));
            }
        }
        auto cfg = topo::spank::parse_selector_config(text, file, confdir != nullptr ? confdir : "/etc/slurm");
        if (!cfg) {
            put(msg, msglen, cfg.error().to_string());
            return nullptr;
        }
        auto s = topo::spank::Selector::open(std::move(*cfg));
        if (!s) {
            put(msg, msglen, "snapshot: " + s.error().to_string());
            return nullptr;
        }
        auto* t = new tps;
        t->sel = std::move(*s);
        return t;
    } catch (const std::exception& e) {
        put(msg, msglen, std::string("internal error: ") + e.what());
    } catch (...) {
        put(msg, msglen, "internal error");
    }
    return nullptr;
}

extern "C" int tps_set_nodes(struct tps* s, const char* const* names, std::uint32_t n, char* msg, std::size_t msglen) {
    put(msg, msglen, "");
    if (s == nullptr) return -1;
    try {
        std::vector<std::string_view> v(n);
        for (std::uint32_t i = 0; i < n; ++i) v[i] = names[i] != nullptr ? names[i] : "";
        const auto m = s->sel->set_nodes(v);
        auto list = [](const std::vector<std::string>& xs, std::size_t total) {
            std::string out;
            for (const auto& x : xs) out += (out.empty() ? "" : ",") + x;
            if (total > xs.size()) out += ",... (" + std::to_string(total) + ")";
            return out;
        };
        if (m.absent_hosts > 0) {
            // hosts of the snapshot that slurm.conf does not define: the snapshot is not this cluster's
            put(msg, msglen,
                "the snapshot names " + std::to_string(m.absent_hosts) + " of its "
                    + std::to_string(s->sel->topology().hosts().size()) + " hosts that slurm.conf does not define ("
                    + list(m.absent_sample, m.absent_hosts) + "): it is not this cluster's");
            return -1;
        }
        if (m.unknown_nodes > 0) {
            put(msg, msglen,
                std::to_string(m.unknown_nodes) + " nodes of slurm.conf are not in the snapshot ("
                    + list(m.unknown_sample, m.unknown_nodes) + "): Slurm's own evaluation chooses among them");
        }
        return 0;
    } catch (const std::exception& e) {
        put(msg, msglen, std::string("internal error: ") + e.what());
    } catch (...) {
        put(msg, msglen, "internal error");
    }
    return -1;
}

extern "C" int tps_select(struct tps* s, const tps_job_t* job, const std::uint64_t* offered, std::uint32_t nbits,
                          std::uint64_t* chosen, char* problem, std::size_t problemlen) {
    put(problem, problemlen, "");
    if (s == nullptr || job == nullptr || offered == nullptr || chosen == nullptr) return TPS_ERROR;
    try {
        topo::spank::SelectorJob j;
        j.job_id = job->job_id;
        j.min_nodes = job->min_nodes;
        j.req_nodes = job->req_nodes;
        j.max_nodes = job->max_nodes;
        j.required_nodes = job->required_nodes != 0;
        if (job->tres_per_node != nullptr) j.tres_per_node = job->tres_per_node;
        for (std::uint32_t i = 0; i < job->env_size && job->env != nullptr && i < 4096; ++i)
            if (job->env[i] != nullptr) j.env.emplace_back(job->env[i]);
        const std::size_t words = (nbits + 63) / 64;
        if (job->busy != nullptr) j.busy = {job->busy, words};
        if (job->time_limit_min < 0xfffffffeU) j.time_limit_min = job->time_limit_min;
        if (job->idle_elsewhere != nullptr) j.idle_elsewhere = {job->idle_elsewhere, words};
        if (job->partition != nullptr) j.partition = std::string_view(job->partition, ::strnlen(job->partition, 256));
        auto sel = s->sel->select(j, {offered, words}, nbits);
        if (!sel.problem.empty() && s->logged.insert(sel.problem_key).second)
            put(problem, problemlen, sel.problem + " (logged once)");
        if (sel.kind == topo::spank::Selection::Kind::Hold) return sel.withheld ? TPS_HOLD_WITHHELD : TPS_HOLD;
        if (sel.kind != topo::spank::Selection::Kind::Narrow) return TPS_PASS;
        std::memset(chosen, 0, words * sizeof(std::uint64_t));
        for (std::uint32_t i : sel.nodes) {
            if (i >= nbits) return TPS_ERROR;
            chosen[i / 64] |= 1ULL << (i % 64);
        }
        return TPS_NARROW;
    } catch (const std::exception& e) {
        if (s->logged.insert("internal").second) put(problem, problemlen, std::string("internal error: ") + e.what());
    } catch (...) {
        if (s->logged.insert("internal").second) put(problem, problemlen, "internal error");
    }
    return TPS_ERROR;
}

extern "C" void tps_summary(struct tps* s, char* msg, std::size_t msglen) {
    if (s == nullptr) {
        put(msg, msglen, "not loaded");
        return;
    }
    try {
        const auto& st = s->sel->stats();
        std::ostringstream o;
        o << "snapshot " << s->sel->config().snapshot << " (" << s->sel->topology().hosts().size() << " hosts, policy "
          << topo::placement::policy_name(s->sel->config().policy) << "): " << st.calls << " calls, " << st.narrowed
          << " narrowed, " << st.passed << " left to Slurm, " << st.repeats
          << " repeated (the last decision for the job "
          << "on the same offer), " << st.lookahead_moved
          << " look-ahead decisions moved to leave idle nodes to backfill, " << st.held << " held off degraded hosts, "
          << st.held_withheld << " held for withheld nodes, " << st.health_reads << " health records read; decision "
          << st.select_ns / 1000 << " us in all (mean " << std::fixed << std::setprecision(1)
          << (st.calls > 0 ? static_cast<double>(st.select_ns) / 1000.0 / static_cast<double>(st.calls) : 0.0)
          << " us, max " << st.select_max_ns / 1000 << " us; place() " << st.place_ns / 1000 << " us, look-ahead "
          << st.lookahead_ns / 1000 << " us in " << st.lookahead_calls << " calls, withheld nodes weighed "
          << st.withheld_ns / 1000 << " us in " << st.withheld_calls << " calls)";
        put(msg, msglen, o.str());
    } catch (...) {
        put(msg, msglen, "summary failed");
    }
}

extern "C" int tps_stats_interval(const struct tps* s) {
    return s == nullptr ? 0 : s->sel->config().stats_interval_s;
}

extern "C" int tps_wants_idle(const struct tps* s) {
    return s != nullptr && s->sel->wants_idle_elsewhere() ? 1 : 0;
}

extern "C" int tps_trace(const struct tps* s) {
    return s != nullptr && s->sel->config().trace ? 1 : 0;
}

extern "C" void tps_close(struct tps* s) {
    try {
        delete s;
    } catch (...) {
        (void)0;
    }
}
