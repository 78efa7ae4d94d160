// SPDX-License-Identifier: Apache-2.0
// ClusterState's text inputs (slurm_state.hpp): `scontrol show nodes --oneliner` with its
// Gres= / GresUsed= / AllocTRES= grammars, and the small JSON form
// {"hosts": {"NAME": {"state": "...", "free_gpus": N, "ends_in_s": S}}}
// (ends_in_s: when the host's jobs are expected to end, seconds from now; optional).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iterator>

#include <topo/hostlist.hpp>
#include <topo/placement/running.hpp>
#include <topo/placement/slurm_state.hpp>
#include <topo/text_input.hpp>

namespace topo::placement {

namespace {

/// "Key=" at position i of a token boundary: letters/digits/'/'/'_' then '='.
bool is_key_at(std::string_view line, std::size_t i) {
    if (i >= line.size() || !std::isupper(static_cast<unsigned char>(line[i]))) return false;
    for (std::size_t j = i; j < line.size(); ++j) {
        const char c = line[j];
        if (c == '=') return j > i;
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/')) return false;
    }
    return false;
}

/// Split a oneliner into Key=Value pairs. Values run to the next " Key=" (so Reason=
/// with spaces survives).
std::vector<std::pair<std::string_view, std::string_view>> split_fields(std::string_view line) {
    std::vector<std::pair<std::string_view, std::string_view>> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ') ++i;
        if (i >= line.size()) break;
        const auto eq = line.find('=', i);
        if (eq == std::string_view::npos) break;
        const auto key = line.substr(i, eq - i);
        std::size_t j = eq + 1;
        std::size_t end = line.size();
        while (j < line.size()) {
            if (line[j] == ' ' && is_key_at(line, j + 1)) {
                end = j;
                break;
            }
            ++j;
        }
        out.emplace_back(key, trim(line.substr(eq + 1, end - eq - 1)));
        i = end;
    }
    return out;
}

bool parse_int(std::string_view s, int& out) {
    s = trim(s);
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

constexpr int kTooMany = -2;  // a count over kMaxHostGpus (the callers refuse the line)

/// `total` GPUs counted so far (-1: none yet) plus `n` more, or kTooMany past kMaxHostGpus.
int add_gpus(int total, int n) {
    if (n < 0 || n > kMaxHostGpus || std::max(total, 0) + n > kMaxHostGpus) return kTooMany;
    return std::max(total, 0) + n;
}

int gres_count(std::string_view v, std::vector<int>* idx) {
    int total = -1;
    std::size_t pos = 0;
    while (pos < v.size()) {
        // entries are separated by ',' outside parentheses
        std::size_t end = pos;
        int depth = 0;
        while (end < v.size() && !(v[end] == ',' && depth == 0)) {
            if (v[end] == '(') ++depth;
            if (v[end] == ')') --depth;
            ++end;
        }
        std::string_view e = v.substr(pos, end - pos);
        pos = end + 1;
        if (e.rfind("gpu", 0) != 0) continue;
        std::string_view extra;
        if (auto paren = e.find('('); paren != std::string_view::npos) {
            extra = e.substr(paren);
            e = e.substr(0, paren);
        }
        const auto colon = e.rfind(':');
        if (colon == std::string_view::npos) continue;
        int n = 0;
        if (!parse_int(e.substr(colon + 1), n)) continue;
        total = add_gpus(total, n);
        if (total == kTooMany) return kTooMany;
        if (idx != nullptr) {
            const auto ip = extra.find("IDX:");
            if (ip != std::string_view::npos) {
                auto list = extra.substr(ip + 4);
                list = list.substr(0, list.find(')'));
                // Never more indices than the entry's count (<= kMaxHostGpus): an
                // "IDX:0-999999" is counted, not expanded, and ignored.
                const std::string expr = "g[" + std::string(list) + "]";
                auto count = count_hostlist(expr, static_cast<std::size_t>(n));
                auto names = count && *count <= static_cast<std::size_t>(n)
                                 ? expand_hostlist(expr, static_cast<std::size_t>(n))
                                 : Result<std::vector<std::string>>(std::vector<std::string>{});
                if (names) {
                    for (const auto& nm : *names) {
                        int k = 0;
                        if (parse_int(std::string_view(nm).substr(1), k)) idx->push_back(k);
                    }
                }
            }
        }
    }
    return total;
}

/// "gres/gpu=2" (or "gres/gpu:h100=2") inside AllocTRES.
int tres_gpu_count(std::string_view v) {
    int total = -1;
    std::size_t pos = 0;
    while (pos <= v.size()) {
        auto end = v.find(',', pos);
        if (end == std::string_view::npos) end = v.size();
        auto e = v.substr(pos, end - pos);
        pos = end + 1;
        if (e.rfind("gres/gpu", 0) != 0) continue;
        const auto eq = e.find('=');
        if (eq == std::string_view::npos) continue;
        const auto name = e.substr(0, eq);
        if (name != "gres/gpu") continue;  // typed entries repeat the untyped total
        int n = 0;
        if (parse_int(e.substr(eq + 1), n)) {
            total = add_gpus(total, n);
            if (total == kTooMany) return kTooMany;
        }
        if (end == v.size()) break;
    }
    return total;
}

/// A job's GPUs in its AllocTRES= / tres_alloc_str ("gres/gpu=2048"): -1 when not stated,
/// kTooMany past 2^30. Unlike a node's count, a job's total has no per-host cap (the
/// caller checks the count per host of its node list).
int job_tres_gpu_count(std::string_view v) {
    long long total = -1;
    std::size_t pos = 0;
    while (pos <= v.size()) {
        auto end = v.find(',', pos);
        if (end == std::string_view::npos) end = v.size();
        const auto e = v.substr(pos, end - pos);
        pos = end + 1;
        const auto eq = e.find('=');
        if (eq == std::string_view::npos || e.substr(0, eq) != "gres/gpu") continue;  // typed entries repeat it
        int n = 0;
        if (!parse_int(e.substr(eq + 1), n) || n < 0) continue;
        total = std::max(total, 0LL) + n;
        if (total > (1LL << 30)) return kTooMany;
    }
    return static_cast<int>(total);
}

/// Map a Slurm state string ("IDLE+DRAIN", "MIXED", "DOWN*", "ALLOCATED+COMPLETING").
NodeState map_state(std::string_view text, std::string* note) {
    std::string s = ascii_upper(trim(text));
    bool not_responding = false;
    if (!s.empty()
        && (s.back() == '*' || s.back() == '~' || s.back() == '#' || s.back() == '!' || s.back() == '%'
            || s.back() == '$' || s.back() == '@' || s.back() == '^' || s.back() == '-')) {
        not_responding = s.back() == '*';
        s.pop_back();
    }
    std::vector<std::string> parts;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        auto end = s.find('+', pos);
        if (end == std::string::npos) end = s.size();
        parts.push_back(s.substr(pos, end - pos));
        pos = end + 1;
    }
    const std::string& base = parts.front();
    NodeState st = NodeState::Unknown;
    if (base == "IDLE") {
        st = NodeState::Idle;
    } else if (base == "MIXED" || base == "MIX") {
        st = NodeState::Mixed;
    } else if (base == "ALLOCATED" || base == "ALLOC" || base == "COMPLETING" || base == "COMP") {
        st = NodeState::Alloc;
    } else if (base == "DOWN" || base == "FAIL" || base == "FAILING") {
        st = NodeState::Down;
    } else if (base == "DRAIN" || base == "DRAINED" || base == "DRAINING" || base == "DRNG") {
        st = NodeState::Drain;
    } else if (base == "RESERVED" || base == "RESV" || base == "MAINT") {
        st = NodeState::Alloc;  // busy now, not broken
    } else {
        st = NodeState::Unknown;  // UNKNOWN, FUTURE, ...
    }
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const auto& f = parts[i];
        if (f == "DRAIN" || f == "DRAINED" || f == "DRAINING" || f == "FAIL" || f == "FAILING") {
            if (st != NodeState::Down) st = NodeState::Drain;
        } else if (f == "NOT_RESPONDING" || f == "DOWN") {
            st = NodeState::Down;
        } else if (f == "RESERVED" || f == "MAINT" || f == "COMPLETING") {
            if (st == NodeState::Idle || st == NodeState::Mixed) st = NodeState::Alloc;
        }
    }
    if (not_responding) {
        st = NodeState::Down;
        if (note != nullptr) *note = "not responding";
    }
    return st;
}

