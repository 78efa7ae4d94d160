// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/slurm_topology.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto conf = topo::parse_topology_conf(text, "fuzz");
    if (conf) {
        topo::TopologyBuilder b;
        if (topo::import_slurm_topology(*conf, b)) {
            auto t = std::move(b).freeze();
            (void)t;
        }
    }
    auto yaml = topo::parse_topology_yaml(text, "fuzz");
    (void)yaml;
    return 0;
}
