// SPDX-License-Identifier: Apache-2.0
// Small fabrics for placement tests, built with TopologyBuilder.
#pragma once

#include <string>
#include <vector>

#include <topo/placement/place.hpp>

#include "../common/fabric_builders.hpp"

namespace topo::placement::testing {

using topo::testing::num;

/// Fab (tests/unit/common/fabric_builders.hpp) with NDR switches, links and NICs and
/// "H100" GPUs.
class Fab : public topo::testing::Fab {
public:
    Fab() : topo::testing::Fab(topo::testing::ndr_style()) {}
};

/// Strict 3-level tree: `spines` spines under one core, `leaves_per_spine` leaves per
/// spine, `per_leaf` hosts per leaf (n001...; leaf01... in spine order).
inline TopologyPtr three_level(int spines = 4, int leaves_per_spine = 4, int per_leaf = 4, int gpus = 8) {
    Fab f;
    f.sw("core");
    int h = 1;
    int l = 1;
    for (int s = 1; s <= spines; ++s) {
        const auto sp = num("spine", s, 2);
        f.sw(sp).link(sp, "core");
        for (int k = 0; k < leaves_per_spine; ++k, ++l) {
            const auto leaf = num("leaf", l, 2);
            f.sw(leaf).link(leaf, sp);
            for (int i = 0; i < per_leaf; ++i) f.host(num("n", h++), {leaf}, gpus);
        }
    }
    return f.freeze();
}

/// 2-level fat tree: every leaf to every spine.
inline TopologyPtr two_level(int leaves = 8, int per_leaf = 8, int spines = 2, int gpus = 8) {
    Fab f;
    for (int s = 1; s <= spines; ++s) f.sw(num("spine", s, 2));
    int h = 1;
    for (int l = 1; l <= leaves; ++l) {
        const auto leaf = num("leaf", l, 2);
        f.sw(leaf);
        for (int s = 1; s <= spines; ++s) f.link(leaf, num("spine", s, 2));
        for (int i = 0; i < per_leaf; ++i) f.host(num("n", h++), {leaf}, gpus);
    }
    return f.freeze();
}

/// Rail-optimized 3-tier: `sus` scalable units of `per_su` hosts with `rails` NICs;
/// leaf su<u>r<r>; per pod (`sus_per_pod` SUs) and rail one spine; one core per rail.
inline TopologyPtr rail_fabric(int sus, int per_su, int rails, int sus_per_pod, int gpus = 8) {
    Fab f;
    const int pods = (sus + sus_per_pod - 1) / sus_per_pod;
    for (int r = 0; r < rails; ++r) {
        const auto core = "core-r" + std::to_string(r);
        f.sw(core);
        for (int p = 0; p < pods; ++p) {
            const auto sp = "pod" + std::to_string(p) + "-spine-r" + std::to_string(r);
            f.sw(sp).link(sp, core);
        }
    }
    int h = 1;
    for (int u = 0; u < sus; ++u) {
        std::vector<std::string> leaves;
        for (int r = 0; r < rails; ++r) {
            const auto leaf = num("su", u + 1, 3) + "-r" + std::to_string(r);
            f.sw(leaf).link(leaf, "pod" + std::to_string(u / sus_per_pod) + "-spine-r" + std::to_string(r));
            leaves.push_back(leaf);
        }
        for (int i = 0; i < per_su; ++i) f.host(num("gpu", h++, 4), leaves, gpus);
    }
    return f.freeze();
}

/// Names of a placement's hosts.
inline std::vector<std::string> names(const Topology& t, const Placement& p) {
    std::vector<std::string> out;
    for (auto h : p.hosts) out.push_back(t.host(h).name);
    return out;
}

}  // namespace topo::placement::testing
