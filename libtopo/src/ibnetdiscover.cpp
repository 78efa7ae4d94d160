// SPDX-License-Identifier: Apache-2.0
/// \file Parser for `ibnetdiscover` dumps and node-name-map files.
///
/// Two layouts are understood:
///  * the default (and `-f`/full) topology layout: blocks of `key=value` header lines,
///    a node line (`Switch 41 "S-guid" # "desc" ...`, `Ca 1 "H-guid" # "desc"`,
///    `Rt ...`) and one line per connected port (`[p] "S-guid"[q](pguid) # ... 4xHDR`);
///  * the `-s -p` ports report: optional `DR path ... -> new Switch {guid} ...` progress
///    lines, then one `SW|CA|RT lid port 0xguid 4x QDR - SW lid port 0xguid ( 'a' - 'b' )`
///    line per port.
/// Real captures are dirty: CRLF and lone CRs, PuTTY log banners, a shell prompt glued
/// to the last line, tabs collapsed into nothing. Those are tolerated (with a warning);
/// anything unexpected inside a node block is a Parse error at that line.

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <topo/ib_fabric.hpp>
#include <topo/text_input.hpp>

namespace topo {

namespace {

// ---------------------------------------------------------------------------------
// Small text helpers (kept local so that the parser's notion of a "line" does not
// depend on other translation units).

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string_view strip(std::string_view s) noexcept {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

struct Line {
    std::string_view text;  // stripped of CR and surrounding blanks
    int no = 0;             // 1-based
};

std::vector<Line> split(std::string_view text) {
    std::vector<Line> out;
    int no = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        std::size_t end = nl == std::string_view::npos ? text.size() : nl;
        out.push_back(Line{strip(text.substr(pos, end - pos)), ++no});
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
    return out;
}

/// Line number (1-based) of the first byte that makes the text binary, or 0.
int binary_line(std::string_view text) noexcept {
    std::size_t bad = 0;
    std::size_t first_bad = std::string_view::npos;
    const std::size_t n = std::min<std::size_t>(text.size(), 1U << 16);
    for (std::size_t i = 0; i < n; ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        bool ok = c == '\n' || c == '\r' || c == '\t' || c == '\f' || (c >= 0x20 && c != 0x7f);
        if (c == 0) {
            first_bad = std::min(first_bad, i);
            bad += n;  // any NUL: binary
        } else if (!ok) {
            first_bad = std::min(first_bad, i);
            ++bad;
        }
    }
    if (first_bad == std::string_view::npos || bad * 10 < n) return 0;
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(first_bad), '\n'));
}

bool is_hex(char c) noexcept {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

/// A cursor over one line.
struct Cur {
    std::string_view s;
    std::size_t i = 0;

    [[nodiscard]] bool end() const noexcept { return i >= s.size(); }

    [[nodiscard]] char peek() const noexcept { return end() ? '\0' : s[i]; }

    void ws() noexcept {
        while (!end() && is_space(s[i])) ++i;
    }

    bool eat(char c) noexcept {
        if (peek() != c) return false;
        ++i;
        return true;
    }

    bool lit(std::string_view p) noexcept {
        if (s.substr(i, p.size()) != p) return false;
        i += p.size();
        return true;
    }

    bool integer(int& v) noexcept {
        std::size_t j = i;
        long long x = 0;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) != 0 && j - i < 9) {
            x = x * 10 + (s[j] - '0');
            ++j;
        }
        if (j == i || (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) != 0)) return false;
        v = static_cast<int>(x);
        i = j;
        return true;
    }

    /// Hex digits (optionally 0x-prefixed) -> normalised GUID.
    bool guid(std::string& out) {
        std::size_t j = i;
        if (s.substr(j, 2) == "0x" || s.substr(j, 2) == "0X") j += 2;
        std::size_t k = j;
        while (k < s.size() && is_hex(s[k])) ++k;
        if (k == j) return false;
        auto g = normalize_guid(s.substr(j, k - j));
        if (!g) return false;
        out = *g;
        i = k;
        return true;
    }

    /// `[ext N]` after a port number (extended port numbers of some switches).
    void skip_ext() noexcept {
        std::size_t save = i;
        ws();
        if (lit("[ext")) {
            auto close = s.find(']', i);
            if (close != std::string_view::npos) {
                i = close + 1;
                return;
            }
        }
        i = save;
    }

    [[nodiscard]] std::string_view rest() const noexcept { return end() ? std::string_view{} : s.substr(i); }
};

