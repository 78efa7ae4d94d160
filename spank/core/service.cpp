// SPDX-License-Identifier: Apache-2.0
// The placement service's codec, decision and client (see service.hpp).
#include "service.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>

#include <topo/errno_text.hpp>
#include <topo/health/store.hpp>
#include <topo/hostlist.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace topo::spank {

namespace {

constexpr std::string_view kHeader = "topoplace-service 1";
constexpr std::size_t kMaxMessage = std::size_t{64} * 1024;

bool has_newline(std::string_view v) {
    return v.find('\n') != std::string_view::npos;
}

/// "key=value" lines after the header; a key given twice, a line without '=' or a
/// missing header is an error.
Result<std::vector<std::pair<std::string, std::string>>> lines_of(std::string_view s) {
    if (s.size() > kMaxMessage) return fail(Errc::Parse, "service message over 64 KiB");
    std::vector<std::pair<std::string, std::string>> out;
    bool first = true;
    while (!s.empty()) {
        const auto nl = s.find('\n');
        if (nl == std::string_view::npos) return fail(Errc::Parse, "service message: last line not terminated");
        const std::string_view line = s.substr(0, nl);
        s.remove_prefix(nl + 1);
        if (first) {
            if (line != kHeader) return fail(Errc::Parse, "service message: not 'topoplace-service 1'");
            first = false;
            continue;
        }
        const auto eq = line.find('=');
        if (eq == std::string_view::npos || eq == 0) return fail(Errc::Parse, "service message: a line without key=");
        out.emplace_back(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
    }
    if (first) return fail(Errc::Parse, "service message: empty");
    return out;
}

std::optional<int> small_int(const std::string& v, int lo, int hi) {
    int n = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || p != v.data() + v.size() || n < lo || n > hi) return std::nullopt;
    return n;
}

void put(std::string& out, std::string_view k, std::string_view v) {
    out.append(k).append("=").append(v).append("\n");
}

std::string one_line(std::string s) {
    for (auto& ch : s)
        if (ch == '\n' || ch == '\r') ch = ' ';
    return s;
}

}  // namespace

const char* reply_kind_name(ServiceReply::Kind k) noexcept {
    switch (k) {
        case ServiceReply::Kind::Planned: return "planned";
        case ServiceReply::Kind::Unsupported: return "unsupported";
        case ServiceReply::Kind::Invalid: return "invalid";
        case ServiceReply::Kind::Never: return "never";
        case ServiceReply::Kind::Busy: return "busy";
        case ServiceReply::Kind::Refused: break;
    }
    return "refused";
}

namespace {
const char* kind_name(ServiceReply::Kind k) {
    return reply_kind_name(k);
}
}  // namespace

std::string feed_metrics_text(const FeedCounters& c) {
    std::string s;
    auto counter = [&](const char* name, const char* help, long v) {
        s += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n" + name + " "
             + std::to_string(v) + "\n";
    };
    auto gauge = [&](const char* name, const char* help, long long v) {
        s += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " gauge\n" + name + " "
             + std::to_string(v) + "\n";
    };
    counter("topoplace_nodefeed_full_reads_total", "Whole node tables read from slurmctld.", c.full_reads);
    counter("topoplace_nodefeed_unchanged_total", "Reads slurmctld answered with 'no change'.", c.unchanged);
    counter("topoplace_nodefeed_failed_reads_total", "Reads slurmctld did not answer.", c.failed_reads);
    counter("topoplace_nodefeed_writes_total", "State feed files written.", c.writes);
    counter("topoplace_nodefeed_busy_rereads_total", "Fresh reads made for a busy answer (at most one a second).",
            c.rereads);
    counter("topoplace_nodefeed_dropped_connections_total", "Connections closed unanswered (limits, slow clients).",
            c.dropped);
    counter("topoplace_nodefeed_over_budget_total",
            "Requests closed unanswered because their uid had used its --uid-budget (also in dropped).", c.over_budget);
    counter("topoplace_nodefeed_job_reads_total",
            "Job tables read from slurmctld for policy=cost requests (changed or 'no change').", c.job_reads);
    s += "# HELP topoplace_nodefeed_decisions_total Placement requests answered, by answer.\n"
         "# TYPE topoplace_nodefeed_decisions_total counter\n";
    for (const auto k : {ServiceReply::Kind::Planned, ServiceReply::Kind::Busy, ServiceReply::Kind::Never,
                         ServiceReply::Kind::Invalid, ServiceReply::Kind::Unsupported, ServiceReply::Kind::Refused}) {
        const auto it = c.replies.find(reply_kind_name(k));
        s += std::string("topoplace_nodefeed_decisions_total{answer=\"") + reply_kind_name(k) + "\"} "
             + std::to_string(it == c.replies.end() ? 0 : it->second) + "\n";
    }
    gauge("topoplace_nodefeed_hosts", "Hosts of the snapshot served.", c.hosts);
    gauge("topoplace_nodefeed_unhealthy_hosts", "Hosts the health store flags unhealthy (at the last request).",
          c.unhealthy);
    gauge("topoplace_nodefeed_degraded_hosts", "Hosts the health store flags degraded (at the last request).",
          c.degraded);
    gauge("topoplace_nodefeed_running_multi_node_jobs",
          "Running jobs on several hosts at the last job table read (their uplinks, for policy=cost).",
          c.running_multi_node);
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.3f", c.job_read_seconds);
    s += std::string(
             "# HELP topoplace_nodefeed_job_read_seconds How long the last job table read took (a child "
             "process: the service answers meanwhile).\n# TYPE topoplace_nodefeed_job_read_seconds gauge\n"
             "topoplace_nodefeed_job_read_seconds ")
         + secs + "\n";
    gauge("topoplace_nodefeed_last_read_timestamp_seconds", "Unix time of the last successful read of slurmctld.",
          c.last_read_unix);
    return s;
}

