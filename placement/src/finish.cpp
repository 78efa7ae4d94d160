// SPDX-License-Identifier: Apache-2.0
// place(): the common finishing of every policy's choice: hosts and GPUs in order, metrics, explanation (see
// internal.hpp).
#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <string>
#include <vector>

#include <topo/hostlist.hpp>
#include <topo/placement/place.hpp>

#include "internal.hpp"

namespace topo::placement {

// ------------------------------------------------------------------ finishing

namespace {

/// Append host h's first k free GPU indices to `out` as its next list; returns how many.
int pick_gpu_indices(const Work& w, std::uint32_t h, int k, GpuLists& out) {
    // 0, 1, 2, ...: the list of a host with no busy GPU listed, copied (hosts of up to 64 GPUs)
    static constexpr auto kFirst = [] {
        std::array<int, 64> a{};
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int>(i);
        return a;
    }();
    const int total = w.briefs[h].total;
    const int n = std::max(0, std::min(k, total));
    if (!w.briefs[h].busy_listed && n <= static_cast<int>(kFirst.size())) {  // the first n of 0..total-1
        out.push_host(kFirst.data(), kFirst.data() + n);
        return n;
    }
    int* dst = out.open_host(static_cast<std::size_t>(n));
    if (n == 0) return 0;
    if (!w.briefs[h].busy_listed) {
        for (int g = 0; g < n; ++g) dst[g] = g;
        return n;
    }
    const auto& busy = w.state->at(HostId{h}).busy_gpus;
    int got = 0;
    auto b = busy.begin();  // sorted: walk it along g instead of a search per GPU
    for (int g = 0; g < total && got < n; ++g) {
        while (b != busy.end() && *b < g) ++b;
        if (b == busy.end() || *b != g) dst[got++] = g;
    }
    out.trim_last(static_cast<std::size_t>(n - got));
    return got;
}

}  // namespace

template <class T>
void sort_runs(std::vector<T>& v) {
    std::vector<std::size_t> bounds{0};  // run starts, then v.size()
    for (std::size_t i = 1; i < v.size(); ++i) {
        if (v[i] < v[i - 1]) bounds.push_back(i);
    }
    bounds.push_back(v.size());
    if (bounds.size() <= 2) return;  // one run: sorted
    std::vector<T> buf(v.size());
    {
        // Leaf groups usually hold disjoint id ranges: then the runs, ordered by their
        // first key, do not overlap and the answer is their concatenation (no merge).
        const std::size_t nr = bounds.size() - 1;
        std::vector<std::size_t> runs(nr);
        std::iota(runs.begin(), runs.end(), std::size_t{0});
        std::sort(runs.begin(), runs.end(), [&](std::size_t a, std::size_t b) { return v[bounds[a]] < v[bounds[b]]; });
        bool disjoint = true;
        for (std::size_t r = 1; r < nr && disjoint; ++r) disjoint = v[bounds[runs[r - 1] + 1] - 1] < v[bounds[runs[r]]];
        if (disjoint) {
            auto out = buf.begin();
            for (auto r : runs)
                out = std::copy(v.begin() + static_cast<std::ptrdiff_t>(bounds[r]),
                                v.begin() + static_cast<std::ptrdiff_t>(bounds[r + 1]), out);
            v.swap(buf);
            return;
        }
    }
    while (bounds.size() > 2) {  // merge neighbouring runs pairwise
        std::vector<std::size_t> next{0};
        for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
            const auto b0 = static_cast<std::ptrdiff_t>(bounds[r]);
            const auto b1 = static_cast<std::ptrdiff_t>(bounds[r + 1]);
            if (r + 2 < bounds.size()) {
                const auto b2 = static_cast<std::ptrdiff_t>(bounds[r + 2]);
                std::merge(v.begin() + b0, v.begin() + b1, v.begin() + b1, v.begin() + b2, buf.begin() + b0);
                next.push_back(bounds[r + 2]);
            } else {
                std::copy(v.begin() + b0, v.begin() + b1, buf.begin() + b0);
                next.push_back(bounds[r + 1]);
            }
        }
        v.swap(buf);
        bounds = std::move(next);
    }
}

template void sort_runs(std::vector<std::uint64_t>& v);
template void sort_runs(std::vector<std::uint32_t>& v);

