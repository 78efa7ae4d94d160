// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The immutable cluster model.
///
/// A Topology is built once by TopologyBuilder::freeze() and shared as
/// std::shared_ptr<const Topology>. Entities are stored in canonical order (hosts by
/// natural name order, switches by GUID, ...) so that the same input always yields the
/// same dense ids and a byte-identical snapshot. Cluster state (busy, drained,
/// unhealthy) is never stored here: see placement/ for the state overlay.
/// Thread-safety: all const member functions may be called concurrently.

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <topo/ids.hpp>
#include <topo/result.hpp>

namespace topo {

/// Where a fact came from (hwloc's FROM_OS/FROM_USER idea).
enum class Provenance : std::uint8_t { Discovered, Declared, Inferred };

/// What a host is for. Compute = a GPU/compute node on the selected fabric;
/// Service = login/slurm/ufm/cache-like nodes (one HCA, or declared so).
enum class HostRole : std::uint8_t { Compute, Service, Unknown };

/// GPU<->NIC and GPU<->GPU locality, best first (nvidia-smi topo -m legend).
enum class PathClass : std::uint8_t {
    Self,     ///< "X"
    NvLink,   ///< "NV#"
    Pix,      ///< at most one PCIe bridge
    Pxb,      ///< multiple PCIe bridges, no host bridge
    Phb,      ///< through a PCIe host bridge (CPU)
    Node,     ///< across host bridges within one NUMA node
    Sys,      ///< across the SMP interconnect (QPI/UPI/xGMI)
    Unknown,  ///< not known
};

[[nodiscard]] const char* path_class_name(PathClass c) noexcept;
[[nodiscard]] std::optional<PathClass> path_class_from_name(std::string_view s) noexcept;

struct Switch {
    std::string guid;         ///< stable identity, e.g. "0x1c34da0300728866"; or a declared name
    std::string name;         ///< short name (node-name-map, description, or topology.conf)
    std::string description;  ///< raw node description
    int num_ports = 0;
    int tier = -1;  ///< 0 = leaf (hosts attach), 1 = spine, 2 = core... (inferred at freeze)
    Provenance provenance = Provenance::Discovered;
};

/// How a switch is named to people: its short name, else its GUID.
[[nodiscard]] inline const std::string& switch_label(const Switch& s) noexcept {
    return s.name.empty() ? s.guid : s.name;
}

struct Nic {
    std::string name;     ///< device name on the host, e.g. "mlx5_0"; may be empty
    std::string guid;     ///< port/CA GUID, may be empty
    std::string pci_bus;  ///< "0000:0c:00.0", may be empty
    HostId host;
    SwitchId leaf;  ///< switch this NIC plugs into; invalid if not on the fabric
    int leaf_port = 0;
    int rail = -1;  ///< inferred at freeze; -1 = unknown / not on a rail fabric
    double rate_gbps = 0;
    std::string rate;  ///< as printed, e.g. "4xHDR"
    int numa = -1;
    Provenance provenance = Provenance::Discovered;
};

struct Gpu {
    HostId host;
    int index = 0;      ///< 0-based index on its host (nvidia-smi / CUDA order)
    std::string model;  ///< e.g. "NVIDIA H100 80GB HBM3"
    std::string pci_bus;
    std::string uuid;
    int numa = -1;
    DomainId nvl_domain;  ///< invalid when the GPU has no NVLink peers
};

struct Host {
    std::string name;
    HostRole role = HostRole::Unknown;
    std::string sysimg_guid;  ///< IB system image GUID, if known
    std::vector<NicId> nics;  ///< in natural name order
    std::vector<GpuId> gpus;  ///< in index order
    GroupId group;            ///< leaf group (hosts sharing exactly the same leaves)
    Provenance provenance = Provenance::Discovered;
};

/// A set of GPUs that talk over NVLink: one host's NVLink island, or a multi-node
/// NVLink rack (GB200 NVL72: 18 nodes of which a site may guarantee `usable_hosts`).
struct NvlDomain {
    std::string name;
    bool multi_node = false;
    std::vector<HostId> hosts;
    std::vector<GpuId> gpus;
    int usable_hosts = 0;  ///< 0 = all
};

enum class LinkKind : std::uint8_t { Ib, NvLink, Declared };

/// A cable between a NIC and a switch, or between two switches. For NIC links
/// `nic` is valid and `a` is the switch; for switch links `a` and `b` are switches.
struct Link {
    LinkKind kind = LinkKind::Ib;
    NicId nic;
    SwitchId a;
    SwitchId b;
    int port_a = 0;
    int port_b = 0;
    double gbps = 0;
    std::string rate;
};

/// GPU<->NIC locality class within a host.
struct GpuNicPath {
    GpuId gpu;
    NicId nic;
    PathClass cls = PathClass::Unknown;
};

/// NVLink between two GPUs of one host.
struct NvLinkPair {
    GpuId a;
    GpuId b;
    int links = 0;    ///< "NV12" -> 12, 0 if unknown
    double gbps = 0;  ///< from hwloc NVLinkBandwidth, 0 if unknown
};

/// An NVSwitch inside a host: GPUs of that host reach each other through it.
struct NvSwitch {
    HostId host;
    std::string pci_bus;      ///< stable identity within the host
    std::vector<GpuId> gpus;  ///< GPUs cabled to it
    double gbps = 0;          ///< NVLink bandwidth of one GPU to it (max over GPUs)
    DomainId nvl_domain;      ///< the NVLink domain its GPUs form (inferred)
};

/// Hosts that share exactly the same set of leaf switches (one scalable unit in a
/// rail-optimized fabric).
struct LeafGroup {
    std::string name;              ///< stable, e.g. "g001"
    std::vector<HostId> hosts;     ///< natural name order
    std::vector<SwitchId> leaves;  ///< rail order when rails are known
};

/// Summary figures, as `topoplace show --json` prints them.
struct Summary {
    int hosts = 0;  ///< hosts with a NIC on the fabric (or declared)
    int compute_hosts = 0;
    int service_hosts = 0;
    int gpus = 0;
    int nics = 0;
    int switches = 0;
    int tiers = 0;
    int rails = 0;
    int nvlink_domains = 0;
    int nvswitches = 0;
    int links = 0;
};

class TopologyBuilder;
struct TopologyAccess;  // private to libtopo (src/topology_impl.hpp)

class Topology {
public:
    [[nodiscard]] std::span<const Host> hosts() const noexcept { return hosts_; }

