// SPDX-License-Identifier: Apache-2.0
// The health flag store: one small text file per node, trusted only when root-owned and
// not group/world writable (see docs/health.md).
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include <topo/atomic_file.hpp>
#include <topo/errno_text.hpp>
#include <topo/health/slurm.hpp>
#include <topo/health/store.hpp>
#include <topo/health/trust.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topo::health {

namespace {

constexpr std::string_view kMagic = "topoplace-health 1";

constexpr std::string_view kWhat = "health store";
constexpr std::size_t kMaxRecordBytes = 65536;

/// The store directory: the whole path (trust.hpp). Errc::NotFound when it does not exist.
Status check_dir(const std::string& dir, uid_t uid) {
    return check_trusted_path(dir, PathKind::Directory, uid, kWhat);
}

std::string missing_warning(const std::string& dir) {
    return "no health store at " + dir + " yet (no node was checked or flagged)";
}

/// One directory entry of the store, by the readers' rule (store.hpp, docs/health.md).
struct Entry {
    enum class Kind : std::uint8_t { Record, Ignored, Missing } kind = Kind::Missing;
    Record record;
    std::string warning;       ///< why it was ignored (Ignored)
    StoreReader::Stamp stamp;  ///< the file judged (fstat of what was read, else lstat)
};

StoreReader::Stamp stamp_of(const struct stat& st) {
    return {static_cast<std::uint64_t>(st.st_ino), static_cast<std::int64_t>(st.st_size),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
            static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec};
}

Entry ignored(const std::string& path, const std::string& why) {
    Entry e;
    e.kind = Entry::Kind::Ignored;
    e.warning = "health store: ignoring " + path + ": " + why;
    return e;
}

/// THE rule for what an entry of a trusted store directory is: a record of node `name`,
/// something else (ignored, with a warning naming it), nothing (gone), or refused (an
/// error: untrusted owner or mode, a symbolic link, a damaged record).
Result<Entry> read_entry(const std::string& dir, const std::string& name, uid_t uid) {
    const std::string path = dir + "/" + name;
    if (!valid_node_name(name)) return ignored(path, "not a node name");

    struct stat st {};

    if (::lstat(path.c_str(), &st) != 0) {
        const int e = errno;
        if (e == ENOENT) return Entry{};
        return fail(Errc::Io, "health store: cannot examine " + path + ": " + errno_text(e));
    }
    if (S_ISLNK(st.st_mode)) return fail(check_trusted_stat(st, path, PathKind::RegularFile, uid, kWhat).error());
    auto ignored_here = [&](const std::string& why) {
        Entry e = ignored(path, why);
        e.stamp = stamp_of(st);
        return e;
    };
    if (S_ISDIR(st.st_mode)) return ignored_here("a directory, not a record");
    if (!S_ISREG(st.st_mode)) return ignored_here("not a regular file, not a record");

    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int e = errno;
        if (e == ENOENT) return Entry{};
        if (e == ELOOP)
            return fail(Errc::Unsupported, "health store: refusing " + path + ": a symbolic link (see docs/health.md)");
        return fail(Errc::Io, "health store: cannot open " + path + ": " + errno_text(e));
    }
    // Judge what was opened (it may have been replaced since the lstat()).
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return fail(Errc::Io, "health store: cannot stat " + path + ": " + errno_text(e));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return ignored_here("not a regular file, not a record");
    }
    // An untrusted file is refused before its content is looked at: whoever could write it
    // could make a record look like a stray file.
    if (auto t = check_trusted_stat(st, path, PathKind::RegularFile, uid, kWhat); !t) {
        ::close(fd);
        return fail(t.error());
    }
    const std::size_t want = std::min<std::size_t>(static_cast<std::size_t>(st.st_size), kMaxRecordBytes + 1);
    std::string text(want, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text.resize(got);
    const bool header = text.rfind(std::string(kMagic) + "\n", 0) == 0 || text == kMagic;
    if (!header) return ignored_here("not a topoplace health record (no '" + std::string(kMagic) + "' line)");
    if (text.size() > kMaxRecordBytes) return fail(Errc::Parse, "health record larger than 64 KiB", path, 0);
    auto r = parse_record(text, path);
    if (!r) return fail(r.error());  // a damaged record: its verdict is unknown
    if (r->node != name) return ignored_here("holds the record of node '" + r->node + "', not of '" + name + "'");
    Entry e;
    e.kind = Entry::Kind::Record;
    e.record = std::move(*r);
    e.stamp = stamp_of(st);
    return e;
}

