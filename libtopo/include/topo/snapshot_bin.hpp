// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The compiled (binary) form of a JSON snapshot: a cache for readers that load the
/// model on a hot path (the SPANK plugin, once per sbatch). See docs/snapshot.md "Compiled form".
///
/// It holds the same primary facts as the JSON tables (no derived fields), in a length-
/// prefixed little-endian encoding, so loading needs no JSON DOM; the model is rebuilt
/// through the same TopologyAccess::finish() as the JSON loader and its fingerprint must
/// equal the one recorded (the JSON's). It is bound to one JSON file: it records that
/// file's size, mtime (ns), inode and device, and is used only while they still match.
/// The JSON stays the contract; the compiled form is never read on its own.

#include <cstdint>
#include <string>
#include <string_view>

#include <topo/result.hpp>
#include <topo/topology.hpp>

#include <sys/types.h>

namespace topo {

inline constexpr std::string_view kSnapshotBinMagic = "topoSNB\n";  // 8 bytes
inline constexpr std::uint32_t kSnapshotBinVersion = 1;

/// Identity of the JSON file a compiled snapshot was made from.
struct FileStamp {
    std::uint64_t size = 0;
    std::int64_t mtime_sec = 0;
    std::int64_t mtime_nsec = 0;
    std::uint64_t ino = 0;
    std::uint64_t dev = 0;
    friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

/// The payload checksum recorded in the header (for tests and fuzzing: corrupt payloads
/// with a valid checksum must still be refused cleanly).
[[nodiscard]] std::uint64_t snapshot_bin_checksum(std::string_view payload) noexcept;
/// Size of the fixed header that precedes the payload.
inline constexpr std::size_t kSnapshotBinHeader = 96;

/// stat() a file into a FileStamp. Errors: Io.
[[nodiscard]] Result<FileStamp> stamp_of(const std::string& path);

/// Where the compiled form of a snapshot lives: next to it, "<json>.bin".
[[nodiscard]] std::string snapshot_bin_path(const std::string& json_path);

/// Serialise `t` bound to the JSON file described by `json`. Never fails.
[[nodiscard]] std::string to_snapshot_bin(const Topology& t, const FileStamp& json);

/// How much a compiled form is checked beyond its header, stamp and payload checksum.
/// Fingerprint (the default): the model is hashed again and must give the fingerprint
/// recorded at compile time, which catches a payload that decodes to another model.
/// Checksum: the recorded fingerprint is taken as the model's without hashing it (the
/// hash is half of a load); for a hot path whose file is trusted (root-owned, not
/// writable by others) and checksummed. `topoplace compile --check` checks fully.
enum class BinCheck { Fingerprint, Checksum };

/// Decode and rebuild. `json` is the current stamp of the JSON file; a compiled form made
/// for another stamp is refused (Errc::StaleState). Errors: Parse (bad magic, truncated,
/// corrupt payload, fingerprint mismatch), Unsupported (other format version), StaleState.
/// Never throws, never reads out of bounds, whatever the bytes.
[[nodiscard]] Result<TopologyPtr> from_snapshot_bin(std::string_view bytes, const FileStamp& json,
                                                    const std::string& source, BinCheck check = BinCheck::Fingerprint);

/// Compile: load `json_path` (the full JSON loader, fingerprint checked), write its compiled
/// form to `bin_path` (tmp file + rename, mode 0644). Errors: those of load_snapshot, Io.
[[nodiscard]] Status compile_snapshot(const std::string& json_path, const std::string& bin_path);

/// Load the compiled form of `json_path` from `bin_path`, trusted only when it is a regular
/// file owned by `trusted_uid` and not group/world-writable (Errc::Unsupported otherwise),
/// and bound to the JSON file as it is now (Errc::StaleState otherwise).
[[nodiscard]] Result<TopologyPtr> load_snapshot_bin(const std::string& json_path, const std::string& bin_path,
                                                    uid_t trusted_uid = 0, BinCheck check = BinCheck::Fingerprint);

/// The hot-path loader: the compiled form "<json>.bin" when it is present, trusted and
/// current; otherwise the JSON (same model, same fingerprint, same errors as
/// load_snapshot). `why_not_bin` says why the compiled form was not used (empty when it was).
struct SnapshotLoad {
    TopologyPtr topo;
    bool from_bin = false;
    std::string why_not_bin;
};

[[nodiscard]] Result<SnapshotLoad> load_snapshot_fast(const std::string& json_path, uid_t trusted_uid = 0,
                                                      BinCheck check = BinCheck::Fingerprint);

}  // namespace topo