Result<std::string> encode_request(const ServiceRequest& r) {
    const std::pair<const char*, const std::string*> fields[] = {
        {"snapshot", &r.snapshot},      {"health", &r.health},
        {"nodes", &r.sr.nodes},         {"gpus_per_node", &r.sr.gpus_per_node},
        {"gres", &r.sr.gres},           {"gpus", &r.sr.gpus},
        {"exclusive", &r.sr.exclusive}, {"nodelist", &r.sr.nodelist},
        {"exclude", &r.sr.exclude}};
    std::string out(kHeader);
    out += '\n';
    for (const auto& [k, v] : fields) {
        if (has_newline(*v)) return fail(Errc::InvalidArgument, std::string(k) + ": a newline in the value");
        put(out, k, *v);
    }
    put(out, "mode", mode_name(r.opts.mode.value_or(Mode::Pack)));
    if (r.opts.max_tier) put(out, "max_tier", std::to_string(*r.opts.max_tier));  // absent: any tier
    put(out, "nvl", r.opts.nvl ? "1" : "0");
    put(out, "segment", std::to_string(r.opts.segment));
    put(out, "wait", std::to_string(r.wait));
    if (r.policy == placement::Policy::Cost) put(out, "policy", "cost");  // absent: topo
    if (out.size() > kMaxMessage) return fail(Errc::InvalidArgument, "request over 64 KiB");
    return out;
}

Result<ServiceRequest> decode_request(std::string_view s) {
    auto lines = lines_of(s);
    if (!lines) return fail(std::move(lines).error());
    ServiceRequest r;
    std::map<std::string, std::string*> text = {{"snapshot", &r.snapshot},      {"health", &r.health},
                                                {"nodes", &r.sr.nodes},         {"gpus_per_node", &r.sr.gpus_per_node},
                                                {"gres", &r.sr.gres},           {"gpus", &r.sr.gpus},
                                                {"exclusive", &r.sr.exclusive}, {"nodelist", &r.sr.nodelist},
                                                {"exclude", &r.sr.exclude}};
    std::map<std::string, bool> seen;
    for (auto& [k, v] : *lines) {
        if (seen[k]) return fail(Errc::Parse, "request: '" + k + "' given twice");
        seen[k] = true;
        if (auto it = text.find(k); it != text.end()) {
            *it->second = std::move(v);
        } else if (k == "mode") {
            auto m = parse_mode(v.c_str());
            if (!m || *m == Mode::Off) return fail(Errc::Parse, "request: mode must be pack or spread");
            r.opts.mode = *m;
        } else if (k == "max_tier") {
            auto n = small_int(v, -1, 15);  // -1: any tier, as a peer of the first version sends it
            if (!n) return fail(Errc::Parse, "request: max_tier out of range");
            if (*n >= 0) r.opts.max_tier = *n;
        } else if (k == "nvl") {
            if (v != "0" && v != "1") return fail(Errc::Parse, "request: nvl must be 0 or 1");
            r.opts.nvl = v == "1";
        } else if (k == "segment") {
            auto n = small_int(v, 0, 65536);
            if (!n) return fail(Errc::Parse, "request: segment out of range");
            r.opts.segment = *n;
        } else if (k == "wait") {
            auto n = small_int(v, 0, 86400);
            if (!n) return fail(Errc::Parse, "request: wait out of range");
            r.wait = *n;
        } else if (k == "policy") {
            const auto p = parse_pack_policy(v);
            if (!p) return fail(Errc::Parse, "request: policy must be topo or cost");
            r.policy = *p;
        } else {
            return fail(Errc::Parse, "request: unknown key '" + k + "'");
        }
    }
    if (r.snapshot.empty() || !r.opts.mode) return fail(Errc::Parse, "request: snapshot and mode are required");
    return r;
}