void ids_ascending(const std::vector<std::uint32_t>& ids, int n_words, std::vector<std::uint32_t>& out) {
    const std::size_t n = ids.size();
    out.resize(n);
    std::size_t at = 0;
    if (n >= 16 && static_cast<std::size_t>(n_words) <= 4 * n) {
        std::vector<std::uint64_t> bits(static_cast<std::size_t>(n_words), 0);
        // ids come leaf group by leaf group, ascending: OR a word's bits in a register
        std::size_t cur = ids[0] / 64;
        std::uint64_t acc = 0;
        for (auto h : ids) {
            if (h / 64 != cur) {
                bits[cur] |= acc;
                cur = h / 64;
                acc = 0;
            }
            acc |= std::uint64_t{1} << (h % 64);
        }
        bits[cur] |= acc;
        for (std::size_t wd = 0; wd < bits.size(); ++wd) {
            for (std::uint64_t m = bits[wd]; m != 0; m &= m - 1)
                out[at++] = static_cast<std::uint32_t>(wd * 64 + static_cast<unsigned>(std::countr_zero(m)));
        }
        if (at == n) return;  // (else a repeated id: sorted below)
    }
    std::copy(ids.begin(), ids.end(), out.begin());
    sort_runs(out);
}

int tier_of_leaves(const Placer::Index& ix, const std::vector<int>& used) {
    // the level of the lowest switch covering every used leaf
    if (used.size() <= 1) return 0;
    // only the switches above the first used leaf can cover them all
    for (int x : ix.above[static_cast<std::size_t>(used.front())]) {
        const auto& s = ix.sw[static_cast<std::size_t>(x)];
        if (s.leaves.size() < used.size()) continue;
        if (static_cast<int>(s.leaves.size()) == ix.n_leaves) return s.level;  // holds every leaf
        if (std::includes(s.leaves.begin(), s.leaves.end(), used.begin(), used.end())) return s.level;
    }
    return ix.top_level + 1;  // not connected (linear policy)
}

int tier_of_choice(const Placer::Index& ix, const Choice& c, std::vector<int>& used) {
    used.clear();
    for (auto h : c.hosts) {  // hosts come leaf group by leaf group: skip the repeats in a row
        const int l = ix.leaf_of_host[h];
        if (used.empty() || used.back() != l) used.push_back(l);
    }
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    return tier_of_leaves(ix, used);
}

