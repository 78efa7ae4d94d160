// SPDX-License-Identifier: Apache-2.0
// The plugin's per-user node-state cache (spank/core/state_cache.hpp, plugstack state_cache=S):
// what is kept, what a decision marks taken, and every reason a file is not used.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/placement/place.hpp>

#include "core.hpp"
#include "state_cache.hpp"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace topo;
using namespace topo::spank;
using placement::NodeState;

constexpr std::int64_t kSec = 1'000'000'000;

TopologyPtr spec_topology(const std::string& file) {
    TopologyBuilder b;
    auto s = load_cluster_spec(std::string(TOPO_FIXTURES) + "/" + file, b);
    EXPECT_TRUE(s) << s.error().to_string();
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t) << t.error().to_string();
    return t ? *t : nullptr;
}

const TopologyPtr& lab() {
    static TopologyPtr t = spec_topology("lab/lab-3tier.spec.yaml");
    return t;
}

struct TmpDir {
    std::filesystem::path p;

    TmpDir() {
        char tmpl[] = "/tmp/topoplace-cache-test.XXXXXX";
        p = ::mkdtemp(tmpl);
    }

    ~TmpDir() { std::filesystem::remove_all(p); }
};

placement::ClusterState busy_state(const Topology& t) {
    placement::ClusterState s(t);
    s.set_state(HostId{0}, NodeState::Alloc);
    s.set_free_gpus(HostId{0}, 0);
    s.set_state(HostId{1}, NodeState::Mixed);
    s.set_free_gpus(HostId{1}, 3);
    s.set_state(HostId{2}, NodeState::Drain);
    s.set_total_gpus(HostId{3}, 4);
    return s;
}

/// A private temporary directory and the cache file of the lab topology in it.
class CacheFile : public ::testing::Test {
protected:
    const Topology& t = *lab();
    TmpDir d;
    const std::string path = state_cache_file(d.p.string(), "", t.fingerprint());
    const std::int64_t now = 1'800'000'000 * kSec;
};

TEST(StateCache, RoundTripKeepsEveryHost) {
    const auto& t = *lab();
    TmpDir d;
    const auto path = state_cache_file(d.p.string(), "/etc/slurm/slurm.conf", t.fingerprint());
    const auto s = busy_state(t);
    const std::int64_t now = 1'800'000'000 * kSec;
    ASSERT_TRUE(write_state_cache(path, t, s, nullptr, true, now));

    struct stat st {};

    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600U);
    double age = -1;
    auto r = read_state_cache(path, t, ::getuid(), 2, now + kSec / 2, &age);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_DOUBLE_EQ(age, 0.5);
    for (std::uint32_t h = 0; h < t.hosts().size(); ++h) {
        const auto& a = s.at(HostId{h});
        const auto& b = r->at(HostId{h});
        EXPECT_EQ(a.state, b.state) << h;
        EXPECT_EQ(a.free_gpus, b.free_gpus) << h;
        EXPECT_EQ(a.total_gpus, b.total_gpus) << h;
    }
    // the cached state places like the original
    placement::Request req;
    req.nodes_min = 6;
    auto p1 = placement::place(t, s, req);
    auto p2 = placement::place(t, *r, req);
    ASSERT_TRUE(p1 && p2);
    EXPECT_EQ(p1->hosts, p2->hosts);
}

TEST_F(CacheFile, RewritesInPlaceOnlyAPrivateFileOfTheSameSize) {
    ASSERT_TRUE(write_state_cache(path, t, busy_state(t), nullptr, true, now));

    struct stat a {};

    ASSERT_EQ(::stat(path.c_str(), &a), 0);
    ASSERT_TRUE(write_state_cache(path, t, placement::ClusterState(t), nullptr, true, now + kSec));

    struct stat b {};

    ASSERT_EQ(::stat(path.c_str(), &b), 0);
    EXPECT_EQ(a.st_ino, b.st_ino);  // same file, rewritten
    auto r = read_state_cache(path, t, ::getuid(), 2, now + kSec);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->at(HostId{0}).state, NodeState::Idle);  // the new content
    // a file others may read is replaced by a private one, not rewritten
    ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
    ASSERT_TRUE(write_state_cache(path, t, busy_state(t), nullptr, true, now));

    struct stat c {};

    ASSERT_EQ(::stat(path.c_str(), &c), 0);
    EXPECT_NE(c.st_ino, b.st_ino);
    EXPECT_EQ(c.st_mode & 0777, 0600U);
    // so is one of another size
    std::filesystem::resize_file(path, 10);
    ASSERT_TRUE(write_state_cache(path, t, busy_state(t), nullptr, true, now));
    EXPECT_TRUE(read_state_cache(path, t, ::getuid(), 2, now));
}

