// SPDX-License-Identifier: Apache-2.0
// Live node state through libslurm (see slurm_nodes.hpp).
#include "slurm_nodes.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include <topo/placement/slurm_state.hpp>

#include "slurm_compat.hpp"
#include <time.h>

namespace topo::spank {

std::int64_t realtime_ns() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

namespace {

/// The GPUs of a Gres=/GresUsed= string (placement's parser): 0 when none, kMaxHostGpus at
/// most (a slurm.conf typo must not blow up the state's per-group histograms).
int gpus_of(const char* gres) {
    if (gres == nullptr) return 0;
    const auto n = placement::gres_gpu_count(gres);
    return n ? n->value_or(0) : placement::kMaxHostGpus;
}

placement::ClusterState to_state(const Topology& topo, const node_info_msg_t& msg) {
    placement::ClusterState st(topo);
    for (uint32_t i = 0; i < msg.record_count; ++i) {
        const node_info_t& n = msg.node_array[i];
        if (n.name == nullptr) continue;
        auto h = topo.find_host(n.name);
        if (!h) continue;
        placement::HostState hs = st.at(*h);
        const uint32_t base = n.node_state & NODE_STATE_BASE;
        const uint16_t alloc_cpus = compat::alloc_cpus(n);
        const compat::ExtraState extra = compat::extra_state(n);
        const int total_gpus = gpus_of(n.gres);
        const int used_gpus = gpus_of(n.gres_used);
        if ((n.node_state & (NODE_STATE_DRAIN | NODE_STATE_FAIL)) != 0) {
            hs.state = placement::NodeState::Drain;
        } else if (base == NODE_STATE_DOWN || (n.node_state & NODE_STATE_NO_RESPOND) != 0
                   || extra == compat::ExtraState::External) {
            hs.state = placement::NodeState::Down;
        } else if (extra == compat::ExtraState::Blocked) {
            // healthy, but another job's exclusive topology holds its block: not allocatable now
            hs.state = placement::NodeState::Alloc;
        } else if (base == NODE_STATE_ALLOCATED && alloc_cpus >= n.cpus
                   && (total_gpus == 0 || used_gpus >= total_gpus)) {
            hs.state = placement::NodeState::Alloc;
        } else if (base == NODE_STATE_ALLOCATED || base == NODE_STATE_MIXED || alloc_cpus > 0 || used_gpus > 0) {
            hs.state = placement::NodeState::Mixed;
        } else if (base == NODE_STATE_IDLE) {
            hs.state = placement::NodeState::Idle;
        } else {
            hs.state = placement::NodeState::Unknown;
        }
        if (total_gpus > 0) hs.free_gpus = std::max(0, total_gpus - used_gpus);
        if (n.reason != nullptr) hs.reason = n.reason;
        st.set(*h, std::move(hs));
    }
    return st;
}

}  // namespace

Result<std::optional<placement::ClusterState>> load_node_state_since(const Topology& topo, std::time_t* last_update) {
    node_info_msg_t* msg = nullptr;
    const std::time_t since = last_update != nullptr ? *last_update : 0;
    if (slurm_load_node(since, &msg, SHOW_ALL) != SLURM_SUCCESS || msg == nullptr) {
        const int e = compat::last_error();
        if (since != 0 && e == SLURM_NO_CHANGE_IN_DATA) return std::optional<placement::ClusterState>{};
        return fail(Errc::Io, std::string("slurm_load_node: ") + slurm_strerror(e));
    }
    std::unique_ptr<node_info_msg_t, void (*)(node_info_msg_t*)> guard(msg, slurm_free_node_info_msg);
    if (last_update != nullptr) *last_update = msg->last_update;
    return std::optional<placement::ClusterState>(to_state(topo, *msg));
}

Result<placement::ClusterState> load_node_state(const Topology& topo) {
    auto r = load_node_state_since(topo, nullptr);
    if (!r) return fail(std::move(r).error());
    return std::move(**r);
}

}  // namespace topo::spank
