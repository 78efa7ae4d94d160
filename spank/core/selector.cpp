// SPDX-License-Identifier: Apache-2.0
#include "selector.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <utility>

#include <topo/placement/slurm_state.hpp>
#include <topo/snapshot.hpp>
#include <topo/text_input.hpp>

#include "state_cache.hpp"
#include <sys/stat.h>

namespace topo::spank {

Result<SelectorConfig> parse_selector_config(std::string_view text, std::string_view file, std::string_view confdir) {
    SelectorConfig c;
    c.snapshot = std::string(confdir) + "/topoplace.json";
    std::vector<std::string> seen;
    const auto lines = split_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int line = static_cast<int>(i) + 1;
        std::string_view l = lines[i];
        if (const auto hash = l.find('#'); hash != std::string_view::npos) l = l.substr(0, hash);
        l = trim(l);
        if (l.empty()) continue;
        const auto eq = l.find('=');
        if (eq == std::string_view::npos)
            return fail(Errc::Parse, "expected key=value, got '" + std::string(l) + "'", std::string(file), line);
        const std::string key(trim(l.substr(0, eq)));
        const std::string_view val = trim(l.substr(eq + 1));
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
            return fail(Errc::Parse, "'" + key + "' given twice", std::string(file), line);
        seen.push_back(key);
        if (key == "snapshot") {
            if (val.empty() || val.front() != '/')
                return fail(Errc::Parse, "snapshot= needs an absolute path", std::string(file), line);
            c.snapshot = std::string(val);
        } else if (key == "health") {
            if (!val.empty() && val.front() != '/')
                return fail(Errc::Parse, "health= needs an absolute path (or nothing: no store)", std::string(file),
                            line);
            c.health = std::string(val);
        } else if (key == "policy") {
            auto p = parse_pack_policy(val);
            if (!p)
                return fail(Errc::Parse, "policy=" + std::string(val) + ": expected cost or topo", std::string(file),
                            line);
            c.policy = *p;
        } else if (key == "default") {
            auto m = parse_mode(std::string(val).c_str());
            if (!m)
                return fail(Errc::Parse, "default=" + std::string(val) + ": expected pack, spread or off",
                            std::string(file), line);
            c.default_mode = *m;
        } else if (key == "state_feed") {
            if (!val.empty() && val.front() != '/')
                return fail(Errc::Parse, "state_feed= needs an absolute path (or nothing: no feed)", std::string(file),
                            line);
            c.state_feed = std::string(val);
        } else if (key == "state_feed_age") {
            auto v = strict_int(val, 1, 3600);
            if (!v) return fail(Errc::Parse, "state_feed_age: seconds 1..3600", std::string(file), line);
            c.state_feed_age = static_cast<int>(*v);
        } else if (key == "health_interval_ms") {
            auto v = strict_int(val, 0, 999'999);
            if (!v) return fail(Errc::Parse, "health_interval_ms: 0..999999", std::string(file), line);
            c.health_interval_ms = static_cast<int>(*v);
        } else if (key == "stats_interval") {
            auto v = strict_int(val, 0, 86'400);
            if (!v) return fail(Errc::Parse, "stats_interval: seconds 0..86400", std::string(file), line);
            c.stats_interval_s = static_cast<int>(*v);
        } else if (key == "trace") {
            if (val != "yes" && val != "no")
                return fail(Errc::Parse, "trace=" + std::string(val) + ": expected yes or no", std::string(file), line);
            c.trace = val == "yes";
        } else if (key == "lookahead") {
            if (val == "busy")
                c.lookahead = SelectorConfig::LookAhead::Busy;
            else if (val == "group")
                c.lookahead = SelectorConfig::LookAhead::Group;
            else if (val == "holes")
                c.lookahead = SelectorConfig::LookAhead::Holes;
            else if (val == "off")
                c.lookahead = SelectorConfig::LookAhead::Off;
            else
                return fail(Errc::Parse, "lookahead=" + std::string(val) + ": expected busy, holes, group or off",
                            std::string(file), line);
        } else if (key == "degraded_wait") {
            auto v = strict_int(val, 0, 86'400);
            if (!v)
                return fail(Errc::Parse, "degraded_wait: seconds 0..86400 (0: never held)", std::string(file), line);
            c.degraded_wait_s = static_cast<int>(*v);
        } else if (key == "withheld_wait") {
            auto v = strict_int(val, 0, 86'400);
            if (!v)
                return fail(Errc::Parse, "withheld_wait: seconds 0..86400 (0: never held)", std::string(file), line);
            c.withheld_wait_s = static_cast<int>(*v);
        } else {
            return fail(Errc::Parse,
                        "unknown key '" + key
                            + "' (snapshot, health, policy, default, health_interval_ms, state_feed, state_feed_age, "
                              "stats_interval, trace, lookahead, degraded_wait, withheld_wait)",
                        std::string(file), line);
        }
    }
    return c;
}

Result<Options> options_from_env(std::span<const std::string_view> env) {
    Options o;
    for (std::string_view kv : env) {
        if (kv.substr(0, 6) == "SPANK_") kv.remove_prefix(6);
        if (kv.substr(0, 10) != "TOPOPLACE_") continue;
        const auto eq = kv.find('=');
        if (eq == std::string_view::npos) continue;
        const std::string_view k = kv.substr(10, eq - 10);
        const std::string v(kv.substr(eq + 1, std::min<std::size_t>(kv.size() - eq - 1, 64)));
        if (k == "MODE") {
            auto m = parse_mode(v.c_str());
            if (!m) return fail(m.error());
            o.mode = *m;
        } else if (k == "MAX_TIER") {
            auto t = parse_max_tier(v.c_str());
            if (!t) return fail(t.error());
            o.max_tier = *t;
        } else if (k == "NVL") {
            o.nvl = v == "1";
        } else if (k == "SEGMENT") {
            auto s = parse_segment(v.c_str());
            if (!s) return fail(s.error());
            o.segment = *s;
        }
    }
    return o;
}

Result<std::unique_ptr<Selector>> Selector::open(SelectorConfig cfg) {
    auto topo = load_snapshot(cfg.snapshot);
    if (!topo) return fail(topo.error());
    return std::unique_ptr<Selector>(new Selector(std::move(cfg), std::move(*topo)));
}

Selector::Selector(SelectorConfig cfg, TopologyPtr topo)
    : cfg_(std::move(cfg)),
      topo_(std::move(topo)),
      placer_(std::make_unique<placement::Placer>(*topo_)),
      state_(*topo_),
      node_of_host_(topo_->hosts().size(), kNoNode),
      idle_((topo_->hosts().size() + 63) / 64, 0) {
    // Nothing is offered until a call says so: every host starts allocated.
    group_of_host_.reserve(topo_->hosts().size());
    for (std::size_t h = 0; h < topo_->hosts().size(); ++h) {
        state_.set_state(HostId(static_cast<std::uint32_t>(h)), placement::NodeState::Alloc);
        group_of_host_.push_back(topo_->hosts()[h].group.index());
    }
    const auto& groups = topo_->groups();
    grp_word_begin_.reserve(groups.size() + 1);
    std::vector<std::uint32_t> ids;
    for (const auto& g : groups) {
        grp_word_begin_.push_back(static_cast<std::uint32_t>(grp_words_.size()));
        ids.clear();
        for (HostId h : g.hosts) ids.push_back(h.index());
        std::sort(ids.begin(), ids.end());
        for (std::uint32_t i : ids) {
            const std::uint32_t w = i / 64;
            if (grp_words_.size() == grp_word_begin_.back() || grp_words_.back().first != w)
                grp_words_.emplace_back(w, 0);
            grp_words_.back().second |= 1ULL << (i % 64);
        }
    }
    grp_word_begin_.push_back(static_cast<std::uint32_t>(grp_words_.size()));
    // The health store read whole now (at load, not in a scheduling cycle); a problem is
    // met again, and logged, by the first call's re-read.
    if (!cfg_.health.empty()) {
        health_.emplace(*topo_, cfg_.health);
        auto changed = health_->refresh(std::numeric_limits<std::size_t>::max());
        stats_.health_reads = health_->reads();
        if (changed && *changed) apply_health(health_->flags());
    }
}

Selector::NodeMap Selector::set_nodes(std::span<const std::string_view> names) {
    NodeMap m;
    memo_.clear();
    ++generation_;
    host_of_node_.assign(names.size(), -1);
    std::fill(node_of_host_.begin(), node_of_host_.end(), kNoNode);
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i].empty()) continue;  // a hole in Slurm's node table
        auto h = topo_->find_host(names[i]);
        if (!h) {
            if (++m.unknown_nodes <= NodeMap::kSample) m.unknown_sample.emplace_back(names[i]);
            continue;
        }
        host_of_node_[i] = static_cast<std::int32_t>(h->index());
        node_of_host_[h->index()] = static_cast<std::uint32_t>(i);
    }
    identity_nodes_ = names.size() == node_of_host_.size();
    for (std::size_t i = 0; identity_nodes_ && i < names.size(); ++i)
        identity_nodes_ = host_of_node_[i] == static_cast<std::int32_t>(i);
    for (std::size_t h = 0; h < node_of_host_.size(); ++h) {
        if (node_of_host_[h] != kNoNode) continue;
        if (++m.absent_hosts <= NodeMap::kSample) m.absent_sample.push_back(topo_->hosts()[h].name);
    }
    return m;
}

void Selector::apply_health(const health::HealthFlags& f) {
    if (f.unhealthy == flags_.unhealthy && f.degraded == flags_.degraded) return;
    for (const auto& [h, why] : flags_.unhealthy) state_.set_unhealthy(h, false);
    for (const auto& [h, s] : flags_.degraded) state_.set_slowdown(h, 1.0);
    flags_ = f;
    state_.mark_health(flags_.unhealthy, flags_.degraded);
    ++generation_;
}

void Selector::refresh_health(Selection& sel) {
    if (!health_) return;
    const auto now = now_();
    if (health_read_ && now - *health_read_ < std::chrono::milliseconds(cfg_.health_interval_ms)) return;
    health_read_ = now;
    // One stat() while the store's directory did not change (writers rename and unlink);
    // otherwise one listing and the records replaced since, at most kHealthReadsPerCall.
    auto changed = health_->refresh(kHealthReadsPerCall);
    stats_.health_reads = health_->reads();
    if (!changed) {
        // keep the flags read last (a store being rewritten must not un-flag every host)
        note(sel, "health",
             "health store " + cfg_.health + " not read (the flags read before stay): " + changed.error().to_string());
        return;
    }
    if (*changed) apply_health(health_->flags());
}

void Selector::note(Selection& sel, std::string key, std::string text) {
    if (sel.problem.empty()) {
        sel.problem = std::move(text);
        sel.problem_key = std::move(key);
    } else if (pending_.size() < 8) {
        pending_.emplace_back(std::move(key), std::move(text));
    }
}

void Selector::set_uplinks(const placement::ClusterState* from) {
    for (std::size_t g = 0; g < topo_->groups().size(); ++g) {
        const GroupId gid(static_cast<std::uint32_t>(g));
        const auto want = from != nullptr ? from->uplink_users(gid) : placement::ClusterState::UplinkUsers{};
        const auto have = state_.uplink_users(gid);
        if (want.spanning != have.spanning || want.multi_pod != have.multi_pod) {
            state_.add_uplink_users(gid, want.spanning - have.spanning, want.multi_pod - have.multi_pod);
            ++generation_;
        }
    }
}

void Selector::refresh_feed(Selection& sel) {
    if (cfg_.state_feed.empty()) return;
    const auto now = now_();
    if (feed_read_ && now - *feed_read_ < std::chrono::milliseconds(cfg_.health_interval_ms)) return;
    feed_read_ = now;
    const auto wall =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
    auto f =
        read_state_feed(cfg_.state_feed, *topo_, cfg_.state_feed_age, wall.count(), nullptr, cfg_.state_feed_owner);
    if (!f) {
        // stale counts would be served as fresh: none is safer (the cost policy then sees no sharing)
        set_uplinks(nullptr);
        note(sel, "feed",
             "state feed " + cfg_.state_feed
                 + " not used (running jobs' uplinks unknown until it is): " + f.error().to_string());
        return;
    }
    set_uplinks(&*f);
}

namespace {

/// f(i) for every set bit i of the words word(0) .. word(nwords - 1), in ascending order.
template <class Word, class F>
void for_each_bit(std::size_t nwords, Word word, F f) {
    for (std::size_t w = 0; w < nwords; ++w) {
        std::uint64_t bits = word(w);
        while (bits != 0) {
            const int b = std::countr_zero(bits);
            bits &= bits - 1;
            f(w * 64 + static_cast<std::size_t>(b));
        }
    }
}

bool test_bit(const std::vector<std::uint64_t>& v, std::size_t i) {
    return (v[i / 64] >> (i % 64) & 1U) != 0;
}

/// The hosts set in `want` idle in `st`, the others allocated: only those whose bit differs
/// from `have` (what `st` was given last) change, O(changed) group-count updates.
void apply_bits(placement::ClusterState& st, const std::vector<std::uint64_t>& want,
                const std::vector<std::uint64_t>& have) {
    for_each_bit(
        want.size(), [&](std::size_t w) { return want[w] ^ have[w]; },
        [&](std::size_t i) {
            st.set_state(HostId(static_cast<std::uint32_t>(i)),
                         test_bit(want, i) ? placement::NodeState::Idle : placement::NodeState::Alloc);
        });
}

/// The nodes a job needs at least: its minimum where it gives a range, else its count.
std::uint32_t nodes_needed(const SelectorJob& job) {
    return job.min_nodes >= 1 && job.min_nodes < job.req_nodes ? job.min_nodes : job.req_nodes;
}

}  // namespace

void Selector::host_bits(std::span<const std::uint64_t> nodes, std::uint32_t nbits,
                         std::vector<std::uint64_t>& out) const {
    out.assign(idle_.size(), 0);
    const std::uint32_t n = std::min<std::uint32_t>(nbits, static_cast<std::uint32_t>(host_of_node_.size()));
    const std::size_t words = std::min<std::size_t>(nodes.size(), (static_cast<std::size_t>(n) + 63) / 64);
    if (identity_nodes_) {  // node i is host i: the words themselves, the last one cut at n
        for (std::size_t w = 0; w < words; ++w) {
            const std::size_t left = n - w * 64;
            out[w] = left < 64 ? nodes[w] & ((1ULL << left) - 1) : nodes[w];
        }
        return;
    }
    for_each_bit(
        words,
        [&](std::size_t w) {
            const std::size_t left = n - w * 64;
            return left < 64 ? nodes[w] & ((1ULL << left) - 1) : nodes[w];
        },
        [&](std::size_t i) {
            const std::int32_t h = host_of_node_[i];
            if (h >= 0) out[static_cast<std::size_t>(h) / 64] |= 1ULL << (h % 64);
        });
}

void Selector::apply_offer(std::span<const std::uint64_t> offered, std::uint32_t nbits) {
    // The hosts offered now are idle in the state, the others allocated: only the hosts whose
    // bit differs from the last call change (O(changed) group-count updates).
    host_bits(offered, nbits, want_);
    apply_bits(state_, want_, idle_);
    idle_.swap(want_);
}

Selection Selector::select(const SelectorJob& job, std::span<const std::uint64_t> offered, std::uint32_t nbits) {
    const auto t0 = std::chrono::steady_clock::now();
    Selection sel = decide(job, offered, nbits);
    const auto ns = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    stats_.select_ns += ns;
    stats_.select_max_ns = std::max(stats_.select_max_ns, ns);
    return sel;
}

Selection Selector::decide(const SelectorJob& job, std::span<const std::uint64_t> offered, std::uint32_t nbits) {
    Selection sel;
    ++stats_.calls;
    if (!pending_.empty()) {  // a problem an earlier call found besides its own
        sel.problem = std::move(pending_.front().second);
        sel.problem_key = std::move(pending_.front().first);
        pending_.erase(pending_.begin());
    }
    auto pass = [&](std::string why) {
        ++stats_.passed;
        sel.kind = Selection::Kind::Pass;
        sel.why = std::move(why);
        return std::move(sel);
    };
    if (job.required_nodes) return pass("the job named its nodes (-w)");
    auto opts = options_from_env(job.env);
    if (!opts) {
        note(sel, "option", "job " + std::to_string(job.job_id) + ": " + opts.error().message + " (left to Slurm)");
        return pass("invalid option");
    }
    const Mode mode = opts->mode.value_or(cfg_.default_mode);
    if (mode == Mode::Off) return pass("--topo=off");
    const auto gpus = placement::request_gres_gpus(job.tres_per_node);
    if (!gpus) return pass("tres_per_node '" + std::string(job.tres_per_node.substr(0, 64)) + "' not read");
    refresh_health(sel);
    refresh_feed(sel);
    // the nodes Slurm offers a job lie in its partition: learned for hold_off_degraded, withheld_hosts
    if (!job.partition.empty() && (cfg_.degraded_wait_s > 0 || cfg_.withheld_wait_s > 0)) {
        auto it = part_nodes_.find(job.partition);
        if (it == part_nodes_.end() && part_nodes_.size() < kPartitions)
            it = part_nodes_.emplace(std::string(job.partition.substr(0, 256)), std::vector<std::uint64_t>{}).first;
        if (it != part_nodes_.end()) {
            const std::size_t words =
                std::min<std::size_t>(offered.size(), (static_cast<std::size_t>(nbits) + 63) / 64);
            if (it->second.size() < words) it->second.resize(words, 0);
            for (std::size_t w = 0; w < words; ++w) it->second[w] |= offered[w];
        }
    }
    auto hold = [&](std::string why, bool withheld) {
        ++(withheld ? stats_.held_withheld : stats_.held);
        sel.kind = Selection::Kind::Hold;
        sel.withheld = withheld;
        sel.nodes.clear();
        sel.why = std::move(why);
        return std::move(sel);
    };
    static constexpr std::string_view kHeld =
        "held: the offer's best takes a degraded host while enough healthy idle nodes of the partition are free "
        "(degraded_wait=)";
    static constexpr std::string_view kWithheld =
        "held: idle nodes of the partition that Slurm withheld would place the job on fewer leaf groups or spines "
        "(withheld_wait=)";

    // the same job on the same offer as at its last call, nothing else changed: that decision
    MemoKey& key = key_;  // reused: no allocation per call once its buffers have grown
    key.generation = generation_;
    key.min_nodes = job.min_nodes;
    key.req_nodes = job.req_nodes;
    key.max_nodes = job.max_nodes;
    key.tres_per_node.assign(job.tres_per_node);
    key.env_hash = 1469598103934665603ULL;  // FNV-1a
    for (std::string_view kv : job.env) {
        for (const char ch : kv) key.env_hash = (key.env_hash ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
        key.env_hash = (key.env_hash ^ 0xffU) * 1099511628211ULL;
    }
    key.nbits = nbits;
    const std::size_t words = std::min<std::size_t>(offered.size(), (static_cast<std::size_t>(nbits) + 63) / 64);
    key.offered.assign(offered.begin(), offered.begin() + static_cast<std::ptrdiff_t>(words));
    if (cfg_.lookahead == SelectorConfig::LookAhead::Off)
        key.busy.clear();
    else
        key.busy.assign(job.busy.begin(),
                        job.busy.begin() + static_cast<std::ptrdiff_t>(std::min(words, job.busy.size())));
    // a multi-node job that would start now (no offered node busy): the idle nodes of its
    // partition Slurm withheld from it, to weigh its choice against (withheld_wait)
    const std::uint32_t need = nodes_needed(job);
    const bool starts_now = std::all_of(job.busy.begin(), job.busy.end(), [](std::uint64_t b) { return b == 0; });
    const std::uint64_t withheld = cfg_.withheld_wait_s > 0 && need >= 2 && starts_now && !job.idle_elsewhere.empty()
                                       ? withheld_hosts(job, offered, nbits)
                                       : 0;
    if (auto it = memo_.find(job.job_id);
        it != memo_.end() && it->second.key == key
        && (it->second.kind != Selection::Kind::Narrow || it->second.withheld_hash == withheld)) {
        const Memo& m = it->second;
        ++stats_.repeats;
        if (m.on_degraded && hold_off_degraded(job, offered, nbits, *gpus, m.nodes))
            return hold(std::string(kHeld), false);
        if (m.withheld_bound_s > 0 && hold_for_withheld(job.job_id, m.withheld_bound_s))
            return hold(std::string(kWithheld), true);
        ++(m.kind == Selection::Kind::Narrow ? stats_.narrowed : stats_.passed);
        sel.kind = m.kind;
        sel.nodes = m.nodes;
        sel.why = m.why;
        return sel;
    }
    bool on_degraded = false;   // the decision below narrows onto a degraded host
    double withheld_bound = 0;  // the decision below is beaten by withheld nodes: the hold's bound
    auto remember = [&](const Selection& out) {
        if (memo_.size() >= kMemoJobs && !memo_.contains(job.job_id)) memo_.clear();
        Memo& m = memo_[job.job_id];
        m.key = key;  // a copy into the entry's own buffers (reused when the job is decided again)
        m.kind = out.kind;
        m.nodes = out.nodes;
        m.why = out.why;
        m.on_degraded = on_degraded;
        m.withheld_hash = withheld;
        m.withheld_bound_s = withheld_bound;
    };
    apply_offer(offered, nbits);

    placement::Request r;
    r.nodes_min = static_cast<int>(std::max<std::uint32_t>(1, std::min(job.req_nodes, 1'000'000U)));
    if (job.min_nodes >= 1 && job.min_nodes < job.req_nodes) r.nodes_min = static_cast<int>(job.min_nodes);
    if (job.req_nodes > static_cast<std::uint32_t>(r.nodes_min)) r.nodes_max = static_cast<int>(job.req_nodes);
    r.gpus_per_node = *gpus;
    r.exclusive = true;  // Slurm offered these nodes for this job: each can take it
    r.max_tier = opts->max_tier;
    r.one_nvl_domain = opts->nvl;
    r.segment = opts->segment;
    const placement::Policy policy = mode == Mode::Spread ? placement::Policy::Spread : cfg_.policy;
    auto elapsed_ns = [](std::chrono::steady_clock::time_point since) {
        return static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - since).count());
    };
    auto t = std::chrono::steady_clock::now();
    auto p = placer_->place(state_, r, policy);
    if (!p && r.gpus_per_node > 0 && p.error().code == Errc::Unsatisfiable) {
        // the snapshot may know fewer GPUs than Slurm's gres.conf: Slurm offered these nodes
        // for this job, so decide on the nodes alone
        r.gpus_per_node = 0;
        p = placer_->place(state_, r, policy);
    }
    stats_.place_ns += elapsed_ns(t);
    if (!p) {
        auto out = pass(std::string(errc_name(p.error().code)) + ": " + p.error().message);
        remember(out);
        return out;
    }
    if (!job.busy.empty() && cfg_.lookahead != SelectorConfig::LookAhead::Off) {
        t = std::chrono::steady_clock::now();
        if (spare_idle(job, nbits, r, policy, *p)) ++stats_.lookahead_moved;
        ++stats_.lookahead_calls;
        stats_.lookahead_ns += elapsed_ns(t);
    }
    sel.nodes.reserve(p->hosts.size());
    for (HostId h : p->hosts) {
        const std::uint32_t i = node_of_host_[h.index()];
        if (i == kNoNode) return pass("chose a host Slurm does not know");
        sel.nodes.push_back(i);
    }
    std::sort(sel.nodes.begin(), sel.nodes.end());
    sel.kind = Selection::Kind::Narrow;
    sel.why = std::move(p->explanation);
    on_degraded = p->degraded_hosts > 0;
    if (withheld != 0) {
        t = std::chrono::steady_clock::now();
        withheld_bound = withheld_gain(job, r, policy, *p);
        ++stats_.withheld_calls;
        stats_.withheld_ns += elapsed_ns(t);
    }
    remember(sel);
    if (on_degraded && hold_off_degraded(job, offered, nbits, *gpus, sel.nodes)) return hold(std::string(kHeld), false);
    if (withheld_bound > 0 && hold_for_withheld(job.job_id, withheld_bound)) return hold(std::string(kWithheld), true);
    ++stats_.narrowed;
    return sel;
}

