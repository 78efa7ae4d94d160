// SPDX-License-Identifier: Apache-2.0
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <system_error>

#include <topo/text_input.hpp>
#include <topo/whatif/report.hpp>

namespace topo::whatif {

namespace {

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string pct(int n, int of) {
    if (of <= 0) return "-";
    return std::to_string(n) + " (" + fmt("%.1f", 100.0 * n / of) + " %)";
}

struct Row {
    const char* label;
    std::function<std::string(const Replay&, const PolicyRun&)> cell;
};

const std::vector<Row>& rows() {
    static const std::vector<Row> kRows = {
        {"GPU-hours lost to placement",
         [](const Replay& r, const PolicyRun& p) { return r.model ? fmt("%.1f", p.placement_gpu_hours) : "-"; }},
        {"  of placement: degraded hosts",
         [](const Replay& r, const PolicyRun& p) {
             return r.degraded.empty() ? "-" : fmt("%.1f", p.degraded_gpu_hours);
         }},
        {"GPU-hours lost to failures",
         [](const Replay&, const PolicyRun& p) { return fmt("%.1f", p.failure_gpu_hours); }},
        {"placements on degraded hosts: multi / one-node",
         [](const Replay& r, const PolicyRun& p) {
             return r.degraded.empty()
                        ? "-"
                        : std::to_string(p.multi_node_degraded) + " / " + std::to_string(p.single_node_degraded);
         }},
        {"job slowdown: mean (GPU-time)",
         [](const Replay& r, const PolicyRun& p) { return r.model ? fmt("%.4f", p.mean_slowdown) : "-"; }},
        {"job slowdown: p95 (multi-node)",
         [](const Replay& r, const PolicyRun& p) { return r.model ? fmt("%.4f", p.p95_slowdown) : "-"; }},
        {"effective MFU",
         [](const Replay& r, const PolicyRun& p) { return r.model ? fmt("%.1f %%", 100 * p.effective_mfu) : "-"; }},
        {"jobs finished / in trace",
         [](const Replay&, const PolicyRun& p) { return std::to_string(p.finished) + " / " + std::to_string(p.jobs); }},
        {"jobs rejected (never fit)", [](const Replay&, const PolicyRun& p) { return std::to_string(p.rejected); }},
        {"multi-node placements", [](const Replay&, const PolicyRun& p) { return std::to_string(p.multi_node); }},
        {"leaf groups / multi-node job: mean",
         [](const Replay&, const PolicyRun& p) { return p.multi_node ? fmt("%.3f", p.mean_groups) : "-"; }},
        {"  lower bound: mean",
         [](const Replay&, const PolicyRun& p) { return p.multi_node ? fmt("%.3f", p.mean_groups_bound) : "-"; }},
        {"  ratio to bound",
         [](const Replay&, const PolicyRun& p) { return p.multi_node ? fmt("%.3f x", p.groups_ratio) : "-"; }},
        {"  p95", [](const Replay&, const PolicyRun& p) { return p.multi_node ? fmt("%.1f", p.p95_groups) : "-"; }},
        {"  at the bound", [](const Replay&, const PolicyRun& p) { return pct(p.at_bound, p.multi_node); }},
        {"crossing a spine (tier >= 1)",
         [](const Replay&, const PolicyRun& p) { return pct(p.cross_spine, p.multi_node); }},
        {"crossing a core (tier >= 2)",
         [](const Replay& r, const PolicyRun& p) { return r.tiers >= 3 ? pct(p.cross_core, p.multi_node) : "n/a"; }},
        {"not dominated at start (groups, pods)",
         [](const Replay&, const PolicyRun& p) {
             return p.dominance_judged > 0 ? pct(p.not_dominated, p.dominance_judged) : "n/a";
         }},
        {"tier above the lowest possible",
         [](const Replay&, const PolicyRun& p) { return pct(p.needless_tier, p.multi_node); }},
        {"NVLink-domain jobs split",
         [](const Replay& r, const PolicyRun& p) {
             return r.nvl_multi_domains > 0 ? pct(p.nvl_split, p.nvl_candidates) : "n/a";
         }},
        {"wait: mean", [](const Replay&, const PolicyRun& p) { return human_duration(p.mean_wait_s); }},
        {"wait: p95", [](const Replay&, const PolicyRun& p) { return human_duration(p.p95_wait_s); }},
        {"wait: max", [](const Replay&, const PolicyRun& p) { return human_duration(p.max_wait_s); }},
        {"makespan", [](const Replay&, const PolicyRun& p) { return human_duration(p.makespan_s); }},
        {"utilization (while jobs arrive)",
         [](const Replay&, const PolicyRun& p) { return fmt("%.1f %%", 100 * p.utilization); }},
        {"utilization (whole makespan)",
         [](const Replay&, const PolicyRun& p) { return fmt("%.1f %%", 100 * p.utilization_all); }},
        {"fragmentation", [](const Replay&, const PolicyRun& p) { return fmt("%.3f", p.fragmentation); }},
        {"goodput", [](const Replay&, const PolicyRun& p) { return fmt("%.1f %%", 100 * p.goodput); }},
        {"ETTR", [](const Replay&, const PolicyRun& p) { return fmt("%.3f", p.ettr); }},
        {"node failures / jobs killed",
         [](const Replay&, const PolicyRun& p) {
             return std::to_string(p.failures) + " / " + std::to_string(p.jobs_killed);
         }},
        {"nodes flagged by the gate",
         [](const Replay&, const PolicyRun& p) { return p.gate ? std::to_string(p.gate_saves) : "-"; }},
        {"backfilled starts", [](const Replay&, const PolicyRun& p) { return std::to_string(p.backfilled); }},
    };
    return kRows;
}

std::string esc(std::string_view s) {
    std::string o;
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}

const char* color(std::size_t i) {
    static const char* kColors[] = {"#1b6ac9", "#d9480f", "#2b8a3e", "#862e9c",
                                    "#e67700", "#0b7285", "#c2255c", "#5c940d"};
    return kColors[i % (sizeof kColors / sizeof kColors[0])];
}

/// A line chart: each series is (x, y) points; axes with a few ticks.
struct Series {
    std::string name;
    std::vector<std::pair<double, double>> pts;
    const char* color;
};

std::string nice(double v) {
    if (std::fabs(v) >= 100 || v == std::floor(v)) return fmt("%.0f", v);
    if (std::fabs(v) >= 10) return fmt("%.1f", v);
    return fmt("%.2f", v);
}

/// Every plot's frame: width, height and the left, right, top and bottom margins (px).
struct PlotFrame {
    double w, h, l, r, t, b;
};

constexpr PlotFrame kPlot{640, 300, 60, 150, 30, 45};

std::string line_chart(const std::string& id, const std::string& title, const std::string& xlabel,
                       const std::string& ylabel, const std::vector<Series>& series, double xmax, double ymax,
                       bool steps) {
    const double W = kPlot.w, H = kPlot.h, L = kPlot.l, R = kPlot.r, T = kPlot.t, B = kPlot.b;
    if (xmax <= 0) xmax = 1;
    if (ymax <= 0) ymax = 1;
    // Round the x range up to 4 ticks of a 1/2/2.5/5 x 10^k step.
    {
        const double raw = xmax / 4;
        const double mag = std::pow(10.0, std::floor(std::log10(raw)));
        double step = mag;
        for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
            if (m * mag >= raw) {
                step = m * mag;
                break;
            }
        }
        xmax = step * 4;
    }
    auto X = [&](double x) { return L + (W - L - R) * std::clamp(x / xmax, 0.0, 1.0); };
    auto Y = [&](double y) { return H - B - (H - T - B) * std::clamp(y / ymax, 0.0, 1.0); };
    std::string s = "<svg id=\"" + id + "\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + nice(W)
                    + "\" height=\"" + nice(H) + "\" viewBox=\"0 0 " + nice(W) + " " + nice(H)
                    + "\" role=\"img\" aria-label=\"" + esc(title) + "\">\n";
    s += "<title>" + esc(title) + "</title>\n";
    s += "<text x=\"" + nice(L) + "\" y=\"18\" class=\"t\">" + esc(title) + "</text>\n";
    s += "<rect x=\"" + nice(L) + "\" y=\"" + nice(T) + "\" width=\"" + nice(W - L - R) + "\" height=\""
         + nice(H - T - B) + "\" class=\"frame\"/>\n";
    for (int i = 0; i <= 4; ++i) {
        const double xv = xmax * i / 4;
        const double yv = ymax * i / 4;
        s += "<line x1=\"" + fmt("%.1f", X(xv)) + "\" y1=\"" + nice(H - B) + "\" x2=\"" + fmt("%.1f", X(xv))
             + "\" y2=\"" + nice(T) + "\" class=\"grid\"/>";
        s += "<text x=\"" + fmt("%.1f", X(xv)) + "\" y=\"" + nice(H - B + 15)
             + "\" class=\"tick\" text-anchor=\"middle\">" + nice(xv) + "</text>";
        s += "<line x1=\"" + nice(L) + "\" y1=\"" + fmt("%.1f", Y(yv)) + "\" x2=\"" + nice(W - R) + "\" y2=\""
             + fmt("%.1f", Y(yv)) + "\" class=\"grid\"/>";
        s += "<text x=\"" + nice(L - 6) + "\" y=\"" + fmt("%.1f", Y(yv) + 4) + "\" class=\"tick\" text-anchor=\"end\">"
             + nice(yv) + "</text>\n";
    }
    s += "<text x=\"" + nice((L + W - R) / 2) + "\" y=\"" + nice(H - 8) + "\" class=\"lab\" text-anchor=\"middle\">"
         + esc(xlabel) + "</text>\n";
    s += "<text x=\"14\" y=\"" + nice((T + H - B) / 2)
         + "\" class=\"lab\" text-anchor=\"middle\" transform=\"rotate(-90 14 " + nice((T + H - B) / 2) + ")\">"
         + esc(ylabel) + "</text>\n";
    for (std::size_t k = 0; k < series.size(); ++k) {
        const auto& se = series[k];
        std::string d;
        double py = 0;
        for (std::size_t i = 0; i < se.pts.size(); ++i) {
            const double x = X(se.pts[i].first);
            const double y = Y(se.pts[i].second);
            if (i == 0) {
                d += "M" + fmt("%.1f", x) + " " + fmt("%.1f", y);
            } else if (steps) {
                d += " H" + fmt("%.1f", x) + " V" + fmt("%.1f", y);
            } else {
                d += " L" + fmt("%.1f", x) + " " + fmt("%.1f", y);
            }
            py = y;
        }
        (void)py;
        s += "<path class=\"series\" data-series=\"" + esc(se.name) + "\" d=\"" + d + "\" stroke=\"" + se.color
             + "\" fill=\"none\" stroke-width=\"2\"/>\n";
        const double ly = T + 16 + 18.0 * static_cast<double>(k);
        s += "<line x1=\"" + nice(W - R + 10) + "\" y1=\"" + nice(ly - 4) + "\" x2=\"" + nice(W - R + 30) + "\" y2=\""
             + nice(ly - 4) + "\" stroke=\"" + se.color + "\" stroke-width=\"3\"/>";
        s += "<text x=\"" + nice(W - R + 35) + "\" y=\"" + nice(ly) + "\" class=\"tick\">" + esc(se.name) + "</text>\n";
    }
    s += "</svg>\n";
    return s;
}

/// Grouped bars: for each lower bound b (x groups), the mean groups spanned per run,
/// with the bound drawn as a dashed mark.
std::string groups_chart(const Replay& r) {
    // Which bounds occur at all?
    std::vector<int> bounds;
    for (std::size_t b = 0; b < 17; ++b) {
        bool any = false;
        for (const auto& p : r.runs) {
            if (b < p.groups_hist.size()) {
                for (int c : p.groups_hist[b]) any = any || c > 0;
            }
        }
        if (any) bounds.push_back(static_cast<int>(b));
    }
    const double W = kPlot.w, H = kPlot.h, L = kPlot.l, R = kPlot.r, T = kPlot.t, B = kPlot.b;
    std::string title = "Leaf groups spanned per multi-node placement vs the lower bound";
    std::string s =
        "<svg id=\"groups\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"300\" "
        "viewBox=\"0 0 640 300\" role=\"img\" aria-label=\""
        + esc(title) + "\">\n<title>" + esc(title) + "</title>\n<text x=\"60\" y=\"18\" class=\"t\">" + esc(title)
        + "</text>\n";
    s += "<rect x=\"60\" y=\"30\" width=\"430\" height=\"225\" class=\"frame\"/>\n";
    if (bounds.empty()) {
        s += "<text x=\"275\" y=\"150\" class=\"lab\" text-anchor=\"middle\">no multi-node placements</text>\n</svg>\n";
        return s;
    }
    // Mean spanned per (bound, run).
    double ymax = 1;
    std::vector<std::vector<double>> mean(bounds.size(), std::vector<double>(r.runs.size(), 0));
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        for (std::size_t k = 0; k < r.runs.size(); ++k) {
            const auto& h = r.runs[k].groups_hist[static_cast<std::size_t>(bounds[i])];
            double n = 0;
            double sum = 0;
            for (std::size_t g = 0; g < h.size(); ++g) {
                n += h[g];
                sum += h[g] * static_cast<double>(g);
            }
            mean[i][k] = n > 0 ? sum / n : 0;
            ymax = std::max(ymax, mean[i][k]);
        }
        ymax = std::max(ymax, static_cast<double>(bounds[i]));
    }
    ymax = std::ceil(ymax * 1.1);
    auto Y = [&](double y) { return H - B - (H - T - B) * y / ymax; };
    const double gw = (W - L - R) / static_cast<double>(bounds.size());
    const double bw = gw * 0.8 / static_cast<double>(std::max<std::size_t>(1, r.runs.size()));
    for (int i = 0; i <= 4; ++i) {
        const double yv = ymax * i / 4;
        s += "<line x1=\"60\" y1=\"" + fmt("%.1f", Y(yv)) + "\" x2=\"490\" y2=\"" + fmt("%.1f", Y(yv))
             + "\" class=\"grid\"/><text x=\"54\" y=\"" + fmt("%.1f", Y(yv) + 4)
             + "\" class=\"tick\" text-anchor=\"end\">" + nice(yv) + "</text>\n";
    }
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        const double x0 = L + gw * static_cast<double>(i) + gw * 0.1;
        for (std::size_t k = 0; k < r.runs.size(); ++k) {
            const double x = x0 + bw * static_cast<double>(k);
            const double y = Y(mean[i][k]);
            s += "<rect class=\"bar\" x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", y) + "\" width=\""
                 + fmt("%.1f", bw * 0.9) + "\" height=\"" + fmt("%.1f", H - B - y) + "\" fill=\"" + color(k)
                 + "\"><title>" + esc(r.runs[k].label) + ": bound " + std::to_string(bounds[i]) + ", mean "
                 + fmt("%.2f", mean[i][k]) + "</title></rect>";
        }
        const double yb = Y(bounds[i]);
        s += "<line class=\"bound\" x1=\"" + fmt("%.1f", x0 - 2) + "\" y1=\"" + fmt("%.1f", yb) + "\" x2=\""
             + fmt("%.1f", x0 + gw * 0.8 + 2) + "\" y2=\"" + fmt("%.1f", yb)
             + "\" stroke=\"#000\" stroke-dasharray=\"4 3\" stroke-width=\"1.5\"/>";
        s += "<text x=\"" + fmt("%.1f", x0 + gw * 0.4) + "\" y=\"" + nice(H - B + 15)
             + "\" class=\"tick\" text-anchor=\"middle\">" + std::to_string(bounds[i]) + "</text>\n";
    }
    s += "<text x=\"275\" y=\"292\" class=\"lab\" text-anchor=\"middle\">lower bound (fewest leaf groups possible at "
         "that moment)</text>\n";
    s += "<text x=\"14\" y=\"142\" class=\"lab\" text-anchor=\"middle\" transform=\"rotate(-90 14 142)\">leaf groups "
         "spanned (mean)</text>\n";
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        const double ly = T + 16 + 18.0 * static_cast<double>(k);
        s += "<rect x=\"500\" y=\"" + nice(ly - 10) + "\" width=\"20\" height=\"10\" fill=\"" + color(k)
             + "\"/><text x=\"525\" y=\"" + nice(ly) + "\" class=\"tick\">" + esc(r.runs[k].label) + "</text>\n";
    }
    const double ly = T + 16 + 18.0 * static_cast<double>(r.runs.size());
    s += "<line x1=\"500\" y1=\"" + nice(ly - 4) + "\" x2=\"520\" y2=\"" + nice(ly - 4)
         + "\" stroke=\"#000\" stroke-dasharray=\"4 3\"/><text x=\"525\" y=\"" + nice(ly)
         + "\" class=\"tick\">lower bound</text>\n</svg>\n";
    return s;
}

}  // namespace

