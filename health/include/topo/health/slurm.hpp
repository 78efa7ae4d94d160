// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The drain lifecycle with Slurm, through the real `scontrol` (SLURM_CONF is
/// honoured since scontrol reads it from the environment).
///
/// - a failed check drains the node: State=DRAIN Reason="topoplace: <reason>"
///   (DRAIN, never DOWN: running jobs continue);
/// - a passing check resumes the node only when its current drain reason starts with
///   "topoplace:" (a manual drain, or another tool's, is never undone);
/// - node names: the Slurm NodeName; a host name or FQDN is matched against NodeName and
///   NodeHostName with the domain stripped.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo::health {

inline constexpr std::string_view kReasonPrefix = "topoplace:";

/// One node as `scontrol show node --oneliner` prints it.
struct SlurmNode {
    std::string name;                    ///< NodeName
    std::string hostname;                ///< NodeHostName
    std::string addr;                    ///< NodeAddr
    std::string state;                   ///< e.g. "IDLE+DRAIN", "MIXED+DRAIN", "ALLOCATED"
    std::string reason;                  ///< without the trailing " [user@time]"
    [[nodiscard]] bool drained() const;  ///< state has DRAIN (DRAINING/DRAINED)
    [[nodiscard]] bool ours() const;     ///< reason starts with "topoplace:"
};

/// Parse `scontrol show node --oneliner` output (one node a line).
[[nodiscard]] std::vector<SlurmNode> parse_scontrol_nodes(std::string_view text);

/// "n001.cluster.example" -> "n001"
[[nodiscard]] std::string short_name(std::string_view host);

struct Scontrol {
    std::string program = "scontrol";
    std::chrono::milliseconds timeout{10000};
    /// Run scontrol with args; Error (Unsupported) when it cannot run or exits non-zero.
    [[nodiscard]] Result<std::string> run(const std::vector<std::string>& args) const;
    /// Find the Slurm node for a name given by the user, SLURMD_NODENAME or the host name
    /// (short name, FQDN, NodeHostName); NotFound when Slurm has no such node.
    [[nodiscard]] Result<SlurmNode> find_node(std::string_view name) const;
    [[nodiscard]] Status drain(const std::string& node, const std::string& reason) const;
    [[nodiscard]] Status resume(const std::string& node) const;
};

enum class Action : std::uint8_t {
    None,             ///< nothing to do (healthy and not drained by us, or already drained by us)
    Drained,          ///< we drained it now
    Resumed,          ///< we undrained our own drain
    KeptManualDrain,  ///< drained by someone else: left alone
};
[[nodiscard]] const char* action_name(Action a) noexcept;

/// Apply one check result to Slurm. `reason` is the failed probes' one-line summary.
[[nodiscard]] Result<Action> apply_lifecycle(const Scontrol& sc, const SlurmNode& node, bool healthy,
                                             const std::string& reason);

/// Node name to use: explicit, else $SLURMD_NODENAME, else the short host name.
[[nodiscard]] std::string default_node_name(const std::string& explicit_name);

}  // namespace topo::health
