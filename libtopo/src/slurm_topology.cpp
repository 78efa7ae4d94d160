// SPDX-License-Identifier: Apache-2.0
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <map>
#include <set>

#include <topo/builder.hpp>
#include <topo/hostlist.hpp>
#include <topo/slurm_topology.hpp>
#include <topo/text_input.hpp>
#include <topo/topology.hpp>

#include "yaml_util.hpp"

namespace topo {
namespace {

std::string where(const std::string& file, int line) {
    std::string out = file;
    if (line > 0) {
        out += ':' + std::to_string(line);
    }
    return out;
}

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// ---- topology.conf tokenizer ----

struct KeyValue {
    std::string key;  // lower case
    std::string raw_key;
    std::string value;
};

// Split "SwitchName=s0 Nodes=n[1-2]  LinkSpeed = 10" into key/value pairs. Values may be
// double-quoted. Slurm's s_p parser allows blanks around '='.
Result<std::vector<KeyValue>> tokenize_line(std::string_view line, const std::string& file, int lineno) {
    std::vector<KeyValue> out;
    std::size_t i = 0;
    while (true) {
        while (i < line.size() && is_space(line[i])) {
            ++i;
        }
        if (i >= line.size()) {
            break;
        }
        std::size_t k0 = i;
        while (i < line.size() && line[i] != '=' && !is_space(line[i])) {
            ++i;
        }
        std::string_view key = line.substr(k0, i - k0);
        while (i < line.size() && is_space(line[i])) {
            ++i;
        }
        if (i >= line.size() || line[i] != '=') {
            return fail(Errc::Parse, "expected Key=Value, got \"" + std::string(key) + "\"", file, lineno);
        }
        ++i;
        while (i < line.size() && is_space(line[i])) {
            ++i;
        }
        std::string value;
        if (i < line.size() && line[i] == '"') {
            std::size_t close = line.find('"', i + 1);
            if (close == std::string_view::npos) {
                return fail(Errc::Parse, "unterminated quote after " + std::string(key) + "=", file, lineno);
            }
            value = std::string(line.substr(i + 1, close - i - 1));
            i = close + 1;
        } else {
            std::size_t v0 = i;
            while (i < line.size() && !is_space(line[i])) {
                ++i;
            }
            value = std::string(line.substr(v0, i - v0));
        }
        if (key.empty()) {
            return fail(Errc::Parse, "missing key before '='", file, lineno);
        }
        out.push_back({ascii_lower(key), std::string(key), std::move(value)});
    }
    return out;
}

// Names a file may still expand (docs/security.md "Bounds"): a topology.conf holds one
// topology, so at most kMaxHostlistNames (Slurm's node limit) in all its Nodes= and as many in
// its Switches=; a topology.yaml at most kYamlTopologies such topologies. Counted before
// expanding, so a 30-byte "Nodes=n[0-999999]" or a thousand lines of 65536 names each cost
// nothing but the error.
struct NameBudget {
    std::size_t total;
    std::size_t left = total;
};

constexpr std::size_t kYamlTopologies = 4;

Result<std::vector<std::string>> expand_at(std::string_view expr, std::string_view what, const std::string& file,
                                           int line, NameBudget& budget) {
    auto n = count_hostlist(expr, budget.left);
    if (n && *n > budget.left) {
        return fail(Errc::Parse,
                    std::string(what) + ": more than " + std::to_string(budget.total)
                        + " names in this file (Slurm's node limit is " + std::to_string(kMaxHostlistNames)
                        + "; docs/security.md)",
                    file, line);
    }
    if (!n) {
        return fail(Errc::Parse, std::string(what) + ": " + n.error().message, file, line);
    }
    auto r = expand_hostlist(expr, budget.left);
    if (!r) {
        return fail(Errc::Parse, std::string(what) + ": " + r.error().message, file, line);
    }
    budget.left -= r->size();
    if (r->empty()) {
        return fail(Errc::Parse, std::string(what) + " is empty", file, line);
    }
    return r;
}

Result<std::vector<int>> parse_block_sizes(std::string_view value, const std::string& file, int line) {
    std::vector<int> out;
    std::size_t pos = 0;
    while (pos <= value.size()) {
        std::size_t comma = value.find(',', pos);
        if (comma == std::string_view::npos) {
            comma = value.size();
        }
        std::string_view item = trim(value.substr(pos, comma - pos));
        int v = 0;
        auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (item.empty() || ec != std::errc{} || p != item.data() + item.size() || v <= 0) {
            return fail(Errc::Parse, "BlockSizes: \"" + std::string(item) + "\" is not a positive integer", file, line);
        }
        out.push_back(v);
        pos = comma + 1;
    }
    return out;
}

// Slurm (block_record.c): every size after the first must be the base size times a
// power of two, at most 2^15.
Status check_block_sizes(const std::vector<int>& sizes, const std::string& file, int line) {
    for (std::size_t i = 1; i < sizes.size(); ++i) {
        bool ok = false;
        for (int k = 0; k <= 15 && !ok; ++k) {
            ok = static_cast<long long>(sizes[0]) << k == sizes[i];
        }
        if (!ok) {
            return fail(Errc::Parse,
                        "BlockSizes: " + std::to_string(sizes[i]) + " is not " + std::to_string(sizes[0])
                            + " times a power of two",
                        file, line);
        }
    }
    return Ok{};
}

// ---- checks shared by topology.conf and topology.yaml ----

// Node names whose leading non-digit part is a proper suffix of a more common one look
// like a dropped cluster prefix ("n[019-020]" among "circe-n[...]").
void warn_odd_prefixes(SlurmTopology& t, const std::vector<std::pair<const std::vector<std::string>*, int>>& groups) {
    auto stem = [](const std::string& n) {
        auto d = n.find_first_of("0123456789");
        return d == std::string::npos ? n : n.substr(0, d);
    };
    std::map<std::string, std::set<std::string>> by_stem;
    for (const auto& [nodes, line] : groups) {
        for (const auto& n : *nodes) {
            by_stem[stem(n)].insert(n);
        }
    }
    std::map<std::string, std::string> odd;  // stem -> the more common stem it is a suffix of
    for (const auto& [s, names] : by_stem) {
        std::size_t best = 0;
        for (const auto& [t2, names2] : by_stem) {
            if (t2.size() > s.size() && t2.ends_with(s) && names2.size() > names.size() && names2.size() > best) {
                best = names2.size();
                odd[s] = t2;
            }
        }
    }
    if (odd.empty()) {
        return;
    }
    for (const auto& [nodes, line] : groups) {
        std::map<std::string, std::vector<std::string>> hits;
        for (const auto& n : *nodes) {
            auto s = stem(n);
            if (odd.count(s) != 0) {
                hits[s].push_back(n);
            }
        }
        for (auto& [s, names] : hits) {
            const auto& common = odd[s];
            t.warnings.push_back(where(t.source, line) + ": node names " + compress_hostlist(names)
                                 + " do not start with '" + common + "' like the other "
                                 + std::to_string(by_stem[common].size()) + " nodes (typo?)");
        }
    }
}

Status validate_tree(SlurmTopology& t, const SlurmParseOptions& opts) {
    const std::string& file = t.source;
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const auto& s = t.switches[i];
        auto [it, fresh] = index.emplace(s.name, i);
        if (!fresh) {
            return fail(Errc::Parse,
                        "duplicate switch '" + s.name + "' (first defined at line "
                            + std::to_string(t.switches[it->second].line) + ")",
                        file, s.line);
        }
        if (!s.nodes.empty() && !s.children.empty()) {
            return fail(Errc::Parse, "switch '" + s.name + "' has both child switches and nodes", file, s.line);
        }
        if (s.nodes.empty() && s.children.empty()) {
            return fail(Errc::Parse, "switch '" + s.name + "' has neither child switches nor nodes", file, s.line);
        }
    }
    for (const auto& s : t.switches) {
        for (const auto& c : s.children) {
            if (index.count(c) == 0) {
                return fail(Errc::Parse, "switch '" + s.name + "' lists undefined child switch '" + c + "'", file,
                            s.line);
            }
        }
    }
    // Cycle check: iterative DFS with colours (0 new, 1 on stack, 2 done).
    std::vector<int> colour(t.switches.size(), 0);
    std::vector<std::size_t> parent(t.switches.size(), 0);
    for (std::size_t root = 0; root < t.switches.size(); ++root) {
        if (colour[root] != 0) {
            continue;
        }
        std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
        colour[root] = 1;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            const auto& kids = t.switches[v].children;
            if (next == kids.size()) {
                colour[v] = 2;
                stack.pop_back();
                continue;
            }
            std::size_t w = index.at(kids[next++]);
            if (colour[w] == 1) {
                std::string path = t.switches[w].name;
                std::vector<std::string> rev;
                for (std::size_t u = v; u != w; u = parent[u]) {
                    rev.push_back(t.switches[u].name);
                }
                for (auto it = rev.rbegin(); it != rev.rend(); ++it) {
                    path += " -> " + *it;
                }
                path += " -> " + t.switches[w].name;
                if (opts.reject_cycles) {
                    return fail(Errc::Parse, "switch cycle " + path + " (Slurm: not a tree)", file, t.switches[v].line);
                }
                t.warnings.push_back(where(file, t.switches[v].line) + ": switch cycle " + path
                                     + " (Slurm rejects this file: not a tree)");
                continue;
            }
            if (colour[w] == 0) {
                colour[w] = 1;
                parent[w] = v;
                stack.emplace_back(w, 0);
            }
        }
    }
    // Slurm logs "Multiple leaf switches contain nodes": a warning per pair of leaves.
    std::map<std::string, std::size_t> leaf_of;
    std::map<std::pair<std::size_t, std::size_t>, std::vector<std::string>> overlaps;
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        for (const auto& n : t.switches[i].nodes) {
            auto [it, fresh] = leaf_of.emplace(n, i);
            if (!fresh && it->second != i) {
                overlaps[{it->second, i}].push_back(n);
            }
        }
    }
    for (auto& [pair, nodes] : overlaps) {
        const auto& a = t.switches[pair.first];
        const auto& b = t.switches[pair.second];
        t.warnings.push_back(where(file, b.line) + ": node" + (nodes.size() > 1 ? "s " : " ") + compress_hostlist(nodes)
                             + " under two leaf switches: " + a.name + " (line " + std::to_string(a.line) + ") and "
                             + b.name);
    }
    std::vector<std::pair<const std::vector<std::string>*, int>> groups;
    for (const auto& s : t.switches) {
        groups.emplace_back(&s.nodes, s.line);
    }
    warn_odd_prefixes(t, groups);
    return Ok{};
}

