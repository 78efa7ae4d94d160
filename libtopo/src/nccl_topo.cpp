// SPDX-License-Identifier: Apache-2.0
// NCCL / RCCL topology XML -> NodeDescription (see topo/nccl_topo.hpp). The format has
// no library of its own: a small element reader (tags, attributes, comments; text is
// ignored) is enough for it and gives line numbers for errors.
#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <topo/nccl_topo.hpp>
#include <topo/text_input.hpp>

namespace topo {
namespace {

struct Element {
    std::string name;
    std::map<std::string, std::string> attrs;
    int line = 0;
    Element* parent = nullptr;
    std::vector<std::unique_ptr<Element>> children;

    [[nodiscard]] std::string attr(const std::string& k) const {
        const auto it = attrs.find(k);
        return it == attrs.end() ? std::string{} : it->second;
    }
};

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
           || c == ':' || c == '.';
}

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// The XML elements of `text` under a synthetic root; Parse errors carry file:line.
Result<std::unique_ptr<Element>> read_elements(std::string_view text, const std::string& source) {
    auto root = std::make_unique<Element>();
    Element* cur = root.get();
    int line = 1;
    std::size_t i = 0;
    const auto advance = [&](std::size_t to) {
        line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                            text.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
        i = to;
    };
    while (i < text.size()) {
        const auto found = text.find('<', i);
        const std::size_t lt = found == std::string_view::npos ? text.size() : found;
        for (std::size_t k = i; k < lt; ++k) {
            if (!space(text[k]) && cur == root.get()) {
                advance(k);
                return fail(Errc::Parse, "not XML, so not an NCCL topology (text outside any element)", source, line);
            }
        }
        if (found == std::string_view::npos) break;
        advance(lt);
        const int start_line = line;
        if (text.substr(i, 4) == "<!--") {
            const auto end = text.find("-->", i + 4);
            if (end == std::string_view::npos)
                return fail(Errc::Parse, "truncated: comment never closed", source, line);
            advance(end + 3);
            continue;
        }
        if (text.substr(i, 2) == "<?" || text.substr(i, 2) == "<!") {
            const auto end = text.find('>', i);
            if (end == std::string_view::npos)
                return fail(Errc::Parse, "truncated: declaration never closed", source, line);
            advance(end + 1);
            continue;
        }
        std::size_t p = i + 1;
        const bool closing = p < text.size() && text[p] == '/';
        if (closing) ++p;
        const std::size_t ns = p;
        while (p < text.size() && name_char(text[p])) ++p;
        if (p == ns) return fail(Errc::Parse, "'<' not followed by an element name", source, line);
        std::string name(text.substr(ns, p - ns));
        auto el = std::make_unique<Element>();
        el->name = name;
        el->line = start_line;
        bool self_closing = false;
        for (;;) {
            while (p < text.size() && space(text[p])) ++p;
            if (p >= text.size()) {
                advance(text.size());
                return fail(
                    Errc::Parse,
                    "truncated: element <" + name + "> opened on line " + std::to_string(start_line) + " is cut off",
                    source, line);
            }
            if (text[p] == '>') {
                ++p;
                break;
            }
            if (text[p] == '/' && p + 1 < text.size() && text[p + 1] == '>') {
                self_closing = true;
                p += 2;
                break;
            }
            const std::size_t ks = p;
            while (p < text.size() && name_char(text[p])) ++p;
            if (p == ks || closing) {
                advance(p);
                return fail(Errc::Parse, "bad attribute syntax in <" + std::string(closing ? "/" : "") + name + ">",
                            source, line);
            }
            std::string key(text.substr(ks, p - ks));
            const auto about = [&](std::string_view what) {
                std::string m("attribute ");
                m.append(key).append(" of <").append(name).append("> ").append(what);
                return m;
            };
            while (p < text.size() && space(text[p])) ++p;
            if (p >= text.size() || text[p] != '=') {
                advance(std::min(p, text.size()));
                return fail(Errc::Parse, about("has no value"), source, line);
            }
            ++p;
            while (p < text.size() && space(text[p])) ++p;
            if (p >= text.size() || (text[p] != '"' && text[p] != '\'')) {
                advance(std::min(p, text.size()));
                return fail(Errc::Parse, about("is not quoted"), source, line);
            }
            const char q = text[p];
            const auto ve = text.find(q, p + 1);
            if (ve == std::string_view::npos) {
                advance(text.size());
                return fail(Errc::Parse, std::string("truncated: ").append(about("never closed")), source, line);
            }
            el->attrs[key] = std::string(text.substr(p + 1, ve - p - 1));
            p = ve + 1;
        }
        advance(p);
        if (closing) {
            if (cur == root.get() || cur->name != name) {
                return fail(Errc::Parse,
                            "</" + name + "> closes "
                                + (cur == root.get() ? std::string("nothing")
                                                     : "<" + cur->name + "> of line " + std::to_string(cur->line)),
                            source, start_line);
            }
            cur = cur->parent;
            continue;
        }
        el->parent = cur;
        Element* raw = el.get();
        cur->children.push_back(std::move(el));
        if (!self_closing) cur = raw;
    }
    if (cur != root.get()) {
        return fail(Errc::Parse,
                    "truncated: <" + cur->name + "> opened on line " + std::to_string(cur->line) + " is never closed",
                    source, line);
    }
    return root;
}

int to_int(const std::string& s, int dflt) {
    int v = dflt;
    const auto* b = s.data();
    const auto* e = s.data() + s.size();
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (std::from_chars(b + 2, e, v, 16).ec != std::errc{}) return dflt;
        return v;
    }
    if (std::from_chars(b, e, v).ec != std::errc{}) return dflt;
    return v;
}

