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

bool choose_slurm_tree(const Work& w, Choice& out) {
    const auto& ix = *w.ix;
    const std::size_t m = ix.sw.size();
    if (m == 0) return false;
    const bool gpu_job = w.mode == UnitMode::Gpus;
    int rem_nodes = gpu_job ? 1 : w.nodes;  // per-job GRES: rem_nodes = MIN(min, req)
    int rem_gpus = gpu_job ? w.demand : 0;
    int max_nodes = gpu_job ? ix.n_hosts : (w.req.nodes_max > 0 ? w.req.nodes_max : w.nodes);
    if (!gpu_job) max_nodes = w.nodes;  // the caller walks node ranges from the top

    // switch_node_cnt = available nodes below each switch (node_map = eligible hosts).
    SlurmSel sel{&ix, std::vector<int>(m, 0)};
    std::vector<int> leaf_nodes(static_cast<std::size_t>(ix.n_leaves), 0);
    for (int l = 0; l < ix.n_leaves; ++l) {
        int c = 0;
        for (auto h : ix.leaf_hosts[static_cast<std::size_t>(l)])
            c += w.host_units[h] > 0 ? 1 : 0;
        leaf_nodes[static_cast<std::size_t>(l)] = c;
    }
    for (std::size_t i = 0; i < m; ++i) {
        int c = 0;
        for (int l : ix.sw[i].leaves)
            c += leaf_nodes[static_cast<std::size_t>(l)];
        sel.cnt[i] = c;
    }
    // Top switch: highest level with enough nodes; the last such one in table order.
    int top = -1;
    for (std::size_t i = 0; i < m; ++i) {
        if (sel.cnt[i] < rem_nodes) continue;
        if (top == -1 || ix.sw[i].level >= ix.sw[static_cast<std::size_t>(top)].level) top = static_cast<int>(i);
    }
    if (top == -1) return false;
    // Only nodes under the top switch remain (switch bitmaps AND top's bitmap).
    const auto& top_leaves = ix.sw[static_cast<std::size_t>(top)].leaves;
    std::vector<bool> under(static_cast<std::size_t>(ix.n_leaves), false);
    for (int l : top_leaves)
        under[static_cast<std::size_t>(l)] = true;
    long top_gpus = 0;
    for (std::size_t i = 0; i < m; ++i) {
        int c = 0;
        for (int l : ix.sw[i].leaves)
            c += under[static_cast<std::size_t>(l)] ? leaf_nodes[static_cast<std::size_t>(l)] : 0;
        sel.cnt[i] = c;
    }
    if (gpu_job) {
        for (int l : top_leaves) {
            for (auto h : ix.leaf_hosts[static_cast<std::size_t>(l)])
                top_gpus += w.host_units[h];
        }
        if (top_gpus < rem_gpus) return false;  // gres_sched_sufficient
    }
    if (sel.cnt[static_cast<std::size_t>(top)] < rem_nodes) return false;

    // Greedy leaf selection.
    std::vector<long> dist(m, 0);
    std::vector<bool> taken_host;  // lazily sized
    taken_host.assign(static_cast<std::size_t>(ix.n_hosts), false);
    int leaves_used = 0;
    int prev_rem = rem_nodes + 1;
    bool done = false;
    std::vector<int> order_used;
    while (!done) {
        if (prev_rem == rem_nodes && !gpu_job) break;  // stalled
        prev_rem = rem_nodes;
        int best = -1;
        for (int i = 0; i < ix.n_leaves; ++i)
            sel.choose_best(dist, rem_nodes, i, best);
        if (best == -1) break;
        for (std::size_t j = 0; j < m; ++j) {  // _topo_add_dist
            const long dj = ix.d(best, static_cast<int>(j));
            dist[j] = (dist[j] >= kInfinite || dj >= kInfinite) ? kInfinite : dist[j] + dj;
        }
        ++leaves_used;
        order_used.push_back(best);
        for (auto h : ix.leaf_hosts[static_cast<std::size_t>(best)]) {
            if (max_nodes <= 0) break;
            if (w.host_units[h] <= 0 || taken_host[h]) continue;
            taken_host[h] = true;
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
        sel.cnt[static_cast<std::size_t>(best)] = 0;  // used all
    }
    if (!done) return false;
    // --switches: more leaves than allowed means "waiting for switches" (pending).
    if (w.req.max_leaves > 0 && leaves_used > w.req.max_leaves) return false;
    std::ostringstream o;
    o << "Slurm 22.05 tree: top switch " << ix.sw[static_cast<std::size_t>(top)].name << ", leaves in order";
    for (int l : order_used)
        o << " " << ix.sw[static_cast<std::size_t>(l)].name;
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