/// Shared tail of both parsers: a name the topology does not know.
void unknown_host(std::vector<std::string>* warnings, std::string_view file, int line, std::string_view name) {
    if (warnings == nullptr) return;
    warnings->push_back(std::string(file) + ":" + std::to_string(line) + ": host \"" + std::string(name)
                        + "\" is not in the topology; ignored");
}

}  // namespace

Result<ClusterState> parse_scontrol_nodes(const Topology& topo, std::string_view text, std::string_view file,
                                          std::vector<std::string>* warnings) {
    ClusterState cs(topo);
    const std::string f(file);
    int lineno = 0;
    std::size_t pos = 0;
    std::size_t records = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        const auto line = trim(text.substr(pos, end - pos));
        pos = end + 1;
        ++lineno;
        if (line.empty() || line.front() == '#') continue;
        if (line.rfind("NodeName=", 0) != 0) {
            return fail(Errc::Parse,
                        "expected a `scontrol show nodes --oneliner` line starting with NodeName=, got \""
                            + std::string(line.substr(0, 40)) + "\"",
                        f, lineno);
        }
        std::string name;
        std::string state_text;
        std::string reason;
        int gres_total = -1;
        int gres_used = -1;
        int tres_used = -1;
        std::vector<int> used_idx;
        bool has_state = false;
        for (const auto& [k, v] : split_fields(line)) {
            if (k == "NodeName") {
                name = std::string(v);
                if (auto sp = name.find(' '); sp != std::string::npos) name.resize(sp);
            } else if (k == "State") {
                state_text = std::string(v);
                has_state = true;
            } else if (k == "Gres") {
                gres_total = gres_count(v, nullptr);
            } else if (k == "GresUsed") {
                gres_used = gres_count(v, &used_idx);
            } else if (k == "AllocTRES") {
                tres_used = tres_gpu_count(v);
            } else if (k == "Reason") {
                reason = std::string(v);
            }
        }
        if (name.empty()) return fail(Errc::Parse, "NodeName= is empty", f, lineno);
        if (gres_total == kTooMany || gres_used == kTooMany || tres_used == kTooMany) {
            return fail(Errc::Parse,
                        "node \"" + name + "\": more than " + std::to_string(kMaxHostGpus)
                            + " GPUs in Gres=, GresUsed= or AllocTRES=",
                        f, lineno);
        }
        if (!has_state || trim(state_text).empty()) {
            return fail(Errc::Parse, "node \"" + name + "\" has no State=", f, lineno);
        }
        auto h = topo.find_host(name);
        if (!h) {
            unknown_host(warnings, f, lineno, name);
            continue;
        }
        ++records;
        HostState hs = cs.at(*h);
        std::string note;
        hs.state = map_state(state_text, &note);
        hs.reason = !reason.empty() ? reason : note;
        if (gres_total >= 0) hs.total_gpus = gres_total;
        const int total = gres_total >= 0 ? gres_total : static_cast<int>(topo.host(*h).gpus.size());
        int used = gres_used >= 0 ? gres_used : tres_used;
        if (hs.state == NodeState::Alloc) {
            hs.free_gpus = 0;
        } else if (used >= 0) {
            hs.free_gpus = std::max(0, total - used);
            std::sort(used_idx.begin(), used_idx.end());
            hs.busy_gpus = std::move(used_idx);
        } else {
            hs.free_gpus = -1;
        }
        cs.set(*h, std::move(hs));
    }
    (void)records;
    return cs;
}

