// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include <topo/health/flags.hpp>
#include <topo/health/store.hpp>

namespace topo::health {

void HealthFlags::exclude_degraded(const Topology& topo, std::span<const HostId> used,
                                   std::vector<std::string>& exclude) const {
    if (used.size() < 2) return;
    for (const auto& [h, s] : degraded) {
        if (std::find(used.begin(), used.end(), h) == used.end()) exclude.push_back(topo.host(h).name);
    }
}

Result<HealthFlags> health_flags(const Topology& topo, const std::string& dir, std::vector<std::string>* warnings,
                                 StoreOptions opts) {
    HealthFlags out;
    if (dir.empty()) return out;
    opts.create = false;  // a reader never creates the store
    auto store = Store::open(dir, opts);
    if (!store) return fail(std::move(store).error());
    auto recs = store->list(warnings);
    if (!recs) return fail(std::move(recs).error());
    for (const auto& rec : *recs) {
        if (rec.verdict == Verdict::Healthy) continue;
        auto h = topo.find_host(rec.node);
        if (!h) {
            out.unknown.push_back(rec.node);
            continue;
        }
        if (rec.verdict == Verdict::Unhealthy) out.unhealthy.emplace_back(*h, rec.reason);
        if (rec.verdict == Verdict::Degraded) out.degraded.emplace_back(*h, degraded_slowdown(rec));
    }
    return out;
}

}  // namespace topo::health