Status validate_blocks(SlurmTopology& t, int sizes_line) {
    const std::string& file = t.source;
    std::map<std::string, int> seen;
    std::map<std::string, const SlurmBlock*> block_of;
    for (const auto& b : t.blocks) {
        auto [it, fresh] = seen.emplace(b.name, b.line);
        if (!fresh) {
            return fail(Errc::Parse,
                        "duplicate block '" + b.name + "' (first defined at line " + std::to_string(it->second) + ")",
                        file, b.line);
        }
        if (b.nodes.empty()) {
            return fail(Errc::Parse, "block '" + b.name + "' has no nodes", file, b.line);
        }
        std::vector<std::string> dup;
        const SlurmBlock* other = nullptr;
        for (const auto& n : b.nodes) {
            auto [jt, fresh2] = block_of.emplace(n, &b);
            if (!fresh2 && jt->second != &b) {
                dup.push_back(n);
                other = jt->second;
            }
        }
        if (!dup.empty()) {
            t.warnings.push_back(where(file, b.line) + ": nodes " + compress_hostlist(dup) + " are in two blocks: "
                                 + other->name + " (line " + std::to_string(other->line) + ") and " + b.name);
        }
    }
    if (!t.block_sizes.empty()) {
        if (auto st = check_block_sizes(t.block_sizes, file, sizes_line); !st) {
            return st;
        }
    }
    std::vector<std::pair<const std::vector<std::string>*, int>> groups;
    for (const auto& b : t.blocks) {
        groups.emplace_back(&b.nodes, b.line);
    }
    warn_odd_prefixes(t, groups);
    return Ok{};
}