/// Every reader goes through here: the store directory (the whole path, re-checked on
/// every read; missing = nothing flagged, with a warning), then the entry of `only`, or
/// every entry (names starting with "." are the store's own temporary and counter files).
Result<std::vector<Record>> read_records(const std::string& dir, uid_t uid, const std::string* only,
                                         Warnings* warnings) {
    auto warn = [&](std::string w) {
        if (warnings != nullptr) warnings->push_back(std::move(w));
    };
    std::vector<Record> out;
    if (auto t = check_dir(dir, uid); !t) {
        if (t.error().code != Errc::NotFound) return fail(t.error());
        warn(missing_warning(dir));
        return out;
    }
    std::vector<std::string> names;
    if (only != nullptr) {
        names.push_back(*only);
    } else {
        DIR* d = ::opendir(dir.c_str());
        if (d == nullptr) return fail(Errc::Io, "health store: cannot read " + dir + ": " + errno_text(errno));
        while (auto* e = ::readdir(d)) {  // NOLINT(concurrency-mt-unsafe): one DIR per call
            std::string_view n = e->d_name;
            if (n.empty() || n.front() == '.') continue;  // ".", "..", ".<node>.tmp.*", ".<node>.counters"
            names.emplace_back(n);
        }
        ::closedir(d);
        std::sort(names.begin(), names.end());
    }
    for (const auto& n : names) {
        auto e = read_entry(dir, n, uid);
        if (!e) return fail(e.error());
        if (e->kind == Entry::Kind::Ignored) warn(std::move(e->warning));
        if (e->kind == Entry::Kind::Record) out.push_back(std::move(e->record));
    }
    return out;
}

Result<std::int64_t> parse_i64(std::string_view v, const std::string& source, int line) {
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc{} || p != v.data() + v.size() || v.empty())
        return fail(Errc::Parse, "not an integer: '" + std::string(v) + "'", source, line);
    return x;
}

std::string one_line(std::string_view s) {
    std::string out(s);
    std::replace_if(
        out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return out;
}

}  // namespace

const char* verdict_name(Verdict v) noexcept {
    switch (v) {
        case Verdict::Healthy: return "healthy";
        case Verdict::Unhealthy: return "unhealthy";
        case Verdict::Degraded: return "degraded";
    }
    return "unhealthy";
}

const char* fail_mode_name(FailMode m) noexcept {
    return m == FailMode::Open ? "open" : "closed";
}

std::optional<FailMode> fail_mode_from_name(std::string_view s) noexcept {
    if (s == "open") return FailMode::Open;
    if (s == "closed") return FailMode::Closed;
    return std::nullopt;
}

bool valid_node_name(std::string_view node) noexcept {
    if (node.empty() || node.size() > 255 || node == "." || node == "..") return false;
    return std::all_of(node.begin(), node.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
               || c == '-';
    });
}

std::string to_record_text(const Record& r) {
    std::string s;
    s.reserve(128 + r.reason.size());
    s += kMagic;
    s += "\nnode=" + r.node;
    s += "\nverdict=";
    s += verdict_name(r.verdict);
    s += "\nreason=" + one_line(r.reason);
    if (r.verdict == Verdict::Degraded && r.slowdown >= 1.0 && r.slowdown <= 100.0) {
        // to_chars/from_chars: the same text under any locale (the store is read inside
        // Slurm's processes, where another library may have set LC_NUMERIC; issue 32 point 6)
        char b[32];
        const auto [end, ec] = std::to_chars(b, b + sizeof b, r.slowdown, std::chars_format::general, 4);
        s += "\nslowdown=";
        if (ec == std::errc()) s.append(b, end);
    }
    s += "\nsource=" + one_line(r.source);
    s += "\nsince=" + std::to_string(r.since);
    s += "\nlast_check=" + std::to_string(r.last_check);
    s += '\n';
    return s;
}

