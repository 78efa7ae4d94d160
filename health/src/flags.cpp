// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <utility>

#include <topo/health/flags.hpp>
#include <topo/health/store.hpp>

namespace topo::health {

namespace {

/// What one record flags: nothing (healthy), its host, or a name the topology lacks.
void add_flag(const Topology& topo, const Record& rec, HealthFlags& out) {
    if (rec.verdict == Verdict::Healthy) return;
    auto h = topo.find_host(rec.node);
    if (!h) {
        out.unknown.push_back(rec.node);
        return;
    }
    if (rec.verdict == Verdict::Unhealthy) out.unhealthy.emplace_back(*h, rec.reason);
    if (rec.verdict == Verdict::Degraded) out.degraded.emplace_back(*h, degraded_slowdown(rec));
}

}  // namespace

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
    for (const auto& rec : *recs) add_flag(topo, rec, out);
    return out;
}

FlagsReader::FlagsReader(const Topology& topo, std::string store_dir, StoreOptions opts)
    : topo_(&topo), store_(std::move(store_dir), opts) {}

Result<bool> FlagsReader::refresh(std::size_t max_reads, std::vector<std::string>* warnings) {
    auto r = store_.refresh(max_reads, warnings);
    if (!r) return fail(std::move(r).error());
    if (!r->changed) return false;
    HealthFlags out;
    for (const auto& [name, rec] : store_.records()) add_flag(*topo_, rec, out);
    const bool changed = out.unhealthy != flags_.unhealthy || out.degraded != flags_.degraded;
    flags_ = std::move(out);
    return changed;
}

}  // namespace topo::health