// ---- topology.yaml ----

struct YamlCtx {
    const std::string& file;
    const SlurmParseOptions& opts;
    mutable NameBudget budget{kYamlTopologies * kMaxHostlistNames};

    Unexpected error(const YAML::Node& n, const std::string& msg) const {
        return fail(Errc::Parse, msg, file, yline(n));
    }

    // Check that map `n` has only `allowed` keys.
    Status keys(const YAML::Node& n, const char* what, std::initializer_list<const char*> allowed) const {
        if (!n.IsMap()) {
            return error(n, std::string(what) + " must be a mapping");
        }
        if (const auto k = unknown_key(n, allowed)) {
            return error(
                *k, "unknown key '" + k->as<std::string>() + "' in " + what + " (expected " + key_list(allowed) + ")");
        }
        return Ok{};
    }

    // The string value of `parent[key]`, which must exist.
    Result<std::string> scalar(const YAML::Node& parent, const char* key) const {
        const auto n = parent[key];
        if (!n) {
            return error(parent, std::string("missing '") + key + "'");
        }
        if (!n.IsScalar() || n.as<std::string>().empty()) {
            return error(n, std::string(key) + " must be a non-empty string");
        }
        return n.as<std::string>();
    }

    Result<bool> boolean(const YAML::Node& n, const std::string& what) const {
        bool v = false;
        if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)) {
            return error(n, what + " must be true or false");
        }
        return v;
    }

    // A hostlist string, or a list of hostlist strings.
    Result<std::vector<std::string>> hosts(const YAML::Node& n, const std::string& what) const {
        std::vector<std::string> out;
        auto add = [&](const YAML::Node& item) -> Status {
            if (!item.IsScalar()) {
                return error(item, what + " must be a hostlist string or a list of them");
            }
            auto r = expand_at(item.as<std::string>(), what, file, yline(item), budget);
            if (!r) {
                return fail(r.error());
            }
            out.insert(out.end(), r->begin(), r->end());
            return Ok{};
        };
        if (n.IsSequence()) {
            for (const auto& item : n) {
                if (auto st = add(item); !st) {
                    return fail(st.error());
                }
            }
            if (out.empty()) {
                return error(n, what + " is empty");
            }
        } else if (auto st = add(n); !st) {
            return fail(st.error());
        }
        return out;
    }
};

