// SPDX-License-Identifier: Apache-2.0
// topology.conf for topology/block: one base block per NVLink domain or leaf group.
// The Slurm rules behind every choice are in block.hpp and docs/slurm-conf.md.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <sstream>

#include <topo/hostlist.hpp>
#include <topo/slurm_view.hpp>
#include <topo/slurmconf/block.hpp>

namespace topo::slurmconf {

namespace {

constexpr int kMaxBlockLevel = 15;  // block_record.c: block_level > 15 is fatal
constexpr std::size_t kMaxPlaceholders = 4096;

bool host_included(const Host& h, const BlockOptions& o) {
    return slurm_node(h, o.include_service);
}

std::string sanitize_name(const std::string& s) {
    std::string o;
    for (char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                        || c == '-' || c == '.';
        o += ok ? c : '_';
    }
    return o.empty() ? std::string("block") : o;
}

/// "rack03" -> {"rack", 3, 2}; nullopt-like (width 0) when the name has no trailing number.
struct Numbered {
    std::string prefix;
    long long number = -1;
    std::size_t width = 0;
};

Numbered split_number(const std::string& s) {
    std::size_t i = s.size();
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') --i;
    Numbered n;
    n.prefix = s.substr(0, i);
    const std::string digits = s.substr(i);
    if (digits.empty() || digits.size() > 12) return n;
    n.width = digits.size();
    std::from_chars(digits.data(), digits.data() + digits.size(), n.number);
    return n;
}

std::string pad(long long v, std::size_t width) {
    std::string s = std::to_string(v);
    if (s.size() < width) s.insert(0, width - s.size(), '0');
    return s;
}

Status check_sizes(const std::vector<int>& sizes, const std::string& what) {
    if (sizes.empty()) return fail(Errc::InvalidArgument, what + ": empty");
    const int base = sizes[0];
    int prev = 0;
    for (int v : sizes) {
        if (v <= 0) return fail(Errc::InvalidArgument, what + ": " + std::to_string(v) + " is not a positive size");
        if (v <= prev) {
            return fail(Errc::InvalidArgument,
                        what + ": sizes must increase (" + std::to_string(prev) + " then " + std::to_string(v) + ")");
        }
        prev = v;
        bool ok = v % base == 0;
        int ratio = ok ? v / base : 0;
        int level = 0;
        while (ok && ratio > 1) {
            if (ratio % 2 != 0) ok = false;
            ratio /= 2;
            ++level;
        }
        if (!ok || level > kMaxBlockLevel) {
            return fail(Errc::InvalidArgument,
                        what + ": " + std::to_string(v) + " is not the base size " + std::to_string(base)
                            + " times a power of two up to 2^15 (Slurm: \"Invalid BlockSizes value\")");
        }
    }
    return Ok{};
}

}  // namespace

Result<std::vector<int>> parse_block_sizes(const std::string& text) {
    std::vector<int> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto comma = text.find(',', pos);
        const std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        int v = 0;
        const auto* b = item.data();
        const auto* e = item.data() + item.size();
        auto [p, ec] = std::from_chars(b, e, v);
        if (item.empty() || ec != std::errc{} || p != e) {
            return fail(Errc::InvalidArgument, "block sizes \"" + text + "\": \"" + item + "\" is not a number");
        }
        out.push_back(v);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    if (auto st = check_sizes(out, "block sizes \"" + text + "\""); !st) return fail(st.error());
    return out;
}

Result<BlockConf> generate_block_conf(const Topology& t, const BlockOptions& o) {
    BlockConf bc;
    std::vector<Block> real;
    std::set<std::string> in_block;

    bool have_nvl = false;
    for (const auto& d : t.nvl_domains()) {
        if (!d.multi_node) continue;
        for (auto h : d.hosts) have_nvl = have_nvl || host_included(t.host(h), o);
    }
    bc.source =
        o.source == BlockSource::Auto ? (have_nvl ? BlockSource::NvlDomains : BlockSource::LeafGroups) : o.source;
    if (bc.source == BlockSource::NvlDomains) {
        for (const auto& d : t.nvl_domains()) {
            if (!d.multi_node) continue;
            Block b;
            b.name = sanitize_name(d.name);
            b.origin = d.name;
            b.usable = d.usable_hosts;
            for (auto h : d.hosts) {
                if (host_included(t.host(h), o)) b.nodes.push_back(t.host(h).name);
            }
            if (b.nodes.empty()) continue;
            real.push_back(std::move(b));
        }
        if (real.empty()) {
            return fail(Errc::InvalidArgument,
                        "no multi-node NVLink domain with compute hosts in this topology: nothing to write for "
                        "topology/block by NVLink domain (use leaf groups, or declare the racks in a cluster spec)");
        }
    } else {
        for (const auto& g : t.groups()) {
            Block b;
            b.name = sanitize_name(g.name);
            b.origin = g.name;
            for (auto h : g.hosts) {
                if (host_included(t.host(h), o)) b.nodes.push_back(t.host(h).name);
            }
            if (b.nodes.empty()) continue;
            real.push_back(std::move(b));
        }
        if (real.empty()) {
            return fail(Errc::InvalidArgument,
                        "no host group in this topology (no host on any leaf switch): nothing to write; a "
                        "topology.conf without blocks would stop slurmctld");
        }
    }
    std::set<std::string> names;
    for (auto& b : real) {
        std::sort(b.nodes.begin(), b.nodes.end(), [](const auto& a, const auto& c) { return natural_less(a, c); });
        in_block.insert(b.nodes.begin(), b.nodes.end());
        if (!names.insert(b.name).second) {
            return fail(Errc::InvalidArgument, "two blocks would be named \"" + b.name +
                                                   "\" (NVLink domain names that differ only in characters "
                                                   "Slurm cannot take in a block name)");
        }
    }

    // Order, and placeholders for gaps in the numbering ("rack01, rack02, rack04").
    std::vector<Numbered> num;
    bool numbered = true;
    for (const auto& b : real) {
        num.push_back(split_number(b.name));
        numbered = numbered && num.back().width > 0 && num.back().prefix == num.front().prefix;
    }
    std::vector<Block> blocks;
    if (numbered) {
        std::vector<std::size_t> idx(real.size());
        for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
        std::sort(idx.begin(), idx.end(), [&](auto a, auto c) { return num[a].number < num[c].number; });
        bool same_width = true;
        for (const auto& n : num) same_width = same_width && n.width == num.front().width;
        const long long lo = num[idx.front()].number;
        const long long hi = num[idx.back()].number;
        const auto gaps = static_cast<std::size_t>(hi - lo + 1) - real.size();
        const bool fill = o.placeholders && gaps > 0
                          && gaps <= std::max<std::size_t>(kMaxPlaceholders / 4, 4 * real.size())
                          && gaps <= kMaxPlaceholders;
        if (o.placeholders && gaps > 0 && !fill) {
            bc.warnings.push_back("block numbering has " + std::to_string(gaps)
                                  + " gaps, too many to be missing racks: no placeholder blocks written");
        }
        std::size_t k = 0;
        for (long long v = lo; v <= hi; ++v) {
            if (k < idx.size() && num[idx[k]].number == v) {
                blocks.push_back(std::move(real[idx[k]]));
                ++k;
            } else if (fill) {
                Block p;
                p.placeholder = true;
                p.name = num.front().prefix + pad(v, same_width ? num.front().width : 0);
                p.origin = p.name;
                if (names.count(p.name) != 0U) continue;
                blocks.push_back(std::move(p));
            }
        }
    } else {
        blocks = std::move(real);
        std::sort(blocks.begin(), blocks.end(),
                  [](const auto& a, const auto& c) { return natural_less(a.name, c.name); });
    }

    // Base size: the most common "hosts a job may count on" among real blocks.
    std::map<int, int> count_of_cap;
    std::set<std::size_t> sizes_seen;
    for (const auto& b : blocks) {
        if (b.placeholder) continue;
        const int n = static_cast<int>(b.nodes.size());
        const int cap = b.usable > 0 ? std::min(b.usable, n) : n;
        ++count_of_cap[cap];
        sizes_seen.insert(b.nodes.size());
    }
    int base = 0;
    int best = 0;
    for (const auto& [cap, c] : count_of_cap) {
        if (c > best) {  // map order: ties keep the smaller size
            best = c;
            base = cap;
        }
    }
    if (bc.source == BlockSource::LeafGroups && !count_of_cap.empty()) {
        // Leaf groups differ in size for ordinary reasons (cabling, service hosts):
        // the smallest one is the base, so no real group needs fake nodes.
        base = count_of_cap.begin()->first;
    }
    if (!o.block_sizes.empty()) {
        if (auto st = check_sizes(o.block_sizes, "block sizes"); !st) return fail(st.error());
        bc.block_sizes = o.block_sizes;
        bc.sizes_inferred = false;
        base = o.block_sizes.front();
    } else {
        for (int k = 0; k <= kMaxBlockLevel; ++k) {
            bc.block_sizes.push_back(base << k);
            if ((std::size_t{1} << k) >= blocks.size()) break;
        }
    }
    if (sizes_seen.size() > 1) {
        std::ostringstream w;
        w << "base blocks differ in size (";
        bool first = true;
        for (auto s : sizes_seen) {
            w << (first ? "" : ", ") << s;
            first = false;
        }
        w << " hosts); Slurm sizes every job by the base block size " << base
          << ", so hosts above it in a bigger block are only used as spares";
        if (bc.source == BlockSource::LeafGroups) w << "; for unequal leaf groups topology/tree fits better";
        bc.warnings.push_back(w.str());
    }

    // Fake nodes: placeholders and blocks with fewer hosts than the base size.
    std::set<std::string> real_hosts;
    for (const auto& h : t.hosts()) real_hosts.insert(h.name);
    const std::size_t width = std::max<std::size_t>(2, std::to_string(base).size());
    for (auto& b : blocks) {
        const auto have = static_cast<int>(b.nodes.size());
        if (have >= base) continue;
        for (int i = have + 1; i <= base; ++i) {
            std::string f = o.fake_prefix + b.name + "-" + pad(i, width);
            if (real_hosts.count(f) != 0U) {
                return fail(Errc::InvalidArgument,
                            "fake node name \"" + f + "\" is a real host; choose another prefix");
            }
            b.fake_nodes.push_back(f);
            bc.fake_nodes.push_back(f);
        }
        if (!b.placeholder) {
            bc.warnings.push_back("block " + b.name + " has " + std::to_string(have)
                                  + " host(s), fewer than the base block size " + std::to_string(base)
                                  + " (Slurm would stop: \"children count lower than bblock_node_cnt\"); padded with "
                                  + std::to_string(b.fake_nodes.size())
                                  + " fake node(s): " + compress_hostlist(b.nodes));
        }
    }
    std::vector<std::string> placeholders;
    for (const auto& b : blocks) {
        if (b.placeholder) placeholders.push_back(b.name);
    }
    if (!placeholders.empty()) {
        bc.warnings.push_back(std::to_string(placeholders.size()) + " missing block(s) in the numbering (" +
                              compress_hostlist(placeholders) +
                              ") keep their slot as placeholder blocks of fake nodes, so that aggregate blocks "
                              "stay aligned with the physical racks");
    }

    if (auto w = guid_hosts_warning(t, o.include_service); !w.empty()) bc.warnings.push_back(std::move(w));
    // Hosts Slurm's block plugin will never use.
    std::vector<std::string> outside;
    for (const auto& h : t.hosts()) {
        if (host_included(h, o) && in_block.count(h.name) == 0U) outside.push_back(h.name);
    }
    if (!outside.empty()) {
        bc.warnings.push_back(std::to_string(outside.size()) +
                              " host(s) in no block; Slurm's topology/block will not place jobs on them "
                              "(\"blocks lack access to nodes\"): " +
                              compress_hostlist(outside));
    }

    std::ostringstream out;
    out << "# topology.conf for Slurm's topology/block plugin (TopologyPlugin=topology/block)\n"
        << "# Generated by topoplace slurm-conf --format block. Minimum Slurm version: 24.05\n"
        << "# (the block plugin is 23.11+, BlockSizes 24.05+)\n";
    if (!o.source_label.empty()) out << "# Source: " << o.source_label << "\n";
    out << "# Source fingerprint: " << t.fingerprint() << "\n"
        << "# " << blocks.size() << " base block(s), one per "
        << (bc.source == BlockSource::NvlDomains ? "multi-node NVLink domain" : "leaf group") << "; base block size "
        << base
        << (!bc.sizes_inferred ? " (given)"
            : bc.source == BlockSource::LeafGroups
                ? " (inferred: the smallest leaf group)"
                : " (inferred: most common number of hosts a job may count on per block)")
        << "\n";
    for (const auto& w : bc.warnings) out << "# Warning: " << w << "\n";
    if (!bc.fake_nodes.empty()) {
        std::sort(bc.fake_nodes.begin(), bc.fake_nodes.end(),
                  [](const auto& a, const auto& c) { return natural_less(a, c); });
        out << "# Fake nodes (placeholders, padding): declare them in slurm.conf, or slurmctld stops:\n"
            << "#   NodeName=" << compress_hostlist(bc.fake_nodes) << " State=FUTURE\n";
    }
    out << "BlockSizes=";
    for (std::size_t i = 0; i < bc.block_sizes.size(); ++i) out << (i ? "," : "") << bc.block_sizes[i];
    out << "\n";
    for (const auto& b : blocks) {
        if (b.placeholder) {
            out << "# " << b.name << ": placeholder for a missing block (gap in the numbering)\n";
        } else {
            out << "# " << b.name << ": " << (bc.source == BlockSource::NvlDomains ? "NVLink domain " : "leaf group ")
                << b.origin << ", " << b.nodes.size() << " host(s)";
            if (b.usable > 0) out << ", " << b.usable << " usable";
            if (!b.fake_nodes.empty()) out << ", " << b.fake_nodes.size() << " fake";
            out << "\n";
        }
        std::vector<std::string> all = b.nodes;
        all.insert(all.end(), b.fake_nodes.begin(), b.fake_nodes.end());
        out << "BlockName=" << b.name << " Nodes=" << compress_hostlist(all) << "\n";
    }
    bc.text = out.str();
    bc.blocks = std::move(blocks);
    return bc;
}

}  // namespace topo::slurmconf
