// SPDX-License-Identifier: Apache-2.0
// The topology file checker (check.hpp). Each rule below is Slurm's own code, read in
// SchedMD's trees at slurm-24-11-5-1 and slurm-26-05-3-1 (../shared/slurm-src) and, for
// 22.05, in the messages of bookworm's 22.05.8 binaries (topology_tree.so, libslurmfull.so)
// and a live slurmctld (tests/lab/t-topocheck.sh): the source is named in each finding.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include <topo/hostlist.hpp>
#include <topo/slurmconf/check.hpp>
#include <topo/text_input.hpp>

namespace topo::slurmconf {

const char* severity_name(Severity s) noexcept {
    switch (s) {
        case Severity::Fatal: return "fatal";
        case Severity::Misplaces: return "misplaces";
        case Severity::Warning: return "warning";
    }
    return "warning";
}

std::string release_name(int release) {
    char b[16];
    std::snprintf(b, sizeof b, "%02d.%02d", release / 100, release % 100);
    return b;
}

std::string Finding::to_string() const {
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    s += ": " + release_name(release) + ": " + severity_name(severity) + ": " + rule + ": " + message;
    if (!source.empty()) s += " [Slurm: " + source + "]";
    return s;
}

namespace {

// Sources, as "file:function" in Slurm's tree.
constexpr const char* kSrcParseFile = "src/common/parse_config.c:s_p_parse_file";
constexpr const char* kSrcInclude = "src/common/parse_config.c:_parse_include_directive";
constexpr const char* kSrcParseNextKey = "src/common/parse_config.c:_parse_next_key";
constexpr const char* kSrcTreeParse = "src/plugins/topology/tree/switch_record.c:_parse_switches";
constexpr const char* kSrcTreeParse2205 = "src/plugins/topology/tree/topology_tree.c:_parse_switches (22.05)";
constexpr const char* kSrcTreeValidate = "src/plugins/topology/tree/switch_record.c:switch_record_validate";
constexpr const char* kSrcTree2205 = "src/plugins/topology/tree/topology_tree.c:_validate_switches (22.05)";
constexpr const char* kSrcBlockRead = "src/plugins/topology/block/block_record.c:_read_topo_file";
constexpr const char* kSrcBlockParse = "src/plugins/topology/block/block_record.c:_parse_block";
constexpr const char* kSrcBlockValidate = "src/plugins/topology/block/block_record.c:block_record_validate";
constexpr const char* kSrcBlockList = "src/plugins/topology/block/block_record.c:_list_to_bitmap";
constexpr const char* kSrcHostname = "src/common/hostlist.c:hostname_create_dims";
constexpr const char* kSrcTopoInit = "src/interfaces/topology.c:topology_g_init";
constexpr const char* kSrcTopoInit2205 = "src/common/slurm_topology.c:slurm_topo_init (22.05)";
constexpr const char* kSrcConfParse = "src/common/read_config.c:conf_parse (from topology.c:topology_g_init)";
constexpr const char* kSrcYamlProcess = "src/interfaces/topology.c:_process_conf";
constexpr const char* kSrcYamlMutual = "src/plugins/data_parser/v0.0.45/parsers.c:PARSE_FUNC(TOPOLOGY_TREE/BLOCK/FLAT)";

// HOST_NAME_MAX on Linux: switch_record.c:_parse_switches refuses longer SwitchName (24.11+).
constexpr std::size_t kSlurmHostNameMax = 64;
// switch_record.c: "if (depth > 20) fatal(\"Switch configuration is not a tree\")".
constexpr int kSlurmTreeDepth = 20;
// block_record.h MAX_BLOCK_LEVELS.
constexpr int kSlurmBlockLevels = 16;

std::vector<int> all_releases() {
    return {kRelease2205, kRelease2411, kRelease2605};
}

struct Ctx {
    const CheckOptions& opts;
    std::vector<Finding> out;
    std::set<std::string> defined;  // slurm.conf nodes (empty set without --slurm-conf)

    [[nodiscard]] bool have_slurm() const { return opts.slurm.has_value(); }

    void add(int rel, Severity sev, int line, std::string rule, std::string msg, std::string src) {
        out.push_back(Finding{opts.label, line, rel, sev, std::move(rule), std::move(msg), std::move(src)});
    }

    void add_in(const std::string& file, int rel, Severity sev, int line, std::string rule, std::string msg,
                std::string src) {
        out.push_back(Finding{file, line, rel, sev, std::move(rule), std::move(msg), std::move(src)});
    }

    [[nodiscard]] bool fatal_in(int rel) const {
        return std::any_of(out.begin(), out.end(),
                           [rel](const Finding& f) { return f.release == rel && f.severity == Severity::Fatal; });
    }
};

/// hostlist.c:hostname_create_dims reads a name's trailing digits with strtoul: past
/// ULONG_MAX they read as ULONG_MAX, and hostlist_pop/shift print the name back as
/// prefix + "%0*lu" of that, i.e. another name. Returns the name Slurm gets back.
std::string hostlist_round_trip(const std::string& name) {
    std::size_t i = name.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])) != 0) --i;
    if (i == name.size()) return name;
    const std::string digits = name.substr(i);
    std::string_view v = digits;
    while (v.size() > 1 && v.front() == '0') v.remove_prefix(1);
    const std::string_view ulong_max = "18446744073709551615";
    if (v.size() < ulong_max.size() || (v.size() == ulong_max.size() && v <= ulong_max)) return name;
    std::string back(ulong_max);
    if (back.size() < digits.size()) back.insert(0, digits.size() - back.size(), '0');
    return name.substr(0, i) + back;
}