Status parse_yaml_tree(const YamlCtx& y, const YAML::Node& n, SlurmTopology& t) {
    const SlurmParseOptions& opts = y.opts;
    if (auto st = y.keys(n, "tree", {"switches"}); !st) {
        return st;
    }
    const auto sw = n["switches"];
    if (!sw || !sw.IsSequence()) {
        return y.error(sw ? sw : n, "tree.switches must be a list");
    }
    for (const auto& e : sw) {
        if (auto st = y.keys(e, "switch entry", {"switch", "children", "nodes", "link_speed"}); !st) {
            return st;
        }
        SlurmSwitch s;
        s.line = yline(e);
        auto name = y.scalar(e, "switch");
        if (!name) {
            return fail(name.error());
        }
        s.name = *name;
        if (e["children"]) {
            auto c = y.hosts(e["children"], "children");
            if (!c) {
                return fail(c.error());
            }
            s.children = std::move(*c);
        }
        if (e["nodes"]) {
            auto c = y.hosts(e["nodes"], "nodes");
            if (!c) {
                return fail(c.error());
            }
            s.nodes = std::move(*c);
        }
        if (e["link_speed"]) {
            s.link_speed = e["link_speed"].as<std::string>();
        }
        t.switches.push_back(std::move(s));
    }
    return validate_tree(t, opts);
}

Status parse_yaml_groups(const YamlCtx& y, const YAML::Node& parent, const char* list_key, const char* what,
                         const char* name_key, std::initializer_list<const char*> allowed, SlurmTopology& t) {
    const auto list = parent[list_key];
    if (!list || !list.IsSequence()) {
        return y.error(list ? list : parent, std::string(list_key) + " must be a list");
    }
    for (const auto& e : list) {
        if (auto st = y.keys(e, what, allowed); !st) {
            return st;
        }
        SlurmBlock b;
        b.line = yline(e);
        auto name = y.scalar(e, name_key);
        if (!name) {
            return fail(name.error());
        }
        b.name = *name;
        if (!e["nodes"]) {
            return y.error(e, std::string(what) + " '" + b.name + "' has no nodes");
        }
        auto nodes = y.hosts(e["nodes"], "nodes");
        if (!nodes) {
            return fail(nodes.error());
        }
        b.nodes = std::move(*nodes);
        t.blocks.push_back(std::move(b));
    }
    return Ok{};
}

