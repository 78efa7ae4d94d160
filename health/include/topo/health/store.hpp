// SPDX-License-Identifier: Apache-2.0
#pragma once
/// \file The health flag store: one record per node, written atomically, read fast
/// (the SPANK launch gate reads it on every job launch).
///
/// Layout: a directory (default /var/lib/topoplace/health), one file per node named
/// after the Slurm NodeName. The store, every directory above it and its records must pass
/// the trust rules of trust.hpp (owned by root or by the uid given to open(), not group- or
/// world-writable, no symbolic link); otherwise reads and writes refuse them with
/// Errc::Unsupported... see docs/health.md.
///
/// What every reader sees (one rule, Store::get() and Store::list(), and through them
/// gate(), unhealthy_nodes(), `topoplace health list|gate|check` and the SPANK plugin):
///   - a store directory that does not exist yet holds no record: nothing is flagged, and
///     the reader is warned ("no health store at DIR yet ...");
///   - names starting with "." are the store's own temporary and counter files: skipped;
///   - an entry that is not a record (a subdirectory, a FIFO, a name that is not a node
///     name, a trusted file without the record header such as a README, or a record whose
///     node= is not its file name such as n003.bak) is ignored, and the reader is warned
///     with its path;
///   - a refused entry (untrusted owner or mode, a symbolic link) or a damaged record
///     (header present, does not parse) is an error: get() of that node fails, list()
///     fails as a whole (placement must not silently drop a tampered record).
///
/// File format (one record per file, `<dir>/<node>`, text, mode 0644):
///     topoplace-health 1
///     node=n001
///     verdict=unhealthy          (or healthy, or degraded)
///     reason=ib: mlx5_0 port 1 state DOWN
///     slowdown=1.067             (degraded records with an estimate only)
///     source=check
///     since=1763900000
///     last_check=1763900000

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <topo/result.hpp>

#include <sys/types.h>

namespace topo::health {

/// Degraded (issue 16 item 5): up and allowed to run jobs (never drained), but slow; the
/// placer keeps it out of multi-node jobs while other hosts fit.
enum class Verdict : std::uint8_t { Healthy, Unhealthy, Degraded };

struct Record {
    std::string node;  ///< Slurm NodeName
    Verdict verdict = Verdict::Healthy;
    double slowdown = 0;          ///< degraded: estimated job slowdown (>= 1), 0 = no estimate
    std::string reason;           ///< one line, empty when healthy
    std::string source;           ///< "check", "operator", probe name...
    std::int64_t since = 0;       ///< unix seconds the verdict last changed
    std::int64_t last_check = 0;  ///< unix seconds of the last check
    bool operator==(const Record&) const = default;
};

struct StoreOptions {
    uid_t trusted_uid = 0;  ///< owner the store may have besides root
    bool create = false;    ///< create the directory if missing (writers only)
};

/// What a reader is told besides the records, one line each naming the path: a store
/// that does not exist yet, entries that are not records and were ignored.
using Warnings = std::vector<std::string>;

class Store {
public:
    /// Open (and verify the trust of) a store directory. A directory that does not exist
    /// yet is created with opts.create (its parent must exist); without it, the store is
    /// empty until it is created (readers are warned by get()/list()). Refused: a store
    /// that fails the trust rules, or one whose existing directories above it do.
    [[nodiscard]] static Result<Store> open(std::string dir, StoreOptions opts = {});

    /// The record of one node; nullopt when the node has none (or its entry is not a
    /// record: ignored, with a warning). A refused entry (wrong owner, group/world
    /// writable, a symbolic link) or a damaged record is an error. Warnings are appended
    /// to `warnings` when given.
    [[nodiscard]] Result<std::optional<Record>> get(std::string_view node, Warnings* warnings = nullptr) const;
    /// Every record, sorted by node name; entries that are not records are skipped (with a
    /// warning each), one refused entry refuses the whole list.
    [[nodiscard]] Result<std::vector<Record>> list(Warnings* warnings = nullptr) const;
    /// Write atomically (temp file + rename), mode 0644.
    [[nodiscard]] Status put(const Record& r) const;
    [[nodiscard]] Status remove(std::string_view node) const;

