// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The performance model (issue 16): a job's predicted step-time slowdown from its
/// placement, S_job = S_net x S_deg, and its ETTR from a failure model. Formulas and
/// every default parameter: docs/perf-model.md, which cites the row of
/// ../shared/docs/PERF-MODEL.md (published measurements) each number comes from.
/// Pure functions, no I/O except the parameter file reader.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <topo/result.hpp>

namespace topo::perf {

/// Communication classes of a training job.
enum class Comm : std::uint8_t { TP, CP, EP, PP, DP };
inline constexpr int kComms = 5;
[[nodiscard]] std::string_view comm_name(Comm c) noexcept;

/// Model tiers a communication group can cross (PERF-MODEL 6.1): 0 inside one NVLink
/// domain, 1 inside one leaf (rail) group, 2 several leaf groups of one non-blocking pod
/// (through spines), 3 several pods (through the core / aggregation tier).
inline constexpr int kModelTiers = 4;

enum class Fabric : std::uint8_t {
    IbAdaptiveRouting,  ///< InfiniBand with adaptive routing (M_ecmp 1.0, kappa 0.05)
    RoceEEcmp,          ///< RoCE with E-ECMP and QP scaling (M_ecmp 1.1 compact placement)
    RoceEcmp,           ///< RoCE with plain ECMP (M_ecmp 1.4 fragmented placement)
};

/// The model's parameters. Every default is a published measurement; the comment names
/// the PERF-MODEL.md section and row. A site overrides any of them with a file
/// (`--model FILE`, read_params_file()).
struct Params {
    /// phi_c: exposed (not overlapped) share of the ideal step time of class c, for an
    /// optimised (Megatron-class overlap) stack. 6.2 row phi / 2.2 MegaScale Table 3:
    /// removing TP/PP/DP exposure saved 4.0 / 4.3 / 2.5 % of step time. CP: NOT FOUND
    /// (Llama 3: "exposed but small") -> 0. EP: uncalibrated 0.10-0.30; 6.4 uses 0.15.
    std::array<double, kComms> phi{0.04, 0.0, 0.15, 0.04, 0.03};
    /// Multiplier of phi for a stack without that overlap (6.2 row phi: "x 2-3").
    double phi_unoptimized_factor = 2.5;
    /// M_tier for collectives at model tiers 0..3. 6.2 row M_tier: t* <= 1: 1.0; t* = 2
    /// 1.00-1.05, default 1.03 (IB AR; CoreWeave 1 vs 2 racks -3..-5 %); t* = 3: 1.2
    /// (Arnold: cross-minipod collectives up to 17 % slower).
    std::array<double, kModelTiers> tier_collective{1.0, 1.0, 1.03, 1.2};
    /// M_tier for point-to-point (PP) at tiers 0..3: t* = 3 default 1.5, range 1.2-3.3
    /// (Arnold: P2P up to 70 % slower across minipods).
    std::array<double, kModelTiers> tier_p2p{1.0, 1.0, 1.03, 1.5};
    /// r_k: oversubscription of the uplinks out of tier k (1 = non-blocking). Default 1
    /// at every tier: NVIDIA reference architectures (1.3 row NVIDIA RAs, "full
    /// non-blocking fat tree"). Llama 3's aggregation tier: 7; HPN's core: 15 (1.3).
    std::array<double, kModelTiers> oversubscription{1.0, 1.0, 1.0, 1.0};
    Fabric fabric = Fabric::IbAdaptiveRouting;
    /// M_ecmp by fabric (6.2 row M_ecmp): IB AR 1.0; RoCE E-ECMP compact 1.1; RoCE ECMP
    /// fragmented 1.4 (Meta SIGCOMM'24: 40 % longer than roofline on average).
    std::array<double, 3> ecmp{1.0, 1.1, 1.4};
    /// kappa by fabric, M_share = 1 + kappa u (6.2 row M_share): 0.05 IB AR or tuned
    /// RoCE (Arnold App. D: <= 5 %); 0.5 ECMP RoCE (Crux: +11 % iteration time).
    std::array<double, 3> kappa{0.05, 0.05, 0.5};
    /// NVLink-domain split (6.2 row M_nvl; section 5). b_nic: per-NIC NCCL bandwidth,
    /// NDR 400 Gb/s, 46-48 GB/s (1.1, nccl-tests #290/#267); b_nvl: all-reduce busbw
    /// inside one domain, GB/s (H100 8-GPU NVLS ~480, nccl-tests #212; GB200 NVL72
    /// 835-847, CoreWeave); b_p2p: NVLink per GPU each way (GB200 900 GB/s, NVIDIA
    /// blog); eta: ring 1.0 to tree 1.2 (section 5 regularity).
    double b_nic = 48.0;
    double b_nvl_hgx = 480.0;
    double b_nvl_nvl72 = 840.0;
    double b_p2p = 900.0;
    double eta = 1.0;
    /// Cap of any one M_c (6.2: "cap at 10").
    double m_cap = 10.0;
    /// S_deg = 1 + rho (s - 1), s the slowest degraded node's slowdown (6.2 row S_deg:
    /// synchronous training runs at the slowest rank, rho ~ 1; Lin et al. injected
    /// 1.16/1.40/2.03 measured ~ simulated).
    double rho = 1.0;
    /// Slowdown of a node flagged degraded without a measured figure: mild 1.1 (MegaScale:
    /// hosts ~10 % slower in forward compute).
    double degraded_default = 1.1;
    /// Failures (6.3): r_hw per node-day 3.8e-3 (Llama 3: 419 unexpected interruptions,
    /// 2,048 nodes, 54 days); t_det 60 s (ByteRobust: explicit failures detected in ~60 s);
    /// u0 restart overhead 600 s (Kokolis: 5-20 min; MegaScale <= 10 min diagnosis);
    /// checkpoint blocking cost delta 10 s (Megatron synchronous save 6.8-13.0 s,
    /// ByteRobust Table 8).
    double r_hw_per_node_day = 3.8e-3;
    double t_detect_s = 60.0;
    double restart_s = 600.0;
    double checkpoint_cost_s = 10.0;
    /// Where each value came from ("default" or the file that set it), by key.
    std::vector<std::pair<std::string, std::string>> overridden;
};

/// The parameter file: `key: value` lines of YAML (docs/perf-model.md lists every key),
/// e.g. `oversubscription: [1, 1, 1, 7]`, `fabric: roce-ecmp`, `tier_collective: [1, 1,
/// 1.01, 1.12]`. Unknown keys and values out of range are Parse errors at file:line.
[[nodiscard]] Result<Params> read_params_file(const std::string& path);
[[nodiscard]] Result<Params> parse_params(std::string_view text, const std::string& source);
/// The file that reproduces `p` (every key, with the default's source as a comment).
[[nodiscard]] std::string write_params(const Params& p);

/// What a job does: its parallel layout and how well its stack overlaps communication.
struct Profile {
    enum class Model : std::uint8_t { Dense, Moe };
    Model model = Model::Dense;
    int tp = 0, cp = 1, ep = 1, pp = 0, dp = 0;  ///< 0 = from the job size (default_layout)
    bool optimized_overlap = true;               ///< false: phi x phi_unoptimized_factor
};

/// The layout of a job of `gpus` GPUs on hosts of `gpus_per_host` (6.1): TP = min(8,
/// GPUs per host), CP = EP = 1, PP = the number of hosts up to 16 (Llama 3 405B: TP8 PP16),
/// DP the rest; Llama 3's order [TP, CP, PP, DP], DP outermost.
[[nodiscard]] Profile default_layout(Profile p, int gpus, int gpus_per_host);

/// Placement facts of one communication class (the worst of its groups).
struct ClassFeatures {
    int tier = 0;             ///< highest model tier crossed (0..3)
    int ideal_tier = 0;       ///< the tier the best placement of this job could not avoid
    int domains = 1;          ///< NVLink domains a group spans (D_c)
    int ideal_domains = 1;    ///< NVLink domains the best placement needs for one group
    int gpus_per_domain = 0;  ///< GPUs of one group per domain (g_c)
    double outside = 0.0;     ///< all-to-all: fraction of a rank's peers outside its domain
    int groups = 1;           ///< leaf groups a group spans (for x_c at tier 2)
    int pods = 1;             ///< pods a group spans (for x_c at tier 3)
    int members = 1;          ///< hosts in a group
};

/// Placement facts of a whole job.
struct Features {
    std::array<ClassFeatures, kComms> by_class{};
    bool nvl72 = false;                                  ///< multi-node NVLink domains (GB200 NVL72)
    bool fragmented = false;                             ///< spans more leaf groups than it needs
    std::array<double, kModelTiers> shared{0, 0, 0, 0};  ///< u_k: uplink share with other jobs
    double slowest_degraded = 1.0;                       ///< s of the slowest degraded host (1 = none)
    int hosts = 1;
    int gpus = 1;
};

struct Slowdown {
    double s_net = 1.0;
    double s_deg = 1.0;
    double s_job = 1.0;
    std::array<double, kComms> m{1, 1, 1, 1, 1};  ///< M_c per class
};

/// S_net = 1 + sum_c phi_c (M_c - 1), M_c = M_nvl M_tier M_over M_ecmp M_share (capped);
/// S_deg = 1 + rho (s - 1); S_job = S_net S_deg (PERF-MODEL 6.2).
[[nodiscard]] Slowdown slowdown(const Params& p, const Profile& prof, const Features& f);

/// Failures of one job (6.3): lambda = n r_hw; lost time per interruption t_det + u0 +
/// tau/2; ETTR = (1 - lambda (t_det + u0 + tau/2)) / (1 + delta/tau), clamped to [0, 1].
struct Reliability {
    double lambda_per_s = 0;  ///< interruptions per second
    double mtti_s = 0;        ///< 1/lambda
    double checkpoint_interval_s = 0;
    double ettr = 1;
};

[[nodiscard]] double young_interval_s(double checkpoint_cost_s, double mtti_s);
[[nodiscard]] double daly_interval_s(double checkpoint_cost_s, double mtti_s, double restart_s);
/// `interval_s` <= 0: Young's interval.
[[nodiscard]] Reliability reliability(const Params& p, int hosts, double interval_s);

}  // namespace topo::perf
