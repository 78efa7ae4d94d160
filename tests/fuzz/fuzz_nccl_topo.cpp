// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the NCCL / RCCL topology XML reader.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/nccl_topo.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto nd = topo::parse_nccl_topo_xml(text, "fuzz");
    if (nd) {
        topo::TopologyBuilder b;
        b.apply_node_description("h", *nd);
        auto t = std::move(b).freeze();
        (void)t;
    }
    return 0;
}