Result<Record> parse_record(std::string_view text, const std::string& source) {
    Record r;
    int line = 0;
    bool have_node = false;
    bool have_verdict = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++line;
        if (line == 1) {
            if (l != kMagic)
                return fail(Errc::Parse,
                            "not a topoplace health record (first line must be '" + std::string(kMagic) + "')", source,
                            1);
            continue;
        }
        if (l.empty()) continue;
        auto eq = l.find('=');
        if (eq == std::string_view::npos) return fail(Errc::Parse, "expected key=value", source, line);
        auto key = l.substr(0, eq);
        auto val = l.substr(eq + 1);
        if (key == "node") {
            if (!valid_node_name(val))
                return fail(Errc::Parse, "invalid node name '" + std::string(val) + "'", source, line);
            r.node = val;
            have_node = true;
        } else if (key == "verdict") {
            if (val == "healthy")
                r.verdict = Verdict::Healthy;
            else if (val == "unhealthy")
                r.verdict = Verdict::Unhealthy;
            else if (val == "degraded")
                r.verdict = Verdict::Degraded;
            else
                return fail(Errc::Parse,
                            "verdict must be healthy, unhealthy or degraded, not '" + std::string(val) + "'", source,
                            line);
            have_verdict = true;
        } else if (key == "reason") {
            r.reason = val;
        } else if (key == "slowdown") {
            const std::string v(val);
            double d = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
            if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(d >= 1.0 && d <= 100.0))
                return fail(Errc::Parse, "slowdown must be a number from 1 to 100, not '" + v + "'", source, line);
            r.slowdown = d;
        } else if (key == "source") {
            r.source = val;
        } else if (key == "since") {
            auto v = parse_i64(val, source, line);
            if (!v) return fail(v.error());
            r.since = *v;
        } else if (key == "last_check") {
            auto v = parse_i64(val, source, line);
            if (!v) return fail(v.error());
            r.last_check = *v;
        } else {
            // Unknown keys are kept forward-compatible: ignored.
        }
    }
    if (line == 0) return fail(Errc::Parse, "empty health record", source, 1);
    if (!have_node) return fail(Errc::Parse, "missing node=", source, line);
    if (!have_verdict) return fail(Errc::Parse, "missing verdict=", source, line);
    return r;
}

Result<Store> Store::open(std::string dir, StoreOptions opts) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir.empty()) return fail(Errc::InvalidArgument, "health store: empty directory name");

    auto t = check_dir(dir, opts.trusted_uid);
    if (!t && t.error().code == Errc::NotFound && opts.create) {
        if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
            return fail(Errc::Io, "health store: cannot create " + dir + ": " + errno_text(errno));
        t = check_dir(dir, opts.trusted_uid);
    }
    // Not created yet (readers): an empty store, re-checked on every read.
    if (!t && t.error().code != Errc::NotFound) return fail(t.error());
    Store s;
    s.dir_ = std::move(dir);
    s.opts_ = opts;
    return s;
}

Result<std::optional<Record>> Store::get(std::string_view node, Warnings* warnings) const {
    if (!valid_node_name(node)) return fail(Errc::InvalidArgument, "invalid node name '" + std::string(node) + "'");
    const std::string name(node);
    auto r = read_records(dir_, opts_.trusted_uid, &name, warnings);
    if (!r) return fail(r.error());
    if (r->empty()) return std::optional<Record>{};
    return std::optional<Record>{std::move(r->front())};
}

Result<std::vector<Record>> Store::list(Warnings* warnings) const {
    return read_records(dir_, opts_.trusted_uid, nullptr, warnings);
}

