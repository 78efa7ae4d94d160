// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace topo::cli {

/// Each command registers a subcommand and returns the function that runs it.
using Runner = std::function<int()>;
Runner add_discover(CLI::App& app);
Runner add_show(CLI::App& app);
Runner add_slurm_conf(CLI::App& app);
Runner add_place(CLI::App& app);
Runner add_whatif(CLI::App& app);
Runner add_health(CLI::App& app);

}  // namespace topo::cli
