// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private: yaml-cpp helpers shared by the cluster-file and topology.yaml readers.

#include <yaml-cpp/yaml.h>

namespace topo {

/// 1-based line of a node; 0 for a missing node (yaml-cpp throws on Mark() of those).
inline int yline(const YAML::Node& n) {
    if (!n.IsDefined()) return 0;
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

}  // namespace topo
