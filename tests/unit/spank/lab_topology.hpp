// SPDX-License-Identifier: Apache-2.0
// The live lab's fabric (tests/fixtures/lab/lab-3tier.spec.yaml: 64 hosts, 3 tiers), built
// once per test program, for the Slurm-free tests of spank/core; and a request on it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>

#include "decider.hpp"

namespace topo::spank::testing {

inline const TopologyPtr& lab() {
    static TopologyPtr t = [] {
        TopologyBuilder b;
        auto s = load_cluster_spec(std::string(TOPO_FIXTURES) + "/lab/lab-3tier.spec.yaml", b);
        EXPECT_TRUE(s) << s.error().to_string();
        auto f = std::move(b).freeze();
        EXPECT_TRUE(f) << f.error().to_string();
        return *f;
    }();
    return t;
}

/// A whole-node pack request for `nodes` nodes.
inline ServiceRequest pack_request(const char* nodes) {
    ServiceRequest r;
    r.sr.nodes = nodes;
    r.sr.exclusive = "exclusive";
    r.opts.mode = Mode::Pack;
    return r;
}

}  // namespace topo::spank::testing