/// "4xHDR" (the first `<n>x<speed>` token after the last quote of `tail`), "" if none.
std::string find_rate(std::string_view tail) {
    auto q = tail.rfind('"');
    if (q != std::string_view::npos) tail.remove_prefix(q + 1);
    std::size_t pos = 0;
    while (pos < tail.size()) {
        while (pos < tail.size() && is_space(tail[pos])) ++pos;
        std::size_t e = pos;
        while (e < tail.size() && !is_space(tail[e])) ++e;
        std::string_view tok = tail.substr(pos, e - pos);
        std::size_t d = 0;
        while (d < tok.size() && std::isdigit(static_cast<unsigned char>(tok[d])) != 0) ++d;
        if (d > 0 && d < tok.size() && tok[d] == 'x' && d + 1 < tok.size()) return std::string(tok);
        pos = e;
    }
    return {};
}

/// Per-lane Gbps of a speed name; 0 for unknown ("???").
double lane_gbps(std::string_view speed) noexcept {
    static constexpr std::pair<std::string_view, double> kSpeeds[] = {
        {"SDR", 2.5}, {"DDR", 5},  {"QDR", 10},  {"FDR10", 10}, {"FDR", 14},
        {"EDR", 25},  {"HDR", 50}, {"NDR", 100}, {"XDR", 200},
    };
    for (const auto& [name, g] : kSpeeds) {
        if (speed == name) return g;
    }
    return 0;
}

}  // namespace

/// Decode "4xHDR", "4x QDR", "12xEDR", "4x???" to Gbps (0 when unknown). Exposed for
/// the libibnetdisc reader, which formats the same strings.
double ib_rate_gbps(std::string_view rate) noexcept {
    rate = strip(rate);
    std::size_t d = 0;
    int width = 0;
    while (d < rate.size() && std::isdigit(static_cast<unsigned char>(rate[d])) != 0 && d < 3) {
        width = width * 10 + (rate[d] - '0');
        ++d;
    }
    if (d == 0 || d >= rate.size() || rate[d] != 'x') return 0;
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 12) return 0;
    std::string_view speed = strip(rate.substr(d + 1));
    return width * lane_gbps(speed);
}

std::optional<std::string> normalize_guid(std::string_view text) {
    text = strip(text);
    if (text.size() >= 2 && (text[0] == 'S' || text[0] == 'H' || text[0] == 'R') && text[1] == '-') {
        text.remove_prefix(2);
    }
    if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
    if (text.empty()) return std::nullopt;
    // Leading zeros beyond 16 digits are harmless; anything else is not a 64-bit GUID.
    while (text.size() > 16 && text.front() == '0') text.remove_prefix(1);
    if (text.size() > 16) return std::nullopt;
    std::string out = "0x";
    out.append(16 - text.size(), '0');
    for (char c : text) {
        if (!is_hex(c)) return std::nullopt;
        out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return out;
}

namespace {

Unexpected parse_error(const std::string& source, int line, std::string msg) {
    return fail(Errc::Parse, std::move(msg), source, line);
}

std::string node_kind(IbNode::Type t) {
    switch (t) {
        case IbNode::Type::Switch: return "switch";
        case IbNode::Type::Ca: return "CA";
        case IbNode::Type::Router: return "router";
    }
    return "node";
}

/// Cross-check both ends of every link. A peer that is absent from the dump (hop-limited
/// discovery) only warns; two ends that disagree are a Parse error.
Status check_links(IbFabric& f) {
    std::map<std::string, std::size_t> by_guid;
    for (std::size_t i = 0; i < f.nodes.size(); ++i) by_guid.emplace(f.nodes[i].guid, i);
    std::size_t missing = 0;
    std::string first_missing;
    for (const auto& a : f.nodes) {
        for (const auto& p : a.ports) {
            auto it = by_guid.find(p.peer_guid);
            if (it == by_guid.end()) {
                if (missing++ == 0) {
                    first_missing = "line " + std::to_string(p.line) + ": " + a.guid + "[" + std::to_string(p.port)
                                    + "] -> " + p.peer_guid;
                }
                continue;
            }
            const IbNode& b = f.nodes[it->second];
            const IbPort* back = nullptr;
            for (const auto& q : b.ports) {
                if (q.port == p.peer_port) {
                    back = &q;
                    break;
                }
            }
            if (back == nullptr) {
                return parse_error(f.source, p.line,
                                   "link ends disagree: " + node_kind(a.type) + " " + a.guid + " port "
                                       + std::to_string(p.port) + " names peer " + b.guid + " port "
                                       + std::to_string(p.peer_port) + ", but that " + node_kind(b.type) + " (line "
                                       + std::to_string(b.line) + ") lists no such port");
            }
            if (back->peer_guid != a.guid || back->peer_port != p.port) {
                return parse_error(f.source, p.line,
                                   "link ends disagree: " + a.guid + " port " + std::to_string(p.port) + " names peer "
                                       + b.guid + " port " + std::to_string(p.peer_port) + ", but line "
                                       + std::to_string(back->line) + " says that port goes to " + back->peer_guid
                                       + " port " + std::to_string(back->peer_port));
            }
        }
    }
    if (missing > 0) {
        f.warnings.push_back(f.source + ": " + std::to_string(missing)
                             + " port(s) name a peer that is not in the dump (hop-limited discovery?), e.g. "
                             + first_missing);
    }
    return Ok{};
}

bool looks_like_prompt(std::string_view s) noexcept {
    s = strip(s);
    if (s.empty()) return false;
    char last = s.back();
    return last == '#' || last == '$' || last == '>' || last == '%' || s.find("(config)") != std::string_view::npos;
}

/// Printable ASCII only: node descriptions are 64 raw bytes on the wire and end up in
/// names, messages and JSON snapshots (which require valid UTF-8).
std::string printable(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x7f) c = '?';
    }
    return out;
}

