// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The decision of topology/topoplace, Slurm's topology plugin (spank/topology/): at
/// every `topology_p_eval_nodes` call slurmctld offers a job the nodes it could use now, and
/// the Selector chooses among them with place() (docs/topology-plugin.md). Slurm-free: the
/// plugin hands it node indices, names and the job's fields as plain values, and gets back
/// the Slurm node indices to narrow the offer to. Nothing here blocks on anything but the
/// health store: one stat() at most once a second, and when it changed one listing and at
/// most kHealthReadsPerCall record files (each bounded by the store's own limits); memory is
/// the snapshot, one ClusterState and a few bitmaps, all sized at load time.

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <topo/health/flags.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

#include "core.hpp"
#include <sys/types.h>

namespace topo::spank {

/// topoplace-topology.conf (next to slurm.conf): `key=value` lines, `#` comments.
struct SelectorConfig {
    std::string snapshot;                                ///< snapshot JSON (default: <confdir>/topoplace.json)
    std::string health;                                  ///< health store directory; empty = none
    placement::Policy policy = placement::Policy::Cost;  ///< pack policy: cost | topo
    Mode default_mode = Mode::Pack;                      ///< jobs that give no --topo: pack | spread | off
    int health_interval_ms = 1000;                       ///< the store (and the feed) re-read at most this often
    /// topoplace-nodefeed's state feed (its --feed file): the running jobs' per-group uplink
    /// use for the cost policy (node states come from Slurm's offer). Empty = none: no sharing.
    std::string state_feed;
    int state_feed_age = 10;     ///< seconds after its last slurmctld read that the feed is trusted
    uid_t state_feed_owner = 0;  ///< the feed's owner (root: topoplace-nodefeed); not a file key (tests)
    /// The plugin logs its counters and its own time in eval_nodes at most this often (and at
    /// every reconfigure); 0 = only at reconfigure.
    int stats_interval_s = 300;
    /// One info line per eval_nodes call: the job, the nodes Slurm offered and the nodes chosen
    /// (or left to topology/tree), for replays and audits (DebugFlags=SelectType logs it too).
    bool trace = false;
    /// Backfill's look-ahead calls (SelectorJob::busy): among placements as good, `busy` takes
    /// nodes busy now (on them alone, else in their leaf groups, else swapped inside each
    /// chosen leaf group); `holes` keeps off the idle nodes of part-used leaf groups (the holes
    /// backfill fills in; wholly idle groups stay the reservation's), then swaps; `group` only
    /// swaps inside the chosen leaf groups; `off` decides as on any offer.
    enum class LookAhead : std::uint8_t { Off, Group, Holes, Busy };
    LookAhead lookahead = LookAhead::Holes;
    /// A multi-node job whose choice on the offer takes a degraded host is not started there
    /// (Selection::Kind::Hold: eval_nodes fails, the job waits as for any node it lacks) while
    /// enough healthy idle nodes of its partition are free, offered or held by Slurm for other
    /// jobs (backfill's reservations); then it takes the offer's best. Held from its first hold
    /// for at most what the degraded host would cost it there, its time limit x (slowdown - 1)
    /// (a straggler sets the pace of every step: placement/running.hpp's degraded loss), and
    /// never longer than this many seconds (the bound for a job without a time limit). 0 =
    /// never held (the degraded hosts are only avoided within the offer). 600: our bound on
    /// what a node wrongly counted as the partition's can cost a job, not a measurement.
    int degraded_wait_s = 600;
    /// A multi-node job about to start now (an offer of idle nodes) whose choice on the offer
    /// is beaten by a placement that also uses idle nodes of its partition Slurm withheld from
    /// it (backfill's reservations for the jobs ahead): no more leaf groups, spines or degraded
    /// hosts, fewer of one, and a lower predicted slowdown. It is held (Selection::Kind::Hold)
    /// from its first such hold for at most what the offer's choice would cost it against
    /// that placement, its time limit x (S_offer / S_withheld - 1), and never longer than this
    /// many seconds (the bound for a job without a time limit); then it takes the offer's best.
    /// 0 = never held. 600: as degraded_wait, our bound, not a measurement.
    int withheld_wait_s = 600;
};

/// Parse the file's text; `confdir` gives the default snapshot path. Errors name the line
/// ("topoplace-topology.conf:3: unknown key 'polcy'").
[[nodiscard]] Result<SelectorConfig> parse_selector_config(std::string_view text, std::string_view file,
                                                           std::string_view confdir);

/// One job as slurmctld's eval_nodes sees it.
struct SelectorJob {
    std::uint32_t job_id = 0;
    std::uint32_t min_nodes = 1;
    std::uint32_t req_nodes = 1;
    std::uint32_t max_nodes = 1;
    bool exclusive = true;           ///< whole nodes (details->whole_node or share_res == 0)
    bool required_nodes = false;     ///< the job named nodes (-w): Slurm decides
    std::string_view tres_per_node;  ///< "gres/gpu:8", "gres/gpu:h100:8" (empty: none)
    /// The job's spank_job_env entries (NAME=value or SPANK_NAME=value): TOPOPLACE_MODE,
    /// TOPOPLACE_MAX_TIER, TOPOPLACE_NVL, TOPOPLACE_SEGMENT, as the SPANK plugin hands them.
    std::vector<std::string_view> env;
    /// Of the offered nodes, those running a job now (not in slurmctld's idle_node_bitmap), in
    /// `offered`'s layout; empty = none. Backfill's look-ahead (will-run) offers the nodes that
    /// free up before the job can start; the nodes it then reserves are held from jobs that
    /// could start now, so among placements as good the Selector takes busy ones (as Slurm's
    /// own node evaluation takes nodes already running a job before idle ones).
    std::span<const std::uint64_t> busy;
    /// The job's partition as slurmctld names it ("gpu", or "a,b" for several): the nodes
    /// offered to any job of it are taken as its partition's (SelectorConfig::degraded_wait_s).
    std::string_view partition;
    /// The nodes idle and available now that Slurm did not offer (held for other jobs, or
    /// another partition's), in `offered`'s layout; empty = not known (no hold).
    std::span<const std::uint64_t> idle_elsewhere;
    /// The job's time limit in minutes (0: none known): a hold off a degraded host lasts at
    /// most what that host would cost the job (SelectorConfig::degraded_wait_s).
    std::uint32_t time_limit_min = 0;
};

/// What to do with one eval_nodes call.
struct Selection {
    enum class Kind : std::uint8_t {
        Narrow,  ///< narrow the offer to `nodes` (Slurm indices, ascending) and let Slurm allocate
        Pass,    ///< leave the offer to Slurm (off, -w, busy/never on the offer, one node's choice)
        Hold,    ///< start nothing now: the offer's best takes a degraded host while healthy ones are free
    };
    Kind kind = Kind::Pass;
    std::vector<std::uint32_t> nodes;
    std::string why;        ///< for Pass: the reason (debug); for Narrow: the placement's explanation
    bool withheld = false;  ///< for Hold: held for withheld idle nodes (withheld_wait), not off degraded hosts
    /// A problem the plugin logs once (an invalid option of the job, a health store that cannot
    /// be read): empty when none. `problem_key` names its class for log-once.
    std::string problem;
    std::string problem_key;
};

class Selector {
public:
    /// Load the snapshot (and nothing else: the node map comes from set_nodes()).
    [[nodiscard]] static Result<std::unique_ptr<Selector>> open(SelectorConfig cfg);

