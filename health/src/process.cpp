// SPDX-License-Identifier: Apache-2.0
// Run a program with a hard timeout; a hung program (and everything it started in its
// process group) is killed with SIGKILL at the deadline.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>

#include <topo/errno_text.hpp>
#include <topo/health/check.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace topo::health {

namespace {

using clock = std::chrono::steady_clock;

/// How long output is still read after the program exited.
constexpr auto kDrainAfterExit = std::chrono::milliseconds(250);

/// Reap a child just sent SIGKILL, waiting at most 1 s (one in uninterruptible sleep in
/// the kernel dies only when it leaves it: the bound holds, a zombie is left).
bool reap(pid_t pid, int& status) {
    for (int i = 0; i < 1000; ++i) {
        pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) return w == pid;

        struct timespec ts {
            0, 1000000
        };

        ::nanosleep(&ts, nullptr);
    }
    return false;
}

}  // namespace

ProcResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout, bool merge_stderr,
                       std::size_t max_output) {
    ProcResult res;
    const auto t0 = clock::now();
    // No overflow in `t0 + timeout`: bounds past kMaxTimeout are clamped (check.hpp).
    timeout = std::clamp(timeout, std::chrono::milliseconds(0), std::chrono::milliseconds(kMaxTimeout));
    if (argv.empty()) {
        res.started = false;
        res.out = "empty command";
        return res;
    }
    int pfd[2];
    if (::pipe2(pfd, O_CLOEXEC) != 0) {
        res.started = false;
        res.out = std::string("pipe: ") + errno_text(errno);
        return res;
    }
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    pid_t pid = ::fork();
    if (pid < 0) {
        res.started = false;
        res.out = std::string("fork: ") + errno_text(errno);
        ::close(pfd[0]);
        ::close(pfd[1]);
        return res;
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        int devnull = ::open("/dev/null", O_RDWR);
        if (devnull >= 0) ::dup2(devnull, 0);
        ::dup2(pfd[1], 1);
        if (merge_stderr)
            ::dup2(pfd[1], 2);
        else if (devnull >= 0)
            ::dup2(devnull, 2);
        // Reset signal dispositions a parent (slurmd) may have changed.
        ::signal(SIGPIPE, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        ::signal(SIGINT, SIG_DFL);
        ::execvp(args[0], args.data());
        const char* m = "cannot execute: ";
        [[maybe_unused]] auto w1 = ::write(2, m, std::strlen(m));
        [[maybe_unused]] auto w2 = ::write(2, args[0], std::strlen(args[0]));
        [[maybe_unused]] auto w3 = ::write(2, "\n", 1);
        ::_exit(127);
    }
    ::setpgid(pid, pid);  // also in the parent: no race with the kill below
    ::close(pfd[1]);
    ::fcntl(pfd[0], F_SETFL, O_NONBLOCK);

    const auto deadline = t0 + timeout;
    bool exited = false;
    bool reading = true;  // false at EOF: the program closed its output
    clock::time_point exited_at{};
    int status = 0;
    char buf[4096];
    for (;;) {
        const auto now = clock::now();
        if (!exited) {
            pid_t w = ::waitpid(pid, &status, WNOHANG);
            if (w == pid) {
                exited = true;
                exited_at = now;
                // Leftovers of the program (its process group) must not outlive it.
                ::kill(-pid, SIGKILL);
            }
        }
        if (exited && !reading) break;
        if (now >= deadline) {
            // The bound holds whatever holds the pipe: stop reading, kill the group, reap.
            if (!exited) {
                res.timed_out = true;
                ::kill(-pid, SIGKILL);
                static_cast<void>(reap(pid, status));  // not reaped within 1 s: left a zombie
            }
            break;
        }
        // Output still buffered after the exit is read; a helper that left the process
        // group and keeps the pipe open (or writing) is not waited for.
        if (exited && now - exited_at >= kDrainAfterExit) break;
        if (!reading) {
            // Output closed but the program still runs: wait in 1 ms steps.
            struct timespec ts {
                0, 1000000
            };

            ::nanosleep(&ts, nullptr);
            continue;
        }

        struct pollfd p {
            pfd[0], POLLIN, 0
        };

        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
        const int wait_ms = static_cast<int>(std::min<long long>(exited ? 50 : 20, std::max<long long>(left, 0)));
        int pr = ::poll(&p, 1, wait_ms);
        if (pr > 0) {
            ssize_t n = ::read(pfd[0], buf, sizeof buf);
            if (n > 0) {
                if (res.out.size() < max_output) {
                    res.out.append(buf, std::min(static_cast<std::size_t>(n), max_output - res.out.size()));
                } else {
                    res.truncated = true;
                }
            } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                reading = false;
            }
        } else if (pr == 0 && exited) {
            break;  // exited and nothing more within 50 ms (a grandchild holds the pipe)
        }
    }
    ::close(pfd[0]);
    res.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (res.timed_out) return res;
    if (WIFEXITED(status))
        res.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        res.signal = WTERMSIG(status);
    return res;
}

}  // namespace topo::health
