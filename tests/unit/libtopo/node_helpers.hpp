// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test helpers shared by the hwloc and nvidia-smi reader tests.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <topo/node_description.hpp>

namespace topo::test {

/// A copied fixture: tests/fixtures/<dir>/<name>.
inline std::string fixture_path(const std::string& dir, const std::string& name) {
    return std::string(TOPO_FIXTURES) + "/" + dir + "/" + name;
}

/// NICs with the best PathClass to GPU `g`, in NIC order (the answer
/// Topology::nearest_nics gives once the description is applied).
inline std::vector<std::string> nearest_nics(const NodeDescription& nd, std::size_t g, PathClass* best_out = nullptr) {
    std::vector<std::string> out;
    if (g >= nd.gpu_nic.size()) return out;
    PathClass best = PathClass::Unknown;
    for (auto c : nd.gpu_nic[g]) best = std::min(best, c);
    if (best_out != nullptr) *best_out = best;
    if (best == PathClass::Unknown) return out;
    for (std::size_t j = 0; j < nd.nics.size(); ++j) {
        if (nd.gpu_nic[g][j] == best) out.push_back(nd.nics[j].name);
    }
    return out;
}

/// gtest parameter name of a case whose `file` is a fixture name: the name up to its
/// first '.', every other character than a letter or digit as '_'.
template <class P>
std::string file_param_name(const ::testing::TestParamInfo<P>& param_info) {
    std::string n = param_info.param.file;
    n = n.substr(0, n.find('.'));
    std::replace_if(
        n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
    return n;
}

}  // namespace topo::test
