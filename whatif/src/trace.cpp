// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

#include <topo/text_input.hpp>
#include <topo/whatif/trace.hpp>

namespace topo::whatif {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t b = 0;
    for (;;) {
        std::size_t e = s.find(sep, b);
        if (e == std::string_view::npos) {
            out.push_back(s.substr(b));
            return out;
        }
        out.push_back(s.substr(b, e - b));
        b = e + 1;
    }
}

std::optional<double> to_double(std::string_view s) {
    s = trim(s);
    if (s.empty()) return std::nullopt;
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<long long> to_int(std::string_view s) {
    s = trim(s);
    if (s.empty()) return std::nullopt;
    long long v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
long long days_from_civil(long long y, unsigned m, unsigned d) {
    y -= m <= 2 ? 1 : 0;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long long>(doe) - 719468;
}

/// "2023-05-01T12:00:00" (sacct's ISO form) -> seconds since the epoch (zone ignored:
/// only differences matter). nullopt for "Unknown", "None" or a malformed value.
std::optional<double> parse_sacct_time(std::string_view s) {
    s = trim(s);
    if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':') {
        return std::nullopt;
    }
    auto y = to_int(s.substr(0, 4));
    auto mo = to_int(s.substr(5, 2));
    auto d = to_int(s.substr(8, 2));
    auto h = to_int(s.substr(11, 2));
    auto mi = to_int(s.substr(14, 2));
    auto se = to_int(s.substr(17, 2));
    if (!y || !mo || !d || !h || !mi || !se || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59
        || *se > 60) {
        return std::nullopt;
    }
    const long long days = days_from_civil(*y, static_cast<unsigned>(*mo), static_cast<unsigned>(*d));
    return static_cast<double>(days * 86400 + *h * 3600 + *mi * 60 + *se);
}

/// GPUs in a TRES string: "billing=8,cpu=64,gres/gpu=8,mem=500G,node=1" -> 8; also
/// "gres/gpu:a100=8". -1 when no GPU entry.
long long tres_gpus(std::string_view tres) {
    long long total = -1;
    for (auto item : split(tres, ',')) {
        item = trim(item);
        if (item.rfind("gres/gpu", 0) != 0) continue;
        auto eq = item.find('=');
        if (eq == std::string_view::npos) continue;
        std::string_view key = item.substr(0, eq);
        // "gres/gpu" or "gres/gpu:TYPE"; a typed entry repeats the untyped count.
        if (key != "gres/gpu" && total >= 0) continue;
        auto v = to_int(item.substr(eq + 1));
        if (!v) continue;
        if (key == "gres/gpu") {
            total = *v;
        } else if (total < 0) {
            total = *v;
        }
    }
    return total;
}

Unexpected parse_error(const std::string& source, int line, std::string msg) {
    return fail(Errc::Parse, std::move(msg), source, line);
}

struct Lines {
    std::vector<std::string_view> all;
    /// First non-empty, non-comment line index, or all.size().
    std::size_t header = 0;
};

Lines lines_of(std::string_view text) {
    Lines l;
    l.all = split_lines(text);
    while (l.header < l.all.size()) {
        auto t = trim(l.all[l.header]);
        if (!t.empty() && t.front() != '#') break;
        ++l.header;
    }
    return l;
}

std::map<std::string, int> columns(std::string_view header, char sep) {
    std::map<std::string, int> m;
    auto f = split(header, sep);
    for (std::size_t i = 0; i < f.size(); ++i) m.emplace(ascii_lower(trim(f[i])), static_cast<int>(i));
    return m;
}

void finish(Trace& t) {
    std::stable_sort(t.jobs.begin(), t.jobs.end(), [](const TraceJob& a, const TraceJob& b) {
        return a.submit_s != b.submit_s ? a.submit_s < b.submit_s : a.line < b.line;
    });
    if (!t.jobs.empty()) {
        const double t0 = t.jobs.front().submit_s;
        for (auto& j : t.jobs) j.submit_s -= t0;
    }
}

void note_skip(Trace& t, std::map<std::string, int>& reasons, const std::string& why) {
    ++t.skipped;
    ++reasons[why];
}

void flush_notes(Trace& t, const std::map<std::string, int>& reasons) {
    for (const auto& [why, n] : reasons) t.notes.push_back(std::to_string(n) + " rows skipped: " + why);
}

// ---- sacct --parsable2 -------------------------------------------------------------

const char* sep_name(char sep) {
    return sep == '\t' ? "TAB" : "'|'";
}

/// The columns of a sacct header that the replay needs and it lacks, as sacct names them
/// (empty when none is missing).
std::string missing_sacct_columns(const std::map<std::string, int>& col) {
    auto has = [&](const char* n) { return col.contains(n); };
    std::vector<std::string> miss;
    if (!has("jobid") && !has("jobidraw")) miss.emplace_back("JobID");
    if (!has("submit")) miss.emplace_back("Submit");
    if (!has("nnodes") && !has("allocnodes") && !has("reqnodes")) miss.emplace_back("NNodes");
    if (!has("elapsed") && (!has("start") || !has("end"))) {
        if (has("start")) {
            miss.emplace_back("End or Elapsed");
        } else if (has("end")) {
            miss.emplace_back("Start or Elapsed");
        } else {
            miss.emplace_back("Elapsed (or Start and End)");
        }
    }
    std::string out;
    for (const auto& m : miss) out += (out.empty() ? "" : ", ") + m;
    return out;
}

Result<Trace> parse_sacct(const Lines& l, const std::string& source, char sep) {
    Trace t;
    t.source = source;
    t.format = "sacct";
    auto col = columns(l.all[l.header], sep);
    auto idx = [&](const char* name) {
        auto it = col.find(name);
        return it == col.end() ? -1 : it->second;
    };
    int c_id = idx("jobid");
    if (c_id < 0) c_id = idx("jobidraw");
    const int c_submit = idx("submit");
    const int c_start = idx("start");
    const int c_end = idx("end");
    const int c_elapsed = idx("elapsed");
    int c_nodes = idx("nnodes");
    if (c_nodes < 0) c_nodes = idx("allocnodes");
    if (c_nodes < 0) c_nodes = idx("reqnodes");
    const int c_alloc = idx("alloctres");
    const int c_req = idx("reqtres");
    const int c_limit = idx("timelimit");
    const int hline = static_cast<int>(l.header) + 1;
    const std::string missing = missing_sacct_columns(col);
    if (!missing.empty()) {
        return parse_error(source, hline,
                           std::string("this ") + sep_name(sep)
                               + "-separated sacct header lacks the columns the replay needs: " + missing
                               + " (re-run it as sacct -P --format=JobID,Submit,Start,End,Elapsed,NNodes,AllocTRES,"
                                 "Timelimit)");
    }
    const std::size_t ncols = split(l.all[l.header], sep).size();
    if (sep == '\t') {
        t.notes.push_back("read as a TAB-separated sacct -P export (" + std::to_string(ncols)
                          + " columns; the replay uses JobID, Submit, Start, End, Elapsed, NNodes, AllocTRES, "
                            "ReqTRES and Timelimit where present)");
    }
    std::map<std::string, int> reasons;
    for (std::size_t i = l.header + 1; i < l.all.size(); ++i) {
        const int line = static_cast<int>(i) + 1;
        std::string_view raw = l.all[i];
        if (trim(raw).empty()) continue;
        auto f = split(raw, sep);
        // --parsable (not 2) ends every line with the delimiter.
        if (f.size() == ncols + 1 && f.back().empty()) f.pop_back();
        if (f.size() != ncols) {
            return parse_error(source, line,
                               "expected " + std::to_string(ncols) + " " + sep_name(sep) + "-separated fields, found "
                                   + std::to_string(f.size()));
        }
        auto field = [&](int c) { return c < 0 ? std::string_view{} : trim(f[static_cast<std::size_t>(c)]); };
        std::string_view id = field(c_id);
        if (id.empty()) return parse_error(source, line, "empty JobID");
        if (id.find('.') != std::string_view::npos) {
            note_skip(t, reasons, "job steps (JobID with '.')");
            continue;
        }
        TraceJob j;
        j.id = std::string(id);
        j.line = line;
        auto submit = parse_sacct_time(field(c_submit));
        if (!submit) return parse_error(source, line, "bad Submit time '" + std::string(field(c_submit)) + "'");
        j.submit_s = *submit;
        std::optional<double> start = c_start >= 0 ? parse_sacct_time(field(c_start)) : std::nullopt;
        if (c_start >= 0 && !start) {
            std::string_view s = field(c_start);
            if (s == "Unknown" || s == "None" || s.empty()) {
                note_skip(t, reasons, "jobs that never started (Start Unknown/None)");
                continue;
            }
            return parse_error(source, line, "bad Start time '" + std::string(s) + "'");
        }
        double dur = -1;
        if (c_elapsed >= 0) {
            dur = parse_slurm_duration(field(c_elapsed)).value_or(-1);
            if (dur < 0) return parse_error(source, line, "bad Elapsed '" + std::string(field(c_elapsed)) + "'");
        } else {
            auto end = parse_sacct_time(field(c_end));
            if (!end) {
                note_skip(t, reasons, "jobs without an End time (still running)");
                continue;
            }
            dur = *end - *start;
            if (dur < 0) return parse_error(source, line, "End before Start");
        }
        if (start && *start < j.submit_s) return parse_error(source, line, "Start before Submit");
        auto nn = to_int(field(c_nodes));
        if (!nn || *nn < 0) return parse_error(source, line, "bad NNodes '" + std::string(field(c_nodes)) + "'");
        if (*nn == 0) {
            note_skip(t, reasons, "jobs with no nodes (never allocated)");
            continue;
        }
        j.nodes = static_cast<int>(*nn);
        long long gpus = c_alloc >= 0 ? tres_gpus(field(c_alloc)) : -1;
        if (gpus < 0 && c_req >= 0) gpus = tres_gpus(field(c_req));
        if (gpus > 0) j.gpus_per_node = static_cast<int>((gpus + j.nodes - 1) / j.nodes);
        if (c_limit >= 0) {
            std::string_view lim = field(c_limit);
            if (!lim.empty() && lim != "UNLIMITED" && lim != "Partition_Limit" && lim != "INVALID") {
                const auto v = parse_slurm_duration(lim);
                if (!v) return parse_error(source, line, "bad Timelimit '" + std::string(lim) + "'");
                j.timelimit_s = *v;
            }
        }
        j.duration_s = dur;
        if (j.timelimit_s > 0 && j.timelimit_s < j.duration_s) j.timelimit_s = j.duration_s;
        t.jobs.push_back(std::move(j));
    }
    flush_notes(t, reasons);
    finish(t);
    return t;
}

// ---- simple CSV ----------------------------------------------------------------------

Result<Trace> parse_simple_csv(const Lines& l, const std::string& source) {
    Trace t;
    t.source = source;
    t.format = "csv";
    auto head = split(l.all[l.header], ',');
    const bool with_limit = head.size() == 5;
    for (std::size_t i = l.header + 1; i < l.all.size(); ++i) {
        const int line = static_cast<int>(i) + 1;
        auto s = trim(l.all[i]);
        if (s.empty() || s.front() == '#') continue;
        auto f = split(s, ',');
        if (f.size() != head.size()) {
            return parse_error(source, line,
                               "expected " + std::to_string(head.size()) + " comma-separated fields, found "
                                   + std::to_string(f.size()));
        }
        auto submit = to_double(f[0]);
        auto dur = to_double(f[1]);
        auto nodes = to_int(f[2]);
        auto gpn = to_int(f[3]);
        if (!submit || *submit < 0) return parse_error(source, line, "bad submit_s '" + std::string(trim(f[0])) + "'");
        if (!dur || *dur < 0) return parse_error(source, line, "bad duration_s '" + std::string(trim(f[1])) + "'");
        if (!nodes || *nodes < 1 || *nodes > 1000000) {
            return parse_error(source, line, "bad nodes '" + std::string(trim(f[2])) + "' (an integer >= 1)");
        }
        if (!gpn || *gpn < 0 || *gpn > 4096) {
            return parse_error(source, line, "bad gpus_per_node '" + std::string(trim(f[3])) + "' (an integer >= 0)");
        }
        TraceJob j;
        j.id = "l" + std::to_string(line);
        j.line = line;
        j.submit_s = *submit;
        j.duration_s = *dur;
        j.nodes = static_cast<int>(*nodes);
        j.gpus_per_node = static_cast<int>(*gpn);
        if (with_limit) {
            auto lim = to_double(f[4]);
            if (!lim || *lim < 0) return parse_error(source, line, "bad timelimit_s '" + std::string(trim(f[4])) + "'");
            j.timelimit_s = std::max(*lim, j.duration_s);
        }
        t.jobs.push_back(std::move(j));
    }
    finish(t);
    return t;
}

// ---- Alibaba traces ------------------------------------------------------------------

struct PodCols {
    int name, gpus, creation, scheduled, deletion;
};

Result<Trace> parse_pods(const Lines& l, const std::string& source, const std::string& format, const PodCols& c) {
    Trace t;
    t.source = source;
    t.format = format;
    const std::size_t ncols = split(l.all[l.header], ',').size();
    std::map<std::string, int> reasons;
    for (std::size_t i = l.header + 1; i < l.all.size(); ++i) {
        const int line = static_cast<int>(i) + 1;
        auto s = l.all[i];
        if (trim(s).empty()) continue;
        auto f = split(s, ',');
        if (f.size() != ncols) {
            return parse_error(
                source, line,
                "expected " + std::to_string(ncols) + " comma-separated fields, found " + std::to_string(f.size()));
        }
        auto g = to_double(f[static_cast<std::size_t>(c.gpus)]);
        if (!g || *g < 0)
            return parse_error(source, line,
                               "bad GPU count '" + std::string(f[static_cast<std::size_t>(c.gpus)]) + "'");
        if (*g == 0) {
            note_skip(t, reasons, "CPU-only rows (0 GPUs)");
            continue;
        }
        auto time_at = [&](int col) -> std::optional<double> {
            auto v = trim(f[static_cast<std::size_t>(col)]);
            if (v.empty()) return std::nullopt;
            return to_double(v);
        };
        for (int col : {c.creation, c.scheduled, c.deletion}) {
            auto v = trim(f[static_cast<std::size_t>(col)]);
            if (!v.empty() && !to_double(v)) return parse_error(source, line, "bad time '" + std::string(v) + "'");
        }
        auto cr = time_at(c.creation);
        auto sc = time_at(c.scheduled);
        auto de = time_at(c.deletion);
        if (!cr || !sc || !de) {
            note_skip(t, reasons, "rows without creation, scheduled and deletion times");
            continue;
        }
        if (*sc < *cr || *de < *sc) {
            note_skip(t, reasons, "rows with times out of order");
            continue;
        }
        TraceJob j;
        j.id = std::string(trim(f[static_cast<std::size_t>(c.name)]));
        j.line = line;
        j.submit_s = *cr;
        j.duration_s = *de - *sc;
        j.nodes = 1;
        // Fractional GPU requests (GPU sharing) take one whole GPU here.
        j.gpus_per_node = static_cast<int>(std::ceil(*g));
        t.jobs.push_back(std::move(j));
    }
    flush_notes(t, reasons);
    finish(t);
    return t;
}

std::string not_a_trace(const std::map<std::string, int>& col) {
    auto has = [&](const char* n) { return col.count(n) != 0; };
    if (has("sn") && has("gpu") && has("model")) return "a node list (sn,cpu_milli,memory_mib,gpu,model)";
    if (has("gpu_model") && has("node_name")) return "a node list (gpu_model,gpu_capacity_num,...)";
    if (col.size() == 1 && (has("runtime") || has("duration_s"))) {
        return "a runtime sample (use it with --durations for the generator)";
    }
    if (has("time") && has("active") && has("total")) return "a utilization time series (time,active,total)";
    if (has("id") && has("job_num")) return "a per-cluster summary table";
    if (has("vc") && has("node num")) return "a virtual-cluster size table";
    if (has("date") && has("total")) return "a daily quota table";
    if (has("num_gpu") && has("gpu_milli")) return "a pod list without times (sizes only)";
    return "";
}

}  // namespace

