// SPDX-License-Identifier: Apache-2.0
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/snapshot.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto fab = topo::parse_ibnetdiscover(text, "fuzz");
    if (fab) {
        topo::TopologyBuilder b;
        if (topo::import_ib_fabric(*fab, {}, b)) {
            auto t = std::move(b).freeze();
            // The inference may change what it reads (a spine's hosts become service
            // hosts): its snapshot must read back to the same tiers and roles.
            if (t) {
                auto back = topo::from_snapshot_json(topo::to_snapshot_json(**t), "fuzz.json");
                if (!back) std::abort();
                const auto& a = (*t)->switches();
                const auto& c = (*back)->switches();
                if (a.size() != c.size()) std::abort();
                for (std::size_t i = 0; i < a.size(); ++i) {
                    if (a[i].tier != c[i].tier) std::abort();
                }
                for (std::size_t i = 0; i < (*t)->hosts().size(); ++i) {
                    if ((*t)->hosts()[i].role != (*back)->hosts()[i].role) std::abort();
                }
            }
        }
    }
    return 0;
}