    [[nodiscard]] const std::string& dir() const noexcept { return dir_; }

private:
    std::string dir_;
    StoreOptions opts_;
};

/// A store kept read for a reader that asks often (the topology plugin inside slurmctld,
/// the placement service): what Store::list() says, by the same rule, brought up to date by
/// refresh() at a cost bounded per call instead of one open and read per record.
///   - the store directory is stat()ed; only when it changed (every writer renames a new file
///     into place or unlinks one, which changes it) is it listed again: one readdir, no
///     stat per entry;
///   - an entry is read again only when its name is new or its inode (readdir's d_ino) is
///     not the one read last, at most `max_reads` per call; the others wait for the next
///     calls (complete() is false meanwhile);
///   - a record edited in place (not renamed) keeps its inode: kVerifyPerRefresh entries are
///     lstat()ed per call, in name order, round the store, and one whose inode, size, mtime or
///     ctime moved is read again;
///   - a refused or damaged entry fails the call, as list() fails (records() then holds the
///     entries read so far; a caller keeps what it had and asks again), and is read again at
///     every later call until it reads;
///   - more than kMaxEntries names fail the call (memory stays bounded).
/// With `watch` (the default) the directory is also watched by inotify (non-blocking, no
/// thread: the kernel queues the names renamed in or out, and refresh() reads that queue):
/// when the directory changed and the queue holds every change since the last call, only the
/// names it gives are looked at (one lstat() each) and no listing is made. A full queue
/// (IN_Q_OVERFLOW), the directory replaced or removed, or a watch that cannot be made (the
/// inotify limits) fall back to the listing above, and the watch is made again at it.
class StoreReader {
public:
    static constexpr std::size_t kVerifyPerRefresh = 64;
    static constexpr std::size_t kMaxEntries = 262144;

    explicit StoreReader(std::string dir, StoreOptions opts = {}, bool watch = true);

    struct Refreshed {
        bool changed = false;   ///< records() differs from what the last call that succeeded saw
        std::size_t reads = 0;  ///< entries read by this call
    };

    [[nodiscard]] Result<Refreshed> refresh(std::size_t max_reads, Warnings* warnings = nullptr);

    /// The records read, by node name (Store::list()'s order).
    [[nodiscard]] const std::map<std::string, Record, std::less<>>& records() const noexcept { return records_; }

    /// Every entry listed has been read.
    [[nodiscard]] bool complete() const noexcept { return pending_.empty(); }

    [[nodiscard]] const std::string& dir() const noexcept { return dir_; }

    /// Entries read in all (record files opened).
    [[nodiscard]] std::uint64_t reads() const noexcept { return reads_; }

    /// Listings of the directory made in all (readdir of every name).
    [[nodiscard]] std::uint64_t listings() const noexcept { return listing_; }

    /// The directory is watched now (the last listing made the watch).
    [[nodiscard]] bool watching() const noexcept { return watch_fd_.fd >= 0; }

    /// Identity of a file as lstat()/fstat() gives it (0: unknown).
    struct Stamp {
        std::uint64_t ino = 0;
        std::int64_t size = 0, mtime_ns = 0, ctime_ns = 0;
        bool operator==(const Stamp&) const = default;
    };

private:
    struct Known {
        std::uint64_t listed_ino = 0;  ///< readdir's d_ino when it was read
        Stamp stamp;                   ///< what was read (fstat), for the in-place check
        std::uint64_t listing = 0;     ///< the last listing that named it
    };

    struct Pending {
        std::uint64_t ino = 0;      ///< readdir's d_ino
        std::uint64_t listing = 0;  ///< the last listing that named it
    };

    struct NameHash {
        using is_transparent = void;

        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };

    void forget(const std::string& name);

    /// A descriptor closed with its owner (moved, never copied).
    struct Fd {
        int fd = -1;
        Fd() = default;

        Fd(Fd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}

        Fd& operator=(Fd&& o) noexcept;
        Fd(const Fd&) = delete;
        Fd& operator=(const Fd&) = delete;
        ~Fd();
        void reset() noexcept;
    };

    /// (Re)makes the watch on the directory whose inode is `ino` (before a listing).
    void arm_watch(std::uint64_t ino);
    /// The watch's queue read (bounded): the names it gives made pending; false when a
    /// listing is needed (overflow, the directory gone or replaced, a read error).
    bool drain_watch();