    /// How Slurm's node table and the snapshot's hosts met (for the log, a few names each).
    struct NodeMap {
        static constexpr std::size_t kSample = 5;
        std::size_t unknown_nodes = 0;  ///< named Slurm nodes the snapshot lacks (stay with Slurm)
        std::vector<std::string> unknown_sample;
        std::size_t absent_hosts = 0;  ///< snapshot hosts slurm.conf does not define
        std::vector<std::string> absent_sample;
    };

    /// Map Slurm's node table (index -> name; an empty name is a hole) onto the snapshot's
    /// hosts. Nodes the snapshot does not name are never chosen (they stay with Slurm).
    NodeMap set_nodes(std::span<const std::string_view> names);

    /// Decide for one job on the nodes offered now: `offered` holds one bit per Slurm node
    /// index (word i / 64, bit i % 64), `nbits` of them.
    [[nodiscard]] Selection select(const SelectorJob& job, std::span<const std::uint64_t> offered, std::uint32_t nbits);

    [[nodiscard]] const Topology& topology() const noexcept { return *topo_; }

    [[nodiscard]] const SelectorConfig& config() const noexcept { return cfg_; }

    /// Whether SelectorJob::idle_elsewhere can change a decision now (withheld_wait on, or
    /// degraded_wait on and degraded hosts known at the last health read): the plugin gathers
    /// it only then.
    [[nodiscard]] bool wants_idle_elsewhere() const noexcept {
        return cfg_.withheld_wait_s > 0 || (cfg_.degraded_wait_s > 0 && state_.degraded_count() > 0);
    }

