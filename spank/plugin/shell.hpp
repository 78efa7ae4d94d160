// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file What the plugin's context files share (C++ side of shell.h): the job's context,
/// the exception guard every entry goes through, the snapshot loader, the environment of a
/// step. No threads, no non-trivial globals (one heap context, freed in slurm_spank_exit),
/// nothing loaded in slurm_spank_init: the snapshot is read only when a job asks for
/// placement (allocator/local) or rail environment (remote user_init).
#include <slurm/spank.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <topo/result.hpp>
#include <topo/topology.hpp>

#include "core.hpp"

namespace topo::spank::plugin {

/// One job's plugin state, from slurm_spank_init to slurm_spank_exit.
struct Ctx {
    Config cfg;
    bool cfg_ok = false;
    Options opts;
    std::string opt_error;  ///< first invalid option value (also reported by its callback)
    TopologyPtr topo;       ///< remote: loaded in user_init, shared by the forked tasks
};

/// The context, created on first use.
[[nodiscard]] Ctx& ctx();
/// The context when slurm_spank_init read a valid configuration, else nullptr.
[[nodiscard]] Ctx* configured();

/// Run `f`; an exception becomes an error in Slurm's log and -1 (never crosses the C ABI).
template <class F>
int guarded(const char* where, F&& f) noexcept {
    try {
        return std::forward<F>(f)();
    } catch (const std::exception& e) {
        slurm_error("topoplace: %s: %s", where, e.what());
    } catch (...) {
        slurm_error("topoplace: %s: unknown exception", where);
    }
    return -1;
}

[[nodiscard]] std::vector<std::string> args_of(int ac, char** av);

/// Register the --topo* options (options.cpp); false after logging which one failed.
[[nodiscard]] bool register_options(spank_t sp);

/// The job's mode: --topo, else pack when any other --topo-* was given, else the default.
[[nodiscard]] Mode effective_mode(const Ctx& c);

/// The snapshot through its compiled form "<snapshot>.bin" when that is root-owned, not
/// group/world-writable and made from the JSON as it is now; otherwise the JSON, silently
/// (the reason at debug level): the same model and fingerprint either way (docs/spank.md
/// "Cost"). `*from_bin` says which was used.
[[nodiscard]] Result<TopologyPtr> load_model(const std::string& path, bool* from_bin = nullptr);

/// A variable of the step's environment ("" when unset).
[[nodiscard]] std::string spank_env(spank_t sp, const char* name);
[[nodiscard]] bool has_spank_env(spank_t sp, const char* name);

}  // namespace topo::spank::plugin