std::string shorten(std::string_view s) {
    std::string out = printable(s.substr(0, 60));
    if (s.size() > 60) out += "...";
    return out;
}

// ---------------------------------------------------------------------------------
// Default / full layout.

bool parse_node_header(std::string_view text, IbNode& node, std::string& why) {
    Cur c{text};
    if (c.lit("Switch")) {
        node.type = IbNode::Type::Switch;
    } else if (c.lit("Ca")) {
        node.type = IbNode::Type::Ca;
    } else if (c.lit("Rt")) {
        node.type = IbNode::Type::Router;
    } else {
        why = "expected Switch, Ca or Rt";
        return false;
    }
    c.ws();
    if (!c.integer(node.num_ports)) {
        why = "missing port count";
        return false;
    }
    c.ws();
    if (!c.eat('"')) {
        why = "missing quoted node name";
        return false;
    }
    char prefix = c.peek();
    const char want = node.type == IbNode::Type::Switch ? 'S' : node.type == IbNode::Type::Ca ? 'H' : 'R';
    if (prefix != want || !c.lit(std::string{prefix, '-'})) {
        why = std::string("node name must start with \"") + want + "-\"";
        return false;
    }
    if (!c.guid(node.guid) || !c.eat('"')) {
        why = "bad node GUID";
        return false;
    }
    c.ws();
    if (c.end()) return true;
    if (!c.eat('#')) {
        why = "unexpected text after the node name";
        return false;
    }
    std::string_view rest = c.rest();
    auto q1 = rest.find('"');
    auto q2 = rest.rfind('"');
    if (q1 != std::string_view::npos && q2 != q1) {
        node.description = printable(strip(rest.substr(q1 + 1, q2 - q1 - 1)));
    } else if (q1 != std::string_view::npos) {
        why = "unterminated node description";
        return false;
    }
    return true;
}

