// SPDX-License-Identifier: Apache-2.0
// The job-table read in a child process (see job_reader.hpp).
#include "job_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>

#include <topo/errno_text.hpp>

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace topo::spank {

namespace {

// "TPJR1" kind(u8: 0 jobs, 1 no change, 2 error) last_update(i64)
//   jobs: count(u32), then per job: hosts(u32) host ids(u32 each)
//   error: code(u8) length(u32) message
constexpr std::string_view kMagic = "TPJR1";
constexpr std::size_t kMaxMessage = 4096;

void put32(std::string& s, std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    s.append(b, 4);
}

void put64(std::string& s, std::int64_t v) {
    char b[8];
    std::memcpy(b, &v, 8);
    s.append(b, 8);
}

struct Reader {
    std::string_view in;
    std::size_t at = 0;

    bool take(void* out, std::size_t n) {
        if (in.size() - at < n) return false;
        std::memcpy(out, in.data() + at, n);
        at += n;
        return true;
    }
};

Unexpected bad(const std::string& what) {
    return fail(Errc::Parse, "job table reader's result: " + what);
}

}  // namespace

std::string encode_job_table_read(const Result<JobTableRead>& r) {
    std::string s(kMagic);
    if (!r) {
        s += '\2';
        put64(s, 0);
        s += static_cast<char>(r.error().code);
        const std::string msg = r.error().to_string().substr(0, kMaxMessage);
        put32(s, static_cast<std::uint32_t>(msg.size()));
        s += msg;
        return s;
    }
    s += r->jobs ? '\0' : '\1';
    put64(s, static_cast<std::int64_t>(r->last_update));
    if (r->jobs) {
        put32(s, static_cast<std::uint32_t>(r->jobs->size()));
        for (const auto& j : *r->jobs) {
            put32(s, static_cast<std::uint32_t>(j.size()));
            for (const HostId h : j) put32(s, h.index());
        }
    }
    return s;
}

Result<JobTableRead> decode_job_table_read(std::string_view bytes, std::size_t host_count, std::size_t max_jobs) {
    Reader rd{bytes};
    if (bytes.substr(0, kMagic.size()) != kMagic) return bad("not one (no header)");
    rd.at = kMagic.size();
    char kind = 0;
    std::int64_t last = 0;
    if (!rd.take(&kind, 1) || !rd.take(&last, 8)) return bad("truncated header");
    JobTableRead out;
    out.last_update = static_cast<std::time_t>(last);
    if (kind == '\2') {
        std::uint8_t code = 0;
        std::uint32_t n = 0;
        if (!rd.take(&code, 1) || !rd.take(&n, 4) || n > kMaxMessage || bytes.size() - rd.at != n)
            return bad("truncated error");
        const auto c = code <= static_cast<std::uint8_t>(Errc::Internal) ? static_cast<Errc>(code) : Errc::Internal;
        return fail(c, std::string(bytes.substr(rd.at, n)));
    }
    if (kind == '\1') {
        if (rd.at != bytes.size()) return bad("bytes after a 'no change'");
        return out;
    }
    if (kind != '\0') return bad("unknown kind");
    std::uint32_t njobs = 0;
    if (!rd.take(&njobs, 4)) return bad("truncated job count");
    if (njobs > max_jobs) return bad(std::to_string(njobs) + " jobs, more than " + std::to_string(max_jobs));
    // every job takes at least 12 bytes: a count lying about the rest is caught before reserving
    if (njobs > (bytes.size() - rd.at) / 12) return bad("truncated jobs");
    RunningJobs jobs(njobs);
    for (auto& j : jobs) {
        std::uint32_t n = 0;
        if (!rd.take(&n, 4)) return bad("truncated job");
        if (n < 2 || n > host_count) return bad("a job of " + std::to_string(n) + " hosts");
        if ((bytes.size() - rd.at) / 4 < n) return bad("truncated host list");
        j.resize(n);
        for (auto& h : j) {
            std::uint32_t v = 0;
            (void)rd.take(&v, 4);
            if (v >= host_count) return bad("host id " + std::to_string(v) + " of " + std::to_string(host_count));
            h = HostId{v};
        }
    }
    if (rd.at != bytes.size()) return bad("bytes after the last job");
    out.jobs = std::move(jobs);
    return out;
}

JobReader::~JobReader() {
    cancel();
}

void JobReader::reset() {
    if (memfd_ >= 0) ::close(memfd_);
    memfd_ = -1;
    pid_ = -1;
}

void JobReader::cancel() {
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    reset();
}

Status JobReader::start(const JobTableReadFn& read, std::time_t since) {
    if (busy()) return fail(Errc::Busy, "a job table read is still running");
    const int fd = ::memfd_create("topoplace-jobs", MFD_CLOEXEC);
    if (fd < 0) return fail(Errc::Io, "memfd_create: " + errno_text(errno));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(fd);
        return fail(Errc::Io, "fork: " + errno_text(e));
    }
    if (pid == 0) {
        // the child: no destructor, atexit handler or stdio flush of the parent's runs (_exit)
        (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(3);
        // the parent's sockets (listener, clients) are not the child's to hold open
        if (fd > 3) (void)::close_range(3, static_cast<unsigned>(fd) - 1, 0);
        (void)::close_range(static_cast<unsigned>(fd) + 1, ~0U, 0);
        // a second bound besides the parent's kill: the child ends itself past the limit
        ::alarm(static_cast<unsigned>(limits_.time.count() / 1000 + 2));
        std::string out;
        try {
            std::time_t lu = since;
            auto r = read(&lu);
            if (!r)
                out = encode_job_table_read(fail(std::move(r).error()));
            else
                out = encode_job_table_read(JobTableRead{std::move(*r), lu});
        } catch (const std::exception& e) {
            out = encode_job_table_read(fail(Errc::Internal, std::string("job table read: ") + e.what()));
        } catch (...) {
            out = encode_job_table_read(fail(Errc::Internal, "job table read: unknown exception"));
        }
        std::size_t done = 0;
        while (done < out.size()) {
            const ssize_t w = ::write(fd, out.data() + done, out.size() - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) ::_exit(4);
            done += static_cast<std::size_t>(w);
        }
        ::_exit(0);
    }
    pid_ = pid;
    memfd_ = fd;
    started_ = std::chrono::steady_clock::now();
    return Ok{};
}

std::optional<Result<JobTableRead>> JobReader::poll(std::size_t host_count) {
    if (!busy()) return std::nullopt;
    int st = 0;
    pid_t w = 0;
    do {
        w = ::waitpid(pid_, &st, WNOHANG);
    } while (w < 0 && errno == EINTR);
    const auto now = std::chrono::steady_clock::now();
    if (w == 0) {
        if (now - started_ <= limits_.time) return std::nullopt;
        cancel();
        last_duration_ = std::chrono::duration_cast<std::chrono::milliseconds>(now - started_);
        return Result<JobTableRead>(fail(Errc::Io, "the job table read took over "
                                                       + std::to_string(limits_.time.count() / 1000)
                                                       + " s: its process was killed"));
    }
    last_duration_ = std::chrono::duration_cast<std::chrono::milliseconds>(now - started_);
    const int fd = memfd_;
    memfd_ = -1;
    pid_ = -1;

    struct Closer {
        int fd;

        ~Closer() {
            if (fd >= 0) ::close(fd);
        }
    } closer{fd};

    if (w < 0) return Result<JobTableRead>(fail(Errc::Internal, "waitpid: " + errno_text(errno)));
    if (WIFSIGNALED(st))
        return Result<JobTableRead>(
            fail(Errc::Io, "the job table read's process died of signal " + std::to_string(WTERMSIG(st))));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return Result<JobTableRead>(
            fail(Errc::Io, "the job table read's process exited " + std::to_string(WEXITSTATUS(st))));

    struct stat sb {};

    if (::fstat(fd, &sb) != 0) return Result<JobTableRead>(fail(Errc::Io, "fstat: " + errno_text(errno)));
    if (sb.st_size < 0 || static_cast<std::uint64_t>(sb.st_size) > limits_.max_bytes)
        return Result<JobTableRead>(
            bad(std::to_string(sb.st_size) + " bytes, more than " + std::to_string(limits_.max_bytes)));
    std::string bytes(static_cast<std::size_t>(sb.st_size), '\0');
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t r = ::pread(fd, bytes.data() + got, bytes.size() - got, static_cast<off_t>(got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return Result<JobTableRead>(fail(Errc::Io, "reading the job table read's result"));
        got += static_cast<std::size_t>(r);
    }
    return decode_job_table_read(bytes, host_count, limits_.max_jobs);
}

}  // namespace topo::spank
