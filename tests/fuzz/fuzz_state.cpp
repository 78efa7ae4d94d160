// SPDX-License-Identifier: Apache-2.0
// Cluster state parsers (`scontrol show nodes --oneliner` text and the JSON form) and the job
// table's (`squeue --json` / `scontrol show jobs` text, issue 32) on a small fixed topology:
// any input gives a state or a Parse error naming the file, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <topo/placement/place.hpp>
#include <topo/placement/running.hpp>
#include <topo/placement/slurm_state.hpp>
#include <topo/placement/state.hpp>

#include "fuzz_topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto& t = topo::fuzz::small_topology();
    for (auto parse : {topo::placement::parse_scontrol_nodes, topo::placement::parse_state_json}) {
        auto s = parse(t, text, "fuzz.state", nullptr);
        if (!s) {
            if (s.error().file != "fuzz.state") std::abort();  // errors name the file
            continue;
        }
        // whatever parsed must be usable by place()
        topo::placement::Request req;
        req.nodes_min = 2;
        (void)topo::placement::place(t, *s, req);
    }
    for (auto parse : {topo::placement::parse_scontrol_jobs, topo::placement::parse_slurm_jobs_json}) {
        auto jobs = parse(t, text, "fuzz.jobs", nullptr);
        if (!jobs && jobs.error().file != "fuzz.jobs") std::abort();
        if (jobs) {
            for (const auto& j : *jobs) {
                if (j.hosts.empty()) std::abort();  // a job kept runs on hosts of the topology
                for (auto h : j.hosts)
                    if (h.index() >= t.hosts().size()) std::abort();
            }
        }
    }
    return 0;
}
