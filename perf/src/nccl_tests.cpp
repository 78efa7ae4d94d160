// SPDX-License-Identifier: Apache-2.0
// nccl-tests output and the calibration fit (docs/perf-model.md "Calibration").
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <set>

#include <topo/perf/nccl_tests.hpp>
#include <topo/text_input.hpp>

namespace topo::perf {

namespace {

bool to_double(std::string_view s, double& v) {
    if (s.empty()) return false;
    const char* b = s.data();
    const char* e = b + s.size();
    auto r = std::from_chars(b, e, v);
    return r.ec == std::errc() && r.ptr == e && std::isfinite(v);
}

bool is_uint(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_type(std::string_view s) {
    for (std::string_view t : {"float", "half", "bfloat16", "double", "int8", "uint8", "int32", "uint32", "int64",
                               "uint64", "int", "char", "f8e4m3", "f8e5m2", "fp8_e4m3", "fp8_e5m2"}) {
        if (s == t) return true;
    }
    return false;
}

/// Strip what launchers and pages put before a line: srun's "0: ", indentation, a Markdown
/// quote. (mpirun's tags are taken out before, by untag().)
std::string_view unwrap(std::string_view l) {
    l = trim(l);
    if (!l.empty() && l.front() == '>') l = trim(l.substr(1));
    std::size_t d = 0;
    while (d < l.size() && l[d] >= '0' && l[d] <= '9') ++d;
    if (d > 0 && d < l.size() && l[d] == ':' && (d + 1 == l.size() || l[d + 1] == ' ')) l = trim(l.substr(d + 1));
    return l;
}

/// A line as the program wrote it, and the 1-based line of the file where it starts.
struct Line {
    std::string_view text;
    int no = 0;
};

/// One `--tag-output` tag in a line: `[1,0]<stdout>:`, `[1,3]<stderr>:`,
/// `[prterun-host-1@1,0]<stdout>:`; `key` is the whole tag (one stream of one rank).
struct Tag {
    std::size_t at = 0, len = 0;
    std::string_view key;
};

std::vector<Tag> tags_in(std::string_view l) {
    std::vector<Tag> out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t c = l.find("]<std", from);
        if (c == std::string_view::npos) return out;
        std::size_t end = 0;
        for (std::string_view s : {"]<stdout>:", "]<stderr>:", "]<stddiag>:"}) {
            if (l.substr(c, s.size()) == s) end = c + s.size();
        }
        // the opening bracket, at most 128 characters back and after the previous tag
        const std::size_t lo = std::max(from, c > 128 ? c - 128 : std::size_t{0});
        const std::size_t open = l.substr(lo, c - lo).rfind('[');
        const std::size_t b = open == std::string_view::npos ? open : lo + open;
        const bool ok = end != 0 && b != std::string_view::npos && c - b > 1
                        && l.substr(b + 1, c - b - 1).find_first_of(" \t[]") == std::string_view::npos;
        if (ok) out.push_back(Tag{b, end - b, l.substr(b, end - b)});
        from = ok ? end : c + 1;
    }
}

/// Put back together what mpirun --tag-output interleaved: each tag starts a piece of
/// its rank's stream; a line's last piece ends at the newline, the others wait for the
/// rest of their line. Untagged lines pass as they are.
std::vector<Line> untag(const std::vector<std::string_view>& lines, std::deque<std::string>& store,
                        const std::string& source, std::vector<std::string>* notes) {
    std::vector<Line> out;
    out.reserve(lines.size());

    struct Pending {
        std::string text;
        int no = 0;
    };

    std::map<std::string_view, Pending> pending;
    int tagged = 0;
    int middle = 0;
    int dropped = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int no = static_cast<int>(i) + 1;
        const std::string_view l = lines[i];
        const auto tags = tags_in(l);
        if (tags.empty()) {
            out.push_back(Line{l, no});
            continue;
        }
        ++tagged;
        // Before the first tag: the start of a row cut by a write (kept), or a timestamp
        // or a launcher's words (dropped).
        const std::string_view before = l.substr(0, tags[0].at);
        const auto bw = split_words(before);
        const bool row_start = !bw.empty() && (is_uint(bw[0]) || bw[0].front() == '#');
        if (row_start) ++middle;
        if (!bw.empty() && !row_start) ++dropped;
        middle += static_cast<int>(tags.size()) - 1;
        for (std::size_t k = 0; k < tags.size(); ++k) {
            const std::size_t b = tags[k].at + tags[k].len;
            const std::size_t e = k + 1 < tags.size() ? tags[k + 1].at : l.size();
            Pending& p = pending[tags[k].key];
            if (p.no == 0) p.no = no;
            if (k == 0 && row_start) p.text += before;
            p.text += l.substr(b, e - b);
            if (k + 1 == tags.size()) {
                store.push_back(std::move(p.text));
                out.push_back(Line{store.back(), p.no});
                pending.erase(tags[k].key);
            }
        }
    }
    std::vector<Line> rest;
    for (auto& [key, p] : pending) {
        store.push_back(std::move(p.text));
        rest.push_back(Line{store.back(), p.no});
    }
    std::sort(rest.begin(), rest.end(), [](const Line& a, const Line& b) { return a.no < b.no; });
    out.insert(out.end(), rest.begin(), rest.end());
    if (notes != nullptr && tagged > 0) {
        std::string n =
            source + ": mpirun --tag-output tags ([1,N]<stdout>:) taken out of " + std::to_string(tagged) + " lines";
        if (middle > 0) {
            n += ", " + std::to_string(middle)
               + " in the middle of a line (a row written in pieces, or another rank's line inside it: put back "
                 "together)";
        }
        if (dropped > 0) n += "; text before the tag dropped on " + std::to_string(dropped) + " lines";
        notes->push_back(n);
    }
    return out;
}

Unexpected parse_error(const std::string& source, int line, std::string msg) {
    return fail(Errc::Parse, std::move(msg), source, line);
}

}  // namespace