/// "0x030200" -> 0x03 (the PCI base class), -1 if absent.
int base_class(const Element& pci) {
    const std::string c = pci.attr("class");
    if (c.size() < 4 || c[0] != '0' || (c[1] != 'x' && c[1] != 'X')) return -1;
    return to_int(c.substr(0, 4), -1);
}

bool is_bridge(const Element& pci) {
    return pci.attr("class").rfind("0x0604", 0) == 0;
}

const Element* child(const Element& e, const char* name) {
    for (const auto& c : e.children) {
        if (c->name == name) return c.get();
    }
    return nullptr;
}

struct Found {
    const Element* at = nullptr;   // the pci element (or the <nic> when not under a pci)
    const Element* gpu = nullptr;  // <gpu> child, if any
    std::string bus;
    int numa = -1;
};

const Element* cpu_of(const Element* e) {
    for (; e != nullptr; e = e->parent) {
        if (e->name == "cpu") return e;
    }
    return nullptr;
}

/// PCIe path class between two devices of the tree (NCCL's PATH_PIX/PXB/PHB/SYS).
PathClass path_between(const Element* a, const Element* b) {
    std::vector<const Element*> up_a;
    for (const Element* e = a->parent; e != nullptr; e = e->parent) up_a.push_back(e);
    const Element* lca = nullptr;
    int bridges_b = 0;
    for (const Element* e = b->parent; e != nullptr; e = e->parent) {
        if (std::find(up_a.begin(), up_a.end(), e) != up_a.end()) {
            lca = e;
            break;
        }
        if (e->name == "pci") ++bridges_b;
    }
    if (lca == nullptr || lca->name == "system" || lca->name.empty()) return PathClass::Sys;
    if (lca->name == "cpu") return PathClass::Phb;
    int bridges_a = 0;
    for (const Element* e = a->parent; e != lca; e = e->parent) {
        if (e->name == "pci") ++bridges_a;
    }
    return bridges_a + bridges_b + 1 <= 1 ? PathClass::Pix : PathClass::Pxb;
}

std::string lower(std::string s) {
    for (char& c : s) {
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    }
    return s;
}

}  // namespace