Result<ClusterState> parse_state_json(const Topology& topo, std::string_view text, std::string_view file,
                                      std::vector<std::string>* warnings) {
    const std::string f(file);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is the 1-based offset of the error: turn it into a line.
        int line = 1;
        const auto upto = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        for (std::size_t i = 0; i < upto; ++i) line += text[i] == '\n' ? 1 : 0;
        std::string msg = e.what();
        if (auto p = msg.find("syntax error"); p != std::string::npos) msg = msg.substr(p);
        return fail(Errc::Parse, "bad JSON: " + msg, f, line);
    } catch (const std::exception& e) {
        return fail(Errc::Parse, std::string("bad JSON: ") + e.what(), f, 1);
    }
    // Line of a key, for messages (first occurrence of "NAME" in the text).
    auto line_of = [&](const std::string& key) {
        const auto p = text.find("\"" + key + "\"");
        if (p == std::string_view::npos) return 1;
        return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(p), '\n'));
    };
    if (!j.is_object() || !j.contains("hosts") || !j["hosts"].is_object()) {
        return fail(Errc::Parse, "expected an object {\"hosts\": {\"NAME\": {\"state\": ..., \"free_gpus\": N}}}", f,
                    1);
    }
    ClusterState cs(topo);
    for (const auto& [name, v] : j["hosts"].items()) {
        const int line = line_of(name);
        if (!v.is_object()) return fail(Errc::Parse, "host \"" + name + "\": expected an object", f, line);
        auto h = topo.find_host(name);
        if (!h) {
            unknown_host(warnings, f, line, name);
            continue;
        }
        HostState hs = cs.at(*h);
        if (v.contains("state")) {
            if (!v["state"].is_string()) {
                return fail(Errc::Parse, "host \"" + name + "\": \"state\" must be a string", f, line);
            }
            const auto s = v["state"].get<std::string>();
            static const std::pair<const char*, NodeState> kNames[] = {
                {"idle", NodeState::Idle},     {"mixed", NodeState::Mixed},     {"mix", NodeState::Mixed},
                {"alloc", NodeState::Alloc},   {"allocated", NodeState::Alloc}, {"drain", NodeState::Drain},
                {"drained", NodeState::Drain}, {"down", NodeState::Down},       {"unknown", NodeState::Unknown}};
            bool found = false;
            for (const auto& [n, st] : kNames) {
                if (s == n) {
                    hs.state = st;
                    found = true;
                }
            }
            if (!found) {
                return fail(
                    Errc::Parse,
                    "host \"" + name + "\": unknown state \"" + s + "\" (idle, mixed, alloc, drain, down, unknown)", f,
                    line);
            }
        }
        for (auto [key, out] : {std::pair{"free_gpus", &hs.free_gpus}, std::pair{"total_gpus", &hs.total_gpus}}) {
            if (!v.contains(key)) continue;
            const auto& n = v[key];
            if (!n.is_number_integer() || n.get<long long>() < 0 || n.get<long long>() > kMaxHostGpus) {
                return fail(
                    Errc::Parse,
                    "host \"" + name + "\": \"" + key + "\" must be an integer 0.." + std::to_string(kMaxHostGpus), f,
                    line);
            }
            *out = static_cast<int>(n.get<long long>());
        }
        if (v.contains("unhealthy")) {
            if (!v["unhealthy"].is_boolean()) {
                return fail(Errc::Parse, "host \"" + name + "\": \"unhealthy\" must be true or false", f, line);
            }
            hs.unhealthy = v["unhealthy"].get<bool>();
        }
        if (v.contains("slowdown")) {
            if (!v["slowdown"].is_number() || !(v["slowdown"].get<double>() >= 1.0)
                || v["slowdown"].get<double>() > 100.0) {
                return fail(
                    Errc::Parse,
                    "host \"" + name
                        + "\": \"slowdown\" must be a number 1..100 (degraded host: how much slower a job on it runs)",
                    f, line);
            }
            hs.slowdown = v["slowdown"].get<double>();
        }
        if (v.contains("ends_in_s")) {
            if (!v["ends_in_s"].is_number() || v["ends_in_s"].get<double>() < 0 || v["ends_in_s"].get<double>() > 1e9) {
                return fail(Errc::Parse, "host \"" + name + "\": \"ends_in_s\" must be a number of seconds >= 0", f,
                            line);
            }
            hs.release_at = v["ends_in_s"].get<double>();  // Request::now = 0
        }
        if (v.contains("reason") && v["reason"].is_string()) hs.reason = v["reason"].get<std::string>();
        if (hs.state == NodeState::Alloc && !v.contains("free_gpus")) hs.free_gpus = 0;
        cs.set(*h, std::move(hs));
    }
    return cs;
}

