// SPDX-License-Identifier: Apache-2.0
// The placement service of topoplace-nodefeed and the plugin's client (spank/core/service.hpp):
// the wire format both ways and every way it is refused, the service's decision against the
// plugin's own (same engine, health exclusions), and the client's bounded exchange over a
// real Unix socket (served by a thread of this test; the plugin itself starts none).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/hostlist.hpp>
#include <topo/placement/place.hpp>

#include "core.hpp"
#include "lab_topology.hpp"
#include "service.hpp"
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace topo;
using namespace topo::spank;
using K = ServiceReply::Kind;

using topo::spank::testing::lab;

ServiceRequest request(const char* nodes) {
    ServiceRequest r = topo::spank::testing::pack_request(nodes);
    r.snapshot = "/etc/slurm/topoplace.json";
    r.health = "/var/lib/topoplace/health";
    r.opts.max_tier = 1;
    r.opts.segment = 2;
    r.wait = 120;
    return r;
}

TEST(Service, RequestRoundTrip) {
    auto r = request("4");
    r.sr.gpus_per_node = "h100:8";
    r.sr.exclude = "n[001-002]";
    auto wire = encode_request(r);
    ASSERT_TRUE(wire) << wire.error().to_string();
    EXPECT_EQ(wire->rfind("topoplace-service 1\n", 0), 0U);
    auto back = decode_request(*wire);
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(back->snapshot, r.snapshot);
    EXPECT_EQ(back->health, r.health);
    EXPECT_EQ(back->sr.nodes, "4");
    EXPECT_EQ(back->sr.gpus_per_node, "h100:8");
    EXPECT_EQ(back->sr.exclusive, "exclusive");
    EXPECT_EQ(back->sr.exclude, "n[001-002]");
    EXPECT_EQ(back->opts.mode, Mode::Pack);
    EXPECT_EQ(back->opts.max_tier, 1);
    EXPECT_EQ(back->opts.segment, 2);
    EXPECT_FALSE(back->opts.nvl);
    EXPECT_EQ(back->wait, 120);
    EXPECT_EQ(back->policy, placement::Policy::Topo);
    EXPECT_EQ(wire->find("policy="), std::string::npos);  // topo is not sent: a first-version service answers it
    r.policy = placement::Policy::Cost;
    auto cost = encode_request(r);
    ASSERT_TRUE(cost);
    EXPECT_NE(cost->find("\npolicy=cost\n"), std::string::npos) << *cost;
    auto cost_back = decode_request(*cost);
    ASSERT_TRUE(cost_back) << cost_back.error().to_string();
    EXPECT_EQ(cost_back->policy, placement::Policy::Cost);
    for (const char* bad : {"linear", "spread", "", "Cost"}) {
        auto w = *wire + "policy=" + bad + "\n";
        EXPECT_FALSE(decode_request(w)) << bad;
    }
    // a value with a newline cannot be sent (it would forge a line)
    r.sr.exclude = "n001\nmode=spread";
    EXPECT_FALSE(encode_request(r));
}

TEST(Service, MalformedRequestsAreRefused) {
    const std::string good = *encode_request(request("4"));
    const std::string head = "topoplace-service 1\n";
    for (const std::string& bad :
         {std::string(), std::string("topoplace-service 2\nsnapshot=/x\nmode=pack\n"),
          head + "snapshot=/x\nmode=pack",                 // last line not terminated
          head + "snapshot=/x\nmode=off\n",                // nothing to place
          head + "snapshot=/x\nmode=pack\nmode=spread\n",  // twice
          head + "snapshot=/x\nmode=pack\ncolour=red\n",   // unknown key
          head + "snapshot=/x\nmode=pack\nmax_tier=16\n", head + "snapshot=/x\nmode=pack\nwait=-1\n",
          head + "snapshot=/x\nmode=pack\nsegment=1e3\n", head + "snapshot=/x\nmode=pack\nnvl=yes\n",
          head + "mode=pack\n",    // no snapshot
          head + "snapshot=/x\n",  // no mode
          head + "=x\nsnapshot=/x\nmode=pack\n", head + "snapshot\nmode=pack\n",
          good + std::string(std::size_t{70} * 1024, 'x') + "\n"}) {
        EXPECT_FALSE(decode_request(bad)) << bad.substr(0, 80);
    }
    EXPECT_TRUE(decode_request(good));
}

