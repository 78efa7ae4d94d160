// SPDX-License-Identifier: Apache-2.0
// The plugin's shared pieces (shell.hpp) and the callbacks of every context: the plugstack
// arguments and the options (slurm_spank_init), the end of the job (slurm_spank_exit).
#include "shell.h"

#include <algorithm>

#include <topo/snapshot_bin.hpp>

#include "shell.hpp"
#include "slurm_compat.hpp"

namespace topo::spank::plugin {

namespace {
Ctx* g_ctx = nullptr;  // trivially destructible; the owned object is freed in slurm_spank_exit
}  // namespace

Ctx& ctx() {
    if (g_ctx == nullptr) g_ctx = new Ctx();
    return *g_ctx;
}

Ctx* configured() {
    return g_ctx != nullptr && g_ctx->cfg_ok ? g_ctx : nullptr;
}

std::vector<std::string> args_of(int ac, char** av) {
    std::vector<std::string> v;
    v.reserve(static_cast<std::size_t>(std::max(ac, 0)));
    for (int i = 0; i < ac; ++i) v.emplace_back(av[i] != nullptr ? av[i] : "");
    return v;
}

Mode effective_mode(const Ctx& c) {
    if (c.opts.mode) return *c.opts.mode;
    if (c.opts.max_tier || c.opts.nvl || c.opts.segment > 0) return Mode::Pack;
    return c.cfg.default_mode;
}

Result<TopologyPtr> load_model(const std::string& path, bool* from_bin) {
    // The compiled form is checked by its payload checksum; its recorded fingerprint is not
    // recomputed (BinCheck::Checksum; `topoplace compile --check` does the full check).
    auto r = load_snapshot_fast(path, 0, BinCheck::Checksum);
    if (!r) return fail(std::move(r).error());
    if (from_bin != nullptr) *from_bin = r->from_bin;
    if (!r->from_bin) slurm_debug("topoplace: compiled snapshot not used: %s", r->why_not_bin.c_str());
    return std::move(r->topo);
}

std::string spank_env(spank_t sp, const char* name) {
    char buf[8192];
    if (spank_getenv(sp, name, buf, sizeof buf) == ESPANK_SUCCESS) return buf;
    return {};
}

bool has_spank_env(spank_t sp, const char* name) {
    char buf[8192];
    return spank_getenv(sp, name, buf, sizeof buf) == ESPANK_SUCCESS;
}

}  // namespace topo::spank::plugin

using namespace topo::spank;
using namespace topo::spank::plugin;

extern "C" {

int topo_shell_init(spank_t sp, int ac, char** av, int remote) noexcept {
    return guarded("init", [&]() -> int {
        Ctx& c = ctx();
        auto cfg = parse_config(args_of(ac, av));
        if (!cfg) {
            slurm_error("topoplace: plugstack.conf: %s", cfg.error().message.c_str());
            // a client refuses to submit; a node does not fail steps for a config typo
            return remote != 0 ? 0 : -1;
        }
        c.cfg = *cfg;
        c.cfg_ok = true;
        if (!register_options(sp)) return remote != 0 ? 0 : -1;
        return 0;
    });
}

int topo_shell_exit(void) noexcept {
    return guarded("exit", [&]() -> int {
        delete g_ctx;
        g_ctx = nullptr;
        return 0;
    });
}

}  // extern "C"
