// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <topo/nvidia_smi_topo.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto r = topo::parse_nvidia_smi_topo(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    (void)r;
    return 0;
}