std::uint64_t Selector::withheld_hosts(const SelectorJob& job, std::span<const std::uint64_t> offered,
                                       std::uint32_t nbits) {
    const auto part = part_nodes_.find(job.partition);
    if (part == part_nodes_.end()) return 0;
    const std::size_t words = (static_cast<std::size_t>(nbits) + 63) / 64;
    const std::size_t n = std::min({words, offered.size(), job.idle_elsewhere.size(), part->second.size()});
    with_.assign(words, 0);  // node bits here; withheld_gain makes it host bits of its own
    bool any = false;
    for (std::size_t w = 0; w < n; ++w) {
        with_[w] = job.idle_elsewhere[w] & part->second[w] & ~offered[w];
        any = any || with_[w] != 0;
    }
    if (!any) return 0;
    host_bits(with_, nbits, withheld_);
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the host words
    bool hosts = false;
    for (const std::uint64_t v : withheld_) {
        hosts = hosts || v != 0;
        for (int b = 0; b < 64; b += 8) h = (h ^ ((v >> b) & 0xffU)) * 1099511628211ULL;
    }
    return hosts ? h | 1U : 0;
}

double Selector::withheld_gain(const SelectorJob& job, const placement::Request& r, placement::Policy policy,
                               const placement::Placement& p) {
    if (p.hosts.size() < 2 || p.groups.size() < 2) return 0;  // one leaf group: nothing does better
    with_.resize(idle_.size());
    for (std::size_t w = 0; w < idle_.size(); ++w) with_[w] = idle_[w] | (w < withheld_.size() ? withheld_[w] : 0);
    apply_bits(state_, with_, idle_);  // the offer and the withheld nodes idle, for one place()
    auto q = placer_->place(state_, r, policy);
    apply_bits(state_, idle_, with_);  // the offer again
    if (!q || q->hosts.size() < 2) return 0;
    if (!placement::beats(*q, p)) return 0;
    const double sp = placer_->predicted_slowdown(state_, p.hosts);
    const double sq = placer_->predicted_slowdown(state_, q->hosts);
    if (!(sq > 0 && sq < sp)) return 0;
    // held for at most what the offer's choice would cost the job against the withheld one:
    // its time limit x (S_offer / S_withheld - 1), and never longer than withheld_wait
    double bound = cfg_.withheld_wait_s;
    if (job.time_limit_min > 0) bound = std::min(bound, 60.0 * job.time_limit_min * (sp / sq - 1.0));
    return bound;
}

