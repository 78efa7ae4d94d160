// SPDX-License-Identifier: Apache-2.0
#include <hwloc.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <topo/errno_text.hpp>
#include <topo/hwloc_reader.hpp>
#include <topo/text_input.hpp>
#include <topo/topology.hpp>

namespace topo {
namespace {

struct HwlocDeleter {
    void operator()(hwloc_topology* t) const noexcept { hwloc_topology_destroy(t); }
};

using HwlocHandle = std::unique_ptr<hwloc_topology, HwlocDeleter>;

constexpr unsigned kVendorNvidia = 0x10de;
constexpr unsigned kVendorAmd = 0x1002;

std::optional<Error> check_api_version() {
    const unsigned runtime = hwloc_get_api_version();
    if ((runtime >> 16) != (HWLOC_API_VERSION >> 16)) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "hwloc library API 0x%x does not match the 0x%x this was built with", runtime,
                      static_cast<unsigned>(HWLOC_API_VERSION));
        return Error{Errc::Unsupported, buf};
    }
    return std::nullopt;
}

Result<HwlocHandle> new_topology() {
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0) {
        return fail(Errc::Internal, std::string("hwloc_topology_init failed: ") + errno_text(errno));
    }
    HwlocHandle t(raw);
    // Keep every bridge: PIX/PXB are told apart by counting them.
    hwloc_topology_set_io_types_filter(t.get(), HWLOC_TYPE_FILTER_KEEP_ALL);
    return t;
}

std::string info(hwloc_obj_t obj, const char* name) {
    const char* v = hwloc_obj_get_info_by_name(obj, name);
    return v != nullptr ? std::string(v) : std::string();
}

std::string str(const char* s) {
    return s != nullptr ? std::string(s) : std::string();
}

std::string pci_bus_id(hwloc_obj_t pci) {
    char buf[32];
    const auto& a = pci->attr->pcidev;
    std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%01x", static_cast<unsigned>(a.domain), static_cast<unsigned>(a.bus),
                  static_cast<unsigned>(a.dev), static_cast<unsigned>(a.func));
    return buf;
}

/// The PCI device an object sits on (itself if it is one), or nullptr.
hwloc_obj_t pci_of(hwloc_obj_t obj) {
    for (auto* o = obj; o != nullptr; o = o->parent) {
        if (o->type == HWLOC_OBJ_PCI_DEVICE) return o;
        if (o->type != HWLOC_OBJ_OS_DEVICE) return nullptr;
    }
    return nullptr;
}

bool is_nvswitch(hwloc_obj_t pci) {
    return pci != nullptr && pci->subtype != nullptr && std::strcmp(pci->subtype, "NVSwitch") == 0;
}

/// Rank of a GPU OS device name: lower is preferred as the GPU's name; nullopt when
/// the OS device is not a GPU compute device (DRM card*, renderD*, controlD*...).
std::optional<int> gpu_osdev_rank(hwloc_obj_t os) {
    if (os->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU && os->attr->osdev.type != HWLOC_OBJ_OSDEV_COPROC) {
        return std::nullopt;
    }
    const std::string name = str(os->name);
    const std::string sub = str(os->subtype);
    if (std::string_view(name).starts_with("nvml") || sub == "NVML") return 0;
    if (std::string_view(name).starts_with("rsmi") || sub == "RSMI") return 1;
    if (std::string_view(name).starts_with("cuda") || sub == "CUDA") return 2;
    if (std::string_view(name).starts_with("ze") || sub == "LevelZero") return 3;
    if (std::string_view(name).starts_with("opencl") || sub == "OpenCL") return 4;
    return std::nullopt;
}

/// Rank of a NIC OS device name (lower preferred), nullopt when not a NIC.
std::optional<int> nic_osdev_rank(hwloc_obj_t os) {
    const std::string name = str(os->name);
    const std::string sub = str(os->subtype);
    if (os->attr->osdev.type == HWLOC_OBJ_OSDEV_OPENFABRICS) return 0;
    if (os->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK) {
        if (std::string_view(name).starts_with("hsi") || sub == "Slingshot") return 1;
        if (std::string_view(name).starts_with("ib")) return 2;
    }
    return std::nullopt;
}

