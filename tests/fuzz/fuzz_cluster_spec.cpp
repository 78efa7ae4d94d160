// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topo::TopologyBuilder b;
    if (topo::apply_cluster_spec_text(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz", b)) {
        auto t = std::move(b).freeze();
        (void)t;
    }
    return 0;
}
