// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file TopologyBuilder: the one mutable stage. Importers add what they know, keyed
/// by stable identity (switch GUID or declared name, host name, NIC name); freeze()
/// validates, infers tiers/rails/groups, puts everything in canonical order and
/// returns the immutable Topology.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <topo/node_description.hpp>
#include <topo/topology.hpp>

namespace topo {

class TopologyBuilder {
public:
    /// Add or merge a switch keyed by `s.guid` (empty fields of an existing switch are
    /// filled from `s`). Returns the key.
    void add_switch(Switch s);
    [[nodiscard]] bool has_switch(std::string_view key) const;

    /// Add a host, or merge into an existing one (role: Compute wins over Service over
    /// Unknown; empty sysimg GUID filled).
    void add_host(const std::string& name, HostRole role = HostRole::Unknown, const std::string& sysimg_guid = {},
                  Provenance provenance = Provenance::Discovered);
    [[nodiscard]] bool has_host(std::string_view name) const;

    /// Add a NIC to `host` (created if missing). `leaf_key` is the switch it plugs into
    /// (empty: not on the fabric). NICs are keyed by (host, name); when the name is
    /// empty, by GUID. A second add with the same key merges fields.
    /// Nic::host and Nic::leaf are ignored (filled at freeze).
    void add_nic(const std::string& host, Nic nic, const std::string& leaf_key);

    /// Add a switch-to-switch cable (each cable once; duplicates with the same
    /// ends/ports are merged).
    void add_switch_link(const std::string& a_key, int port_a, const std::string& b_key, int port_b, double gbps,
                         const std::string& rate, LinkKind kind = LinkKind::Ib);

    /// Add a GPU (keyed by host + index).
    void add_gpu(const std::string& host, Gpu gpu);

    /// Merge a node description into `host`: GPUs by index, NICs by name (a NIC of the
    /// description that the fabric does not know is added off-fabric), locality
    /// classes and NVLink pairs. Per-host NVLink islands become node NVLink domains.
    void apply_node_description(const std::string& host, const NodeDescription& node);
    /// Same, taking ownership (no copy of the description is kept).
    void apply_node_description(const std::string& host, NodeDescription&& node);

    /// Apply one description to several hosts (`--hwloc dgx.xml` for every compute host).
    /// Its NIC GUIDs are those of the node it was taken on: when a fabric NIC carries one,
    /// that host merges by GUID and the others ignore the GUIDs (with one warning) and
    /// match their NICs by name, through the owner's naming (its fabric "HCA-1" is the
    /// description's "mlx5_0", so every host's "HCA-1" is). GUIDs that no fabric NIC
    /// carries are left to freeze(), which drops them with a warning.
    void apply_node_template(const std::vector<std::string>& hosts, const NodeDescription& node);

    /// Declare a multi-node NVLink domain (e.g. one GB200 NVL72 rack).
    void add_nvl_domain(const std::string& name, const std::vector<std::string>& hosts, int usable_hosts = 0);

    /// Record a non-fatal finding; it is kept in Topology::warnings().
    void warn(std::string message);

    [[nodiscard]] std::vector<std::string> host_names() const;

    [[nodiscard]] std::size_t host_count() const noexcept { return hosts_.size(); }

    [[nodiscard]] std::size_t switch_count() const noexcept { return switches_.size(); }

    /// Validate and build. Errors: Parse for inconsistent input (a link to an unknown
    /// switch, duplicate NIC GUID on two hosts, a cycle-free requirement violated...),
    /// with the offending names in the message.
    [[nodiscard]] Result<TopologyPtr> freeze() &&;

    struct PendingNic {
        Nic nic;
        std::string leaf_key;
        std::string desc_source;  ///< node-description file that added this NIC; empty for fabric/spec NICs
    };

    struct PendingHost {
        HostRole role = HostRole::Unknown;
        std::string sysimg_guid;
        Provenance provenance = Provenance::Discovered;
        std::map<std::string, PendingNic> nics;  // key: name, or "#"+guid
        std::map<int, Gpu> gpus;                 // key: index
        std::vector<NodeDescription> nodes;      // locality sources, applied at freeze
    };

    struct PendingLink {
        std::string a, b;
        int port_a = 0, port_b = 0;
        double gbps = 0;
        std::string rate;
        LinkKind kind = LinkKind::Ib;
    };

    struct PendingDomain {
        std::vector<std::string> hosts;
        int usable_hosts = 0;
    };

private:
    std::map<std::string, Switch> switches_;
    std::map<std::string, PendingHost> hosts_;
    std::vector<PendingLink> links_;
    std::map<std::string, PendingDomain> domains_;
    std::vector<std::string> warnings_;
};

}  // namespace topo
