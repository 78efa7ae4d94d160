// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <topo/hostlist.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto r = topo::expand_hostlist(std::string_view(reinterpret_cast<const char*>(data), size), 100000);
    if (r) {
        // compress must round-trip for whatever expand accepted
        auto again = topo::expand_hostlist(topo::compress_hostlist(*r), 100000);
        if (!again) std::abort();
    }
    return 0;
}
