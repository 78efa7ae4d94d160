// SPDX-License-Identifier: Apache-2.0
// topoplace: discover, show (and, as they land, slurm-conf, place, whatif, health).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {
Runner add_compile(CLI::App& app);  // cmd_compile.cpp
Runner add_predict(CLI::App& app);  // cmd_perf.cpp
Runner add_calibrate(CLI::App& app);
Runner add_status(CLI::App& app);  // cmd_status.cpp
Runner add_doctor(CLI::App& app);  // cmd_doctor.cpp
}  // namespace topo::cli

namespace {

int run_main(int argc, char** argv) {
    using namespace topo::cli;
    CLI::App app{"topoplace: topology-aware placement for GPU clusters on Slurm"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "topoplace " TOPO_VERSION);
    std::map<CLI::App*, Runner> runners;
    auto add = [&](Runner r) { runners.emplace(app.get_subcommands({}).back(), std::move(r)); };
    add(add_discover(app));
    add(add_show(app));
    add(add_slurm_conf(app));
    add(add_place(app));
    add(add_whatif(app));
    add(add_health(app));
    add(add_compile(app));
    add(add_predict(app));
    add(add_calibrate(app));
    add(add_status(app));
    add(add_doctor(app));
    // The front door: `--version` alone prints one line; an unknown command names itself and
    // lists the commands (CLI11 would print nothing, or the top-level help for `X --help`).
    if (argc == 2 && std::string_view(argv[1]) == "--version") {
        std::printf("topoplace %s\n", TOPO_VERSION);
        return 0;
    }
    if (argc >= 2 && argv[1][0] != '-') {
        std::string names;
        bool known = false;
        for (const auto* sub : app.get_subcommands({})) {
            known = known || sub->get_name() == argv[1];
            names += (names.empty() ? "" : ", ") + sub->get_name();
        }
        if (!known) {
            std::string shown(argv[1]);
            if (shown.size() > 64) shown = shown.substr(0, 64) + "...";
            for (char& c : shown)
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
            std::fprintf(stderr, "topoplace: unknown command '%s'; commands: %s (topoplace --help)\n", shown.c_str(),
                         names.c_str());
            return kUsage;
        }
    }
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

}  // namespace

int main(int argc, char** argv) {
    // Nothing escapes: building the commands can throw (std::bad_alloc) before run_main's own
    // handlers are in place.
    try {
        return run_main(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "topoplace: internal error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "topoplace: internal error\n");
    }
    return topo::cli::kSoftware;
}
