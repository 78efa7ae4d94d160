// SPDX-License-Identifier: Apache-2.0
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include <topo/builder.hpp>
#include <topo/snapshot.hpp>
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

char path_letter(PathClass c) {
    return kPathLetters[static_cast<std::size_t>(c)];
}

std::optional<PathClass> path_from_letter(char c) {
    const auto p = kPathLetters.find(c);
    if (p == std::string_view::npos) return std::nullopt;
    return static_cast<PathClass>(p);
}

/// dump() that never throws on invalid UTF-8 (importers may pass raw bytes through).
std::string dumps(const json& j) {
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

long long idx_or_minus(std::uint32_t v, bool valid) {
    return valid ? static_cast<long long>(v) : -1;
}

void write_table(std::string& out, const char* name, const std::vector<std::string>& columns,
                 const std::vector<json>& rows, bool last) {
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
        rows.push_back(
            json::array({n.host.index(), n.name, n.guid, n.pci_bus, idx_or_minus(n.leaf.index(), n.leaf.valid()),
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
                links += std::to_string(t.gpu(nvl[k].b).index) + ':' + std::to_string(nvl[k].links) + ':'
                         + dumps(json(nvl[k].gbps));
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
        rows.push_back(
            json::array({l.a.index(), l.port_a, l.b.index(), l.port_b, l.gbps, l.rate, link_kind_name(l.kind)}));
    }
    write_table(out, "links", {"a", "port_a", "b", "port_b", "gbps", "rate", "kind"}, rows, false);

    rows.clear();
    for (const auto& d : t.nvl_domains()) {
        json hs = json::array();
        for (auto h : d.hosts) hs.push_back(h.index());
        rows.push_back(json::array({d.name, d.multi_node, d.usable_hosts, hs, d.gpus.size()}));
    }
    write_table(out, "nvl_domains", {"name", "multi_node", "usable_hosts", "hosts", "gpus"}, rows, false);

    rows.clear();
    for (const auto& s : t.nvswitches()) {
        json gs = json::array();
        for (auto g : s.gpus) gs.push_back(t.gpu(g).index);
        rows.push_back(json::array({s.host.index(), s.pci_bus, s.gbps, gs}));
    }
    write_table(out, "nvswitches", {"host", "pci_bus", "gbps", "gpus"}, rows, false);

    const Summary s = t.summary();
    json sum = {{"hosts", s.hosts},
                {"compute_hosts", s.compute_hosts},
                {"service_hosts", s.service_hosts},
                {"gpus", s.gpus},
                {"nics", s.nics},
                {"switches", s.switches},
                {"tiers", s.tiers},
                {"rails", s.rails},
                {"nvlink_domains", s.nvlink_domains},
                {"nvswitches", s.nvswitches},
                {"groups", t.groups().size()}};
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
    if (!tb.contains("rows") || !tb["rows"].is_array())
        throw TableError{std::string("table \"") + name + "\" has no rows"};
    for (std::size_t i = 0; i < tb["rows"].size(); ++i) {
        const json& r = tb["rows"][i];
        if (!r.is_array() || r.size() != columns.size()) {
            throw TableError{std::string("table \"") + name + "\" row " + std::to_string(i) + ": expected "
                             + std::to_string(columns.size()) + " cells"};
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
    // A version this build does not know is bad input data (exit 65), like a wrong schema.
    if (doc["version"].get<int>() > kSnapshotVersion) {
        return fail(Errc::Parse,
                    "snapshot version " + std::to_string(doc["version"].get<int>())
                        + " is not supported: written by a newer topoplace (this build reads versions 1.."
                        + std::to_string(kSnapshotVersion) + "); rewrite it with this build's `topoplace discover`",
                    source);
    }
    if (doc["version"].get<int>() < 1) {
        return fail(Errc::Parse, "snapshot version " + std::to_string(doc["version"].get<int>()) + " is not valid",
                    source);
    }
    // The tables are in canonical order already: fill the model's vectors directly and
    // let TopologyAccess::finish infer tiers, rails, groups and domains (no string maps,
    // no re-sorting: this is what makes a 100k-GPU snapshot load in well under a second).
    auto topo = std::make_shared<Topology>();
    Topology& t = *topo;
    auto& hosts = TopologyAccess::hosts(t);
    auto& nics = TopologyAccess::nics(t);
    auto& gpus = TopologyAccess::gpus(t);
    auto& switches = TopologyAccess::switches(t);
    auto& links = TopologyAccess::links(t);
    auto& gpu_nic = TopologyAccess::gpu_nic(t);
    auto& nvlinks = TopologyAccess::nvlinks(t);
    std::vector<DeclaredDomain> declared;
    std::string stored_fp;
    std::string where;
    try {
        stored_fp = doc.value("fingerprint", "");
        where = "switches";
        {
            const json& sw = table_rows(doc, "switches", {"key", "name", "description", "ports", "tier", "provenance"});
            switches.reserve(sw.size());
            for (const auto& r : sw) {
                Switch s;
                s.guid = r[0].get<std::string>();
                s.name = r[1].get<std::string>();
                s.description = r[2].get<std::string>();
                s.num_ports = r[3].get<int>();
                auto p = prov_from(r[5].get<std::string>());
                if (!p) throw TableError{"switches: bad provenance"};
                s.provenance = *p;
                switches.push_back(std::move(s));
            }
        }
        auto switch_at = [&](const json& v) -> SwitchId {
            const auto i = v.get<long long>();
            if (i == -1) return SwitchId{};
            if (i < 0 || static_cast<std::size_t>(i) >= switches.size()) {
                throw TableError{"switch index " + std::to_string(i) + " out of range"};
            }
            return SwitchId(static_cast<std::uint32_t>(i));
        };
        auto host_at = [&](const json& v) -> std::uint32_t {
            const auto i = v.get<long long>();
            if (i < 0 || static_cast<std::size_t>(i) >= hosts.size()) {
                throw TableError{"host index " + std::to_string(i) + " out of range"};
            }
            return static_cast<std::uint32_t>(i);
        };
        where = "hosts";
        {
            const json& hs = table_rows(doc, "hosts", {"name", "role", "sysimg_guid", "group", "provenance"});
            hosts.reserve(hs.size());
            for (const auto& r : hs) {
                auto role = role_from(r[1].get<std::string>());
                auto p = prov_from(r[4].get<std::string>());
                if (!role || !p) throw TableError{"hosts: bad role or provenance for " + r[0].get<std::string>()};
                Host h;
                h.name = r[0].get<std::string>();
                h.role = *role;
                h.sysimg_guid = r[2].get<std::string>();
                h.provenance = *p;
                hosts.push_back(std::move(h));
            }
        }
        where = "nics";
        {
            const json& ns = table_rows(
                doc, "nics",
                {"host", "name", "guid", "pci_bus", "leaf", "leaf_port", "rate", "gbps", "numa", "rail", "provenance"});
            nics.reserve(ns.size());
            for (const auto& r : ns) {
                Nic n;
                const std::uint32_t hi = host_at(r[0]);
                n.host = HostId(hi);
                n.name = r[1].get<std::string>();
                n.guid = r[2].get<std::string>();
                n.pci_bus = r[3].get<std::string>();
                n.leaf = switch_at(r[4]);
                n.leaf_port = r[5].get<int>();
                n.rate = r[6].get<std::string>();
                n.rate_gbps = r[7].get<double>();
                n.numa = r[8].get<int>();
                auto p = prov_from(r[10].get<std::string>());
                if (!p) throw TableError{"nics: bad provenance"};
                n.provenance = *p;
                hosts[hi].nics.emplace_back(static_cast<std::uint32_t>(nics.size()));
                nics.push_back(std::move(n));
            }
        }
        doc.erase("nics");  // free each table once consumed: keeps peak memory down
        where = "gpus";
        {
            const json& gs =
                table_rows(doc, "gpus",
                           {"host", "index", "model", "pci_bus", "uuid", "numa", "nvl_domain", "nic_paths", "nvlinks"});
            gpus.reserve(gs.size());
            for (const auto& r : gs) {
                Gpu g;
                const std::uint32_t hi = host_at(r[0]);
                g.host = HostId(hi);
                g.index = r[1].get<int>();
                g.model = r[2].get<std::string>();
                g.pci_bus = r[3].get<std::string>();
                g.uuid = r[4].get<std::string>();
                g.numa = r[5].get<int>();
                hosts[hi].gpus.emplace_back(static_cast<std::uint32_t>(gpus.size()));
                gpus.push_back(std::move(g));
            }
            // Second pass: locality (NVLink peers may come later in the table).
            for (std::size_t gi = 0; gi < gs.size(); ++gi) {
                const json& r = gs[gi];
                const Gpu& g = gpus[gi];
                const Host& h = hosts[g.host.index()];
                const std::string& paths = r[7].get_ref<const std::string&>();
                const std::string& peers = r[8].get_ref<const std::string&>();
                const GpuId me(static_cast<std::uint32_t>(gi));
                if (!paths.empty()) {
                    if (paths.size() != h.nics.size()) {
                        throw TableError{"gpus: nic_paths of " + h.name + " GPU " + std::to_string(g.index) + " has "
                                         + std::to_string(paths.size()) + " letters for "
                                         + std::to_string(h.nics.size()) + " NICs"};
                    }
                    for (std::size_t j = 0; j < paths.size(); ++j) {
                        auto pc = path_from_letter(paths[j]);
                        if (!pc) throw TableError{"gpus: bad nic_paths letter '" + std::string(1, paths[j]) + "'"};
                        if (*pc != PathClass::Unknown) gpu_nic.push_back(GpuNicPath{me, h.nics[j], *pc});
                    }
                }
                std::size_t start = 0;
                while (start < peers.size()) {
                    std::size_t end = peers.find(',', start);
                    if (end == std::string::npos) end = peers.size();
                    const std::string item = peers.substr(start, end - start);
                    int peer = 0;
                    int count = 0;
                    double gbps = 0;
                    char tail = 0;
                    if (std::sscanf(item.c_str(), "%d:%d:%lf%c", &peer, &count, &gbps, &tail) != 3) {
                        throw TableError{"gpus: bad nvlinks entry \"" + item + "\" for " + h.name + " GPU "
                                         + std::to_string(g.index)};
                    }
                    std::optional<GpuId> other;
                    for (auto id : h.gpus) {
                        if (gpus[id.index()].index == peer) other = id;
                    }
                    if (!other || *other == me) {
                        throw TableError{"gpus: nvlinks entry \"" + item + "\" of " + h.name + " GPU "
                                         + std::to_string(g.index) + " names no other GPU of that host"};
                    }
                    nvlinks.push_back(NvLinkPair{std::min(me, *other), std::max(me, *other), count, gbps});
                    start = end + 1;
                }
            }
        }
        doc.erase("gpus");
        auto by_pair = [](const GpuNicPath& x, const GpuNicPath& y) {
            return std::tie(x.gpu, x.nic) < std::tie(y.gpu, y.nic);
        };
        if (!std::is_sorted(gpu_nic.begin(), gpu_nic.end(), by_pair))
            std::stable_sort(gpu_nic.begin(), gpu_nic.end(), by_pair);
        std::stable_sort(nvlinks.begin(), nvlinks.end(), [](const NvLinkPair& x, const NvLinkPair& y) {
            return std::tie(x.a, x.b) < std::tie(y.a, y.b);
        });
        nvlinks.erase(std::unique(nvlinks.begin(), nvlinks.end(),
                                  [](const NvLinkPair& x, const NvLinkPair& y) { return x.a == y.a && x.b == y.b; }),
                      nvlinks.end());
        where = "links";
        {
            const json& ls = table_rows(doc, "links", {"a", "port_a", "b", "port_b", "gbps", "rate", "kind"});
            for (const auto& r : ls) {
                auto k = link_kind_from(r[6].get<std::string>());
                if (!k) throw TableError{"links: bad kind"};
                Link l;
                l.kind = *k;
                l.a = switch_at(r[0]);
                l.b = switch_at(r[2]);
                if (!l.a.valid() || !l.b.valid()) throw TableError{"links: switch index -1"};
                if (l.a == l.b) throw TableError{"links: switch " + switches[l.a.index()].guid + " cabled to itself"};
                l.port_a = r[1].get<int>();
                l.port_b = r[3].get<int>();
                l.gbps = r[4].get<double>();
                l.rate = r[5].get<std::string>();
                links.push_back(std::move(l));
            }
        }
        where = "nvl_domains";
        {
            const json& ds = table_rows(doc, "nvl_domains", {"name", "multi_node", "usable_hosts", "hosts", "gpus"});
            for (const auto& r : ds) {
                if (!r[1].get<bool>()) continue;  // per-host islands are derived from nvlinks
                DeclaredDomain d;
                d.name = r[0].get<std::string>();
                d.usable_hosts = r[2].get<int>();
                for (const auto& h : r[3]) d.hosts.emplace_back(host_at(h));
                std::sort(d.hosts.begin(), d.hosts.end());
                declared.push_back(std::move(d));
            }
        }
        where = "nvswitches";
        if (doc["version"].get<int>() >= 2) {  // version 1 snapshots predate NVSwitch entities
            const json& ns = table_rows(doc, "nvswitches", {"host", "pci_bus", "gbps", "gpus"});
            auto& out = TopologyAccess::nvswitches(t);
            for (const auto& r : ns) {
                NvSwitch s;
                const std::uint32_t hi = host_at(r[0]);
                s.host = HostId(hi);
                s.pci_bus = r[1].get<std::string>();
                s.gbps = r[2].get<double>();
                for (const auto& gi : r[3]) {
                    const int want = gi.get<int>();
                    std::optional<GpuId> id;
                    for (auto g : hosts[hi].gpus) {
                        if (gpus[g.index()].index == want) id = g;
                    }
                    if (!id) throw TableError{"nvswitches: " + hosts[hi].name + " has no GPU " + std::to_string(want)};
                    s.gpus.push_back(*id);
                }
                out.push_back(std::move(s));
            }
        }
        if (doc.contains("warnings") && doc["warnings"].is_array()) {
            for (const auto& w : doc["warnings"]) {
                if (w.is_string()) TopologyAccess::warnings(t).push_back(w.get<std::string>());
            }
        }
    } catch (const TableError& e) {
        return fail(Errc::Parse, e.msg, source);
    } catch (const json::exception& e) {
        return fail(Errc::Parse, "table \"" + where + "\": " + e.what(), source);
    }
    doc = json();
    auto done = TopologyAccess::finish(std::move(topo), declared);
    if (!done) {
        Error e = std::move(done).error();
        e.file = source;
        return fail(std::move(e));
    }
    if (!stored_fp.empty() && stored_fp != (*done)->fingerprint()) {
        return fail(Errc::Parse,
                    "fingerprint mismatch: file says " + stored_fp + ", content hashes to " + (*done)->fingerprint()
                        + " (edited by hand, or written by an incompatible version)",
                    source);
    }
    return done;
}

Result<TopologyPtr> load_snapshot(const std::string& path) {
    auto text = read_text_file(path);
    if (!text) return fail(std::move(text).error());
    return from_snapshot_json(*text, path);
}

Status save_snapshot(const Topology& t, const std::string& path) {
    return write_text_file(path, to_snapshot_json(t));
}

}  // namespace topo