TEST(Service, RepliesRoundTripAndOnlyCarryTopoplaceVariables) {
    ServiceReply p;
    p.kind = K::Planned;
    p.env = {{"TOPOPLACE_CONSTRAINT", "lg_g001"}, {"TOPOPLACE_SWITCHES", "1"}};
    p.text = "pack: n[001-004] ->\nconstraint";
    auto back = decode_reply(encode_reply(p));
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(back->kind, K::Planned);
    EXPECT_EQ(back->env, p.env);
    EXPECT_EQ(back->text, "pack: n[001-004] -> constraint");  // one line
    for (K k : {K::Unsupported, K::Invalid, K::Never, K::Busy, K::Refused}) {
        ServiceReply e;
        e.kind = k;
        e.message = "why";
        auto b = decode_reply(encode_reply(e));
        ASSERT_TRUE(b);
        EXPECT_EQ(b->kind, k);
        EXPECT_EQ(b->message, "why");
    }
    // a busy answer carries the exclusions the job keeps without a plan, and its message
    ServiceReply busy;
    busy.kind = K::Busy;
    busy.message = "only 3 of 4 hosts free";
    busy.env = {{"TOPOPLACE_MODE", "pack"}, {"TOPOPLACE_EXCLUDE", "n[001,006]"}};
    auto bb = decode_reply(encode_reply(busy));
    ASSERT_TRUE(bb) << bb.error().to_string();
    EXPECT_EQ(bb->kind, K::Busy);
    EXPECT_EQ(bb->env, busy.env);
    EXPECT_EQ(bb->message, busy.message);
    // other refusals never carry variables
    busy.kind = K::Never;
    auto nb = decode_reply(encode_reply(busy));
    ASSERT_TRUE(nb);
    EXPECT_TRUE(nb->env.empty());
    const std::string head = "topoplace-service 1\n";
    EXPECT_FALSE(decode_reply(head + "kind=planned\nenv.LD_PRELOAD=/tmp/x.so\ntext=t\n"));  // not ours to set
    EXPECT_FALSE(decode_reply(head + "kind=planned\ntext=t\n"));                            // a plan without env
    EXPECT_FALSE(decode_reply(head + "kind=maybe\n"));
    EXPECT_FALSE(decode_reply(head + "message=x\n"));
    EXPECT_FALSE(decode_reply("HTTP/1.1 200 OK\n"));
}

// Issue 32 point 6: the client reads at most 64 KiB, so every reply must fit. Before, a plan
// excluding thousands of flagged hosts (a compressed hostlist of scattered names) or a long
// explanation made a reply the client refused.
TEST(Service, EveryReplyFitsTheClientsBound) {
    std::string scattered;  // 12,000 flagged hosts, no two adjacent: no range compresses them
    for (int i = 0; i < 12000; ++i)
        scattered += (i > 0 ? "," : "") + std::string("gpu") + std::to_string(100000 + 2 * i);
    ServiceReply p;
    p.kind = K::Planned;
    p.env = {{"TOPOPLACE_CONSTRAINT", "lg_g001"}, {"TOPOPLACE_EXCLUDE", scattered}};
    p.text = "pack";
    const std::string wire = encode_reply(p);
    EXPECT_LE(wire.size(), 64U * 1024);
    auto back = decode_reply(wire);
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(back->kind, K::Refused);  // the plugin decides in-process
    EXPECT_NE(back->message.find("64 KiB"), std::string::npos) << back->message;

    p.env = {{"TOPOPLACE_CONSTRAINT", "lg_g001"}};
    p.text = std::string(100000, 'e');  // a long explanation: cut, the plan kept
    auto cut = decode_reply(encode_reply(p));
    ASSERT_TRUE(cut) << cut.error().to_string();
    EXPECT_EQ(cut->kind, K::Planned);
    EXPECT_EQ(cut->env, p.env);
    EXPECT_NE(cut->text.find("[cut to fit]"), std::string::npos);

    // a busy answer whose exclusions do not fit: refused, the plugin decides in-process
    ServiceReply b;
    b.kind = K::Busy;
    b.message = "busy";
    b.env = {{"TOPOPLACE_MODE", "pack"}, {"TOPOPLACE_EXCLUDE", scattered}};
    auto bb = decode_reply(encode_reply(b));
    ASSERT_TRUE(bb) << bb.error().to_string();
    EXPECT_EQ(bb->kind, K::Refused);

    ServiceReply m;
    m.kind = K::Never;
    m.message = std::string(100000, 'm');
    auto mb = decode_reply(encode_reply(m));
    ASSERT_TRUE(mb) << mb.error().to_string();
    EXPECT_EQ(mb->kind, K::Never);
}