std::string encode_reply(const ServiceReply& r) {
    // Every reply fits the 64 KiB a client reads (issue 32 point 6): a message or explanation
    // is cut to fit; a plan whose variables alone do not fit (an exclude list of thousands of
    // flagged hosts) is answered `refused`, and the plugin then decides in-process, where no
    // such bound applies.
    constexpr std::size_t kRoom = kMaxMessage - 64;  // header, kind, "text=", newlines
    auto cut = [](std::string v, std::size_t room) {
        if (v.size() > room) {
            v.resize(room >= 14 ? room - 14 : 0);
            v += " [cut to fit]";
        }
        return v;
    };
    std::string out(kHeader);
    out += '\n';
    const bool planned = r.kind == ServiceReply::Kind::Planned;
    // a plan's variables; a busy answer's exclusions (Decider's unplanned_env)
    std::string vars;
    if (planned || r.kind == ServiceReply::Kind::Busy)
        for (const auto& [k, v] : r.env) put(vars, "env." + one_line(k), one_line(v));
    if (out.size() + vars.size() > kRoom) {
        put(out, "kind", kind_name(ServiceReply::Kind::Refused));
        put(out, "message",
            std::string(planned ? "the plan's" : "the exclusions'") + " variables are " + std::to_string(vars.size())
                + " bytes, over the service's 64 KiB reply: decide in-process");
        return out;
    }
    put(out, "kind", kind_name(r.kind));
    out += vars;
    if (planned)
        put(out, "text", cut(one_line(r.text), kRoom - out.size()));
    else
        put(out, "message", cut(one_line(r.message), kRoom - out.size()));
    return out;
}

Result<ServiceReply> decode_reply(std::string_view s) {
    auto lines = lines_of(s);
    if (!lines) return fail(std::move(lines).error());
    ServiceReply r;
    bool kind = false;
    for (auto& [k, v] : *lines) {
        if (k == "kind") {
            using K = ServiceReply::Kind;
            static const std::map<std::string, K> kinds = {{"planned", K::Planned}, {"unsupported", K::Unsupported},
                                                           {"invalid", K::Invalid}, {"never", K::Never},
                                                           {"busy", K::Busy},       {"refused", K::Refused}};
            auto it = kinds.find(v);
            if (it == kinds.end() || kind) return fail(Errc::Parse, "reply: bad or repeated kind");
            r.kind = it->second;
            kind = true;
        } else if (k == "message") {
            r.message = std::move(v);
        } else if (k == "text") {
            r.text = std::move(v);
        } else if (k.rfind("env.TOPOPLACE_", 0) == 0 && k.size() > 14) {
            r.env.emplace_back(k.substr(4), std::move(v));
        } else {
            return fail(Errc::Parse, "reply: unknown key '" + k + "'");
        }
    }
    if (!kind) return fail(Errc::Parse, "reply: no kind");
    if (r.kind == ServiceReply::Kind::Planned && r.env.empty()) return fail(Errc::Parse, "reply: a plan without env");
    return r;
}

Status wait_io(int fd, short events, std::chrono::steady_clock::time_point deadline) {
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) return fail(Errc::Io, "timed out");
        pollfd p{fd, events, 0};
        const int r = ::poll(&p, 1, static_cast<int>(left));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return fail(Errc::Io, std::string("poll: ") + errno_text(errno));
        if (r == 0) return fail(Errc::Io, "timed out");
        return Ok{};
    }
}

Status send_all(int fd, std::string_view data, std::chrono::steady_clock::time_point deadline) {
    std::size_t sent = 0;
    while (sent < data.size()) {
        const ssize_t w = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
        if (w > 0) {
            sent += static_cast<std::size_t>(w);
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (auto st = wait_io(fd, POLLOUT, deadline); !st) return st;
        } else {
            return fail(Errc::Io, std::string("send: ") + errno_text(errno));
        }
    }
    return Ok{};
}