/// C atoi(): leading blanks, a sign, digits; 0 when there are none (as BlockSizes reads them).
long long c_atoi(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) ++i;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    long long v = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0; ++i) {
        v = v * 10 + (s[i] - '0');
        if (v > (1LL << 40)) break;  // int overflow in C; far past any block size anyway
    }
    return neg ? -v : v;
}

/// block_record.c:_list_to_bitmap / the BlockSizes loop of _read_topo_file: the first size
/// is the base; each size must be a multiple of it by a power of two, at most 2^15.
/// Returns "" when valid, else why not.
std::string block_sizes_problem(const std::vector<long long>& sizes) {
    if (sizes.empty()) return "no sizes";
    const long long base = sizes.front();
    for (long long s : sizes) {
        if (s <= 0) return "size " + std::to_string(s) + " is not positive";
        if (base <= 0) return "base size is not positive";
        if (s % base != 0) return std::to_string(s) + " is not a multiple of the base size " + std::to_string(base);
        const long long ratio = s / base;
        if ((ratio & (ratio - 1)) != 0)
            return std::to_string(s) + " is " + std::to_string(ratio) + " x the base size, not a power of two";
        int level = 0;
        for (long long r = ratio; r > 1; r >>= 1) ++level;
        if (level >= kSlurmBlockLevels)
            return std::to_string(s) + " is 2^" + std::to_string(level) + " x the base size (at most 2^15)";
    }
    return {};
}

// ---------------------------------------------------------------- the records checked

struct Sw {
    std::string name;
    int line = 0;
    std::optional<std::string> nodes;     // Nodes= / nodes:
    std::optional<std::string> switches;  // Switches= / children:
};

struct Blk {
    std::string name;
    int line = 0;
    std::optional<std::string> nodes;
};

struct NodeSet {
    std::vector<std::string> defined;    // in slurm.conf (or every name without it)
    std::vector<std::string> undefined;  // not in slurm.conf
};

NodeSet split_nodes(const Ctx& c, const std::vector<std::string>& names) {
    NodeSet s;
    std::set<std::string> seen;
    for (const auto& n : names) {
        if (!seen.insert(n).second) continue;
        if (!c.have_slurm() || c.defined.contains(n)) {
            s.defined.push_back(n);
        } else {
            s.undefined.push_back(n);
        }
    }
    return s;
}

std::string shown(const std::vector<std::string>& names) {
    return compress_hostlist(names);
}

/// Nodes of slurm.conf that no leaf/block lists ("switches/blocks lack access to N nodes").
void check_uncovered(Ctx& c, int rel, const std::set<std::string>& covered, const char* what, const char* src) {
    if (!c.have_slurm()) return;
    std::vector<std::string> missing;
    int first_line = 0;
    for (const auto& n : c.opts.slurm->nodes) {
        if (covered.contains(n.name)) continue;
        if (missing.empty()) first_line = n.line;
        missing.push_back(n.name);
    }
    if (missing.empty()) return;
    std::sort(missing.begin(), missing.end());
    missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
    c.add_in(c.opts.slurm->file, rel, Severity::Misplaces, first_line, std::string(what) + "-nodes-not-covered",
             std::to_string(missing.size()) + " node(s) of slurm.conf are in no " + what + ": " + shown(missing)
                 + "; slurmctld logs '" + what + "s lack access to " + std::to_string(missing.size())
                 + " nodes' and never gives them to a job that needs the topology",
             src);
}

// ---------------------------------------------------------------- topology/tree