TEST(Service, DecidesAsThePluginDoes) {
    const Topology& t = *lab();
    placement::ClusterState st(t);
    for (std::uint32_t h = 0; h < 3; ++h) st.set_state(HostId{h}, placement::NodeState::Alloc);
    auto req = request("6");
    req.opts.segment = 0;
    req.opts.max_tier.reset();
    // the plugin's own path: request, engine, plan
    auto job = make_request(t, req.sr, req.opts);
    ASSERT_TRUE(job);
    auto p = placement::place(t, st, *job);
    ASSERT_TRUE(p);
    const Plan plan = make_plan(t, *p, Mode::Pack, 120, {});
    const placement::Placer placer(t);
    auto rep = serve(placer, req, st, {});
    ASSERT_EQ(rep.kind, K::Planned) << rep.message;
    std::vector<std::pair<std::string, std::string>> want;
    for (auto& kv : plan_env(plan))
        if (!kv.second.empty()) want.push_back(kv);
    EXPECT_EQ(rep.env, want);
    EXPECT_EQ(rep.text, plan_text(Mode::Pack, plan, *p));
    // an unhealthy host of that plan is excluded and named
    const HostId sick = p->hosts.front();
    auto rep2 = serve(placer, req, st, HealthFlags{{{sick, "xid 79"}}, {}, {}});
    ASSERT_EQ(rep2.kind, K::Planned);
    EXPECT_EQ(rep2.text.find(t.host(sick).name + ","), std::string::npos);
    bool excluded = false;
    for (const auto& [k, v] : rep2.env) excluded |= k == "TOPOPLACE_EXCLUDE" && v == t.host(sick).name;
    EXPECT_TRUE(excluded) << rep2.text;
    // never, busy, invalid, unsupported
    EXPECT_EQ(serve(placer, request("65"), placement::ClusterState(t), {}).kind, K::Never);
    placement::ClusterState full(t);
    for (std::uint32_t h = 0; h < t.hosts().size(); ++h) full.set_state(HostId{h}, placement::NodeState::Alloc);
    EXPECT_EQ(serve(placer, request("2"), full, {}).kind, K::Busy);
    EXPECT_TRUE(serve(placer, request("2"), full, {}).env.empty());  // nothing flagged, nothing to keep off
    // busy with hosts flagged: the answer keeps the job off them at its start (unplanned_env),
    // as the plugin's in-process decision does
    {
        const HealthFlags fl{{{HostId{0}, "xid 79"}}, {{HostId{5}, 1.3}}, {}};
        auto b = serve(placer, request("2"), full, fl);
        ASSERT_EQ(b.kind, K::Busy);
        auto r2 = make_request(t, request("2").sr, request("2").opts);
        ASSERT_TRUE(r2);
        r2->excluded.push_back(HostId{0});
        EXPECT_EQ(b.env, unplanned_env(t, *r2, fl, Mode::Pack));
        ASSERT_EQ(b.env.size(), 2U);
        EXPECT_EQ(b.env[1].second,
                  compress_hostlist(std::vector<std::string>{t.host(HostId{0}).name, t.host(HostId{5}).name}));
    }
    EXPECT_EQ(serve(placer, request("x"), st, {}).kind, K::Invalid);
    auto chosen = request("2");
    chosen.sr.nodelist = "n[001-002]";
    EXPECT_EQ(serve(placer, chosen, st, {}).kind, K::Unsupported);
    // a degraded host of that plan (issue 16 item 5) is left out of the multi-node job,
    // named in the text, and in this job's exclude list (Slurm picks hosts inside the plan's
    // leaf groups: it must not pick it either); a one-node job may have it
    const HostId slow = p->hosts.back();
    const HealthFlags deg{{}, {{slow, 1.3}}, {}};
    auto rep3 = serve(placer, req, st, deg);
    ASSERT_EQ(rep3.kind, K::Planned) << rep3.message;
    EXPECT_NE(rep3.text.find("degraded: kept 1 degraded host(s) out (" + t.host(slow).name + ")"), std::string::npos)
        << rep3.text;
    bool ex = false;
    for (const auto& [k, v] : rep3.env) ex |= k == "TOPOPLACE_EXCLUDE" && v == t.host(slow).name;
    EXPECT_TRUE(ex) << rep3.text;
    auto one_req = request("1");
    one_req.opts.segment = 0;
    auto one = serve(placer, one_req, st, deg);
    ASSERT_EQ(one.kind, K::Planned) << one.message;
    for (const auto& [k, v] : one.env) EXPECT_NE(k, "TOPOPLACE_EXCLUDE") << v;
}

