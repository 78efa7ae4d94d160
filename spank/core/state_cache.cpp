// SPDX-License-Identifier: Apache-2.0
// The per-user node-state cache of the SPANK plugin (see state_cache.hpp).
//
// File layout (native byte order; the file never leaves the host that wrote it):
//   0  char magic[8] "TPSTATE2"
//   8  u32  fingerprint length F, then F bytes (the topology's fingerprint)
//      i64  taken_ns (CLOCK_REALTIME when the state was read from slurmctld)
//      u32  host count N (the topology's)
//      N x { u8 state, i32 free_gpus, i32 total_gpus }
//      u32  leaf group count G (the topology's)
//      G x { i32 spanning, i32 multi_pod }   running jobs using the group's uplinks
//                                            (ClusterState::uplink_users; the feed's come
//                                            from slurmctld's job table, for policy=cost)
//      u64  FNV-1a of everything before
// ("TPSTATE1", without the group records, is refused by its size: the RPC is made.)
#include "state_cache.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include <topo/atomic_file.hpp>
#include <topo/errno_text.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topo::spank {

namespace {

constexpr char kMagic[8] = {'T', 'P', 'S', 'T', 'A', 'T', 'E', '2'};
constexpr std::size_t kHostBytes = 1 + 4 + 4;
constexpr std::size_t kGroupBytes = 4 + 4;

std::size_t file_size(std::size_t fingerprint, std::size_t hosts, std::size_t groups) {
    return 8 + 4 + fingerprint + 8 + 4 + hosts * kHostBytes + 4 + groups * kGroupBytes + 8;
}

constexpr std::size_t kMaxFingerprint = 256;

std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
    std::uint64_t h = 1469598103934665603ULL;
    for (std::size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

template <class T>
void put(std::vector<unsigned char>& b, T v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    b.insert(b.end(), p, p + sizeof v);
}

template <class T>
T get(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// A directory only `uid` can use: a real directory (not a link), owned by uid, no
/// group/other permission bits.
bool private_dir(const std::string& d, uid_t uid, std::string* why) {
    struct stat st {};

    if (::lstat(d.c_str(), &st) != 0) {
        if (why != nullptr) *why = d + ": " + errno_text(errno);
        return false;
    }
    if (!S_ISDIR(st.st_mode) || st.st_uid != uid || (st.st_mode & 077) != 0) {
        if (why != nullptr) *why = d + ": not a private directory of uid " + std::to_string(uid);
        return false;
    }
    return true;
}

std::string hex16(std::uint64_t v) {
    static const char* digits = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 15; i >= 0; --i) {
        s[static_cast<std::size_t>(i)] = digits[v & 0xfU];
        v >>= 4U;
    }
    return s;
}

}  // namespace

std::string state_cache_dir(uid_t uid, const char* xdg, const std::string& run_user, const std::string& tmp,
                            std::string* why) {
    if (xdg != nullptr && xdg[0] == '/' && private_dir(xdg, uid, nullptr)) return xdg;
    if (std::string r = run_user + "/" + std::to_string(uid); !run_user.empty() && private_dir(r, uid, nullptr)) {
        return r;
    }
    std::string d = tmp + "/topoplace-" + std::to_string(uid);
    if (::mkdir(d.c_str(), 0700) != 0 && errno != EEXIST) {
        if (why != nullptr) *why = d + ": " + errno_text(errno);
        return {};
    }
    if (!private_dir(d, uid, why)) return {};
    return d;
}

std::string state_cache_file(const std::string& dir, const std::string& slurm_conf, const std::string& fingerprint) {
    const std::string key = slurm_conf + '\n' + fingerprint;
    return dir + "/state-" + hex16(fnv1a(reinterpret_cast<const unsigned char*>(key.data()), key.size())) + ".bin";
}

namespace {

/// Who may own a state file and which permission bits it must not have: the user's own cache
/// (the user, no group/other bits) or the shared feed (root, not group/world-writable).
struct FileRule {
    uid_t owner;
    mode_t forbidden;
    const char* what;  ///< for messages: "state_cache" or "state_feed_age"
    const char* kind;  ///< for messages: what the file must be
};

Result<placement::ClusterState> read_state_file(const std::string& path, const Topology& topo, const FileRule& rule,
                                                double ttl_s, std::int64_t now_ns, double* age_s) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int e = errno;
        return fail(e == ENOENT ? Errc::NotFound : Errc::Io, path + ": " + errno_text(e));
    }

    struct Closer {
        int fd;

        ~Closer() { ::close(fd); }
    } closer{fd};

    struct stat st {};