bool pci_looks_like_gpu(hwloc_obj_t pci) {
    const auto& a = pci->attr->pcidev;
    if (a.vendor_id != kVendorNvidia && a.vendor_id != kVendorAmd) return false;
    if (is_nvswitch(pci)) return false;
    const unsigned cls = a.class_id;
    return cls == 0x0302 || cls == 0x0300 || cls == 0x0380 || cls == 0x1200;
}

/// "248a:0703:001e:39fe" or "0x248a0703001e39fe" -> "0x248a0703001e39fe".
std::string normalize_guid_text(std::string_view s) {
    if (std::string_view(s).starts_with("0x") || std::string_view(s).starts_with("0X")) s.remove_prefix(2);
    std::string hex;
    for (char c : s) {
        if (c == ':') continue;
        const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!ok) return {};
        hex.push_back(static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c));
    }
    if (hex.empty() || hex.size() > 16) return {};
    if (hex.find_first_not_of('0') == std::string::npos) return {};  // EFA reports all zeros
    return "0x" + std::string(16 - hex.size(), '0') + hex;
}

int numa_of(hwloc_topology_t t, hwloc_obj_t obj) {
    hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, obj);
    if (anc == nullptr || anc->nodeset == nullptr) return -1;
    if (hwloc_bitmap_weight(anc->nodeset) != 1) return -1;
    return hwloc_bitmap_first(anc->nodeset);
}

/// Deepest common ancestor; works for I/O objects (whose depths are negative, so
/// hwloc_get_common_ancestor_obj() does not apply).
hwloc_obj_t common_ancestor(hwloc_obj_t a, hwloc_obj_t b) {
    std::set<hwloc_obj_t> up;
    for (auto* o = a; o != nullptr; o = o->parent) up.insert(o);
    for (auto* o = b; o != nullptr; o = o->parent) {
        if (up.contains(o)) return o;
    }
    return nullptr;
}

int bridges_below(hwloc_obj_t anc, hwloc_obj_t dev) {
    int n = 0;
    for (auto* o = dev->parent; o != nullptr && o != anc; o = o->parent) {
        if (o->type == HWLOC_OBJ_BRIDGE) ++n;
    }
    return n;
}

bool is_io(hwloc_obj_t o) {
    return o->type == HWLOC_OBJ_BRIDGE || o->type == HWLOC_OBJ_PCI_DEVICE || o->type == HWLOC_OBJ_OS_DEVICE;
}

/// The rule documented in hwloc_reader.hpp.
PathClass classify(hwloc_topology_t t, hwloc_obj_t a, hwloc_obj_t b) {
    if (a == nullptr || b == nullptr) return PathClass::Unknown;
    hwloc_obj_t anc = common_ancestor(a, b);
    if (anc == nullptr) return PathClass::Unknown;
    if (anc == a || anc == b || anc->type == HWLOC_OBJ_PCI_DEVICE) return PathClass::Pix;
    if (anc->type == HWLOC_OBJ_BRIDGE) {
        if (anc->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) return PathClass::Phb;
        return bridges_below(anc, a) <= 1 && bridges_below(anc, b) <= 1 ? PathClass::Pix : PathClass::Pxb;
    }
    if (is_io(anc)) return PathClass::Unknown;
    hwloc_obj_t na = hwloc_get_non_io_ancestor_obj(t, a);
    hwloc_obj_t nb = hwloc_get_non_io_ancestor_obj(t, b);
    if (na == nullptr || nb == nullptr || na->nodeset == nullptr || nb->nodeset == nullptr) return PathClass::Unknown;
    return hwloc_bitmap_intersects(na->nodeset, nb->nodeset) != 0 ? PathClass::Node : PathClass::Sys;
}

struct Device {
    hwloc_obj_t anchor = nullptr;  // PCI device, or the OS device when it has none
    hwloc_obj_t pci = nullptr;
    std::vector<std::pair<int, hwloc_obj_t>> osdevs;  // (rank, OS device)
    std::string key;                                  // sort key
};