/// A Unix socket served by a thread: answers each connection with `reply` (or, when
/// `silent`, reads and never answers).
struct TestServer {
    std::string path;
    int fd = -1;
    std::thread th;
    std::atomic<bool> stop{false};

    TestServer(const std::string& reply, bool silent) {
        path = (std::filesystem::temp_directory_path() / ("tp-svc-" + std::to_string(::getpid()) + ".sock")).string();
        ::unlink(path.c_str());
        fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
        EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
        EXPECT_EQ(::listen(fd, 4), 0);
        th = std::thread([this, reply, silent] {
            while (!stop) {
                pollfd p{fd, POLLIN, 0};
                if (::poll(&p, 1, 50) <= 0) continue;
                const int c = ::accept(fd, nullptr, nullptr);
                if (c < 0) continue;
                char buf[65536];
                std::string in;
                ssize_t r;
                while ((r = ::read(c, buf, sizeof buf)) > 0) in.append(buf, static_cast<std::size_t>(r));
                if (silent) {
                    while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(10));
                } else if (decode_request(in)) {
                    (void)(::write(c, reply.data(), reply.size()) < 0);
                }
                ::close(c);
            }
        });
    }

    ~TestServer() {
        stop = true;
        th.join();
        ::close(fd);
        ::unlink(path.c_str());
    }
};

TEST(Service, ClientExchangeIsBounded) {
    ServiceReply planned;
    planned.kind = K::Planned;
    planned.env = {{"TOPOPLACE_CONSTRAINT", "lg_g001"}};
    planned.text = "pack: n001";
    {
        TestServer s(encode_reply(planned), false);
        auto r = call_service(s.path, request("1"), 500, ::geteuid());
        ASSERT_TRUE(r) << r.error().to_string();
        EXPECT_EQ(r->kind, K::Planned);
        EXPECT_EQ(r->env, planned.env);
    }
    {
        TestServer s("HTTP/1.0 400\n", false);  // not the service
        auto r = call_service(s.path, request("1"), 500, ::geteuid());
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, Errc::Parse);
    }
    {
        TestServer s("", true);  // accepts, never answers
        const auto t0 = std::chrono::steady_clock::now();
        auto r = call_service(s.path, request("1"), 200, ::geteuid());
        const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        ASSERT_FALSE(r);
        EXPECT_NE(r.error().message.find("timed out"), std::string::npos) << r.error().message;
        EXPECT_GE(ms, 150);
        EXPECT_LT(ms, 1000);
    }
    {
        TestServer s(encode_reply(planned), false);  // a server of another uid is not the service
        auto r = call_service(s.path, request("1"), 500, ::geteuid() + 1);
        ASSERT_FALSE(r);
        EXPECT_NE(r.error().message.find("runs as uid"), std::string::npos) << r.error().message;
    }
    // nobody listening: an error at once
    const auto t0 = std::chrono::steady_clock::now();
    auto none = call_service("/nonexistent/topoplace.sock", request("1"), 500);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, Errc::Io);
    const double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(took, 100);
}