Status Store::put(const Record& r) const {
    if (!valid_node_name(r.node)) return fail(Errc::InvalidArgument, "invalid node name '" + r.node + "'");
    if (::geteuid() != opts_.trusted_uid)
        return fail(Errc::Unsupported, "health store: only uid " + std::to_string(opts_.trusted_uid)
                                           + " may write records (running as uid " + std::to_string(::geteuid()) + ")");

    if (auto t = check_dir(dir_, opts_.trusted_uid); !t) {
        if (t.error().code == Errc::NotFound)
            return fail(Errc::Io, "health store: cannot write " + dir_ + "/" + r.node + ": " + t.error().message);
        return fail(t.error());
    }

    const std::string path = dir_ + "/" + r.node;
    // topoplace's one writer: a random ".NODE.XXXXXX" temporary (readers skip dot names), fsync,
    // rename; a record path that is a link or not a regular file is refused, not replaced
    if (auto st = topo::write_file_atomic(path, to_record_text(r), 0644); !st)
        return fail(Errc::Io, "health store: cannot write " + path + ": " + st.error().message);
    return Ok{};
}

Status Store::remove(std::string_view node) const {
    if (!valid_node_name(node)) return fail(Errc::InvalidArgument, "invalid node name '" + std::string(node) + "'");
    if (::geteuid() != opts_.trusted_uid)
        return fail(Errc::Unsupported, "health store: only uid " + std::to_string(opts_.trusted_uid)
                                           + " may clear records (running as uid " + std::to_string(::geteuid()) + ")");
    const std::string path = dir_ + "/" + std::string(node);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
        return fail(Errc::Io, "health store: cannot remove " + path + ": " + errno_text(errno));
    return Ok{};
}

GateDecision gate(const std::string& dir, std::string_view node, FailMode mode, StoreOptions opts) {
    GateDecision d;
    auto s = Store::open(dir, opts);
    Result<std::optional<Record>> r = s ? s->get(node, &d.warnings) : Result<std::optional<Record>>(fail(s.error()));
    if (!r) {
        d.store_error = true;
        d.allow = mode == FailMode::Open;
        d.message = r.error().to_string() + " (fail-" + fail_mode_name(mode) + ")";
        return d;
    }
    if (*r && (*r)->verdict == Verdict::Unhealthy) {
        d.allow = false;
        d.message =
            "node " + std::string(node) + " is unhealthy since " + std::to_string((*r)->since) + ": " + (*r)->reason;
        d.drain_reason = drain_reason(**r);
    }
    return d;
}

std::string drain_reason(const Record& rec) {
    std::string why = rec.reason.empty() ? "flagged unhealthy" : rec.reason;
    for (char& c : why) {
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    }
    std::string out = std::string(kReasonPrefix) + " " + why;
    if (!rec.source.empty()) out += " (" + rec.source + ")";
    if (out.size() > 200) out.resize(200);
    return out;
}

Result<std::vector<std::pair<std::string, double>>> degraded_nodes(const Store& store, Warnings* warnings) {
    auto l = store.list(warnings);
    if (!l) return fail(l.error());
    std::vector<std::pair<std::string, double>> out;
    for (const auto& r : *l) {
        if (r.verdict == Verdict::Degraded) out.emplace_back(r.node, degraded_slowdown(r));
    }
    return out;
}

Result<std::vector<std::string>> unhealthy_nodes(const Store& store, Warnings* warnings) {
    auto l = store.list(warnings);
    if (!l) return fail(l.error());
    std::vector<std::string> out;
    for (const auto& r : *l)
        if (r.verdict == Verdict::Unhealthy) out.push_back(r.node);
    return out;
}

StoreReader::StoreReader(std::string dir, StoreOptions opts, bool watch)
    : dir_(std::move(dir)), opts_(opts), want_watch_(watch) {
    while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
}

StoreReader::Fd& StoreReader::Fd::operator=(Fd&& o) noexcept {
    if (this != &o) {
        reset();
        fd = std::exchange(o.fd, -1);
    }
    return *this;
}

StoreReader::Fd::~Fd() {
    reset();
}

