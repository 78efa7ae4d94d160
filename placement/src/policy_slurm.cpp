// SPDX-License-Identifier: Apache-2.0
// Baselines: `slurm-tree` (Slurm 22.05 select/cons_tres _eval_nodes_topo) and `linear`
// (Slurm's consecutive best fit without a topology plugin).
//
// slurm-tree follows ../shared/docs/SLURM-NOTES.md section 5.2 step by step, on the
// switch table that topology.conf from slurm-conf/ gives Slurm (Placer::Index): one
// weight group (we have no node weights); top switch = the last switch of the highest
// level with enough nodes; greedy leaf selection by accumulated distance with the
// _topo_compare_switches tie-break (tightest fit, climbing to parents); nodes of a leaf
// taken in bitmap (config = natural name) order; switch_node_cnt of upper switches is
// not updated while leaves are used, as in Slurm. It counts nodes, never GPUs per switch.
#include <algorithm>
#include <limits>
#include <sstream>

#include "internal.hpp"

namespace topo::placement {

namespace {

constexpr long kInfinite = std::numeric_limits<int>::max() / 4;

struct SlurmSel {
    const Placer::Index* ix;
    std::vector<int> cnt;  // switch_node_cnt

    int compare(int i, int j, int rem) const {
        while (true) {
            const bool i_fit = cnt[static_cast<std::size_t>(i)] >= rem;
            const bool j_fit = cnt[static_cast<std::size_t>(j)] >= rem;
            if (i_fit && j_fit) {
                if (cnt[static_cast<std::size_t>(i)] < cnt[static_cast<std::size_t>(j)]) return 1;
                if (cnt[static_cast<std::size_t>(i)] > cnt[static_cast<std::size_t>(j)]) return -1;
                break;
            }
            if (i_fit) return 1;
            if (j_fit) return -1;
            const int pi = ix->sw[static_cast<std::size_t>(i)].parent;
            const int pj = ix->sw[static_cast<std::size_t>(j)].parent;
            // Slurm climbs while the parents differ; a root has no parent (we stop there
            // instead of indexing past the table).
            if (pi != pj && pi >= 0 && pj >= 0) {
                i = pi;
                j = pj;
                continue;
            }
            break;
        }
        if (cnt[static_cast<std::size_t>(i)] > cnt[static_cast<std::size_t>(j)]) return 1;
        if (cnt[static_cast<std::size_t>(i)] < cnt[static_cast<std::size_t>(j)]) return -1;
        const int li = ix->sw[static_cast<std::size_t>(i)].level;
        const int lj = ix->sw[static_cast<std::size_t>(j)].level;
        if (li < lj) return 1;
        if (li > lj) return -1;
        return 0;
    }

    void choose_best(const std::vector<long>& dist, int rem, int i, int& best) const {
        if (best == -1 || dist[static_cast<std::size_t>(i)] >= kInfinite || cnt[static_cast<std::size_t>(i)] == 0) {
            if (cnt[static_cast<std::size_t>(i)] != 0 && dist[static_cast<std::size_t>(i)] < kInfinite) best = i;
            return;
        }
        const int tcs = compare(i, best, rem);
        if ((dist[static_cast<std::size_t>(i)] < dist[static_cast<std::size_t>(best)] && tcs >= 0)
            || (dist[static_cast<std::size_t>(i)] == dist[static_cast<std::size_t>(best)] && tcs > 0)) {
            best = i;
        }
    }
};

}  // namespace

namespace {

/// Slurm's bitstr_t, reduced to what _eval_nodes_topo uses; one flat buffer holds every
/// switch's map (Slurm allocates one per switch with bit_copy()).
struct Bits {
    std::size_t words = 0;
    std::vector<std::uint64_t> v;

    Bits(std::size_t n_maps, std::size_t w) : words(w), v(n_maps * w, 0) {}

    std::uint64_t* map(std::size_t i) { return v.data() + i * words; }

