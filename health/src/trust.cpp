// SPDX-License-Identifier: Apache-2.0
// Trust rules for the health store and the site probes (see trust.hpp, docs/health.md).
#include <array>
#include <cerrno>
#include <cstdio>
#include <deque>
#include <string>

#include <topo/errno_text.hpp>
#include <topo/health/trust.hpp>

#include <unistd.h>

namespace topo::health {

namespace {

/// Symbolic links followed above one object: the kernel's own limit (ELOOP).
constexpr int kMaxLinks = 40;

bool trusted_owner(uid_t owner, uid_t uid) {
    return owner == 0 || owner == uid;
}

std::string owner_rule(uid_t owner, uid_t uid) {
    return "owned by uid " + std::to_string(owner) + ", not by uid 0"
           + (uid != 0 ? " or uid " + std::to_string(uid) : std::string())
           + " (tampered or forged; see docs/health.md)";
}

/// `above`: a directory above the object, where a sticky one would have been accepted.
std::string mode_rule(mode_t mode, bool above = false) {
    std::array<char, 8> m{};
    std::snprintf(m.data(), m.size(), "%04o", static_cast<unsigned>(mode & 07777));
    return std::string("mode ") + m.data() + " is group/world writable" + (above ? " and not sticky" : "")
           + " (tampered; fix with chmod go-w)";
}

Unexpected refuse(std::string_view what, const std::string& path, const std::string& component,
                  const std::string& rule) {
    std::string m = std::string(what) + ": refusing " + path + ": ";
    if (component != path) m += "the directory " + component + " above it: ";
    return fail(Errc::Unsupported, m + rule);
}

/// Split a path into its components ("" and "." dropped).
std::deque<std::string> components(std::string_view p) {
    std::deque<std::string> out;
    std::size_t pos = 0;
    while (pos <= p.size()) {
        std::size_t slash = p.find('/', pos);
        if (slash == std::string_view::npos) slash = p.size();
        std::string_view c = p.substr(pos, slash - pos);
        if (!c.empty() && c != ".") out.emplace_back(c);
        pos = slash + 1;
    }
    return out;
}

}  // namespace

Status check_trusted_stat(const struct stat& st, const std::string& path, PathKind kind, uid_t uid,
                          std::string_view what) {
    if (S_ISLNK(st.st_mode)) return refuse(what, path, path, "a symbolic link (see docs/health.md)");
    if (kind == PathKind::Directory && !S_ISDIR(st.st_mode)) return refuse(what, path, path, "not a directory");
    if (kind == PathKind::RegularFile && !S_ISREG(st.st_mode)) return refuse(what, path, path, "not a regular file");
    if (!trusted_owner(st.st_uid, uid)) return refuse(what, path, path, owner_rule(st.st_uid, uid));
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) return refuse(what, path, path, mode_rule(st.st_mode));
    return Ok{};
}

Status check_trusted_path(const std::string& path, PathKind kind, uid_t uid, std::string_view what) {
    if (path.empty()) return fail(Errc::InvalidArgument, std::string(what) + ": empty path");
    std::string full = path;
    if (full.front() != '/') {
        std::array<char, 4096> cwd{};
        if (::getcwd(cwd.data(), cwd.size()) == nullptr)
            return fail(Errc::Io,
                        std::string(what) + ": " + path + ": cannot tell the current directory: " + errno_text(errno));
        full = std::string(cwd.data()) + "/" + path;
    }
    std::deque<std::string> todo = components(full);
    std::string cur;  // the physical path checked so far, no symbolic link in it; "" is /
    int links = 0;

    // A directory above the object: trusted owner; not group/world writable unless sticky.
    auto check_above = [&](const struct stat& st, const std::string& p) -> Status {
        if (!S_ISDIR(st.st_mode)) return refuse(what, path, p, "not a directory");
        if (!trusted_owner(st.st_uid, uid)) return refuse(what, path, p, owner_rule(st.st_uid, uid));
        if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0)
            return refuse(what, path, p, mode_rule(st.st_mode, true));
        return Ok{};
    };

    struct stat st {};

    if (::lstat("/", &st) != 0) return fail(Errc::Io, std::string(what) + ": cannot examine /: " + errno_text(errno));
    if (todo.empty()) return check_trusted_stat(st, "/", kind, uid, what);
    if (auto t = check_above(st, "/"); !t) return t;

    while (!todo.empty()) {
        const std::string c = std::move(todo.front());
        todo.pop_front();
        const bool last = todo.empty();
        if (c == "..") {  // `cur` has no symbolic link: its textual parent is its real parent (checked)
            if (auto s = cur.rfind('/'); s != std::string::npos) cur.resize(s);
            if (last) {
                const std::string p = cur.empty() ? "/" : cur;
                if (::lstat(p.c_str(), &st) != 0)
                    return fail(Errc::Io, std::string(what) + ": cannot examine " + p + ": " + errno_text(errno));
                return check_trusted_stat(st, p, kind, uid, what);
            }
            continue;
        }
        const std::string next = cur + "/" + c;
        if (::lstat(next.c_str(), &st) != 0) {
            const int e = errno;
            if (e == ENOENT)
                return fail(Errc::NotFound, std::string(what) + " " + path + ": " + next + " does not exist");
            return fail(Errc::Io, std::string(what) + ": cannot examine " + next + ": " + errno_text(e));
        }
        if (last) return check_trusted_stat(st, next, kind, uid, what);
        if (S_ISLNK(st.st_mode)) {
            // Followed only when nobody but root (or uid) can have made it: its directory is trusted.
            if (!trusted_owner(st.st_uid, uid)) return refuse(what, path, next, owner_rule(st.st_uid, uid));
            if (++links > kMaxLinks)
                return refuse(what, path, next, "more than " + std::to_string(kMaxLinks) + " symbolic links");
            std::array<char, 4096> buf{};
            const ssize_t n = ::readlink(next.c_str(), buf.data(), buf.size());
            if (n < 0 || static_cast<std::size_t>(n) >= buf.size())
                return fail(Errc::Io, std::string(what) + ": cannot read the link " + next + ": "
                                          + (n < 0 ? errno_text(errno) : std::string("too long")));
            const std::string_view target(buf.data(), static_cast<std::size_t>(n));
            auto parts = components(target);
            todo.insert(todo.begin(), parts.begin(), parts.end());
            if (!target.empty() && target.front() == '/') cur.clear();
            continue;
        }
        if (auto t = check_above(st, next); !t) return t;
        cur = next;
    }
    return Ok{};  // not reached: the last component returns above
}

}  // namespace topo::health
