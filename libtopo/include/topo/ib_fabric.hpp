// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file A raw InfiniBand subnet as ibnetdiscover / libibnetdisc report it, and its
/// import into a TopologyBuilder (host recovery, compute vs storage, SHARP nodes).

#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <topo/result.hpp>

namespace topo {

class TopologyBuilder;

struct IbPort {
    int port = 0;           ///< local port number
    std::string peer_guid;  ///< normalised "0x%016llx" node GUID of the peer
    int peer_port = 0;
    std::string rate;   ///< "4xHDR", "4x???" when down
    double gbps = 0;    ///< decoded from rate (0 if unknown)
    std::string label;  ///< ibdiagnet's port label ("1/1/1", "B9D0F0/0/0/1"), may be empty
    int line = 0;       ///< 1-based source line
};

struct IbNode {
    enum class Type : std::uint8_t { Switch, Ca, Router };
    Type type = Type::Ca;
    std::string guid;         ///< node GUID, normalised "0x%016llx"
    std::string sysimg_guid;  ///< normalised, may be empty
    std::string port_guid;    ///< CA port GUID (first port), may be empty
    std::string description;  ///< node description, e.g. "luna-0001 mlx5_0"
    int num_ports = 0;
    int line = 0;  ///< 1-based line of the node header
    std::vector<IbPort> ports;
};

struct IbFabric {
    std::string source;  ///< file name (or "libibnetdisc")
    std::vector<IbNode> nodes;
    std::vector<std::string> warnings;
};

/// GUID -> name, from an `ibnetdiscover --node-name-map` file
/// ("0xGUID name" or "0xGUID \"name\"", '#' comments).
struct NodeNameMap {
    std::map<std::string, std::string> names;  ///< normalised GUID -> name
    std::string source;
};

struct IbImportOptions {
    NodeNameMap name_map;
    /// Only HCAs whose name (e.g. "mlx5_0") matches are compute HCAs; empty = detect.
    std::optional<std::string> hca_regex;
};

/// Parse an ibnetdiscover dump (default, -f, or -s -p ports format; CRLF, PuTTY
/// headers, collapsed tabs). Errors: Parse (file:line), Io.
[[nodiscard]] Result<IbFabric> parse_ibnetdiscover(std::string_view text, const std::string& source);
/// Same, from a file (gzip is detected by magic). Errors: Io, Parse.
[[nodiscard]] Result<IbFabric> read_ibnetdiscover_file(const std::string& path);
/// Errors: Io, Parse.
[[nodiscard]] Result<NodeNameMap> read_node_name_map(const std::string& path);
/// Same, from text in memory (`source` names it in messages). Errors: Parse.
[[nodiscard]] Result<NodeNameMap> parse_node_name_map(std::string_view text, const std::string& source);
/// Adds switches, hosts, NICs and links of the fabric. Errors: Parse (degenerate or
/// inconsistent fabric, e.g. no switch), InvalidArgument (bad regex).
[[nodiscard]] Status import_ib_fabric(const IbFabric& fabric, const IbImportOptions& options, TopologyBuilder& builder);

/// Normalise a GUID text ("0x2c90200417670", "0002c90200417670", "S-0002c9...") to
/// "0x" + 16 lower-case hex digits; nullopt when it is not a GUID.
[[nodiscard]] std::optional<std::string> normalize_guid(std::string_view text);

}  // namespace topo