Status parse_yaml_block(const YamlCtx& y, const YAML::Node& n, SlurmTopology& t) {
    if (auto st = y.keys(n, "block", {"block_sizes", "blocks"}); !st) {
        return st;
    }
    int sizes_line = yline(n);
    if (const auto bs = n["block_sizes"]) {
        sizes_line = yline(bs);
        if (!bs.IsSequence()) {
            return y.error(bs, "block_sizes must be a list of integers");
        }
        for (const auto& v : bs) {
            int x = 0;
            if (!v.IsScalar() || !YAML::convert<int>::decode(v, x) || x <= 0) {
                return y.error(
                    v, "block_sizes: \"" + (v.IsScalar() ? v.as<std::string>() : "") + "\" is not a positive integer");
            }
            t.block_sizes.push_back(x);
        }
    }
    if (auto st = parse_yaml_groups(y, n, "blocks", "block", "block", {"block", "nodes"}, t); !st) {
        return st;
    }
    return validate_blocks(t, sizes_line);
}

Result<SlurmTopology> parse_yaml_entry(const YamlCtx& y, const YAML::Node& e) {
    if (auto st =
            y.keys(e, "topology entry", {"topology", "cluster_default", "tree", "block", "flat", "ring", "torus3d"});
        !st) {
        return fail(st.error());
    }
    SlurmTopology t;
    t.source = y.file;
    auto name = y.scalar(e, "topology");
    if (!name) {
        return fail(name.error());
    }
    t.name = *name;
    if (e["cluster_default"]) {
        auto v = y.boolean(e["cluster_default"], "cluster_default");
        if (!v) {
            return fail(v.error());
        }
        t.cluster_default = *v;
    }
    int kinds = 0;
    for (const char* k : {"tree", "block", "flat", "ring", "torus3d"}) {
        kinds += e[k] ? 1 : 0;
    }
    if (kinds != 1) {
        return y.error(e, "topology '" + t.name + "' needs exactly one of tree, block, flat, ring, torus3d");
    }
    if (const auto n = e["tree"]) {
        t.kind = SlurmTopologyKind::Tree;
        if (auto st = parse_yaml_tree(y, n, t); !st) {
            return fail(st.error());
        }
    } else if (const auto b = e["block"]) {
        t.kind = SlurmTopologyKind::Block;
        if (auto st = parse_yaml_block(y, b, t); !st) {
            return fail(st.error());
        }
    } else if (const auto f = e["flat"]) {
        t.kind = SlurmTopologyKind::Flat;
        if (f.IsMap()) {
            if (auto st = y.keys(f, "flat", {"alpha_step_rank"}); !st) {
                return fail(st.error());
            }
        } else if (auto v = y.boolean(f, "flat"); !v) {
            return fail(v.error());
        }
    } else if (const auto r = e["ring"]) {
        t.kind = SlurmTopologyKind::Ring;
        if (auto st = y.keys(r, "ring", {"rings"}); !st) {
            return fail(st.error());
        }
        if (auto st = parse_yaml_groups(y, r, "rings", "ring", "ring", {"ring", "nodes"}, t); !st) {
            return fail(st.error());
        }
    } else if (const auto tor = e["torus3d"]) {
        t.kind = SlurmTopologyKind::Torus3d;
        if (auto st = y.keys(tor, "torus3d", {"toruses"}); !st) {
            return fail(st.error());
        }
        if (auto st = parse_yaml_groups(y, tor, "toruses", "torus", "name", {"name", "dims", "nodes", "placements"}, t);
            !st) {
            return fail(st.error());
        }
    }
    return t;
}

}  // namespace

const char* slurm_topology_kind_name(SlurmTopologyKind k) noexcept {
    switch (k) {
        case SlurmTopologyKind::Tree: return "tree";
        case SlurmTopologyKind::Block: return "block";
        case SlurmTopologyKind::Flat: return "flat";
        case SlurmTopologyKind::Ring: return "ring";
        case SlurmTopologyKind::Torus3d: return "torus3d";
    }
    return "unknown";
}