Placement finish(const Work& w, Choice& c, Policy policy, const Bounds& b) {
    const auto& ix = *w.ix;
    const Topology& t = *w.topo;
    Placement p;
    p.policy = policy;
    // hosts in natural (= id) order, GPUs with them: one key per host (id, GPUs), ids
    // are distinct, so a plain sort of the keys is the order
    const std::size_t n = c.hosts.size();
    std::vector<std::uint64_t> order(n);
    std::size_t gpu_hint = 0;
    const int k0 = n > 0 ? c.gpus_per_host[0] : 0;
    bool uniform = true;  // every host gets the same GPU count (a whole-node job: usually)
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = static_cast<std::uint32_t>(c.gpus_per_host[i]);
        uniform = uniform && c.gpus_per_host[i] == k0;
        gpu_hint += k;
    }
    if (uniform) {
        // one GPU count: the ids alone in order (a bitmap of them, read back ascending)
        std::vector<std::uint32_t> ids;
        if (c.sorted.size() != n) ids_ascending(c.hosts, ix.n_words, ids);
        const std::vector<std::uint32_t>& in_order = c.sorted.size() == n ? c.sorted : ids;
        const auto k = static_cast<std::uint32_t>(k0);
        for (std::size_t i = 0; i < n; ++i) order[i] = (std::uint64_t{in_order[i]} << 32U) | k;
    } else {
        for (std::size_t i = 0; i < n; ++i)
            order[i] = (std::uint64_t{c.hosts[i]} << 32U) | static_cast<std::uint32_t>(c.gpus_per_host[i]);
        sort_runs(order);
    }
    int gpus_left = w.req.total_gpus > 0 ? w.req.total_gpus : -1;
    p.hosts.resize(order.size());
    p.gpus.reserve(order.size(), gpu_hint);
    // leaves and groups: hosts are in id order, so a leaf group's hosts are mostly
    // consecutive: count runs in a register instead of an increment in memory per host
    std::vector<int> count(static_cast<std::size_t>(ix.n_leaves), 0);
    {
        int degraded = 0;
        int gpus = 0;
        int cur = -1;
        int run = 0;
        // every host gets 0..k0-1 (one GPU count, no total to cut it, no busy GPU listed, k0
        // at most each host's total): the GPU lists in one go after the loop
        bool bulk = uniform && gpus_left < 0 && k0 >= 0 && k0 <= 64;
        HostId* out = p.hosts.data();
        for (auto key : order) {
            const auto h = static_cast<std::uint32_t>(key >> 32U);
            const ClusterState::Brief& br = w.briefs[h];
            degraded += br.degraded ? 1 : 0;
            bulk = bulk && !br.busy_listed && br.total >= k0;
            *out++ = HostId{h};
            const int l = ix.leaf_of_host[h];
            if (l != cur) {
                if (cur >= 0) count[static_cast<std::size_t>(cur)] += run;
                cur = l;
                run = 0;
            }
            ++run;
        }
        if (cur >= 0) count[static_cast<std::size_t>(cur)] += run;
        if (bulk) {
            p.gpus.push_hosts_first(n, k0);
            gpus = static_cast<int>(n) * k0;
        } else {
            for (auto key : order) {
                const auto h = static_cast<std::uint32_t>(key >> 32U);
                int k = static_cast<int>(static_cast<std::uint32_t>(key));
                if (gpus_left >= 0) {
                    k = std::min(k, gpus_left);
                    gpus_left -= k;
                }
                gpus += pick_gpu_indices(w, h, k, p.gpus);
            }
        }
        p.degraded_hosts = degraded;
        p.total_gpus = gpus;
    }
    std::vector<std::uint32_t> phys;  // sorted + unique below (no node allocations)
    std::vector<std::uint32_t> doms;
    if (!ix.domains.empty()) {
        for (auto h : p.hosts) {
            const int d = ix.domain_of_host[h.index()];
            if (d >= 0) doms.push_back(ix.domains[static_cast<std::size_t>(d)].id.index());
        }
    }
    std::sort(doms.begin(), doms.end());
    doms.erase(std::unique(doms.begin(), doms.end()), doms.end());
    std::vector<int> used;
    used.reserve(std::min<std::size_t>(p.hosts.size(), static_cast<std::size_t>(ix.n_leaves)));
    p.groups.reserve(used.capacity());
    const int per_group = ix.leaf_switch_count.empty() ? 1 : std::max(1, ix.leaf_switch_count.front());
    phys.reserve(used.capacity() * static_cast<std::size_t>(per_group));
    for (int l = 0; l < ix.n_leaves; ++l) {
        if (count[static_cast<std::size_t>(l)] == 0) continue;
        used.push_back(l);
        const auto g = ix.sw[static_cast<std::size_t>(l)].group;
        p.groups.push_back(g);
        for (auto s : t.groups()[g.index()].leaves) phys.push_back(s.index());
    }
    if (!std::is_sorted(phys.begin(), phys.end())) std::sort(phys.begin(), phys.end());
    phys.erase(std::unique(phys.begin(), phys.end()), phys.end());
    std::sort(p.groups.begin(), p.groups.end());
    p.leaves.reserve(phys.size());
    for (auto s : phys) p.leaves.emplace_back(s);
    for (auto d : doms) p.nvl_domains.emplace_back(d);
    p.max_tier = tier_of_leaves(ix, used);
    // switches touched per level (along Slurm's parent chain)
    p.switches_per_level.assign(static_cast<std::size_t>(ix.top_level) + 1, 0);
    std::vector<bool> seen(ix.sw.size(), false);
    for (int l : used) {
        for (int x = l; x >= 0 && !seen[static_cast<std::size_t>(x)]; x = ix.sw[static_cast<std::size_t>(x)].parent) {
            seen[static_cast<std::size_t>(x)] = true;
            ++p.switches_per_level[static_cast<std::size_t>(ix.sw[static_cast<std::size_t>(x)].level)];
        }
    }
    // summed pairwise hops: 2 inside a leaf group, switch distance + 2 across
    long hops = 0;
    for (std::size_t i = 0; i < used.size(); ++i) {
        const long ci = count[static_cast<std::size_t>(used[i])];
        hops += ci * (ci - 1) / 2 * 2;
        for (std::size_t j = i + 1; j < used.size(); ++j) {
            const long cj = count[static_cast<std::size_t>(used[j])];
            hops += ci * cj * (ix.d(used[i], used[j]) + 2);
        }
    }
    p.hop_sum = hops;
    p.lower_bound_groups = b.groups;
    p.lower_bound_leaves = b.leaf_switches;
    p.lower_bound_tier = b.tier;
    // explanation
    // (string appends: an ostringstream costs about a microsecond to set up)
    std::string& e = p.explanation;
    e.reserve(160 + c.why.size());
    e += policy_name(policy);
    e += ": ";
    e += std::to_string(p.hosts.size());
    e += " host(s)";
    if (p.total_gpus > 0) {
        e += ", ";
        e += std::to_string(p.total_gpus);
        e += " GPU(s)";
    }
    e += " on ";
    e += std::to_string(p.groups.size());
    e += " leaf group(s) (";
    e += std::to_string(p.leaves.size());
    e += " leaf switch(es)), tier ";
    e += std::to_string(p.max_tier);
    e += "; lower bound ";
    e += std::to_string(b.groups);
    e += " group(s), tier ";
    e += std::to_string(b.tier);
    e += ". ";
    e += c.why;
    while (!p.explanation.empty() && p.explanation.back() == ' ') p.explanation.pop_back();
    return p;
}

}  // namespace topo::placement
