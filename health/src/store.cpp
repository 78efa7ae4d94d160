// SPDX-License-Identifier: Apache-2.0
// The health flag store: one small text file per node, trusted only when root-owned and
// not group/world writable (see docs/health.md).
#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>

#include <topo/health/store.hpp>

#include "errno_text.hpp"
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topo::health {

namespace {

constexpr std::string_view kMagic = "topoplace-health 1";

using detail::errno_text;

/// Refuse an object we must not trust: foreign owner or writable by group/others.
Status check_trust(const struct stat& st, const std::string& path, uid_t trusted, bool want_dir) {
    if (want_dir && !S_ISDIR(st.st_mode))
        return fail(Errc::Unsupported, "health store " + path + " is not a directory");
    if (!want_dir && !S_ISREG(st.st_mode))
        return fail(Errc::Unsupported, "health record " + path + " is not a regular file; refusing it");
    if (st.st_uid != trusted)
        return fail(Errc::Unsupported, std::string("health store: refusing ") + path + ": owned by uid "
                                           + std::to_string(st.st_uid) + ", not by uid " + std::to_string(trusted)
                                           + " (tampered or forged; see docs/health.md)");
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        return fail(Errc::Unsupported, std::string("health store: refusing ") + path + ": mode " + mode
                                           + " is group/world writable (tampered; fix with chmod go-w)");
    }
    return Ok{};
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
    return v == Verdict::Healthy ? "healthy" : "unhealthy";
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
            else
                return fail(Errc::Parse, "verdict must be healthy or unhealthy, not '" + std::string(val) + "'", source,
                            line);
            have_verdict = true;
        } else if (key == "reason") {
            r.reason = val;
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
    while (dir.size() > 1 && dir.back() == '/')
        dir.pop_back();
    if (dir.empty()) return fail(Errc::InvalidArgument, "health store: empty directory name");

    struct stat st {};

    if (::lstat(dir.c_str(), &st) != 0) {
        int e = errno;
        if (e == ENOENT && opts.create) {
            if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
                return fail(Errc::Io, "health store: cannot create " + dir + ": " + errno_text(errno));
            if (::lstat(dir.c_str(), &st) != 0)
                return fail(Errc::Io, "health store: cannot stat " + dir + ": " + errno_text(errno));
        } else {
            return fail(Errc::Io, "health store: cannot open " + dir + ": " + errno_text(e));
        }
    }
    if (S_ISLNK(st.st_mode)) return fail(Errc::Unsupported, "health store " + dir + " is a symbolic link; refusing it");
    if (auto t = check_trust(st, dir, opts.trusted_uid, true); !t) return fail(t.error());
    Store s;
    s.dir_ = std::move(dir);
    s.opts_ = opts;
    return s;
}

Result<std::optional<Record>> Store::get(std::string_view node) const {
    if (!valid_node_name(node)) return fail(Errc::InvalidArgument, "invalid node name '" + std::string(node) + "'");

    // Re-check the directory: it may have been tampered with since open().
    struct stat dst {};

    if (::stat(dir_.c_str(), &dst) != 0)
        return fail(Errc::Io, "health store: cannot stat " + dir_ + ": " + errno_text(errno));
    if (auto t = check_trust(dst, dir_, opts_.trusted_uid, true); !t) return fail(t.error());

    const std::string path = dir_ + "/" + std::string(node);
    int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT) return std::optional<Record>{};
        if (e == ELOOP) return fail(Errc::Unsupported, "health record " + path + " is a symbolic link; refusing it");
        return fail(Errc::Io, "health store: cannot open " + path + ": " + errno_text(e));
    }

    struct stat st {};

    if (::fstat(fd, &st) != 0) {
        int e = errno;
        ::close(fd);
        return fail(Errc::Io, "health store: cannot stat " + path + ": " + errno_text(e));
    }
    if (auto t = check_trust(st, path, opts_.trusted_uid, false); !t) {
        ::close(fd);
        return fail(t.error());
    }
    if (st.st_size > 65536) {
        ::close(fd);
        return fail(Errc::Parse, "health record larger than 64 KiB", path, 0);
    }
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text.resize(got);
    auto r = parse_record(text, path);
    if (!r) return fail(r.error());
    if (r->node != node)
        return fail(Errc::Parse, "record is for node '" + r->node + "', not '" + std::string(node) + "'", path, 2);
    return std::optional<Record>{std::move(*r)};
}