Result<NodeDescription> parse_nccl_topo_xml(std::string_view text, const std::string& source) {
    if (trim(text).empty()) return fail(Errc::Parse, "empty file, not an NCCL topology", source, 1);
    if (looks_binary(text)) return fail(Errc::Parse, "binary data, not an NCCL topology", source);
    auto root = read_elements(text, source);
    if (!root) return fail(root.error());
    const Element* sys = nullptr;
    for (const auto& c : (*root)->children) {
        if (c->name == "graphs") {
            return fail(Errc::Parse,
                        "an NCCL graph file (NCCL_GRAPH_FILE: rings and trees), not a topology (NCCL_TOPO_FILE)",
                        source, c->line);
        }
        if (c->name == "system") sys = c.get();
    }
    if (sys == nullptr) {
        return fail(Errc::Parse, "no <system> element: not an NCCL topology (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE)",
                    source, (*root)->children.empty() ? 1 : (*root)->children.front()->line);
    }

    NodeDescription nd;
    nd.source = source;
    std::vector<Found> gpus;

    struct NicFound {
        Found where;
        std::string name;
        std::string guid;
        double gbps = 0;
        std::vector<const Element*> also_at;  // the other CPUs' copies of a folded NIC
    };

    std::vector<NicFound> nics;
    int first_folded = 0;
    std::size_t copies = 0;
    std::map<std::string, const Element*> by_bus;
    int max_numa = -1;
    std::vector<const Element*> stack{sys};
    while (!stack.empty()) {
        const Element* e = stack.back();
        stack.pop_back();
        std::for_each(e->children.rbegin(), e->children.rend(), [&](const auto& c) { stack.push_back(c.get()); });
        if (e->name == "cpu") max_numa = std::max(max_numa, to_int(e->attr("numaid"), -1));
        const Element* cpu = cpu_of(e);
        const int numa = cpu != nullptr ? to_int(cpu->attr("numaid"), -1) : -1;
        if (e->name == "pci") {
            const std::string bus = lower(e->attr("busid"));
            if (!bus.empty()) by_bus[bus] = e;
            if (is_bridge(*e)) continue;
            const Element* g = child(*e, "gpu");
            const int cls = base_class(*e);
            if (g != nullptr || cls == 0x03 || cls == 0x12) {
                gpus.push_back(Found{e, g, bus, numa});
            } else if (cls == 0x02 && child(*e, "nic") == nullptr) {
                nics.push_back(NicFound{Found{e, nullptr, bus, numa}, {}, {}, 0, {}});
            }
        } else if (e->name == "nic") {
            const Element* at = e->parent != nullptr && e->parent->name == "pci" ? e->parent : e;
            const std::string bus = at->name == "pci" ? lower(at->attr("busid")) : std::string{};
            bool any = false;
            for (const auto& n : e->children) {
                if (n->name != "net") continue;
                any = true;
                const int speed = to_int(n->attr("speed"), 0);  // Mb/s
                nics.push_back(
                    NicFound{Found{at, nullptr, bus, numa}, n->attr("name"), n->attr("guid"), speed / 1000.0, {}});
            }
            if (!any) nics.push_back(NicFound{Found{at, nullptr, bus, numa}, {}, {}, 0, {}});
        }
    }
    nd.numa_nodes = max_numa + 1;

    // GPU order: <gpu dev> when every GPU has one, else PCI bus id.
    const bool by_dev = !gpus.empty() && std::all_of(gpus.begin(), gpus.end(), [](const Found& f) {
        return f.gpu != nullptr && to_int(f.gpu->attr("dev"), -1) >= 0;
    });
    std::stable_sort(gpus.begin(), gpus.end(), [&](const Found& a, const Found& b) {
        if (by_dev) return to_int(a.gpu->attr("dev"), 0) < to_int(b.gpu->attr("dev"), 0);
        return a.bus < b.bus;
    });
    // NIC order: named NICs by name (natural order), unnamed ones by bus id.
    std::stable_sort(nics.begin(), nics.end(), [](const NicFound& a, const NicFound& b) {
        if (a.name.empty() != b.name.empty()) return !a.name.empty();
        if (!a.name.empty()) return natural_less(a.name, b.name);
        return a.where.bus < b.where.bus;
    });
    int unnamed = 0;
    for (auto& n : nics) {
        if (n.name.empty()) n.name = "nic" + std::to_string(unnamed++);
    }
    // A NIC named twice is refused, except NCCL's own pattern: an interface with no PCI
    // device (docker0, a bridge, a tunnel) is written under every CPU of the dump
    // (NCCL_TOPO_DUMP_FILE on a host whose only interfaces are sockets). Such copies, one
    // per CPU, are one NIC: it keeps no NUMA locality and each GPU reaches it at its
    // own CPU (the best of the copies' paths).
    std::vector<std::string> folded;
    const auto virtual_nic = [](const NicFound& n) { return n.where.at->name != "pci"; };
    for (std::size_t i = 0; i < nics.size();) {
        std::size_t j = i + 1;
        while (j < nics.size() && nics[j].name == nics[i].name) ++j;
        if (j - i > 1) {
            std::set<const Element*> cpus;
            for (std::size_t k = i; k < j; ++k) {
                const Element* cpu = cpu_of(nics[k].where.at);
                if (!virtual_nic(nics[k]) || cpu == nullptr || !cpus.insert(cpu).second) {
                    return fail(Errc::Parse, "NIC " + nics[k].name + " appears twice", source,
                                nics[std::max(k, i + 1)].where.at->line);
                }
            }
            for (std::size_t k = i + 1; k < j; ++k) nics[i].also_at.push_back(nics[k].where.at);
            nics[i].where.numa = -1;
            folded.push_back(nics[i].name);
            if (folded.size() == 1) {
                first_folded = nics[i].where.at->line;
                copies = j - i;
            }
            nics.erase(nics.begin() + static_cast<std::ptrdiff_t>(i + 1),
                       nics.begin() + static_cast<std::ptrdiff_t>(j));
        }
        ++i;
    }
    if (!folded.empty()) {
        std::string names;
        for (const auto& f : folded) names += (names.empty() ? "" : ", ") + f;
        nd.warnings.push_back(source + ":" + std::to_string(first_folded) + ": " + names
                              + (folded.size() > 1 ? " are" : " is") + " listed under each of " + std::to_string(copies)
                              + " CPUs (NCCL writes an interface with no PCI device under every CPU): folded to one NIC"
                              + (folded.size() > 1 ? " each" : "") + ", with no NUMA locality");
    }
    std::map<std::string, int> gpu_of_bus;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const Found& f = gpus[i];
        NodeDescription::GpuDesc g;
        g.index = static_cast<int>(i);
        g.name = "GPU" + std::to_string(i);
        if (f.gpu != nullptr && !f.gpu->attr("gcn").empty()) {
            g.model = f.gpu->attr("gcn");
        } else if (f.gpu != nullptr && !f.gpu->attr("sm").empty()) {
            g.model = "sm_" + f.gpu->attr("sm");
        }
        g.pci_bus = f.bus;
        g.numa = f.numa;
        nd.gpus.push_back(std::move(g));
        if (!f.bus.empty()) gpu_of_bus[f.bus] = static_cast<int>(i);
    }
    for (const auto& n : nics) {
        NodeDescription::NicDesc d;
        d.name = n.name;
        d.pci_bus = n.where.bus;
        d.guid = n.guid;
        d.numa = n.where.numa;
        d.gbps = n.gbps;
        nd.nics.push_back(std::move(d));
    }
    if (!nd.gpus.empty() && !nd.nics.empty()) {
        for (const auto& g : gpus) {
            std::vector<PathClass> row;
            for (const auto& n : nics) {
                PathClass best = path_between(g.at, n.where.at);
                for (const Element* at : n.also_at) best = std::min(best, path_between(g.at, at));
                row.push_back(best);
            }
            nd.gpu_nic.push_back(std::move(row));
        }
    }

    // NVLink / xGMI
    std::map<std::pair<int, int>, int> pairs;
    std::map<std::string, std::vector<std::pair<int, int>>> on_switch;  // NVSwitch bus -> (gpu, count)
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        if (gpus[i].gpu == nullptr) continue;
        for (const auto& l : gpus[i].gpu->children) {
            if (l->name != "nvlink" && l->name != "xgmi") continue;
            const std::string target = lower(l->attr("target"));
            const int count = std::max(1, to_int(l->attr("count"), 1));
            const auto t = gpu_of_bus.find(target);
            if (t != gpu_of_bus.end()) {
                if (t->second == static_cast<int>(i)) continue;
                const int gi = static_cast<int>(i);  // (std::minmax of a temporary would dangle)
                auto& c = pairs[{std::min(gi, t->second), std::max(gi, t->second)}];
                c = std::max(c, count);
            } else if (l->attr("tclass").rfind("0x0680", 0) == 0) {
                on_switch[target].emplace_back(static_cast<int>(i), count);
            } else {
                std::string w = source;
                w.append(":").append(std::to_string(l->line)).append(": ").append(l->name).append(" to ");
                w.append(target).append(", which is no GPU or NVSwitch of the file; ignored");
                nd.warnings.push_back(std::move(w));
            }
        }
    }
    for (const auto& [bus, members] : on_switch) {
        NodeDescription::NvSwitchDesc sw;
        sw.pci_bus = bus;
        for (const auto& [g, c] : members) sw.gpus.emplace_back(g, 0.0);
        nd.nvswitches.push_back(std::move(sw));
    }
    // GPUs sharing NVSwitches: every pair, with the smaller of their per-GPU link counts
    // summed over the switches.
    if (!on_switch.empty()) {
        std::map<int, int> links_of;
        for (const auto& [bus, members] : on_switch) {
            for (const auto& [g, c] : members) links_of[g] += c;
        }
        for (auto a = links_of.begin(); a != links_of.end(); ++a) {
            for (auto b = std::next(a); b != links_of.end(); ++b) {
                auto& c = pairs[{a->first, b->first}];
                c = std::max(c, std::min(a->second, b->second));
            }
        }
    }
    for (const auto& [k, c] : pairs) nd.nvlinks.push_back(NodeDescription::NvPair{k.first, k.second, c, 0});
    if (nd.gpus.empty() && nd.nics.empty()) {
        nd.warnings.push_back(source + ": no GPU and no NIC (PCI classes not given?)");
    }
    return nd;
}

Result<NodeDescription> read_nccl_topo_xml(const std::string& path) {
    auto text = read_text_file(path);
    if (!text) return fail(text.error());
    return parse_nccl_topo_xml(*text, path);
}

}  // namespace topo