bool Selector::hold_for_withheld(std::uint32_t job_id, double bound_s) {
    if (bound_s <= 0) return false;
    return held_within(withheld_since_, job_id, std::chrono::duration<double>(bound_s));
}

bool Selector::held_within(std::unordered_map<std::uint32_t, Clock::time_point>& since, std::uint32_t job_id,
                           std::chrono::duration<double> bound) {
    const auto now = now_();
    if (since.size() >= kMemoJobs && !since.contains(job_id)) since.clear();
    const auto [it, first] = since.try_emplace(job_id, now);
    return now - it->second < bound;
}

bool Selector::hold_off_degraded(const SelectorJob& job, std::span<const std::uint64_t> offered, std::uint32_t nbits,
                                 int gpus_per_node, std::span<const std::uint32_t> chosen) {
    const std::uint32_t need = nodes_needed(job);
    if (cfg_.degraded_wait_s <= 0 || need < 2 || job.idle_elsewhere.empty()) return false;
    const auto part = part_nodes_.find(job.partition);
    const std::vector<std::uint64_t>* seen = part == part_nodes_.end() ? nullptr : &part->second;
    // healthy hosts idle now: offered and not busy, or idle elsewhere in the partition
    const std::uint32_t n = std::min<std::uint32_t>(nbits, static_cast<std::uint32_t>(host_of_node_.size()));
    const std::size_t words = std::min<std::size_t>(offered.size(), (static_cast<std::size_t>(n) + 63) / 64);
    std::uint32_t healthy = 0;
    for (std::size_t w = 0; w < words && healthy < need; ++w) {
        std::uint64_t bits = offered[w] & ~(w < job.busy.size() ? job.busy[w] : 0);
        if (seen != nullptr && w < seen->size() && w < job.idle_elsewhere.size())
            bits |= job.idle_elsewhere[w] & (*seen)[w];
        if (const std::size_t left = n - w * 64; left < 64) bits &= (1ULL << left) - 1;
        while (bits != 0 && healthy < need) {
            const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
            bits &= bits - 1;
            const std::int32_t h = host_of_node_[i];
            if (h < 0) continue;
            const HostId id(static_cast<std::uint32_t>(h));
            const auto& hs = state_.at(id);
            if (hs.unhealthy || hs.slowdown > 1.0) continue;
            if (gpus_per_node > 0 && state_.total_gpus(*topo_, id) < gpus_per_node) continue;
            ++healthy;
        }
    }
    if (healthy < need) return false;
    // held for at most what the slowest degraded host of the choice would cost the job:
    // its time limit x (slowdown - 1), and never longer than degraded_wait
    auto bound = std::chrono::duration<double>(cfg_.degraded_wait_s);
    if (job.time_limit_min > 0) {
        double slow = 1.0;
        for (const std::uint32_t i : chosen)
            if (i < host_of_node_.size() && host_of_node_[i] >= 0)
                slow = std::max(slow, state_.at(HostId(static_cast<std::uint32_t>(host_of_node_[i]))).slowdown);
        bound = std::min(bound, std::chrono::duration<double>(60.0 * job.time_limit_min * (slow - 1.0)));
    }
    return held_within(held_since_, job.job_id, bound);
}

