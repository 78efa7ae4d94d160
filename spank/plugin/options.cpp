// SPDX-License-Identifier: Apache-2.0
// The --topo* options: one callback per option, each storing its parsed value in the job's
// context (shell.hpp). A bad value fails the submission with the parser's message (sbatch,
// salloc, srun); in slurmstepd the value was already accepted by the client, so a mismatch
// means another plugin build on the node: reported, never failing the step.
#include "shell.hpp"

namespace topo::spank::plugin {

namespace {

/// Store a parsed value or report why it is not one.
template <class T, class Store>
int take(int remote, Result<T> value, Store store) {
    Ctx& c = ctx();
    if (value) {
        store(c, *value);
        return 0;
    }
    if (c.opt_error.empty()) c.opt_error = value.error().message;
    slurm_error("topoplace: %s", value.error().message.c_str());
    return remote != 0 ? 0 : -1;
}

int opt_topo(int /*val*/, const char* optarg, int remote) noexcept {
    return guarded("--topo", [&] { return take(remote, parse_mode(optarg), [](Ctx& c, Mode m) { c.opts.mode = m; }); });
}

int opt_max_tier(int /*val*/, const char* optarg, int remote) noexcept {
    return guarded("--topo-max-tier",
                   [&] { return take(remote, parse_max_tier(optarg), [](Ctx& c, int t) { c.opts.max_tier = t; }); });
}

int opt_nvl(int /*val*/, const char* /*optarg*/, int /*remote*/) noexcept {
    return guarded("--topo-nvl", [] {
        ctx().opts.nvl = true;
        return 0;
    });
}

int opt_segment(int /*val*/, const char* optarg, int remote) noexcept {
    return guarded("--topo-segment",
                   [&] { return take(remote, parse_segment(optarg), [](Ctx& c, int s) { c.opts.segment = s; }); });
}

int opt_explain(int /*val*/, const char* /*optarg*/, int /*remote*/) noexcept {
    return guarded("--topo-explain", [] {
        ctx().opts.explain = true;
        return 0;
    });
}

constexpr char* text(const char* s) {
    return const_cast<char*>(s);
}  // Slurm's struct wants char*

struct spank_option g_options[] = {
    {text("topo"), text("MODE"),
     text("topoplace: place the job topology-aware: pack (fewest leaf groups and switch tiers that fit now), "
          "spread (round-robin over leaf groups) or off"),
     1, 0, opt_topo},
    {text("topo-max-tier"), text("N"), text("topoplace: never cross a switch tier above N (0 = one leaf group)"), 1, 0,
     opt_max_tier},
    {text("topo-nvl"), nullptr, text("topoplace: keep all nodes in one multi-node NVLink domain"), 0, 0, opt_nvl},
    {text("topo-segment"), text("S"), text("topoplace: nodes come in segments of S, each inside one leaf group"), 1, 0,
     opt_segment},
    {text("topo-explain"), nullptr, text("topoplace: print the placement decision and why"), 0, 0, opt_explain},
};

}  // namespace

bool register_options(spank_t sp) {
    for (auto& o : g_options) {
        if (spank_option_register(sp, &o) != ESPANK_SUCCESS) {
            slurm_error("topoplace: cannot register --%s", o.name);
            return false;
        }
    }
    return true;
}

}  // namespace topo::spank::plugin
