// SPDX-License-Identifier: Apache-2.0
#pragma once
// Thread-safe strerror (the built-in probes run on their own threads).
#include <array>
#include <cstring>
#include <string>

namespace topo::health::detail {

inline std::string errno_text(int e) {
    std::array<char, 256> buf{};
    // GNU strerror_r returns the message (maybe not in buf).
    return ::strerror_r(e, buf.data(), buf.size());
}

}  // namespace topo::health::detail
