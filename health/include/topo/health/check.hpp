// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file Node health probes (InfiniBand, GPUs, site probes) and the bounded check that
/// runs them. Every path is read under `root` so tests can use fake sysfs/dev trees.
/// See docs/health.md.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::health {

/// What the node should have, from the snapshot (or nothing known).
struct Expected {
    bool known = false;             ///< the node is in the snapshot
    std::vector<std::string> hcas;  ///< device names, e.g. "mlx5_0" (unnamed NICs are counted only)
    int hca_count = 0;              ///< NICs of the host in the snapshot
    double min_rate_gbps = 0;       ///< lowest expected port rate (0 = unchecked)
    int gpus = 0;
};

/// Expected hardware of `node` in `t` (known=false when the node is not there).
[[nodiscard]] Expected expected_for(const Topology& t, const std::string& node);

struct ProbeResult {
    std::string name;  ///< "ib", "gpu", "site:<file>"
    bool ok = true;
    std::string reason;  ///< one line; why it failed, or what was seen
    double seconds = 0;
    /// ok but slow (issue 16 item 5): a port up at a lower rate, a PCIe link trained
    /// narrower than it can, clocks held down by the hardware, a correctable-error storm,
    /// a site probe's measured figure. `reason` says what was seen.
    bool degraded = false;
    double slowdown = 0;  ///< estimated job slowdown on this node (>= 1), 0 = no estimate
};

/// Slowdown of a job on a node whose NIC runs at half its expected bandwidth: Alibaba
/// HPN (Qian et al., SIGCOMM'24, sections 2.3 and 9.3): one of a dual-ToR NIC's two links
/// failing = -6.25 % training throughput, S = 1 / (1 - 0.0625) = 1.067 (PERF-MODEL.md
/// section 3 and 6.2 row S_deg). probe_ib scales it with the bandwidth lost: a port at
/// rate r of expected R gives 1 + 0.067 (R / r - 1), capped at kMaxProbeSlowdown. An
/// assumption (linear in R / r), anchored at that one measurement.
inline constexpr double kHalfNicSlowdown = 1.067;
inline constexpr double kMaxProbeSlowdown = 100.0;

/// The longest bound a check, a probe or run_process() accepts (`health check --timeout`
/// and `--probe-timeout` refuse more); longer ones are clamped to it, negative ones to 0.
inline constexpr std::chrono::seconds kMaxTimeout{3600};

struct CheckOptions {
    std::string root = "/";  ///< prefix for /sys, /dev (tests: a fake tree)
    Expected expected;
    std::string probe_dir;                             ///< site probes (executables), empty = none
    std::chrono::milliseconds probe_timeout{10000};    ///< per site probe
    std::chrono::milliseconds builtin_timeout{10000};  ///< per built-in probe (ib, gpu)
    std::chrono::milliseconds total_timeout{50000};    ///< whole check (Slurm kills at 60 s)
    std::string state_file;                            ///< last counter values, empty = no growth check
    std::int64_t error_threshold = 10;                 ///< max growth of one IB error counter between runs
    bool use_umad = true;                              ///< libibumad (dlopen) when root is "/"
    bool use_nvml = true;                              ///< NVML (dlopen) when root is "/"
};

struct CheckReport {
    std::vector<ProbeResult> probes;
    bool ok = true;         ///< no probe failed
    bool degraded = false;  ///< ok, and a probe found the node slow
    double slowdown = 0;    ///< the largest estimate of the degraded probes (0 = none given)
    double seconds = 0;
    /// "probe: reason; probe: reason" of the failed probes (one line), or of the degraded
    /// ones when none failed; empty when healthy.
    [[nodiscard]] std::string summary() const;
};

/// The IB error counters followed between runs (sysfs names under ports/<p>/counters/).
inline constexpr const char* kIbErrorCounters[] = {"symbol_error", "link_downed", "link_error_recovery",
                                                   "port_rcv_errors"};

/// Counter values of the previous run: "mlx5_0/1/symbol_error" -> value; plus "kmsg_seq".
using CounterState = std::map<std::string, std::int64_t>;
[[nodiscard]] Result<CounterState> load_state(const std::string& path);
[[nodiscard]] Status save_state(const std::string& path, const CounterState& s);

/// InfiniBand: every expected HCA present, ports ACTIVE / LinkUp (else failed);
/// degraded: a port's rate below the expected one, an HCA's PCIe link narrower or slower
/// than its maximum, correctable error counters (symbol_error, port_rcv_errors,
/// link_error_recovery) growing more than the threshold since `prev` (updated in `next`);
/// link_downed growing more than the threshold fails (the link went down).
[[nodiscard]] ProbeResult probe_ib(const CheckOptions& o, const CounterState& prev, CounterState& next);
/// GPUs: expected count of NVIDIA devices (PCI functions, /dev/nvidiaN, NVML), XID/ECC
/// (else failed); degraded: a GPU's PCIe link narrower than its maximum width (the speed
/// is not judged: idle GPUs train down to save power), NVML clock event reasons of the
/// hardware (HW slowdown, HW thermal, power brake, SW thermal).
[[nodiscard]] ProbeResult probe_gpu(const CheckOptions& o, const CounterState& prev, CounterState& next);
/// Site probes: every executable regular file in o.probe_dir, in name order: exit 0 = ok,
/// anything else fails; exit 0 with an output line starting "degraded" = degraded, its
/// "slowdown=X" word (1 <= X <= 100), when present, the estimate (e.g. a short
/// all_reduce_perf against the expected bus bandwidth: docs/health.md). The directory
/// and each probe must pass the trust rules (trust.hpp: owned by root or the euid, not
/// group/world writable, no symbolic link, the whole path); a refused probe is not run
/// and fails ("not run: site probe: refusing PATH: RULE"), a refused directory fails the
/// check with one "site" result.
[[nodiscard]] std::vector<ProbeResult> probe_site(const CheckOptions& o,
                                                  std::chrono::steady_clock::time_point deadline);

/// Run all probes within o.total_timeout; reads/writes o.state_file.
[[nodiscard]] CheckReport run_check(const CheckOptions& o);

/// A label value in Prometheus' text format: backslash, double quote and newline escaped.
[[nodiscard]] std::string prometheus_label(const std::string& s);

/// node_exporter textfile collector format: one gauge sample per probe
/// (topoplace_health_probe_ok{node,probe}), the overall verdict, duration and time.
[[nodiscard]] std::string prometheus_text(const CheckReport& rep, const std::string& node, std::int64_t now_unix);
/// Write `text` to `path` through a temporary file in the same directory and a rename
/// (node_exporter never reads half a file). Mode 0644.
[[nodiscard]] Status write_file_atomic(const std::string& path, const std::string& text);

/// Result of running a program with a timeout.
struct ProcResult {
    int exit_code = -1;  ///< exit status, -1 when killed by a signal or timed out
    int signal = 0;
    bool timed_out = false;
    bool started = true;
    std::string out;         ///< stdout (+ stderr when merged), capped at max_output bytes
    bool truncated = false;  ///< more output than max_output came (and was dropped)
    double seconds = 0;
};

/// fork+exec argv in its own process group; on timeout kill the whole group (SIGKILL).
/// The timeout bounds the call, output included: the pipe is read with a deadline, never
/// until EOF, so a helper that left the group (setsid, double fork) and keeps the pipe
/// open cannot hold it (it is not killed: it is outside the group). After the program
/// exits, remaining output is read for at most 250 ms.
[[nodiscard]] ProcResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                                     bool merge_stderr = true, std::size_t max_output = 64 * 1024);

}  // namespace topo::health
