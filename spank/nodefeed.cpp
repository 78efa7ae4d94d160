// SPDX-License-Identifier: Apache-2.0
// topoplace-nodefeed: keeps a node-state file fresh for the SPANK plugin's `state_feed=`
// (docs/spank.md "Cost"). Once per interval it asks slurmctld for the node table with
// slurm_load_node(last_update): "no change in data" costs slurmctld a comparison and this
// process no unpacking; a change is read whole. Every successful read, changed or not,
// rewrites the file (temporary file + rename, mode 0644, owner = this process, root as a
// service) with the time of the read, so the plugin can tell a live feed from a dead one
// (state_feed_age=). A read that fails leaves the file as it was: it ages out and the plugin
// asks slurmctld itself. The snapshot is reloaded when its file changes. One thread, no
// child processes; SIGTERM/SIGINT end it after the current step.
#include <sys/stat.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include <topo/snapshot_bin.hpp>

#include "slurm_nodes.hpp"
#include "state_cache.hpp"

namespace {

using namespace topo;
using namespace topo::spank;

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_signal(int /*sig*/) { g_stop = 1; }

struct FileId {
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = -1;
    std::int64_t mtime_ns = -1;
    bool operator==(const FileId&) const = default;
};

FileId file_id(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return {st.st_dev, st.st_ino, st.st_size,
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

void log(const char* level, const std::string& msg) {
    std::fprintf(stderr, "topoplace-nodefeed: %s%s\n", level, msg.c_str());
    std::fflush(stderr);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Keep a node-state file fresh from slurmctld for the topoplace SPANK plugin (plugstack state_feed=)",
                 "topoplace-nodefeed"};
    std::string snapshot;
    std::string output;
    double interval = 1.0;
    double full_every = 60.0;
    bool once = false;
    app.add_option("--snapshot", snapshot, "topoplace snapshot (the plugin's snapshot=)")->required();
    app.add_option("-o,--output", output, "state file to keep fresh (the plugin's state_feed=)")->required();
    app.add_option("--interval", interval, "seconds between two reads of slurmctld's node table")
        ->check(CLI::Range(0.1, 60.0))
        ->capture_default_str();
    app.add_option("--full-every", full_every, "seconds after which the whole table is read even if unchanged")
        ->check(CLI::Range(1.0, 86400.0))
        ->capture_default_str();
    app.add_flag("--once", once, "one read and one write, then exit (exit 69 when slurmctld does not answer)");
    app.set_version_flag("--version", std::string("topoplace-nodefeed ") + TOPO_VERSION);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 64;
    }
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);

    TopologyPtr topo;
    FileId snap_id;
    std::time_t last_update = 0;
    std::int64_t last_full_ns = 0;
    std::optional<placement::ClusterState> state;
    std::string last_error;
    long writes = 0;
    while (g_stop == 0) {
        if (const FileId id = file_id(snapshot); topo == nullptr || !(id == snap_id)) {
            auto r = load_snapshot_fast(snapshot, 0, BinCheck::Checksum);
            if (!r) {
                log("error: ", r.error().to_string());
                if (topo == nullptr || once) return r.error().code == Errc::Io ? 66 : 65;
            } else {
                topo = std::move(r->topo);
                snap_id = id;
                last_update = 0;  // a new model: read the whole table again
                state.reset();
                log("", "snapshot " + snapshot + " (" + std::to_string(topo->hosts().size()) + " hosts, fingerprint "
                            + topo->fingerprint() + ")");
            }
        }
        const std::int64_t t = realtime_ns();
        if (t - last_full_ns > static_cast<std::int64_t>(full_every * 1e9)) last_update = 0;
        auto r = load_node_state_since(*topo, &last_update);
        if (!r) {
            if (r.error().message != last_error) log("error: ", r.error().message + " (the file is left to age out)");
            last_error = r.error().message;
            if (once) return 69;
        } else {
            if (!last_error.empty()) log("", "slurmctld answers again");
            last_error.clear();
            if (*r) {
                state = std::move(**r);
                last_full_ns = t;
            }
            if (state) {
                if (auto w = write_state_feed(output, *topo, *state, t); !w) {
                    log("error: ", w.error().to_string());
                    if (once) return 73;
                } else if (++writes == 1) {
                    log("", "writing " + output);
                }
            }
        }
        if (once) break;
        timespec ts{};
        ts.tv_sec = static_cast<time_t>(interval);
        ts.tv_nsec = static_cast<long>((interval - static_cast<double>(ts.tv_sec)) * 1e9);
        while (g_stop == 0 && ::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
    }
    return 0;
}
