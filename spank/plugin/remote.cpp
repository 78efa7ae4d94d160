// SPDX-License-Identifier: Apache-2.0
// slurmstepd (S_CTX_REMOTE): the snapshot once per step (user_init), then each task's rail
// environment (task_init): NCCL_IB_HCA, UCX_NET_DEVICES and TOPOPLACE_* from the NICs nearest
// to the task's GPUs. Never fails a step: a failing user_init or task_init drains the node.
#include <algorithm>

#include <topo/hostlist.hpp>

#include "shell.h"
#include "shell.hpp"

using namespace topo;
using namespace topo::spank;
using namespace topo::spank::plugin;

namespace {

/// Physical GPU indices of this task: CUDA_VISIBLE_DEVICES when its values are physical
/// (members of SLURM_STEP_GPUS/SLURM_JOB_GPUS, i.e. no device cgroup renumbering), else
/// the step's (or job's) GPU list.
std::vector<int> task_gpus(spank_t sp) {
    auto parse = [](const std::string& s) {
        auto v = parse_gpu_list(s);
        return v ? *v : std::vector<int>{};
    };
    std::vector<int> cvd = parse(spank_env(sp, "CUDA_VISIBLE_DEVICES"));
    std::vector<int> step = parse(spank_env(sp, "SLURM_STEP_GPUS"));
    if (step.empty()) step = parse(spank_env(sp, "SLURM_JOB_GPUS"));
    if (step.empty()) return cvd;
    if (cvd.empty()) return step;
    for (int g : cvd) {
        if (std::find(step.begin(), step.end(), g) == step.end()) return step;
    }
    return cvd;
}

}  // namespace

extern "C" {

int topo_remote_user_init(spank_t /*sp*/) noexcept {
    return guarded("user_init", [&]() -> int {
        Ctx* c = configured();
        if (c == nullptr || !c->cfg.rail_env || c->cfg.snapshot.empty() || effective_mode(*c) == Mode::Off) return 0;
        auto topo = load_model(c->cfg.snapshot);
        if (!topo) {
            // never fail a step from here (a failing user_init drains the node)
            slurm_error("topoplace: no rail environment: %s", topo.error().to_string().c_str());
            return 0;
        }
        c->topo = *topo;
        return 0;
    });
}

int topo_remote_task_init(spank_t sp) noexcept {
    return guarded("task_init", [&]() -> int {
        Ctx* c = configured();
        if (c == nullptr || c->topo == nullptr) return 0;
        const std::string node = spank_env(sp, "SLURMD_NODENAME");
        if (node.empty()) return 0;
        std::vector<std::string> hosts;
        if (auto h = expand_hostlist(spank_env(sp, "SLURM_JOB_NODELIST")); h) hosts = *h;
        auto env = task_env(*c->topo, node, task_gpus(sp), hosts);
        if (!env) {
            slurm_verbose("topoplace: %s", env.error().message.c_str());
            return 0;
        }
        // A variable counts as ours when TOPOPLACE_OWNED records the value it has now
        // (e.g. inherited from the batch step by srun); anything else was set by the user.
        const std::string owned = spank_env(sp, "TOPOPLACE_OWNED");
        auto ours = [&](const std::string& k, const std::string& cur) {
            return owned.find("|" + k + "=" + cur + "|") != std::string::npos;
        };
        std::string now_owned = "|";
        for (const auto& [k, v] : env->vars) {
            if (has_spank_env(sp, k.c_str())) {
                const std::string cur = spank_env(sp, k.c_str());
                if (!ours(k, cur)) continue;  // set explicitly: leave it
            }
            spank_setenv(sp, k.c_str(), v.c_str(), 1);
            now_owned.append(k).append("=").append(v).append("|");
        }
        spank_setenv(sp, "TOPOPLACE_OWNED", now_owned.c_str(), 1);
        return 0;
    });
}

}  // extern "C"