void check_tree(Ctx& c, int rel, std::vector<Sw> sws, bool yaml) {
    const char* validate = rel == kRelease2205 ? kSrcTree2205 : kSrcTreeValidate;
    const char* parse = rel == kRelease2205 ? kSrcTreeParse2205 : kSrcTreeParse;
    std::vector<Sw> kept;
    std::set<std::string> refused;  // lines Slurm already refused: not reported again as invalid children
    for (auto& s : sws) {
        if (yaml) {
            if (s.name.empty()) {
                c.add(rel, Severity::Fatal, s.line, "tree-switch-no-name",
                      "a switch without a name: slurmctld exits (\"Can't create a switch without a name\")",
                      kSrcTreeValidate);
                continue;
            }
            if (s.nodes && s.switches) {
                c.add(rel, Severity::Misplaces, s.line, "tree-both-nodes-and-children",
                      "switch " + s.name
                          + " has both nodes and children: slurmctld ignores its children (\"Ignoring children "
                            "switches\")",
                      kSrcTreeValidate);
                s.switches.reset();
            }
        } else {
            if (s.name.size() > kSlurmHostNameMax && rel >= kRelease2411) {
                c.add(rel, Severity::Fatal, s.line, "tree-name-too-long",
                      "SwitchName " + s.name.substr(0, 20) + "... is " + std::to_string(s.name.size())
                          + " characters, over HOST_NAME_MAX (64): the line is refused and slurmctld exits",
                      parse);
                refused.insert(s.name);
                continue;
            }
            if (s.nodes && s.switches) {
                c.add(rel, Severity::Fatal, s.line, "tree-both-nodes-and-switches",
                      "switch " + s.name + " has both Nodes= and Switches=: the line is refused and slurmctld exits",
                      parse);
                refused.insert(s.name);
                continue;
            }
            if (!s.nodes && !s.switches && rel < kRelease2605) {
                c.add(rel, Severity::Fatal, s.line, "tree-neither-nodes-nor-switches",
                      "switch " + s.name
                          + " has neither Nodes= nor Switches=: the line is refused and slurmctld exits (26.05 "
                            "takes it as an empty leaf)",
                      parse);
                refused.insert(s.name);
                continue;
            }
        }
        kept.push_back(std::move(s));
    }
    if (kept.empty() && !c.fatal_in(rel)) {
        if (rel >= kRelease2605) {
            c.add(rel, Severity::Fatal, 0, "tree-no-switches",
                  "no switches: slurmctld exits (\"No switches configured, failed to create context\")", validate);
        } else {
            c.add(rel, Severity::Misplaces, 0, "tree-no-switches",
                  "no switches: slurmctld logs \"No switches configured\" and runs without a topology (jobs are "
                  "placed as if topology/tree were off)",
                  validate);
        }
        return;
    }
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < kept.size(); ++i) {
        auto [it, fresh] = index.emplace(kept[i].name, i);
        if (!fresh) {
            c.add(rel, Severity::Fatal, kept[i].line, "tree-duplicate-switch",
                  "switch " + kept[i].name + " is defined twice (first at line " + std::to_string(kept[it->second].line)
                      + "): slurmctld exits",
                  validate);
        }
    }
    // leaves: nodes; upper switches: children (indexes)
    std::vector<std::set<std::string>> below(kept.size());
    std::vector<std::vector<std::size_t>> children(kept.size());
    std::vector<bool> leaf(kept.size(), false);
    std::map<std::string, int> leaf_of;  // node -> line of its first leaf
    std::vector<std::string> multi;
    std::set<std::string> covered;
    bool broken = false;
    for (std::size_t i = 0; i < kept.size(); ++i) {
        const auto& s = kept[i];
        if (s.nodes || !s.switches) {
            leaf[i] = true;
            if (!s.nodes) continue;  // an empty leaf (26.05)
            auto names = expand_hostlist(*s.nodes);
            if (!names) {
                c.add(rel, Severity::Fatal, s.line, "tree-bad-nodes-hostlist",
                      "switch " + s.name + ": Nodes=" + *s.nodes + " is not a hostlist Slurm can expand ("
                          + names.error().message + "): slurmctld exits (\"Invalid node name\")",
                      validate);
                broken = true;
                continue;
            }
            auto ns = split_nodes(c, *names);
            if (!ns.undefined.empty()) {
                c.add(rel, Severity::Misplaces, s.line, "tree-undefined-nodes",
                      "switch " + s.name + ": " + std::to_string(ns.undefined.size())
                          + " node(s) not defined in slurm.conf: " + shown(ns.undefined)
                          + "; slurmctld drops them (\"Invalid hostnames in switch configuration\")",
                      validate);
            }
            for (const auto& n : ns.defined) {
                if (!leaf_of.emplace(n, s.line).second) multi.push_back(n);
                below[i].insert(n);
                covered.insert(n);
            }
            continue;
        }
        auto names = expand_hostlist(*s.switches);
        if (!names) {
            c.add(rel, Severity::Fatal, s.line, "tree-bad-switches-hostlist",
                  "switch " + s.name + ": Switches=" + *s.switches + " is not a hostlist Slurm can expand ("
                      + names.error().message + "): slurmctld exits (\"Invalid switches\")",
                  validate);
            broken = true;
            continue;
        }
        for (const auto& child : *names) {
            const std::string back = hostlist_round_trip(child);
            auto it = index.find(back);
            if (back != child) {
                std::string msg = "switch " + s.name + ": child " + child;
                msg += " has a numeric suffix past ULONG_MAX; Slurm's hostlist parser reads it back as ";
                msg += back;
                msg += R"(, an undefined switch: slurmctld exits ("has invalid child"))";
                c.add(rel, Severity::Fatal, s.line, "tree-name-overflows-hostlist", std::move(msg),
                      std::string(kSrcHostname) + ", " + validate);
                broken = true;
            } else if (it == index.end() && refused.contains(child)) {
                broken = true;  // Slurm exited at that switch's line already
            } else if (it == index.end() || it->second == i) {
                c.add(rel, Severity::Fatal, s.line, "tree-invalid-child",
                      "switch " + s.name + ": child " + child
                          + (it == index.end() ? " is not a defined switch" : " is the switch itself")
                          + ": slurmctld exits (\"has invalid child\")",
                      validate);
                broken = true;
            } else {
                children[i].push_back(it->second);
            }
        }
    }
    if (broken || c.fatal_in(rel)) return;
    // switch_record_validate's level passes: a switch resolves once all its children have.
    std::vector<int> level(kept.size(), -1);
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (leaf[i]) level[i] = 0;
    for (int depth = 1;; ++depth) {
        bool resolved = true;
        for (std::size_t i = 0; i < kept.size(); ++i) {
            if (level[i] != -1) continue;
            int lv = -1;
            bool all = true;
            for (auto ch : children[i]) {
                if (level[ch] == -1) {
                    all = false;
                    break;
                }
                lv = std::max(lv, level[ch] + 1);
            }
            if (all) {
                level[i] = lv;
                for (auto ch : children[i]) below[i].insert(below[ch].begin(), below[ch].end());
            } else {
                resolved = false;
            }
        }
        if (resolved) break;
        if (depth > kSlurmTreeDepth) {
            std::string loop;
            int line = 0;
            for (std::size_t i = 0; i < kept.size(); ++i) {
                if (level[i] != -1) continue;
                if (line == 0) line = kept[i].line;
                loop += (loop.empty() ? "" : ", ") + kept[i].name;
            }
            c.add(rel, Severity::Fatal, line, "tree-not-a-tree",
                  "switches " + loop
                      + " never resolve to a level (a loop, or over 20 levels): slurmctld exits (\"Switch "
                        "configuration is not a tree\")",
                  validate);
            return;
        }
    }
    if (!multi.empty()) {
        std::sort(multi.begin(), multi.end());
        multi.erase(std::unique(multi.begin(), multi.end()), multi.end());
        c.add(rel, Severity::Misplaces, kept[0].line, "tree-node-on-two-leaves",
              std::to_string(multi.size()) + " node(s) on more than one leaf switch: " + shown(multi)
                  + "; slurmctld counts them under each (\"Multiple leaf switches contain nodes\")",
              validate);
    }
    check_uncovered(c, rel, covered, "switch", validate);
    // "no switch can reach all nodes through its descendants"
    const std::size_t all = c.have_slurm() ? c.defined.size() : covered.size();
    bool have_root = false;
    for (const auto& b : below) have_root = have_root || (all > 0 && b.size() == all);
    if (!have_root && all > 0) {
        std::vector<bool> is_child(kept.size(), false);
        for (const auto& ch : children)
            for (auto k : ch) is_child[k] = true;
        std::vector<std::size_t> tops;
        for (std::size_t i = 0; i < kept.size(); ++i)
            if (!is_child[i] && !below[i].empty()) tops.push_back(i);
        std::stable_sort(tops.begin(), tops.end(),
                         [&](std::size_t a, std::size_t b) { return below[a].size() > below[b].size(); });
        const std::string msg_tail =
            "; slurmctld warns \"no switch can reach all nodes through its descendants\", and a job that needs "
            "nodes from both sides never starts (unless TopologyParam=TopoOptional)";
        if (tops.size() >= 2) {
            for (std::size_t k = 1; k < tops.size(); ++k) {
                const auto& s = kept[tops[k]];
                c.add(rel, Severity::Misplaces, s.line, "tree-disconnected",
                      "switch " + s.name + " (" + std::to_string(below[tops[k]].size())
                          + " nodes) has no path to switch " + kept[tops[0]].name + " ("
                          + std::to_string(below[tops[0]].size()) + " nodes): no common parent" + msg_tail,
                      validate);
            }
        } else {
            c.add(rel, Severity::Misplaces, tops.empty() ? 0 : kept[tops[0]].line, "tree-disconnected",
                  "no switch reaches all " + std::to_string(all) + " nodes" + msg_tail, validate);
        }
    }
}