    std::string dir_;
    StoreOptions opts_;
    std::optional<Stamp> dir_stamp_;  ///< the directory when last listed
    std::uint64_t listing_ = 0;       ///< listings made
    /// every entry listed and read (hashed: a listing looks each name up, no copy made)
    std::unordered_map<std::string, Known, NameHash, std::equal_to<>> known_;
    std::map<std::string, Record, std::less<>> records_;
    std::map<std::string, Pending, std::less<>> pending_;  ///< listed, to read
    std::size_t verify_bucket_ = 0;                        ///< the in-place check resumes at this bucket of known_
    bool changed_ = false;                                 ///< records_ changed since the last call that succeeded
    bool missing_ = false;                                 ///< the directory did not exist at the last call
    std::uint64_t reads_ = 0;
    bool want_watch_ = true;         ///< watch the directory (inotify) when it can be
    Fd watch_fd_;                    ///< the inotify descriptor (IN_NONBLOCK | IN_CLOEXEC)
    std::uint64_t watched_ino_ = 0;  ///< the inode of the directory it watches
    std::vector<char> events_;       ///< drain_watch()'s buffer (64 KiB once watched)
};

[[nodiscard]] const char* verdict_name(Verdict v) noexcept;

/// Serialise / parse one record file (`source` names the file in errors).
[[nodiscard]] std::string to_record_text(const Record& r);
[[nodiscard]] Result<Record> parse_record(std::string_view text, const std::string& source);

/// A node name is usable as a file name: [A-Za-z0-9._-]+, not "." or "..", <= 255 chars.
[[nodiscard]] bool valid_node_name(std::string_view node) noexcept;

/// What a reader does when the store cannot be trusted or read (tampered, unreadable):
/// FailOpen treats the node as healthy (jobs keep running, the error is logged),
/// FailClosed treats it as unhealthy (no job lands on a node we cannot vouch for).
enum class FailMode : std::uint8_t { Open, Closed };
[[nodiscard]] const char* fail_mode_name(FailMode m) noexcept;
[[nodiscard]] std::optional<FailMode> fail_mode_from_name(std::string_view s) noexcept;

/// The answer of a launch gate for one node.
struct GateDecision {
    bool allow = true;         ///< may a job start on this node?
    bool store_error = false;  ///< true when the decision comes from the fail mode
    std::string message;       ///< why not / the store error (empty when allowed cleanly)
    std::string drain_reason;  ///< refused by a record: drain_reason() of it (for scontrol)
    Warnings warnings;         ///< store not created yet, the node's entry is not a record
};

/// The Reason= a node refused by its record is drained with: "topoplace: <reason>
/// (<source>)", one printable line of at most 200 bytes (kReasonPrefix: the lifecycle
/// resumes only drains that start with it).
[[nodiscard]] std::string drain_reason(const Record& rec);

/// Open `dir`, read the record of `node`, decide with `mode` when the store cannot be
/// trusted. No record (or no store yet) = healthy; a degraded node is allowed (it is kept
/// out of multi-node jobs by placement, not refused). The SPANK launch gate (the job
/// prolog) and `topoplace health gate` call this.
[[nodiscard]] GateDecision gate(const std::string& dir, std::string_view node, FailMode mode, StoreOptions opts = {});

/// Names of the nodes whose record is Unhealthy, sorted. Placement never chooses them.
/// Errors and warnings: those of Store::list() (a tampered record file refuses the whole list).
[[nodiscard]] Result<std::vector<std::string>> unhealthy_nodes(const Store& store, Warnings* warnings = nullptr);

/// Slowdown a reader gives a degraded record without an estimate: the performance
/// model's degraded_default (PERF-MODEL 6.2 row S_deg, mild: MegaScale's hosts ~10 %
/// slower), so the placer, the service and `topoplace place` agree.
inline constexpr double kDegradedDefaultSlowdown = 1.1;

/// The slowdown a reader takes for a degraded record: its estimate, else the default.
[[nodiscard]] inline double degraded_slowdown(const Record& r) noexcept {
    return r.slowdown >= 1.0 ? r.slowdown : kDegradedDefaultSlowdown;
}

/// (node, slowdown) of the nodes whose record is Degraded, sorted by node; a record
/// without an estimate reads kDegradedDefaultSlowdown. Errors and warnings: those of
/// Store::list().
[[nodiscard]] Result<std::vector<std::pair<std::string, double>>> degraded_nodes(const Store& store,
                                                                                 Warnings* warnings = nullptr);

}  // namespace topo::health
