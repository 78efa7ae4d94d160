// SPDX-License-Identifier: Apache-2.0
// TopologyAccess::finish: the inference shared by TopologyBuilder::freeze and the
// snapshot loader (tiers, rails, leaf groups, NVLink domains, indexes, fingerprint).
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "topology_impl.hpp"

namespace topo {

namespace {

constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();

/// FNV-1a over the model's canonical fields (not over JSON text: serialising a
/// 100k-GPU model just to hash it cost a third of a snapshot load).
class Fnv {
public:
    void bytes(const void* p, std::size_t n) {
        const auto* c = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) {
            h_ ^= c[i];
            h_ *= 1099511628211ULL;
        }
    }

    Fnv& operator<<(std::string_view s) {
        const std::uint64_t n = s.size();
        bytes(&n, sizeof n);
        bytes(s.data(), s.size());
        return *this;
    }

    Fnv& operator<<(const std::string& s) { return *this << std::string_view(s); }

    Fnv& operator<<(std::int64_t v) {
        bytes(&v, sizeof v);
        return *this;
    }

    Fnv& operator<<(int v) { return *this << static_cast<std::int64_t>(v); }

    Fnv& operator<<(std::uint32_t v) { return *this << static_cast<std::int64_t>(v); }

    Fnv& operator<<(double v) {
        bytes(&v, sizeof v);
        return *this;
    }

    template <class Tag>
    Fnv& operator<<(Id<Tag> id) {
        return *this << static_cast<std::int64_t>(id.valid() ? static_cast<std::int64_t>(id.index()) : -1);
    }

    [[nodiscard]] std::string hex() const {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
        return buf;
    }

private:
    std::uint64_t h_ = 1469598103934665603ULL;
};

/// Replace bytes that are not valid UTF-8 with '?', so that every string of a frozen
/// model serialises to JSON and reads back identically.
void fix_utf8(std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool ok = len != 0 && i + len <= s.size();
        for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
        if (ok && c < 0x20 && c != '\t') ok = false;  // control characters: keep files printable
        if (!ok) {
            s[i] = '?';
            len = 1;
        }
        i += len;
    }
}

template <class E>
int en(E e) {
    return static_cast<int>(e);
}

struct NaturalLess {
    bool operator()(const std::string& a, const std::string& b) const { return natural_less(a, b); }
};

/// Union-find over dense indexes (path halving).
class DisjointSets {
public:
    explicit DisjointSets(std::size_t n) : parent_(n) {
        for (std::uint32_t i = 0; i < parent_.size(); ++i) parent_[i] = i;
    }

    std::uint32_t find(std::uint32_t x) {
        while (parent_[x] != x) {
            parent_[x] = parent_[parent_[x]];
            x = parent_[x];
        }
        return x;
    }

    void join(std::uint32_t a, std::uint32_t b) { parent_[find(a)] = find(b); }

private:
    std::vector<std::uint32_t> parent_;
};

}  // namespace