Result<std::string> recv_all(int fd, std::chrono::steady_clock::time_point deadline) {
    std::string in;
    char buf[4096];
    for (;;) {
        const ssize_t r = ::recv(fd, buf, sizeof buf, 0);
        if (r > 0) {
            in.append(buf, static_cast<std::size_t>(r));
            if (in.size() > kMaxMessage) return fail(Errc::Parse, "message over 64 KiB");
        } else if (r == 0) {
            return in;
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (auto st = wait_io(fd, POLLIN, deadline); !st) return fail(std::move(st).error());
        } else {
            return fail(Errc::Io, std::string("recv: ") + errno_text(errno));
        }
    }
}

ServiceServer::~ServiceServer() {
    for (auto& c : conns_) ::close(c.fd);
}

void ServiceServer::drop(std::size_t i) {
    ::close(conns_[i].fd);
    conns_.erase(conns_.begin() + static_cast<std::ptrdiff_t>(i));
}

void ServiceServer::accept_new() {
    // A bounded number per step: a flood of connects cannot keep the loop from the others.
    for (int k = 0; k < 64; ++k) {
        const int fd = ::accept4(lfd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;
        ucred peer{};
        socklen_t plen = sizeof peer;
        if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &plen) != 0) {
            ::close(fd);
            continue;
        }
        // Past a limit, the oldest unanswered connection of this uid goes, else the oldest
        // unanswered of all (answered ones are only writing their reply).
        auto oldest = [&](bool same_uid) -> std::optional<std::size_t> {
            for (std::size_t i = 0; i < conns_.size(); ++i)
                if (!conns_[i].answered && (!same_uid || conns_[i].uid == peer.uid)) return i;
            return std::nullopt;
        };
        std::size_t mine = 0;
        for (const auto& c : conns_) mine += c.uid == peer.uid ? 1 : 0;
        if (mine >= limits_.max_per_uid) {
            if (auto i = oldest(true)) {
                drop(*i);
                ++dropped_;
            }
        }
        if (conns_.size() >= limits_.max_connections) {
            auto i = oldest(true);
            if (!i) i = oldest(false);
            if (!i) i = 0;
            drop(*i);
            ++dropped_;
        }
        Conn c;
        c.fd = fd;
        c.uid = peer.uid;
        c.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits_.per_connection_ms);
        conns_.push_back(std::move(c));
    }
}

void ServiceServer::prune_buckets(std::chrono::steady_clock::time_point now) {
    if (buckets_.size() <= 4096) return;  // bounded: forget the uids whose budget is whole again
    for (auto it = buckets_.begin(); it != buckets_.end();) {
        const double ms = std::chrono::duration<double>(now - it->second.last).count() * limits_.uid_ms_per_s;
        it = it->second.balance_ms + ms >= limits_.uid_burst_ms ? buckets_.erase(it) : std::next(it);
    }
}

ServiceServer::Bucket& ServiceServer::bucket(uid_t uid, std::chrono::steady_clock::time_point now) {
    auto [it, fresh] = buckets_.try_emplace(uid, Bucket{limits_.uid_burst_ms, now});
    Bucket& b = it->second;
    if (!fresh) {
        const double earned = std::chrono::duration<double>(now - b.last).count() * limits_.uid_ms_per_s;
        b.balance_ms = std::min(limits_.uid_burst_ms, b.balance_ms + std::max(earned, 0.0));
        b.last = now;
    }
    return b;
}

