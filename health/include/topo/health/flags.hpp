// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file What the health store says about a topology's hosts, read one way for every reader
/// that places jobs: `topoplace place` and `status`, the placement service and the plugin's
/// own decision. The store's one rule applies (store.hpp): a store not created yet flags
/// nobody, entries that are not records are ignored, each with a warning; a tampered record
/// fails the whole read (what the reader then does is its fail mode: the CLI's
/// --health-fail, the plugin's on_error).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <topo/health/store.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::health {

struct HealthFlags {
    std::vector<std::pair<HostId, std::string>> unhealthy;  ///< with the record's reason; never placed
    std::vector<std::pair<HostId, double>> degraded;        ///< with the slowdown (issue 16 item 5)
    std::vector<std::string> unknown;                       ///< records naming no host of the topology

    /// For a multi-node job on `used`: the degraded hosts it does not use, by name, appended
    /// to `exclude` (the plan's TOPOPLACE_EXCLUDE, that job's exc_nodes only), so that Slurm,
    /// picking hosts inside the plan's leaf groups, cannot pick them either.
    void exclude_degraded(const Topology& topo, std::span<const HostId> used, std::vector<std::string>& exclude) const;
};

/// The hosts the store at `store_dir` flags unhealthy or degraded (a degraded record without
/// an estimate reads kDegradedDefaultSlowdown). An empty `store_dir` flags nobody. `opts`:
/// the store's trust (Store::open; tests trust their own uid).
[[nodiscard]] Result<HealthFlags> health_flags(const Topology& topo, const std::string& store_dir,
                                               std::vector<std::string>* warnings = nullptr, StoreOptions opts = {});

/// health_flags() kept up to date for a reader that asks often, at a bounded cost per call
/// (StoreReader: the store watched, and listed again only when its directory changed and the
/// watch cannot say what; a record read again
/// only when it was replaced, at most `max_reads` per call). The topology must outlive it.
class FlagsReader {
public:
    FlagsReader(const Topology& topo, std::string store_dir, StoreOptions opts = {});

    /// true when flags() changed. An error (a refused or damaged record, as health_flags()
    /// fails) leaves flags() as they were; the records read meanwhile count at the next call
    /// that succeeds.
    [[nodiscard]] Result<bool> refresh(std::size_t max_reads, std::vector<std::string>* warnings = nullptr);

    [[nodiscard]] const HealthFlags& flags() const noexcept { return flags_; }

    /// Every entry of the store was read (false while more than max_reads waited).
    [[nodiscard]] bool complete() const noexcept { return store_.complete(); }

    /// Record files read in all.
    [[nodiscard]] std::uint64_t reads() const noexcept { return store_.reads(); }

private:
    const Topology* topo_;
    StoreReader store_;
    HealthFlags flags_;
};

}  // namespace topo::health
