// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The text of an errno value, thread-safe (strerror is not: the health probes run on
/// their own threads, the plugin inside slurmd). The one errno text of the project.

#include <array>
#include <cstring>
#include <string>

namespace topo {

[[nodiscard]] inline std::string errno_text(int e) {
    std::array<char, 256> buf{};
    // GNU strerror_r returns the message (which may not be in buf).
    return ::strerror_r(e, buf.data(), buf.size());
}

}  // namespace topo