/// Marketing names of a few data-centre GPUs by PCI device id, for XML files where
/// hwloc saw only the PCI device and pci.ids was not available (JUWELS, JURECA-DC).
const char* known_nvidia_model(unsigned device_id) {
    switch (device_id) {
        case 0x15f9: return "Tesla P100-SXM2-16GB";
        case 0x1db1: return "Tesla V100-SXM2-16GB";
        case 0x1db5: return "Tesla V100-SXM2-32GB";
        case 0x1eb8: return "Tesla T4";
        case 0x20b0: return "A100-SXM4-40GB";
        case 0x20b2: return "A100-SXM4-80GB";
        case 0x2330: return "H100-SXM5-80GB";
        default: return nullptr;
    }
}

/// MB/s per NVLink as hwloc's NVML backend reports it, by GPU model; 0 if unknown.
double nvlink_unit_mbs(const std::string& model) {
    if (model.find("P100") != std::string::npos) return 20000;
    for (const char* m : {"V100", "A100", "A800", "H100", "H800", "H200"}) {
        if (model.find(m) != std::string::npos) return 25000;
    }
    return 0;
}

int links_from(double mbs, double unit) {
    if (unit <= 0 || mbs <= 0) return 0;
    const double n = mbs / unit;
    const auto r = static_cast<int>(std::lround(n));
    return (r > 0 && n - r < 1e-9 && r - n < 1e-9) ? r : 0;
}

void read_gpu_links(hwloc_topology_t t, const char* matrix_name, const std::map<hwloc_obj_t, int>& gpu_of,
                    NodeDescription& nd) {
    unsigned nr = 0;
    if (hwloc_distances_get_by_name(t, matrix_name, &nr, nullptr, 0) != 0 || nr == 0) return;
    std::vector<hwloc_distances_s*> dist(nr, nullptr);
    if (hwloc_distances_get_by_name(t, matrix_name, &nr, dist.data(), 0) != 0) return;
    const std::size_t ng = nd.gpus.size();
    std::vector<std::vector<double>> direct(ng, std::vector<double>(ng, 0));
    std::vector<double> to_switch(ng, 0);
    for (unsigned d = 0; d < nr && d < dist.size(); ++d) {
        const hwloc_distances_s* m = dist[d];
        if (m == nullptr) continue;
        const unsigned n = m->nbobjs;
        auto gpu_idx = [&](unsigned i) -> int {
            hwloc_obj_t o = m->objs[i];
            if (o == nullptr) return -1;
            auto it = gpu_of.find(o);
            if (it == gpu_of.end()) {
                hwloc_obj_t p = pci_of(o);
                it = p != nullptr ? gpu_of.find(p) : gpu_of.end();
            }
            return it == gpu_of.end() ? -1 : it->second;
        };
        for (unsigned i = 0; i < n; ++i) {
            const int gi = gpu_idx(i);
            if (gi < 0) continue;
            for (unsigned j = 0; j < n; ++j) {
                if (i == j) continue;
                const double v = static_cast<double>(std::max(m->values[i * n + j], m->values[j * n + i]));
                if (v <= 0) continue;
                const int gj = gpu_idx(j);
                if (gj >= 0 && gj != gi) {
                    auto& cell = direct[static_cast<std::size_t>(gi)][static_cast<std::size_t>(gj)];
                    cell = std::max(cell, v);
                } else if (gj < 0 && is_nvswitch(pci_of(m->objs[j]))) {
                    to_switch[static_cast<std::size_t>(gi)] += v;
                    const std::string bus = pci_bus_id(pci_of(m->objs[j]));
                    for (auto& sw : nd.nvswitches) {
                        if (sw.pci_bus != bus) continue;
                        auto it =
                            std::find_if(sw.gpus.begin(), sw.gpus.end(), [&](const auto& e) { return e.first == gi; });
                        if (it == sw.gpus.end()) {
                            sw.gpus.emplace_back(gi, v * 8.0 / 1000.0);
                        } else {
                            it->second = std::max(it->second, v * 8.0 / 1000.0);
                        }
                    }
                }
            }
        }
        hwloc_distances_release(t, dist[d]);
        dist[d] = nullptr;
    }
    for (std::size_t i = 0; i < ng; ++i) {
        for (std::size_t j = i + 1; j < ng; ++j) {
            double mbs = direct[i][j];
            if (mbs <= 0 && to_switch[i] > 0 && to_switch[j] > 0) mbs = std::min(to_switch[i], to_switch[j]);
            if (mbs <= 0) continue;
            const bool already = std::any_of(nd.nvlinks.begin(), nd.nvlinks.end(), [&](const auto& p) {
                return p.a == static_cast<int>(i) && p.b == static_cast<int>(j);
            });
            if (already) continue;
            NodeDescription::NvPair p;
            p.a = static_cast<int>(i);
            p.b = static_cast<int>(j);
            p.gbps = mbs * 8.0 / 1000.0;
            if (std::strcmp(matrix_name, "NVLinkBandwidth") == 0) {
                const double unit = std::min(nvlink_unit_mbs(nd.gpus[i].model), nvlink_unit_mbs(nd.gpus[j].model));
                p.links = links_from(mbs, unit);
            }
            nd.nvlinks.push_back(p);
        }
    }
}

