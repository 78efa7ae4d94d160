// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Checking an existing topology.conf (tree or block) or topology.yaml against what
/// slurmctld of a given release does with it: refuse it (exit at start or reconfigure),
/// start but place jobs as if the file said something else, or only log.
///
/// Every rule follows Slurm's own code and names it (`Finding::source`): the parsers
/// (src/common/parse_config.c, hostlist.c), topology/tree (switch_record.c), topology/block
/// (block_record.c) and, for 26.05, the topology.yaml path (src/interfaces/topology.c,
/// src/common/read_config.c:conf_parse, data_parser v0.0.45). Releases checked: 22.05
/// (bookworm), 24.11 (trixie), 26.05 (sid); docs/slurm-conf.md has the table of rules and
/// what a live slurmctld of each release did with each test file.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo::slurmconf {

/// What slurmctld does because of a finding.
enum class Severity : std::uint8_t {
    Fatal,      ///< slurmctld exits (at start, or at `scontrol reconfigure`)
    Misplaces,  ///< slurmctld runs, but jobs are placed (or pend) unlike the file says
    Warning,    ///< slurmctld only logs it
};

[[nodiscard]] const char* severity_name(Severity s) noexcept;

/// Slurm releases as major*100+minor.
inline constexpr int kRelease2205 = 2205;
inline constexpr int kRelease2411 = 2411;
inline constexpr int kRelease2605 = 2605;

/// "22.05" for 2205.
[[nodiscard]] std::string release_name(int release);

struct Finding {
    std::string file;  ///< the file the line is in (the topology file, or slurm.conf)
    int line = 0;      ///< 1-based; 0 = the file as a whole
    int release = 0;   ///< kRelease2205...
    Severity severity = Severity::Warning;
    std::string rule;     ///< short id, e.g. "tree-invalid-child" (docs/slurm-conf.md)
    std::string message;  ///< what is wrong and what slurmctld does
    std::string source;   ///< the rule in Slurm's source, "file.c:function"

    /// "file:line: 24.11: fatal: rule: message [Slurm: source]".
    [[nodiscard]] std::string to_string() const;
};

/// What slurm.conf says that the check needs.
struct SlurmConfFacts {
    std::string file;  ///< label used in findings

    struct Node {
        std::string name;
        int line = 0;
    };

    std::vector<Node> nodes;      ///< every NodeName= (expanded), DEFAULT excluded
    std::string topology_plugin;  ///< TopologyPlugin= as written ("" = absent)
    int topology_plugin_line = 0;
};

/// Read the NodeName= and TopologyPlugin= lines of a slurm.conf text.
/// Errors: Parse (a NodeName= hostlist Slurm would not expand), naming file:line.
[[nodiscard]] Result<SlurmConfFacts> read_slurm_conf_facts(std::string_view text, const std::string& label);

enum class FileKind : std::uint8_t { Auto, Conf, Yaml };

struct CheckOptions {
    std::string label;                    ///< file name in findings
    FileKind kind = FileKind::Auto;       ///< Auto: by name (.yaml/.yml), then by content
    std::vector<int> releases;            ///< empty = 22.05, 24.11 and 26.05
    std::optional<SlurmConfFacts> slurm;  ///< --slurm-conf: defined nodes, TopologyPlugin
};

/// Check a topology file's text. Never fails: what cannot be read is itself a finding
/// (slurmctld cannot read it either). Findings are ordered by release, then line.
[[nodiscard]] std::vector<Finding> check_topology_file(std::string_view text, const CheckOptions& opts);

}  // namespace topo::slurmconf