// ---------------------------------------------------------------- topology/block

struct BlockInput {
    std::vector<Blk> blocks;
    bool sizes_given = false;
    std::vector<long long> sizes;
    std::string sizes_text;
    int sizes_line = 0;
    std::string topology_name;  // yaml
};

void check_block(Ctx& c, int rel, const BlockInput& in, bool yaml) {
    if (rel < kRelease2411) {
        c.add(rel, Severity::Fatal, in.blocks.empty() ? 0 : in.blocks.front().line, "block-no-plugin",
              "Slurm 22.05 has no topology/block (bookworm's slurm-wlm-basic-plugins ship tree, 3d_torus, "
              "hypercube, none): TopologyPlugin=topology/block makes slurmctld exit",
              kSrcTopoInit2205);
        return;
    }
    long long base = 0;
    if (in.sizes_given) {
        if (auto why = block_sizes_problem(in.sizes); !why.empty()) {
            c.add(rel, Severity::Fatal, in.sizes_line, "block-sizes-invalid",
                  (yaml ? "block_sizes" : "BlockSizes=" + in.sizes_text) + ": " + why
                      + ": slurmctld exits (\"Invalid BlockSizes value\")",
                  yaml ? kSrcBlockList : kSrcBlockRead);
        } else {
            base = in.sizes.front();
        }
    }
    std::vector<const Blk*> kept;
    for (const auto& b : in.blocks) {
        if (yaml && b.name.empty()) {
            c.add(rel, Severity::Fatal, b.line, "block-no-name",
                  "a block without a name: slurmctld exits (\"Can't create a block without a name\")",
                  kSrcBlockValidate);
            continue;
        }
        if (!b.nodes && !yaml && rel < kRelease2605) {
            c.add(rel, Severity::Fatal, b.line, "block-no-nodes",
                  "block " + b.name + " has no Nodes=: the line is refused and slurmctld exits (26.05 takes it as "
                                      "an empty block)",
                  kSrcBlockParse);
            continue;
        }
        kept.push_back(&b);
    }
    if (kept.empty() && !c.fatal_in(rel)) {
        if (rel >= kRelease2605) {
            c.add(rel, Severity::Fatal, in.sizes_line, "block-no-blocks",
                  "no blocks: slurmctld exits (\"No blocks configured, failed to create context\")", kSrcBlockValidate);
        } else {
            c.add(rel, Severity::Misplaces, in.sizes_line, "block-no-blocks",
                  "no blocks: slurmctld logs \"No blocks configured\" and runs without a topology", kSrcBlockValidate);
        }
        return;
    }
    std::map<std::string, int> names;
    std::set<std::string> covered;
    long long bblock = base;
    bool any_nodes_field = false;
    for (const auto* b : kept) {
        if (auto [it, fresh] = names.emplace(b->name, b->line); !fresh) {
            c.add(rel, Severity::Fatal, b->line, "block-duplicate",
                  "block " + b->name + " is defined twice (first at line " + std::to_string(it->second)
                      + "): slurmctld exits",
                  kSrcBlockValidate);
        }
        if (!b->nodes) continue;
        any_nodes_field = true;
        auto ns_names = expand_hostlist(*b->nodes);
        if (!ns_names) {
            c.add(rel, Severity::Fatal, b->line, "block-bad-nodes-hostlist",
                  "block " + b->name + ": Nodes=" + *b->nodes + " is not a hostlist Slurm can expand ("
                      + ns_names.error().message + "): slurmctld exits (\"Invalid node name\")",
                  kSrcBlockValidate);
            continue;
        }
        auto ns = split_nodes(c, *ns_names);
        if (!ns.undefined.empty()) {
            c.add(rel, Severity::Misplaces, b->line, "block-undefined-nodes",
                  "block " + b->name + ": " + std::to_string(ns.undefined.size())
                      + " node(s) not defined in slurm.conf: " + shown(ns.undefined)
                      + "; slurmctld drops them (\"Invalid hostnames in block configuration\")",
                  kSrcBlockValidate);
        }
        covered.insert(ns.defined.begin(), ns.defined.end());
        const auto count = static_cast<long long>(ns.defined.size());
        if (bblock == 0) {
            bblock = count;
        } else if (count < bblock && rel < kRelease2605) {
            c.add(rel, Severity::Fatal, b->line, "block-smaller-than-base",
                  "block " + b->name + " has " + std::to_string(count) + " node(s), fewer than the base block size "
                      + std::to_string(bblock)
                      + ": slurmctld exits (\"children count lower than bblock_node_cnt\"; 25.05+ allow it)",
                  kSrcBlockValidate);
        }
    }
    (void)any_nodes_field;
    if (bblock == 0 && !c.fatal_in(rel)) {
        c.add(rel, Severity::Fatal, kept.front()->line, "block-no-nodes-at-all",
              "no block has a node defined in slurm.conf and there is no BlockSizes: slurmctld exits",
              kSrcBlockValidate);
    }
    // aggregated blocks are named by hostlist_create() of their base blocks' names
    if (kept.size() >= 2) {
        for (const auto* b : kept) {
            auto h = count_hostlist(b->name);
            if (!h || *h != 1) {
                c.add(rel, Severity::Fatal, b->line, "block-name-not-hostlist",
                      "block name " + b->name
                          + " is not one hostlist name (Slurm names aggregated blocks by a hostlist of their "
                            "blocks' names): slurmctld exits (\"Invalide BlockName\")",
                      kSrcBlockValidate);
            }
        }
    }
    check_uncovered(c, rel, covered, "block", kSrcBlockValidate);
}