Result<std::vector<NcclRun>> parse_nccl_tests(std::string_view text, const std::string& source,
                                              std::vector<std::string>* notes) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    if (looks_binary(text)) return parse_error(source, 1, "binary data, not nccl-tests output");
    const auto physical = split_lines(text);
    std::deque<std::string> store;  // lines put back together, and pipe tables turned into blanks
    std::vector<Line> lines;
    if (text.find("]<std") != std::string_view::npos) {
        lines = untag(physical, store, source, notes);
    } else {
        lines.reserve(physical.size());
        for (std::size_t i = 0; i < physical.size(); ++i) lines.push_back(Line{physical[i], static_cast<int>(i) + 1});
    }
    // Lines of bare numbers after a comment or prose line: a list wrapped by the page.
    enum class Prev { None, Comment, Row, Prose, List };
    Prev prev = Prev::None;
    int list_first = 0;
    int list_last = 0;
    int list_lines = 0;
    auto flush_list = [&]() {
        if (list_lines == 0) return;
        if (notes != nullptr) {
            const std::string where = list_first == list_last
                                          ? "line " + std::to_string(list_first)
                                          : "lines " + std::to_string(list_first) + "-" + std::to_string(list_last);
            notes->push_back(source + ": " + where + ": " + std::to_string(list_lines)
                             + (list_lines == 1 ? " line" : " lines")
                             + " of bare numbers skipped (a device or rank list wrapped onto lines of its own)");
        }
        list_lines = 0;
    };
    std::vector<NcclRun> runs;
    NcclRun cur;
    bool in_table = false;
    std::set<std::string> seen_hosts;
    std::string collective;
    auto close = [&]() {
        if (!cur.rows.empty()) runs.push_back(std::move(cur));
        cur = NcclRun{};
        seen_hosts.clear();
        in_table = false;
    };
    for (const Line& line : lines) {
        const int no = line.no;
        std::string_view l = unwrap(line.text);
        if (l.empty()) continue;
        if (l.front() == '|') {  // a Markdown pipe table: the pipes are blanks
            std::string blanked(l);
            std::replace(blanked.begin(), blanked.end(), '|', ' ');
            store.push_back(std::move(blanked));
            l = trim(store.back());
            if (l.empty()) continue;
        }
        if (l.front() == '#') {
            flush_list();
            prev = Prev::Comment;
            const auto w = split_words(l.substr(1));
            if (!w.empty() && w[0] == "size" && l.find("busbw") != std::string_view::npos) {
                if (!cur.rows.empty()) close();
                in_table = true;
                if (cur.first_line == 0) cur.first_line = no;
                continue;
            }
            if (w.size() >= 2 && w[0] == "Rank" && l.find(" on ") != std::string_view::npos) {
                if (!cur.rows.empty()) close();
                if (cur.first_line == 0) cur.first_line = no;
                ++cur.ranks;
                auto on = l.find(" on ");
                auto hw = split_words(l.substr(on + 4));
                if (!hw.empty() && seen_hosts.insert(std::string(hw[0])).second) cur.hosts.emplace_back(hw[0]);
                continue;
            }
            if (l.find("Avg bus bandwidth") != std::string_view::npos) {
                auto colon = l.rfind(':');
                double v = 0;
                if (colon != std::string_view::npos && to_double(trim(l.substr(colon + 1)), v)) cur.avg_busbw = v;
                continue;
            }
            if (l.find("Collective test starting:") != std::string_view::npos) {
                auto w2 = split_words(l.substr(l.find(':') + 1));
                if (!w2.empty()) {
                    std::string c(w2[0]);
                    if (c.size() > 5 && c.substr(c.size() - 5) == "_perf") c.resize(c.size() - 5);
                    collective = c;
                }
            }
            continue;
        }
        const auto w = split_words(l);
        // A table row: size count type [redop] [root] time algbw busbw wrong [time algbw busbw wrong]
        const bool row_like = w.size() >= 3 && is_uint(w[0]) && is_uint(w[1]) && is_type(w[2]);
        if (!row_like) {
            const bool bare = !w.empty() && std::all_of(w.begin(), w.end(), is_uint);
            if (bare && prev != Prev::Row) {
                if (prev != Prev::List) {
                    flush_list();
                    list_first = no;
                }
                list_last = no;
                ++list_lines;
                prev = Prev::List;
                continue;
            }
            flush_list();
            if (in_table && !cur.rows.empty() && !w.empty() && is_uint(w[0])) {
                return parse_error(source, no,
                                   "a result row needs size, count, type and the time/algbw/busbw columns: \""
                                       + std::string(l.substr(0, 80)) + "\"");
            }
            prev = Prev::Prose;
            continue;  // prose, commands, NCCL INFO lines, a fence
        }
        flush_list();
        prev = Prev::Row;
        std::size_t k = 3;
        if (k < w.size() && !is_uint(w[k]) && w[k].find('.') == std::string_view::npos && w[k] != "N/A") ++k;  // redop
        if (k < w.size() && (w[k] == "-1" || is_uint(w[k])) && w.size() - k == 9) ++k;                         // root
        const std::size_t left = w.size() - k;
        if (left != 8 && left != 4) {
            return parse_error(source, no,
                               "a result row needs 4 or 8 time/algbw/busbw/error columns after size, count, type"
                               " (got "
                                   + std::to_string(left) + "): \"" + std::string(l.substr(0, 80)) + "\"");
        }
        NcclRow r;
        r.line = no;
        double count = 0;
        if (!to_double(w[0], r.bytes) || !to_double(w[1], count) || !to_double(w[k + 2], r.busbw_out)
            || (left == 8 && !to_double(w[k + 6], r.busbw_in))) {
            return parse_error(source, no,
                               "a size or bus bandwidth is not a number: \"" + std::string(l.substr(0, 80)) + "\"");
        }
        if (!cur.rows.empty() && r.bytes < cur.rows.back().bytes) close();  // a second table
        if (cur.first_line == 0) cur.first_line = no;
        cur.collective = collective;
        in_table = true;
        cur.rows.push_back(r);
    }
    flush_list();
    close();
    if (runs.empty()) {
        return parse_error(source, 1,
                           "not nccl-tests output: no result table (a line \"#  size  count  type ... busbw\" "
                           "followed by rows)");
    }
    return runs;
}

