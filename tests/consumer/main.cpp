// SPDX-License-Identifier: Apache-2.0
// consumer SPEC NODES GPUS_PER_NODE: build a topology from a cluster spec, place one job with
// the topo policy and print its hosts, one per line, then the offered load of a generated
// trace (the what-if library links too). Built against an installed topoplace only.
#include <cstdio>
#include <cstdlib>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/state.hpp>
#include <topo/whatif/trace.hpp>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: consumer SPEC NODES GPUS_PER_NODE\n");
        return 64;
    }
    topo::TopologyBuilder b;
    if (auto st = topo::load_cluster_spec(argv[1], b); !st) {
        std::fprintf(stderr, "consumer: %s\n", st.error().to_string().c_str());
        return 65;
    }
    auto t = std::move(b).freeze();
    if (!t) {
        std::fprintf(stderr, "consumer: %s\n", t.error().to_string().c_str());
        return 65;
    }
    const topo::Topology& topo = **t;
    topo::placement::ClusterState state(topo);
    topo::placement::Request req;
    req.nodes_min = std::atoi(argv[2]);
    req.gpus_per_node = std::atoi(argv[3]);
    auto p = topo::placement::place(topo, state, req);
    if (!p) {
        std::fprintf(stderr, "consumer: %s\n", p.error().to_string().c_str());
        return 69;
    }
    for (auto h : p->hosts) std::printf("%s\n", topo.host(h).name.c_str());
    topo::whatif::GeneratorOptions g;
    g.jobs = 50;
    g.cluster_nodes = static_cast<int>(topo.hosts().size());
    auto trace = topo::whatif::generate_trace(g);
    if (!trace) return 70;
    std::printf("load %.3f\n", topo::whatif::offered_load(*trace, static_cast<int>(topo.hosts().size())));
    return 0;
}