    /// Counters since open (for the log at fini and the benchmark).
    struct Stats {
        std::uint64_t calls = 0;
        std::uint64_t narrowed = 0;
        std::uint64_t passed = 0;
        std::uint64_t health_reads =
            0;  ///< health record files read (at open, then at most kHealthReadsPerCall per health_interval_ms)
        std::uint64_t repeats = 0;          ///< calls answered from the last decision for the same job and offer
        std::uint64_t lookahead_moved = 0;  ///< look-ahead decisions moved to leave idle nodes to backfill
        std::uint64_t held = 0;             ///< calls held off degraded hosts (Selection::Kind::Hold)
        std::uint64_t held_withheld = 0;    ///< calls held for withheld idle nodes (withheld_wait_s)
        std::uint64_t select_ns = 0;        ///< time in select(), all calls
        std::uint64_t select_max_ns = 0;
        std::uint64_t place_ns = 0;         ///< of which the decision's own place() calls
        std::uint64_t lookahead_calls = 0;  ///< look-ahead calls that searched for a choice leaving idle nodes
        std::uint64_t lookahead_ns = 0;     ///< of select_ns: that search (spare_idle)
        std::uint64_t withheld_calls = 0;   ///< decisions weighed against the withheld idle nodes
        std::uint64_t withheld_ns = 0;      ///< of select_ns: that weighing (withheld_gain)
    };

    [[nodiscard]] const Stats& stats() const noexcept { return stats_; }

    /// The clock the health re-read uses (tests set it).
    using Clock = std::chrono::steady_clock;

    void set_clock_for_test(std::function<Clock::time_point()> now) { now_ = std::move(now); }

