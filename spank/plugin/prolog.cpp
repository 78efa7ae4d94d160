// SPDX-License-Identifier: Apache-2.0
// slurmd's job prolog: the launch gate. health::gate() decides, as `topoplace health gate`
// does (a degraded node is allowed; on_error=fail is its fail-closed mode); a refused node is
// drained with the store's reason before Slurm's own "Prolog error" drain keeps it.
#include <cstdlib>

#include <topo/health/store.hpp>

#include "shell.h"
#include "shell.hpp"
#include "slurm_compat.hpp"

using namespace topo;
using namespace topo::spank;
using namespace topo::spank::plugin;

extern "C" {

int topo_prolog_gate(int ac, char** av) noexcept {
    return guarded("job_prolog", [&]() -> int {
        auto cfg = parse_config(args_of(ac, av));
        if (!cfg) {
            // sbatch/srun already refuse this configuration; a typo must not drain every node
            slurm_error("topoplace: plugstack.conf: %s (launch gate disabled)", cfg.error().message.c_str());
            return 0;
        }
        if (cfg->health.empty()) return 0;
        const bool strict = cfg->on_error == OnError::Fail;
        const char* node = std::getenv("SLURMD_NODENAME");  // NOLINT(concurrency-mt-unsafe): no threads
        const char* job = std::getenv("SLURM_JOB_ID");      // NOLINT(concurrency-mt-unsafe): no threads
        if (node == nullptr || *node == '\0') {
            slurm_error("topoplace: launch gate: SLURMD_NODENAME not set");
            return strict ? -1 : 0;
        }
        const health::GateDecision d =
            health::gate(cfg->health, node, strict ? health::FailMode::Closed : health::FailMode::Open);
        // a store not created yet (every launch until the first check) or a stray entry
        for (const auto& w : d.warnings) slurm_debug("topoplace: launch gate on %s: %s", node, w.c_str());
        if (d.store_error) {
            slurm_error("topoplace: launch gate on %s: %s", node, d.message.c_str());
            return d.allow ? 0 : -1;
        }
        if (d.allow) return 0;
        slurm_error("topoplace: job %s refused on node %s: %s", job != nullptr ? job : "?", node,
                    d.drain_reason.c_str());
        if (cfg->drain) {
            if (const int e = compat::drain_node(node, d.drain_reason.c_str()); e != 0)
                slurm_error("topoplace: cannot drain %s: %s", node, slurm_strerror(e));
        }
        return -1;
    });
}

}  // extern "C"