/// ServiceServer on a listening socket, stepped by a thread of this test.
struct LoopServer {
    std::string path;
    int fd = -1;
    std::thread th;
    std::atomic<bool> stop{false};
    std::atomic<long> answered{0};
    std::atomic<long> dropped{0};
    std::atomic<long> over_budget{0};

    explicit LoopServer(ServiceServer::Limits lim) {
        path = (std::filesystem::temp_directory_path() / ("tp-loop-" + std::to_string(::getpid()) + ".sock")).string();
        ::unlink(path.c_str());
        fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
        EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
        EXPECT_EQ(::listen(fd, 64), 0);
        th = std::thread([this, lim] {
            ServiceServer srv(fd, lim);
            ServiceReply planned;
            planned.kind = K::Planned;
            planned.env = {{"TOPOPLACE_CONSTRAINT", "lg_g001"}};
            planned.text = "pack: n001";
            const std::string reply = encode_reply(planned);
            while (!stop) {
                answered += srv.step(20, [&](const std::string& in, uid_t) {
                    return decode_request(in) ? reply : std::string("topoplace-service 1\nkind=refused\nmessage=bad\n");
                });
                dropped = srv.dropped();
                over_budget = srv.over_budget();
            }
        });
    }

    ~LoopServer() {
        stop = true;
        th.join();
        ::close(fd);
        ::unlink(path.c_str());
    }

    int connect_silent() const {
        const int c = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
        EXPECT_EQ(::connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
        return c;
    }
};

// Issue 17 finding 3: one silent connection used to hold the single-connection service for
// its whole 200 ms, three or more pushed every sbatch --topo to its 500 ms fallback.
TEST(ServiceServer, SilentConnectionsDoNotDelayOthers) {
    LoopServer s({.per_connection_ms = 200, .max_connections = 128, .max_per_uid = 16});
    std::vector<int> silent;
    silent.reserve(40);
    for (int i = 0; i < 40; ++i) silent.push_back(s.connect_silent());
    // Each legitimate request is answered (the client gives up after 500 ms otherwise),
    // though 40 silent connections of the same uid came first.
    for (int i = 0; i < 5; ++i) {
        auto r = call_service(s.path, request("1"), 500, ::geteuid());
        ASSERT_TRUE(r) << i << ": " << r.error().to_string();
        EXPECT_EQ(r->kind, K::Planned);
    }
    // The silent ones were closed unanswered: by the per-uid limit or at their deadline.
    for (int c : silent) {
        pollfd p{c, POLLIN, 0};
        ASSERT_EQ(::poll(&p, 1, 2000), 1);
        char b;
        EXPECT_EQ(::read(c, &b, 1), 0);
        ::close(c);
    }
    // The loop copies the server's counters after step() returns, and step() closes (or
    // answers) first: give the copy up to 2 s under load, the bound itself is unchanged.
    for (int i = 0; i < 200 && (s.answered.load() < 5 || s.dropped.load() < 40); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_GE(s.answered.load(), 5);
    EXPECT_GE(s.dropped.load(), 40);
}

TEST(ServiceServer, OversizedAndUnterminatedRequestsAreClosed) {
    LoopServer s({.per_connection_ms = 200, .max_connections = 8, .max_per_uid = 8});
    const int c = s.connect_silent();
    const std::string big(std::size_t{70} * 1024, 'x');
    std::size_t sent = 0;
    while (sent < big.size()) {
        const ssize_t w = ::send(c, big.data() + sent, big.size() - sent, MSG_NOSIGNAL);
        if (w <= 0) break;  // the service closed it
        sent += static_cast<std::size_t>(w);
    }
    pollfd p{c, POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 2000), 1);
    char b;
    EXPECT_LE(::read(c, &b, 1), 0);  // closed, nothing answered
    ::close(c);
    auto r = call_service(s.path, request("1"), 500, ::geteuid());
    ASSERT_TRUE(r) << r.error().to_string();
}

// Issue 32 point 4: a uid's answering time is budgeted. Here each answer costs 10 ms of a
// 20 ms budget refilled at 10 ms/s: two are answered, the third is closed unanswered (the
// client decides itself), and after a second one more is answered. Another uid (root only:
// a child that drops to nobody) is answered while the first is out of budget.
TEST(ServiceServer, AUidOverItsBudgetIsToldNothingUntilItRefills) {
    LoopServer s({.per_connection_ms = 200,
                  .max_connections = 128,
                  .max_per_uid = 16,
                  .uid_ms_per_s = 10,
                  .uid_burst_ms = 20,
                  .min_request_ms = 10});
    for (int i = 0; i < 2; ++i) {
        auto r = call_service(s.path, request("1"), 500, ::geteuid());
        ASSERT_TRUE(r) << i << ": " << r.error().to_string();
        EXPECT_EQ(r->kind, K::Planned);
    }
    auto over = call_service(s.path, request("1"), 500, ::geteuid());
    ASSERT_FALSE(over) << "a third request within the budget's second was answered";
    if (::geteuid() == 0) {
        const uid_t service = ::geteuid();
        ASSERT_EQ(::chmod(s.path.c_str(), 0777), 0);  // as the packaged socket: anyone may connect
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            // nobody: its own budget, untouched by root's
            if (::setresgid(65534, 65534, 65534) != 0 || ::setresuid(65534, 65534, 65534) != 0) ::_exit(3);
            auto r = call_service(s.path, request("1"), 500, service);
            ::_exit(r && r->kind == K::Planned ? 0 : 1);
        }
        int st = 0;
        ASSERT_EQ(::waitpid(pid, &st, 0), pid);
        EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "another uid was not answered, status " << st;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    auto again = call_service(s.path, request("1"), 500, ::geteuid());
    ASSERT_TRUE(again) << again.error().to_string();
    EXPECT_EQ(again->kind, K::Planned);
    for (int i = 0; i < 200 && s.over_budget.load() < 1; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_GE(s.over_budget.load(), 1);
}

// Issue 17 finding 8: a full listen backlog used to read "the service runs as uid 4294967295".
TEST(Service, FullBacklogIsNamed) {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("tp-backlog-" + std::to_string(::getpid()) + ".sock")).string();
    ::unlink(path.c_str());
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::snprintf(a.sun_path, sizeof a.sun_path, "%s", path.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(::listen(fd, 0), 0);  // never accepted: the backlog fills at once
    std::vector<int> fill;
    for (int i = 0; i < 16; ++i) {
        const int c = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
        if (::connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
            ::close(c);
            break;
        }
        fill.push_back(c);
    }
    auto r = call_service(path, request("1"), 200, ::geteuid());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("backlog is full"), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find("4294967295"), std::string::npos) << r.error().message;
    for (int c : fill) ::close(c);
    ::close(fd);
    ::unlink(path.c_str());
}

}  // namespace

