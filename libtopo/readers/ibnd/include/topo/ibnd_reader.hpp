// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Live InfiniBand discovery and libibnetdisc cache files (`ibnetdiscover
/// --cache`), converted to the same IbFabric that the text parser produces (normalised
/// GUIDs, "4xHDR" rates). Feed the result to import_ib_fabric().
///
/// Live discovery needs an InfiniBand HCA and access to /dev/infiniband/umad*
/// (usually root). Without a device it fails cleanly with Errc::Unsupported.

#include <string>
#include <vector>

#include <topo/ib_fabric.hpp>
#include <topo/result.hpp>

namespace topo::ibnd {

struct DiscoverOptions {
    std::string ca;           ///< HCA to discover from, e.g. "mlx5_0"; empty = the first one
    int port = 0;             ///< its port; 0 = the first active port
    unsigned timeout_ms = 0;  ///< per-MAD timeout; 0 = libibnetdisc default
    unsigned max_hops = 0;    ///< 0 = whole subnet
    /// Where RDMA devices are listed; a test may point it at an empty directory.
    std::string sysfs_class_dir = "/sys/class/infiniband";
};

/// Names of the InfiniBand devices present (sorted), from `sysfs_class_dir`.
[[nodiscard]] std::vector<std::string> infiniband_devices(const std::string& sysfs_class_dir = "/sys/class/infiniband");

/// Discover the subnet through libibnetdisc (umad). Errors: Unsupported (no InfiniBand
/// device, or the named CA does not exist), Io (discovery failed: permissions, SM down).
[[nodiscard]] Result<IbFabric> discover(const DiscoverOptions& options = {});

/// Load an `ibnetdiscover --cache FILE` / ibnd_cache_fabric() file. Errors: Io (cannot
/// read), Parse (not a libibnetdisc cache, or an inconsistent one).
[[nodiscard]] Result<IbFabric> load_cache(const std::string& path);

}  // namespace topo::ibnd