// ---------------------------------------------------------------- topology.conf

struct Pair {
    std::string key;  // as written
    std::string value;
};

struct Record {
    int line = 0;
    std::vector<Pair> pairs;
    std::string rest;  // what did not parse as key=value (parse_config.c: "Parse error")
};

/// parse_config.c:_keyvalue_regex: KEY[op]=VALUE, VALUE quoted or up to a blank.
std::vector<Record> conf_records(std::string_view text) {
    std::vector<Record> out;
    auto lines = split_lines(text);
    std::string joined;
    int first = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string l(lines[i]);
        if (!l.empty() && l.back() == '\r') l.pop_back();
        // _get_next_line: '#' starts a comment unless escaped; a trailing '\' joins lines
        std::string clean;
        for (std::size_t k = 0; k < l.size(); ++k) {
            if (l[k] == '\\' && k + 1 < l.size() && l[k + 1] == '#') {
                clean += '#';
                ++k;
            } else if (l[k] == '#') {
                break;
            } else {
                clean += l[k];
            }
        }
        if (joined.empty()) first = static_cast<int>(i) + 1;
        if (!clean.empty() && clean.back() == '\\') {
            clean.pop_back();
            joined += clean;
            continue;
        }
        joined += clean;
        std::string_view s = joined;
        Record r;
        r.line = first;
        while (true) {
            std::size_t p = 0;
            while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])) != 0) ++p;
            std::size_t k0 = p;
            while (p < s.size() && (std::isalnum(static_cast<unsigned char>(s[p])) != 0 || s[p] == '_' || s[p] == '.'))
                ++p;
            std::size_t k1 = p;
            while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])) != 0) ++p;
            if (p < s.size() && std::string_view("-*+/").find(s[p]) != std::string_view::npos) ++p;
            if (k1 == k0 || p >= s.size() || s[p] != '=') break;
            ++p;
            while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])) != 0) ++p;
            std::string value;
            if (p < s.size() && s[p] == '"') {
                auto q = s.find('"', p + 1);
                if (q == std::string_view::npos) break;
                value = std::string(s.substr(p + 1, q - p - 1));
                p = q + 1;
            } else {
                std::size_t v0 = p;
                while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])) == 0) ++p;
                if (p == v0) break;
                value = std::string(s.substr(v0, p - v0));
            }
            if (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])) == 0) break;
            r.pairs.push_back(Pair{std::string(s.substr(k0, k1 - k0)), std::move(value)});
            s.remove_prefix(p);
        }
        r.rest = std::string(trim(s));
        if (!r.pairs.empty() || !r.rest.empty()) out.push_back(std::move(r));
        joined.clear();
    }
    return out;
}

