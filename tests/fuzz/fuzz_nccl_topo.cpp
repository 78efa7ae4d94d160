// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the NCCL / RCCL topology XML reader.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/nccl_topo.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto nd = topo::parse_nccl_topo_xml(text, "fuzz");
    if (nd) {
        // Folding NCCL's per-CPU copies of a virtual interface leaves one NIC per name,
        // and a GPU-NIC row per GPU with a column per NIC.
        std::set<std::string> names;
        for (const auto& n : nd->nics) {
            if (!names.insert(n.name).second) std::abort();
        }
        if (!nd->gpu_nic.empty()) {
            if (nd->gpu_nic.size() != nd->gpus.size()) std::abort();
            for (const auto& row : nd->gpu_nic) {
                if (row.size() != nd->nics.size()) std::abort();
            }
        }
        topo::TopologyBuilder b;
        b.apply_node_description("h", *nd);
        auto t = std::move(b).freeze();
        (void)t;
    }
    return 0;
}