TEST_F(CacheFile, ADecisionIsMarkedTaken) {
    placement::ClusterState s(t);
    placement::Request whole;
    whole.nodes_min = 6;
    auto p = placement::place(t, s, whole);
    ASSERT_TRUE(p) << p.error().to_string();
    ASSERT_TRUE(write_state_cache(path, t, s, &*p, true, now));
    auto r = read_state_cache(path, t, ::getuid(), 5, now + kSec);
    ASSERT_TRUE(r) << r.error().to_string();
    for (auto h : p->hosts) EXPECT_EQ(r->at(h).state, NodeState::Alloc) << t.host(h).name;
    // the next job of the burst does not plan onto them
    auto next = placement::place(t, *r, whole);
    ASSERT_TRUE(next) << next.error().to_string();
    for (auto h : next->hosts) EXPECT_EQ(std::count(p->hosts.begin(), p->hosts.end(), h), 0) << t.host(h).name;

    // a shared job: its GPUs leave the free count, the host stays usable
    placement::Request shared;
    shared.exclusive = false;
    shared.gpus_per_node = 3;
    auto q = placement::place(t, s, shared);
    ASSERT_TRUE(q) << q.error().to_string();
    ASSERT_EQ(q->hosts.size(), 1U);
    ASSERT_TRUE(write_state_cache(path, t, s, &*q, false, now));
    r = read_state_cache(path, t, ::getuid(), 5, now);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->at(q->hosts[0]).state, NodeState::Mixed);
    EXPECT_EQ(r->free_gpus(t, q->hosts[0]), s.total_gpus(t, q->hosts[0]) - 3);
}

TEST_F(CacheFile, OldFutureOrForeignFilesAreMisses) {
    auto none = read_state_cache(path, t, ::getuid(), 2, now);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, Errc::NotFound);

    ASSERT_TRUE(write_state_cache(path, t, busy_state(t), nullptr, true, now));
    EXPECT_TRUE(read_state_cache(path, t, ::getuid(), 2, now + 2 * kSec));
    auto old = read_state_cache(path, t, ::getuid(), 2, now + 2 * kSec + 1);
    ASSERT_FALSE(old);
    EXPECT_EQ(old.error().code, Errc::StaleState);
    auto future = read_state_cache(path, t, ::getuid(), 2, now - kSec);
    ASSERT_FALSE(future);
    EXPECT_EQ(future.error().code, Errc::StaleState);

    // another uid's file, or one others can read or write
    auto other = read_state_cache(path, t, ::getuid() + 1, 2, now);
    ASSERT_FALSE(other);
    EXPECT_NE(other.error().message.find("not a private file"), std::string::npos) << other.error().message;
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    EXPECT_FALSE(read_state_cache(path, t, ::getuid(), 2, now));
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);

    // a link to a good file is not followed
    const auto link = d.p / "link.bin";
    ASSERT_EQ(::symlink(path.c_str(), link.c_str()), 0);
    EXPECT_FALSE(read_state_cache(link.string(), t, ::getuid(), 2, now));

    // another topology (other host count, other fingerprint)
    auto small = spec_topology("specs/gb200-nvl72x4.yaml");
    ASSERT_TRUE(small);
    auto wrong = read_state_cache(path, *small, ::getuid(), 2, now);
    ASSERT_FALSE(wrong);
}

TEST_F(CacheFile, DamagedFilesAreMisses) {
    ASSERT_TRUE(write_state_cache(path, t, busy_state(t), nullptr, true, now));
    const auto size = std::filesystem::file_size(path);
    for (std::uintmax_t at : {std::uintmax_t{0}, std::uintmax_t{9}, size / 2, size - 1}) {
        ASSERT_TRUE(write_state_cache(path, t, busy_state(t), nullptr, true, now));
        {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(static_cast<std::streamoff>(at));
            char c = 0;
            f.get(c);
            f.seekp(static_cast<std::streamoff>(at));
            f.put(static_cast<char>(c ^ 0x5a));
        }
        auto r = read_state_cache(path, t, ::getuid(), 2, now);
        ASSERT_FALSE(r) << "byte " << at;
        EXPECT_EQ(r.error().code, Errc::Parse) << r.error().to_string();
    }
    ASSERT_TRUE(write_state_cache(path, t, busy_state(t), nullptr, true, now));
    std::filesystem::resize_file(path, size - 3);
    auto cut = read_state_cache(path, t, ::getuid(), 2, now);
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().code, Errc::Parse);
}