bool key_is(const std::string& k, std::string_view want) {
    return ascii_lower(k) == ascii_lower(want);
}

enum class Plugin : std::uint8_t { Tree, Block, Other, None };

Plugin plugin_of(const std::string& p) {
    const std::string l = ascii_lower(trim(p));
    if (l == "topology/tree") return Plugin::Tree;
    if (l == "topology/block") return Plugin::Block;
    if (l.empty()) return Plugin::None;
    return Plugin::Other;
}

void check_conf(Ctx& c, std::string_view text, const std::vector<int>& releases) {
    auto recs = conf_records(text);
    bool has_switch = false;
    bool has_block = false;
    for (const auto& r : recs) {
        if (r.pairs.empty()) continue;
        has_switch = has_switch || key_is(r.pairs[0].key, "SwitchName");
        has_block = has_block || key_is(r.pairs[0].key, "BlockName") || key_is(r.pairs[0].key, "BlockSizes");
    }
    Plugin plugin = has_block && !has_switch ? Plugin::Block : Plugin::Tree;
    if (c.have_slurm()) {
        plugin = plugin_of(c.opts.slurm->topology_plugin);
        if (plugin == Plugin::None || plugin == Plugin::Other) {
            for (int rel : releases) {
                c.add_in(c.opts.slurm->file, rel, Severity::Misplaces, c.opts.slurm->topology_plugin_line,
                         "conf-not-read",
                         "TopologyPlugin="
                             + (c.opts.slurm->topology_plugin.empty() ? std::string("(unset)")
                                                                      : c.opts.slurm->topology_plugin)
                             + " does not read topology.conf: the file is ignored",
                         rel == kRelease2205 ? kSrcTopoInit2205 : kSrcTopoInit);
            }
            return;
        }
    }
    for (int rel : releases) {
        std::vector<Sw> sws;
        BlockInput bi;
        for (const auto& r : recs) {
            // s_p_parse_file: the first key must be one the plugin's table knows
            const std::string k0 = r.pairs.empty() ? std::string() : r.pairs[0].key;
            const bool top_known =
                plugin == Plugin::Tree ? key_is(k0, "SwitchName") : key_is(k0, "BlockName") || key_is(k0, "BlockSizes");
            if (r.pairs.empty() && r.rest.size() > 7 && ascii_lower(r.rest.substr(0, 7)) == "include"
                && std::isspace(static_cast<unsigned char>(r.rest[7])) != 0) {
                // parse_config.c:_parse_include_directive reads the file in place; a glob is refused
                const std::string file(trim(std::string_view(r.rest).substr(8)));
                if (file.find('*') != std::string::npos) {
                    c.add(rel, Severity::Fatal, r.line, "conf-include-glob",
                          "Include " + file
                              + (rel == kRelease2205
                                     ? ": Slurm does not expand globs; 22.05 retries the literal name for 60 s, then "
                                       "slurmctld exits"
                                     : R"(: Slurm does not expand globs ("Include" failed): slurmctld exits)"),
                          kSrcInclude);
                } else {
                    c.add(rel, Severity::Warning, r.line, "conf-include-not-followed",
                          "Include " + file
                              + ": slurmctld reads that file here; this check does not follow it (check it on its own)",
                          kSrcInclude);
                }
                continue;
            }
            if (r.pairs.empty()) {
                c.add(rel, Severity::Fatal, r.line, "conf-parse-error",
                      "\"" + r.rest.substr(0, 60) + R"(" is not KEY=VALUE: slurmctld exits ("Parse error in file"))",
                      kSrcParseFile);
                continue;
            }
            if (!top_known) {
                c.add(rel, Severity::Fatal, r.line, "conf-unknown-key",
                      "key " + k0 + " is not one topology/" + (plugin == Plugin::Tree ? "tree" : "block")
                          + " reads: slurmctld exits (\"Parsing error at unrecognized key\")",
                      kSrcParseNextKey);
                continue;
            }
            // the record's own keys; the first other key stops the line (a parse error)
            std::size_t used = 1;
            if (key_is(k0, "BlockSizes")) {
                bi.sizes_given = true;
                bi.sizes_text = r.pairs[0].value;
                bi.sizes_line = r.line;
                bi.sizes.clear();
                std::string_view v = r.pairs[0].value;
                while (!v.empty()) {  // strtok_r(",") skips empty fields
                    auto comma = v.find(',');
                    auto tok = v.substr(0, comma);
                    if (!tok.empty()) bi.sizes.push_back(c_atoi(tok));
                    if (comma == std::string_view::npos) break;
                    v.remove_prefix(comma + 1);
                }
            } else if (key_is(k0, "SwitchName")) {
                Sw s{r.pairs[0].value, r.line, std::nullopt, std::nullopt};
                for (; used < r.pairs.size(); ++used) {
                    const auto& p = r.pairs[used];
                    if (key_is(p.key, "Nodes")) {
                        s.nodes = p.value;
                    } else if (key_is(p.key, "Switches")) {
                        s.switches = p.value;
                    } else if (key_is(p.key, "LinkSpeed")) {
                        const std::string l = ascii_lower(p.value);
                        const bool num = !p.value.empty() && std::all_of(p.value.begin(), p.value.end(), [](char ch) {
                            return std::isdigit(static_cast<unsigned char>(ch)) != 0;
                        });
                        if (!num && l != "unlimited" && l != "infinite") break;
                    } else {
                        break;
                    }
                }
                sws.push_back(std::move(s));
            } else {
                Blk b{r.pairs[0].value, r.line, std::nullopt};
                for (; used < r.pairs.size(); ++used) {
                    if (!key_is(r.pairs[used].key, "Nodes")) break;
                    b.nodes = r.pairs[used].value;
                }
                bi.blocks.push_back(std::move(b));
            }
            if (used < r.pairs.size() || !r.rest.empty()) {
                const std::string what = used < r.pairs.size() ? r.pairs[used].key + "=" + r.pairs[used].value : r.rest;
                c.add(rel, Severity::Fatal, r.line, "conf-parse-error",
                      "\"" + what.substr(0, 60) + "\" is not read on a " + k0
                          + " line (an unknown key, a bad value or an empty one): slurmctld exits (\"Parse error "
                            "in file\")",
                      kSrcParseFile);
            }
        }
        if (plugin == Plugin::Tree) {
            check_tree(c, rel, std::move(sws), false);
        } else {
            check_block(c, rel, bi, false);
        }
    }
}

