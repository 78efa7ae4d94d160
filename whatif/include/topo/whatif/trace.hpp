// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Job traces for the what-if simulator: readers for real trace formats and a
/// seeded generator of synthetic ones. See docs/whatif.md for the formats.
///
/// Readers are pure functions of the text (no clock, no globals); errors are
/// Errc::Parse with the file and the 1-based line. The generator is deterministic for
/// a seed on every platform (own RNG and distributions, not <random>'s).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo::whatif {

/// One job of a trace. Times are seconds, relative to the first submit of the trace.
struct TraceJob {
    std::string id;          ///< JobID / pod name / generated "j000001"
    double submit_s = 0;     ///< submit time
    double duration_s = 0;   ///< actual run time (work to do)
    int nodes = 1;           ///< node count
    int gpus_per_node = 0;   ///< GPUs used on every node (0 = not stated: whole nodes)
    double timelimit_s = 0;  ///< user's time limit (0 = unknown; the estimate is the duration)
    int line = 0;            ///< 1-based source line (0 for generated jobs)
};

struct Trace {
    std::string source;              ///< file name or "generated(seed=S)"
    std::string format;              ///< "sacct", "csv", "alibaba-openb", "alibaba-dlrm", "generated"
    std::vector<TraceJob> jobs;      ///< sorted by (submit, line)
    int skipped = 0;                 ///< rows read but not replayable (see notes)
    std::vector<std::string> notes;  ///< why rows were skipped, in a few lines
};

/// Parse a trace, detecting the format from its header line:
///  - `sacct --parsable2` (`|`-separated, header with JobID, Submit, NNodes, and either
///    Elapsed or Start+End; AllocTRES/ReqTRES give GPUs; Timelimit when present). Job
///    steps (`123.batch`, `123.0`) and jobs that never started are skipped.
///  - CSV `submit_s,duration_s,nodes,gpus_per_node[,timelimit_s]` ('#' comments allowed).
///  - Alibaba OpenB pods (`name,...,num_gpu,...,creation_time,deletion_time,scheduled_time`):
///    one single-node job per GPU pod that was scheduled and deleted.
///  - Alibaba GPU-disaggregated DLRM instances (`...,gpu_request,...,creation_time,
///    scheduled_time,deletion_time`): one single-node job per GPU instance with all times.
/// Files that are not job traces (node lists, cluster summaries, runtime samples) are
/// refused with Errc::Parse at line 1 saying what they look like.
[[nodiscard]] Result<Trace> parse_trace(std::string_view text, const std::string& source);
/// Read a file (gzip allowed) and parse it. Errors: Io, Parse.
[[nodiscard]] Result<Trace> read_trace_file(const std::string& path);

/// Parse a one-column runtime sample (header `runtime` or `duration_s`, one number of
/// seconds per line), e.g. the Philly runtimes. Used by the generator as an empirical
/// duration distribution. Errors: Parse with line.
[[nodiscard]] Result<std::vector<double>> parse_runtime_samples(std::string_view text, const std::string& source);
[[nodiscard]] Result<std::vector<double>> read_runtime_samples(const std::string& path);

/// Parse a Slurm duration in seconds: `[D-]HH:MM:SS`, `MM:SS`, `MM:SS.mmm`, `D-HH[:MM]`;
/// nullopt when it is not one.
[[nodiscard]] std::optional<double> parse_slurm_duration(std::string_view s) noexcept;

struct GeneratorOptions {
    int jobs = 1000;
    double load = 0.85;               ///< offered load: sum(nodes*duration) / (cluster_nodes*span)
    int cluster_nodes = 0;            ///< nodes the trace is made for (required, > 0)
    int gpus_per_node = 8;            ///< GPUs of a whole node
    int max_nodes = 0;                ///< largest job (0 = min(cluster_nodes/4, 256), at least 1)
    double single_node_share = 0.45;  ///< share of 1-node jobs
    double partial_gpu_share = 0.5;   ///< share of 1-node jobs using 1, 2 or 4 GPUs
    double pow2_share = 0.85;         ///< share of multi-node sizes that are powers of two
    double size_decay = 0.75;         ///< P(2^k nodes) ~ size_decay^k
    double median_duration_s = 1800;  ///< lognormal durations ...
    double sigma = 1.6;               ///< ... with this shape (long tail)
    double max_duration_s = 3 * 86400.0;
    double min_duration_s = 60;
    std::vector<double> duration_samples;  ///< if set: draw durations from these instead
    std::uint64_t seed = 1;
};

/// Generate a trace: sizes skewed to powers of two, long-tailed durations, Poisson
/// arrivals scaled so the offered load is `load`; time limits are the duration times a
/// factor in [1.2, 3] rounded up to 5 minutes (users over-estimate). Deterministic for
/// (options, seed). Errors: InvalidArgument for impossible options.
[[nodiscard]] Result<Trace> generate_trace(const GeneratorOptions& opt);

/// Offered load of a trace on `cluster_nodes` nodes over its submit span (for checks).
[[nodiscard]] double offered_load(const Trace& t, int cluster_nodes);

/// A small portable RNG (SplitMix64), so that seeds give the same draws everywhere.
class Rng {
public:
    explicit Rng(std::uint64_t seed) noexcept : s_(seed) {}

    std::uint64_t next() noexcept {
        std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /// Uniform in [0, 1).
    double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    /// Exponential with the given rate (> 0).
    double exponential(double rate) noexcept;
    /// Standard normal (Box-Muller, no cached pair: one draw = two uniforms).
    double normal() noexcept;

private:
    std::uint64_t s_;
};

}  // namespace topo::whatif
