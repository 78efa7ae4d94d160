// SPDX-License-Identifier: Apache-2.0
// Test helper: the real fixtures of tests/fixtures as models, for the tests that must hold
// on every real input (snapshot round trips in JSON and compiled form).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/nvidia_smi_topo.hpp>
#ifdef TOPO_HAVE_HWLOC
#include <topo/hwloc_reader.hpp>
#endif

namespace topo::test {

/// Files of tests/fixtures/DIR, sorted.
inline std::vector<std::string> fixture_files(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(std::string(TOPO_FIXTURES) + "/" + dir))
        out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

/// Build each real fixture of one kind and call fn(topology, path); returns how many.
///   "ibnetdiscover": every importable dump (not the name map, the spine-only text or the
///                    switchless single-CA dump);
///   "specs":         every cluster file;
///   "nodes":         every nvidia-smi matrix (and hwloc XML where built) on one host.
template <class F>
int for_each_fixture_model(std::string_view kind, F&& fn) {
    int n = 0;
    auto done = [&](Result<TopologyPtr> t, const std::string& path) {
        EXPECT_TRUE(t) << path << ": " << t.error().to_string();
        if (!t) return;
        fn(**t, path);
        ++n;
    };
    if (kind == "ibnetdiscover") {
        for (const auto& p : fixture_files("ibnetdiscover")) {
            if (p.ends_with(".map") || p.ends_with("spine.txt") || p.find("single-ca") != std::string::npos) continue;
            auto fabric = read_ibnetdiscover_file(p);
            EXPECT_TRUE(fabric) << fabric.error().to_string();
            if (!fabric) continue;
            TopologyBuilder b;
            EXPECT_TRUE(import_ib_fabric(*fabric, {}, b)) << p;
            done(std::move(b).freeze(), p);
        }
    } else if (kind == "specs") {
        for (const auto& p : fixture_files("specs")) {
            TopologyBuilder b;
            auto st = load_cluster_spec(p, b);
            EXPECT_TRUE(st) << st.error().to_string();
            done(std::move(b).freeze(), p);
        }
    } else if (kind == "nodes") {
        std::vector<std::pair<std::string, Result<NodeDescription>>> nodes;
        for (const auto& p : fixture_files("nvidia-smi-topo")) nodes.emplace_back(p, read_nvidia_smi_topo_file(p));
#ifdef TOPO_HAVE_HWLOC
        for (const auto& p : fixture_files("hwloc")) nodes.emplace_back(p, read_hwloc_xml(p));
#endif
        for (auto& [p, nd] : nodes) {
            EXPECT_TRUE(nd) << nd.error().to_string();
            if (!nd) continue;
            TopologyBuilder b;
            b.add_host("node1", HostRole::Compute);
            b.apply_node_description("node1", std::move(*nd));
            done(std::move(b).freeze(), p);
        }
    } else {
        ADD_FAILURE() << "unknown fixture kind " << kind;
    }
    return n;
}

}  // namespace topo::test