// ---------------------------------------------------------------- topology.yaml (25.05+)

int yline(const YAML::Node& n) {
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

std::optional<std::string> yscalar(const YAML::Node& n, const char* key) {
    auto v = n[key];
    if (!v || v.IsNull()) return std::nullopt;
    if (v.IsScalar()) return v.Scalar();
    if (v.IsSequence()) {  // a list of names is read as a hostlist joined by commas
        std::string s;
        for (const auto& e : v)
            if (e.IsScalar()) s += (s.empty() ? "" : ",") + e.Scalar();
        return s;
    }
    return std::nullopt;
}

void check_yaml_entry(Ctx& c, const YAML::Node& e) {
    const int rel = kRelease2605;
    if (!e.IsMap()) {
        c.add(rel, Severity::Fatal, yline(e), "yaml-entry-not-a-map",
              "a topology entry that is not a mapping: topology.yaml fails to parse and slurmctld exits "
              "(\"Failed to initialize topology plugin\")",
              kSrcConfParse);
        return;
    }
    const std::string name = e["topology"] && e["topology"].IsScalar() ? e["topology"].Scalar() : std::string();
    std::vector<std::string> kinds;
    for (const char* k : {"tree", "block", "flat", "ring", "torus3d"}) {
        auto v = e[k];
        if (!v) continue;
        if (std::string(k) == "flat") {
            if (v.IsMap() || (v.IsScalar() && ascii_lower(v.Scalar()) == "true")) kinds.emplace_back(k);
            continue;
        }
        if (!v.IsMap()) {
            c.add(rel, Severity::Fatal, yline(v), "yaml-not-a-dict",
                  std::string(k) + ": is not a mapping: topology.yaml fails to parse and slurmctld exits "
                                   "(\"Rejecting ... when dictionary expected\")",
                  kSrcYamlMutual);
            return;
        }
        if (v.size() > 0) kinds.emplace_back(k);
    }
    if (kinds.size() > 1) {
        c.add(rel, Severity::Fatal, yline(e), "yaml-several-kinds",
              "topology " + name + " has " + kinds[0] + " and " + kinds[1]
                  + ": they are mutually exclusive; topology.yaml fails to parse and slurmctld exits",
              kSrcYamlMutual);
        return;
    }
    if (kinds.empty()) {
        c.add(rel, Severity::Fatal, yline(e), "yaml-no-kind",
              "topology " + (name.empty() ? std::string("(unnamed)") : name)
                  + " has no tree, block, flat, ring or torus3d: no plugin to load; slurmctld exits (\"Failed to "
                    "initialize topology plugin\")",
              kSrcYamlProcess);
        return;
    }
    if (kinds[0] == "tree") {
        std::vector<Sw> sws;
        auto list = e["tree"]["switches"];
        if (list && list.IsSequence()) {
            for (const auto& s : list) {
                if (!s.IsMap()) continue;
                sws.push_back(
                    Sw{yscalar(s, "switch").value_or(""), yline(s), yscalar(s, "nodes"), yscalar(s, "children")});
            }
        }
        check_tree(c, rel, std::move(sws), true);
    } else if (kinds[0] == "block") {
        BlockInput bi;
        bi.topology_name = name;
        auto b = e["block"];
        if (auto bs = b["block_sizes"]; bs && bs.IsSequence() && bs.size() > 0) {
            bi.sizes_given = true;
            bi.sizes_line = yline(bs);
            for (const auto& v : bs) {
                long long n = 0;
                if (v.IsScalar()) n = c_atoi(v.Scalar());
                bi.sizes.push_back(n);
            }
        }
        if (auto list = b["blocks"]; list && list.IsSequence()) {
            for (const auto& x : list) {
                if (!x.IsMap()) continue;
                bi.blocks.push_back(Blk{yscalar(x, "block").value_or(""), yline(x), yscalar(x, "nodes")});
            }
        }
        check_block(c, rel, bi, true);
    }
}

void check_yaml(Ctx& c, std::string_view text, const std::vector<int>& releases) {
    for (int rel : releases) {
        if (rel >= kRelease2605) continue;
        c.add(rel, Severity::Misplaces, 0, "yaml-not-read",
              "Slurm " + release_name(rel)
                  + " reads no topology.yaml (25.05+): slurmctld ignores it and uses TopologyPlugin and "
                    "topology.conf",
              rel == kRelease2205 ? kSrcTopoInit2205 : kSrcTopoInit);
    }
    if (std::find(releases.begin(), releases.end(), kRelease2605) == releases.end()) return;
    const int rel = kRelease2605;
    if (looks_binary(text)) {
        c.add(rel, Severity::Fatal, 0, "yaml-unreadable",
              "binary data, not YAML: slurmctld exits (\"Failed to initialize topology plugin\")", kSrcConfParse);
        return;
    }
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& ex) {
        c.add(rel, Severity::Fatal, ex.mark.line >= 0 ? ex.mark.line + 1 : 0, "yaml-syntax",
              "not YAML (" + ex.msg + "): slurmctld exits (\"Failed to initialize topology plugin\")", kSrcConfParse);
        return;
    }
    if (!root || root.IsNull() || (root.IsSequence() && root.size() == 0)) {
        c.add(rel, Severity::Fatal, 0, "yaml-empty",
              "empty topology.yaml (no topology in it): slurmctld exits (\"Failed to initialize topology plugin\")",
              kSrcConfParse);
        return;
    }
    try {
        if (root.IsMap()) {
            check_yaml_entry(c, root);
        } else if (root.IsSequence()) {
            for (const auto& e : root) check_yaml_entry(c, e);
        } else {
            c.add(rel, Severity::Fatal, yline(root), "yaml-not-a-list",
                  "topology.yaml is a scalar, not a list of topologies: slurmctld exits (\"Unexpected type ... when "
                  "expecting a list\")",
                  kSrcConfParse);
        }
    } catch (const YAML::Exception& ex) {
        c.add(rel, Severity::Fatal, ex.mark.line >= 0 ? ex.mark.line + 1 : 0, "yaml-syntax",
              "unexpected YAML structure (" + ex.msg + "): slurmctld exits", kSrcConfParse);
    }
}

