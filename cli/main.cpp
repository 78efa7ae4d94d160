// SPDX-License-Identifier: Apache-2.0
// topoplace: discover, show (and, as they land, slurm-conf, place, whatif, health).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <map>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {
Runner add_compile(CLI::App& app);  // cmd_compile.cpp
}

int main(int argc, char** argv) {
    using namespace topo::cli;
    CLI::App app{"topoplace: topology-aware placement for GPU clusters on Slurm"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "topoplace 0.1.0");
    std::map<CLI::App*, Runner> runners;
    auto add = [&](Runner r) { runners.emplace(app.get_subcommands({}).back(), std::move(r)); };
    add(add_discover(app));
    add(add_show(app));
    add(add_slurm_conf(app));
    add(add_place(app));
    add(add_whatif(app));
    add(add_health(app));
    add(add_compile(app));
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsage;
    }
    try {
        for (auto& [sub, run] : runners) {
            if (sub->parsed()) return run();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "topoplace: internal error: %s\n", e.what());
        return kSoftware;
    }
    return kUsage;
}
