// SPDX-License-Identifier: Apache-2.0
#pragma once
// Private: yaml-cpp helpers shared by the cluster-file and topology.yaml readers.

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>

namespace topo {

/// 1-based line of a node; 0 for a missing node (yaml-cpp throws on Mark() of those).
inline int yline(const YAML::Node& n) {
    if (!n.IsDefined()) return 0;
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

/// The first key of mapping `n` that is not one of `allowed`; nullopt when there is none.
inline std::optional<YAML::Node> unknown_key(const YAML::Node& n, std::initializer_list<const char*> allowed) {
    for (auto it = n.begin(); it != n.end(); ++it) {
        const auto k = it->first.as<std::string>();
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; })) return it->first;
    }
    return std::nullopt;
}

/// `allowed` as "a, b, c" (for error messages).
inline std::string key_list(std::initializer_list<const char*> allowed) {
    std::string list;
    for (const char* a : allowed) {
        list += list.empty() ? "" : ", ";
        list += a;
    }
    return list;
}

}  // namespace topo
