// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the `--node-name-map` parser (GUID -> name lines).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <topo/ib_fabric.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto m = topo::parse_node_name_map(text, "fuzz");
    if (m) {
        for (const auto& [guid, name] : m->names) {
            if (guid.empty() || name.empty()) __builtin_trap();  // the parser promises both
        }
    }
    return 0;
}