    /// Running jobs using group g's uplinks, as last read from the feed (tests, the log).
    [[nodiscard]] placement::ClusterState::UplinkUsers uplink_users(GroupId g) const { return state_.uplink_users(g); }

private:
    Selector(SelectorConfig cfg, TopologyPtr topo);
    void refresh_health(Selection& sel);
    /// Once per health_interval_ms: the running jobs' uplink use from the feed into state_; a
    /// feed that cannot be read or is too old leaves no sharing (a problem, logged once).
    void refresh_feed(Selection& sel);
    void set_uplinks(const placement::ClusterState* from);
    /// A problem for this call's Selection, or for a later call's when this one has one.
    void note(Selection& sel, std::string key, std::string text);
    void apply_offer(std::span<const std::uint64_t> offered, std::uint32_t nbits);
    Selection decide(const SelectorJob& job, std::span<const std::uint64_t> offered, std::uint32_t nbits);
    /// SelectorJob::busy: a placement as good (degraded hosts, leaf groups, spines, tier, leaf
    /// switches) that leaves idle nodes (SelectorConfig::lookahead says which), else each idle
    /// node swapped for a busy one of its leaf group that is as fit; true when `p` changed.
    bool spare_idle(const SelectorJob& job, std::uint32_t nbits, const placement::Request& r, placement::Policy policy,
                    placement::Placement& p);
    /// A Narrow choice on a degraded host for a multi-node job: true when it is to be held
    /// (SelectorConfig::degraded_wait_s); records the offer as the partition's.
    bool hold_off_degraded(const SelectorJob& job, std::span<const std::uint64_t> offered, std::uint32_t nbits,
                           int gpus_per_node, std::span<const std::uint32_t> chosen);
    /// The idle nodes of the job's partition that Slurm did not offer (SelectorJob::idle_elsewhere
    /// & part_nodes_, less the offer) as host bits into withheld_; their FNV-1a hash (0: none).
    std::uint64_t withheld_hosts(const SelectorJob& job, std::span<const std::uint64_t> offered, std::uint32_t nbits);
    /// The offer's choice `p` (state_ holds the offer) against place() on the offer plus
    /// withheld_: the seconds a hold may last (SelectorConfig::withheld_wait_s), 0 = not beaten.
    double withheld_gain(const SelectorJob& job, const placement::Request& r, placement::Policy policy,
                         const placement::Placement& p);
    /// Whether a job beaten by withheld nodes for up to `bound_s` is held now (from its first hold).
    bool hold_for_withheld(std::uint32_t job_id, double bound_s);
    /// Whether `job_id`, first held at since[job_id] (set now if absent), is still within `bound`.
    bool held_within(std::unordered_map<std::uint32_t, Clock::time_point>& since, std::uint32_t job_id,
                     std::chrono::duration<double> bound);
    /// Slurm node bits (`nbits` of them) -> per-host bits in `out` (nodes the snapshot lacks dropped).
    void host_bits(std::span<const std::uint64_t> nodes, std::uint32_t nbits, std::vector<std::uint64_t>& out) const;

    SelectorConfig cfg_;
    TopologyPtr topo_;
    std::unique_ptr<placement::Placer> placer_;
    placement::ClusterState state_;
    std::vector<std::int32_t> host_of_node_;          ///< Slurm index -> host id (-1: not in the snapshot)
    std::vector<std::uint32_t> node_of_host_;         ///< host id -> Slurm index (UINT32_MAX: none)
    std::vector<std::uint64_t> idle_;                 ///< per host: offered in the state now
    std::vector<std::uint64_t> want_;                 ///< apply_offer's scratch (kept: no allocation per call)
    std::vector<std::uint64_t> busy_;                 ///< per host: offered and busy now (spare_idle's scratch)
    std::vector<std::uint64_t> picked_;               ///< per host: in the placement (spare_idle's scratch)
    std::vector<std::uint32_t> grp_idle_, grp_busy_;  ///< per leaf group: offered idle / busy hosts (spare_idle)
    std::vector<std::size_t> grp_taken_;              ///< per leaf group: hosts of a placement in it (spare_idle)
    std::vector<std::size_t> split_;                  ///< wholly idle groups a placement takes in part (spare_idle)

    /// The look-ahead's own state (spare_idle): state_ with the hosts a step leaves out
    /// allocated. Kept from call to call and changed only where its offer differs from the
    /// last one (as apply_offer does state_), so a step costs O(changed hosts) and one place();
    /// copied from state_ again when anything but the offer changed there (generation_).
    /// Two of them: [0] for the steps that leave out many hosts (busy, holes), [1] for the
    /// split step, which leaves out a few groups of the offer (one state for both would swap
    /// hundreds of hosts back and forth at every look-ahead call).
    struct Ahead {
        std::optional<placement::ClusterState> state;
        std::uint64_t generation = 0;
        std::vector<std::uint64_t> idle;  ///< per host: offered in `state`
    };