namespace {

/// Seconds of a Slurm duration, -1 when it is not one.
double duration_seconds(std::string_view s) noexcept {
    s = trim(s);
    if (s.empty()) return -1;
    double days = 0;
    auto dash = s.find('-');
    if (dash != std::string_view::npos) {
        auto d = to_int(s.substr(0, dash));
        if (!d || *d < 0) return -1;
        days = static_cast<double>(*d);
        s = s.substr(dash + 1);
    }
    auto parts = split(s, ':');
    if (parts.empty() || parts.size() > 3) return -1;
    // D-HH, D-HH:MM, D-HH:MM:SS, HH:MM:SS, MM:SS, MM:SS.mmm
    double h = 0;
    double m = 0;
    double sec = 0;
    if (dash != std::string_view::npos) {
        std::vector<double> v;
        for (auto p : parts) {
            auto x = to_int(p);
            if (!x || *x < 0) return -1;
            v.push_back(static_cast<double>(*x));
        }
        h = v[0];
        if (v.size() > 1) m = v[1];
        if (v.size() > 2) sec = v[2];
    } else {
        if (parts.size() < 2) return -1;
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            auto x = to_int(parts[i]);
            if (!x || *x < 0) return -1;
            if (parts.size() == 3 && i == 0) {
                h = static_cast<double>(*x);
            } else {
                m = static_cast<double>(*x);
            }
        }
        auto last = to_double(parts.back());
        if (!last || *last < 0) return -1;
        sec = *last;
    }
    if (m >= 60 || sec >= 61) return -1;
    return days * 86400 + h * 3600 + m * 60 + sec;
}

}  // namespace