std::string human_duration(double s) {
    if (!std::isfinite(s)) return "inf";
    if (s < 1) return fmt("%.0f ms", s * 1000);
    if (s < 120) return fmt("%.0f s", s);
    if (s < 7200) return fmt("%.1f min", s / 60);
    if (s < 2 * 86400) return fmt("%.2f h", s / 3600);
    return fmt("%.1f d", s / 86400);
}

std::string render_table(const Replay& r) {
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> head{"metric"};
    for (const auto& p : r.runs) head.push_back(p.label);
    cells.push_back(head);
    for (const auto& row : rows()) {
        std::vector<std::string> c{row.label};
        for (const auto& p : r.runs) c.push_back(row.cell(r, p));
        cells.push_back(std::move(c));
    }
    std::vector<std::size_t> w(head.size(), 0);
    for (const auto& c : cells) {
        for (std::size_t i = 0; i < c.size(); ++i) w[i] = std::max(w[i], c[i].size());
    }
    std::string out =
        "topology: " + r.topology + "\ntrace:    " + r.trace + " (offered load " + fmt("%.2f", r.offered_load) + ")\n";
    if (!r.failures.empty()) out += "failures: " + r.failures + "\n";
    if (!r.degraded.empty()) out += "degraded: " + r.degraded + "\n";
    if (r.model)
        out += "model:    job slowdown and ETTR from docs/perf-model.md; effective MFU = "
               + fmt("%.0f", 100 * r.ideal_mfu) + " % / slowdown x ETTR\n";
    if (const std::string hl = headline(r); !hl.empty()) out += "\n" + hl + "\n";
    out += "\n";
    for (std::size_t k = 0; k < cells.size(); ++k) {
        const auto& c = cells[k];
        for (std::size_t i = 0; i < c.size(); ++i) {
            if (i == 0) {
                out += c[i] + std::string(w[i] - c[i].size(), ' ');
            } else {
                out += "  " + std::string(w[i] - c[i].size(), ' ') + c[i];
            }
        }
        out += "\n";
        if (k == 0) {
            std::size_t total = w[0];
            for (std::size_t i = 1; i < w.size(); ++i) total += 2 + w[i];
            out += std::string(total, '-') + "\n";
        }
    }
    if (r.nvl_multi_domains == 0 || r.tiers < 3) {
        out += "\nn/a: ";
        if (r.nvl_multi_domains == 0) out += "no multi-node NVLink domains";
        if (r.nvl_multi_domains == 0 && r.tiers < 3) out += "; ";
        if (r.tiers < 3) out += "no core tier";
        out += "\n";
    }
    return out;
}

