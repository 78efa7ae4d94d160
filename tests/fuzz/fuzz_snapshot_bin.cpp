// SPDX-License-Identifier: Apache-2.0
// The compiled snapshot decoder: any bytes give a model or a clean error. Each input is
// tried as is, then with its header's JSON stamp taken as current and its checksum
// repaired, so that mutations reach the table decoder and finish() instead of stopping
// at the stamp or checksum checks; the repaired input is decoded in both BinCheck modes.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <topo/snapshot_bin.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    topo::FileStamp stamp;
    (void)topo::from_snapshot_bin(in, stamp, "fuzz");
    if (size < topo::kSnapshotBinHeader) return 0;
    std::string s(in);
    std::memcpy(&stamp.size, s.data() + 16, 8);
    std::memcpy(&stamp.mtime_sec, s.data() + 24, 8);
    std::memcpy(&stamp.mtime_nsec, s.data() + 32, 8);
    std::memcpy(&stamp.ino, s.data() + 40, 8);
    std::memcpy(&stamp.dev, s.data() + 48, 8);
    const std::uint64_t n = size - topo::kSnapshotBinHeader;
    std::memcpy(s.data() + 72, &n, 8);
    const std::uint64_t c = topo::snapshot_bin_checksum(std::string_view(s).substr(topo::kSnapshotBinHeader));
    std::memcpy(s.data() + 80, &c, 8);
    (void)topo::from_snapshot_bin(s, stamp, "fuzz");
    // the plugin's mode: a decodable payload is finished and kept with the recorded fingerprint
    (void)topo::from_snapshot_bin(s, stamp, "fuzz", topo::BinCheck::Checksum);
    return 0;
}