int ServiceServer::step(int timeout_ms, const Answer& answer) {
    using clock = std::chrono::steady_clock;
    auto now = clock::now();
    for (const auto& c : conns_) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(c.deadline - now).count() + 1;
        timeout_ms = static_cast<int>(std::clamp<long long>(left, 0, timeout_ms));
    }
    std::vector<pollfd> pfds;
    pfds.reserve(conns_.size() + 1);
    pfds.push_back({lfd_, POLLIN, 0});
    for (const auto& c : conns_) pfds.push_back({c.fd, static_cast<short>(c.answered ? POLLOUT : POLLIN), 0});
    if (::poll(pfds.data(), pfds.size(), std::max(timeout_ms, 0)) < 0) return 0;
    int done = 0;
    std::vector<char> gone(conns_.size(), 0);
    std::vector<std::size_t> complete;  // read to the client's EOF, to be answered
    for (std::size_t i = 0; i < conns_.size(); ++i) {
        Conn& c = conns_[i];
        if (pfds[i + 1].revents == 0 || c.answered) continue;
        char buf[4096];
        for (;;) {
            const ssize_t r = ::recv(c.fd, buf, sizeof buf, 0);
            if (r > 0) {
                c.in.append(buf, static_cast<std::size_t>(r));
                if (c.in.size() > kMaxMessage) {
                    gone[i] = 1;
                    break;
                }
            } else if (r == 0) {
                complete.push_back(i);
                break;
            } else if (errno == EINTR) {
                continue;
            } else {
                if (errno != EAGAIN && errno != EWOULDBLOCK) gone[i] = 1;
                break;
            }
        }
    }
    // Answer the richest uid first; a uid whose budget is spent is told nothing.
    now = clock::now();
    prune_buckets(now);
    for (const std::size_t i : complete) (void)bucket(conns_[i].uid, now);
    std::stable_sort(complete.begin(), complete.end(), [&](std::size_t a, std::size_t b) {
        return buckets_[conns_[a].uid].balance_ms > buckets_[conns_[b].uid].balance_ms;
    });
    for (const std::size_t i : complete) {
        Conn& c = conns_[i];
        const auto t0 = clock::now();
        Bucket& b = bucket(c.uid, t0);
        if (b.balance_ms < limits_.min_request_ms) {  // not even one request's worth left
            gone[i] = 1;
            ++over_budget_;
            continue;
        }
        c.out = answer(c.in, c.uid);
        c.in.clear();
        c.answered = true;
        const double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        b.balance_ms -= std::max(ms, limits_.min_request_ms);
    }
    for (std::size_t i = 0; i < conns_.size(); ++i) {
        Conn& c = conns_[i];
        if (c.answered && gone[i] == 0) {
            while (c.sent < c.out.size()) {
                const ssize_t w = ::send(c.fd, c.out.data() + c.sent, c.out.size() - c.sent, MSG_NOSIGNAL);
                if (w > 0) {
                    c.sent += static_cast<std::size_t>(w);
                } else if (w < 0 && errno == EINTR) {
                    continue;
                } else {
                    if (w == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) gone[i] = 1;
                    break;
                }
            }
            if (c.sent == c.out.size()) {
                ++done;
                gone[i] = 1;
            }
        }
    }
    now = clock::now();
    for (std::size_t i = conns_.size(); i-- > 0;) {
        if (gone[i] != 0 || conns_[i].deadline <= now) {
            if (gone[i] == 0 || !conns_[i].answered) ++dropped_;
            drop(i);
        }
    }
    if ((pfds[0].revents & POLLIN) != 0) accept_new();
    return done;
}

Result<ServiceReply> call_service(const std::string& socket_path, const ServiceRequest& req, int timeout_ms,
                                  uid_t service_uid) {
    auto msg = encode_request(req);
    if (!msg) return fail(std::move(msg).error());
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socket_path.size() >= sizeof addr.sun_path) return fail(Errc::InvalidArgument, "socket path too long");
    std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return fail(Errc::Io, std::string("socket: ") + errno_text(errno));

    struct Closer {
        int fd;

        ~Closer() { ::close(fd); }
    } closer{fd};

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        // A Unix socket's connect does not wait: EAGAIN is a full listen backlog.
        if (errno == EAGAIN) return fail(Errc::Io, socket_path + ": the service's backlog is full");
        if (errno != EINPROGRESS) return fail(Errc::Io, socket_path + ": " + errno_text(errno));
        if (auto w = wait_io(fd, POLLOUT, deadline); !w) return fail(Errc::Io, socket_path + ": " + w.error().message);
        int err = 0;
        socklen_t len = sizeof err;
        if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0)
            return fail(Errc::Io, socket_path + ": " + errno_text(err != 0 ? err : errno));
    }
    ucred peer{};
    socklen_t plen = sizeof peer;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &plen) != 0 || peer.uid == static_cast<uid_t>(-1)) {
        return fail(Errc::Io, socket_path + ": no peer credentials (not connected)");
    }
    if (peer.uid != service_uid) {
        return fail(Errc::Io, socket_path + ": the service runs as uid " + std::to_string(peer.uid) + ", not "
                                  + std::to_string(service_uid));
    }
    if (auto st = send_all(fd, *msg, deadline); !st) return fail(Errc::Io, socket_path + ": " + st.error().message);
    ::shutdown(fd, SHUT_WR);
    auto in = recv_all(fd, deadline);
    if (!in) return fail(in.error().code, socket_path + ": " + in.error().message);
    return decode_reply(*in);
}

}  // namespace topo::spank