/// The parenthesised groups after a port number: `(2c9020040d3a1)` is a port GUID;
/// ibdiagnet's dump (`ibdiagnet2.ibnetdiscover`) also puts a port label there, the
/// front-panel position of a Quantum-2 port `(1/1/1)` or a CA port's `(B9D0F0/0/0/1)`,
/// which is kept as a label. A group with only hex digits (at most 16) is the GUID.
bool port_groups(Cur& c, std::string& pguid, std::string& label, const char* what, std::string& why) {
    c.ws();
    while (c.peek() == '(') {
        const std::size_t close = c.s.find(')', c.i);
        if (close == std::string_view::npos) {
            why = std::string("unterminated ( after the ") + what;
            return false;
        }
        const std::string_view inner = c.s.substr(c.i + 1, close - c.i - 1);
        std::string_view hex = inner;
        if (hex.size() >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex.remove_prefix(2);
        const bool all_hex = !hex.empty() && std::all_of(hex.begin(), hex.end(), is_hex);
        if (all_hex) {
            auto g = normalize_guid(inner);
            if (!g) {
                why = std::string("bad ") + what + " GUID";
                return false;
            }
            pguid = *g;
        } else if (inner.empty() || inner.size() > 64
                   || std::any_of(inner.begin(), inner.end(), [](char ch) { return is_space(ch) || ch == '"'; })) {
            why = std::string("bad ") + what + " GUID or label";
            return false;
        } else {
            label = std::string(inner);
        }
        c.i = close + 1;
        c.ws();
    }
    return true;
}

bool parse_port_line(std::string_view text, IbPort& port, std::string& local_pguid, std::string& why) {
    Cur c{text};
    if (!c.eat('[') || !c.integer(port.port) || !c.eat(']')) {
        why = "bad port number";
        return false;
    }
    c.skip_ext();
    if (!port_groups(c, local_pguid, port.label, "port", why)) return false;
    if (!c.eat('"')) {
        why = "missing quoted peer name";
        return false;
    }
    char t = c.peek();
    if ((t != 'S' && t != 'H' && t != 'R') || !c.lit(std::string{t, '-'}) || !c.guid(port.peer_guid) || !c.eat('"')) {
        why = "bad peer name (expected \"S-guid\", \"H-guid\" or \"R-guid\")";
        return false;
    }
    if (!c.eat('[') || !c.integer(port.peer_port) || !c.eat(']')) {
        why = "bad peer port number";
        return false;
    }
    c.skip_ext();
    std::string peer_pguid;
    std::string peer_label;
    if (!port_groups(c, peer_pguid, peer_label, "peer port", why)) return false;
    if (c.end()) return true;
    if (!c.eat('#')) {
        why = "unexpected text after the peer";
        return false;
    }
    port.rate = find_rate(c.rest());
    port.gbps = ib_rate_gbps(port.rate);
    return true;
}

bool is_header_key(std::string_view t) noexcept {
    std::size_t i = 0;
    while (i < t.size() && std::islower(static_cast<unsigned char>(t[i])) != 0) ++i;
    return i > 0 && i < t.size() && t[i] == '=';
}

bool is_node_header(std::string_view t) noexcept {
    for (std::string_view w : {"Switch", "Ca", "Rt"}) {
        if (std::string_view(t).starts_with(w) && t.size() > w.size()
            && (is_space(t[w.size()]) || std::isdigit(static_cast<unsigned char>(t[w.size()])) != 0)) {
            return true;
        }
    }
    return false;
}

Result<IbFabric> parse_default(const std::vector<Line>& lines, const std::string& source) {
    IbFabric f;
    f.source = source;
    std::map<std::string, int> seen;  // node GUID -> header line

    int last_nonempty = 0;
    for (const auto& l : lines) {
        if (!l.text.empty()) last_nonempty = l.no;
    }

    struct Pending {
        int first_line = 0;
        std::string sysimg;
    } pending;

    long current = -1;  // index of the node whose port lines we read
    int skipped_before = 0;
    int skipped_between = 0;
    std::string first_skipped;

    auto skip = [&](const Line& l, int& counter) {
        if (counter++ == 0 && first_skipped.empty()) {
            first_skipped = "line " + std::to_string(l.no) + " \"" + shorten(l.text) + "\"";
        }
    };

    for (const auto& l : lines) {
        std::string_view t = l.text;
        if (t.empty()) {
            current = -1;
            continue;
        }
        if (t.front() == '#') continue;  // comments, anywhere
        if (is_header_key(t)) {
            current = -1;
            auto eq = t.find('=');
            std::string_view key = t.substr(0, eq);
            std::string_view val = t.substr(eq + 1);
            if (key == "vendid" && pending.first_line != 0) {
                return parse_error(source, pending.first_line,
                                   "truncated block: node header fields are not followed by a Switch, Ca or Rt line");
            }
            if (pending.first_line == 0) pending.first_line = l.no;
            if (key == "sysimgguid") {
                auto g = normalize_guid(val);
                if (!g) return parse_error(source, l.no, "bad sysimgguid \"" + shorten(val) + "\"");
                pending.sysimg = *g;
            }
            continue;
        }
        if (is_node_header(t)) {
            IbNode node;
            std::string why;
            if (!parse_node_header(t, node, why)) {
                return parse_error(source, l.no, "malformed node line (" + why + "): \"" + shorten(t) + "\"");
            }
            node.line = l.no;
            node.sysimg_guid = pending.sysimg;
            auto [it, fresh] = seen.emplace(node.guid, l.no);
            if (!fresh) {
                return parse_error(
                    source, l.no,
                    "duplicate node GUID " + node.guid + " (first defined at line " + std::to_string(it->second) + ")");
            }
            pending = {};
            f.nodes.push_back(std::move(node));
            current = static_cast<long>(f.nodes.size()) - 1;
            continue;
        }
        if (t.front() == '[') {
            IbPort port;
            std::string local_pguid;
            std::string why;
            const bool parsed = parse_port_line(t, port, local_pguid, why);
            if (current < 0) {
                // A shell prompt pasted with the capture ("[root@mgmt01 ~]# ibnetdiscover")
                // is noise, like a terminal log banner; a real port line there is not.
                if (!parsed && pending.first_line == 0) {
                    skip(l, f.nodes.empty() ? skipped_before : skipped_between);
                    continue;
                }
                return parse_error(source, l.no, "port line outside a node block: \"" + shorten(t) + "\"");
            }
            if (!parsed) {
                return parse_error(source, l.no, "malformed port line (" + why + "): \"" + shorten(t) + "\"");
            }
            port.line = l.no;
            IbNode& n = f.nodes[static_cast<std::size_t>(current)];
            for (const auto& q : n.ports) {
                if (q.port == port.port) {
                    return parse_error(source, l.no,
                                       "port " + std::to_string(port.port) + " of " + n.guid
                                           + " listed twice (first at line " + std::to_string(q.line) + ")");
                }
            }
            if (n.port_guid.empty() && !local_pguid.empty()) n.port_guid = local_pguid;
            n.num_ports = std::max(n.num_ports, port.port);
            n.ports.push_back(std::move(port));
            continue;
        }
        // Anything else.
        if (current >= 0 || pending.first_line != 0) {
            if (l.no == last_nonempty && looks_like_prompt(t) && current >= 0) {
                f.warnings.push_back(source + ":" + std::to_string(l.no) + ": ignored trailing shell prompt \""
                                     + shorten(t) + "\"");
                continue;
            }
            return parse_error(source, l.no, "unexpected line inside a node block: \"" + shorten(t) + "\"");
        }
        skip(l, f.nodes.empty() ? skipped_before : skipped_between);
    }
    if (pending.first_line != 0) {
        return parse_error(source, pending.first_line,
                           "truncated block: node header fields at the end of the input without a Switch, Ca or "
                           "Rt line");
    }
    if (f.nodes.empty()) {
        int line = 1;
        for (const auto& l : lines) {
            if (!l.text.empty() && l.text.front() != '#') {
                line = l.no;
                break;
            }
        }
        return parse_error(source, line, "no InfiniBand node found: not an ibnetdiscover dump");
    }
    if (skipped_before + skipped_between > 0) {
        f.warnings.push_back(source + ": ignored " + std::to_string(skipped_before + skipped_between)
                             + " line(s) outside node blocks (terminal log header or noise), first " + first_skipped);
    }
    return f;
}

// ---------------------------------------------------------------------------------
// `-s -p` ports layout.

struct DrEntry {
    IbNode::Type type = IbNode::Type::Ca;
    std::string guid;
};

/// "DR path slid 0; dlid 0; 0,1,2 -> new Channel Adapter {0011750000790cd4} portnum 1 ..."
bool parse_dr_line(std::string_view t, std::string& path, DrEntry& e) {
    auto arrow = t.find("->");
    if (arrow == std::string_view::npos) return false;
    std::string_view left = t.substr(0, arrow);
    auto semi = left.rfind(';');
    path = std::string(strip(semi == std::string_view::npos ? left : left.substr(semi + 1)));
    if (path.empty()) return false;
    std::string_view right = t.substr(arrow + 2);
    auto ob = right.find('{');
    auto cb = right.find('}');
    if (ob == std::string_view::npos || cb == std::string_view::npos || cb < ob) return false;
    std::string_view what = right.substr(0, ob);
    if (what.find("Switch") != std::string_view::npos) {
        e.type = IbNode::Type::Switch;
    } else if (what.find("Channel Adapter") != std::string_view::npos) {
        e.type = IbNode::Type::Ca;
    } else if (what.find("Router") != std::string_view::npos) {
        e.type = IbNode::Type::Router;
    } else {
        return false;
    }
    auto g = normalize_guid(right.substr(ob + 1, cb - ob - 1));
    if (!g) return false;
    e.guid = *g;
    return true;
}

struct PortRec {
    IbNode::Type type = IbNode::Type::Ca;
    int port = 0;
    std::string guid;  // port GUID as printed
};

bool parse_type(Cur& c, IbNode::Type& t) {
    if (c.lit("SW")) {
        t = IbNode::Type::Switch;
    } else if (c.lit("CA")) {
        t = IbNode::Type::Ca;
    } else if (c.lit("RT")) {
        t = IbNode::Type::Router;
    } else {
        return false;
    }
    return true;
}

bool parse_port_rec(Cur& c, PortRec& r) {
    int lid = 0;
    if (!parse_type(c, r.type)) return false;
    c.ws();
    if (!c.integer(lid)) return false;
    c.ws();
    if (!c.integer(r.port)) return false;
    c.ws();
    return c.guid(r.guid);
}

struct PortsLine {
    PortRec local;
    bool has_peer = false;
    PortRec peer;
    std::string rate;
    std::string local_desc;
    std::string peer_desc;
    int line = 0;
};

bool parse_ports_line(std::string_view t, PortsLine& pl, std::string& why) {
    Cur c{t};
    if (!parse_port_rec(c, pl.local)) {
        why = "expected TYPE LID PORT GUID";
        return false;
    }
    c.ws();
    // Width then speed, e.g. "4x QDR", "4x ???".
    std::size_t w0 = c.i;
    while (!c.end() && !is_space(c.peek())) ++c.i;
    std::string width(c.s.substr(w0, c.i - w0));
    c.ws();
    std::size_t s0 = c.i;
    while (!c.end() && !is_space(c.peek())) ++c.i;
    std::string speed(c.s.substr(s0, c.i - s0));
    if (width.empty() || width.back() != 'x' || speed.empty()) {
        why = "bad link width/speed";
        return false;
    }
    pl.rate = width + speed;
    c.ws();
    if (c.eat('-')) {
        c.ws();
        if (!parse_port_rec(c, pl.peer)) {
            why = "bad peer (expected TYPE LID PORT GUID)";
            return false;
        }
        pl.has_peer = true;
        c.ws();
        std::string_view rest = c.rest();
        auto open = rest.find("'");
        auto sep = rest.find("' - '");
        auto close = rest.rfind("'");
        if (rest.empty() || rest.front() != '(' || open == std::string_view::npos || sep == std::string_view::npos
            || close <= sep + 4) {
            why = "bad node descriptions, expected ( 'local' - 'peer' )";
            return false;
        }
        pl.local_desc = printable(strip(rest.substr(open + 1, sep - open - 1)));
        pl.peer_desc = printable(strip(rest.substr(sep + 5, close - sep - 5)));
        return true;
    }
    std::string_view rest = c.rest();
    auto q1 = rest.find('\'');
    auto q2 = rest.rfind('\'');
    if (q1 != 0 || q2 == q1) {
        why = "expected '- peer' or a quoted node description";
        return false;
    }
    pl.local_desc = printable(strip(rest.substr(1, q2 - 1)));
    return true;
}

bool is_ports_line(std::string_view t) noexcept {
    Cur c{t};
    PortRec r;
    return parse_port_rec(c, r);
}

Result<IbFabric> parse_ports(const std::vector<Line>& lines, const std::string& source) {
    IbFabric f;
    f.source = source;
    std::map<std::string, DrEntry> dr;  // path -> node
    std::vector<PortsLine> recs;
    int bad_dr = 0;
    int skipped = 0;
    std::string first_skipped;
    for (const auto& l : lines) {
        std::string_view t = l.text;
        if (t.empty() || t.front() == '#') continue;
        if (std::string_view(t).starts_with("DR path")) {
            std::string path;
            DrEntry e;
            if (parse_dr_line(t, path, e)) {
                dr.emplace(path, e);
            } else {
                ++bad_dr;
            }
            continue;
        }
        if (is_ports_line(t)) {
            PortsLine pl;
            std::string why;
            if (!parse_ports_line(t, pl, why)) {
                return parse_error(source, l.no, "malformed port report line (" + why + "): \"" + shorten(t) + "\"");
            }
            pl.line = l.no;
            recs.push_back(std::move(pl));
            continue;
        }
        if (!recs.empty() && l.no == lines.back().no && looks_like_prompt(t)) {
            f.warnings.push_back(source + ":" + std::to_string(l.no) + ": ignored trailing shell prompt");
            continue;
        }
        if (!recs.empty()) {
            return parse_error(source, l.no, "unexpected line in the port report: \"" + shorten(t) + "\"");
        }
        if (skipped++ == 0) first_skipped = "line " + std::to_string(l.no);
    }
    if (recs.empty()) {
        return parse_error(source, lines.empty() ? 1 : lines.back().no,
                           "no port report line (SW/CA ...) found in the ibnetdiscover -p output");
    }
    if (bad_dr > 0)
        f.warnings.push_back(source + ": ignored " + std::to_string(bad_dr) + " unreadable 'DR path' line(s)");
    if (skipped > 0) {
        f.warnings.push_back(source + ": ignored " + std::to_string(skipped) + " line(s) before the report, first "
                             + first_skipped);
    }

    // The report prints port GUIDs. Switch ports share the node GUID; CA ports do not.
    // Recover CA node GUIDs from the DR paths: the CA reached by path P.k hangs off port k
    // of the switch at path P, so (switch GUID, k) -> CA node GUID.
    std::map<std::pair<std::string, int>, std::string> hang;  // (switch guid, port) -> CA node guid
    std::set<std::string> dr_cas;
    for (const auto& [path, e] : dr) {
        if (e.type != IbNode::Type::Ca) continue;
        dr_cas.insert(e.guid);
        auto comma = path.rfind(',');
        if (comma == std::string::npos) continue;
        auto parent = dr.find(path.substr(0, comma));
        if (parent == dr.end() || parent->second.type != IbNode::Type::Switch) continue;
        int k = 0;
        Cur c{std::string_view(path).substr(comma + 1)};
        if (!c.integer(k)) continue;
        hang[{parent->second.guid, k}] = e.guid;
    }
    std::map<std::string, std::string> ca_node;  // CA port GUID -> node GUID
    for (const auto& r : recs) {
        if (r.has_peer && r.local.type == IbNode::Type::Switch && r.peer.type == IbNode::Type::Ca) {
            auto h = hang.find({r.local.guid, r.local.port});
            if (h != hang.end()) ca_node[r.peer.guid] = h->second;
        }
    }
    // The CA the discovery started from (path "0") has no parent switch: pair the one
    // node GUID left over with the one port GUID left over, if that is unambiguous.
    {
        std::set<std::string> left_nodes = dr_cas;
        for (const auto& [pg, ng] : ca_node) left_nodes.erase(ng);
        std::set<std::string> left_ports;
        for (const auto& r : recs) {
            if (r.local.type == IbNode::Type::Ca && !ca_node.contains(r.local.guid)) left_ports.insert(r.local.guid);
            if (r.has_peer && r.peer.type == IbNode::Type::Ca && !ca_node.contains(r.peer.guid)) {
                left_ports.insert(r.peer.guid);
            }
        }
        if (left_nodes.size() == 1 && left_ports.size() == 1) ca_node[*left_ports.begin()] = *left_nodes.begin();
    }
    auto node_guid = [&](const PortRec& r) -> std::string {
        if (r.type != IbNode::Type::Ca) return r.guid;
        auto it = ca_node.find(r.guid);
        return it == ca_node.end() ? r.guid : it->second;
    };

    std::map<std::string, std::size_t> idx;
    auto get = [&](const PortRec& r, const std::string& desc, int line) -> IbNode& {
        std::string g = node_guid(r);
        auto [it, fresh] = idx.emplace(g, f.nodes.size());
        if (fresh) {
            IbNode n;
            n.type = r.type;
            n.guid = g;
            n.line = line;
            f.nodes.push_back(std::move(n));
        }
        IbNode& n = f.nodes[it->second];
        if (n.description.empty()) n.description = desc;
        if (n.type == IbNode::Type::Ca && (n.port_guid.empty() || r.port == 1)) n.port_guid = r.guid;
        n.num_ports = std::max(n.num_ports, r.port);
        return n;
    };
    for (const auto& r : recs) {
        IbNode& a = get(r.local, r.local_desc, r.line);
        if (a.type != r.local.type) {
            return parse_error(source, r.line, "GUID " + a.guid + " is reported as two node types");
        }
        if (!r.has_peer) continue;
        std::string pg = node_guid(r.peer);
        {
            IbNode& b = get(r.peer, r.peer_desc, r.line);
            if (b.type != r.peer.type) {
                return parse_error(source, r.line, "GUID " + b.guid + " is reported as two node types");
            }
        }
        IbNode& a2 = f.nodes[idx.at(node_guid(r.local))];
        IbPort p;
        p.port = r.local.port;
        p.peer_guid = pg;
        p.peer_port = r.peer.port;
        p.rate = r.rate;
        p.gbps = ib_rate_gbps(r.rate);
        p.line = r.line;
        bool dup = false;
        for (const auto& q : a2.ports) {
            if (q.port != p.port) continue;
            if (q.peer_guid != p.peer_guid || q.peer_port != p.peer_port) {
                return parse_error(source, r.line,
                                   "link ends disagree: " + a2.guid + " port " + std::to_string(p.port)
                                       + " already reported at line " + std::to_string(q.line) + " with another peer");
            }
            dup = true;
        }
        if (!dup) a2.ports.push_back(std::move(p));
    }
    // Both directions of every link are printed; check_links() verifies they agree.
    for (auto& n : f.nodes) {
        std::sort(n.ports.begin(), n.ports.end(), [](const IbPort& x, const IbPort& y) { return x.port < y.port; });
    }
    return f;
}

bool is_ports_format(const std::vector<Line>& lines) {
    int looked = 0;
    for (const auto& l : lines) {
        if (l.text.empty() || l.text.front() == '#') continue;
        if (std::string_view(l.text).starts_with("DR path")) return true;
        if (is_ports_line(l.text)) return true;
        if (is_node_header(l.text) || is_header_key(l.text)) return false;
        // "[3]..." is a port line of the default layout; "[root@host ~]# ..." a prompt.
        if (l.text.front() == '[' && l.text.size() > 1 && std::isdigit(static_cast<unsigned char>(l.text[1])) != 0) {
            return false;
        }
        if (++looked > 50) return false;
    }
    return false;
}

}  // namespace

