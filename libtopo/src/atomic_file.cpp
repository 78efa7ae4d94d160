// SPDX-License-Identifier: Apache-2.0
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <topo/atomic_file.hpp>
#include <topo/errno_text.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topo {
namespace {

const char* kind_of(mode_t m) {
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

}  // namespace

Status write_file_atomic(const std::string& path, std::string_view content, mode_t mode) {
    if (path.empty()) return fail(Errc::Io, "empty output path");
    // "-o /dev/null" means "discard": nothing is written, and /dev/null is never replaced.
    if (path == "/dev/null") return Ok{};

    struct stat st {};

    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            return fail(Errc::Io,
                        std::string("refusing to replace ") + kind_of(st.st_mode)
                            + " (write to a regular file, or '-' for standard output)",
                        path);
        }
    } else if (errno != ENOENT) {
        return fail(Errc::Io, "cannot stat: " + errno_text(errno), path);
    }
    const auto slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string tmpl = (dir == "/" ? "" : dir) + "/." + base + ".XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = ::mkostemp(buf.data(), O_CLOEXEC);
    if (fd < 0) return fail(Errc::Io, "cannot create a temporary file in " + dir + ": " + errno_text(errno), path);
    const std::string tmp(buf.data());
    auto abandon = [&](int e, const char* what) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return fail(Errc::Io, std::string(what) + ": " + errno_text(e), path);
    };
    std::size_t off = 0;
    while (off < content.size()) {
        const ssize_t n = ::write(fd, content.data() + off, content.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return abandon(n < 0 ? errno : EIO, "write failed");
        off += static_cast<std::size_t>(n);
    }
    if (::fchmod(fd, mode) != 0) return abandon(errno, "chmod failed");
    if (::fsync(fd) != 0) return abandon(errno, "fsync failed");
    if (::close(fd) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        return fail(Errc::Io, "write failed: " + errno_text(e), path);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        return fail(Errc::Io, "rename failed: " + errno_text(e), path);
    }
    // The rename itself durable (a crash right after leaves the new file, not none).
    if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
    return Ok{};
}

}  // namespace topo
