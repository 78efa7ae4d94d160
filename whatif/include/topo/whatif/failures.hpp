// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Failure tables: published failure statistics turned into a per-GPU failure
/// rate and a mix of causes, for the what-if simulator. See docs/whatif.md.

#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo::whatif {

/// One cause of failure, with how the simulator treats it.
struct FailureCause {
    std::string name;             ///< "Faulty GPU"
    std::string category;         ///< "GPU", "Host", "Network", "Dependency", ...
    double weight = 0;            ///< relative frequency (a count or a share)
    bool takes_node_down = true;  ///< hardware: the node is repaired; software: only the job dies
    bool detectable = true;       ///< a launch health check can see it coming (hardware causes)
};

/// Failures per GPU-hour plus their causes.
struct FailureModel {
    std::string source;                ///< file it came from
    double per_gpu_hour = 0;           ///< unexpected job interruptions per GPU-hour
    double exposure_gpus = 0;          ///< GPUs of the observed system
    double exposure_hours = 0;         ///< observation window
    double events = 0;                 ///< failures observed in the window
    std::vector<FailureCause> causes;  ///< empty = one generic hardware cause
    std::string summary;               ///< one line: "419 interruptions / (16384 GPUs x 1296 h) = ..."
};

/// Read a failure table. Supported (see docs/whatif.md):
///  - the Llama 3 405B Table 5 transcription (`component,category,interruption_count,...`):
///    causes from the rows, exposure from its header comments ("16,384 ... GPUs",
///    "54-day period");
///  - the Llama 3 interruption summary (`metric,value,unit,note` with `gpus`,
///    `observation_window` in days and `unexpected_interruptions`);
///  - a generic CSV `cause,category,count` with `# gpus: N` and `# hours: H` (or
///    `# days: D`) comment lines.
/// Tables that give only shares, or only job outcomes, have no rate: Errc::Parse at the
/// header line saying so. Errors name the file and the 1-based line.
[[nodiscard]] Result<FailureModel> parse_failure_table(std::string_view text, const std::string& source);
[[nodiscard]] Result<FailureModel> read_failure_table(const std::string& path);

/// Categories whose failures take a node down (hardware), as the simulator uses them:
/// GPU, Host, Network, Unplanned Maintenance (and anything unknown to this list).
/// Dependency / software causes and "Unknown" kill the job but leave the node up.
[[nodiscard]] bool category_takes_node_down(std::string_view category) noexcept;

}  // namespace topo::whatif
