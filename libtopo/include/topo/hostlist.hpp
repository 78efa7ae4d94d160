// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Slurm hostlist expressions: "gpu[001-004,007],login1".

#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo {

/// Most names one hostlist may expand to, and most hosts one topology file may name: Slurm's
/// own limit on nodes (MAX_SLURM_NODES, slurm/slurm.h, 65536; hostlist.c expands no range
/// past it either). The count is known before anything is expanded (docs/security.md).
inline constexpr std::size_t kMaxHostlistNames = 65536;
/// Longest name a hostlist may expand to: a DNS name's limit (RFC 1035 2.3.4, 255 octets).
/// With kMaxHostlistNames it bounds an expansion to 16 MiB whatever the input.
inline constexpr std::size_t kMaxHostNameLength = 255;

/// Whether `name` can be a Slurm node name that topoplace writes into topology.conf,
/// NodeName= lines and hostlists: 1 to kMaxHostNameLength characters, letters, digits,
/// '-', '_' and '.', not starting with '-' or '.'. Anything else (',', '[', '=', spaces,
/// quotes, control characters) would change what those lines mean.
[[nodiscard]] bool is_valid_host_name(std::string_view name) noexcept;
/// True for "H-" followed by 16 hex digits: ibnetdiscover's name for a channel adapter
/// without a node description (not a host name any scheduler knows).
[[nodiscard]] bool is_guid_host_name(std::string_view name) noexcept;

/// Expand a hostlist expression into names, in the order written. Supports several
/// bracket groups ("rack[1-2]-n[01-02]"), zero padding, and comma-separated lists.
/// Errors: Parse (unbalanced brackets, bad range, reversed range, more than max_hosts
/// names, a name longer than kMaxHostNameLength), checked before anything is expanded.
[[nodiscard]] Result<std::vector<std::string>> expand_hostlist(std::string_view expr,
                                                               std::size_t max_hosts = kMaxHostlistNames);

/// Number of names expand_hostlist(expr) would yield, without expanding it; saturates at
/// limit + 1. Errors as expand_hostlist.
[[nodiscard]] Result<std::size_t> count_hostlist(std::string_view expr, std::size_t limit = kMaxHostlistNames);

/// Compress names into the shortest Slurm hostlist expression, as `scontrol show
/// hostlist` does: names sorted naturally, numeric suffixes with equal width merged
/// into ranges ("gpu[001-003,005]"). Deterministic for a given set of names.
[[nodiscard]] std::string compress_hostlist(std::vector<std::string> names);

}  // namespace topo
