// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The placement service of topoplace-nodefeed (`--socket PATH`) and the plugin's
/// client for it (plugstack `service=PATH`, docs/spank.md "Cost").
///
/// The plugin's own decision rebuilds the cluster model from the snapshot at every
/// submission: 0.3 ms for the 64-host lab, 2.3 ms for Selene's 458 hosts, 10.6 ms for 4,096
/// hosts, against an 8 ms sbatch. The service holds the model and the live node state (the
/// feed's) in memory and answers one request per connection on a Unix socket: the plugin
/// sends the job request, gets the plan back and hands it to slurmctld as before. Anything
/// wrong (no service, another snapshot, a timeout, a malformed reply) and the plugin decides
/// in-process, as without the service. Slurm-free, so the codec and the client are
/// unit-tested without a cluster.
///
/// Wire format: lines "key=value\n", first line "topoplace-service 1", at most 64 KiB; values
/// never hold a newline (refused when encoding). A reply: "kind=" (planned, busy, never,
/// invalid, unsupported, refused); a plan's "env.TOPOPLACE_*" lines and "text="; every other
/// kind "message=", and a busy one also the exclusions the job keeps without a plan
/// ("env.TOPOPLACE_MODE", "env.TOPOPLACE_EXCLUDE": unplanned_env).

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <topo/health/flags.hpp>
#include <topo/placement/place.hpp>
#include <topo/placement/state.hpp>
#include <topo/result.hpp>
#include <topo/topology.hpp>

#include "decider.hpp"
#include <sys/types.h>

namespace topo::spank {

/// topoplace-nodefeed's own figures, for --metrics (Prometheus textfile).
struct FeedCounters {
    long full_reads = 0, unchanged = 0, failed_reads = 0, writes = 0, rereads = 0, dropped = 0;
    long over_budget = 0;                 ///< requests closed unanswered past their uid's budget (in dropped too)
    long job_reads = 0;                   ///< job tables read (policy=cost: uplink sharing)
    long running_multi_node = 0;          ///< running jobs on several hosts at the last job table read
    double job_read_seconds = 0;          ///< how long the last job table read took (in its child process)
    std::map<std::string, long> replies;  ///< by reply_kind_name()
    int hosts = 0, unhealthy = 0, degraded = 0;
    long long last_read_unix = 0;
};

[[nodiscard]] std::string feed_metrics_text(const FeedCounters& c);
[[nodiscard]] const char* reply_kind_name(ServiceReply::Kind k) noexcept;

[[nodiscard]] Result<std::string> encode_request(const ServiceRequest& r);
[[nodiscard]] Result<ServiceRequest> decode_request(std::string_view s);
[[nodiscard]] std::string encode_reply(const ServiceReply& r);
[[nodiscard]] Result<ServiceReply> decode_reply(std::string_view s);

/// Socket helpers of both ends (non-blocking sockets, poll until `deadline`).
[[nodiscard]] Status wait_io(int fd, short events, std::chrono::steady_clock::time_point deadline);
[[nodiscard]] Status send_all(int fd, std::string_view data, std::chrono::steady_clock::time_point deadline);
/// Read to the peer's EOF, at most 64 KiB.
[[nodiscard]] Result<std::string> recv_all(int fd, std::chrono::steady_clock::time_point deadline);

/// The service's side of the socket: many connections at once, each with its own deadline, on
/// one thread (poll), so a client that connects and says nothing holds one slot for at most
/// `per_connection_ms` and delays nobody else (issue 17, docs/security.md "The service").
/// A connection is read to the client's EOF (at most 64 KiB), answered, written and closed.
/// At most `max_connections` are open, at most `max_per_uid` of one uid (SO_PEERCRED): past
/// either, the uid's own oldest unanswered connection (else the oldest of all) is closed
/// unanswered, so one user's flood costs that user, and a client told nothing falls back to
/// its own decision as on any other failure.
class ServiceServer {
public:
    /// Per uid, a budget of answering time (issue 32 point 4): a token bucket of `uid_burst_ms`
    /// milliseconds, refilled at `uid_ms_per_s` per second. Each answer costs the time it took,
    /// at least `min_request_ms` (so a flood of cheap requests is a rate too). A uid whose
    /// balance is below one request's `min_request_ms` has its requests closed unanswered (its clients decide
    /// in-process, on their own CPU) until it refills; requests ready together are answered richest uid first, so one
    /// user's expensive `cost` requests cannot queue ahead of another's.
    struct Limits {
        int per_connection_ms = 200;
        std::size_t max_connections = 128;
        std::size_t max_per_uid = 16;
        double uid_ms_per_s = 250;
        double uid_burst_ms = 1000;
        double min_request_ms = 1;
    };

    using Answer = std::function<std::string(const std::string& request, uid_t uid)>;

    ServiceServer(int listen_fd, Limits limits) : lfd_(listen_fd), limits_(limits) {}

    ServiceServer(const ServiceServer&) = delete;
    ServiceServer& operator=(const ServiceServer&) = delete;
    ~ServiceServer();

    /// Wait up to `timeout_ms` for activity, then accept, read, answer and write what is
    /// ready, and drop connections past their deadline. Returns the number answered.
    int step(int timeout_ms, const Answer& answer);

    [[nodiscard]] std::size_t open_connections() const noexcept { return conns_.size(); }

    [[nodiscard]] long dropped() const noexcept { return dropped_; }

    /// Requests closed unanswered because their uid's budget was spent (also in dropped()).
    [[nodiscard]] long over_budget() const noexcept { return over_budget_; }

private:
    struct Conn {
        int fd = -1;
        uid_t uid = 0;
        std::chrono::steady_clock::time_point deadline;
        std::string in;
        std::string out;
        std::size_t sent = 0;
        bool answered = false;
    };

    struct Bucket {
        double balance_ms = 0;
        std::chrono::steady_clock::time_point last;
    };

    void accept_new();
    void drop(std::size_t i);
    /// The uid's bucket, refilled up to now.
    Bucket& bucket(uid_t uid, std::chrono::steady_clock::time_point now);
    /// Past 4,096 uids, forgets those whose budget is whole again (once per step, not per request).
    void prune_buckets(std::chrono::steady_clock::time_point now);

    int lfd_;
    Limits limits_;
    std::vector<Conn> conns_;
    std::map<uid_t, Bucket> buckets_;
    long dropped_ = 0;
    long over_budget_ = 0;
};

/// One request to the service at `socket_path`: connect, send, read the reply to EOF, each
/// bounded by `timeout_ms` in all (poll; the socket is non-blocking). The process at the other
/// end must run as `service_uid` (SO_PEERCRED; root but for tests), so no user can stand in
/// for the service. Errors: Io (no service, refused, timeout, reset, another uid) or Parse (a
/// malformed reply).
[[nodiscard]] Result<ServiceReply> call_service(const std::string& socket_path, const ServiceRequest& req,
                                                int timeout_ms, uid_t service_uid = 0);

}  // namespace topo::spank
