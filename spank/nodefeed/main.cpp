// SPDX-License-Identifier: Apache-2.0
// topoplace-nodefeed: keeps a node-state file fresh for the SPANK plugin's `state_feed=`
// (docs/spank.md "Cost"). Once per interval it asks slurmctld for the node table with
// slurm_load_node(last_update): "no change in data" costs slurmctld a comparison and this
// process no unpacking; a change is read whole. Every successful read, changed or not,
// rewrites the file (temporary file + rename, mode 0644, owner = this process, root as a
// service) with the time of the read, so the plugin can tell a live feed from a dead one
// (state_feed_age=). A read that fails leaves the file as it was: it ages out and the plugin
// asks slurmctld itself. The snapshot is reloaded when its file changes. With --socket it
// also answers the plugin's placement requests (`service=`, service.hpp) from the model and
// the node state it holds: many connections at once on one thread, each bounded in time and
// size (ServiceServer), a busy answer's fresh read of slurmctld at most once a second. It also
// reads the job table (slurm_load_jobs, every --jobs-every seconds, "no change" when nothing
// changed): the running jobs that span leaf groups share those groups' uplinks, which the
// cost policy (the plugin's default) keeps a job off (issue 16). They go into the feed file
// (its leaf-group records) and into the state the service decides cost requests on.
// The job table is read in a child process (JobReader, issue 32 point 5): its size is the
// users' to choose, so its RPC and unpacking never stop this thread answering or writing the
// feed, and its memory is the child's; only the running multi-node jobs' host ids come back.
// One thread, one short-lived child per job table read; SIGTERM/SIGINT end it after the
// current step.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <optional>
#include <string>

#include <topo/atomic_file.hpp>
#include <topo/errno_text.hpp>
#include <topo/placement/running.hpp>
#include <topo/snapshot_bin.hpp>

#include "job_reader.hpp"
#include "service.hpp"
#include "slurm_compat.hpp"
#include "slurm_jobs.hpp"
#include "slurm_nodes.hpp"
#include "state_cache.hpp"
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

using namespace topo;
using namespace topo::spank;

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_signal(int /*sig*/) {
    g_stop = 1;
}

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

int listen_on(const std::string& path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) {
        log("error: ", path + ": socket path too long");
        return -1;
    }
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

    struct stat st {};

    if (::lstat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(path.c_str());  // a previous run's
    if (fd < 0 || ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0
        || ::chmod(path.c_str(), 0666) != 0 || ::listen(fd, 64) != 0) {
        log("error: ", path + ": " + errno_text(errno));
        if (fd >= 0) ::close(fd);
        return -1;
    }
    return fd;
}