bool Selector::spare_idle(const SelectorJob& job, std::uint32_t nbits, const placement::Request& r,
                          placement::Policy policy, placement::Placement& p) {
    // the offered hosts running a job now (idle_ holds the offered ones)
    host_bits(job.busy, nbits, busy_);
    std::size_t n_busy = 0;
    for (std::size_t w = 0; w < busy_.size(); ++w) {
        busy_[w] &= idle_[w];
        n_busy += static_cast<std::size_t>(std::popcount(busy_[w]));
    }
    auto is_busy = [&](HostId h) { return test_bit(busy_, h.index()); };
    const auto idle_in = [&](const placement::Placement& q) {
        return static_cast<int>(std::count_if(q.hosts.begin(), q.hosts.end(), [&](HostId h) { return !is_busy(h); }));
    };
    const int idle_before = idle_in(p);
    if (n_busy == 0 || idle_before == 0) return false;
    bool moved = false;

    // 1. the same decision again with some idle hosts left out (busy: all of them, then those
    //    of leaf groups with no busy host; holes: those of part-used leaf groups): the first
    //    that is as good on every count and takes fewer of them is kept
    auto spines = [](const placement::Placement& x) {
        return x.switches_per_level.size() > 1 ? x.switches_per_level[1] : 0;
    };
    // per leaf group, its offered hosts idle now and busy now (one pass over the offer)
    const std::size_t ng = topo_->groups().size();
    grp_idle_.assign(ng, 0);
    grp_busy_.assign(ng, 0);
    for (std::size_t g = 0; g < ng; ++g) {
        for (std::uint32_t k = grp_word_begin_[g]; k < grp_word_begin_[g + 1]; ++k) {
            const auto [w, m] = grp_words_[k];
            grp_idle_[g] += static_cast<std::uint32_t>(std::popcount(idle_[w] & ~busy_[w] & m));
            grp_busy_[g] += static_cast<std::uint32_t>(std::popcount(busy_[w] & m));
        }
    }
    // a leaf group every host of which is offered and idle now
    auto wholly_idle = [&](std::size_t g) {
        return static_cast<std::size_t>(grp_idle_[g]) == topo_->groups()[g].hosts.size();
    };
    // holes: idle hosts of leaf groups that are not wholly idle and offered (what backfill
    // fills in best; whole idle groups stay for the reservation)
    auto is_hole = [&](HostId h) {
        if (is_busy(h) || !test_bit(idle_, h.index())) return false;
        return !wholly_idle(group_of_host_[h.index()]);
    };
    enum class Step : std::uint8_t { BusyOnly, BusyGroups, Holes };
    static constexpr Step kBusySteps[] = {Step::BusyOnly, Step::BusyGroups};
    static constexpr Step kHolesSteps[] = {Step::Holes};
    const std::span<const Step> steps = cfg_.lookahead == SelectorConfig::LookAhead::Busy    ? kBusySteps
                                        : cfg_.lookahead == SelectorConfig::LookAhead::Holes ? kHolesSteps
                                                                                             : std::span<const Step>{};
    const int holes_before = static_cast<int>(std::count_if(p.hosts.begin(), p.hosts.end(), is_hole));
    // the offer without the hosts this step leaves out (ahead_want_), in the look-ahead's own
    // state (not as Request::excluded: the placer keeps its O(groups) path); only the hosts
    // whose bit differs from that state's last offer change there
    auto place_ahead = [&](Ahead& a) -> Result<placement::Placement> {
        if (!a.state || a.generation != generation_ || a.idle.size() != idle_.size()) {
            a.state.reset();  // a copy that fails half-way leaves none
            a.state.emplace(state_);
            a.idle = idle_;
            a.generation = generation_;
        }
        {
            std::vector<std::uint64_t> applied;
            applied.swap(a.idle);  // empty while changing: a throw leaves the state to be copied again
            apply_bits(*a.state, ahead_want_, applied);
            applied.swap(ahead_want_);
            a.idle.swap(applied);
        }
        return placer_->place(*a.state, r, policy);
    };
    auto as_good = [&](const placement::Placement& q) {
        return q.degraded_hosts <= p.degraded_hosts && q.groups.size() <= p.groups.size() && spines(q) <= spines(p)
               && q.max_tier <= p.max_tier && q.leaves.size() <= p.leaves.size();
    };
    for (const Step step : steps) {
        if (step == Step::BusyOnly && n_busy < static_cast<std::size_t>(r.nodes_min)) continue;
        if (step == Step::Holes && holes_before == 0) continue;
        if (step == Step::BusyOnly) {
            ahead_want_.assign(busy_.begin(), busy_.end());  // busy_ lies in idle_
        } else {
            ahead_want_.assign(idle_.begin(), idle_.end());
            for (std::size_t g = 0; g < ng; ++g) {
                // BusyGroups: the idle hosts of leaf groups with no busy host; Holes: those of
                // leaf groups not wholly idle and offered
                if (step == Step::BusyGroups ? grp_busy_[g] > 0 : wholly_idle(g)) continue;
                for (std::uint32_t k = grp_word_begin_[g]; k < grp_word_begin_[g + 1]; ++k) {
                    const auto [w, m] = grp_words_[k];
                    ahead_want_[w] &= ~(idle_[w] & ~busy_[w] & m);
                }
            }
        }
        Result<placement::Placement> q = place_ahead(ahead_[0]);
        if (!q || !as_good(*q)) continue;
        if (step == Step::Holes ? std::count_if(q->hosts.begin(), q->hosts.end(), is_hole) >= holes_before
                                : idle_in(*q) >= idle_before)
            continue;
        p = std::move(*q);
        moved = true;
        p.explanation += step == Step::BusyOnly ? " (Slurm's look-ahead: on nodes busy now"
                         : step == Step::BusyGroups
                             ? " (Slurm's look-ahead: in the leaf groups of nodes busy now"
                             : " (Slurm's look-ahead: off the idle nodes of part-used leaf groups";
        p.explanation += ", idle ones left to jobs that can start now)";
        break;
    }
    // 1b. holes: a reservation that takes part of a wholly idle leaf group makes holes of the
    //     rest (seen on 26.05, seed 2: a 10-node reservation took 2 of an idle group of 4 and
    //     the 3-node job behind it started across two groups); the same decision without those
    //     groups is kept when it is as good, splits fewer and takes no more holes
    if (cfg_.lookahead == SelectorConfig::LookAhead::Holes) {
        auto split_groups = [&](const placement::Placement& x) {  // the wholly idle groups x takes in part
            split_.clear();
            for (HostId h : x.hosts) {
                const std::size_t g = group_of_host_[h.index()];
                if (!wholly_idle(g)) continue;
                if (grp_taken_[g]++ == 0) split_.push_back(g);
            }
            std::erase_if(split_, [&](std::size_t g) {
                const bool whole = grp_taken_[g] == topo_->groups()[g].hosts.size();
                grp_taken_[g] = 0;
                return whole;
            });
            return split_.size();
        };
        grp_taken_.assign(ng, 0);
        const std::size_t splits_before = split_groups(p);
        if (splits_before > 0) {
            ahead_want_.assign(idle_.begin(), idle_.end());
            for (const std::size_t g : split_)
                for (std::uint32_t k = grp_word_begin_[g]; k < grp_word_begin_[g + 1]; ++k) {
                    const auto [w, m] = grp_words_[k];
                    ahead_want_[w] &= ~m;
                }
            const int holes_now = static_cast<int>(std::count_if(p.hosts.begin(), p.hosts.end(), is_hole));
            Result<placement::Placement> q = place_ahead(ahead_[1]);
            if (q && as_good(*q) && std::count_if(q->hosts.begin(), q->hosts.end(), is_hole) <= holes_now
                && split_groups(*q) < splits_before) {
                p = std::move(*q);
                moved = true;
                p.explanation +=
                    " (Slurm's look-ahead: no idle leaf group taken in part, the rest of it left to "
                    "jobs that can start now)";
            }
        }
    }
    // 2. each idle host for a busy one of its leaf group (same leaves, so the same groups,
    //    spines and hops) that is as fit: not chosen, healthy, as slow, as many GPUs
    if (r.one_nvl_domain || r.segment > 0) return moved;
    int swapped = 0;
    picked_.assign(idle_.size(), 0);
    // grp_busy_ from here: per leaf group, its busy hosts not in the placement (the ones a
    // swap can take); the candidates of a group are its words of busy_ & ~picked_
    for (HostId h : p.hosts) {
        picked_[h.index() / 64] |= 1ULL << (h.index() % 64);
        if (is_busy(h)) --grp_busy_[group_of_host_[h.index()]];
    }
    for (HostId& h : p.hosts) {
        if (is_busy(h)) continue;
        const std::size_t gi = group_of_host_[h.index()];
        if (grp_busy_[gi] == 0) continue;
        const auto& hs = state_.at(h);
        bool done = false;
        for (std::uint32_t k = grp_word_begin_[gi]; k < grp_word_begin_[gi + 1] && !done; ++k) {
            const auto [w, m] = grp_words_[k];
            for (std::uint64_t cand = busy_[w] & ~picked_[w] & m; cand != 0 && !done; cand &= cand - 1) {
                const HostId g(w * 64U + static_cast<std::uint32_t>(std::countr_zero(cand)));
                const auto& gs = state_.at(g);
                if (gs.unhealthy || gs.slowdown != hs.slowdown
                    || state_.total_gpus(*topo_, g) != state_.total_gpus(*topo_, h))
                    continue;
                picked_[g.index() / 64] |= 1ULL << (g.index() % 64);
                picked_[h.index() / 64] &= ~(1ULL << (h.index() % 64));
                h = g;
                --grp_busy_[gi];
                ++swapped;
                done = true;
            }
        }
    }
    if (swapped > 0) {
        std::sort(p.hosts.begin(), p.hosts.end());
        p.explanation += " (Slurm's look-ahead: " + std::to_string(swapped)
                         + " node(s) busy now taken for idle ones of the same leaf group)";
    }
    return moved || swapped > 0;
}

}  // namespace topo::spank
