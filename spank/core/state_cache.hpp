// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The per-user node-state cache of the SPANK plugin (plugstack `state_cache=SECONDS`,
/// docs/spank.md "Cost"). Slurm-free, so that it is unit-tested without a cluster.
///
/// Each `sbatch --topo=...` reads the live node state with one slurm_load_node RPC (about a
/// millisecond, most of the plugin's cost per submission). With `state_cache=S` the state
/// read by one submission is kept for S seconds in a file of the submitting user and reused
/// by that user's next submissions (a loop of sbatch, a sweep). The plugin writes the state
/// after its decision with the hosts it just chose marked busy, so the next job of a burst
/// does not plan onto them; changes made by other users' jobs are seen at most S seconds late.
///
/// The file lives in a directory only the user can write: $XDG_RUNTIME_DIR when it is one,
/// else /tmp/topoplace-<uid> (created 0700; refused when it is a link, someone else's, or
/// group/world accessible). The file itself must be the user's, a regular file, mode 0600,
/// of the exact size, with the right magic, topology fingerprint and checksum, and not older
/// than S seconds (nor from the future); anything else is a miss and the RPC is made.

#include <cstdint>
#include <string>

#include <topo/placement/place.hpp>
#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

#include <sys/types.h>

namespace topo::spank {

/// The directory for `uid`'s cache files ("" = none usable; `why` says why), the first
/// private one of: `xdg` ($XDG_RUNTIME_DIR, may be null or empty), `run_user`/<uid>
/// ("/run/user", made by systemd-logind for a logged-in user), `tmp`/topoplace-<uid> ("/tmp";
/// created 0700). Another user may pre-create the last in a shared /tmp: it is then refused
/// and, without the first two, the user runs without a cache (one RPC per submission), which
/// costs time, never correctness (docs/security.md).
[[nodiscard]] std::string state_cache_dir(uid_t uid, const char* xdg, const std::string& run_user,
                                          const std::string& tmp, std::string* why);

/// The cache file of a cluster (its slurm.conf path) and topology (its fingerprint) in `dir`.
[[nodiscard]] std::string state_cache_file(const std::string& dir, const std::string& slurm_conf,
                                           const std::string& fingerprint);

/// The cached state when the file is valid for `topo`, owned by `uid` and at most `ttl_s`
/// seconds old at `now_ns` (CLOCK_REALTIME). Errc::NotFound = no file; other errors say
/// why the file was not used. `age_s`, when given, receives the file's age.
[[nodiscard]] Result<placement::ClusterState> read_state_cache(const std::string& path, const Topology& topo, uid_t uid,
                                                               double ttl_s, std::int64_t now_ns,
                                                               double* age_s = nullptr);

/// Write `state` (as of `taken_ns`, the time it was read from slurmctld): over the user's
/// existing file of the same size in place, else as a new file (a temporary file of mode
/// 0600, then rename), with the hosts of `chosen` (the decision just
/// made, may be null) marked as taken: whole-node placements Alloc, shared ones with their
/// GPUs removed from the free count.
[[nodiscard]] Status write_state_cache(const std::string& path, const Topology& topo,
                                       const placement::ClusterState& state, const placement::Placement* chosen,
                                       bool exclusive, std::int64_t taken_ns);

/// The shared node-state feed (plugstack `state_feed=PATH`), written by topoplace-nodefeed
/// from slurm_load_node every second or so: the same layout, owned by root, not group- or
/// world-writable (mode 0644; `owner` is root but for tests), replaced whole by a rename at
/// every write. `taken_ns` is the
/// time of the feed's last slurmctld read (a "no change since" answer counts), so a feed that
/// stopped ages out after `max_age_s` and the plugin asks slurmctld itself.
[[nodiscard]] Result<placement::ClusterState> read_state_feed(const std::string& path, const Topology& topo,
                                                              double max_age_s, std::int64_t now_ns,
                                                              double* age_s = nullptr, uid_t owner = 0);

/// Write the feed file (temporary file of mode 0644, then rename over `path`).
[[nodiscard]] Status write_state_feed(const std::string& path, const Topology& topo,
                                      const placement::ClusterState& state, std::int64_t taken_ns);

}  // namespace topo::spank