void StoreReader::Fd::reset() noexcept {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

void StoreReader::arm_watch(std::uint64_t ino) {
    watch_fd_.reset();
    watched_ino_ = 0;
    if (!want_watch_) return;
    const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return;  // the limits (max_user_instances): listings, as without a watch
    Fd f;
    f.fd = fd;
    // the names renamed in or out, created or removed; the directory itself removed or moved
    constexpr std::uint32_t kMask = IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
                                    | IN_ONLYDIR | IN_DONT_FOLLOW;
    if (::inotify_add_watch(fd, dir_.c_str(), kMask) < 0) return;
    watch_fd_ = std::move(f);
    watched_ino_ = ino;
}

bool StoreReader::drain_watch() {
    // at most 16 reads of 64 KiB per call (about 16,000 names): more, and a listing is as cheap
    auto& buf = events_;  // one buffer for the reader's life, not 64 KiB of a scheduler thread's stack
    if (buf.size() != 65536) buf.resize(65536);
    for (int round = 0; round < 16; ++round) {
        const ssize_t n = ::read(watch_fd_.fd, buf.data(), buf.size());
        if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;  // EAGAIN: the queue is empty
        if (n == 0) return false;
        for (std::size_t off = 0; off + sizeof(inotify_event) <= static_cast<std::size_t>(n);) {
            inotify_event ev{};
            std::memcpy(&ev, buf.data() + off, sizeof ev);
            const std::size_t next = off + sizeof(inotify_event) + ev.len;
            if (next > static_cast<std::size_t>(n)) return false;
            if ((ev.mask & (IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)) != 0)
                return false;
            std::string_view name;
            if (ev.len > 0) {
                const char* p = buf.data() + off + sizeof(inotify_event);
                name = std::string_view(p, ::strnlen(p, ev.len));
            }
            off = next;
            if (name.empty() || name.front() == '.') continue;  // ".<node>.tmp.*", ".<node>.counters"
            if (pending_.size() >= kMaxEntries) return false;

            // its inode now (0: gone); read at this or a later call (Missing: forgotten)
            struct stat st {};

            const std::string path = dir_ + "/" + std::string(name);
            const std::uint64_t ino = ::lstat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_ino) : 0;
            if (ino == 0) {  // removed or renamed away: no record under it now
                forget(std::string(name));
                continue;
            }
            // as read (a new file may reuse the inode of one removed: the whole stamp says)
            if (auto k = known_.find(name); k != known_.end() && k->second.stamp == stamp_of(st)) continue;
            pending_.insert_or_assign(std::string(name), Pending{ino, listing_});
        }
    }
    return false;  // still more queued
}

void StoreReader::forget(const std::string& name) {
    known_.erase(name);
    pending_.erase(name);
    if (records_.erase(name) > 0) changed_ = true;
}