int run(int argc, char** argv) {
    CLI::App app{
        "Node-state feed (plugstack state_feed=) and placement service (service=) for the topoplace SPANK plugin",
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
    std::string socket_path;
    std::string health;
    app.add_option("--socket", socket_path,
                   "also answer the plugin's placement requests on this Unix socket (service=)");
    app.add_option("--health", health, "health store the service excludes unhealthy hosts by (the plugin's health=)");
    double jobs_every = 10.0;
    app.add_option("--jobs-every", jobs_every,
                   "seconds between two reads of slurmctld's job table (which running jobs span leaf groups: the "
                   "uplinks the cost policy keeps jobs off), for the feed file and the service; 0 = never (cost "
                   "then decides without uplink sharing)")
        ->check(CLI::Range(0.0, 3600.0))
        ->capture_default_str();
    ServiceServer::Limits limits;
    app.add_option("--uid-budget", limits.uid_ms_per_s,
                   "milliseconds of answering per second each uid may use, on average (issue 32: past it, a uid's "
                   "requests are closed unanswered and its clients decide in-process); each request counts at least "
                   "1 ms")
        ->check(CLI::Range(1.0, 1000.0))
        ->capture_default_str();
    app.add_option("--uid-burst", limits.uid_burst_ms, "milliseconds a uid may use at once before --uid-budget applies")
        ->check(CLI::Range(1.0, 60000.0))
        ->capture_default_str();
    std::string metrics;
    app.add_option("--metrics", metrics,
                   "write Prometheus textfile metrics (reads, writes, decisions by answer, flagged hosts) to FILE, "
                   "atomically, at most every 10 s");
    app.add_flag("--once", once, "one read and one write, then exit (exit 69 when slurmctld does not answer)");
    app.set_version_flag("--version",
                         std::string("topoplace-nodefeed ") + TOPO_VERSION + " (for Slurm " + compat::release() + ")");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 64;
    }
    std::signal(SIGTERM, on_signal);
    std::signal(SIGINT, on_signal);
    compat::init();  // libslurm's configuration, before the first RPC (26.05 needs it)

    int lfd = -1;
    if (!socket_path.empty() && !once) {
        lfd = listen_on(socket_path);
        if (lfd < 0) return 73;
    }
    long served = 0;
    long rereads = 0;
    std::optional<ServiceServer> server;
    if (lfd >= 0) server.emplace(lfd, limits);
    // A `busy` answer re-reads slurmctld's node table once (as the plugin does), at most once
    // per kRereadEvery for all requests together: root's RPCs are exempt from slurmctld's
    // per-user rate limit, so no user may drive them (issue 17).
    constexpr std::chrono::milliseconds kRereadEvery{1000};
    auto last_reread = std::chrono::steady_clock::time_point{};
    TopologyPtr topo;
    std::optional<placement::Placer> placer;  // the placement indexes, built once per snapshot
    FileId snap_id;
    std::time_t last_update = 0;
    std::int64_t last_full_ns = 0;
    std::optional<placement::ClusterState> state;
    std::string last_error;
    // The running jobs on several hosts (the cost policy's uplink sharing), read every
    // jobs_every seconds; the job table's time for "no change" answers.
    std::vector<std::vector<HostId>> running;
    const bool jobs_wanted = jobs_every > 0;
    std::time_t jobs_update = 0;
    auto jobs_read_at = std::chrono::steady_clock::time_point{};
    auto jobs_ok_at = std::chrono::steady_clock::time_point{};  // the last good read
    long job_reads = 0;
    std::string jobs_error;
    JobReader jobs_reader;  // the read in flight, in a child process
    // a node state with the running jobs' uplinks recorded (what the cost policy reads)
    auto with_uplinks = [&](placement::ClusterState st) {
        if (!running.empty()) (void)placement::record_running_uplinks(*placer, st, running);
        return st;
    };
    // the state a request is decided on: cost requests see the running jobs' uplinks
    auto for_request = [&](placement::ClusterState st, const ServiceRequest& rq) {
        if (rq.policy == placement::Policy::Cost) return with_uplinks(std::move(st));
        return st;
    };
    // the feed file carries them too (the plugin's cost deciding in-process from state_feed=)
    auto write_feed = [&](const placement::ClusterState& st, std::int64_t at) {
        return running.empty() ? write_state_feed(output, *topo, st, at)
                               : write_state_feed(output, *topo, with_uplinks(st), at);
    };
    long writes = 0;
    long full_reads = 0;
    long unchanged = 0;
    long failed = 0;
    std::vector<std::string> last_health_warnings;
    // the health store kept read (listed again only when it changed, a record read again only
    // when replaced): made anew for each snapshot loaded
    std::optional<health::FlagsReader> health_reader;
    const Topology* health_topo = nullptr;
    FeedCounters fc;
    auto last_metrics = std::chrono::steady_clock::time_point{};
    auto write_metrics = [&](bool now) {
        if (metrics.empty()) return;
        const auto t = std::chrono::steady_clock::now();
        if (!now && t - last_metrics < std::chrono::seconds(10)) return;
        last_metrics = t;
        fc.full_reads = full_reads;
        fc.unchanged = unchanged;
        fc.failed_reads = failed;
        fc.writes = writes;
        fc.rereads = rereads;
        fc.dropped = server ? static_cast<long>(server->dropped()) : 0;
        fc.over_budget = server ? static_cast<long>(server->over_budget()) : 0;
        fc.hosts = topo ? static_cast<int>(topo->hosts().size()) : 0;
        fc.job_reads = job_reads;
        fc.running_multi_node = static_cast<long>(running.size());
        fc.job_read_seconds = static_cast<double>(jobs_reader.last_duration().count()) / 1000.0;
        if (auto w = write_file_atomic(metrics, feed_metrics_text(fc)); !w) log("error: ", w.error().to_string());
    };
    const ServiceServer::Answer answer = [&](const std::string& in, uid_t /*uid*/) {
        ServiceReply rep;
        auto req = decode_request(in);
        if (!req) {
            rep.message = req.error().message;
        } else if (req->snapshot != snapshot) {
            rep.message = "this service places on " + snapshot + ", not " + req->snapshot;
        } else if (req->health != health) {
            rep.message = "this service reads the health store '" + health + "', not '" + req->health + "'";
        } else {
            std::vector<std::string> warns;
            if (!health_reader || health_topo != topo.get()) {
                health_reader.emplace(*topo, health);
                health_topo = topo.get();
            }
            auto read = health_reader->refresh(std::numeric_limits<std::size_t>::max(), &warns);
            if (warns != last_health_warnings) {  // once, not at every request
                for (const auto& w : warns) log("warning: ", w);
                last_health_warnings = warns;
            }
            if (!read) {
                rep.message = "health store: " + read.error().to_string();
            } else {
                const health::HealthFlags& bad = health_reader->flags();
                fc.unhealthy = static_cast<int>(bad.unhealthy.size());
                fc.degraded = static_cast<int>(bad.degraded.size());
                // the state in memory, then (on a busy answer) one fresh read: the Decider's rule,
                // as in the plugin; the fresh read at most once per kRereadEvery
                const Decider decider({{"memory",
                                        [&]() -> Result<SourcedState> {
                                            if (!state) return fail(Errc::NotFound, "no node state yet");
                                            return SourcedState{for_request(*state, *req), "memory", last_full_ns};
                                        }},
                                       {"re-read", [&]() -> Result<SourcedState> {
                                            const auto now = std::chrono::steady_clock::now();
                                            if (now - last_reread < kRereadEvery)
                                                return fail(Errc::Busy, "slurmctld was read less than a second ago");
                                            last_reread = now;
                                            const std::int64_t tf = realtime_ns();
                                            auto fresh = load_node_state(*topo);
                                            if (!fresh) return fail(std::move(fresh).error());
                                            state = *fresh;
                                            last_full_ns = tf;
                                            ++full_reads;
                                            ++rereads;
                                            if (write_feed(*state, tf)) ++writes;
                                            return SourcedState{for_request(std::move(*fresh), *req), "re-read", tf};
                                        }}});
                auto decided = decider.decide(*placer, *req, bad);
                if (decided)
                    rep = std::move(decided->decision.reply);
                else
                    rep.message = decided.error().message;
            }
        }
        ++fc.replies[reply_kind_name(rep.kind)];
        return encode_reply(rep);
    };
    // a job table read's result (from the child, or why there is none)
    auto on_jobs = [&](Result<JobTableRead> jr) {
        if (!jr) {
            // The uplinks of the last good read stay for three reads (a failed read is not
            // "no jobs"); older, they are dropped rather than served as fresh (issue 32
            // point 6): cost then decides without sharing, as readers of a stale feed do.
            if (jr.error().message != jobs_error)
                log("error: ", jr.error().message + " (the last job list is kept for 3 reads)");
            jobs_error = jr.error().message;
            const auto kept = jobs_read_at - jobs_ok_at;
            if (!running.empty() && job_reads > 0
                && kept > std::chrono::nanoseconds(static_cast<std::int64_t>(3 * jobs_every * 1e9))) {
                log("error: ", "no good job table read for "
                                   + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(kept).count())
                                   + " s: the running jobs' uplinks are dropped until one succeeds");
                running.clear();
                jobs_update = 0;  // the next good read is a full one
            }
            return;
        }
        if (!jobs_error.empty()) log("", "the job table reads again");
        jobs_error.clear();
        ++job_reads;
        jobs_ok_at = jobs_read_at;
        jobs_update = jr->last_update;
        if (jr->jobs) running = std::move(*jr->jobs);
    };
    // a read that has ended (never waits)
    auto poll_jobs = [&] {
        if (!jobs_reader.busy() || topo == nullptr) return;
        if (auto got = jobs_reader.poll(topo->hosts().size())) on_jobs(std::move(*got));
    };
    if (jobs_wanted) {
        char every[32];
        std::snprintf(every, sizeof every, "%g", jobs_every);
        log("", std::string("reading the job table every ") + every
                    + " s (--jobs-every): running jobs' uplinks for the cost policy");
    }
    while (g_stop == 0) {
        if (const FileId id = file_id(snapshot); topo == nullptr || !(id == snap_id)) {
            auto r = load_snapshot_fast(snapshot, 0, BinCheck::Checksum);
            if (!r) {
                log("error: ", r.error().to_string());
                if (topo == nullptr || once) return r.error().code == Errc::Io ? 66 : 65;
            } else {
                placer.reset();  // it points into the old model
                topo = std::move(r->topo);
                placer.emplace(*topo);
                jobs_reader.cancel();  // a read in flight names hosts of the old model
                running.clear();       // host ids of the old model: read the job table again at once
                jobs_update = 0;
                jobs_read_at = {};
                snap_id = id;
                last_update = 0;  // a new model: read the whole table again
                state.reset();
                log("", "snapshot " + snapshot + " (" + std::to_string(topo->hosts().size()) + " hosts, fingerprint "
                            + topo->fingerprint() + ")");
            }
        }
        poll_jobs();
        const auto cycle_start = std::chrono::steady_clock::now();
        const std::int64_t t = realtime_ns();  // the read's time, as the plugin's clock tells it
        if (t - last_full_ns > static_cast<std::int64_t>(full_every * 1e9)) last_update = 0;
        auto r = load_node_state_since(*topo, &last_update);
        if (!r) {
            if (r.error().message != last_error) log("error: ", r.error().message + " (the file is left to age out)");
            last_error = r.error().message;
            ++failed;
            if (once) return 69;
        } else {
            if (!last_error.empty()) log("", "slurmctld answers again");
            last_error.clear();
            if (*r) {
                state = std::move(**r);
                last_full_ns = t;
                ++full_reads;
            } else {
                ++unchanged;
            }
            fc.last_read_unix = t / 1'000'000'000;
            if (state) {
                if (auto w = write_feed(*state, t); !w) {
                    log("error: ", w.error().to_string());
                    if (once) return 73;
                } else if (++writes == 1) {
                    log("", "writing " + output);
                }
            }
        }
        if (jobs_wanted && !jobs_reader.busy()
            && std::chrono::steady_clock::now() - jobs_read_at
                   >= std::chrono::nanoseconds(static_cast<std::int64_t>(jobs_every * 1e9))) {
            jobs_read_at = std::chrono::steady_clock::now();
            const Topology& model = *topo;  // the child's copy of this model
            if (auto st = jobs_reader.start([&model](std::time_t* lu) { return load_running_jobs_since(model, lu); },
                                            jobs_update);
                !st)
                on_jobs(fail(std::move(st).error()));
            else if (once)  // one read, waited for
                for (poll_jobs(); jobs_reader.busy(); poll_jobs()) {
                    timespec ts{0, 5'000'000};
                    ::nanosleep(&ts, nullptr);
                }
        }
        write_metrics(once);
        if (once) break;
        // until the next read: sleep, or answer placement requests as they come
        // (scheduled on the monotonic clock: a step of the wall clock neither stalls nor rushes it)
        const auto next = cycle_start + std::chrono::nanoseconds(static_cast<std::int64_t>(interval * 1e9));
        for (;;) {
            const std::int64_t left_ns =
                std::chrono::duration_cast<std::chrono::nanoseconds>(next - std::chrono::steady_clock::now()).count();
            if (g_stop != 0 || left_ns <= 0) break;
            if (lfd < 0) {
                const std::int64_t ns = jobs_reader.busy() ? std::min<std::int64_t>(left_ns, 50'000'000) : left_ns;
                timespec ts{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
                ::nanosleep(&ts, nullptr);
                poll_jobs();
                continue;
            }
            // while a job table read runs, its end is looked for every 50 ms
            const int wait_ms = static_cast<int>(left_ns / 1'000'000) + 1;
            served += server->step(jobs_reader.busy() ? std::min(wait_ms, 50) : wait_ms, answer);
            poll_jobs();
        }
    }
    write_metrics(true);
    if (lfd >= 0) {
        ::close(lfd);
        ::unlink(socket_path.c_str());
    }
    log("", "stopping: " + std::to_string(full_reads) + " full reads, " + std::to_string(unchanged)
                + " 'no change' answers, " + std::to_string(failed) + " failed reads, " + std::to_string(writes)
                + " writes, " + std::to_string(served) + " placement requests answered (" + std::to_string(rereads)
                + " fresh reads for busy answers, " + std::to_string(job_reads) + " job table reads, "
                + std::to_string(server ? server->dropped() : 0) + " connections closed unanswered)");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    // nothing may escape: a daemon that dies of an exception says so and exits 70 (EX_SOFTWARE)
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "topoplace-nodefeed: internal error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "topoplace-nodefeed: internal error\n");
    }
    return 70;
}