std::string render_json(const Replay& r, const ReportContext& ctx) {
    nlohmann::ordered_json j;
    j["schema"] = "topoplace.whatif";
    j["version"] = 1;
    j["snapshot"] = ctx.snapshot;
    j["topology"] = {{"summary", r.topology}, {"compute_hosts", r.hosts},
                     {"gpus", r.gpus},        {"leaf_groups", r.groups},
                     {"tiers", r.tiers},      {"multi_node_nvl_domains", r.nvl_multi_domains}};
    j["trace"] = {{"source", r.trace}, {"offered_load", r.offered_load}};
    if (!r.failures.empty()) j["failures"] = r.failures;
    if (!r.degraded.empty()) j["degraded"] = r.degraded;
    if (r.model) {
        j["model"] = {{"ideal_mfu", r.ideal_mfu}, {"doc", "docs/perf-model.md"}};
        if (const std::string hl = headline(r); !hl.empty()) j["headline"] = hl;
    }
    nlohmann::ordered_json set = nlohmann::ordered_json::object();
    for (const auto& [k, v] : ctx.settings) set[k] = v;
    j["settings"] = set;
    nlohmann::ordered_json pol = nlohmann::ordered_json::object();
    for (const auto& p : r.runs) {
        nlohmann::ordered_json m;
        m["policy"] = placement::policy_name(p.policy);
        m["health_gate"] = p.gate;
        m["jobs"] = p.jobs;
        m["finished"] = p.finished;
        m["rejected"] = p.rejected;
        m["placements"] = p.placements;
        m["multi_node_placements"] = p.multi_node;
        m["leaf_groups_mean"] = p.mean_groups;
        m["leaf_groups_p95"] = p.p95_groups;
        m["leaf_groups_lower_bound_mean"] = p.mean_groups_bound;
        m["leaf_groups_ratio_to_bound"] = p.groups_ratio;
        m["at_lower_bound"] = p.at_bound;
        m["crossing_spine"] = p.cross_spine;
        m["crossing_core"] = p.cross_core;
        m["tier_above_lowest"] = p.needless_tier;
        m["nvl_domain_candidates"] = p.nvl_candidates;
        m["nvl_domain_split"] = p.nvl_split;
        m["wait_mean_s"] = p.mean_wait_s;
        m["wait_p95_s"] = p.p95_wait_s;
        m["wait_max_s"] = p.max_wait_s;
        m["makespan_s"] = p.makespan_s;
        m["utilization"] = p.utilization;
        m["utilization_whole_makespan"] = p.utilization_all;
        m["fragmentation"] = p.fragmentation;
        m["goodput"] = p.goodput;
        m["ettr"] = p.ettr;
        m["failures"] = p.failures;
        m["jobs_killed"] = p.jobs_killed;
        m["lost_gpu_hours"] = p.lost_gpu_hours;
        if (r.model) {
            m["placement_gpu_hours"] = p.placement_gpu_hours;
            m["failure_gpu_hours"] = p.failure_gpu_hours;
            m["slowdown_mean"] = p.mean_slowdown;
            m["slowdown_p95"] = p.p95_slowdown;
            m["effective_mfu"] = p.effective_mfu;
        }
        if (!r.degraded.empty()) {
            m["degraded_hosts"] = p.degraded_hosts;
            m["degraded_gpu_hours"] = p.degraded_gpu_hours;
            m["multi_node_placements_on_degraded"] = p.multi_node_degraded;
            m["single_node_placements_on_degraded"] = p.single_node_degraded;
        }
        m["gate_flagged"] = p.gate_saves;
        m["backfilled"] = p.backfilled;
        m["place_calls"] = p.place_calls;
        if (p.dominance_judged > 0) {
            m["not_dominated_at_start"] = p.not_dominated;
            m["dominance_judged"] = p.dominance_judged;
        }
        if (p.decide == Decide::Submit) {
            m["decide"] = decide_name(p.decide);
            m["planned_at_submission"] = p.submit_planned;
            m["no_plan_at_submission"] = p.submit_no_plan;
            m["no_plan_queued_at_submission"] = p.submit_queued;
            m["started_in_planned_groups"] = p.started_in_plan;
        }
        pol[p.label] = m;
    }
    j["policies"] = pol;
    return j.dump(2) + "\n";
}

