// SPDX-License-Identifier: Apache-2.0
// topoplace compile: write the compiled form of a snapshot ("<snapshot>.bin") next to it.
#include <cstdio>
#include <memory>
#include <string>

#include <topo/snapshot_bin.hpp>

#include "commands.hpp"
#include "common.hpp"

namespace topo::cli {

namespace {

struct CompileOptions {
    std::string snapshot;
    std::string output;  // default: snapshot_bin_path(snapshot)
    bool check = false;
};

int run_compile(const CompileOptions& o) {
    const std::string bin = o.output.empty() ? snapshot_bin_path(o.snapshot) : o.output;
    if (o.check) {
        // What the plugin would do: trusted (root-owned, not group/world-writable) and current?
        auto t = load_snapshot_bin(o.snapshot, bin, 0);
        if (!t) {
            std::fprintf(stderr, "topoplace: %s is not used: %s\n", bin.c_str(), t.error().to_string().c_str());
            return kDataErr;
        }
        std::printf("%s: current and trusted, fingerprint %s\n", bin.c_str(), (*t)->fingerprint().c_str());
        return kOk;
    }
    auto st = compile_snapshot(o.snapshot, bin);
    if (!st) return report(st.error());
    std::fprintf(stderr, "topoplace: wrote %s (compiled form of %s)\n", bin.c_str(), o.snapshot.c_str());
    return kOk;
}

}  // namespace

Runner add_compile(CLI::App& app) {
    auto o = std::make_shared<CompileOptions>();
    auto* sub = app.add_subcommand(
        "compile", "Write the compiled form of a snapshot (SNAPSHOT.bin), which the SPANK plugin loads without JSON");
    sub->add_option("snapshot", o->snapshot, "snapshot JSON")->required();
    sub->add_option("-o,--output", o->output, "compiled file (default: SNAPSHOT.bin, where the plugin looks)");
    sub->add_flag("--check", o->check,
                  "do not write: say whether the compiled form is current and trusted (exit 0) or not (exit 65)");
    return [o]() { return run_compile(*o); };
}

}  // namespace topo::cli
