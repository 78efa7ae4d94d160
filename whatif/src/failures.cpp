// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <regex>

#include <topo/text_input.hpp>
#include <topo/whatif/failures.hpp>

namespace topo::whatif {

namespace {

std::vector<std::string_view> split_csv(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t b = 0;
    for (;;) {
        auto e = s.find(',', b);
        if (e == std::string_view::npos) {
            out.push_back(trim(s.substr(b)));
            return out;
        }
        out.push_back(trim(s.substr(b, e - b)));
        b = e + 1;
    }
}

std::optional<double> number(std::string_view s) {
    std::string t;
    for (char c : trim(s)) {
        if (c != ',') t.push_back(c);  // "16,384"
    }
    if (t.empty()) return std::nullopt;
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

Unexpected perr(const std::string& src, int line, std::string msg) {
    return fail(Errc::Parse, std::move(msg), src, line);
}

Status finish_model(FailureModel& m, const std::string& src, int line) {
    if (!(m.exposure_gpus > 0) || !(m.exposure_hours > 0)) {
        return perr(src, line,
                    "failure table has no exposure (GPU count and observation window): cannot derive a rate");
    }
    if (!(m.events > 0)) return perr(src, line, "failure table counts no failures");
    m.per_gpu_hour = m.events / (m.exposure_gpus * m.exposure_hours);
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%.0f interruptions / (%.0f GPUs x %.0f h) = %.3g per GPU-hour (MTBF of an 8-GPU node %.0f h)",
                  m.events, m.exposure_gpus, m.exposure_hours, m.per_gpu_hour, 1.0 / (8 * m.per_gpu_hour));
    m.summary = buf;
    return Ok{};
}

}  // namespace

bool category_takes_node_down(std::string_view category) noexcept {
    std::string c = ascii_lower(category);
    return !(c == "dependency" || c == "software" || c == "unknown");
}

Result<FailureModel> parse_failure_table(std::string_view text, const std::string& source) {
    auto lines = split_lines(text);
    FailureModel m;
    m.source = source;
    std::string comments;
    std::size_t h = 0;
    double c_gpus = 0;
    double c_hours = 0;
    for (; h < lines.size(); ++h) {
        auto s = trim(lines[h]);
        if (s.empty()) continue;
        if (s.front() != '#') break;
        comments += std::string(s) + "\n";
        // Generic directives.
        std::string ls = ascii_lower(s);
        auto directive = [&](const char* key) -> std::optional<double> {
            std::string k = std::string("# ") + key + ":";
            if (ls.rfind(k, 0) != 0) return std::nullopt;
            auto v = number(s.substr(k.size()));
            if (!v) return std::nullopt;
            return v;
        };
        if (auto v = directive("gpus")) c_gpus = *v;
        if (auto v = directive("hours")) c_hours = *v;
        if (auto v = directive("days")) c_hours = *v * 24;
    }
    if (h >= lines.size()) return perr(source, 1, "empty failure table");
    const int hline = static_cast<int>(h) + 1;
    auto head = split_csv(lines[h]);
    std::map<std::string, int> col;
    for (std::size_t i = 0; i < head.size(); ++i) col.emplace(ascii_lower(head[i]), static_cast<int>(i));
    auto has = [&](const char* n) { return col.count(n) != 0; };

    auto rows = [&](auto&& fn) -> Status {
        for (std::size_t i = h + 1; i < lines.size(); ++i) {
            auto s = trim(lines[i]);
            if (s.empty() || s.front() == '#') continue;
            auto f = split_csv(s);
            if (f.size() != head.size()) {
                return perr(source, static_cast<int>(i) + 1,
                            "expected " + std::to_string(head.size()) + " comma-separated fields, found "
                                + std::to_string(f.size()));
            }
            if (auto st = fn(f, static_cast<int>(i) + 1); !st) return st;
        }
        return Ok{};
    };

    if ((has("component") && has("interruption_count")) || (has("cause") && has("count"))) {
        const bool llama = has("component");
        const int c_name = llama ? col["component"] : col["cause"];
        const int c_cat = has("category") ? col["category"] : -1;
        const int c_n = llama ? col["interruption_count"] : col["count"];
        auto st = rows([&](const std::vector<std::string_view>& f, int line) -> Status {
            auto n = number(f[static_cast<std::size_t>(c_n)]);
            if (!n || *n < 0)
                return perr(source, line, "bad count '" + std::string(f[static_cast<std::size_t>(c_n)]) + "'");
            FailureCause c;
            c.name = std::string(f[static_cast<std::size_t>(c_name)]);
            c.category = c_cat >= 0 ? std::string(f[static_cast<std::size_t>(c_cat)]) : "Unknown";
            c.weight = *n;
            c.takes_node_down = category_takes_node_down(c.category);
            c.detectable = c.takes_node_down;
            m.events += *n;
            m.causes.push_back(std::move(c));
            return Ok{};
        });
        if (!st) return fail(st.error());
        m.exposure_gpus = c_gpus;
        m.exposure_hours = c_hours;
        if (llama && (m.exposure_gpus <= 0 || m.exposure_hours <= 0)) {
            // The Table 5 transcription states its exposure in its header comments:
            // "Cluster: 16,384 NVIDIA H100 80GB GPUs." and "during a 54-day period".
            std::smatch g;
            static const std::regex kGpus(R"(([0-9][0-9,]*)\s+(?:NVIDIA\s+)?[A-Za-z0-9 ]*GPUs)");
            static const std::regex kDays(R"(([0-9]+(?:\.[0-9]+)?)-day)");
            if (std::regex_search(comments, g, kGpus)) m.exposure_gpus = number(g[1].str()).value_or(0);
            if (std::regex_search(comments, g, kDays)) m.exposure_hours = number(g[1].str()).value_or(0) * 24;
        }
        if (auto fin = finish_model(m, source, hline); !fin) return fail(fin.error());
        return m;
    }
    if (has("metric") && has("value")) {
        const int c_metric = col["metric"];
        const int c_value = col["value"];
        std::map<std::string, std::pair<std::string, int>> kv;
        auto st = rows([&](const std::vector<std::string_view>& f, int line) -> Status {
            kv[ascii_lower(f[static_cast<std::size_t>(c_metric)])] = {std::string(f[static_cast<std::size_t>(c_value)]),
                                                                      line};
            return Ok{};
        });
        if (!st) return fail(st.error());
        auto get = [&](const char* k, double& out) -> Status {
            auto it = kv.find(k);
            if (it == kv.end()) return Ok{};
            auto v = number(it->second.first);
            if (!v)
                return perr(source, it->second.second,
                            std::string("bad value for ") + k + " '" + it->second.first + "'");
            out = *v;
            return Ok{};
        };
        double days = 0;
        if (kv.count("gpus") == 0 || kv.count("observation_window") == 0 || kv.count("unexpected_interruptions") == 0) {
            return perr(source, hline,
                        "metric table needs gpus, observation_window (days) and unexpected_interruptions: "
                        "it states no failure rate");
        }
        for (auto [k, out] : {std::pair{"gpus", &m.exposure_gpus}, std::pair{"observation_window", &days},
                              std::pair{"unexpected_interruptions", &m.events}}) {
            if (auto s2 = get(k, *out); !s2) return fail(s2.error());
        }
        m.exposure_hours = days * 24;
        if (auto fin = finish_model(m, source, hline); !fin) return fail(fin.error());
        return m;
    }
    if (has("fault_cause") || has("pct_of_cases")) {
        return perr(source, hline, "cause shares without a GPU count and a failure count: no rate can be derived");
    }
    if (has("complete_rate_gpu") || has("fail_rate_gpu")) {
        return perr(source, hline, "job outcome rates, not node failures: no rate can be derived");
    }
    return perr(source, hline,
                "unknown failure table (want component,category,interruption_count | metric,value,... | "
                "cause,category,count with '# gpus:' and '# days:')");
}

Result<FailureModel> read_failure_table(const std::string& path) {
    auto text = read_text_file(path, std::size_t{64} << 20);
    if (!text) return fail(text.error());
    return parse_failure_table(*text, path);
}

}  // namespace topo::whatif
