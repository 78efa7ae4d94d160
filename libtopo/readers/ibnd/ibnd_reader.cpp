// SPDX-License-Identifier: Apache-2.0
/// \file libibnetdisc -> IbFabric.
///
/// Only libibnetdisc symbols are called: the NodeInfo/PortInfo fields we need are
/// decoded here from the raw SMP bytes that libibnetdisc keeps (offsets checked against
/// libibmad's mad_get_field). The HCA list comes from scandir(/sys/class/infiniband),
/// the way libibumad finds it, so ibsim's umad2sim preload works for tests.

#include <infiniband/ibnetdisc.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <system_error>
#include <vector>

#include <topo/ibnd_reader.hpp>

#include <dirent.h>

namespace topo {
double ib_rate_gbps(std::string_view rate) noexcept;  // libtopo/src/ibnetdiscover.cpp
}

namespace topo::ibnd {

namespace {

struct FabricDeleter {
    void operator()(ibnd_fabric_t* f) const noexcept {
        if (f != nullptr) ibnd_destroy_fabric(f);
    }
};

using FabricPtr = std::unique_ptr<ibnd_fabric_t, FabricDeleter>;

std::uint64_t be64(const std::uint8_t* p) noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
    return v;
}

std::uint32_t be32(const std::uint8_t* p) noexcept {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

std::string guid_str(std::uint64_t g) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(g));
    return buf;
}

// PortInfo (IBA 14.2.5.6) byte offsets.
constexpr int kCapMask = 20;             // 32 bits
constexpr int kLinkWidthActive = 31;     // 8 bits
constexpr int kLinkSpeedActive = 35;     // high nibble
constexpr int kLinkSpeedExtActive = 62;  // high nibble, valid with CapMask bit 14
constexpr std::uint32_t kCapHasExtSpeeds = 1U << 14;
constexpr int kMlnxExtSpeedActive = 15;  // Mellanox ExtendedPortInfo: bit 0 = FDR10
// NodeInfo (IBA 14.2.5.3).
constexpr int kSystemImageGuid = 4;

std::string width_str(unsigned w) {
    switch (w) {
        case 1: return "1x";
        case 2: return "4x";
        case 4: return "8x";
        case 8: return "12x";
        case 16: return "2x";
        default: return "?x";
    }
}

std::string rate_of(const ibnd_port_t* port) {
    const std::uint8_t* info = port->info;
    std::uint32_t cap = be32(info + kCapMask);
    if (port->node != nullptr && port->node->type == IB_NODE_SWITCH && port->node->ports != nullptr
        && port->node->ports[0] != nullptr) {
        cap = be32(port->node->ports[0]->info + kCapMask);  // switches report it on port 0
    }
    const unsigned width = info[kLinkWidthActive];
    const unsigned speed = info[kLinkSpeedActive] >> 4;
    const unsigned espeed = (cap & kCapHasExtSpeeds) != 0 ? (info[kLinkSpeedExtActive] >> 4) : 0;
    std::string s;
    switch (espeed) {
        case 1: s = "FDR"; break;
        case 2: s = "EDR"; break;
        case 4: s = "HDR"; break;
        case 8: s = "NDR"; break;
        default: break;
    }
    if (s.empty()) {
        switch (speed) {
            case 1: s = "SDR"; break;
            case 2: s = "DDR"; break;
            case 4: s = (port->ext_info[kMlnxExtSpeedActive] & 1U) != 0 ? "FDR10" : "QDR"; break;
            default: s = "???"; break;
        }
    }
    return width_str(width) + s;
}

