// SPDX-License-Identifier: Apache-2.0
// The running jobs' hosts through libslurm (see slurm_jobs.hpp).
#include "slurm_jobs.hpp"

#include <memory>
#include <string>

#include <topo/hostlist.hpp>

#include "core.hpp"
#include "slurm_compat.hpp"

namespace topo::spank {

Result<std::optional<std::vector<std::vector<HostId>>>> load_running_jobs_since(const Topology& topo,
                                                                                std::time_t* last_update) {
    using Jobs = std::vector<std::vector<HostId>>;
    job_info_msg_t* msg = nullptr;
    const std::time_t since = last_update != nullptr ? *last_update : 0;
    if (slurm_load_jobs(since, &msg, SHOW_ALL) != SLURM_SUCCESS || msg == nullptr) {
        const int e = compat::last_error();
        if (since != 0 && e == SLURM_NO_CHANGE_IN_DATA) return std::optional<Jobs>{};
        return fail(Errc::Io, std::string("slurm_load_jobs: ") + slurm_strerror(e));
    }
    std::unique_ptr<job_info_msg_t, void (*)(job_info_msg_t*)> guard(msg, slurm_free_job_info_msg);
    if (last_update != nullptr) *last_update = msg->last_update;
    Jobs jobs;
    for (uint32_t i = 0; i < msg->record_count; ++i) {
        const slurm_job_info_t& j = msg->job_array[i];
        if ((j.job_state & JOB_STATE_BASE) != JOB_RUNNING || j.nodes == nullptr || j.num_nodes < 2) continue;
        auto names = expand_hostlist(j.nodes);
        if (!names) continue;
        std::vector<HostId> hosts;
        for (const auto& n : *names)
            if (auto h = topo.find_host(n)) hosts.push_back(*h);
        if (hosts.size() > 1) jobs.push_back(std::move(hosts));
    }
    return std::optional<Jobs>(std::move(jobs));
}

Result<std::size_t> count_queued_jobs(std::string_view partitions) {
    job_info_msg_t* msg = nullptr;
    if (slurm_load_jobs(0, &msg, SHOW_ALL) != SLURM_SUCCESS || msg == nullptr)
        return fail(Errc::Io, std::string("slurm_load_jobs: ") + slurm_strerror(compat::last_error()));
    std::unique_ptr<job_info_msg_t, void (*)(job_info_msg_t*)> guard(msg, slurm_free_job_info_msg);
    std::size_t n = 0;
    for (uint32_t i = 0; i < msg->record_count; ++i) {
        const slurm_job_info_t& j = msg->job_array[i];
        if ((j.job_state & JOB_STATE_BASE) != JOB_PENDING || j.priority == 0) continue;
        if (j.state_reason != WAIT_NO_REASON && j.state_reason != WAIT_PRIORITY && j.state_reason != WAIT_RESOURCES)
            continue;
        if (!partitions_overlap(j.partition != nullptr ? j.partition : "", partitions)) continue;
        ++n;
    }
    return n;
}

}  // namespace topo::spank
