// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The canonical, versioned JSON snapshot: the contract between discovery and
/// every consumer (CLI, placement, SPANK plugin). See docs/snapshot.md.
///
/// Canonical: keys sorted, entities in Topology order, one table row per line, no
/// timestamps; the same Topology always serialises to the same bytes. Loading needs
/// neither hwloc nor rdma-core.

#include <string>
#include <string_view>

#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo {

inline constexpr std::string_view kSnapshotSchema = "topoplace.snapshot";
inline constexpr int kSnapshotVersion = 2;  // 2: nvswitches table

/// Serialise. Never fails.
[[nodiscard]] std::string to_snapshot_json(const Topology& t);
/// Parse and rebuild. Errors: Parse ("file:line: ..." for JSON syntax, "file: table
/// nics row 17: ..." for content), Unsupported (other schema or newer version).
[[nodiscard]] Result<TopologyPtr> from_snapshot_json(std::string_view text, const std::string& source);
/// Errors: Io, Parse, Unsupported.
[[nodiscard]] Result<TopologyPtr> load_snapshot(const std::string& path);
/// Errors: Io.
[[nodiscard]] Status save_snapshot(const Topology& t, const std::string& path);

}  // namespace topo
