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
// slurm-tree-24 (Work::tree2405) is the same code as 24.05.3 and later run it (24.11.5's
// src/plugins/topology/tree/eval_nodes_tree.c): a closer leaf is taken whenever it fits
// (_topo_choose_best_switch: dist < best's && i_fit, 22.05: && at least as tight), i_fit as
// _topo_compare_switches leaves it (the last pair it compared, parents after a climb), and
// a used leaf's count is taken off every switch above it (_decrement_node_cnt).
#include <algorithm>
#include <bit>
#include <limits>
#include <sstream>

#include "internal.hpp"

namespace topo::placement {

namespace {

constexpr long kInfinite = std::numeric_limits<int>::max() / 4;

struct SlurmSel {
    const Placer::Index* ix;
    std::vector<int> cnt;  // switch_node_cnt
    bool v2405 = false;    // 24.05.3+ (slurm-tree-24)

    int compare(int i, int j, int rem, bool* i_fit_out = nullptr) const {
        while (true) {
            const bool i_fit = cnt[static_cast<std::size_t>(i)] >= rem;
            const bool j_fit = cnt[static_cast<std::size_t>(j)] >= rem;
            if (i_fit_out != nullptr) *i_fit_out = i_fit;
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
        bool i_fit = false;
        const int tcs = compare(i, best, rem, &i_fit);
        if ((dist[static_cast<std::size_t>(i)] < dist[static_cast<std::size_t>(best)] && (v2405 ? i_fit : tcs >= 0))
            || (dist[static_cast<std::size_t>(i)] == dist[static_cast<std::size_t>(best)] && tcs > 0)) {
            best = i;
        }
    }
};

}  // namespace

namespace {

/// Slurm's bitstr_t, reduced to what _eval_nodes_topo uses: words of 64 bits.
inline bool bit_test(const std::uint64_t* b, std::uint32_t i) {
    return ((b[i / 64] >> (i % 64)) & 1U) != 0;
}

inline void bit_set(std::uint64_t* b, std::uint32_t i) {
    b[i / 64] |= std::uint64_t{1} << (i % 64);
}

}  // namespace

namespace {

/// switch_node_cnt with the caps from the group counts (Nodes mode, host_units empty:
/// leaf_cap[l] = the hosts of leaf l with units, each giving one). A switch's node_bitmap is
/// the hosts of its leaves (Index), so popcount(node_bitmap AND node_map) is the sum of its
/// leaves' caps, and after the restriction to the top switch's map the sum over the leaves
/// it shares with the top switch: the same counts as the bitmaps give, O(switch-leaf pairs)
/// instead of O(hosts). Returns the top switch (-1: none, or node_map empty).
int slurm_counts_from_caps(const Work& w, int rem_nodes, std::vector<int>& sw_cnt) {
    const auto& ix = *w.ix;
    const std::size_t m = ix.sw.size();
    long weight_cnt = 0;
    for (int c : w.leaf_cap) weight_cnt += c;
    if (weight_cnt == 0) return -1;  // "node_map is empty"
    sw_cnt.assign(m, 0);
    int top = -1;
    for (std::size_t i = 0; i < m; ++i) {
        int n = 0;
        for (int l : ix.sw[i].leaves) n += w.leaf_cap[static_cast<std::size_t>(l)];
        sw_cnt[i] = n;
        if (n < rem_nodes) continue;  // _enough_nodes
        if (n > 0 && (top == -1 || ix.sw[i].level >= ix.sw[static_cast<std::size_t>(top)].level)) {
            top = static_cast<int>(i);
        }
    }
    if (top == -1) return -1;
    const auto topi = static_cast<std::size_t>(top);
    if (sw_cnt[topi] < rem_nodes) return -1;  // !sufficient (best_cnt = the top switch's count)
    std::vector<std::uint8_t> in_top(static_cast<std::size_t>(ix.n_leaves), 0);
    for (int l : ix.sw[topi].leaves) in_top[static_cast<std::size_t>(l)] = 1;
    for (std::size_t i = 0; i < m; ++i) {
        if (i == topi) continue;
        int n = 0;
        for (int l : ix.sw[i].leaves) {
            if (in_top[static_cast<std::size_t>(l)] != 0) n += w.leaf_cap[static_cast<std::size_t>(l)];
        }
        sw_cnt[i] = n;
    }
    return top;
}

}  // namespace

bool choose_slurm_tree(const Work& w, Choice& out) {
    // The structure of Slurm 22.05 cons_tres _eval_nodes_topo: node bitmaps, per-switch
    // bitmaps ANDed with the available map and counted, the greedy loop over all switches
    // with switches_dist updated for every switch, nodes of a leaf taken in bitmap order.
    // No required nodes, one weight. The per-switch bitmap work covers only the words a
    // switch has nodes in (issue 29: whole-cluster bitmaps per switch were 70 % of a
    // slurm-tree replay at 16,384 hosts), with the same decisions. When the caps came from
    // the group counts (host_units empty), the switch counts come from the leaves' caps
    // and only the chosen leaves' hosts are looked at (slurm_counts_from_caps).
    const auto& ix = *w.ix;
    const std::size_t m = ix.sw.size();
    if (m == 0) return false;
    const auto nw = static_cast<std::size_t>(ix.n_words);
    const bool gpu_job = w.mode == UnitMode::Gpus;
    // caps from the group counts (run_policy: Nodes mode only; host_units is empty then)
    const bool by_counts = w.host_units.empty() && w.mode == UnitMode::Nodes;
    int rem_nodes = gpu_job ? 1 : w.nodes;  // per-job GRES: rem_nodes = MIN(min, req)
    int rem_gpus = gpu_job ? w.demand : 0;
    int max_nodes = gpu_job ? ix.n_hosts : w.nodes;  // the caller walks node ranges from the top

    std::vector<int> sw_cnt;  // switch_node_cnt
    std::vector<std::uint64_t> sw_map;
    std::vector<std::uint64_t> node_map;
    auto map_of = [&](std::size_t i) { return sw_map.data() + ix.sw_off[i]; };
    int top = -1;
    if (by_counts) {
        top = slurm_counts_from_caps(w, rem_nodes, sw_cnt);
        if (top == -1) return false;
    } else {
        // node_map: nodes that can run the job (what cons_tres passes in after evaluating
        // every node of the partition). The node_weight_list's one group (node weights are
        // not modelled) is the same map: weight_map = node_map.
        node_map.assign(nw, 0);
        int weight_cnt = 0;
        for (std::uint32_t h = 0; h < static_cast<std::uint32_t>(ix.n_hosts); ++h) {
            if (w.host_units[h] > 0) {
                bit_set(node_map.data(), h);
                ++weight_cnt;
            }
        }
        if (weight_cnt == 0) return false;  // "node_map is empty"

        // switch_node_bitmap[i] = switch_record_table[i].node_bitmap AND node_map, on the
        // words where the switch has nodes (Index::sw_lo/sw_hi: the other words are 0 in
        // every map below, so Slurm's whole-bitmap operations come out the same): the work
        // per switch is its own nodes' words, not the cluster's.
        sw_map.assign(ix.sw_off[m], 0);
        sw_cnt.assign(m, 0);
        for (std::size_t i = 0; i < m; ++i) {
            const std::uint32_t lo = ix.sw_lo[i];
            const std::uint32_t hi = ix.sw_hi[i];
            const std::uint64_t* bits = ix.sw_bits.data() + i * nw;
            std::uint64_t* sm = map_of(i);
            for (std::uint32_t k = lo; k < hi; ++k) {
                sm[k - lo] = bits[k] & node_map[k];
                sw_cnt[i] += std::popcount(sm[k - lo]);
            }
            if (sw_cnt[i] < rem_nodes) continue;  // _enough_nodes
            // _topo_node_find: the switch's map overlaps weight_map (= node_map, which holds it)
            if (sw_cnt[i] > 0 && (top == -1 || ix.sw[i].level >= ix.sw[static_cast<std::size_t>(top)].level)) {
                top = static_cast<int>(i);
            }
        }
        std::fill(node_map.begin(), node_map.end(), 0);  // bit_clear_all(node_map)
        if (top == -1) return false;                     // unable to identify top level switch
        const auto topi = static_cast<std::size_t>(top);
        const std::uint32_t top_lo = ix.sw_lo[topi];
        const std::uint32_t top_hi = ix.sw_hi[topi];
        const std::uint64_t* top_map = map_of(topi);
        // Best set: the nodes of the (only) weight group under the top switch (all of them
        // have resources: node_map held only those), i.e. the top switch's map.
        int best_cnt = 0;
        long best_gpus = 0;  // gres_sched_consec
        for (std::uint32_t k = top_lo; k < top_hi; ++k) {
            best_cnt += std::popcount(top_map[k - top_lo]);
            if (!gpu_job) continue;
            for (std::uint64_t x = top_map[k - top_lo]; x != 0; x &= x - 1)
                best_gpus += w.host_units[k * 64 + static_cast<std::uint32_t>(std::countr_zero(x))];
        }
        if (best_cnt < rem_nodes || (gpu_job && best_gpus < rem_gpus)) return false;  // !sufficient
        // Remove nodes that cannot be reached from the top switch, i.e. switch entries
        // restricted to the best set (the top switch's map).
        for (std::size_t i = 0; i < m; ++i) {
            if (i == topi) continue;
            const std::uint32_t lo = ix.sw_lo[i];
            const std::uint32_t hi = ix.sw_hi[i];
            std::uint64_t* sm = map_of(i);
            sw_cnt[i] = 0;
            for (std::uint32_t k = lo; k < hi; ++k) {
                sm[k - lo] &= k >= top_lo && k < top_hi ? top_map[k - top_lo] : 0;
                sw_cnt[i] += std::popcount(sm[k - lo]);
            }
        }
    }
    const auto topi = static_cast<std::size_t>(top);

    // Greedy leaf selection (switches_dist over every switch).
    SlurmSel sel{&ix, std::move(sw_cnt), w.tree2405};
    std::vector<long> dist(m, 0);
    int leaves_used = 0;
    int prev_rem = rem_nodes + 1;
    bool done = false;
    std::vector<int> order_used;
    // Take host h (in the leaf's map, not taken yet, with units); false = stop the leaf.
    auto take = [&](std::uint32_t h) {
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
            return false;
        }
        return true;
    };
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
        // the leaf's nodes in bitmap order
        const auto b = static_cast<std::size_t>(bsw);
        if (by_counts) {
            // the leaf's map: its hosts (id order = bitmap order) with units; it is inside the
            // top switch's map (its count after the restriction is not 0), and no leaf's
            // host was taken before (leaves are disjoint, each is used once)
            for (auto h : ix.leaf_hosts[b]) {
                if (max_nodes <= 0) break;
                if (unit_of(w, h) <= 0) continue;
                if (!take(h)) break;
            }
        } else {
            const std::uint64_t* leaf_map = map_of(b);
            bool stop = false;
            for (std::uint32_t k = ix.sw_lo[b]; k < ix.sw_hi[b] && !stop; ++k) {
                for (std::uint64_t x = leaf_map[k - ix.sw_lo[b]]; x != 0; x &= x - 1) {
                    if (max_nodes <= 0) {
                        stop = true;
                        break;
                    }
                    const std::uint32_t h = k * 64 + static_cast<std::uint32_t>(std::countr_zero(x));
                    if (bit_test(node_map.data(), h) || w.host_units[h] <= 0) continue;
                    bit_set(node_map.data(), h);
                    if (!take(h)) {
                        stop = true;
                        break;
                    }
                }
            }
        }
        if (sel.v2405) {  // _decrement_node_cnt(switch_node_cnt[best], best): every switch above
            const int used = sel.cnt[b];
            for (int p = ix.sw[b].parent; p >= 0; p = ix.sw[static_cast<std::size_t>(p)].parent)
                sel.cnt[static_cast<std::size_t>(p)] = std::max(0, sel.cnt[static_cast<std::size_t>(p)] - used);
        }
        sel.cnt[b] = 0;  // used all
    }
    if (!done) return false;
    // --switches: more leaves than allowed means "waiting for switches" (pending).
    if (w.req.max_leaves > 0 && leaves_used > w.req.max_leaves) return false;
    std::ostringstream o;
    o << (w.tree2405 ? "Slurm 24.05.3+ tree" : "Slurm 22.05 tree") << ": top switch " << ix.sw[topi].name
      << ", leaves in order";
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
