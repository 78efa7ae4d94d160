// SPDX-License-Identifier: Apache-2.0
#pragma once
// The small fixed topology the fuzzers that need one place on: 16 hosts of 4 GPUs, 4 per
// leaf, one rail, two spines.
#include <cstdlib>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>

namespace topo::fuzz {

inline const Topology& small_topology() {
    static constexpr std::string_view kSpec = R"(version: 1
name: fuzz
nodes:
  - names: n[001-016]
    role: compute
    gpus: {count: 4, model: H100}
    nics:
      - {name: mlx5_0, rail: 0}
fabric:
  hosts_per_leaf: 4
  rails: 1
  spines_per_rail: 2
  gbps: 400
  rate: 4xNDR
)";
    static const TopologyPtr t = [] {
        TopologyBuilder b;
        if (!apply_cluster_spec_text(kSpec, "fuzz.yaml", b)) std::abort();
        auto r = std::move(b).freeze();
        if (!r) std::abort();
        return *r;
    }();
    return *t;
}

}  // namespace topo::fuzz