TEST(StateCache, DirectoryMustBePrivate) {
    TmpDir d;
    std::string why;
    // the fallback is created 0700 under the given parent
    const auto dir = state_cache_dir(::getuid(), nullptr, "", d.p.string(), &why);
    ASSERT_EQ(dir, d.p.string() + "/topoplace-" + std::to_string(::getuid())) << why;

    struct stat st {};

    ASSERT_EQ(::lstat(dir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700U);
    // a usable $XDG_RUNTIME_DIR wins; one others can enter does not
    const auto xdg = d.p / "run-user";
    ASSERT_EQ(::mkdir(xdg.c_str(), 0700), 0);
    EXPECT_EQ(state_cache_dir(::getuid(), xdg.c_str(), "", d.p.string(), &why), xdg.string());
    ASSERT_EQ(::chmod(xdg.c_str(), 0755), 0);
    EXPECT_EQ(state_cache_dir(::getuid(), xdg.c_str(), "", d.p.string(), &why), dir);
    EXPECT_EQ(state_cache_dir(::getuid(), "relative/dir", "", d.p.string(), &why), dir);
    // a fallback that is group-accessible, or a link, is refused (no cache at all)
    ASSERT_EQ(::chmod(dir.c_str(), 0750), 0);
    EXPECT_EQ(state_cache_dir(::getuid(), nullptr, "", d.p.string(), &why), "");
    EXPECT_NE(why.find("not a private directory"), std::string::npos) << why;
    std::filesystem::remove(dir);
    ASSERT_EQ(::symlink(xdg.c_str(), dir.c_str()), 0);
    EXPECT_EQ(state_cache_dir(::getuid(), nullptr, "", d.p.string(), &why), "");
}

// Issue 17 finding 8: another user who pre-creates /tmp/topoplace-<uid> no longer disables
// the cache where /run/user/<uid> exists; without it the cache is off, quietly, as documented.
TEST(StateCache, SquattedTmpDirFallsBackToRunUser) {
    TmpDir d;
    std::string why;
    const std::string squat = d.p.string() + "/topoplace-" + std::to_string(::getuid());
    ASSERT_EQ(::mkdir(squat.c_str(), 0777), 0);
    ASSERT_EQ(::chmod(squat.c_str(), 0777), 0);  // as another user would leave it
    EXPECT_EQ(state_cache_dir(::getuid(), nullptr, "", d.p.string(), &why), "");
    EXPECT_NE(why.find("not a private directory"), std::string::npos) << why;
    const auto run = d.p / "run";
    ASSERT_EQ(::mkdir(run.c_str(), 0755), 0);
    const auto mine = run / std::to_string(::getuid());
    ASSERT_EQ(::mkdir(mine.c_str(), 0700), 0);
    EXPECT_EQ(state_cache_dir(::getuid(), nullptr, run.string(), d.p.string(), &why), mine.string());
    ASSERT_EQ(::chmod(mine.c_str(), 0711), 0);  // not private: not used
    EXPECT_EQ(state_cache_dir(::getuid(), nullptr, run.string(), d.p.string(), &why), "");
}

TEST(StateCache, FileNamesSeparateClustersAndTopologies) {
    EXPECT_NE(state_cache_file("/d", "/etc/slurm/a.conf", "fp"), state_cache_file("/d", "/etc/slurm/b.conf", "fp"));
    EXPECT_NE(state_cache_file("/d", "", "fp1"), state_cache_file("/d", "", "fp2"));
    EXPECT_EQ(state_cache_file("/d", "x", "fp"), state_cache_file("/d", "x", "fp"));
}

TEST(StateCache, PlugstackArgument) {
    auto c = parse_config({"state_cache=5"});
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->state_cache, 5);
    EXPECT_EQ(parse_config({})->state_cache, 0);
    for (const char* bad : {"state_cache=61", "state_cache=-1", "state_cache=2s", "state_cache=1.5", "state_cache="}) {
        auto r = parse_config({bad});
        ASSERT_FALSE(r) << bad;
        EXPECT_NE(r.error().message.find("state_cache"), std::string::npos) << r.error().message;
    }
}