Result<std::optional<int>> gres_gpu_count(std::string_view v, std::vector<int>* idx) {
    const int n = gres_count(v, idx);
    if (n == kTooMany) return fail(Errc::InvalidArgument, "more than " + std::to_string(kMaxHostGpus) + " GPUs");
    if (n < 0) return std::optional<int>{};
    return std::optional<int>{n};
}

namespace {

/// Digits only, no sign or blanks, 0..1000000.
std::optional<int> option_count(std::string_view s) {
    if (s.empty() || s.size() > 12) return std::nullopt;
    if (!std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
    long v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    if (v > 1'000'000) return std::nullopt;
    return static_cast<int>(v);
}

}  // namespace

std::optional<int> request_gpu_count(std::string_view v) {
    const auto c = v.rfind(':');
    return option_count(c == std::string_view::npos ? v : v.substr(c + 1));
}

std::optional<int> request_gres_gpus(std::string_view v) {
    int total = 0;
    while (true) {
        const auto comma = v.find(',');
        std::string_view item = v.substr(0, comma);
        if (item.starts_with("gres:") || item.starts_with("gres/")) item.remove_prefix(5);
        if (item == "gpu") {
            total += 1;
        } else if (item.starts_with("gpu:")) {
            const auto last = item.substr(item.rfind(':') + 1);
            const bool typed = item.find(':') != item.rfind(':');  // gpu:TYPE:N
            if (auto n = option_count(last)) {
                total += *n;
            } else if (!typed) {  // "gpu:h100": a type, count 1
                total += 1;
            } else {
                return std::nullopt;
            }
        }
        if (comma == std::string_view::npos) break;
        v.remove_prefix(comma + 1);
    }
    return total;
}

}  // namespace topo::placement