std::vector<const SlurmSwitch*> SlurmTopology::leaves() const {
    std::vector<const SlurmSwitch*> out;
    for (const auto& s : switches) {
        if (s.is_leaf()) {
            out.push_back(&s);
        }
    }
    return out;
}

std::vector<std::string> SlurmTopology::node_names() const {
    std::set<std::string> all;
    for (const auto& s : switches) {
        all.insert(s.nodes.begin(), s.nodes.end());
    }
    for (const auto& b : blocks) {
        all.insert(b.nodes.begin(), b.nodes.end());
    }
    std::vector<std::string> out(all.begin(), all.end());
    std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) { return natural_less(a, b); });
    return out;
}

std::vector<const SlurmSwitch*> SlurmTopology::roots() const {
    std::set<std::string> children;
    for (const auto& s : switches) {
        children.insert(s.children.begin(), s.children.end());
    }
    std::vector<const SlurmSwitch*> out;
    for (const auto& s : switches) {
        if (children.count(s.name) == 0) {
            out.push_back(&s);
        }
    }
    return out;
}

std::vector<int> SlurmTopology::levels() const {
    if (kind != SlurmTopologyKind::Tree) {
        return {};
    }
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < switches.size(); ++i) {
        index.emplace(switches[i].name, i);
    }
    std::vector<int> level(switches.size(), -1);
    // The tree is validated acyclic; the depth guard keeps a hand-made struct safe.
    std::function<int(std::size_t, int)> get = [&](std::size_t i, int depth) -> int {
        if (level[i] >= 0 || depth > static_cast<int>(switches.size())) {
            return std::max(level[i], 0);
        }
        int l = 0;
        for (const auto& c : switches[i].children) {
            auto it = index.find(c);
            if (it != index.end()) {
                l = std::max(l, get(it->second, depth + 1) + 1);
            }
        }
        level[i] = l;
        return l;
    };
    for (std::size_t i = 0; i < switches.size(); ++i) {
        get(i, 0);
    }
    return level;
}