    if (::fstat(fd, &st) != 0) return fail(Errc::Io, path + ": " + errno_text(errno));
    if (!S_ISREG(st.st_mode) || st.st_uid != rule.owner || (st.st_mode & rule.forbidden) != 0) {
        return fail(Errc::Io, path + ": not " + rule.kind + " of uid " + std::to_string(rule.owner));
    }
    const std::string& fp = topo.fingerprint();
    const std::size_t n = topo.hosts().size();
    const std::size_t ng = topo.groups().size();
    const std::size_t want = file_size(fp.size(), n, ng);
    if (static_cast<std::size_t>(st.st_size) != want) {
        return fail(Errc::Parse, path + ": " + std::to_string(st.st_size) + " bytes, expected " + std::to_string(want)
                                     + " for this topology");
    }
    std::vector<unsigned char> b(want);
    std::size_t got = 0;
    while (got < want) {
        const ssize_t r = ::read(fd, b.data() + got, want - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return fail(Errc::Io, path + ": short read");
        got += static_cast<std::size_t>(r);
    }
    if (get<std::uint64_t>(b.data() + want - 8) != fnv1a(b.data(), want - 8)) {
        return fail(Errc::Parse, path + ": checksum mismatch");
    }
    if (std::memcmp(b.data(), kMagic, sizeof kMagic) != 0) return fail(Errc::Parse, path + ": not a state cache");
    std::size_t at = 8;
    const auto fl = get<std::uint32_t>(b.data() + at);
    at += 4;
    if (fl != fp.size() || std::memcmp(b.data() + at, fp.data(), fp.size()) != 0) {
        return fail(Errc::StaleState, path + ": written for another topology");
    }
    at += fp.size();
    const auto taken = get<std::int64_t>(b.data() + at);
    at += 8;
    const double age = static_cast<double>(now_ns - taken) / 1e9;
    if (age_s != nullptr) *age_s = age;
    if (age < 0 || age > ttl_s) {
        return fail(Errc::StaleState,
                    path + ": " + std::to_string(age) + " s old (" + rule.what + "=" + std::to_string(ttl_s) + ")");
    }
    if (get<std::uint32_t>(b.data() + at) != n) return fail(Errc::StaleState, path + ": host count differs");
    at += 4;
    placement::ClusterState s(topo);
    for (std::size_t h = 0; h < n; ++h, at += kHostBytes) {
        const unsigned char state = b[at];
        const auto free_gpus = get<std::int32_t>(b.data() + at + 1);
        const auto total_gpus = get<std::int32_t>(b.data() + at + 5);
        if (state > static_cast<unsigned char>(placement::NodeState::Unknown) || free_gpus < -1 || total_gpus < -1
            || free_gpus > placement::kMaxHostGpus || total_gpus > placement::kMaxHostGpus) {
            return fail(Errc::Parse, path + ": bad record for host " + std::to_string(h));
        }
        if (state == 0 && free_gpus == -1 && total_gpus == -1) continue;  // the default
        placement::HostState hs;
        hs.state = static_cast<placement::NodeState>(state);
        hs.free_gpus = free_gpus;
        hs.total_gpus = total_gpus;
        s.set(HostId{static_cast<std::uint32_t>(h)}, std::move(hs));
    }
    if (get<std::uint32_t>(b.data() + at) != ng) return fail(Errc::StaleState, path + ": leaf group count differs");
    at += 4;
    for (std::size_t g = 0; g < ng; ++g, at += kGroupBytes) {
        const auto spanning = get<std::int32_t>(b.data() + at);
        const auto multi_pod = get<std::int32_t>(b.data() + at + 4);
        if (spanning < 0 || multi_pod < 0 || multi_pod > spanning) {
            return fail(Errc::Parse, path + ": bad uplink record for leaf group " + std::to_string(g));
        }
        // More jobs than hosts is ordinary on shared nodes (17 two-node jobs on 16 hosts);
        // the cost policy reads only whether a group's uplinks are used: held at the host
        // count, as the writer does (issue 32 point 3: readers refused such feeds before).
        const auto cap = static_cast<std::int32_t>(std::min<std::size_t>(n, INT32_MAX));
        if (spanning > 0)
            s.add_uplink_users(GroupId{static_cast<std::uint32_t>(g)}, std::min(spanning, cap),
                               std::min(multi_pod, cap));
    }
    return s;
}

}  // namespace

Result<placement::ClusterState> read_state_cache(const std::string& path, const Topology& topo, uid_t uid, double ttl_s,
                                                 std::int64_t now_ns, double* age_s) {
    return read_state_file(path, topo, FileRule{uid, 077, "state_cache", "a private file"}, ttl_s, now_ns, age_s);
}

