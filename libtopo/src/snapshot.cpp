// SPDX-License-Identifier: Apache-2.0
#include <topo/snapshot.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

#include <topo/builder.hpp>
#include <topo/text_input.hpp>

#include "topology_impl.hpp"

namespace topo {

using nlohmann::json;

namespace {

const char* role_name(HostRole r) {
    switch (r) {
        case HostRole::Compute: return "compute";
        case HostRole::Service: return "service";
        case HostRole::Unknown: return "unknown";
    }
    return "unknown";
}

std::optional<HostRole> role_from(std::string_view s) {
    if (s == "compute") return HostRole::Compute;
    if (s == "service") return HostRole::Service;
    if (s == "unknown") return HostRole::Unknown;
    return std::nullopt;
}

const char* prov_name(Provenance p) {
    switch (p) {
        case Provenance::Discovered: return "discovered";
        case Provenance::Declared: return "declared";
        case Provenance::Inferred: return "inferred";
    }
    return "discovered";
}

std::optional<Provenance> prov_from(std::string_view s) {
    if (s == "discovered") return Provenance::Discovered;
    if (s == "declared") return Provenance::Declared;
    if (s == "inferred") return Provenance::Inferred;
    return std::nullopt;
}

const char* link_kind_name(LinkKind k) {
    switch (k) {
        case LinkKind::Ib: return "ib";
        case LinkKind::NvLink: return "nvlink";
        case LinkKind::Declared: return "declared";
    }
    return "ib";
}

std::optional<LinkKind> link_kind_from(std::string_view s) {
    if (s == "ib") return LinkKind::Ib;
    if (s == "nvlink") return LinkKind::NvLink;
    if (s == "declared") return LinkKind::Declared;
    return std::nullopt;
}

// One letter per PathClass for the compact per-GPU NIC path string.
constexpr std::string_view kPathLetters = "XVIBHNS?";

char path_letter(PathClass c) { return kPathLetters[static_cast<std::size_t>(c)]; }

std::optional<PathClass> path_from_letter(char c) {
    const auto p = kPathLetters.find(c);
    if (p == std::string_view::npos) return std::nullopt;
    return static_cast<PathClass>(p);
}

/// dump() that never throws on invalid UTF-8 (importers may pass raw bytes through).
std::string dumps(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

long long idx_or_minus(std::uint32_t v, bool valid) { return valid ? static_cast<long long>(v) : -1; }

void write_table(std::string& out,
                 const char* name,
                 const std::vector<std::string>& columns,
                 const std::vector<json>& rows,
                 bool last) {
    out += "  \"";
    out += name;
    out += "\": {\"columns\": ";
    out += dumps(json(columns));
    out += ", \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        out += i == 0 ? "\n    " : ",\n    ";
        out += dumps(rows[i]);
    }
    out += rows.empty() ? "]}" : "\n  ]}";
    out += last ? "\n" : ",\n";
}

std::string body(const Topology& t) {
    std::string out;
    std::vector<json> rows;

    rows.clear();
    for (const auto& s : t.switches()) {
        rows.push_back(json::array({s.guid, s.name, s.description, s.num_ports, s.tier, prov_name(s.provenance)}));
    }
    write_table(out, "switches", {"key", "name", "description", "ports", "tier", "provenance"}, rows, false);

    rows.clear();
    for (const auto& h : t.hosts()) {
        const long long g = idx_or_minus(h.group.index(), h.group.valid());
        rows.push_back(json::array({h.name, role_name(h.role), h.sysimg_guid, g, prov_name(h.provenance)}));
    }
    write_table(out, "hosts", {"name", "role", "sysimg_guid", "group", "provenance"}, rows, false);

    rows.clear();
    for (const auto& n : t.nics()) {
        rows.push_back(json::array({n.host.index(), n.name, n.guid, n.pci_bus, idx_or_minus(n.leaf.index(), n.leaf.valid()),
                                    n.leaf_port, n.rate, n.rate_gbps, n.numa, n.rail, prov_name(n.provenance)}));
    }
    write_table(out, "nics",
                {"host", "name", "guid", "pci_bus", "leaf", "leaf_port", "rate", "gbps", "numa", "rail", "provenance"},
                rows, false);

    rows.clear();
    {
        auto paths = t.gpu_nic_paths();
        auto nvl = t.nvlinks();
        std::size_t pi = 0;
        std::size_t vi = 0;
        for (std::size_t gi = 0; gi < t.gpus().size(); ++gi) {
            const Gpu& g = t.gpus()[gi];
            const Host& h = t.host(g.host);
            std::string p(h.nics.size(), '?');
            bool any = false;
            while (pi < paths.size() && paths[pi].gpu.index() < gi) ++pi;
            for (std::size_t k = pi; k < paths.size() && paths[k].gpu.index() == gi; ++k) {
                for (std::size_t j = 0; j < h.nics.size(); ++j) {
                    if (h.nics[j] == paths[k].nic) {
                        p[j] = path_letter(paths[k].cls);
                        any = true;
                    }
                }
            }
            // NVLink peers with a higher id, as "peer_index:links:gbps,..."
            std::string links;
            while (vi < nvl.size() && nvl[vi].a.index() < gi) ++vi;
            for (std::size_t k = vi; k < nvl.size() && nvl[k].a.index() == gi; ++k) {
                if (!links.empty()) links += ',';
                links += std::to_string(t.gpu(nvl[k].b).index) + ':' + std::to_string(nvl[k].links) + ':' +
                         dumps(json(nvl[k].gbps));
            }
            rows.push_back(json::array({g.host.index(), g.index, g.model, g.pci_bus, g.uuid, g.numa,
                                        idx_or_minus(g.nvl_domain.index(), g.nvl_domain.valid()),
                                        any ? p : std::string(), links}));
        }
    }
    write_table(out, "gpus",
                {"host", "index", "model", "pci_bus", "uuid", "numa", "nvl_domain", "nic_paths", "nvlinks"}, rows,
                false);

    rows.clear();
    for (const auto& l : t.links()) {
        if (l.nic.valid()) continue;  // NIC cables are the nics table's leaf/leaf_port
        rows.push_back(json::array({l.a.index(), l.port_a, l.b.index(), l.port_b, l.gbps, l.rate, link_kind_name(l.kind)}));
    }
    write_table(out, "links", {"a", "port_a", "b", "port_b", "gbps", "rate", "kind"}, rows, false);

    rows.clear();
    for (const auto& d : t.nvl_domains()) {
        json hs = json::array();
        for (auto h : d.hosts) hs.push_back(h.index());
        rows.push_back(json::array({d.name, d.multi_node, d.usable_hosts, hs, d.gpus.size()}));
    }
    write_table(out, "nvl_domains", {"name", "multi_node", "usable_hosts", "hosts", "gpus"}, rows, false);

    const Summary s = t.summary();
    json sum = {{"hosts", s.hosts}, {"compute_hosts", s.compute_hosts}, {"service_hosts", s.service_hosts},
                {"gpus", s.gpus}, {"nics", s.nics}, {"switches", s.switches}, {"tiers", s.tiers},
                {"rails", s.rails}, {"nvlink_domains", s.nvlink_domains}, {"groups", t.groups().size()}};
    out += "  \"summary\": " + dumps(sum) + ",\n";
    out += "  \"warnings\": " + dumps(json(std::vector<std::string>(t.warnings().begin(), t.warnings().end()))) + "\n";
    return out;
}

/// Line number (1-based) of a byte offset.
int line_of(std::string_view text, std::size_t byte) {
    byte = std::min(byte, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
}

struct TableError {
    std::string msg;
};

const json& table_rows(const json& doc, const char* name, const std::vector<std::string>& columns) {
    if (!doc.contains(name) || !doc[name].is_object()) throw TableError{std::string("missing table \"") + name + "\""};
    const json& tb = doc[name];
    if (!tb.contains("columns") || tb["columns"] != json(columns)) {
        throw TableError{std::string("table \"") + name + "\" has unexpected columns"};
    }
    if (!tb.contains("rows") || !tb["rows"].is_array()) throw TableError{std::string("table \"") + name + "\" has no rows"};
    for (std::size_t i = 0; i < tb["rows"].size(); ++i) {
        const json& r = tb["rows"][i];
        if (!r.is_array() || r.size() != columns.size()) {
            throw TableError{std::string("table \"") + name + "\" row " + std::to_string(i) + ": expected " +
                             std::to_string(columns.size()) + " cells"};
        }
    }
    return tb["rows"];
}

}  // namespace


std::string to_snapshot_json(const Topology& t) {
    std::string out = "{\n";
    out += "  \"schema\": \"" + std::string(kSnapshotSchema) + "\",\n";
    out += "  \"version\": " + std::to_string(kSnapshotVersion) + ",\n";
    out += "  \"fingerprint\": \"" + t.fingerprint() + "\",\n";
    out += body(t);
    out += "}\n";
    return out;
}

Result<TopologyPtr> from_snapshot_json(std::string_view text, const std::string& source) {
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        return fail(Errc::Parse, std::string("not valid JSON: ") + e.what(), source,
                    line_of(text, e.byte > 0 ? e.byte - 1 : 0));
    } catch (const json::exception& e) {
        // e.g. out_of_range 406 "number overflow" (found by fuzz_snapshot)
        return fail(Errc::Parse, std::string("not valid JSON: ") + e.what(), source);
    }
    if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kSnapshotSchema) {
        return fail(Errc::Parse, "not a topoplace snapshot (schema must be \"topoplace.snapshot\")", source);
    }
    if (!doc.contains("version") || !doc["version"].is_number_integer()) {
        return fail(Errc::Parse, "snapshot has no integer \"version\"", source);
    }
    if (doc["version"].get<int>() > kSnapshotVersion || doc["version"].get<int>() < 1) {
        return fail(Errc::Unsupported,
                    "snapshot version " + std::to_string(doc["version"].get<int>()) + " is not supported (this build reads 1.." +
                        std::to_string(kSnapshotVersion) + ")",
                    source);
    }
    TopologyBuilder b;
    std::string stored_fp;
    std::string where;
    try {
        stored_fp = doc.value("fingerprint", "");
        where = "switches";
        const json& sw = table_rows(doc, "switches", {"key", "name", "description", "ports", "tier", "provenance"});
        std::vector<std::string> sw_keys;
        for (const auto& r : sw) {
            Switch s;
            s.guid = r[0].get<std::string>();
            s.name = r[1].get<std::string>();
            s.description = r[2].get<std::string>();
            s.num_ports = r[3].get<int>();
            auto p = prov_from(r[5].get<std::string>());
            if (!p) throw TableError{"switches: bad provenance"};
            s.provenance = *p;
            sw_keys.push_back(s.guid);
            b.add_switch(std::move(s));
        }
        where = "hosts";
        const json& hs = table_rows(doc, "hosts", {"name", "role", "sysimg_guid", "group", "provenance"});
        std::vector<std::string> host_names;
        for (const auto& r : hs) {
            auto role = role_from(r[1].get<std::string>());
            auto p = prov_from(r[4].get<std::string>());
            if (!role || !p) throw TableError{"hosts: bad role or provenance for " + r[0].get<std::string>()};
            host_names.push_back(r[0].get<std::string>());
            b.add_host(host_names.back(), *role, r[2].get<std::string>(), *p);
        }
        auto host_at = [&](const json& v) -> const std::string& {
            const auto i = v.get<long long>();
            if (i < 0 || static_cast<std::size_t>(i) >= host_names.size()) {
                throw TableError{"host index " + std::to_string(i) + " out of range"};
            }
            return host_names[static_cast<std::size_t>(i)];
        };
        auto switch_at = [&](const json& v) -> std::string {
            const auto i = v.get<long long>();
            if (i == -1) return {};
            if (i < 0 || static_cast<std::size_t>(i) >= sw_keys.size()) {
                throw TableError{"switch index " + std::to_string(i) + " out of range"};
            }
            return sw_keys[static_cast<std::size_t>(i)];
        };
        where = "nics";
        const json& ns = table_rows(
            doc, "nics",
            {"host", "name", "guid", "pci_bus", "leaf", "leaf_port", "rate", "gbps", "numa", "rail", "provenance"});
        std::vector<std::vector<std::string>> host_nic_names(host_names.size());
        for (const auto& r : ns) {
            Nic n;
            const std::string& h = host_at(r[0]);
            n.name = r[1].get<std::string>();
            n.guid = r[2].get<std::string>();
            n.pci_bus = r[3].get<std::string>();
            n.leaf_port = r[5].get<int>();
            n.rate = r[6].get<std::string>();
            n.rate_gbps = r[7].get<double>();
            n.numa = r[8].get<int>();
            auto p = prov_from(r[10].get<std::string>());
            if (!p) throw TableError{"nics: bad provenance"};
            n.provenance = *p;
            host_nic_names[static_cast<std::size_t>(r[0].get<long long>())].push_back(n.name);
            b.add_nic(h, std::move(n), switch_at(r[4]));
        }
        doc.erase("nics");  // free each table once consumed: keeps peak memory down
        where = "gpus";
        const json& gs = table_rows(
            doc, "gpus", {"host", "index", "model", "pci_bus", "uuid", "numa", "nvl_domain", "nic_paths", "nvlinks"});
        std::map<std::size_t, NodeDescription> locality;  // host index -> paths/nvlinks
        auto gpu_pos = [](NodeDescription& nd, int index) {
            for (std::size_t i = 0; i < nd.gpus.size(); ++i) {
                if (nd.gpus[i].index == index) return static_cast<int>(i);
            }
            NodeDescription::GpuDesc gd;
            gd.index = index;
            nd.gpus.push_back(gd);
            nd.gpu_nic.resize(nd.gpus.size());
            return static_cast<int>(nd.gpus.size() - 1);
        };
        for (const auto& r : gs) {
            Gpu g;
            const std::string& h = host_at(r[0]);
            const auto hi = static_cast<std::size_t>(r[0].get<long long>());
            g.index = r[1].get<int>();
            g.model = r[2].get<std::string>();
            g.pci_bus = r[3].get<std::string>();
            g.uuid = r[4].get<std::string>();
            g.numa = r[5].get<int>();
            b.add_gpu(h, g);
            const std::string& paths = r[7].get_ref<const std::string&>();
            const std::string& links = r[8].get_ref<const std::string&>();
            if (paths.empty() && links.empty()) continue;
            NodeDescription& nd = locality[hi];
            if (nd.nics.empty()) {
                for (const auto& name : host_nic_names[hi]) nd.nics.push_back(NodeDescription::NicDesc{name, {}, {}, -1, 0});
            }
            const int me = gpu_pos(nd, g.index);
            if (!paths.empty()) {
                if (paths.size() != nd.nics.size()) {
                    throw TableError{"gpus: nic_paths of " + h + " GPU " + std::to_string(g.index) + " has " +
                                     std::to_string(paths.size()) + " letters for " + std::to_string(nd.nics.size()) +
                                     " NICs"};
                }
                std::vector<PathClass> row;
                row.reserve(paths.size());
                for (char c : paths) {
                    auto pc = path_from_letter(c);
                    if (!pc) throw TableError{"gpus: bad nic_paths letter '" + std::string(1, c) + "'"};
                    row.push_back(*pc);
                }
                nd.gpu_nic[static_cast<std::size_t>(me)] = std::move(row);
            }
            std::size_t start = 0;
            while (start < links.size()) {
                std::size_t end = links.find(',', start);
                if (end == std::string::npos) end = links.size();
                const std::string item = links.substr(start, end - start);
                int peer = 0;
                int count = 0;
                double gbps = 0;
                char tail = 0;
                if (std::sscanf(item.c_str(), "%d:%d:%lf%c", &peer, &count, &gbps, &tail) != 3) {
                    throw TableError{"gpus: bad nvlinks entry \"" + item + "\" for " + h + " GPU " +
                                     std::to_string(g.index)};
                }
                const int other = gpu_pos(nd, peer);
                nd.nvlinks.push_back(NodeDescription::NvPair{me, other, count, gbps});
                start = end + 1;
            }
        }
        doc.erase("gpus");
        where = "links";
        const json& ls = table_rows(doc, "links", {"a", "port_a", "b", "port_b", "gbps", "rate", "kind"});
        for (const auto& r : ls) {
            auto k = link_kind_from(r[6].get<std::string>());
            if (!k) throw TableError{"links: bad kind"};
            const std::string a = switch_at(r[0]);
            const std::string c = switch_at(r[2]);
            if (a.empty() || c.empty()) throw TableError{"links: switch index -1"};
            b.add_switch_link(a, r[1].get<int>(), c, r[3].get<int>(), r[4].get<double>(), r[5].get<std::string>(), *k);
        }
        for (auto& [hi, nd] : locality) {
            nd.source = source;
            b.apply_node_description(host_names[hi], std::move(nd));
        }
        where = "nvl_domains";
        const json& ds = table_rows(doc, "nvl_domains", {"name", "multi_node", "usable_hosts", "hosts", "gpus"});
        for (const auto& r : ds) {
            if (!r[1].get<bool>()) continue;  // per-host islands are derived from nvlinks
            std::vector<std::string> members;
            for (const auto& h : r[3]) members.push_back(host_at(h));
            b.add_nvl_domain(r[0].get<std::string>(), members, r[2].get<int>());
        }
        if (doc.contains("warnings") && doc["warnings"].is_array()) {
            for (const auto& w : doc["warnings"]) {
                if (w.is_string()) b.warn(w.get<std::string>());
            }
        }
    } catch (const TableError& e) {
        return fail(Errc::Parse, e.msg, source);
    } catch (const json::exception& e) {
        return fail(Errc::Parse, "table \"" + where + "\": " + e.what(), source);
    }
    auto t = std::move(b).freeze();
    if (!t) {
        Error e = std::move(t).error();
        e.file = source;
        return fail(std::move(e));
    }
    if (!stored_fp.empty() && stored_fp != (*t)->fingerprint()) {
        return fail(Errc::Parse,
                    "fingerprint mismatch: file says " + stored_fp + ", content hashes to " + (*t)->fingerprint() +
                        " (edited by hand, or written by an incompatible version)",
                    source);
    }
    return t;
}

Result<TopologyPtr> load_snapshot(const std::string& path) {
    auto text = read_text_file(path);
    if (!text) return fail(std::move(text).error());
    return from_snapshot_json(*text, path);
}

Status save_snapshot(const Topology& t, const std::string& path) { return write_text_file(path, to_snapshot_json(t)); }

}  // namespace topo