Result<IbFabric> parse_ibnetdiscover(std::string_view text, const std::string& source) {
    try {
        // A UTF-8 byte-order mark (a capture saved by a Windows editor) is not text.
        if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
        if (strip(text).empty()) return parse_error(source, 1, "empty input: no InfiniBand node");
        if (int bl = binary_line(text); bl > 0) {
            return parse_error(source, bl, "binary data, not an ibnetdiscover text dump");
        }
        auto lines = split(text);
        Result<IbFabric> r = is_ports_format(lines) ? parse_ports(lines, source) : parse_default(lines, source);
        if (!r) return r;
        if (auto st = check_links(*r); !st) return fail(st.error());
        return r;
    } catch (const std::exception& e) {
        return fail(Errc::Internal, std::string("ibnetdiscover parser: ") + e.what(), source);
    }
}

Result<IbFabric> read_ibnetdiscover_file(const std::string& path) {
    auto text = read_text_file(path);
    if (!text) return fail(text.error());
    return parse_ibnetdiscover(*text, path);
}

Result<NodeNameMap> read_node_name_map(const std::string& path) {
    auto text = read_text_file(path);
    if (!text) return fail(text.error());
    return parse_node_name_map(*text, path);
}

Result<NodeNameMap> parse_node_name_map(std::string_view text, const std::string& path) {
    try {
        if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
        if (int bl = binary_line(text); bl > 0) return parse_error(path, bl, "binary data, not a node-name-map");
        NodeNameMap m;
        m.source = path;
        for (const auto& l : split(text)) {
            std::string_view t = l.text;
            if (t.empty() || t.front() == '#') continue;
            std::size_t sp = 0;
            while (sp < t.size() && !is_space(t[sp])) ++sp;
            auto g = normalize_guid(t.substr(0, sp));
            if (!g) {
                return parse_error(path, l.no, "expected \"GUID name\", got \"" + shorten(t) + "\"");
            }
            std::string_view name = strip(t.substr(sp));
            // Trailing comments are allowed after the name.
            if (!name.empty() && name.front() == '"') {
                auto close = name.find('"', 1);
                if (close == std::string_view::npos) {
                    return parse_error(path, l.no, "unterminated quoted name");
                }
                name = strip(name.substr(1, close - 1));
            } else if (auto hash = name.find('#'); hash != std::string_view::npos) {
                name = strip(name.substr(0, hash));
            }
            if (name.empty()) return parse_error(path, l.no, "GUID " + *g + " has no name");
            m.names[*g] = printable(name);
        }
        return m;
    } catch (const std::exception& e) {
        return fail(Errc::Internal, std::string("node-name-map parser: ") + e.what(), path);
    }
}

}  // namespace topo
