// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file nccl-tests output (all_reduce_perf, all_gather_perf, alltoall_perf, ...) as NCCL
/// prints it, and the calibration of the model's tier and sharing factors from a site's
/// own runs (issue 16 item 2, `topoplace calibrate`; docs/perf-model.md "Calibration").

#include <string>
#include <string_view>
#include <vector>

#include <topo/perf/model.hpp>
#include <topo/result.hpp>

namespace topo::perf {

struct NcclRow {
    double bytes = 0;
    double busbw_out = 0;  ///< GB/s, out-of-place
    double busbw_in = 0;   ///< GB/s, in-place (0 when the row has one set)
    int line = 0;
};

/// One result table. Every layout nccl-tests has printed is read: the current one (redop,
/// root, #wrong), the older ones (no root, an `error` column of floats, a blank redop for
/// alltoall), `#wrong` as N/A, lines prefixed by srun (`0: `), tables indented, fenced or
/// turned into a Markdown pipe table inside a page. A file with several tables gives
/// several runs.
///
/// Open MPI's `--tag-output` tags (`[1,0]<stdout>:`, `[1,3]<stderr>:`, PRRTE's
/// `[prterun-host-1@1,0]<stdout>:`) are taken out wherever they are: mpirun tags each write
/// it forwards, so a row printed in two writes carries a second tag in its middle, and a
/// line of another rank can land inside it. The text of each tag is put back together in
/// the order written, and text before a line's first tag (a timestamp, a launcher's words)
/// is dropped. Lines of bare numbers that follow a comment or prose line (a device or rank
/// list wrapped by a page) are skipped; after a result row they are a cut row and refused.
/// What was taken out or skipped is said in `notes`, one line each.
struct NcclRun {
    std::string collective;          ///< "all_reduce", ... when the output says so, else ""
    int ranks = 0;                   ///< "#  Rank" lines (0 when not printed)
    std::vector<std::string> hosts;  ///< distinct hosts of those lines, in order
    double avg_busbw = 0;            ///< "# Avg bus bandwidth" (0 when absent)
    int first_line = 0;
    std::vector<NcclRow> rows;
};

/// Errors: Parse at file:line: no result table ("not nccl-tests output"), a table row with
/// missing columns, sizes that are not numbers.
/// `notes` (when given) receives what was taken out or skipped, for the user to see.
[[nodiscard]] Result<std::vector<NcclRun>> parse_nccl_tests(std::string_view text, const std::string& source,
                                                            std::vector<std::string>* notes = nullptr);
[[nodiscard]] Result<std::vector<NcclRun>> read_nccl_tests(const std::string& path,
                                                           std::vector<std::string>* notes = nullptr);

/// A measurement of one placement class: a file, and which run in it (0 = the first).
struct Measurement {
    std::string label;  ///< "leaf", "pod", "cross-pod", "shared"
    std::string source;
    NcclRun run;
};

/// One fitted factor: the geometric mean over common message sizes >= min_bytes of
/// busbw(baseline) / busbw(measured), and each size's residual from it.
struct Fit {
    std::string what;  ///< "tier_collective[2]", "kappa[ib-ar]", ...
    double value = 1.0;

    struct Point {
        double bytes, ratio, residual;  ///< residual = ratio / value - 1
    };

    std::vector<Point> points;
    double max_abs_residual = 0;
};

struct Calibration {
    Params params;  ///< the defaults with the fitted values in place
    std::vector<Fit> fits;
    std::vector<std::string> notes;  ///< what was not fitted and why
};

/// Fit tier_collective[2] from `pod` against `leaf`, tier_collective[3] from `cross_pod`
/// against `leaf`, and kappa (of `base.fabric`) from `shared` against `pod` (u = 1: the
/// background job uses the same uplinks). Any of pod/cross_pod/shared may be absent.
/// Errors: InvalidArgument when a pair has no common size >= min_bytes.
[[nodiscard]] Result<Calibration> calibrate(const Params& base, const Measurement& leaf, const Measurement* pod,
                                            const Measurement* cross_pod, const Measurement* shared,
                                            double min_bytes = 64.0 * 1024 * 1024);

}  // namespace topo::perf