    [[nodiscard]] std::span<const Gpu> gpus() const noexcept { return gpus_; }

    [[nodiscard]] std::span<const Nic> nics() const noexcept { return nics_; }

    [[nodiscard]] std::span<const Switch> switches() const noexcept { return switches_; }

    [[nodiscard]] std::span<const Link> links() const noexcept { return links_; }

    [[nodiscard]] std::span<const NvlDomain> nvl_domains() const noexcept { return domains_; }

    [[nodiscard]] std::span<const LeafGroup> groups() const noexcept { return groups_; }

    [[nodiscard]] std::span<const GpuNicPath> gpu_nic_paths() const noexcept { return gpu_nic_; }

    [[nodiscard]] std::span<const NvLinkPair> nvlinks() const noexcept { return nvlinks_; }

    [[nodiscard]] std::span<const NvSwitch> nvswitches() const noexcept { return nvswitches_; }

    [[nodiscard]] const Host& host(HostId id) const { return hosts_.at(id.index()); }

    [[nodiscard]] const Gpu& gpu(GpuId id) const { return gpus_.at(id.index()); }

    [[nodiscard]] const Nic& nic(NicId id) const { return nics_.at(id.index()); }

    [[nodiscard]] const Switch& sw(SwitchId id) const { return switches_.at(id.index()); }