bool ends_with_ci(const std::string& s, std::string_view suf) {
    return ascii_lower(s).ends_with(suf);
}

}  // namespace

Result<SlurmConfFacts> read_slurm_conf_facts(std::string_view text, const std::string& label) {
    SlurmConfFacts f;
    f.file = label;
    for (const auto& r : conf_records(text)) {
        if (r.pairs.empty()) continue;
        const auto& k0 = r.pairs[0];
        if (key_is(k0.key, "TopologyPlugin")) {
            f.topology_plugin = k0.value;
            f.topology_plugin_line = r.line;
        } else if (key_is(k0.key, "NodeName") && !key_is(k0.value, "DEFAULT")) {
            auto names = expand_hostlist(k0.value);
            if (!names) return fail(Errc::Parse, "NodeName=" + k0.value + ": " + names.error().message, label, r.line);
            for (auto& n : *names) f.nodes.push_back(SlurmConfFacts::Node{std::move(n), r.line});
        }
    }
    return f;
}

std::vector<Finding> check_topology_file(std::string_view text, const CheckOptions& opts) {
    Ctx c{opts, {}, {}};
    if (opts.slurm)
        for (const auto& n : opts.slurm->nodes) c.defined.insert(n.name);
    const std::vector<int> releases = opts.releases.empty() ? all_releases() : opts.releases;
    FileKind kind = opts.kind;
    if (kind == FileKind::Auto) {
        if (ends_with_ci(opts.label, ".yaml") || ends_with_ci(opts.label, ".yml")) {
            kind = FileKind::Yaml;
        } else {
            // by content: a topology.conf line is KEY=VALUE; topology.yaml has "topology:" or "- "
            kind = FileKind::Conf;
            for (auto l : split_lines(text)) {
                auto t = trim(l);
                if (t.empty() || t.front() == '#') continue;
                if (t.starts_with("---") || t.starts_with("- ") || t.starts_with("topology:")) kind = FileKind::Yaml;
                break;
            }
        }
    }
    if (kind == FileKind::Yaml) {
        check_yaml(c, text, releases);
    } else {
        if (looks_binary(text)) {
            for (int rel : releases)
                c.add(rel, Severity::Fatal, 0, "conf-parse-error", "binary data, not topology.conf: slurmctld exits",
                      kSrcParseFile);
        } else {
            check_conf(c, text, releases);
        }
    }
    std::stable_sort(c.out.begin(), c.out.end(), [](const Finding& a, const Finding& b) {
        if (a.release != b.release) return a.release < b.release;
        if (a.file != b.file) return a.file < b.file;
        return a.line < b.line;
    });
    return std::move(c.out);
}

}  // namespace topo::slurmconf
