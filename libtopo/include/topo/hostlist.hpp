// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Slurm hostlist expressions: "gpu[001-004,007],login1".

#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo {

/// Expand a hostlist expression into names, in the order written. Supports several
/// bracket groups ("rack[1-2]-n[01-02]"), zero padding, and comma-separated lists.
/// Errors: Parse (unbalanced brackets, bad range, reversed range, > max_hosts names).
[[nodiscard]] Result<std::vector<std::string>> expand_hostlist(std::string_view expr,
                                                               std::size_t max_hosts = 1'000'000);

/// Compress names into the shortest Slurm hostlist expression, as `scontrol show
/// hostlist` does: names sorted naturally, numeric suffixes with equal width merged
/// into ranges ("gpu[001-003,005]"). Deterministic for a given set of names.
[[nodiscard]] std::string compress_hostlist(std::vector<std::string> names);

}  // namespace topo
