// SPDX-License-Identifier: Apache-2.0
// topoplace place: being implemented (placeholder so the command table is wired).
#include <cstdio>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

Runner add_place(CLI::App& app) {
    auto* sub = app.add_subcommand("place", "(not implemented yet)");
    sub->allow_extras();
    return [] {
        std::fprintf(stderr, "topoplace: place: not implemented yet\n");
        return kUnavailable;
    };
}

}  // namespace topo::cli