Result<std::vector<Record>> Store::list() const {
    struct stat dst {};

    if (::stat(dir_.c_str(), &dst) != 0)
        return fail(Errc::Io, "health store: cannot stat " + dir_ + ": " + errno_text(errno));
    if (auto t = check_trust(dst, dir_, opts_.trusted_uid, true); !t) return fail(t.error());
    DIR* d = ::opendir(dir_.c_str());
    if (d == nullptr) return fail(Errc::Io, "health store: cannot read " + dir_ + ": " + errno_text(errno));
    std::vector<std::string> names;
    while (auto* e = ::readdir(d)) {  // NOLINT(concurrency-mt-unsafe): one DIR per call
        std::string_view n = e->d_name;
        if (n == "." || n == ".." || n.front() == '.') continue;  // temp files are ".<node>.tmp.*"
        if (!valid_node_name(n)) continue;
        names.emplace_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    std::vector<Record> out;
    out.reserve(names.size());
    for (const auto& n : names) {
        auto r = get(n);
        if (!r) return fail(r.error());
        if (*r) out.push_back(std::move(**r));
    }
    return out;
}

Status Store::put(const Record& r) const {
    if (!valid_node_name(r.node)) return fail(Errc::InvalidArgument, "invalid node name '" + r.node + "'");
    if (::geteuid() != opts_.trusted_uid)
        return fail(Errc::Unsupported, "health store: only uid " + std::to_string(opts_.trusted_uid)
                                           + " may write records (running as uid " + std::to_string(::geteuid()) + ")");

    struct stat dst {};

    if (::stat(dir_.c_str(), &dst) != 0)
        return fail(Errc::Io, "health store: cannot stat " + dir_ + ": " + errno_text(errno));
    if (auto t = check_trust(dst, dir_, opts_.trusted_uid, true); !t) return fail(t.error());

    const std::string path = dir_ + "/" + r.node;
    std::string tmp = dir_ + "/." + r.node + ".tmp.XXXXXX";
    int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        return fail(Errc::Io, "health store: cannot create a temporary file in " + dir_ + ": " + errno_text(errno));
    const std::string text = to_record_text(r);
    std::size_t off = 0;
    bool ok = ::fchmod(fd, 0644) == 0;
    while (ok && off < text.size()) {
        ssize_t n = ::write(fd, text.data() + off, text.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            ok = false;
        else
            off += static_cast<std::size_t>(n);
    }
    int e = ok ? 0 : errno;
    if (ok && ::fsync(fd) != 0) {
        ok = false;
        e = errno;
    }
    if (::close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        ::unlink(tmp.c_str());
        return fail(Errc::Io, "health store: cannot write " + path + ": " + errno_text(e));
    }
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

    struct stat st {};

    // A missing store (never written) means no node was ever flagged.
    if (::lstat(dir.c_str(), &st) != 0 && errno == ENOENT) return d;
    auto s = Store::open(dir, opts);
    Result<std::optional<Record>> r = s ? s->get(node) : Result<std::optional<Record>>(fail(s.error()));
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
    }
    return d;
}

Result<std::vector<std::string>> unhealthy_nodes(const Store& store) {
    auto l = store.list();
    if (!l) return fail(l.error());
    std::vector<std::string> out;
    for (const auto& r : *l)
        if (r.verdict == Verdict::Unhealthy) out.push_back(r.node);
    return out;
}

}  // namespace topo::health