// The shared feed (state_feed=, topoplace-nodefeed): world-readable, writable by its owner
// only (root in the plugin; the test's own uid here), replaced whole at every write, aged by
// the time of the feed's last slurmctld read.
TEST_F(CacheFile, FeedRoundTripModeAndOwner) {
    const uid_t me = ::geteuid();
    const auto s = busy_state(t);
    ASSERT_TRUE(write_state_feed(path, t, s, now));

    struct stat a {};

    ASSERT_EQ(::stat(path.c_str(), &a), 0);
    EXPECT_EQ(a.st_mode & 0777, 0644U);
    double age = -1;
    auto r = read_state_feed(path, t, 3, now + 2 * kSec, &age, me);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_DOUBLE_EQ(age, 2.0);
    for (std::uint32_t h = 0; h < t.hosts().size(); ++h) {
        EXPECT_EQ(s.at(HostId{h}).state, r->at(HostId{h}).state) << h;
        EXPECT_EQ(s.at(HostId{h}).free_gpus, r->at(HostId{h}).free_gpus) << h;
    }
    // every write is a new file renamed over the old one (readers never see a torn file)
    ASSERT_TRUE(write_state_feed(path, t, placement::ClusterState(t), now + kSec));

    struct stat b {};

    ASSERT_EQ(::stat(path.c_str(), &b), 0);
    EXPECT_NE(a.st_ino, b.st_ino);
    EXPECT_EQ(read_state_feed(path, t, 3, now + kSec, nullptr, me)->at(HostId{0}).state, NodeState::Idle);
    // too old, from the future, another owner, group- or world-writable, a link: not used
    auto old = read_state_feed(path, t, 3, now + 4 * kSec + 1, nullptr, me);
    ASSERT_FALSE(old);
    EXPECT_EQ(old.error().code, Errc::StaleState);
    EXPECT_NE(old.error().message.find("state_feed_age=3"), std::string::npos) << old.error().message;
    EXPECT_FALSE(read_state_feed(path, t, 3, now, nullptr, me));
    auto other = read_state_feed(path, t, 3, now + kSec, nullptr, me + 1);
    ASSERT_FALSE(other);
    EXPECT_NE(other.error().message.find("writable only by"), std::string::npos) << other.error().message;
    for (mode_t m : {0664U, 0646U}) {
        ASSERT_EQ(::chmod(path.c_str(), m), 0);
        EXPECT_FALSE(read_state_feed(path, t, 3, now + kSec, nullptr, me)) << std::oct << m;
    }
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
    EXPECT_TRUE(read_state_feed(path, t, 3, now + kSec, nullptr, me));  // readable by root alone is fine
    const auto link = d.p / "feed-link.bin";
    ASSERT_EQ(::symlink(path.c_str(), link.c_str()), 0);
    EXPECT_FALSE(read_state_feed(link.string(), t, 3, now + kSec, nullptr, me));
    // the plugin's default owner is root
    if (me != 0) {
        EXPECT_FALSE(read_state_feed(path, t, 3, now + kSec));
    }
}