Result<TopologyPtr> TopologyAccess::finish(std::shared_ptr<Topology> topo, const std::vector<DeclaredDomain>& declared,
                                           const std::string* known_fingerprint) {
    Topology& t = *topo;
    Topology::Impl& impl = *t.impl_;
    // Inferred fields are recomputed from scratch, whatever the producer left there.
    for (auto& n : t.nics_) n.rail = -1;
    for (auto& h : t.hosts_) h.group = GroupId{};
    for (auto& g : t.gpus_) g.nvl_domain = DomainId{};
    for (auto& s : t.nvswitches_) s.nvl_domain = DomainId{};
    t.groups_.clear();
    t.domains_.clear();

    // ---- links: one per NIC on the fabric (in NIC order), then the switch cables
    {
        std::vector<Link> all;
        all.reserve(t.nics_.size() + t.links_.size());
        for (std::size_t i = 0; i < t.nics_.size(); ++i) {
            const Nic& n = t.nics_[i];
            if (!n.leaf.valid()) continue;
            Link l;
            l.kind = n.provenance == Provenance::Declared ? LinkKind::Declared : LinkKind::Ib;
            l.nic = NicId(static_cast<std::uint32_t>(i));
            l.a = n.leaf;
            l.port_a = n.leaf_port;
            l.gbps = n.rate_gbps;
            l.rate = n.rate;
            all.push_back(std::move(l));
        }
        for (auto& l : t.links_) {
            if (!l.nic.valid()) all.push_back(std::move(l));
        }
        t.links_ = std::move(all);
    }

    // ---- switch graph from the cables
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const auto& l : t.links_) {
        if (l.nic.valid() || !l.a.valid() || !l.b.valid() || l.a == l.b) continue;  // loopbacks: no edge
        edges.emplace_back(l.a.index(), l.b.index());
        edges.emplace_back(l.b.index(), l.a.index());
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    impl.graph = SwitchGraph(boost::edges_are_sorted, edges.begin(), edges.end(), t.switches_.size());

    // ---- tiers: BFS distance from the leaves (docs/discover.md "Tiers"). The rules, in order:
    //  1. a switch a compute host plugs into is a leaf;
    //  2. a switch that holds only service or unnamed hosts (UFM/SM servers, login nodes,
    //     storage targets) is a leaf unless a compute leaf is its neighbour: management
    //     servers cabled straight to a spine must not pull that spine down to tier 0
    //     (and with it flatten the tiers above). With no compute host at all, every
    //     populated switch is a leaf;
    //  3. a host-less switch cabled to a leaf is above it, never a leaf; one with a single
    //     neighbour switch (not a leaf) is an unpopulated leaf hanging off one spine
    //     (Selene's management leaf MLG01-05);
    //  1b. a switch with compute hosts that is cabled to every other leaf (a hub of at
    //     least two) is a spine, whatever hangs on it; its hosts become service hosts;
    //  4. a host-less switch whose neighbours are all neighbours of one leaf is an empty
    //     leaf (a ToR not yet populated, cabled to some or all of that pod's spines). A
    //     super-spine joins spines of several pods, or it would not be needed (rule 6).
    //     So is one cabled only to switches of one pod, most of them one leaf's (4b: its
    //     uplinks differ from each populated ToR's, which miss a cable each);
    //  Loopback cables (a switch port cabled to another port of the same switch) are not
    //  edges of the graph: they say nothing about tiers.
    std::vector<SwitchId> leaves;
    {
        std::vector<int> degree(t.switches_.size(), 0);
        for (const auto& [a, b2] : edges) ++degree[a];  // edges are unique and directed both ways
        std::vector<std::vector<std::uint32_t>> nbrs(t.switches_.size());
        for (const auto& [a, b2] : edges) nbrs[a].push_back(b2);  // sorted: edges are sorted
        std::set<SwitchId> compute_leaves;
        std::map<SwitchId, std::vector<HostId>> other_leaves;  // switch -> its non-compute hosts
        for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
            const Host& h = t.hosts_[hi];
            for (auto nid : h.nics) {
                const Nic& n = t.nics_[nid.index()];
                if (!n.leaf.valid()) continue;
                if (h.role == HostRole::Compute) {
                    compute_leaves.insert(n.leaf);
                } else {
                    auto& v = other_leaves[n.leaf];
                    if (v.empty() || v.back().index() != hi) v.emplace_back(static_cast<std::uint32_t>(hi));
                }
            }
        }
        // rule 1b: a populated switch cabled to every other leaf is a spine by structure,
        // whatever hangs on it (two servers cabled to one spine of a 2-tier fabric made
        // it a seventh leaf). A switch with compute hosts is a candidate when it is cabled
        // to at least two compute leaves, each with fewer compute-leaf neighbours than it
        // has (a mesh of leaves has no hub); it is a spine when it is cabled to every
        // compute leaf that is not a spine. Its hosts become service hosts: out of the
        // compute hosts and their groups, and out of Slurm's files. A switch holding only
        // service or unnamed hosts and cabled to every compute leaf is the same case
        // (and what a snapshot of the first reads back as), so it gets the same warning.
        std::set<SwitchId> hubs;
        const auto cabled_to_every_leaf = [&](SwitchId sw) {
            const auto& nb = nbrs[sw.index()];
            std::size_t reached = 0;
            for (auto x : nb) reached += compute_leaves.contains(SwitchId(x)) && !hubs.contains(SwitchId(x)) ? 1 : 0;
            std::size_t rest = 0;
            for (const auto& l : compute_leaves) rest += !hubs.contains(l) && l != sw ? 1 : 0;
            return rest >= 2 && reached == rest;
        };
        {
            const auto leaf_degree = [&](std::uint32_t i) {
                const auto& nb = nbrs[i];
                return std::count_if(nb.begin(), nb.end(),
                                     [&](std::uint32_t x) { return compute_leaves.contains(SwitchId(x)); });
            };
            for (const auto& sw : compute_leaves) {
                const auto d = leaf_degree(sw.index());
                const auto& nb = nbrs[sw.index()];
                if (d >= 2 && std::all_of(nb.begin(), nb.end(), [&](std::uint32_t x) {
                        return !compute_leaves.contains(SwitchId(x)) || leaf_degree(x) < d;
                    })) {
                    hubs.insert(sw);
                }
            }
            // keep the candidates that reach every other leaf; dropping one makes it a
            // leaf the others must reach, so repeat until none is dropped
            for (bool dropped = true; dropped;) {
                dropped = false;
                for (auto it = hubs.begin(); it != hubs.end();) {
                    if (cabled_to_every_leaf(*it)) {
                        ++it;
                    } else {
                        it = hubs.erase(it);
                        dropped = true;
                    }
                }
            }
            for (const auto& sw : hubs) {
                compute_leaves.erase(sw);
                for (auto& h : t.hosts_) {
                    if (std::any_of(h.nics.begin(), h.nics.end(),
                                    [&](NicId nid) { return t.nics_[nid.index()].leaf == sw; })) {
                        h.role = HostRole::Service;
                    }
                }
            }
        }
        std::set<SwitchId> ls = compute_leaves;
        std::vector<std::string> raised;  // switches rule 2 keeps off tier 0
        for (const auto& [sw, hs] : other_leaves) {
            if (compute_leaves.contains(sw) || hubs.contains(sw)) continue;
            if (cabled_to_every_leaf(sw)) {
                hubs.insert(sw);  // rule 1b
                continue;
            }
            const auto& nb = nbrs[sw.index()];
            const bool above_compute = std::any_of(
                nb.begin(), nb.end(), [&](std::uint32_t x) { return compute_leaves.contains(SwitchId(x)); });
            if (above_compute) {
                std::string what = t.switches_[sw.index()].name;
                if (what.empty()) what = t.switches_[sw.index()].guid;
                what += " (" + t.hosts_[hs.front().index()].name;
                if (hs.size() > 1) what += " and " + std::to_string(hs.size() - 1) + " more";
                what += ")";
                raised.push_back(std::move(what));
            } else {
                ls.insert(sw);
            }
        }
        if (!hubs.empty()) {
            std::string msg = std::to_string(hubs.size()) +
                              " switch(es) with hosts are cabled to every leaf of the fabric, so they are read as "
                              "spines, whatever hangs on them: ";
            int k = 0;
            for (const auto& sw : hubs) {
                std::vector<std::string> names;
                for (const auto& h : t.hosts_) {
                    if (std::any_of(h.nics.begin(), h.nics.end(),
                                    [&](NicId nid) { return t.nics_[nid.index()].leaf == sw; })) {
                        names.push_back(h.name);
                    }
                }
                if (k++ > 0) msg += "; ";
                msg += switch_label(t.switches_[sw.index()]) + " (";
                for (std::size_t n = 0; n < names.size() && n < 8; ++n) msg += (n > 0 ? ", " : "") + names[n];
                if (names.size() > 8) msg += ", and " + std::to_string(names.size() - 8) + " more";
                msg += ")";
            }
            msg +=
                ". Their hosts are kept out of the compute hosts, the leaf groups they would share and Slurm's "
                "topology (read as service hosts; to run jobs on them, cable them to a leaf switch)";
            t.warnings_.push_back(std::move(msg));
        }
        if (!raised.empty()) {
            std::string msg = std::to_string(raised.size()) +
                              " switch(es) holding only service or unnamed hosts are cabled to compute leaves, so they "
                              "are read as spines, not leaves: ";
            for (std::size_t k = 0; k < raised.size() && k < 3; ++k) msg += (k > 0 ? "; " : "") + raised[k];
            if (raised.size() > 3) msg += "; ...";
            msg += " (if those hosts run jobs, name them in a --node-name-map so that they read as compute hosts)";
            t.warnings_.push_back(std::move(msg));
        }
        const std::set<SwitchId> host_leaves(ls.begin(), ls.end());
        std::vector<SwitchId> empty_leaves;  // rule 4
        std::set<std::vector<std::uint32_t>> leaf_nbrs;
        for (const auto& l : host_leaves) leaf_nbrs.insert(nbrs[l.index()]);
        // The pods of rule 4b: switches a leaf is cabled to, joined through the leaves
        // they share (a director's leaf ASICs of one ToR slot group, a pod's spines).
        std::vector<bool> above_leaf(t.switches_.size(), false);
        DisjointSets pods(t.switches_.size());
        for (const auto& ln : leaf_nbrs) {
            for (auto x : ln) {
                above_leaf[x] = true;
                pods.join(x, ln.front());
            }
        }
        for (std::size_t i = 0; i < t.switches_.size(); ++i) {
            const SwitchId id(static_cast<std::uint32_t>(i));
            if (host_leaves.contains(id) || degree[i] < 1 || host_leaves.empty()) continue;
            const auto& nb = nbrs[i];
            // A leaf's neighbours are never leaves: a host-less switch cabled to a leaf is
            // above it (also a spine of a one-leaf fabric, with that single neighbour).
            if (std::any_of(nb.begin(), nb.end(), [&](std::uint32_t x) { return host_leaves.contains(SwitchId(x)); })) {
                continue;
            }
            if (degree[i] == 1) {
                ls.insert(id);
                continue;
            }
            // 4b: a ToR whose uplinks are no subset of one populated ToR's (each of those
            // misses a cable) is still an empty leaf when it is cabled only to switches
            // of one pod, most of them also a single leaf's. A spine (of a director) or
            // a super-spine joins pods, or shares at most half its cables with a leaf.
            const bool one_pod = std::all_of(nb.begin(), nb.end(), [&](std::uint32_t x) {
                return above_leaf[x] && pods.find(x) == pods.find(nb.front());
            });
            for (const auto& ln : leaf_nbrs) {
                bool empty = ln.size() >= nb.size() && std::includes(ln.begin(), ln.end(), nb.begin(), nb.end());
                if (!empty && one_pod) {
                    std::size_t shared = 0;
                    for (auto x : nb) shared += std::binary_search(ln.begin(), ln.end(), x) ? 1 : 0;
                    empty = 2 * shared > nb.size();
                }
                if (empty) {
                    ls.insert(id);
                    empty_leaves.push_back(id);
                    break;
                }
            }
        }
        leaves.assign(ls.begin(), ls.end());
        if (!empty_leaves.empty()) {
            std::string msg = std::to_string(empty_leaves.size()) +
                              " switch(es) without hosts, cabled only to switches that a leaf is also cabled to, "
                              "are read as empty leaves (tier 0), not a tier above the spines: ";
            for (std::size_t k = 0; k < empty_leaves.size() && k < 3; ++k) {
                const Switch& sw = t.switches_[empty_leaves[k].index()];
                msg += (k > 0 ? ", " : "") + switch_label(sw);
            }
            if (empty_leaves.size() > 3) msg += ", ...";
            t.warnings_.push_back(std::move(msg));
        }
    }
    const auto dist = impl.bfs(leaves);
    int max_tier = -1;
    int orphans = 0;
    for (std::size_t i = 0; i < t.switches_.size(); ++i) {
        if (dist[i] == kUnreached) {
            t.switches_[i].tier = 0;
            ++orphans;
        } else {
            t.switches_[i].tier = static_cast<int>(dist[i]);
        }
        max_tier = std::max(max_tier, t.switches_[i].tier);
    }
    if (orphans > 0) {
        t.warnings_.push_back(std::to_string(orphans) + " switch(es) have no path to any host; counted as tier 0");
    }
    // A top tier that the lower tiers do not need to connect the leaves is not a tier
    // of its own: e.g. PSMN X5's fifth spine, cabled only to two other spines. Demote
    // it (a real core tier joins pods that are otherwise disconnected).
    while (max_tier >= 2) {
        DisjointSets sets(t.switches_.size());
        for (const auto& [a, b2] : edges) {
            if (t.switches_[a].tier < max_tier && t.switches_[b2].tier < max_tier) sets.join(a, b2);
        }
        std::set<std::uint32_t> comps;
        for (const auto& n : t.nics_) {
            if (n.leaf.valid()) comps.insert(sets.find(n.leaf.index()));
        }
        if (comps.size() > 1) break;
        for (auto& sw : t.switches_) {
            if (sw.tier == max_tier) sw.tier = max_tier - 1;
        }
        --max_tier;
    }
    t.tiers_ = max_tier + 1;
    impl.uplinks.assign(t.switches_.size(), {});
    for (const auto& [a, b] : edges) {
        if (t.switches_[b].tier == t.switches_[a].tier + 1) impl.uplinks[a].emplace_back(b);
    }

    // ---- rails (docs/discover.md "Rails"). In a rail-optimised fabric the leaf is the
    // rail: every NIC on one leaf belongs to the same rail, whatever its host calls it.
    //  1. rail hosts: non-service hosts whose NICs sit on distinct leaves (two or more);
    //     the fabric has a rail layout when they are at least half of its non-service
    //     hosts (a few dual-homed login or storage nodes are exceptions, not rails);
    //  2. each NIC of a rail host carries a label, its name (HCA-1, mlx5_0), or its
    //     position on the host when hosts name their HCAs in different schemes (the
    //     labels' union is larger than any host's NIC count) or leave them unnamed;
    //  3. each leaf takes the label most of its rail-host NICs carry (ties: the first in
    //     natural order); a NIC named otherwise still gets its leaf's rail, with a warning;
    //  4. a leaf label that fewer than half of the rail hosts reach is not a rail: a
    //     storage leaf that one HCA of some GPU nodes shares with storage targets. Its
    //     NICs stay on the fabric with no rail and do not split leaf groups (warned);
    //  5. rails are numbered by label in natural order.
    // Service hosts (UFM/SM servers, dual-homed on two leaves for availability) say
    // nothing about a rail layout: they neither count nor get a rail of their own.
    const auto rail_host = [](const Host& h) { return h.role != HostRole::Service; };
    int fabric_hosts = 0;
    int rail_fabric_hosts = 0;  // non-service hosts on the fabric
    std::size_t max_multi = 0;
    std::vector<std::uint32_t> multi_hosts;  // rule 1
    std::vector<std::vector<NicId>> host_fabric_nics(t.hosts_.size());
    bool unnamed = false;
    for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
        const Host& h = t.hosts_[hi];
        std::set<SwitchId> distinct;
        for (auto nid : h.nics) {
            const Nic& n = t.nics_[nid.index()];
            if (!n.leaf.valid()) continue;
            host_fabric_nics[hi].push_back(nid);
            distinct.insert(n.leaf);
        }
        const auto& on = host_fabric_nics[hi];
        if (on.empty()) continue;
        ++fabric_hosts;
        if (rail_host(h)) ++rail_fabric_hosts;
        if (rail_host(h) && on.size() >= 2 && distinct.size() == on.size()) {
            multi_hosts.push_back(static_cast<std::uint32_t>(hi));
            max_multi = std::max(max_multi, on.size());
            for (auto nid : on) {
                if (t.nics_[nid.index()].name.empty()) unnamed = true;
            }
        }
    }
    const bool rail_layout =
        !multi_hosts.empty() && 2 * multi_hosts.size() >= static_cast<std::size_t>(rail_fabric_hosts);
    // rule 2 and 3: labels and each leaf's label
    std::map<NicId, std::string> label_of;
    std::map<SwitchId, std::string> leaf_label;
    int renamed = 0;
    std::string renamed_example;
    std::map<std::string, int, NaturalLess> rail_of_label;
    std::set<SwitchId> side_leaves;
    if (rail_layout) {
        const auto compute_labels = [&](bool by_position) {
            label_of.clear();
            std::map<SwitchId, std::map<std::string, int, NaturalLess>> votes;
            for (auto hi : multi_hosts) {
                const auto& on = host_fabric_nics[hi];
                for (std::size_t k = 0; k < on.size(); ++k) {
                    const Nic& n = t.nics_[on[k].index()];
                    std::string lab = by_position ? "#" + std::to_string(k) : n.name;
                    ++votes[n.leaf][lab];
                    label_of[on[k]] = std::move(lab);
                }
            }
            leaf_label.clear();
            std::set<std::string, NaturalLess> labels;
            for (const auto& [leaf, vs] : votes) {
                const std::string* best = nullptr;
                int most = 0;
                for (const auto& [lab, c] : vs) {
                    if (c > most) {
                        most = c;
                        best = &lab;
                    }
                }
                leaf_label[leaf] = *best;
                labels.insert(*best);
            }
            return labels.size();
        };
        bool by_position = unnamed;
        if (!by_position && compute_labels(false) > max_multi)
            by_position = true;  // labels are names: union > any host
        if (by_position) compute_labels(true);
        // rule 4: how many rail hosts reach each label
        std::map<std::string, std::set<std::uint32_t>, NaturalLess> reach;
        for (auto hi : multi_hosts) {
            for (auto nid : host_fabric_nics[hi]) reach[leaf_label.at(t.nics_[nid.index()].leaf)].insert(hi);
        }
        int r = 0;
        for (const auto& [lab, hs] : reach) {
            if (2 * hs.size() >= multi_hosts.size()) rail_of_label[lab] = r++;
        }
        for (const auto& [leaf, lab] : leaf_label) {
            if (!rail_of_label.contains(lab)) side_leaves.insert(leaf);
        }
        for (const auto& [nid, lab] : label_of) {
            const Nic& n = t.nics_[nid.index()];
            if (lab != leaf_label.at(n.leaf) && !side_leaves.contains(n.leaf)) {
                if (renamed++ == 0) {
                    const std::string& leaf_name = t.switches_[n.leaf.index()].name.empty()
                                                       ? t.switches_[n.leaf.index()].guid
                                                       : t.switches_[n.leaf.index()].name;
                    renamed_example =
                        t.hosts_[n.host.index()].name + " " + (n.name.empty() ? lab : n.name) + " on leaf " + leaf_name
                        + ", whose NICs are "
                        + (by_position ? "at position " + leaf_label.at(n.leaf).substr(1) + " of their hosts"
                                       : leaf_label.at(n.leaf));
                }
            }
        }
        if (renamed > 0) {
            t.warnings_.push_back(std::to_string(renamed)
                                  + " NIC(s) are named unlike most NICs on their rail leaf (e.g. " + renamed_example
                                  + "); their rail follows the leaf they are cabled to");
        }
        if (!side_leaves.empty()) {
            std::map<SwitchId, std::pair<int, int>> seen;  // leaf -> (rail-host NICs, other hosts)
            for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
                const bool mh =
                    std::binary_search(multi_hosts.begin(), multi_hosts.end(), static_cast<std::uint32_t>(hi));
                for (auto nid : host_fabric_nics[hi]) {
                    auto leaf = t.nics_[nid.index()].leaf;
                    if (!side_leaves.contains(leaf)) continue;
                    if (mh) {
                        ++seen[leaf].first;
                    } else {
                        ++seen[leaf].second;
                    }
                }
            }
            std::string msg = std::to_string(side_leaves.size()) + " leaf switch(es) reached by fewer than half of the " +
                              std::to_string(multi_hosts.size()) + " multi-rail hosts are read as storage/side leaves, "
                              "not rails: ";
            int k = 0;
            for (const auto& [leaf, c] : seen) {
                if (k++ == 3) {
                    msg += "; ...";
                    break;
                }
                const Switch& sw = t.switches_[leaf.index()];
                msg += (k > 1 ? "; " : "") + switch_label(sw) + " (" + (by_position ? "NICs" : leaf_label.at(leaf))
                       + " of " + std::to_string(c.first) + " host(s), plus " + std::to_string(c.second)
                       + " other host(s))";
            }
            msg +=
                ". Those NICs keep their cables but no rail and do not split leaf groups "
                "(--hca REGEX names the compute HCAs instead)";
            t.warnings_.push_back(std::move(msg));
        }
        t.rails_ = static_cast<int>(rail_of_label.size());
    } else {
        t.rails_ = fabric_hosts > 0 ? 1 : 0;
    }
    impl.host_leaves.assign(t.hosts_.size(), {});
    for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
        const auto& fabric = host_fabric_nics[hi];
        if (fabric.empty()) continue;
        std::vector<std::pair<int, NicId>> on;
        for (auto nid : fabric) {
            Nic& n = t.nics_[nid.index()];
            auto lab = label_of.find(nid);
            if (side_leaves.contains(n.leaf)) {
                n.rail = -1;  // a side leaf (rule 4): cabled, but not a rail
                continue;
            }
            // not a rail host (or no rail layout): one rail; else its leaf's rail (rule 3)
            n.rail = lab == label_of.end() ? 0 : rail_of_label.at(leaf_label.at(n.leaf));
            on.emplace_back(n.rail, nid);
        }
        if (on.empty()) {  // only side-leaf NICs: their leaves are its leaves
            for (auto nid : fabric) on.emplace_back(0, nid);
        }
        std::stable_sort(on.begin(), on.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        auto& hl = impl.host_leaves[hi];
        for (const auto& [r, nid] : on) {
            const SwitchId leaf = t.nics_[nid.index()].leaf;
            if (std::find(hl.begin(), hl.end(), leaf) == hl.end()) hl.push_back(leaf);
        }
    }

    // ---- leaf groups: hosts with exactly the same leaf set, named in host order
    std::map<std::vector<SwitchId>, GroupId> group_by_leaves;
    for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
        const auto& hl = impl.host_leaves[hi];
        if (hl.empty()) continue;
        std::vector<SwitchId> key(hl.begin(), hl.end());
        std::sort(key.begin(), key.end());
        auto [it, ins] = group_by_leaves.try_emplace(key, GroupId(static_cast<std::uint32_t>(t.groups_.size())));
        if (ins) {
            LeafGroup g;
            char buf[32];
            std::snprintf(buf, sizeof buf, "g%03zu", t.groups_.size() + 1);
            g.name = buf;
            g.leaves = hl;
            t.groups_.push_back(std::move(g));
        }
        t.groups_[it->second.index()].hosts.emplace_back(static_cast<std::uint32_t>(hi));
        t.hosts_[hi].group = it->second;
    }

    // ---- NVLink domains: declared multi-node ones first, then per-host islands
    std::set<HostId> in_multi;
    for (const auto& dd : declared) {
        NvlDomain d;
        d.name = dd.name;
        d.multi_node = true;
        d.usable_hosts = dd.usable_hosts;
        const DomainId did(static_cast<std::uint32_t>(t.domains_.size()));
        for (auto hid : dd.hosts) {
            if (!hid.valid() || hid.index() >= t.hosts_.size()) {
                return fail(Errc::Parse, "NVLink domain " + dd.name + " names a host index out of range");
            }
            if (!in_multi.insert(hid).second) {
                return fail(Errc::Parse, "host " + t.hosts_[hid.index()].name
                                             + " is in two multi-node NVLink domains (second: " + dd.name + ")");
            }
            for (auto gid : t.hosts_[hid.index()].gpus) {
                d.gpus.push_back(gid);
                t.gpus_[gid.index()].nvl_domain = did;
            }
        }
        d.hosts = dd.hosts;
        t.domains_.push_back(std::move(d));
    }
    {
        // union-find over NVLink pairs, per host
        DisjointSets sets(t.gpus_.size());
        std::vector<bool> linked(t.gpus_.size(), false);
        for (const auto& p : t.nvlinks_) {
            linked[p.a.index()] = linked[p.b.index()] = true;
            sets.join(p.a.index(), p.b.index());
        }
        for (std::size_t hi = 0; hi < t.hosts_.size(); ++hi) {
            if (in_multi.contains(HostId(static_cast<std::uint32_t>(hi)))) continue;
            std::map<std::uint32_t, std::vector<GpuId>> comps;
            for (auto gid : t.hosts_[hi].gpus) {
                if (linked[gid.index()]) comps[sets.find(gid.index())].push_back(gid);
            }
            std::vector<std::vector<GpuId>> ordered;
            ordered.reserve(comps.size());
            for (auto& [root, gs] : comps) ordered.push_back(std::move(gs));
            std::sort(ordered.begin(), ordered.end());
            int k = 0;
            for (auto& gs : ordered) {
                NvlDomain d;
                d.name = t.hosts_[hi].name + ":nvl" + std::to_string(k++);
                d.hosts.emplace_back(static_cast<std::uint32_t>(hi));
                const DomainId did(static_cast<std::uint32_t>(t.domains_.size()));
                for (auto gid : gs) t.gpus_[gid.index()].nvl_domain = did;
                d.gpus = std::move(gs);
                t.domains_.push_back(std::move(d));
            }
        }
    }

    // An NVSwitch belongs to the domain of the GPUs cabled to it.
    for (auto& s : t.nvswitches_) {
        for (auto g : s.gpus) {
            if (g.valid() && g.index() < t.gpus_.size() && t.gpus_[g.index()].nvl_domain.valid()) {
                s.nvl_domain = t.gpus_[g.index()].nvl_domain;
                break;
            }
        }
    }

    {
        // Reloading a snapshot re-adds its stored warnings before freeze adds its own:
        // keep the first occurrence of each, so the fingerprint is stable.
        std::set<std::string> seen;
        std::vector<std::string> unique;
        for (auto& w : t.warnings_) {
            if (seen.insert(w).second) unique.push_back(std::move(w));
        }
        t.warnings_ = std::move(unique);
    }
    for (auto& x : t.switches_) {
        fix_utf8(x.guid);
        fix_utf8(x.name);
        fix_utf8(x.description);
    }
    for (auto& x : t.hosts_) fix_utf8(x.name);
    for (auto& x : t.nics_) {
        fix_utf8(x.name);
        fix_utf8(x.guid);
        fix_utf8(x.pci_bus);
        fix_utf8(x.rate);
    }
    for (auto& x : t.gpus_) {
        fix_utf8(x.model);
        fix_utf8(x.pci_bus);
        fix_utf8(x.uuid);
    }
    for (auto& x : t.links_) fix_utf8(x.rate);
    for (auto& x : t.domains_) fix_utf8(x.name);
    for (auto& x : t.nvswitches_) fix_utf8(x.pci_bus);
    for (auto& x : t.warnings_) fix_utf8(x);
    impl.host_by_name.clear();
    for (std::size_t i = 0; i < t.hosts_.size(); ++i)
        impl.host_by_name.emplace(t.hosts_[i].name, HostId(static_cast<std::uint32_t>(i)));
    impl.switch_by_key.clear();
    for (std::size_t i = 0; i < t.switches_.size(); ++i)
        impl.switch_by_key.emplace(t.switches_[i].guid, SwitchId(static_cast<std::uint32_t>(i)));
    if (known_fingerprint != nullptr) {
        t.fingerprint_ = *known_fingerprint;
    } else {
        Fnv f;
        f << std::string_view("topoplace.snapshot/1");
        for (const auto& x : t.switches_)
            f << x.guid << x.name << x.description << x.num_ports << x.tier << en(x.provenance);
        for (const auto& x : t.hosts_) f << x.name << en(x.role) << x.sysimg_guid << x.group << en(x.provenance);
        for (const auto& x : t.nics_) {
            f << x.host << x.name << x.guid << x.pci_bus << x.leaf << x.leaf_port << x.rate << x.rate_gbps << x.numa
              << x.rail << en(x.provenance);
        }
        for (const auto& x : t.gpus_)
            f << x.host << x.index << x.model << x.pci_bus << x.uuid << x.numa << x.nvl_domain;
        for (const auto& x : t.links_)
            f << en(x.kind) << x.nic << x.a << x.b << x.port_a << x.port_b << x.gbps << x.rate;
        for (const auto& x : t.gpu_nic_) f << x.gpu << x.nic << en(x.cls);
        for (const auto& x : t.nvlinks_) f << x.a << x.b << x.links << x.gbps;
        for (const auto& x : t.domains_) {
            f << x.name << static_cast<int>(x.multi_node) << x.usable_hosts << static_cast<int>(x.hosts.size());
            for (auto h : x.hosts) f << h;
            for (auto g : x.gpus) f << g;
        }
        for (const auto& x : t.nvswitches_) {
            f << x.host << x.pci_bus << x.gbps << x.nvl_domain << static_cast<int>(x.gpus.size());
            for (auto g : x.gpus) f << g;
        }
        // Warnings are not hashed: they name input paths, and the fingerprint must
        // identify the topology, not where its files were read from.
        t.fingerprint_ = f.hex();
    }
    return TopologyPtr(std::move(topo));
}

}  // namespace topo