NodeDescription describe(hwloc_topology_t t, const std::string& source) {
    NodeDescription nd;
    nd.source = source;
    hwloc_obj_t root = hwloc_get_root_obj(t);
    nd.hostname = info(root, "HostName");
    nd.numa_nodes = std::max(0, hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE));

    // Group GPU and NIC OS devices by the PCI function they sit on.
    std::map<hwloc_obj_t, Device> gpus;
    std::map<hwloc_obj_t, Device> nics;
    for (hwloc_obj_t os = hwloc_get_next_osdev(t, nullptr); os != nullptr; os = hwloc_get_next_osdev(t, os)) {
        hwloc_obj_t pci = pci_of(os);
        if (is_nvswitch(pci)) continue;
        hwloc_obj_t anchor = pci != nullptr ? pci : os;
        if (auto r = gpu_osdev_rank(os)) {
            auto& d = gpus[anchor];
            d.anchor = anchor;
            d.pci = pci;
            d.osdevs.emplace_back(*r, os);
        } else if (auto rn = nic_osdev_rank(os)) {
            auto& d = nics[anchor];
            d.anchor = anchor;
            d.pci = pci;
            d.osdevs.emplace_back(*rn, os);
        }
    }
    // A PCI function that carries a NIC OS device may also carry an Ethernet name; the
    // ranking picks the OpenFabrics one.

    std::vector<hwloc_obj_t> gpu_like_pci;
    for (hwloc_obj_t p = hwloc_get_next_pcidev(t, nullptr); p != nullptr; p = hwloc_get_next_pcidev(t, p)) {
        if (pci_looks_like_gpu(p)) gpu_like_pci.push_back(p);
    }
    if (gpus.empty()) {
        for (hwloc_obj_t p : gpu_like_pci) {
            auto& d = gpus[p];
            d.anchor = p;
            d.pci = p;
        }
    } else {
        for (hwloc_obj_t p : gpu_like_pci) {
            if (!gpus.contains(p) && p->attr->pcidev.class_id == 0x0302) {
                nd.warnings.push_back(source + ": PCI " + pci_bus_id(p) + " (" + info(p, "PCIDevice")
                                      + ") looks like a GPU but has no GPU OS device; ignored");
            }
        }
    }

    std::vector<Device> gpu_list;
    for (auto& [obj, d] : gpus) {
        std::sort(d.osdevs.begin(), d.osdevs.end(), [](const auto& x, const auto& y) {
            return x.first != y.first ? x.first < y.first : natural_less(str(x.second->name), str(y.second->name));
        });
        d.key = d.pci != nullptr ? pci_bus_id(d.pci) : "~" + str(d.osdevs.front().second->name);
        gpu_list.push_back(d);
    }
    std::sort(gpu_list.begin(), gpu_list.end(), [](const Device& x, const Device& y) { return x.key < y.key; });

    std::map<hwloc_obj_t, int> gpu_of;  // OS devices and PCI devices -> GPU position
    for (std::size_t i = 0; i < gpu_list.size(); ++i) {
        const Device& d = gpu_list[i];
        NodeDescription::GpuDesc g;
        g.index = static_cast<int>(i);
        g.name = d.osdevs.empty() ? "GPU" + std::to_string(i) : str(d.osdevs.front().second->name);
        for (const auto& [rank, os] : d.osdevs) {
            if (g.model.empty()) g.model = info(os, "GPUModel");
            if (g.uuid.empty()) g.uuid = info(os, "NVIDIAUUID");
            if (g.uuid.empty()) g.uuid = info(os, "AMDUUID");
            gpu_of[os] = static_cast<int>(i);
        }
        if (d.pci != nullptr) {
            g.pci_bus = pci_bus_id(d.pci);
            gpu_of[d.pci] = static_cast<int>(i);
            if (g.model.empty()) g.model = info(d.pci, "PCIDevice");
            if (g.model.empty() && d.pci->attr->pcidev.vendor_id == kVendorNvidia) {
                g.model = str(known_nvidia_model(d.pci->attr->pcidev.device_id));
            }
            if (g.model.empty()) {
                char buf[16];
                std::snprintf(buf, sizeof buf, "%04x:%04x", static_cast<unsigned>(d.pci->attr->pcidev.vendor_id),
                              static_cast<unsigned>(d.pci->attr->pcidev.device_id));
                g.model = buf;
            }
        }
        g.numa = numa_of(t, d.anchor);
        nd.gpus.push_back(std::move(g));
    }
    // A device in a partition mode (AMD MI300A/MI300X CPX: six "rsmi" partitions per
    // device) shows several compute OS devices of one kind on one PCI function. The
    // model counts devices, not partitions: say what was folded.
    {
        std::size_t folded_devices = 0;
        std::size_t partitions = 0;
        std::string example;
        for (const Device& d : gpu_list) {
            if (d.osdevs.empty()) continue;
            std::vector<std::string> same;
            for (const auto& [rank, os] : d.osdevs) {
                if (rank == d.osdevs.front().first) same.push_back(str(os->name));
            }
            if (same.size() < 2) continue;
            ++folded_devices;
            partitions += same.size();
            if (example.empty()) {
                example =
                    (d.pci != nullptr ? "PCI " + pci_bus_id(d.pci) : d.key) + ": " + same.front() + ".." + same.back();
            }
        }
        if (folded_devices > 0) {
            nd.warnings.push_back(source + ": " + std::to_string(partitions) + " GPU partitions on "
                                  + std::to_string(folded_devices) + " device(s) (partition mode, e.g. CPX; " + example
                                  + ") are read as " + std::to_string(folded_devices)
                                  + " GPU(s), one per device; NVLink/xGMI locality and Slurm GRES are per device");
        }
    }

    std::vector<std::pair<std::string, Device>> nic_list;
    for (auto& [obj, d] : nics) {
        std::sort(d.osdevs.begin(), d.osdevs.end(), [](const auto& x, const auto& y) {
            return x.first != y.first ? x.first < y.first : natural_less(str(x.second->name), str(y.second->name));
        });
        nic_list.emplace_back(str(d.osdevs.front().second->name), d);
    }
    std::sort(nic_list.begin(), nic_list.end(),
              [](const auto& x, const auto& y) { return natural_less(x.first, y.first); });
    for (const auto& [name, d] : nic_list) {
        NodeDescription::NicDesc n;
        n.name = name;
        if (d.pci != nullptr) n.pci_bus = pci_bus_id(d.pci);
        for (const auto& [rank, os] : d.osdevs) {
            if (n.guid.empty()) n.guid = normalize_guid_text(info(os, "NodeGUID"));
            if (n.guid.empty()) n.guid = normalize_guid_text(info(os, "Port1GUID"));
        }
        n.numa = numa_of(t, d.anchor);
        nd.nics.push_back(std::move(n));
    }

    if (!nd.gpus.empty() && !nd.nics.empty()) {
        nd.gpu_nic.assign(nd.gpus.size(), std::vector<PathClass>(nd.nics.size(), PathClass::Unknown));
        for (std::size_t i = 0; i < gpu_list.size(); ++i) {
            for (std::size_t j = 0; j < nic_list.size(); ++j) {
                nd.gpu_nic[i][j] = classify(t, gpu_list[i].anchor, nic_list[j].second.anchor);
            }
        }
    }

    for (hwloc_obj_t pci = hwloc_get_next_pcidev(t, nullptr); pci != nullptr; pci = hwloc_get_next_pcidev(t, pci)) {
        if (is_nvswitch(pci)) nd.nvswitches.push_back(NodeDescription::NvSwitchDesc{pci_bus_id(pci), {}});
    }
    std::sort(nd.nvswitches.begin(), nd.nvswitches.end(),
              [](const auto& x, const auto& y) { return x.pci_bus < y.pci_bus; });
    read_gpu_links(t, "NVLinkBandwidth", gpu_of, nd);
    read_gpu_links(t, "XGMIBandwidth", gpu_of, nd);
    for (auto& sw : nd.nvswitches) std::sort(sw.gpus.begin(), sw.gpus.end());
    std::sort(nd.nvlinks.begin(), nd.nvlinks.end(),
              [](const auto& x, const auto& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
    return nd;
}

/// hwloc 2.x refuses XML written by hwloc 3.x ("cannot import XML version 3.0 > 2").
/// The differences that matter for the fixtures we have are small: the version
/// attribute, OS device types as a bitmask (3.x) instead of an enum (2.x), and
/// topology-wide <info> elements after the root object instead of inside it. This
/// rewrites exactly those; hwloc still parses the document.
std::optional<std::string> downgrade_v3_xml(std::string_view xml) {
    const std::string_view tag = "<topology version=\"3.";
    const auto vpos = xml.find(tag);
    if (vpos == std::string_view::npos) return std::nullopt;
    const auto vend = xml.find('"', vpos + tag.size());
    if (vend == std::string_view::npos) return std::nullopt;
    std::string out;
    out.reserve(xml.size());
    out.append(xml.substr(0, vpos));
    out.append("<topology version=\"2.0");
    std::string_view rest = xml.substr(vend);

    // Topology-level infos: after the root object's closing tag.
    const auto last_close = rest.rfind("</object>");
    std::string top_infos;
    std::string tail;
    std::string_view body = rest;
    if (last_close != std::string_view::npos) {
        body = rest.substr(0, last_close + 9);
        std::string_view after = rest.substr(last_close + 9);
        std::size_t p = 0;
        while (p < after.size()) {
            const auto b = after.find("<info ", p);
            if (b == std::string_view::npos) {
                tail.append(after.substr(p));
                break;
            }
            const auto e = after.find("/>", b);
            if (e == std::string_view::npos) {
                tail.append(after.substr(p));
                break;
            }
            tail.append(after.substr(p, b - p));
            top_infos.append(after.substr(b, e + 2 - b));
            top_infos.push_back('\n');
            p = e + 2;
        }
    }

    // OS device types: 3.x bits STORAGE=1 MEMORY=2 GPU=4 COPROC=8 NETWORK=16
    // OPENFABRICS=32 DMA=64 -> 2.x enum BLOCK=0 GPU=1 NETWORK=2 OPENFABRICS=3 DMA=4 COPROC=5.
    std::string conv;
    conv.reserve(body.size());
    const std::string_view attr = "osdev_type=\"";
    std::size_t p = 0;
    while (true) {
        const auto b = body.find(attr, p);
        if (b == std::string_view::npos) {
            conv.append(body.substr(p));
            break;
        }
        const auto vb = b + attr.size();
        const auto ve = body.find('"', vb);
        if (ve == std::string_view::npos) {
            conv.append(body.substr(p));
            break;
        }
        unsigned long bits = 0;
        try {
            bits = std::stoul(std::string(body.substr(vb, ve - vb)));
        } catch (...) {
            bits = 0;
        }
        int v2 = 0;
        if ((bits & 32U) != 0) {
            v2 = 3;
        } else if ((bits & 16U) != 0) {
            v2 = 2;
        } else if ((bits & 8U) != 0) {
            v2 = 5;
        } else if ((bits & 4U) != 0) {
            v2 = 1;
        } else if ((bits & 64U) != 0) {
            v2 = 4;
        }
        conv.append(body.substr(p, vb - p));
        conv.append(std::to_string(v2));
        p = ve;
    }

    // Insert the topology infos as the first children of the root object.
    if (!top_infos.empty()) {
        const auto ob = conv.find("<object ");
        const auto oe = ob == std::string::npos ? std::string::npos : conv.find('>', ob);
        if (oe != std::string::npos && conv[oe - 1] != '/') {
            conv.insert(oe + 1, "\n" + top_infos);
        }
    }
    out.append(conv);
    out.append(tail);
    return out;
}

/// What a look at the text tells is wrong with `xml` before hwloc sees it: (line, reason);
/// nullopt when it looks like an hwloc XML topology. Checked first because hwloc's XML
/// importer leaks the objects it built when it fails on such input.
std::optional<std::pair<int, std::string>> precheck_xml(std::string_view xml) {
    const auto line_at = [&](std::size_t off) {
        return 1 + static_cast<int>(std::count(xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(off), '\n'));
    };
    const auto first = xml.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && xml[first] != '<') {
        return std::pair<int, std::string>{
            line_at(first), "not XML, so not an hwloc XML topology (it should start with <?xml or <topology>)"};
    }
    const auto open = xml.find("<topology");
    if (open == std::string_view::npos) {
        return std::pair<int, std::string>{
            0, "XML without a <topology> element: not an hwloc XML topology (lstopo --of xml writes one)"};
    }
    if (xml.find("</topology>", open) == std::string_view::npos) {
        const auto last = xml.find_last_not_of(" \t\r\n");
        return std::pair<int, std::string>{line_at(last == std::string_view::npos ? 0 : last),
                                           "truncated hwloc XML topology: the <topology> element opened on line "
                                               + std::to_string(line_at(open)) + " is never closed"};
    }
    return std::nullopt;
}

}  // namespace