// The running jobs' uplinks (topoplace-nodefeed reads them from the job table for the cost
// policy) travel in the file: a plugin deciding in-process from the feed sees the sharing the
// service sees. A record that cannot be (negative, more multi-pod than spanning jobs) refuses
// the file.
TEST_F(CacheFile, UplinkUsersTravelInTheFile) {
    auto s = busy_state(t);
    ASSERT_GE(t.groups().size(), 3U);
    s.add_uplink_users(GroupId{0}, 2, 1);
    s.add_uplink_users(GroupId{2}, 1, 0);
    ASSERT_TRUE(write_state_feed(path, t, s, now));
    auto r = read_state_feed(path, t, 3, now, nullptr, ::geteuid());
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->groups_with_uplink_users(), 2);
    for (std::uint32_t g = 0; g < t.groups().size(); ++g) {
        EXPECT_EQ(r->uplink_users(GroupId{g}).spanning, s.uplink_users(GroupId{g}).spanning) << g;
        EXPECT_EQ(r->uplink_users(GroupId{g}).multi_pod, s.uplink_users(GroupId{g}).multi_pod) << g;
    }
    placement::Request req;
    req.nodes_min = 6;
    const placement::Placer placer(t);
    auto p1 = placer.place(s, req, placement::Policy::Cost);
    auto p2 = placer.place(*r, req, placement::Policy::Cost);
    ASSERT_TRUE(p1 && p2);
    EXPECT_EQ(p1->hosts, p2->hosts);
    EXPECT_EQ(p1->explanation, p2->explanation);

    // a group record patched to an impossible value, with a valid checksum
    auto fnv = [](const std::string& b, std::size_t n) {
        std::uint64_t h = 1469598103934665603ULL;
        for (std::size_t i = 0; i < n; ++i) {
            h ^= static_cast<unsigned char>(b[i]);
            h *= 1099511628211ULL;
        }
        return h;
    };
    const std::size_t ng = t.groups().size();
    for (const auto& [spanning, multi_pod] : std::vector<std::pair<std::int32_t, std::int32_t>>{{-1, 0}, {1, 2}}) {
        ASSERT_TRUE(write_state_feed(path, t, s, now));
        std::string b;
        {
            std::ifstream f(path, std::ios::binary);
            b.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        }
        const std::size_t at = b.size() - 8 - ng * 8;  // group 0's record
        std::memcpy(b.data() + at, &spanning, 4);
        std::memcpy(b.data() + at + 4, &multi_pod, 4);
        const std::uint64_t h = fnv(b, b.size() - 8);
        std::memcpy(b.data() + b.size() - 8, &h, 8);
        {
            std::ofstream f(path, std::ios::binary | std::ios::trunc);
            f.write(b.data(), static_cast<std::streamsize>(b.size()));
        }
        ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
        auto bad = read_state_feed(path, t, 3, now, nullptr, ::geteuid());
        ASSERT_FALSE(bad) << spanning << " " << multi_pod;
        EXPECT_EQ(bad.error().code, Errc::Parse);
        EXPECT_NE(bad.error().message.find("bad uplink record for leaf group 0"), std::string::npos)
            << bad.error().message;
    }
}

// Issue 32 point 3: on shared nodes more jobs than hosts use a group's uplinks (ordinary
// load); the feed holds the count at the host count (the cost policy reads only whether a
// group's uplinks are used) and every reader, older ones included, accepts it. Before,
// readers refused such a feed and each submission asked slurmctld instead.
TEST_F(CacheFile, MoreSpanningJobsThanHostsIsOrdinaryLoad) {
    auto s = busy_state(t);
    const auto n = static_cast<int>(t.hosts().size());
    for (int i = 0; i < n + 1; ++i) s.add_uplink_users(GroupId{0}, 1, i % 2);
    s.add_uplink_users(GroupId{1}, n + 1, 0);
    ASSERT_EQ(s.uplink_users(GroupId{0}).spanning, n + 1);
    ASSERT_TRUE(write_state_feed(path, t, s, now));
    auto r = read_state_feed(path, t, 3, now, nullptr, ::geteuid());
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(r->uplink_users(GroupId{0}).spanning, n);
    EXPECT_EQ(r->uplink_users(GroupId{1}).spanning, n);
    EXPECT_EQ(r->groups_with_uplink_users(), s.groups_with_uplink_users());
    placement::Request req;
    req.nodes_min = 6;
    const placement::Placer placer(t);
    auto p1 = placer.place(s, req, placement::Policy::Cost);
    auto p2 = placer.place(*r, req, placement::Policy::Cost);
    ASSERT_TRUE(p1 && p2);
    EXPECT_EQ(p1->hosts, p2->hosts);  // the same decision as on the uncapped counts
}

TEST(StateCache, FeedPlugstackArguments) {
    auto c = parse_config({"state_feed=/run/topoplace/nodes.bin", "state_feed_age=5"});
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_EQ(c->state_feed, "/run/topoplace/nodes.bin");
    EXPECT_EQ(c->state_feed_age, 5);
    EXPECT_TRUE(parse_config({})->state_feed.empty());
    EXPECT_EQ(parse_config({})->state_feed_age, 3);
    for (const char* bad :
         {"state_feed=run/nodes.bin", "state_feed=", "state_feed_age=0", "state_feed_age=61", "state_feed_age=2.5"}) {
        auto r = parse_config({bad});
        ASSERT_FALSE(r) << bad;
        EXPECT_NE(r.error().message.find("state_feed"), std::string::npos) << r.error().message;
    }
}

}  // namespace