    /// Lookup by stable identity. O(log n).
    [[nodiscard]] std::optional<HostId> find_host(std::string_view name) const;
    [[nodiscard]] std::optional<SwitchId> find_switch(std::string_view guid_or_name) const;

    /// Number of switch tiers (0 when there is no fabric).
    [[nodiscard]] int tiers() const noexcept { return tiers_; }

    /// Number of rails (1 when every NIC of a host shares one leaf; 0 without fabric).
    [[nodiscard]] int rails() const noexcept { return rails_; }

    /// Distinct leaf switches of a host, in rail order.
    [[nodiscard]] std::vector<SwitchId> leaves_of(HostId h) const;

    /// Leaf group of a host (invalid if the host is on no leaf).
    [[nodiscard]] GroupId group_of(HostId h) const { return host(h).group; }

    /// Tier of the lowest switch that both hosts reach going only upwards:
    /// 0 when they share a leaf, 1 via a spine, ...; nullopt when not connected.
    /// Two NICs of the same rail are compared rail-wise when both hosts have rails.
    [[nodiscard]] std::optional<int> lowest_common_tier(HostId a, HostId b) const;
    /// Switch-to-switch hops on the shortest path between the hosts' leaves, plus the
    /// two host links (2 when sharing a leaf); nullopt when not connected; 0 for a == b.
    [[nodiscard]] std::optional<int> hop_count(HostId a, HostId b) const;

    /// Rail of a NIC (-1 if unknown).
    [[nodiscard]] int rail_of(NicId n) const { return nic(n).rail; }

    /// NVLink domain of a GPU (invalid if none).
    [[nodiscard]] DomainId nvl_domain_of(GpuId g) const { return gpu(g).nvl_domain; }

    /// NICs of the GPU's host with the best PathClass to that GPU (ties: all of them,
    /// in name order). Empty when the host has no NIC or locality is unknown.
    [[nodiscard]] std::vector<NicId> nearest_nics(GpuId g) const;
    /// Path class between a GPU and a NIC of the same host.
    [[nodiscard]] PathClass path(GpuId g, NicId n) const;
    /// Switches directly above a switch (higher tier neighbours).
    [[nodiscard]] std::span<const SwitchId> uplinks(SwitchId s) const;

    [[nodiscard]] Summary summary() const;

    /// Content hash of the canonical snapshot (hex), identifies this topology.
    [[nodiscard]] const std::string& fingerprint() const noexcept { return fingerprint_; }

    /// Non-fatal findings from building (e.g. "host x on two leaf groups").
    [[nodiscard]] std::span<const std::string> warnings() const noexcept { return warnings_; }

    struct Impl;  // graph indexes (Boost CSR), private

    Topology();
    ~Topology();
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;
    Topology(Topology&&) noexcept;
    Topology& operator=(Topology&&) noexcept;

private:
    friend class TopologyBuilder;
    friend struct TopologyAccess;
    std::vector<Host> hosts_;
    std::vector<Gpu> gpus_;
    std::vector<Nic> nics_;
    std::vector<Switch> switches_;
    std::vector<Link> links_;
    std::vector<NvlDomain> domains_;
    std::vector<LeafGroup> groups_;
    std::vector<GpuNicPath> gpu_nic_;
    std::vector<NvLinkPair> nvlinks_;
    std::vector<NvSwitch> nvswitches_;
    std::vector<std::string> warnings_;
    int tiers_ = 0;
    int rails_ = 0;
    std::string fingerprint_;
    std::unique_ptr<Impl> impl_;
};

using TopologyPtr = std::shared_ptr<const Topology>;

/// Natural ("version") string order: "gpu2" < "gpu10", "mlx5_2" < "mlx5_10".
[[nodiscard]] bool natural_less(std::string_view a, std::string_view b) noexcept;

}  // namespace topo