Result<StoreReader::Refreshed> StoreReader::refresh(std::size_t max_reads, Warnings* warnings) {
    auto warn = [&](std::string w) {
        if (warnings != nullptr) warnings->push_back(std::move(w));
    };
    Refreshed out;
    if (auto t = check_dir(dir_, opts_.trusted_uid); !t) {
        if (t.error().code != Errc::NotFound) return fail(t.error());
        // not created yet (or removed): nothing is flagged, as list() says
        if (!missing_) warn(missing_warning(dir_));
        missing_ = true;
        if (!records_.empty()) changed_ = true;
        known_.clear();
        records_.clear();
        pending_.clear();
        dir_stamp_.reset();
        watch_fd_.reset();
        out.changed = std::exchange(changed_, false);
        return out;
    }
    missing_ = false;

    struct stat dst {};

    if (::stat(dir_.c_str(), &dst) != 0)
        return fail(Errc::Io, "health store: cannot examine " + dir_ + ": " + errno_text(errno));
    const Stamp now = stamp_of(dst);
    bool list = !dir_stamp_ || !(*dir_stamp_ == now);
    if (list && watch_fd_.fd >= 0 && watched_ino_ == now.ino && drain_watch()) {
        // the watch's names since the last call: no listing
        list = false;
        dir_stamp_ = now;
    }
    if (list) {
        // the watch made before the listing: a change during it is in both
        if (want_watch_) arm_watch(now.ino);
        // listed again: names gone are forgotten, new names and new inodes are to be read
        DIR* d = ::opendir(dir_.c_str());
        if (d == nullptr) return fail(Errc::Io, "health store: cannot read " + dir_ + ": " + errno_text(errno));
        const std::uint64_t listing = ++listing_;
        std::size_t names = 0;
        while (auto* e = ::readdir(d)) {  // NOLINT(concurrency-mt-unsafe): one DIR per call
            std::string_view n = e->d_name;
            if (n.empty() || n.front() == '.') continue;  // ".", "..", ".<node>.tmp.*", ".<node>.counters"
            if (++names > kMaxEntries) {
                ::closedir(d);
                return fail(Errc::Unsupported, "health store: " + dir_ + " holds more than "
                                                   + std::to_string(kMaxEntries)
                                                   + " entries (a reader keeps at most that many)");
            }
            const auto ino = static_cast<std::uint64_t>(e->d_ino);
            if (auto k = known_.find(n); k != known_.end()) {
                k->second.listing = listing;
                if (k->second.listed_ino == ino) {  // as read (or edited in place: pending already)
                    if (auto p = pending_.find(n); p != pending_.end()) p->second.listing = listing;
                    continue;
                }
            }
            auto [p, added] = pending_.try_emplace(std::string(n), Pending{ino, listing});
            if (!added) p->second = Pending{ino, listing};
        }
        ::closedir(d);
        std::erase_if(known_, [&](const auto& k) {
            if (k.second.listing == listing) return false;
            if (records_.erase(k.first) > 0) changed_ = true;
            return true;
        });
        std::erase_if(pending_, [&](const auto& p) { return p.second.listing != listing; });
        dir_stamp_ = now;  // taken before the listing: a change since then changes it again
    }

    std::optional<Error> first_error;
    for (auto p = pending_.begin(); p != pending_.end() && out.reads < max_reads;) {
        const std::string name = p->first;
        const std::uint64_t ino = p->second.ino;
        ++out.reads;
        ++reads_;
        auto e = read_entry(dir_, name, opts_.trusted_uid);
        if (!e) {  // refused or damaged: kept pending, read again next time
            if (!first_error) first_error = std::move(e).error();
            ++p;
            continue;
        }
        p = pending_.erase(p);
        if (e->kind == Entry::Kind::Missing) {
            forget(name);
            continue;
        }
        known_.insert_or_assign(name, Known{ino, e->stamp, listing_});
        if (e->kind == Entry::Kind::Ignored) {
            warn(std::move(e->warning));
            if (records_.erase(name) > 0) changed_ = true;
            continue;
        }
        auto [it, added] = records_.try_emplace(name, e->record);
        if (added || !(it->second == e->record)) {
            it->second = std::move(e->record);
            changed_ = true;
        }
    }

    // in place: a bounded slice of the entries read, bucket by bucket round the store
    if (pending_.empty() && !known_.empty()) {
        std::size_t checked = 0;
        for (std::size_t b = 0; b < known_.bucket_count() && checked < kVerifyPerRefresh; ++b) {
            verify_bucket_ = (verify_bucket_ + 1) % known_.bucket_count();
            for (auto it = known_.begin(verify_bucket_); it != known_.end(verify_bucket_); ++it) {
                if (it->second.stamp.ino == 0) continue;  // not a node name: never a record under it
                ++checked;

                struct stat st {};

                const std::string path = dir_ + "/" + it->first;
                if (::lstat(path.c_str(), &st) != 0 || !(stamp_of(st) == it->second.stamp))
                    pending_[it->first] = Pending{it->second.listed_ino, listing_};  // read at the next call
            }
        }
    }

    if (first_error) return fail(std::move(*first_error));
    out.changed = std::exchange(changed_, false);
    return out;
}

}  // namespace topo::health