    std::array<Ahead, 2> ahead_;
    std::vector<std::uint64_t> ahead_want_;     ///< per host: wanted in the step's state
    std::vector<std::uint32_t> group_of_host_;  ///< per host: its leaf group's index
    /// per leaf group g, its hosts as bit masks of host words: grp_words_[grp_word_begin_[g]
    /// .. grp_word_begin_[g + 1]) = (word, mask); per-group counts are popcounts (spare_idle)
    std::vector<std::uint32_t> grp_word_begin_;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> grp_words_;
    /// Slurm's node table is the snapshot's hosts in host-id order (node i is host i): node
    /// bits are host bits (host_bits copies words)
    bool identity_nodes_ = false;
    static constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();
    /// The health store kept read (FlagsReader: its directory watched, listed again only when
    /// it changed and the watch cannot say what,
    /// a record read again only when it was replaced); read whole at open, then at most
    /// kHealthReadsPerCall record files per re-read, the rest at the next ones.
    std::optional<health::FlagsReader> health_;
    health::HealthFlags flags_;  ///< what state_ was given last
    std::optional<Clock::time_point> health_read_;
    static constexpr std::size_t kHealthReadsPerCall = 64;
    /// The flags just read into state_ (the old ones lifted first).
    void apply_health(const health::HealthFlags& f);

    /// Slurm evaluates the same job on the same offer again and again (every main and backfill
    /// cycle while nothing changed): its last decision per job, valid while the inputs that
    /// are not in the key (health flags, uplinks from the feed, the node map) stay as they
    /// were (`generation_`). Bounded: cleared when it holds kMemoJobs jobs.
    struct MemoKey {
        std::uint64_t generation = 0;
        std::uint32_t min_nodes = 0, req_nodes = 0, max_nodes = 0;
        std::string tres_per_node;
        std::uint64_t env_hash = 0;  ///< FNV-1a over the job's SPANK environment (its --topo options)
        std::uint32_t nbits = 0;
        std::vector<std::uint64_t> offered;
        std::vector<std::uint64_t> busy;
        bool operator==(const MemoKey&) const = default;
    };

    struct Memo {
        MemoKey key;
        Selection::Kind kind = Selection::Kind::Pass;
        std::vector<std::uint32_t> nodes;
        std::string why;
        bool on_degraded = false;         ///< a Narrow onto a degraded host (hold_off_degraded asked again)
        std::uint64_t withheld_hash = 0;  ///< withheld_hosts() when decided (another value: decided again)
        double withheld_bound_s = 0;      ///< withheld_gain() when decided (0: not beaten)
    };

    std::unordered_map<std::uint32_t, Memo> memo_;

    /// per partition name: the Slurm nodes offered to any of its jobs (node bits; at most
    /// kPartitions names, then no more are learned) and, per held job, its first hold
    struct NameHash {
        using is_transparent = void;

        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };

    std::unordered_map<std::string, std::vector<std::uint64_t>, NameHash, std::equal_to<>> part_nodes_;
    static constexpr std::size_t kPartitions = 64;
    std::unordered_map<std::uint32_t, Clock::time_point> held_since_;
    std::unordered_map<std::uint32_t, Clock::time_point> withheld_since_;  ///< per job: its first withheld hold
    std::vector<std::uint64_t> withheld_;  ///< per host: idle in the partition, not offered (withheld_hosts)
    std::vector<std::uint64_t> with_;      ///< per host: the offer and withheld_ (withheld_gain's scratch)
    MemoKey key_;                          ///< this call's key, kept between calls so that its buffers are reused
    std::uint64_t generation_ = 0;
    static constexpr std::size_t kMemoJobs = 1024;
    std::optional<Clock::time_point> feed_read_;
    std::vector<std::pair<std::string, std::string>> pending_;  ///< (key, text) for the next calls (at most 8)
    std::function<Clock::time_point()> now_ = [] { return Clock::now(); };
    Stats stats_;
};

/// The job's --topo options from its spank_job_env (TOPOPLACE_MODE etc.); a value that does
/// not parse is an error naming the variable.
[[nodiscard]] Result<Options> options_from_env(std::span<const std::string_view> env);

}  // namespace topo::spank
