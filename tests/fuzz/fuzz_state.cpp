// SPDX-License-Identifier: Apache-2.0
// Cluster state parsers (`scontrol show nodes --oneliner` text and the JSON form) on a
// small fixed topology: any input gives a state or a Parse error, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/state.hpp>

namespace {

constexpr std::string_view kSpec = R"(version: 1
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

const topo::Topology& topology() {
    static const topo::TopologyPtr t = [] {
        topo::TopologyBuilder b;
        if (!topo::apply_cluster_spec_text(kSpec, "fuzz.yaml", b)) std::abort();
        auto r = std::move(b).freeze();
        if (!r) std::abort();
        return *r;
    }();
    return *t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto& t = topology();
    for (auto parse : {topo::placement::parse_scontrol_nodes, topo::placement::parse_state_json}) {
        auto s = parse(t, text, "fuzz.state", nullptr);
        if (!s) {
            if (s.error().file != "fuzz.state") std::abort();  // errors name the file
            continue;
        }
        // whatever parsed must be usable by place()
        topo::placement::Request req;
        req.nodes_min = 2;
        (void)topo::placement::place(t, *s, req);
    }
    return 0;
}
