// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the slurm-conf unit tests: golden files (TOPO_GOLDEN, the test
// target's compile definition: tests/golden/slurm-conf) and the lines of a generated file.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace topo::testing {

/// The whole file (empty if it cannot be read).
inline std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// Compare with tests/golden/slurm-conf/<name>; TOPO_UPDATE_GOLDEN=1 rewrites it.
inline void expect_golden(const std::string& name, const std::string& actual) {
    const std::string path = std::string(TOPO_GOLDEN) + "/" + name;
    const char* upd = std::getenv("TOPO_UPDATE_GOLDEN");
    if (upd != nullptr && std::string(upd) == "1") {
        std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
        return;
    }
    std::ifstream probe(path);
    ASSERT_TRUE(probe.good()) << "missing golden file " << path << " (create it with TOPO_UPDATE_GOLDEN=1)";
    EXPECT_EQ(slurp(path), actual) << "golden file " << path << " differs (re-bless with TOPO_UPDATE_GOLDEN=1)";
}

/// The lines of a generated file that are neither empty nor comments.
inline std::vector<std::string> config_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l[0] != '#') out.push_back(l);
    }
    return out;
}

}  // namespace topo::testing