Result<NodeDescription> read_hwloc_xml(const std::string& path) {
    if (auto e = check_api_version()) return fail(*e);
    auto text = read_text_file(path);
    if (!text) return fail(text.error());
    if (trim(*text).empty()) return fail(Errc::Parse, "empty file, not an hwloc XML topology", path, 1);
    if (looks_binary(*text)) return fail(Errc::Parse, "binary data, not an hwloc XML topology", path);
    if (auto bad = precheck_xml(*text)) return fail(Errc::Parse, bad->second, path, bad->first);

    std::vector<std::string> warnings;
    std::string xml = std::move(*text);
    if (auto down = downgrade_v3_xml(xml)) {
        xml = std::move(*down);
        warnings.push_back(path + ": hwloc 3.x XML downgraded in memory for the hwloc 2.x importer");
    }

    if (xml.size() >= static_cast<std::size_t>(INT_MAX)) {
        return fail(Errc::Parse, "XML too large for hwloc (2 GiB or more)", path);
    }
    auto topo = new_topology();
    if (!topo) return fail(topo.error());
    // The buffer length includes the terminating NUL, as hwloc_topology_export_xmlbuffer() gives it.
    if (hwloc_topology_set_xmlbuffer(topo->get(), xml.c_str(), static_cast<int>(xml.size() + 1)) != 0) {
        return fail(Errc::Parse, std::string("hwloc cannot read the XML: ") + errno_text(errno), path);
    }
    if (hwloc_topology_load(topo->get()) != 0) {
        return fail(Errc::Parse, "not a valid hwloc XML topology (hwloc cannot load it: " + errno_text(errno) + ")",
                    path);
    }
    NodeDescription nd = describe(topo->get(), path);
    nd.warnings.insert(nd.warnings.begin(), warnings.begin(), warnings.end());
    return nd;
}

Result<NodeDescription> read_hwloc_live() {
    if (auto e = check_api_version()) return fail(*e);
    auto topo = new_topology();
    if (!topo) return fail(topo.error());
    if (hwloc_topology_load(topo->get()) != 0) {
        return fail(Errc::Io, std::string("hwloc cannot discover this machine: ") + errno_text(errno));
    }
    return describe(topo->get(), "hwloc:live");
}

}  // namespace topo
