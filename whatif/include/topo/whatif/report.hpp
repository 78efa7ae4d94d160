// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Rendering a what-if Replay: a text table (policies as columns), one JSON
/// object, and a self-contained HTML page with inline SVG plots (no network assets).

#include <string>
#include <vector>

#include <topo/result.hpp>
#include <topo/whatif/whatif.hpp>

namespace topo::whatif {

/// Settings echoed in the outputs (what was asked for), for reproducibility.
struct ReportContext {
    std::string command;                                        ///< the command line, as typed
    std::string snapshot;                                       ///< snapshot file
    std::vector<std::pair<std::string, std::string>> settings;  ///< (name, value)
};

/// Text table: one row per metric, one column per (policy, gate).
[[nodiscard]] std::string render_table(const Replay& r);
/// One JSON object: {"topology", "trace", "settings", "policies": {label: {metrics...}}}.
[[nodiscard]] std::string render_json(const Replay& r, const ReportContext& ctx);
/// A complete HTML page (UTF-8, inline CSS and SVG, no scripts, no external assets).
[[nodiscard]] std::string render_html(const Replay& r, const ReportContext& ctx);
/// Write DIR/index.html (DIR is created). Errors: Io.
[[nodiscard]] Status write_report(const Replay& r, const ReportContext& ctx, const std::string& dir);

/// "850 ms", "42 s", "12.5 min", "3.21 h", "2.4 d".
[[nodiscard]] std::string human_duration(double seconds);

}  // namespace topo::whatif