namespace topo::spank {
namespace {

TEST(Service, FeedMetricsAreATextfileOfCountersByAnswer) {
    FeedCounters c;
    c.full_reads = 3;
    c.writes = 7;
    c.replies["planned"] = 5;
    c.replies["busy"] = 2;
    c.hosts = 64;
    c.degraded = 1;
    c.last_read_unix = 1763900000;
    c.job_reads = 4;
    c.running_multi_node = 2;
    c.over_budget = 6;
    c.job_read_seconds = 0.0425;
    const std::string t = feed_metrics_text(c);
    EXPECT_NE(t.find("# TYPE topoplace_nodefeed_full_reads_total counter\ntopoplace_nodefeed_full_reads_total 3\n"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("topoplace_nodefeed_decisions_total{answer=\"planned\"} 5\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_decisions_total{answer=\"busy\"} 2\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_decisions_total{answer=\"never\"} 0\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_degraded_hosts 1\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_last_read_timestamp_seconds 1763900000\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_job_reads_total 4\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_running_multi_node_jobs 2\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_over_budget_total 6\n"), std::string::npos);
    EXPECT_NE(t.find("topoplace_nodefeed_job_read_seconds 0.043\n"), std::string::npos) << t;
    // every sample line is "name{labels} value" or "name value"; every name has HELP and TYPE
    std::istringstream in(t);
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("# ", 0) == 0) continue;
        const auto name = l.substr(0, l.find_first_of("{ "));
        EXPECT_NE(t.find("# TYPE " + name + " "), std::string::npos) << l;
    }
}

}  // namespace
}  // namespace topo::spank
