// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/ib_fabric.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto fab = topo::parse_ibnetdiscover(text, "fuzz");
    if (fab) {
        topo::TopologyBuilder b;
        if (topo::import_ib_fabric(*fab, {}, b)) {
            auto t = std::move(b).freeze();
            (void)t;
        }
    }
    return 0;
}