// ------------------------------------------------------------------ scontrol show jobs

namespace topo::placement {

namespace {

constexpr std::size_t kMaxJobWarnings = 20;  // then one line with the count

/// Adds a warning while fewer than kMaxJobWarnings were added by this parse; counts the rest.
struct JobWarnings {
    std::vector<std::string>* out;
    std::size_t added = 0, dropped = 0;

    void add(std::string w) {
        if (out == nullptr) return;
        if (added < kMaxJobWarnings) {
            out->push_back(std::move(w));
            ++added;
        } else {
            ++dropped;
        }
    }

    void finish(const std::string& f) const {
        if (out != nullptr && dropped > 0)
            out->push_back(f + ": " + std::to_string(dropped) + " more warning(s) about job records");
    }
};

/// A RUNNING job's NodeList and GPU count into hosts of the topology. Returns false (with
/// a warning naming the job) for a record that cannot be read; the caller skips it.
bool resolve_job(const Topology& topo, RunningJob& j, int num_nodes, int gpus, const std::string& where,
                 JobWarnings& warn) {
    if (j.nodelist.empty() || j.nodelist == "(null)") {
        warn.add(where + ": running job " + j.id + " has no node list; skipped");
        return false;
    }
    auto names = expand_hostlist(j.nodelist);
    if (!names) {
        warn.add(where + ": job " + j.id + ": node list " + printable_utf8(j.nodelist) + ": " + names.error().message
                 + "; skipped");
        return false;
    }
    const long nhosts = static_cast<long>(names->size());
    if (gpus == kTooMany || (gpus > 0 && nhosts > 0 && gpus / nhosts > kMaxHostGpus)) {
        warn.add(where + ": job " + j.id + ": more than " + std::to_string(kMaxHostGpus) + " GPUs per host; skipped");
        return false;
    }
    j.gpus = std::max(gpus, 0);
    for (const auto& n : *names) {
        if (auto h = topo.find_host(n)) {
            j.hosts.push_back(*h);
        } else {
            ++j.unknown_hosts;
        }
    }
    if (num_nodes >= 0 && num_nodes != static_cast<int>(names->size())) {
        warn.add(where + ": job " + j.id + ": " + std::to_string(num_nodes) + " node(s) stated but the node list names "
                 + std::to_string(names->size()) + " host(s); the node list is used");
    }
    if (j.hosts.empty()) {
        warn.add(where + ": job " + j.id + " runs on " + j.nodelist + ", not in the topology; skipped");
        return false;
    }
    if (j.unknown_hosts > 0) {
        warn.add(where + ": job " + j.id + ": " + std::to_string(j.unknown_hosts)
                 + " of its hosts are not in the topology; assessed on the others");
    }
    return true;
}

/// The keys of a text record that topoplace reads. Each appears once in what scontrol
/// prints; a second one can only come from text a user controls (a job name, comment,
/// command or path that holds " JobState=RUNNING ..." or a newline), so such a record is
/// skipped rather than read either way.
bool is_read_key(std::string_view k) {
    return k == "JobId" || k == "JobName" || k == "UserId" || k == "JobState" || k == "NodeList" || k == "NumNodes"
           || k == "TRES" || k == "AllocTRES" || k == "StartTime";
}

/// An integer of Slurm's JSON: a plain number (22.05, openapi/v0.0.38) or
/// {"set": true, "infinite": false, "number": N} (data_parser v0.0.40+). -1 otherwise.
long long json_int(const nlohmann::json& v) {
    if (v.is_number_integer()) return v.get<long long>();
    if (v.is_object()) {
        const auto set = v.find("set");
        const auto num = v.find("number");
        const auto inf = v.find("infinite");
        if (set != v.end() && set->is_boolean() && set->get<bool>() && num != v.end() && num->is_number_integer()
            && !(inf != v.end() && inf->is_boolean() && inf->get<bool>()))
            return num->get<long long>();
    }
    return -1;
}

std::string json_str(const nlohmann::json& job, const char* key) {
    const auto it = job.find(key);
    return it != job.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// job_state: "RUNNING" (v0.0.38) or ["RUNNING", flags...] (v0.0.40+).
bool json_running(const nlohmann::json& job) {
    const auto it = job.find("job_state");
    if (it == job.end()) return false;
    if (it->is_string()) return ascii_upper(it->get<std::string>()) == "RUNNING";
    if (it->is_array()) {
        for (const auto& e : *it)
            if (e.is_string() && ascii_upper(e.get<std::string>()) == "RUNNING") return true;
    }
    return false;
}

/// 1-based line of byte offset `pos` in `text`.
int line_of(std::string_view text, std::size_t pos) {
    pos = std::min(pos, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

}  // namespace

Result<std::vector<RunningJob>> parse_slurm_jobs_json(const Topology& topo, std::string_view text,
                                                      std::string_view file, std::vector<std::string>* warnings) {
    const std::string f(file);
    JobWarnings warn{warnings};
    // Slurm copies a user's bytes into its JSON strings as they are: a job name that is not
    // UTF-8 would make the whole document unreadable, so such bytes become '?' first.
    const std::string doc = valid_utf8(text);
    // Only the fields read here are kept (the job table can be large: ~10 KB a job on 26.05).
    static const char* const job_keys[] = {"job_id", "name",       "user_name",      "user_id",      "job_state",
                                           "nodes",  "node_count", "tres_alloc_str", "tres_req_str", "start_time",
                                           "error",  "description"};  // these two: the errors' entries
    const auto keep = [](int depth, nlohmann::json::parse_event_t ev, nlohmann::json& parsed) {
        if (ev != nlohmann::json::parse_event_t::key) return true;
        const auto& k = parsed.get_ref<const std::string&>();
        if (depth == 1) return k == "jobs" || k == "errors";
        if (depth == 3)
            return std::any_of(std::begin(job_keys), std::end(job_keys), [&](const char* w) { return k == w; });
        return true;
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(doc, keep);
    } catch (const nlohmann::json::parse_error& e) {
        return fail(Errc::Parse, std::string("not JSON: ") + e.what(), f, line_of(doc, e.byte));
    }
    if (!j.is_object() || !j.contains("jobs") || !j["jobs"].is_array()) {
        return fail(Errc::Parse,
                    "expected `squeue --json` or `scontrol show jobs --json` output (an object with \"jobs\")", f, 1);
    }
    if (const auto e = j.find("errors"); e != j.end() && e->is_array() && !e->empty()) {
        warn.add(f + ": Slurm reported " + std::to_string(e->size())
                 + " error(s) with the job table: " + printable_utf8(e->front().dump().substr(0, 200)));
    }
    std::vector<RunningJob> out;
    for (const auto& job : j["jobs"]) {
        if (!job.is_object() || !json_running(job)) continue;
        RunningJob r;
        const auto id = job.find("job_id");
        const long long idn = id != job.end() ? json_int(*id) : -1;
        if (idn < 0) {
            warn.add(f + ": a running job without a job_id; skipped");
            continue;
        }
        r.id = std::to_string(idn);
        r.name = printable_utf8(json_str(job, "name"));
        r.user = printable_utf8(json_str(job, "user_name"));
        if (const auto u = job.find("user_id"); u != job.end() && json_int(*u) >= 0)
            r.user += "(" + std::to_string(json_int(*u)) + ")";
        r.nodelist = json_str(job, "nodes");
        if (const auto st = job.find("start_time"); st != job.end() && json_int(*st) > 0)
            r.start = std::to_string(json_int(*st));
        const auto nc = job.find("node_count");
        const long long nn = nc != job.end() ? json_int(*nc) : -1;
        const std::string alloc = json_str(job, "tres_alloc_str");
        const int gpus = job_tres_gpu_count(alloc.empty() ? json_str(job, "tres_req_str") : alloc);
        if (!resolve_job(topo, r, nn >= 0 && nn < (1LL << 30) ? static_cast<int>(nn) : -1, gpus, f, warn)) continue;
        out.push_back(std::move(r));
    }
    warn.finish(f);
    return out;
}

Result<std::vector<RunningJob>> parse_scontrol_jobs(const Topology& topo, std::string_view text, std::string_view file,
                                                    std::vector<std::string>* warnings) {
    const std::string f(file);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') return parse_slurm_jobs_json(topo, text, file, warnings);
    JobWarnings warn{warnings};

    // Records: a line starting "JobId=" opens one; indented lines continue it (the
    // multi-line form); a blank line closes it.
    struct Rec {
        std::string text;
        int line = 0;
    };

    std::vector<Rec> recs;
    int lineno = 0;
    std::size_t pos = 0;
    bool open = false;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        const auto raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineno;
        const auto line = trim(raw);
        if (line.empty()) {
            open = false;
            continue;
        }
        if (line.rfind("JobId=", 0) == 0) {
            recs.push_back({std::string(line), lineno});
            open = true;
        } else if (open && (raw.front() == ' ' || raw.front() == '\t')) {
            recs.back().text += ' ';
            recs.back().text += line;
        } else if (line == "No jobs in the system") {
            continue;
        } else if (!recs.empty()) {
            // Within the table: a newline in a job's name or comment. The record it broke
            // goes on (continuation lines are indented), the stray text is not read.
            warn.add(f + ":" + std::to_string(lineno)
                     + ": not part of a job record (a newline in a job's name or comment?); ignored");
        } else {
            return fail(Errc::Parse,
                        "expected `scontrol show jobs` output (a job record starting with JobId=), got \""
                            + printable_utf8(line.substr(0, 40)) + "\"",
                        f, lineno);
        }
    }
    std::vector<RunningJob> out;
    for (const auto& r : recs) {
        RunningJob j;
        j.line = r.line;
        const std::string where = f + ":" + std::to_string(r.line);
        std::string state;
        int num_nodes = -1;
        int tres = -1;
        int alloc_tres = -1;
        std::vector<std::string_view> seen;
        std::string_view twice;
        for (const auto& [k, v] : split_fields(r.text)) {
            if (!is_read_key(k)) continue;
            if (std::find(seen.begin(), seen.end(), k) != seen.end()) {
                twice = k;
                break;
            }
            seen.push_back(k);
            if (k == "JobId") {
                j.id = printable_utf8(v);
            } else if (k == "JobName") {
                j.name = printable_utf8(v);
            } else if (k == "UserId") {
                j.user = printable_utf8(v);
            } else if (k == "JobState") {
                state = std::string(v);
            } else if (k == "NodeList") {
                j.nodelist = std::string(v);
            } else if (k == "NumNodes") {
                int n = 0;
                if (parse_int(v.substr(0, v.find('-')), n)) num_nodes = n;
            } else if (k == "TRES") {
                tres = job_tres_gpu_count(v);
            } else if (k == "AllocTRES") {
                alloc_tres = job_tres_gpu_count(v);
            } else if (k == "StartTime") {
                j.start = printable_utf8(v);
            }
        }
        if (!twice.empty()) {
            warn.add(where + ": job " + (j.id.empty() ? std::string("?") : j.id) + ": " + std::string(twice)
                     + "= appears twice (text in its name, comment or paths that looks like fields); skipped. "
                       "`squeue --json` output has no such ambiguity");
            continue;
        }
        if (j.id.empty()) {
            warn.add(where + ": JobId= is empty; skipped");
            continue;
        }
        if (ascii_upper(state) != "RUNNING") continue;
        if (!resolve_job(topo, j, num_nodes, alloc_tres >= 0 ? alloc_tres : tres, where, warn)) continue;
        out.push_back(std::move(j));
    }
    warn.finish(f);
    return out;
}

}  // namespace topo::placement