Result<SlurmTopology> parse_topology_conf(std::string_view text, const std::string& source,
                                          const SlurmParseOptions& opts) {
    if (looks_binary(text)) {
        return fail(Errc::Parse, "not a topology.conf (binary data)", source);
    }
    SlurmTopology t;
    t.source = source;
    t.cluster_default = true;
    int sizes_line = 0;
    bool tree = false;
    bool block = false;
    NameBudget node_budget{kMaxHostlistNames};
    NameBudget switch_budget{kMaxHostlistNames};
    auto lines = split_lines(text);
    for (std::size_t li = 0; li < lines.size(); ++li) {
        const int lineno = static_cast<int>(li) + 1;
        std::string line(lines[li]);
        // A trailing backslash continues the line (Slurm's s_p parser).
        while (!trim(line).empty() && trim(line).back() == '\\' && li + 1 < lines.size()) {
            line = std::string(trim(line));
            line.pop_back();
            line += ' ';
            line += lines[++li];
        }
        if (auto hash = line.find('#'); hash != std::string::npos) {
            line.resize(hash);
        }
        if (trim(line).empty()) {
            continue;
        }
        auto kvs = tokenize_line(line, source, lineno);
        if (!kvs) {
            return fail(kvs.error());
        }
        const std::string& first = kvs->front().key;
        std::set<std::string> seen;
        for (const auto& kv : *kvs) {
            if (!seen.insert(kv.key).second) {
                return fail(Errc::Parse, "duplicate key " + kv.raw_key, source, lineno);
            }
        }
        if (first == "switchname") {
            SlurmSwitch s;
            s.line = lineno;
            for (const auto& kv : *kvs) {
                if (kv.key == "switchname") {
                    if (kv.value.empty()) {
                        return fail(Errc::Parse, "empty SwitchName", source, lineno);
                    }
                    s.name = kv.value;
                } else if (kv.key == "switches") {
                    auto r = expand_at(kv.value, kv.raw_key, source, lineno, switch_budget);
                    if (!r) {
                        return fail(r.error());
                    }
                    s.children = std::move(*r);
                } else if (kv.key == "nodes") {
                    auto r = expand_at(kv.value, kv.raw_key, source, lineno, node_budget);
                    if (!r) {
                        return fail(r.error());
                    }
                    s.nodes = std::move(*r);
                } else if (kv.key == "linkspeed") {
                    s.link_speed = kv.value;
                } else {
                    return fail(Errc::Parse,
                                "unknown key '" + kv.raw_key + "' for SwitchName (expected Switches, Nodes, LinkSpeed)",
                                source, lineno);
                }
            }
            tree = true;
            t.switches.push_back(std::move(s));
        } else if (first == "blockname") {
            SlurmBlock b;
            b.line = lineno;
            for (const auto& kv : *kvs) {
                if (kv.key == "blockname") {
                    if (kv.value.empty()) {
                        return fail(Errc::Parse, "empty BlockName", source, lineno);
                    }
                    b.name = kv.value;
                } else if (kv.key == "nodes") {
                    auto r = expand_at(kv.value, kv.raw_key, source, lineno, node_budget);
                    if (!r) {
                        return fail(r.error());
                    }
                    b.nodes = std::move(*r);
                } else {
                    return fail(Errc::Parse, "unknown key '" + kv.raw_key + "' for BlockName (expected Nodes)", source,
                                lineno);
                }
            }
            block = true;
            t.blocks.push_back(std::move(b));
        } else if (first == "blocksizes") {
            if (kvs->size() > 1) {
                return fail(Errc::Parse, "unexpected key '" + (*kvs)[1].raw_key + "' after BlockSizes", source, lineno);
            }
            if (sizes_line != 0) {
                return fail(Errc::Parse, "BlockSizes given twice (first at line " + std::to_string(sizes_line) + ")",
                            source, lineno);
            }
            auto r = parse_block_sizes(kvs->front().value, source, lineno);
            if (!r) {
                return fail(r.error());
            }
            t.block_sizes = std::move(*r);
            sizes_line = lineno;
            block = true;
        } else {
            return fail(Errc::Parse,
                        "line starts with '" + kvs->front().raw_key + "', expected SwitchName, BlockName or BlockSizes",
                        source, lineno);
        }
        if (tree && block) {
            return fail(Errc::Parse, "SwitchName and BlockName/BlockSizes in one file", source, lineno);
        }
    }
    if (!tree && !block) {
        if (trim(text).empty()) return fail(Errc::Parse, "empty file, not a topology.conf", source, 1);
        return fail(Errc::Parse, "no SwitchName or BlockName lines", source);
    }
    if (tree) {
        t.kind = SlurmTopologyKind::Tree;
        if (auto st = validate_tree(t, opts); !st) {
            return fail(st.error());
        }
    } else {
        t.kind = SlurmTopologyKind::Block;
        if (t.blocks.empty()) {
            return fail(Errc::Parse, "BlockSizes without BlockName lines", source, sizes_line);
        }
        if (auto st = validate_blocks(t, sizes_line); !st) {
            return fail(st.error());
        }
    }
    return t;
}

Result<std::vector<SlurmTopology>> parse_topology_yaml(std::string_view text, const std::string& source,
                                                       const SlurmParseOptions& opts) {
    if (looks_binary(text)) {
        return fail(Errc::Parse, "not a topology.yaml (binary data)", source);
    }
    YamlCtx y{source, opts};
    try {
        YAML::Node root = YAML::Load(std::string(text));
        if (!root || root.IsNull()) {
            return fail(Errc::Parse, "empty topology.yaml", source, 1);
        }
        if (!root.IsSequence()) {
            return y.error(root, "topology.yaml must be a list of topologies");
        }
        std::vector<SlurmTopology> out;
        std::map<std::string, int> names;
        int defaults = 0;
        for (const auto& e : root) {
            auto t = parse_yaml_entry(y, e);
            if (!t) {
                return fail(t.error());
            }
            if (auto [it, fresh] = names.emplace(t->name, yline(e)); !fresh) {
                return y.error(
                    e, "duplicate topology '" + t->name + "' (first at line " + std::to_string(it->second) + ")");
            }
            if (t->cluster_default && ++defaults > 1) {
                return y.error(e, "more than one topology has cluster_default: true");
            }
            out.push_back(std::move(*t));
        }
        if (out.empty()) {
            return fail(Errc::Parse, "empty topology.yaml", source);
        }
        return out;
    } catch (const YAML::Exception& ex) {
        return fail(Errc::Parse, ex.msg, source, ex.mark.line >= 0 ? ex.mark.line + 1 : 0);
    }
}

