// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The Slurm-free part of the topoplace SPANK plugin: plugstack arguments, --topo-*
/// option values, the job request as Slurm's option strings, the hand-off plan, the per-task
/// rail environment and the launch-gate verdict. Everything here is pure (no Slurm symbol,
/// no global state) so that it is unit-tested without a cluster; ../plugin/ wires it to Slurm.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <topo/health/flags.hpp>
#include <topo/health/store.hpp>
#include <topo/placement/place.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

namespace topo::spank {

enum class Mode : std::uint8_t { Pack, Spread, Off };
enum class OnError : std::uint8_t { Warn, Fail };
/// When the nodes are chosen (plugstack decide=): at submission (the plan handed to
/// job_submit.lua), at start (topology/topoplace in slurmctld; the plugin hands over only the
/// job's options), or auto: at start when slurm.conf's TopologyPlugin is topology/topoplace.
enum class DecideAt : std::uint8_t { Auto, Submit, Start };

[[nodiscard]] const char* mode_name(Mode m) noexcept;

/// Plugstack arguments (`required topoplace.so snapshot=... health=...`).
struct Config {
    std::string snapshot;              ///< snapshot JSON; empty = no placement, no rail env
    std::string health;                ///< health store directory; empty = no launch gate
    OnError on_error = OnError::Warn;  ///< what a plugin-side failure does to the job
    Mode default_mode = Mode::Off;     ///< mode of jobs that give no --topo
    int wait = 300;                    ///< seconds Slurm may wait for the switch count (wait4switch)
    bool rail_env = true;              ///< export NCCL_IB_HCA / UCX_NET_DEVICES / TOPOPLACE_* per task
    bool drain = true;                 ///< the gate drains the node with a "topoplace:" reason itself
    int state_cache = 0;               ///< seconds a user's submissions reuse the node state (0 = off;
                                       ///< state_cache.hpp, docs/spank.md "Cost")
    std::string state_feed;            ///< node-state file kept fresh by topoplace-nodefeed (root's,
                                       ///< not group/world-writable); empty = none (docs/spank.md "Cost")
    int state_feed_age = 3;            ///< seconds after its last slurmctld read that the feed is trusted
    std::string service;               ///< placement service socket (topoplace-nodefeed --socket); empty = none
    /// policy=cost|topo: how pack jobs are placed (docs/spank.md "Policy"; cost, the least
    /// predicted slowdown, is the default); spread jobs are spread either way
    placement::Policy policy = placement::Policy::Cost;
    DecideAt decide = DecideAt::Auto;  ///< decide=auto|submit|start (docs/topology-plugin.md)
    /// queued_plan=yes: a plan at submission even when jobs are queued for nodes ahead of this
    /// one (it is stale by the time the job starts); default no: such a job gets no plan and
    /// Slurm's own topology chooses at its start (docs/spank.md "Queued jobs")
    bool queued_plan = false;
};

/// Whether this job's nodes are chosen when Slurm starts it: decide=start, or decide=auto and
/// `topology_plugin` (slurm.conf's TopologyPlugin as the client read it; null when unknown)
/// names topology/topoplace.
[[nodiscard]] bool decides_at_start(DecideAt d, const char* topology_plugin) noexcept;

/// Parse plugstack arguments. Unknown keys, missing '=', empty or bad values and repeated
/// keys are Errc::InvalidArgument errors naming the argument ("arg 2 'on_error=maybe': ...").
[[nodiscard]] Result<Config> parse_config(const std::vector<std::string>& args);

/// The user's --topo-* options, as given (validated by the parse_* functions below).
struct Options {
    std::optional<Mode> mode;     ///< --topo
    std::optional<int> max_tier;  ///< --topo-max-tier
    bool nvl = false;             ///< --topo-nvl
    int segment = 0;              ///< --topo-segment (0 = not given)
    bool explain = false;         ///< --topo-explain
};

/// Strict decimal: digits only, no sign, no blanks, within [lo, hi] (option values, the
/// wire, topoplace-topology.conf).
[[nodiscard]] std::optional<long> strict_int(std::string_view s, long lo, long hi);

/// --topo=pack|spread|off (case-sensitive, no surrounding blanks).
[[nodiscard]] Result<Mode> parse_mode(const char* optarg);
/// policy=topo|cost (plugstack and the service wire): the pack policy, nullopt for anything else.
[[nodiscard]] std::optional<placement::Policy> parse_pack_policy(std::string_view s) noexcept;
/// --topo-max-tier=N, 0 <= N <= 15, decimal digits only.
[[nodiscard]] Result<int> parse_max_tier(const char* optarg);
/// --topo-segment=S, 1 <= S <= 65536, decimal digits only.
[[nodiscard]] Result<int> parse_segment(const char* optarg);

/// The job request as Slurm option strings (slurm_option_get names), empty = not set.
struct SlurmRequest {
    std::string nodes;          ///< "4" or "2-4"
    std::string gpus_per_node;  ///< "8", "h100:8"
    std::string gres;           ///< "gpu:8", "gres:gpu:h100:8,gres:foo:1"
    std::string gpus;           ///< total GPUs: "16", "h100:16"
    std::string exclusive;      ///< any non-empty value except "oversubscribe" = whole nodes
    std::string nodelist;       ///< -w: the user chose nodes, we do not place
    std::string exclude;        ///< -x: hosts never to use
    std::string partition;      ///< -p ("a,b"; "" = the default): the plugin's queue check only, not on the wire
};

/// Whether a queued job's partitions (job_info.partition, "a,b") share one with `ours`
/// (sbatch -p "a,b"); "" (the default partition) shares with every job.
[[nodiscard]] bool partitions_overlap(std::string_view theirs, std::string_view ours);

/// Build the placement request. Errors (InvalidArgument) name the Slurm option.
[[nodiscard]] Result<placement::Request> make_request(const Topology& topo, const SlurmRequest& sr,
                                                      const Options& opts);

/// Feature names written by `topoplace slurm-conf --features` (lg_<group>, nvl_<domain>).
[[nodiscard]] std::string group_feature(const Topology& topo, GroupId g);

/// What the plugin hands to job_submit.lua through spank_job_control_setenv.
/// Form chosen for staleness (docs/spank.md): a constraint on the chosen leaf groups with a
/// per-group count, a switch count with a bounded wait, and exclusions of unhealthy hosts;
/// not an exact node list, so a plan whose nodes were taken meanwhile is still satisfiable
/// inside the same groups.
struct Plan {
    Mode mode = Mode::Pack;
    std::vector<std::pair<std::string, int>> groups;  ///< (feature, host count), plan order
    int switches = 0;                                 ///< leaf switches (Slurm leaves) spanned
    int wait = 300;                                   ///< seconds (wait4switch)
    int tier = 0;                                     ///< highest tier crossed
    std::vector<std::string> hosts;                   ///< the engine's exact choice (informational)
    std::vector<std::string> exclude;                 ///< unhealthy hosts to exclude
    bool nvl = false;                                 ///< --topo-nvl: one NVLink domain (Slurm block)
    int segment = 0;                                  ///< --topo-segment S (0 = none)
};

/// Plan from a placement: `groups` from the placement's hosts, `switches` = number of Slurm
/// leaves spanned (one per leaf group, as slurm-conf writes topology.conf); `nvl` and
/// `segment` from the options (job_submit.lua turns them into block segments on 24.11+).
[[nodiscard]] Plan make_plan(const Topology& topo, const placement::Placement& p, Mode mode, int wait,
                             std::vector<std::string> exclude, const Options* opts = nullptr);

/// The Slurm constraint for a plan: "lg_g002" for one group, "[lg_g001*3&lg_g002*1]"
/// (multiple counts) for several.
[[nodiscard]] std::string plan_constraint(const Plan& p);

/// The spank_job_control_setenv variables for a plan (name, value), TOPOPLACE_* names.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> plan_env(const Plan& p);

/// What a job decided at start carries instead of a plan (decide=start): its effective mode
/// and --topo-* options for topology/topoplace (selector.hpp options_from_env reads them), and
/// TOPOPLACE_DECIDE=start for job_submit.lua's log. No constraint, switch count or exclusion:
/// those would be a plan made on the state at submission. Empty values are not handed over.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> start_env(Mode mode, const Options& o);

/// What a job that gets no plan at submission (no fit now, or queued behind other jobs) still
/// hands job_submit.lua: TOPOPLACE_MODE and TOPOPLACE_EXCLUDE, the hosts the health store
/// flags unhealthy and, for a multi-node job, the degraded ones while the hosts of the leaf
/// groups left (not excluded, not degraded) can hold it; nothing when that list is empty.
/// Slurm's tree then chooses at the job's start among the rest (docs/spank.md "Queued jobs").
[[nodiscard]] std::vector<std::pair<std::string, std::string>> unplanned_env(const Topology& topo,
                                                                             const placement::Request& req,
                                                                             const health::HealthFlags& health,
                                                                             Mode mode);

/// Parse a Slurm GPU list ("0,1,3", "0-3,6") as found in CUDA_VISIBLE_DEVICES,
/// SLURM_STEP_GPUS, SLURM_JOB_GPUS. Errors on anything else (e.g. UUIDs).
[[nodiscard]] Result<std::vector<int>> parse_gpu_list(std::string_view s);

/// Per-task environment on a node: the NICs nearest to the task's GPUs, in rail order
/// (NCCL_IB_HCA, UCX_NET_DEVICES "mlx5_0:1,..."), TOPOPLACE_RAILS, and the job's placement
/// (TOPOPLACE_LEAVES, TOPOPLACE_GROUPS, TOPOPLACE_TIER) from the job's node list.
/// `gpus` are host GPU indices. Unknown hosts in `job_hosts` are skipped.
struct TaskEnv {
    std::vector<std::pair<std::string, std::string>> vars;
};

[[nodiscard]] Result<TaskEnv> task_env(const Topology& topo, std::string_view host, const std::vector<int>& gpus,
                                       const std::vector<std::string>& job_hosts);

}  // namespace topo::spank