std::optional<double> parse_slurm_duration(std::string_view s) noexcept {
    const double v = duration_seconds(s);
    if (v < 0) return std::nullopt;
    return v;
}

Result<Trace> parse_trace(std::string_view text, const std::string& source) {
    if (looks_binary(text)) return parse_error(source, 1, "binary data, not a job trace");
    Lines l = lines_of(text);
    if (l.header >= l.all.size()) return parse_error(source, 1, "empty trace (no header line)");
    std::string_view head = trim(l.all[l.header]);
    const int hline = static_cast<int>(l.header) + 1;
    // sacct -P: '|' by default, any --delimiter (TAB is the common one); the header says which
    const auto tabs = std::count(head.begin(), head.end(), '\t');
    const auto pipes = std::count(head.begin(), head.end(), '|');
    if (tabs > 0 || pipes > 0) {
        const char sep = tabs >= pipes ? '\t' : '|';
        auto col = columns(head, sep);
        if (col.contains("jobid") || col.contains("jobidraw")) return parse_sacct(l, source, sep);
        if (sep == '|') {
            return parse_error(source, hline, "'|'-separated header without JobID: not a sacct --parsable2 export");
        }
        return parse_error(source, hline,
                           "TAB-separated header without JobID: not a sacct -P export (the replay needs "
                               + missing_sacct_columns(col) + ")");
    }
    auto col = columns(head, ',');
    auto has = [&](const char* n) { return col.count(n) != 0; };
    if (has("submit_s") && has("duration_s") && has("nodes") && has("gpus_per_node")) {
        auto f = split(head, ',');
        const bool ok4 = f.size() == 4;
        const bool ok5 = f.size() == 5 && has("timelimit_s") && col["timelimit_s"] == 4;
        if ((ok4 || ok5) && col["submit_s"] == 0 && col["duration_s"] == 1 && col["nodes"] == 2
            && col["gpus_per_node"] == 3) {
            return parse_simple_csv(l, source);
        }
        return parse_error(source, hline, "CSV header must be submit_s,duration_s,nodes,gpus_per_node[,timelimit_s]");
    }
    if (has("name") && has("num_gpu") && has("creation_time") && has("deletion_time") && has("scheduled_time")) {
        return parse_pods(
            l, source, "alibaba-openb",
            PodCols{col["name"], col["num_gpu"], col["creation_time"], col["scheduled_time"], col["deletion_time"]});
    }
    if (has("instance_sn") && has("gpu_request") && has("creation_time") && has("scheduled_time")
        && has("deletion_time")) {
        return parse_pods(l, source, "alibaba-dlrm",
                          PodCols{col["instance_sn"], col["gpu_request"], col["creation_time"], col["scheduled_time"],
                                  col["deletion_time"]});
    }
    std::string what = not_a_trace(col);
    if (!what.empty()) return parse_error(source, hline, "not a job trace: this looks like " + what);
    // sacct's default, fixed-width table: "JobID    JobName  Partition ..." over a line of
    // dashes. Its columns are cut to width ("pbe_fe_2_+"), so it cannot be read reliably.
    {
        const auto f = split_words(head);
        const bool has_jobid = std::any_of(f.begin(), f.end(), [](std::string_view w) {
            std::string x(w);
            for (char& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return x == "jobid" || x == "jobidraw";
        });
        std::string_view next = l.header + 1 < l.all.size() ? trim(l.all[l.header + 1]) : std::string_view{};
        const bool dashes = !next.empty() && next.find_first_not_of("- ") == std::string_view::npos;
        if (has_jobid && (dashes || f.size() >= 3)) {
            return parse_error(source, hline,
                               "this is sacct's fixed-width table (columns cut to width, no separator): re-run it as "
                               "sacct -P -a -X -S START -E END --format=JobID,Submit,Start,End,Elapsed,NNodes,"
                               "AllocTRES,Timelimit > trace.txt");
        }
    }
    return parse_error(source, hline,
                       "unknown trace format (want a sacct --parsable2 export, a CSV "
                       "submit_s,duration_s,nodes,gpus_per_node[,timelimit_s], or an Alibaba pod/instance list)");
}

Result<Trace> read_trace_file(const std::string& path) {
    auto text = read_text_file(path, std::size_t{1} << 30);
    if (!text) return fail(text.error());
    return parse_trace(*text, path);
}

Result<std::vector<double>> parse_runtime_samples(std::string_view text, const std::string& source) {
    Lines l = lines_of(text);
    if (l.header >= l.all.size()) return parse_error(source, 1, "empty runtime sample");
    auto head = ascii_lower(trim(l.all[l.header]));
    if (head != "runtime" && head != "duration_s") {
        return parse_error(source, static_cast<int>(l.header) + 1,
                           "runtime sample header must be 'runtime' or 'duration_s'");
    }
    std::vector<double> v;
    for (std::size_t i = l.header + 1; i < l.all.size(); ++i) {
        auto s = trim(l.all[i]);
        if (s.empty()) continue;
        auto x = to_double(s);
        if (!x || *x < 0) return parse_error(source, static_cast<int>(i) + 1, "bad runtime '" + std::string(s) + "'");
        v.push_back(*x);
    }
    if (v.empty()) return parse_error(source, static_cast<int>(l.header) + 1, "runtime sample has no values");
    return v;
}

Result<std::vector<double>> read_runtime_samples(const std::string& path) {
    auto text = read_text_file(path, std::size_t{1} << 30);
    if (!text) return fail(text.error());
    return parse_runtime_samples(*text, path);
}

// ---- generator -----------------------------------------------------------------------

double Rng::exponential(double rate) noexcept {
    return -std::log1p(-uniform()) / rate;
}

double Rng::normal() noexcept {
    const double u1 = 1.0 - uniform();  // (0, 1]
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

Result<Trace> generate_trace(const GeneratorOptions& o) {
    if (o.jobs < 1) return fail(Errc::InvalidArgument, "generator: --generate needs at least 1 job");
    if (o.cluster_nodes < 1) return fail(Errc::InvalidArgument, "generator: the cluster has no compute nodes");
    if (!(o.load > 0 && o.load <= 10)) return fail(Errc::InvalidArgument, "generator: --load must be in (0, 10]");
    if (o.gpus_per_node < 0) return fail(Errc::InvalidArgument, "generator: gpus_per_node < 0");
    int max_nodes = o.max_nodes > 0 ? o.max_nodes : std::max(1, std::min(o.cluster_nodes / 4, 256));
    max_nodes = std::min(max_nodes, o.cluster_nodes);
    Rng rng(o.seed ^ 0x746f706f706c6163ULL);
    Trace t;
    t.format = "generated";
    t.source = "generated(jobs=" + std::to_string(o.jobs) + ",seed=" + std::to_string(o.seed) + ")";
    // Multi-node size classes 2^k, k = 1..K, weighted size_decay^k.
    std::vector<double> w;
    for (int k = 1; (1 << k) <= max_nodes; ++k) w.push_back(std::pow(o.size_decay, k));
    const double wsum = std::accumulate(w.begin(), w.end(), 0.0);
    double work = 0;
    t.jobs.reserve(static_cast<std::size_t>(o.jobs));
    for (int i = 0; i < o.jobs; ++i) {
        TraceJob j;
        char id[32];
        std::snprintf(id, sizeof id, "j%06d", i + 1);
        j.id = id;
        j.gpus_per_node = o.gpus_per_node;
        if (w.empty() || rng.uniform() < o.single_node_share) {
            j.nodes = 1;
            if (o.gpus_per_node >= 2 && rng.uniform() < o.partial_gpu_share) {
                // 1, 2 or 4 GPUs (halves), never a whole node.
                const int choices[] = {1, 2, 4};
                int g = choices[static_cast<int>(rng.uniform() * 3)];
                while (g >= o.gpus_per_node) g /= 2;
                j.gpus_per_node = std::max(1, g);
            }
        } else {
            double u = rng.uniform() * wsum;
            std::size_t k = 0;
            while (k + 1 < w.size() && u >= w[k]) {
                u -= w[k];
                ++k;
            }
            int n = 1 << (k + 1);
            if (rng.uniform() >= o.pow2_share) {
                // A size between the previous power of two and this one.
                const int lo = n / 2 + 1;
                n = lo + static_cast<int>(rng.uniform() * (n - lo));
                n = std::max(2, n);
            }
            j.nodes = std::min(n, max_nodes);
        }
        double d = 0;
        if (!o.duration_samples.empty()) {
            d = o.duration_samples[static_cast<std::size_t>(rng.uniform()
                                                            * static_cast<double>(o.duration_samples.size()))];
        } else {
            d = o.median_duration_s * std::exp(o.sigma * rng.normal());
        }
        j.duration_s = std::round(std::clamp(d, o.min_duration_s, o.max_duration_s));
        const double factor = 1.2 + 1.8 * rng.uniform();
        j.timelimit_s = std::ceil(j.duration_s * factor / 300.0) * 300.0;
        const double share = o.gpus_per_node > 0 ? static_cast<double>(j.gpus_per_node) / o.gpus_per_node : 1.0;
        work += j.nodes * j.duration_s * share;
        t.jobs.push_back(std::move(j));
    }
    // Poisson arrivals over the span that gives the offered load.
    const double span = work / (o.load * o.cluster_nodes);
    const double rate = static_cast<double>(o.jobs) / span;
    double now = 0;
    for (auto& j : t.jobs) {
        j.submit_s = std::round(now);
        now += rng.exponential(rate);
    }
    t.notes.push_back("generated: " + std::to_string(o.jobs) + " jobs, sizes 1.." + std::to_string(max_nodes)
                      + " nodes, offered load " + std::to_string(o.load) + " on " + std::to_string(o.cluster_nodes)
                      + " nodes");
    return t;
}

double offered_load(const Trace& t, int cluster_nodes) {
    if (t.jobs.empty() || cluster_nodes <= 0) return 0;
    double work = 0;
    int gmax = 0;
    for (const auto& j : t.jobs) gmax = std::max(gmax, j.gpus_per_node);
    for (const auto& j : t.jobs) {
        const double share = gmax > 0 && j.gpus_per_node > 0 ? static_cast<double>(j.gpus_per_node) / gmax : 1.0;
        work += j.nodes * j.duration_s * share;
    }
    const double span = t.jobs.back().submit_s - t.jobs.front().submit_s;
    if (span <= 0) return 0;
    return work / (cluster_nodes * span);
}

}  // namespace topo::whatif