    const std::uint64_t* map(std::size_t i) const { return v.data() + i * words; }
};

inline bool bit_test(const std::uint64_t* b, std::uint32_t i) {
    return ((b[i / 64] >> (i % 64)) & 1U) != 0;
}

inline void bit_set(std::uint64_t* b, std::uint32_t i) {
    b[i / 64] |= std::uint64_t{1} << (i % 64);
}

inline void bit_and(std::uint64_t* a, const std::uint64_t* b, std::size_t words) {
    for (std::size_t k = 0; k < words; ++k) a[k] &= b[k];
}

inline void bit_or(std::uint64_t* a, const std::uint64_t* b, std::size_t words) {
    for (std::size_t k = 0; k < words; ++k) a[k] |= b[k];
}

inline int bit_set_count(const std::uint64_t* b, std::size_t words) {
    int n = 0;
    for (std::size_t k = 0; k < words; ++k) n += __builtin_popcountll(b[k]);
    return n;
}

inline bool bit_overlap_any(const std::uint64_t* a, const std::uint64_t* b, std::size_t words) {
    for (std::size_t k = 0; k < words; ++k) {
        if ((a[k] & b[k]) != 0) return true;
    }
    return false;
}

/// next_node_bitmap(): the next set bit at or after `i` (word scan), -1 at the end.
inline long next_bit(const std::uint64_t* b, std::size_t words, long i) {
    std::size_t k = static_cast<std::size_t>(i) / 64;
    if (k >= words) return -1;
    std::uint64_t x = b[k] & (~std::uint64_t{0} << (static_cast<unsigned>(i) % 64));
    while (true) {
        if (x != 0) return static_cast<long>(k * 64 + static_cast<std::size_t>(__builtin_ctzll(x)));
        if (++k >= words) return -1;
        x = b[k];
    }
}

}  // namespace

bool choose_slurm_tree(const Work& w, Choice& out) {
    // The structure (and so the cost) of Slurm 22.05 cons_tres _eval_nodes_topo: node
    // bitmaps over every node, per-switch bitmaps ANDed with the available map and
    // counted, the greedy loop over all switches with switches_dist updated for every
    // switch, nodes of a leaf taken in bitmap order. No required nodes, one weight.
    const auto& ix = *w.ix;
    const std::size_t m = ix.sw.size();
    if (m == 0) return false;
    const auto nw = static_cast<std::size_t>(ix.n_words);
    const bool gpu_job = w.mode == UnitMode::Gpus;
    int rem_nodes = gpu_job ? 1 : w.nodes;  // per-job GRES: rem_nodes = MIN(min, req)
    int rem_gpus = gpu_job ? w.demand : 0;
    int max_nodes = gpu_job ? ix.n_hosts : w.nodes;  // the caller walks node ranges from the top

    // node_map: nodes that can run the job (what cons_tres passes in after evaluating
    // every node of the partition).
    Bits node_map(1, nw);
    for (std::uint32_t h = 0; h < static_cast<std::uint32_t>(ix.n_hosts); ++h) {
        if (w.host_units[h] > 0) bit_set(node_map.map(0), h);
    }
    // node_weight_list: one weight group (node weights are not modelled).
    Bits weight_map(1, nw);
    int weight_cnt = 0;
    for (long i = next_bit(node_map.map(0), nw, 0); i >= 0; i = next_bit(node_map.map(0), nw, i + 1)) {
        bit_set(weight_map.map(0), static_cast<std::uint32_t>(i));
        ++weight_cnt;
    }
    if (weight_cnt == 0) return false;  // "node_map is empty"

    // switch_node_bitmap[i] = switch_record_table[i].node_bitmap AND node_map.
    Bits sw_map(m, nw);
    std::vector<int> sw_cnt(m, 0);  // switch_node_cnt
    int top = -1;
    for (std::size_t i = 0; i < m; ++i) {
        std::copy_n(ix.sw_bits.data() + i * nw, nw, sw_map.map(i));
        bit_and(sw_map.map(i), node_map.map(0), nw);
        sw_cnt[i] = bit_set_count(sw_map.map(i), nw);
        if (sw_cnt[i] < rem_nodes) continue;                       // _enough_nodes
        if (bit_overlap_any(weight_map.map(0), sw_map.map(i), nw)  // _topo_node_find
            && (top == -1 || ix.sw[i].level >= ix.sw[static_cast<std::size_t>(top)].level)) {
            top = static_cast<int>(i);
        }
    }
    std::fill(node_map.v.begin(), node_map.v.end(), 0);  // bit_clear_all(node_map)
    if (top == -1) return false;                         // unable to identify top level switch
    const auto topi = static_cast<std::size_t>(top);
    // Remove nodes that cannot be reached from the top switch.
    for (std::size_t i = 0; i < m; ++i) {
        if (i != topi) bit_and(sw_map.map(i), sw_map.map(topi), nw);
    }
    // Best set: the nodes of the (only) weight group under the top switch.
    Bits best(1, nw);
    int best_cnt = 0;
    long best_gpus = 0;  // gres_sched_consec
    for (long i = next_bit(weight_map.map(0), nw, 0); i >= 0; i = next_bit(weight_map.map(0), nw, i + 1)) {
        const auto h = static_cast<std::uint32_t>(i);
        if (!bit_test(sw_map.map(topi), h)) continue;
        if (w.host_units[h] <= 0) continue;  // _select_cores: no resources
        bit_set(best.map(0), h);
        ++best_cnt;
        if (gpu_job) best_gpus += w.host_units[h];
    }
    if (best_cnt < rem_nodes || (gpu_job && best_gpus < rem_gpus)) return false;  // !sufficient
    // Switch entries restricted to the best set.
    Bits avail(1, nw);
    for (std::size_t i = 0; i < m; ++i) {
        bit_and(sw_map.map(i), best.map(0), nw);
        bit_or(avail.map(0), sw_map.map(i), nw);
        sw_cnt[i] = bit_set_count(sw_map.map(i), nw);
    }

    // Greedy leaf selection (switches_dist over every switch).
    SlurmSel sel{&ix, std::move(sw_cnt)};
    std::vector<long> dist(m, 0);
    int leaves_used = 0;
    int prev_rem = rem_nodes + 1;
    bool done = false;
    std::vector<int> order_used;
    while (!done) {
        if (prev_rem == rem_nodes && !gpu_job) break;  // stalled
        prev_rem = rem_nodes;
        int bsw = -1;
        for (std::size_t i = 0; i < m; ++i) {
            if (ix.sw[i].level != 0) continue;
            sel.choose_best(dist, rem_nodes, static_cast<int>(i), bsw);
        }
        if (bsw == -1) break;
        for (std::size_t j = 0; j < m; ++j) {  // _topo_add_dist
            const long dj = ix.d(bsw, static_cast<int>(j));
            dist[j] = (dist[j] >= kInfinite || dj >= kInfinite) ? kInfinite : dist[j] + dj;
        }
        ++leaves_used;
        order_used.push_back(bsw);
        const auto* leaf_map = sw_map.map(static_cast<std::size_t>(bsw));
        for (long i = next_bit(leaf_map, nw, 0); i >= 0 && max_nodes > 0; i = next_bit(leaf_map, nw, i + 1)) {
            const auto h = static_cast<std::uint32_t>(i);
            if (bit_test(node_map.map(0), h) || w.host_units[h] <= 0) continue;
            bit_set(node_map.map(0), h);
            out.hosts.push_back(h);
            int g = w.gpn > 0 ? w.gpn : w.req.exclusive ? w.state->total_gpus(*w.topo, HostId{h}) : 0;
            if (gpu_job) {
                g = std::min(w.host_units[h], rem_gpus);
                rem_gpus -= g;
            }
            out.gpus_per_host.push_back(g);
            --rem_nodes;
            --max_nodes;
            if (rem_nodes <= 0 && rem_gpus <= 0) {
                done = true;
                break;
            }
        }
        sel.cnt[static_cast<std::size_t>(bsw)] = 0;  // used all
    }
    if (!done) return false;
    // --switches: more leaves than allowed means "waiting for switches" (pending).
    if (w.req.max_leaves > 0 && leaves_used > w.req.max_leaves) return false;
    std::ostringstream o;
    o << "Slurm 22.05 tree: top switch " << ix.sw[topi].name << ", leaves in order";
    for (int l : order_used) o << " " << ix.sw[static_cast<std::size_t>(l)].name;
    o << ".";
    out.why = o.str();
    return true;
}

bool choose_linear(const Work& w, Choice& out) {
    const auto& ix = *w.ix;
    const bool gpu_job = w.mode == UnitMode::Gpus;
    int rem_nodes = gpu_job ? 1 : w.nodes;
    long rem_gpus = gpu_job ? w.demand : 0;
    // Slurm's node table: placeable hosts in config (= id) order.
    std::vector<std::uint32_t> nodes;
    for (int h = 0; h < ix.n_hosts; ++h) {
        if (ix.leaf_of_host[static_cast<std::size_t>(h)] >= 0) nodes.push_back(static_cast<std::uint32_t>(h));
    }
    std::vector<bool> taken(nodes.size(), false);
    int runs_used = 0;
    while (rem_nodes > 0 || rem_gpus > 0) {
        // Consecutive runs of eligible, untaken nodes.
        struct Run {
            std::size_t start = 0, len = 0;
            long gpus = 0;
        };

        std::vector<Run> runs;
        for (std::size_t i = 0; i < nodes.size();) {
            if (w.host_units[nodes[i]] <= 0 || taken[i]) {
                ++i;
                continue;
            }
            Run r{i, 0, 0};
            while (i < nodes.size() && w.host_units[nodes[i]] > 0 && !taken[i]) {
                ++r.len;
                r.gpus += w.host_units[nodes[i]];
                ++i;
            }
            runs.push_back(r);
        }
        if (runs.empty()) return false;
        auto sufficient = [&](const Run& r) {
            return static_cast<int>(r.len) >= rem_nodes && (!gpu_job || r.gpus >= rem_gpus);
        };
        int best = -1;
        for (std::size_t i = 0; i < runs.size(); ++i) {  // smallest sufficient run
            if (sufficient(runs[i]) && (best < 0 || runs[i].len < runs[static_cast<std::size_t>(best)].len))
                best = static_cast<int>(i);
        }
        if (best < 0) {
            for (std::size_t i = 0; i < runs.size(); ++i) {  // else the largest
                if (best < 0 || runs[i].len > runs[static_cast<std::size_t>(best)].len) best = static_cast<int>(i);
            }
        }
        const Run r = runs[static_cast<std::size_t>(best)];
        ++runs_used;
        for (std::size_t i = r.start; i < r.start + r.len; ++i) {
            const auto h = nodes[i];
            taken[i] = true;
            out.hosts.push_back(h);
            int g = w.gpn > 0 ? w.gpn : w.req.exclusive ? w.state->total_gpus(*w.topo, HostId{h}) : 0;
            if (gpu_job) {
                g = static_cast<int>(std::min<long>(w.host_units[h], rem_gpus));
                rem_gpus -= g;
            }
            out.gpus_per_host.push_back(g);
            --rem_nodes;
            if (rem_nodes <= 0 && rem_gpus <= 0) break;
        }
    }
    out.why = "Consecutive best fit in config order over " + std::to_string(runs_used) + " run(s) of free hosts.";
    return true;
}

}  // namespace topo::placement