Result<placement::ClusterState> read_state_feed(const std::string& path, const Topology& topo, double max_age_s,
                                                std::int64_t now_ns, double* age_s, uid_t owner) {
    return read_state_file(path, topo, FileRule{owner, 022, "state_feed_age", "a regular file writable only by"},
                           max_age_s, now_ns, age_s);
}

namespace {

Status write_state_file(const std::string& path, const Topology& topo, const placement::ClusterState& state,
                        const placement::Placement* chosen, bool exclusive, std::int64_t taken_ns, mode_t mode) {
    const std::string& fp = topo.fingerprint();
    if (fp.size() > kMaxFingerprint) return fail(Errc::InvalidArgument, "fingerprint too long");
    const std::size_t n = topo.hosts().size();
    if (state.size() != n) return fail(Errc::StaleState, "state of another topology");
    std::vector<std::uint8_t> states(n);
    std::vector<std::int32_t> fr(n);
    std::vector<std::int32_t> to(n);
    for (std::size_t h = 0; h < n; ++h) {
        const auto& hs = state.at(HostId{static_cast<std::uint32_t>(h)});
        states[h] = static_cast<std::uint8_t>(hs.state);
        fr[h] = hs.free_gpus;
        to[h] = hs.total_gpus;
    }
    if (chosen != nullptr) {
        for (std::size_t i = 0; i < chosen->hosts.size(); ++i) {
            const auto h = chosen->hosts[i].index();
            if (h >= n) continue;
            const int given = static_cast<int>(chosen->gpus.size() > i ? chosen->gpus[i].size() : 0);
            const int free = state.free_gpus(topo, chosen->hosts[i]);
            if (exclusive || given == 0 || given >= free) {
                states[h] = static_cast<std::uint8_t>(placement::NodeState::Alloc);
                fr[h] = 0;
            } else {
                states[h] = static_cast<std::uint8_t>(placement::NodeState::Mixed);
                fr[h] = free - given;
            }
        }
    }
    const std::size_t ng = topo.groups().size();
    std::vector<unsigned char> b;
    b.reserve(file_size(fp.size(), n, ng));
    b.insert(b.end(), kMagic, kMagic + sizeof kMagic);
    put<std::uint32_t>(b, static_cast<std::uint32_t>(fp.size()));
    b.insert(b.end(), fp.begin(), fp.end());
    put<std::int64_t>(b, taken_ns);
    put<std::uint32_t>(b, static_cast<std::uint32_t>(n));
    for (std::size_t h = 0; h < n; ++h) {
        b.push_back(states[h]);
        put<std::int32_t>(b, fr[h]);
        put<std::int32_t>(b, to[h]);
    }
    put<std::uint32_t>(b, static_cast<std::uint32_t>(ng));
    for (std::size_t g = 0; g < ng; ++g) {
        // at most the host count: what every reader accepts, readers before issue 32 too
        const auto u = state.uplink_users(GroupId{static_cast<std::uint32_t>(g)});
        const auto cap = static_cast<std::int32_t>(std::min<std::size_t>(n, INT32_MAX));
        put<std::int32_t>(b, std::min(u.spanning, cap));
        put<std::int32_t>(b, std::min(u.multi_pod, cap));
    }
    put<std::uint64_t>(b, fnv1a(b.data(), b.size()));

    // The usual case, a file of this user from an earlier submission: rewrite it in place
    // (same size; about 20 us against 400 us for a new file and a rename). A reader that
    // races a writer sees a checksum mismatch and asks slurmctld. A shared file (the feed)
    // is always replaced whole by a rename: its readers never see a torn one.
    const int old_fd = (mode & 077) == 0 ? ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (old_fd >= 0) {
        struct stat st {};

        bool done_in_place = false;
        if (::fstat(old_fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && (st.st_mode & 077) == 0
            && static_cast<std::size_t>(st.st_size) == b.size()) {
            done_in_place = ::pwrite(old_fd, b.data(), b.size(), 0) == static_cast<ssize_t>(b.size());
        }
        if (::close(old_fd) == 0 && done_in_place) return Ok{};
    }
    return write_file_atomic(path, std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), mode);
}

}  // namespace

Status write_state_cache(const std::string& path, const Topology& topo, const placement::ClusterState& state,
                         const placement::Placement* chosen, bool exclusive, std::int64_t taken_ns) {
    return write_state_file(path, topo, state, chosen, exclusive, taken_ns, 0600);
}

Status write_state_feed(const std::string& path, const Topology& topo, const placement::ClusterState& state,
                        std::int64_t taken_ns) {
    return write_state_file(path, topo, state, nullptr, false, taken_ns, 0644);
}

}  // namespace topo::spank