Result<std::vector<NcclRun>> read_nccl_tests(const std::string& path, std::vector<std::string>* notes) {
    auto text = read_text_file(path, std::size_t{64} << 20);
    if (!text) return fail(text.error());
    return parse_nccl_tests(*text, path, notes);
}

namespace {

Result<Fit> fit_ratio(const std::string& what, const Measurement& base, const Measurement& m, double min_bytes) {
    std::map<double, double> b;
    for (const auto& r : base.run.rows) {
        if (r.bytes >= min_bytes && r.busbw_out > 0) b[r.bytes] = r.busbw_out;
    }
    Fit f;
    f.what = what;
    double log_sum = 0;
    for (const auto& r : m.run.rows) {
        auto it = b.find(r.bytes);
        if (it == b.end() || r.busbw_out <= 0) continue;
        const double ratio = it->second / r.busbw_out;
        f.points.push_back({r.bytes, ratio, 0});
        log_sum += std::log(ratio);
    }
    if (f.points.empty()) {
        char mb[32];
        std::snprintf(mb, sizeof mb, "%.0f MiB", min_bytes / (1024.0 * 1024.0));
        return fail(Errc::InvalidArgument, what + ": " + m.source + " (" + m.label + ") and " + base.source + " ("
                                               + base.label + ") have no message size >= " + mb
                                               + " in common with a bus bandwidth");
    }
    f.value = std::exp(log_sum / static_cast<double>(f.points.size()));
    for (auto& p : f.points) {
        p.residual = p.ratio / f.value - 1.0;
        f.max_abs_residual = std::max(f.max_abs_residual, std::abs(p.residual));
    }
    return f;
}

}  // namespace