Result<std::vector<SlurmTopology>> load_slurm_topology(const std::string& path, const SlurmParseOptions& opts) {
    auto text = read_text_file(path);
    if (!text) {
        return fail(text.error());
    }
    auto ends = [&](std::string_view suf) { return ascii_lower(path).ends_with(suf); };
    std::string_view head = trim(*text);
    bool yaml = ends(".yaml") || ends(".yml") || ends(".yaml.gz") || ends(".yml.gz") || head.starts_with("---")
                || head.starts_with("- ");
    if (yaml) {
        return parse_topology_yaml(*text, path, opts);
    }
    auto t = parse_topology_conf(*text, path, opts);
    if (!t) {
        return fail(t.error());
    }
    std::vector<SlurmTopology> out;
    out.push_back(std::move(*t));
    return out;
}

const SlurmTopology* default_slurm_topology(const std::vector<SlurmTopology>& all) {
    for (const auto& t : all) {
        if (t.cluster_default) {
            return &t;
        }
    }
    return all.empty() ? nullptr : &all.front();
}

Status import_slurm_topology(const SlurmTopology& t, TopologyBuilder& b) {
    switch (t.kind) {
        case SlurmTopologyKind::Ring:
        case SlurmTopologyKind::Torus3d:
            return fail(Errc::Unsupported,
                        std::string("Slurm topology kind ") + slurm_topology_kind_name(t.kind) + " cannot be imported"
                            + (t.name.empty() ? "" : " ('" + t.name + "')"),
                        t.source);
        case SlurmTopologyKind::Flat: break;
        case SlurmTopologyKind::Tree:
            for (const auto& s : t.switches) {
                Switch sw;
                sw.guid = s.name;
                sw.name = s.name;
                sw.provenance = Provenance::Declared;
                b.add_switch(std::move(sw));
            }
            for (const auto& s : t.switches) {
                for (const auto& c : s.children) {
                    b.add_switch_link(s.name, 0, c, 0, 0.0, {}, LinkKind::Declared);
                }
            }
            for (const auto& s : t.switches) {
                for (const auto& n : s.nodes) {
                    b.add_host(n, HostRole::Compute, {}, Provenance::Declared);
                    Nic nic;
                    nic.guid = "slurm:" + n + ":" + s.name;
                    nic.provenance = Provenance::Declared;
                    b.add_nic(n, std::move(nic), s.name);
                }
            }
            break;
        case SlurmTopologyKind::Block: {
            // Each block is a leaf of the model (declared, one per block), so that its
            // hosts form a group the placer can fill; the network that joins blocks is
            // not in the file, so one declared switch above them all stands for it.
            const bool joined = t.blocks.size() > 1;
            const std::string root = "blocks:" + (t.name.empty() ? std::string("fabric") : t.name);
            if (joined) b.add_switch(Switch{.guid = root, .name = root, .provenance = Provenance::Declared});
            for (const auto& blk : t.blocks) {
                b.add_switch(Switch{.guid = "block:" + blk.name, .name = blk.name, .provenance = Provenance::Declared});
                if (joined) b.add_switch_link(root, 0, "block:" + blk.name, 0, 0.0, {}, LinkKind::Declared);
                for (const auto& n : blk.nodes) {
                    b.add_host(n, HostRole::Compute, {}, Provenance::Declared);
                    b.add_nic(n, Nic{.guid = "slurm:" + n + ":block:" + blk.name, .provenance = Provenance::Declared},
                              "block:" + blk.name);
                }
                b.add_nvl_domain(blk.name, blk.nodes);
            }
            break;
        }
    }
    for (const auto& w : t.warnings) {
        b.warn(w);
    }
    return Ok{};
}

}  // namespace topo