std::string render_html(const Replay& r, const ReportContext& ctx) {
    std::string h;
    h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>topoplace what-if: "
         + esc(ctx.snapshot) + "</title>\n";
    h += "<style>\nbody{font-family:system-ui,-apple-system,'Segoe "
         "UI',sans-serif;margin:24px;color:#222;max-width:1400px}"
         "h1{font-size:20px}h2{font-size:16px;margin-top:28px}"
         "table{border-collapse:collapse;font-size:13px}td,th{padding:3px 10px;border-bottom:1px solid #ddd}"
         "td.n{text-align:right;font-variant-numeric:tabular-nums}th{text-align:right;background:#f3f3f3}"
         "th:first-child,td:first-child{text-align:left;white-space:nowrap}"
         ".plots{display:flex;flex-wrap:wrap;gap:18px}.plot{background:#fff;border:1px solid #e3e3e3}"
         ".frame{fill:none;stroke:#999}.grid{stroke:#eee}.tick{font-size:11px;fill:#444}.lab{font-size:12px;fill:#222}"
         ".t{font-size:13px;font-weight:600;fill:#222}code{background:#f4f4f4;padding:1px 4px}"
         ".meta{font-size:13px;color:#444}\n</style>\n</head>\n<body>\n";
    h += "<h1>topoplace what-if</h1>\n";
    if (const std::string hl = headline(r); !hl.empty()) h += "<p id=\"headline\"><b>" + esc(hl) + "</b></p>\n";
    h += "<div class=\"meta\"><p><b>Topology</b>: " + esc(ctx.snapshot) + " &mdash; " + esc(r.topology)
         + "<br><b>Trace</b>: " + esc(r.trace) + " (offered load " + fmt("%.2f", r.offered_load) + ")";
    if (!r.failures.empty()) h += "<br><b>Failures</b>: " + esc(r.failures);
    if (!r.degraded.empty()) h += "<br><b>Degraded hosts</b>: " + esc(r.degraded);
    h += "</p>\n";
    if (!ctx.command.empty()) h += "<p><b>Command</b>: <code>" + esc(ctx.command) + "</code></p>\n";
    if (!ctx.settings.empty()) {
        h += "<p>";
        for (const auto& [k, v] : ctx.settings) h += "<b>" + esc(k) + "</b>=" + esc(v) + " &nbsp; ";
        h += "</p>\n";
    }
    h += "</div>\n<h2>Side by side</h2>\n<table id=\"metrics\">\n<tr><th>metric</th>";
    for (const auto& p : r.runs) h += "<th>" + esc(p.label) + "</th>";
    h += "</tr>\n";
    for (const auto& row : rows()) {
        h += "<tr><td>" + esc(row.label) + "</td>";
        for (const auto& p : r.runs) h += "<td class=\"n\">" + esc(row.cell(r, p)) + "</td>";
        h += "</tr>\n";
    }
    h += "</table>\n";
    if (r.nvl_multi_domains == 0)
        h += "<p class=\"meta\">NVLink-domain splits: n/a, the fabric has no multi-node NVLink domains.</p>\n";
    h += "<h2>Plots</h2>\n<div class=\"plots\">\n";

    // Wait CDF (hours), up to the largest p99 so the tail does not squash the body.
    std::vector<Series> cdf;
    double xmax = 0;
    for (const auto& p : r.runs) {
        if (!p.waits.empty()) xmax = std::max(xmax, p.waits[(p.waits.size() - 1) * 99 / 100] / 3600.0);
    }
    if (xmax <= 0) xmax = 1;
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        const auto& w = r.runs[k].waits;
        Series s{r.runs[k].label, {}, color(k)};
        const std::size_t n = w.size();
        const std::size_t stride = std::max<std::size_t>(1, n / 400);
        s.pts.emplace_back(0, 0);
        for (std::size_t i = 0; i < n; i += stride) {
            s.pts.emplace_back(w[i] / 3600.0, static_cast<double>(i + 1) / static_cast<double>(n));
        }
        if (n > 0) s.pts.emplace_back(w.back() / 3600.0, 1.0);
        cdf.push_back(std::move(s));
    }
    h += line_chart("wait-cdf", "Wait time CDF (to the 99th percentile)", "wait (hours)", "share of jobs", cdf, xmax,
                    1.0, true);
    h += groups_chart(r);
    if (r.model) {
        // Mean predicted slowdown of multi-node placements by job size (GPUs, powers of two).
        std::vector<Series> by_size;
        double xmax_s = 1;
        double ymax_s = 0;
        for (std::size_t k = 0; k < r.runs.size(); ++k) {
            std::map<int, std::pair<double, int>> bins;
            for (const auto& [gpus, sl] : r.runs[k].slowdown_by_size) {
                int b = 0;
                while ((1 << (b + 1)) <= std::max(1, gpus)) ++b;
                bins[b].first += sl;
                bins[b].second += 1;
            }
            Series s{r.runs[k].label, {}, color(k)};
            for (const auto& [b, v] : bins) {
                const double mean = (v.first / v.second - 1.0) * 100.0;
                s.pts.emplace_back(b, mean);
                xmax_s = std::max(xmax_s, static_cast<double>(b));
                ymax_s = std::max(ymax_s, mean);
            }
            by_size.push_back(std::move(s));
        }
        h += line_chart("slowdown-by-size", "Predicted slowdown by job size (multi-node placements)",
                        "job size (log2 GPUs)", "mean slowdown (%)", by_size, xmax_s, ymax_s > 0 ? ymax_s * 1.1 : 1.0,
                        false);
    }
    // Utilization and fragmentation over time.
    std::vector<Series> util;
    std::vector<Series> frag;
    double tmax = 0;
    for (std::size_t k = 0; k < r.runs.size(); ++k) {
        const auto& p = r.runs[k];
        Series u{p.label, {}, color(k)};
        Series f{p.label, {}, color(k)};
        for (std::size_t i = 0; i < p.util_series.size(); ++i) {
            const double t = (static_cast<double>(i) + 0.5) * p.series_step_s / 3600.0;
            u.pts.emplace_back(t, 100 * p.util_series[i]);
            f.pts.emplace_back(t, p.frag_series[i]);
        }
        tmax = std::max(tmax, p.makespan_s / 3600.0);
        util.push_back(std::move(u));
        frag.push_back(std::move(f));
    }
    h +=
        line_chart("utilization", "GPU utilization over time", "time (hours)", "busy GPUs (%)", util, tmax, 100, false);
    h += line_chart("fragmentation", "Fragmentation over time (0 = idle nodes in one hole)", "time (hours)",
                    "fragmentation", frag, tmax, 1.0, false);
    h += "</div>\n<h2>Definitions</h2>\n<ul class=\"meta\">\n"
         "<li><b>leaf groups</b>: hosts sharing the same leaf switches (one scalable unit); the lower bound is the "
         "fewest groups any placement could have used in that state.</li>\n"
         "<li><b>utilization</b> and <b>fragmentation</b> are time averages from the first to the last submit "
         "(the loaded part); the whole-makespan utilization includes the drain after the last arrival.</li>\n"
         "<li><b>fragmentation</b>: 1 &minus; (idle nodes in the best leaf group) / min(idle nodes, "
         "largest group size).</li>\n"
         "<li><b>goodput</b>: useful GPU-time / allocated GPU-time (lost work = time since the last checkpoint plus "
         "the restart cost). <b>ETTR</b>: work / (end &minus; first start), GPU-time weighted.</li>\n"
         "<li><b>job slowdown</b>: the step-time slowdown the performance model predicts for a placement against "
         "the best placement of the same job (docs/perf-model.md); a run takes its remaining work &times; that "
         "slowdown. <b>GPU-hours lost to placement</b>: &Sigma; GPUs &times; run time &times; (1 &minus; "
         "1/slowdown). <b>Effective MFU</b>: the ideal MFU / mean slowdown &times; ETTR.</li>\n"
         "</ul>\n<p class=\"meta\">Generated by topoplace whatif. See docs/whatif.md.</p>\n</body>\n</html>\n";
    return h;
}

Status write_report(const Replay& r, const ReportContext& ctx, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return fail(Errc::Io, "cannot create directory " + dir + ": " + ec.message());
    return write_text_file((std::filesystem::path(dir) / "index.html").string(), render_html(r, ctx));
}

}  // namespace topo::whatif
