// SPDX-License-Identifier: Apache-2.0
// topoplace whatif: being implemented (placeholder so the command table is wired).
#include <cstdio>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

Runner add_whatif(CLI::App& app) {
    auto* sub = app.add_subcommand("whatif", "(not implemented yet)");
    sub->allow_extras();
    return [] {
        std::fprintf(stderr, "topoplace: whatif: not implemented yet\n");
        return kUnavailable;
    };
}

}  // namespace topo::cli