std::string clean_desc(const char* d) {
    std::string out;
    for (std::size_t i = 0; i < IB_SMP_DATA_SIZE && d[i] != '\0'; ++i) {
        auto c = static_cast<unsigned char>(d[i]);
        out.push_back(c >= 0x20 && c < 0x7f ? static_cast<char>(c) : '?');
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

Result<IbFabric> convert(ibnd_fabric_t* f, const std::string& source) {
    IbFabric out;
    out.source = source;
    std::set<std::uint64_t> seen;
    int idx = 0;
    for (ibnd_node_t* n = f->nodes; n != nullptr; n = n->next) {
        ++idx;
        if (!seen.insert(n->guid).second) {
            return fail(Errc::Parse, "duplicate node GUID " + guid_str(n->guid) + " in the discovered fabric", source);
        }
        IbNode node;
        switch (n->type) {
            case IB_NODE_SWITCH: node.type = IbNode::Type::Switch; break;
            case IB_NODE_ROUTER: node.type = IbNode::Type::Router; break;
            default: node.type = IbNode::Type::Ca; break;
        }
        node.guid = guid_str(n->guid);
        const std::uint64_t sysimg = be64(n->info + kSystemImageGuid);
        if (sysimg != 0) node.sysimg_guid = guid_str(sysimg);
        node.description = clean_desc(n->nodedesc);
        node.num_ports = n->numports;
        node.line = 0;
        if (n->ports != nullptr) {
            for (int p = 1; p <= n->numports; ++p) {
                const ibnd_port_t* port = n->ports[p];
                if (port == nullptr) continue;
                if (node.type != IbNode::Type::Switch && node.port_guid.empty() && port->guid != 0) {
                    node.port_guid = guid_str(port->guid);
                }
                const ibnd_port_t* rp = port->remoteport;
                if (rp == nullptr || rp->node == nullptr) continue;
                IbPort ip;
                ip.port = port->portnum;
                ip.peer_guid = guid_str(rp->node->guid);
                ip.peer_port = rp->portnum;
                ip.rate = rate_of(port);
                ip.gbps = ib_rate_gbps(ip.rate);
                node.ports.push_back(std::move(ip));
            }
        }
        out.nodes.push_back(std::move(node));
    }
    if (out.nodes.empty()) return fail(Errc::Parse, "the fabric has no node", source);
    return out;
}

}  // namespace

std::vector<std::string> infiniband_devices(const std::string& sysfs_class_dir) {
    // ::scandir, as libibumad does: ibsim's umad2sim preload interposes scandir/opendir and
    // serves its simulated sysfs tree, so the same call sees the simulated HCAs in tests.
    std::vector<std::string> out;
    struct dirent** list = nullptr;
    const int n = ::scandir(sysfs_class_dir.c_str(), &list, nullptr, alphasort);
    for (int i = 0; i < n; ++i) {
        const std::string name = list[i]->d_name;
        if (name != "." && name != "..") out.push_back(name);
        std::free(list[i]);
    }
    std::free(list);
    std::sort(out.begin(), out.end());
    return out;
}

Result<IbFabric> discover(const DiscoverOptions& options) {
    try {
        // Not umad_get_cas_names: without /sys/class/infiniband it answers its built-in
        // default "mthca0" instead of "none", and discovery then fails with a misleading
        // "no access to umad" error.
        const std::vector<std::string> devs = infiniband_devices(options.sysfs_class_dir);
        if (devs.empty()) {
            return fail(Errc::Unsupported, "no InfiniBand device found (" + options.sysfs_class_dir +
                                               " is empty or missing); run on a node with an HCA, or use an "
                                               "ibnetdiscover dump or cache file");
        }
        if (!options.ca.empty() && std::find(devs.begin(), devs.end(), options.ca) == devs.end()) {
            std::string list;
            for (const auto& d : devs) list += (list.empty() ? "" : ", ") + d;
            return fail(Errc::Unsupported, "no InfiniBand device named " + options.ca + " (found: " + list + ")");
        }
        ibnd_config_t cfg{};
        cfg.timeout_ms = options.timeout_ms;
        cfg.max_hops = options.max_hops;
        std::string ca = options.ca;
        FabricPtr fabric(ibnd_discover_fabric(ca.empty() ? nullptr : ca.data(), options.port, nullptr, &cfg));
        if (!fabric) {
            return fail(Errc::Io, "InfiniBand discovery failed on " + (ca.empty() ? devs.front() : ca)
                                      + " (no access to /dev/infiniband/umad*? link down or no subnet manager?)");
        }
        return convert(fabric.get(), "libibnetdisc:" + (ca.empty() ? devs.front() : ca));
    } catch (const std::exception& e) {
        return fail(Errc::Internal, std::string("libibnetdisc discovery: ") + e.what());
    }
}

Result<IbFabric> load_cache(const std::string& path) {
    try {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) {
            return fail(Errc::Io, "cannot read libibnetdisc cache: no such file", path);
        }
        std::FILE* fp = std::fopen(path.c_str(), "rb");
        if (fp == nullptr) return fail(Errc::Io, "cannot open libibnetdisc cache", path);
        std::fclose(fp);
        FabricPtr fabric(ibnd_load_fabric(path.c_str(), 0));
        if (!fabric) {
            return fail(Errc::Parse, "not a libibnetdisc cache file (or a corrupt one)", path);
        }
        return convert(fabric.get(), path);
    } catch (const std::exception& e) {
        return fail(Errc::Internal, std::string("libibnetdisc cache: ") + e.what(), path);
    }
}

}  // namespace topo::ibnd
