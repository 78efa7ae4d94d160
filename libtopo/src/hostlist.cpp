// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <tuple>

#include <topo/hostlist.hpp>
#include <topo/text_input.hpp>

namespace topo {
namespace {

// Longest digit string we treat as a number. Longer runs (GUID-like names) are text:
// 18 digits always fit in uint64_t.
constexpr std::size_t kMaxDigits = 18;

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string pad_number(std::uint64_t v, std::size_t width) {
    std::string digits = std::to_string(v);
    if (digits.size() < width) {
        digits.insert(0, width - digits.size(), '0');
    }
    return digits;
}

// One element of a bracket group: lo..hi printed with at least `width` digits.
struct Range {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    std::size_t width = 0;
};

// A parsed token: literal text interleaved with bracket groups,
// e.g. "rack[1-2]-n[01-02]" -> {"rack", [1-2], "-n", [01-02], ""}.
struct Pattern {
    std::vector<std::string> texts;          // texts.size() == groups.size() + 1
    std::vector<std::vector<Range>> groups;  // each group: ranges in written order
};

Unexpected hostlist_error(std::string_view expr, const std::string& why) {
    // The expression may be a user's 64 KiB request: quote at most its start.
    constexpr std::size_t kQuote = 80;
    std::string shown(expr.substr(0, kQuote));
    if (expr.size() > kQuote) {
        shown += "...(" + std::to_string(expr.size()) + " bytes)";
    }
    return fail(Errc::Parse, "bad hostlist \"" + shown + "\": " + why);
}

Result<std::uint64_t> parse_number(std::string_view s, std::string_view expr) {
    if (s.empty()) {
        return hostlist_error(expr, "empty number in range");
    }
    if (!std::all_of(s.begin(), s.end(), is_digit)) {
        return hostlist_error(expr, "\"" + std::string(s) + "\" is not a number");
    }
    if (s.size() > kMaxDigits) {
        return hostlist_error(expr, "number \"" + std::string(s) + "\" is too long");
    }
    std::uint64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

// Parse "1-3,5,007-010" (the text between brackets).
Result<std::vector<Range>> parse_group(std::string_view body, std::string_view expr) {
    std::vector<Range> out;
    if (trim(body).empty()) {
        return hostlist_error(expr, "empty brackets");
    }
    std::size_t pos = 0;
    while (pos <= body.size()) {
        std::size_t comma = body.find(',', pos);
        if (comma == std::string_view::npos) {
            comma = body.size();
        }
        std::string_view item = trim(body.substr(pos, comma - pos));
        if (item.empty()) {
            return hostlist_error(expr, "empty range in brackets");
        }
        Range r;
        std::size_t dash = item.find('-');
        std::string_view lo_s = trim(item.substr(0, dash));
        auto lo = parse_number(lo_s, expr);
        if (!lo) {
            return fail(lo.error());
        }
        r.lo = r.hi = *lo;
        // Slurm: the width of a range is the number of digits of its low end.
        r.width = lo_s.size();
        if (dash != std::string_view::npos) {
            auto hi = parse_number(trim(item.substr(dash + 1)), expr);
            if (!hi) {
                return fail(hi.error());
            }
            r.hi = *hi;
            if (r.hi < r.lo) {
                return hostlist_error(expr, "reversed range \"" + std::string(item) + "\"");
            }
        }
        out.push_back(r);
        pos = comma + 1;
    }
    return out;
}

Result<Pattern> parse_token(std::string_view tok, std::string_view expr) {
    Pattern p;
    std::string text;
    std::size_t i = 0;
    while (i < tok.size()) {
        char c = tok[i];
        if (c == ']') {
            return hostlist_error(expr, "unbalanced ']'");
        }
        if (c != '[') {
            text.push_back(c);
            ++i;
            continue;
        }
        std::size_t close = tok.find_first_of("[]", i + 1);
        if (close == std::string_view::npos || tok[close] != ']') {
            return hostlist_error(expr, close == std::string_view::npos ? "unbalanced '['" : "nested '['");
        }
        auto group = parse_group(tok.substr(i + 1, close - i - 1), expr);
        if (!group) {
            return fail(group.error());
        }
        p.texts.push_back(std::move(text));
        text.clear();
        p.groups.push_back(std::move(*group));
        i = close + 1;
    }
    p.texts.push_back(std::move(text));
    return p;
}

// Number of names a pattern yields, saturating at limit + 1.
std::size_t pattern_size(const Pattern& p, std::size_t limit) {
    std::size_t total = 1;
    for (const auto& g : p.groups) {
        std::size_t n = 0;
        for (const auto& r : g) {
            std::uint64_t span = r.hi - r.lo;
            if (span >= limit || n + span + 1 > limit) {
                return limit + 1;
            }
            n += static_cast<std::size_t>(span) + 1;
        }
        if (n != 0 && total > (limit + 1) / n) {
            return limit + 1;
        }
        total *= n;
        if (total > limit) {
            return limit + 1;
        }
    }
    return total;
}

// Longest name a pattern yields: its texts plus, per group, the widest number printed.
std::size_t pattern_max_length(const Pattern& p) {
    std::size_t n = 0;
    for (const auto& t : p.texts) {
        n += t.size();
    }
    for (const auto& g : p.groups) {
        std::size_t w = 0;
        for (const auto& r : g) {
            w = std::max({w, r.width, std::to_string(r.hi).size()});
        }
        n += w;
    }
    return n;
}

void expand_pattern(const Pattern& p, std::size_t level, std::string& acc, std::vector<std::string>& out) {
    std::size_t keep = acc.size();
    acc += p.texts[level];
    if (level == p.groups.size()) {
        out.push_back(acc);
        acc.resize(keep);
        return;
    }
    std::size_t mid = acc.size();
    for (const auto& r : p.groups[level]) {
        for (std::uint64_t v = r.lo;; ++v) {
            acc += pad_number(v, r.width);
            expand_pattern(p, level + 1, acc, out);
            acc.resize(mid);
            if (v == r.hi) {
                break;
            }
        }
    }
    acc.resize(keep);
}

// ---- compression ----

// A host name split around its last run of digits: prefix + digits + suffix.
struct NameParts {
    std::string prefix;
    std::string suffix;
    bool numbered = false;
    std::uint64_t value = 0;
    std::size_t width = 0;  // digits as written
    std::string name;
};

NameParts split_name(std::string name) {
    NameParts p;
    std::size_t end = name.size();
    while (end > 0 && !is_digit(name[end - 1])) {
        --end;
    }
    std::size_t begin = end;
    while (begin > 0 && is_digit(name[begin - 1])) {
        --begin;
    }
    if (end > begin && end - begin <= kMaxDigits) {
        p.numbered = true;
        p.prefix = name.substr(0, begin);
        p.suffix = name.substr(end);
        p.width = end - begin;
        std::from_chars(name.data() + begin, name.data() + end, p.value);
    } else {
        p.prefix = name;
    }
    p.name = std::move(name);
    return p;
}

// Natural order: digit runs compare by value, then by length (fewer leading zeros first).
int natural_compare(std::string_view a, std::string_view b) noexcept {
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (is_digit(a[i]) && is_digit(b[j])) {
            std::size_t i0 = i;
            std::size_t j0 = j;
            while (i0 < a.size() && a[i0] == '0') {
                ++i0;
            }
            while (j0 < b.size() && b[j0] == '0') {
                ++j0;
            }
            std::size_t i1 = i0;
            std::size_t j1 = j0;
            while (i1 < a.size() && is_digit(a[i1])) {
                ++i1;
            }
            while (j1 < b.size() && is_digit(b[j1])) {
                ++j1;
            }
            if (i1 - i0 != j1 - j0) {
                return i1 - i0 < j1 - j0 ? -1 : 1;
            }
            int c = a.substr(i0, i1 - i0).compare(b.substr(j0, j1 - j0));
            if (c != 0) {
                return c < 0 ? -1 : 1;
            }
            if (i1 - i != j1 - j) {
                return i1 - i < j1 - j ? -1 : 1;
            }
            i = i1;
            j = j1;
            continue;
        }
        if (a[i] != b[j]) {
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
        }
        ++i;
        ++j;
    }
    if (i == a.size() && j == b.size()) {
        return 0;
    }
    return i == a.size() ? -1 : 1;
}

// Slurm's hostrange_cmp: prefix (natural), plain names before numbered ones, then the
// number; we add the suffix before the number so "n1-ib,n2-ib" can share brackets.
bool parts_less(const NameParts& a, const NameParts& b) {
    if (int c = natural_compare(a.prefix, b.prefix); c != 0) {
        return c < 0;
    }
    if (a.numbered != b.numbered) {
        return !a.numbered;
    }
    if (int c = natural_compare(a.suffix, b.suffix); c != 0) {
        return c < 0;
    }
    return std::tie(a.value, a.width, a.name) < std::tie(b.value, b.width, b.name);
}

// Calls f(pattern) for each token of expr, after checking the name-length bound and that
// the running count stays within limit; returns the count (saturating at limit + 1).
template <class F>
Result<std::size_t> for_each_pattern(std::string_view expr, std::size_t limit, F&& f) {
    std::size_t count = 0;
    std::size_t i = 0;
    while (i < expr.size()) {
        // Tokens are separated by commas or whitespace outside brackets.
        while (i < expr.size() && (expr[i] == ',' || is_space(expr[i]))) {
            ++i;
        }
        std::size_t start = i;
        int depth = 0;
        while (i < expr.size()) {
            char c = expr[i];
            if (c == '[') {
                ++depth;
            } else if (c == ']') {
                --depth;
            } else if (depth <= 0 && (c == ',' || is_space(c))) {
                break;
            }
            ++i;
        }
        std::string_view tok = expr.substr(start, i - start);
        if (tok.empty()) {
            continue;
        }
        auto pat = parse_token(tok, expr);
        if (!pat) {
            return fail(pat.error());
        }
        if (pattern_max_length(*pat) > kMaxHostNameLength) {
            return hostlist_error(expr, "a name longer than " + std::to_string(kMaxHostNameLength) + " characters");
        }
        std::size_t room = limit - std::min(limit, count);
        std::size_t n = pattern_size(*pat, room);
        if (n > room) {
            return limit + 1;
        }
        count += n;
        f(*pat);
    }
    return count;
}

}  // namespace

bool is_valid_host_name(std::string_view name) noexcept {
    if (name.empty() || name.size() > kMaxHostNameLength || name.front() == '-' || name.front() == '.') {
        return false;
    }
    return std::all_of(name.begin(), name.end(), [](char c) {
        return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_' || c == '.';
    });
}

Result<std::size_t> count_hostlist(std::string_view expr, std::size_t limit) {
    return for_each_pattern(expr, limit, [](const Pattern&) {});
}

Result<std::vector<std::string>> expand_hostlist(std::string_view expr, std::size_t max_hosts) {
    auto n = count_hostlist(expr, max_hosts);
    if (!n) {
        return fail(n.error());
    }
    if (*n > max_hosts) {
        return hostlist_error(expr, "more than " + std::to_string(max_hosts) + " names");
    }
    std::vector<std::string> out;
    out.reserve(*n);
    auto st = for_each_pattern(expr, max_hosts, [&](const Pattern& p) {
        std::string acc;
        expand_pattern(p, 0, acc, out);
    });
    if (!st) {
        return fail(st.error());
    }
    return out;
}

std::string compress_hostlist(std::vector<std::string> names) {
    std::vector<NameParts> parts;
    parts.reserve(names.size());
    for (auto& n : names) {
        if (!n.empty()) {
            parts.push_back(split_name(std::move(n)));
        }
    }
    std::sort(parts.begin(), parts.end(), parts_less);
    parts.erase(std::unique(parts.begin(), parts.end(),
                            [](const NameParts& a, const NameParts& b) { return a.name == b.name; }),
                parts.end());

    std::string out;
    std::size_t i = 0;
    while (i < parts.size()) {
        if (!out.empty()) {
            out += ',';
        }
        const NameParts& first = parts[i];
        if (!first.numbered) {
            out += first.name;
            ++i;
            continue;
        }
        // All numbered names sharing prefix and suffix go into one bracket group.
        std::size_t end = i + 1;
        while (end < parts.size() && parts[end].numbered && parts[end].prefix == first.prefix
               && parts[end].suffix == first.suffix) {
            ++end;
        }
        if (end - i == 1) {
            out += first.name;
            ++i;
            continue;
        }
        std::string body;
        std::size_t k = i;
        while (k < end) {
            // A range lo-hi expands with the width of lo; extend while each next name is
            // exactly the next number printed with that width.
            std::size_t width = parts[k].width;
            std::uint64_t lo = parts[k].value;
            std::size_t last = k;
            while (last + 1 < end && parts[last + 1].value == parts[last].value + 1
                   && pad_number(parts[last + 1].value, width)
                          == parts[last + 1].name.substr(parts[last + 1].prefix.size(), parts[last + 1].width)) {
                ++last;
            }
            if (!body.empty()) {
                body += ',';
            }
            body += pad_number(lo, width);
            if (last > k) {
                body += '-';
                body += pad_number(parts[last].value, width);
            }
            k = last + 1;
        }
        out += first.prefix;
        out += '[';
        out += body;
        out += ']';
        out += first.suffix;
        i = end;
    }
    return out;
}

bool is_guid_host_name(std::string_view name) noexcept {
    if (name.size() != 18 || name[0] != 'H' || name[1] != '-') return false;
    return std::all_of(name.begin() + 2, name.end(),
                       [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace topo