Result<Calibration> calibrate(const Params& base, const Measurement& leaf, const Measurement* pod,
                              const Measurement* cross_pod, const Measurement* shared, double min_bytes) {
    Calibration c;
    c.params = base;
    c.params.overridden.clear();
    const char* fabric_names[] = {"ib-ar", "roce-eecmp", "roce-ecmp"};
    if (pod != nullptr) {
        auto f = fit_ratio("tier_collective[2]", leaf, *pod, min_bytes);
        if (!f) return fail(f.error());
        if (f->value < 1.0)
            c.notes.push_back("across leaf groups was faster than inside one (" + std::to_string(f->value)
                              + "): factor kept at 1");
        c.params.tier_collective[2] = std::max(1.0, f->value);
        c.params.overridden.emplace_back("tier_collective", "calibrate");
        c.fits.push_back(std::move(*f));
    } else {
        c.notes.push_back("no run across leaf groups of one pod (--pod): tier_collective[2] stays "
                          + std::to_string(base.tier_collective[2]));
    }
    if (cross_pod != nullptr) {
        auto f = fit_ratio("tier_collective[3]", leaf, *cross_pod, min_bytes);
        if (!f) return fail(f.error());
        c.params.tier_collective[3] = std::max(c.params.tier_collective[2], f->value);
        c.params.overridden.emplace_back("tier_collective", "calibrate");
        c.fits.push_back(std::move(*f));
    } else {
        c.notes.push_back("no run across pods (--cross-pod): tier_collective[3] stays "
                          + std::to_string(base.tier_collective[3]));
    }
    if (shared != nullptr) {
        const Measurement& ref = pod != nullptr ? *pod : leaf;
        auto f = fit_ratio(std::string("kappa[") + fabric_names[static_cast<int>(base.fabric)] + "]", ref, *shared,
                           min_bytes);
        if (!f) return fail(f.error());
        // M_share = 1 + kappa u with u = 1: kappa = ratio - 1
        const double kappa = std::max(0.0, f->value - 1.0);
        c.params.kappa[static_cast<std::size_t>(base.fabric)] = kappa;
        c.params.overridden.emplace_back("kappa", "calibrate");
        f->value = kappa;
        c.fits.push_back(std::move(*f));
    } else {
        c.notes.push_back("no run beside a background job (--shared): kappa stays at its default");
    }
    c.notes.push_back("P2P tier factors (tier_p2p), phi and oversubscription are not fitted from collective runs");
    return c;
}

}  // namespace topo::perf
