// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Declarative cluster files: what discovery cannot see (node names, GPUs and NICs
/// per node, multi-node NVLink domains such as GB200 NVL72 racks) plus generators for
/// NVL racks and rail-optimized fat trees, so a synthetic cluster can be declared in a
/// few lines. The format is YAML (JSON, being YAML, works too); see docs/cluster-spec.md.
///
/// Top-level keys: version, name, nodes, nvl_domains, racks, fabric. Everything is
/// checked before the builder is touched: on error the builder is left unchanged.

#include <string>
#include <string_view>

#include <topo/result.hpp>

namespace topo {

class TopologyBuilder;

/// Read a cluster spec file (gzip allowed) and add what it declares to `b`.
/// Errors: Io (cannot read), Parse with file and 1-based line (YAML syntax, unknown
/// key, bad value, bad hostlist, a node declared twice or used but not declared, a
/// node in two NVLink domains, a fabric that does not fit its nodes).
[[nodiscard]] Status load_cluster_spec(const std::string& path, TopologyBuilder& b);

/// Same, from text; `source` names it in messages.
[[nodiscard]] Status apply_cluster_spec_text(std::string_view yaml, const std::string& source, TopologyBuilder& b);

}  // namespace topo
