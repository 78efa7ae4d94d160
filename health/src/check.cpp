// SPDX-License-Identifier: Apache-2.0
// Health probes: InfiniBand (sysfs + libibumad), GPUs (PCI sysfs, /dev/nvidiaN, NVML,
// kernel XID messages), site probe directory; the bounded check that runs them.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>

#include <topo/atomic_file.hpp>
#include <topo/errno_text.hpp>
#include <topo/health/check.hpp>
#include <topo/health/trust.hpp>

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#if __has_include(<infiniband/umad.h>)
#include <infiniband/umad.h>
#define TOPO_HAVE_UMAD_H 1
#endif

namespace topo::health {

namespace {

using clock = std::chrono::steady_clock;

std::string join_root(const std::string& root, const std::string& p) {
    if (root.empty() || root == "/") return p;
    std::string r = root;
    while (r.size() > 1 && r.back() == '/') r.pop_back();
    return r + p;
}

bool is_real_root(const std::string& root) {
    return root.empty() || root == "/";
}

/// First line of a small sysfs file, trimmed; nullopt when unreadable.
std::optional<std::string> read_line(const std::string& path) {
    // Blocking on purpose: a wedged driver can hang a sysfs read; the probe's own timeout
    // (run_builtin) handles that, as it would on a real node.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    char buf[512];
    ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n < 0) return std::nullopt;
    std::string s(buf, static_cast<std::size_t>(n));
    if (auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.pop_back();
    return s;
}

std::vector<std::string> list_dir(const std::string& path) {
    std::vector<std::string> out;
    DIR* d = ::opendir(path.c_str());
    if (d == nullptr) return out;
    while (auto* e = ::readdir(d)) {  // NOLINT(concurrency-mt-unsafe): one DIR per call
        std::string n = e->d_name;
        if (n != "." && n != "..") out.push_back(n);
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

std::string join(const std::vector<std::string>& parts) {
    std::string s;
    for (const auto& p : parts) {
        if (!s.empty()) s += ", ";
        s += p;
    }
    return s;
}

bool dir_exists(const std::string& p) {
    struct stat st {};

    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::optional<std::int64_t> to_i64(std::string_view v) {
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc{} || p == v.data()) return std::nullopt;
    return x;
}

/// "400 Gb/sec (4X NDR)" -> 400; "2.5 Gb/sec (1X SDR)" -> 2.5
std::optional<double> parse_rate(const std::string& s) {
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str()) return std::nullopt;
    return v;
}

/// "4: ACTIVE" -> "ACTIVE"
std::string state_word(const std::string& s) {
    auto c = s.find(':');
    std::string w = c == std::string::npos ? s : s.substr(c + 1);
    while (!w.empty() && w.front() == ' ') w.erase(0, 1);
    return w;
}

std::string fmt_rate(double g) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", g);
    return b;
}

// ------------------------------------------------------------------ InfiniBand

struct PortView {
    int num = 0;
    std::string state;       ///< "ACTIVE", "DOWN", "INIT", "ARMED"
    std::string phys_state;  ///< "LinkUp", "Polling", "Disabled"...
    double rate_gbps = -1;   ///< -1 = unknown
    std::string rate_text;
    std::string link_layer;
};

struct HcaView {
    std::string name;
    std::vector<PortView> ports;
};

std::vector<HcaView> ib_from_sysfs(const std::string& root) {
    std::vector<HcaView> out;
    const std::string base = join_root(root, "/sys/class/infiniband");
    for (const auto& dev : list_dir(base)) {
        HcaView h;
        h.name = dev;
        const std::string pdir = base + "/" + dev + "/ports";
        for (const auto& p : list_dir(pdir)) {
            auto num = to_i64(p);
            if (!num) continue;
            PortView v;
            v.num = static_cast<int>(*num);
            const std::string pp = pdir + "/" + p;
            v.state = state_word(read_line(pp + "/state").value_or("?: unreadable"));
            v.phys_state = state_word(read_line(pp + "/phys_state").value_or("?: unreadable"));
            v.rate_text = read_line(pp + "/rate").value_or("");
            v.rate_gbps = parse_rate(v.rate_text).value_or(-1);
            v.link_layer = read_line(pp + "/link_layer").value_or("");
            h.ports.push_back(std::move(v));
        }
        std::sort(h.ports.begin(), h.ports.end(), [](auto& a, auto& b) { return a.num < b.num; });
        out.push_back(std::move(h));
    }
    return out;
}

#ifdef TOPO_HAVE_UMAD_H
/// rdma-core's libibumad, loaded at run time (never a link dependency of topo_health,
/// which the SPANK plugin links). nullopt when the library is not there.
std::optional<std::vector<HcaView>> ib_from_umad(std::string& note) {
    void* h = ::dlopen("libibumad.so.3", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
        note = "libibumad not available, sysfs used";
        return std::nullopt;
    }
    using init_fn = int (*)();
    using names_fn = int (*)(char(*)[UMAD_CA_NAME_LEN], int);
    using getca_fn = int (*)(const char*, umad_ca_t*);
    using relca_fn = int (*)(umad_ca_t*);
    auto init = reinterpret_cast<init_fn>(::dlsym(h, "umad_init"));
    auto names = reinterpret_cast<names_fn>(::dlsym(h, "umad_get_cas_names"));
    auto getca = reinterpret_cast<getca_fn>(::dlsym(h, "umad_get_ca"));
    auto relca = reinterpret_cast<relca_fn>(::dlsym(h, "umad_release_ca"));
    if (init == nullptr || names == nullptr || getca == nullptr || relca == nullptr) {
        ::dlclose(h);
        note = "libibumad lacks umad_get_ca, sysfs used";
        return std::nullopt;
    }
    std::vector<HcaView> out;
    if (init() < 0) {
        ::dlclose(h);
        note = "umad_init failed, sysfs used";
        return std::nullopt;
    }
    char cas[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
    int n = names(cas, UMAD_MAX_DEVICES);
    for (int i = 0; i < n; ++i) {
        umad_ca_t ca{};
        if (getca(cas[i], &ca) < 0) continue;
        HcaView v;
        v.name = cas[i];
        for (int p = 0; p < UMAD_CA_MAX_PORTS; ++p) {
            const umad_port_t* up = ca.ports[p];
            if (up == nullptr) continue;
            PortView pv;
            pv.num = up->portnum;
            static const char* states[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
            static const char* phys[] = {
                "NOP",     "Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp", "LinkErrorRecovery",
                "Phy Test"};
            pv.state = up->state < 6 ? states[up->state] : std::to_string(up->state);
            pv.phys_state = up->phys_state < 8 ? phys[up->phys_state] : std::to_string(up->phys_state);
            pv.rate_gbps = up->rate;
            pv.rate_text = std::to_string(up->rate) + " Gb/sec";
            pv.link_layer = up->link_layer;
            v.ports.push_back(std::move(pv));
        }
        relca(&ca);
        out.push_back(std::move(v));
    }
    ::dlclose(h);
    note = "libibumad";
    return out;
}
#endif

// ------------------------------------------------------------------ degraded

/// A PCI device's link below what it can do: "x8 of x16" (width), and with `speed`
/// "8.0 GT/s PCIe of 16.0 GT/s PCIe". nullopt when fine or unreadable (no sysfs entries:
/// a virtual function, an old kernel). `dev` is the device's sysfs directory.
std::optional<std::string> pcie_link_short(const std::string& dev, bool speed) {
    // What the link can do is the lower of the device's and its upstream port's maximum (a
    // x16 Gen5 card in a x8 Gen4 slot trains x8 Gen4 on every node: not a fault). The port
    // is the parent of the device's real sysfs directory.
    std::string port;
    if (char* real = ::realpath(dev.c_str(), nullptr); real != nullptr) {
        port = real;
        std::free(real);
        port = port.substr(0, port.rfind('/'));
    }
    auto lowest = [&](const char* key) -> std::optional<std::string> {
        auto d = read_line(dev + "/" + key);
        auto p = port.empty() ? std::nullopt : read_line(port + "/" + key);
        if (!d) return p;
        if (p && std::strtod(p->c_str(), nullptr) > 0
            && std::strtod(p->c_str(), nullptr) < std::strtod(d->c_str(), nullptr))
            return p;
        return d;
    };
    std::string out;
    auto cw = read_line(dev + "/current_link_width");
    auto mw = lowest("max_link_width");
    if (cw && mw) {
        auto c = to_i64(*cw);
        auto m = to_i64(*mw);
        // 0 or 255 = link down / unknown (a powered-off slot): not a width to judge
        if (c && m && *c > 0 && *c < *m && *m < 255) out = "x" + *cw + " of x" + *mw;
    }
    if (speed) {
        auto cs = read_line(dev + "/current_link_speed");
        auto ms = lowest("max_link_speed");
        if (cs && ms) {
            const double c = std::strtod(cs->c_str(), nullptr);
            const double m = std::strtod(ms->c_str(), nullptr);
            if (c > 0 && m > 0 && c + 1e-9 < m) out += (out.empty() ? "" : ", ") + *cs + " of " + *ms;
        }
    }
    if (out.empty()) return std::nullopt;
    return out;
}

/// A site probe that passed (exit 0) and printed a line starting "degraded": degraded,
/// with the line as its reason and its "slowdown=X" word (1 <= X <= 100) as the estimate.
void mark_degraded(const std::string& out, ProbeResult& r) {
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);) {
        while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
        if (l.rfind("degraded", 0) != 0) continue;
        r.degraded = true;
        r.reason = l.size() > 200 ? l.substr(0, 200) : l;
        std::istringstream words(l);
        for (std::string w; words >> w;) {
            if (w.rfind("slowdown=", 0) != 0) continue;
            char* end = nullptr;
            const double v = std::strtod(w.c_str() + 9, &end);
            if (end != w.c_str() + 9 && *end == '\0' && v >= 1.0 && v <= kMaxProbeSlowdown) r.slowdown = v;
        }
        return;
    }
}

// ------------------------------------------------------------------ NVML

struct NvmlView {
    int count = 0;
    std::vector<std::string> problems;
    std::vector<std::string> slow;  ///< degraded: clocks held down by the hardware
};

/// NVML through dlopen; nullopt when libnvidia-ml.so.1 is absent or does not initialise.
std::optional<NvmlView> nvml_query() {
    void* h = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return std::nullopt;
    using init_fn = int (*)();
    using count_fn = int (*)(unsigned*);
    using handle_fn = int (*)(unsigned, void**);
    using ecc_fn = int (*)(void*, int, int, unsigned long long*);
    using remap_fn = int (*)(void*, unsigned*, unsigned*, unsigned*, unsigned*);
    auto init = reinterpret_cast<init_fn>(::dlsym(h, "nvmlInit_v2"));
    auto shutdown = reinterpret_cast<init_fn>(::dlsym(h, "nvmlShutdown"));
    auto count = reinterpret_cast<count_fn>(::dlsym(h, "nvmlDeviceGetCount_v2"));
    auto handle = reinterpret_cast<handle_fn>(::dlsym(h, "nvmlDeviceGetHandleByIndex_v2"));
    auto ecc = reinterpret_cast<ecc_fn>(::dlsym(h, "nvmlDeviceGetTotalEccErrors"));
    auto remap = reinterpret_cast<remap_fn>(::dlsym(h, "nvmlDeviceGetRemappedRows"));
    using reasons_fn = int (*)(void*, unsigned long long*);
    // nvmlDeviceGetCurrentClocksEventReasons (NVML 12.2+), or its older name
    auto reasons = reinterpret_cast<reasons_fn>(::dlsym(h, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (reasons == nullptr)
        reasons = reinterpret_cast<reasons_fn>(::dlsym(h, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    if (init == nullptr || count == nullptr || handle == nullptr || init() != 0) {
        ::dlclose(h);
        return std::nullopt;
    }
    NvmlView v;
    unsigned n = 0;
    if (count(&n) == 0) v.count = static_cast<int>(n);
    for (unsigned i = 0; i < n; ++i) {
        void* dev = nullptr;
        if (handle(i, &dev) != 0) {
            v.problems.push_back("GPU " + std::to_string(i) + " not accessible through NVML");
            continue;
        }
        // NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1, NVML_VOLATILE_ECC = 0; 0 = NVML_SUCCESS
        unsigned long long unc = 0;
        if (ecc != nullptr && ecc(dev, 1, 0, &unc) == 0 && unc > 0)
            v.problems.push_back("GPU " + std::to_string(i) + " " + std::to_string(unc)
                                 + " uncorrected ECC errors since boot");
        // nvml.h clock event reasons that mean the hardware holds the clocks down: SW thermal
        // 0x20, HW slowdown 0x8, HW thermal 0x40, HW power brake 0x80 (not the idle or
        // application-clock settings, nor the power cap a site sets on purpose)
        unsigned long long why = 0;
        if (reasons != nullptr && reasons(dev, &why) == 0) {
            static const std::pair<unsigned long long, const char*> kSlow[] = {{0x8ULL, "HW slowdown"},
                                                                               {0x20ULL, "SW thermal slowdown"},
                                                                               {0x40ULL, "HW thermal slowdown"},
                                                                               {0x80ULL, "HW power brake"}};
            for (const auto& [bit, what] : kSlow) {
                if ((why & bit) != 0) v.slow.push_back("GPU " + std::to_string(i) + " clocks held down: " + what);
            }
        }
        unsigned corr = 0, uncr = 0, pending = 0, failure = 0;
        if (remap != nullptr && remap(dev, &corr, &uncr, &pending, &failure) == 0) {
            if (failure != 0)
                v.problems.push_back("GPU " + std::to_string(i) + " row remapping failed");
            else if (pending != 0)
                v.problems.push_back("GPU " + std::to_string(i) + " row remapping pending (reset needed)");
        }
    }
    if (shutdown != nullptr) shutdown();
    ::dlclose(h);
    return v;
}

/// XIDs that mean the GPU needs attention (reset, reboot, replacement) rather than an
/// application bug: NVIDIA "XID Errors" table.
bool fatal_xid(int x) {
    static const std::set<int> fatal = {48, 62, 64, 74, 79, 92, 95, 119, 120, 140};
    return fatal.count(x) != 0;
}

/// Kernel log records "prio,seq,usec,flags;NVRM: Xid (PCI:0000:1b:00): 79, pid=..., ..."
/// from <root>/dev/kmsg (the real one: O_NONBLOCK, one record per read; a fake tree: a
/// plain file). Returns the fatal XID lines with a sequence number > last_seq.
std::vector<std::string> scan_xids(const std::string& root, std::int64_t last_seq, std::int64_t& max_seq,
                                   bool& readable) {
    std::vector<std::string> found;
    const std::string path = join_root(root, "/dev/kmsg");
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    readable = fd >= 0;
    if (fd < 0) return found;
    std::string acc;
    char buf[8192];
    for (int guard = 0; guard < 200000; ++guard) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EPIPE) continue;  // record overwritten while reading
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        acc.append(buf, static_cast<std::size_t>(n));
        if (acc.size() > (64U << 20)) break;
    }
    ::close(fd);
    std::istringstream in(acc);
    std::string line;
    while (std::getline(in, line)) {
        auto semi = line.find(';');
        if (semi == std::string::npos) continue;
        auto c1 = line.find(',');
        if (c1 == std::string::npos || c1 > semi) continue;
        auto c2 = line.find(',', c1 + 1);
        auto seq = to_i64(std::string_view(line).substr(c1 + 1, c2 == std::string::npos ? 0 : c2 - c1 - 1));
        std::int64_t s = seq.value_or(0);
        max_seq = std::max(max_seq, s);
        if (s <= last_seq) continue;
        auto msg = line.substr(semi + 1);
        auto x = msg.find("NVRM: Xid (");
        if (x == std::string::npos) continue;
        auto close = msg.find("): ", x);
        if (close == std::string::npos) continue;
        auto code = to_i64(std::string_view(msg).substr(close + 3));
        if (code && fatal_xid(static_cast<int>(*code))) {
            std::string m = msg.substr(x + 6);
            if (m.size() > 120) m.resize(120);
            found.push_back(m);
        }
    }
    return found;
}

}  // namespace

// ------------------------------------------------------------------ expected

Expected expected_for(const Topology& t, const std::string& node) {
    Expected e;
    auto h = t.find_host(node);
    if (!h) return e;
    e.known = true;
    const Host& host = t.host(*h);
    e.gpus = static_cast<int>(host.gpus.size());
    e.hca_count = static_cast<int>(host.nics.size());
    std::set<std::string> names;
    double minrate = 0;
    for (auto id : host.nics) {
        const Nic& n = t.nic(id);
        if (!n.name.empty()) names.insert(n.name);
        if (n.rate_gbps > 0) minrate = minrate == 0 ? n.rate_gbps : std::min(minrate, n.rate_gbps);
    }
    e.hcas.assign(names.begin(), names.end());
    e.min_rate_gbps = minrate;
    return e;
}

std::string CheckReport::summary() const {
    std::string s;
    for (const auto& p : probes) {
        if (ok ? !p.degraded : p.ok) continue;
        if (!s.empty()) s += "; ";
        s += p.name + ": " + p.reason;
    }
    return s;
}

// ------------------------------------------------------------------ state file

Result<CounterState> load_state(const std::string& path) {
    CounterState s;
    std::ifstream f(path);
    if (!f) return s;  // first run
    std::string line;
    int ln = 0;
    while (std::getline(f, line)) {
        ++ln;
        if (line.empty() || line[0] == '#') continue;
        auto sp = line.rfind(' ');
        auto v = sp == std::string::npos ? std::nullopt : to_i64(std::string_view(line).substr(sp + 1));
        if (!v) return fail(Errc::Parse, "expected '<key> <integer>'", path, ln);
        s[line.substr(0, sp)] = *v;
    }
    return s;
}

Status save_state(const std::string& path, const CounterState& s) {
    std::string text = "# topoplace health counter state\n";
    for (const auto& [k, v] : s) text += k + " " + std::to_string(v) + "\n";
    return topo::write_file_atomic(path, text, 0644);
}

// ------------------------------------------------------------------ probes

ProbeResult probe_ib(const CheckOptions& o, const CounterState& prev, CounterState& next) {
    const auto t0 = clock::now();
    ProbeResult r;
    r.name = "ib";
    std::vector<HcaView> hcas;
    std::string source = "sysfs";
#ifdef TOPO_HAVE_UMAD_H
    if (o.use_umad && is_real_root(o.root)) {
        std::string note;
        if (auto u = ib_from_umad(note))
            hcas = std::move(*u);
        else
            hcas = ib_from_sysfs(o.root);
        source = note;
    } else {
        hcas = ib_from_sysfs(o.root);
    }
#else
    hcas = ib_from_sysfs(o.root);
#endif
    std::vector<std::string> problems;
    const Expected& e = o.expected;
    std::set<std::string> present;
    for (const auto& h : hcas) present.insert(h.name);

    // Which HCAs to judge: the expected ones by name; else all present ones, by count.
    // When none of the snapshot's names exists but other HCAs do, the names are another
    // scheme (UFM "HCA-1", persistent "ibp3s0" vs "mlx5_0"): count instead of reporting
    // every HCA missing and draining every node of the cluster.
    std::string note;
    const bool by_name = e.known && !e.hcas.empty()
                         && (hcas.empty() || std::any_of(e.hcas.begin(), e.hcas.end(), [&](const std::string& n) {
                                 return present.count(n) != 0;
                             }));
    if (e.known && !e.hcas.empty() && !by_name)
        note = "; snapshot names (" + e.hcas.front() + "...) not in sysfs: counted";
    std::vector<const HcaView*> judged;
    if (by_name) {
        for (const auto& want : e.hcas) {
            auto it = std::find_if(hcas.begin(), hcas.end(), [&](const HcaView& h) { return h.name == want; });
            if (it == hcas.end())
                problems.push_back(want + " missing");
            else
                judged.push_back(&*it);
        }
    } else {
        for (const auto& h : hcas) judged.push_back(&h);
        if (e.known && static_cast<int>(hcas.size()) < e.hca_count)
            problems.push_back(std::to_string(hcas.size()) + " HCAs present, " + std::to_string(e.hca_count)
                               + " expected");
    }
    int ports = 0;
    std::vector<std::string> slow;  // degraded findings
    double slowdown = 0;
    for (const HcaView* h : judged) {
        if (h->ports.empty()) problems.push_back(h->name + " has no ports");
        if (auto link = pcie_link_short(join_root(o.root, "/sys/class/infiniband/" + h->name + "/device"), true))
            slow.push_back(h->name + " PCIe " + *link);
        for (const auto& p : h->ports) {
            ++ports;
            const std::string id = h->name + " port " + std::to_string(p.num);
            if (p.state != "ACTIVE") problems.push_back(id + " state " + p.state);
            if (p.phys_state != "LinkUp") problems.push_back(id + " physical state " + p.phys_state);
            if (e.min_rate_gbps > 0 && p.state == "ACTIVE") {
                if (p.rate_gbps < 0)
                    problems.push_back(id + " rate unreadable");
                else if (p.rate_gbps + 1e-6 < e.min_rate_gbps) {
                    // up, but slower (a lane down, a lower speed negotiated): degraded, not down
                    slow.push_back(id + " rate " + (p.rate_text.empty() ? fmt_rate(p.rate_gbps) : p.rate_text)
                                   + " below expected " + fmt_rate(e.min_rate_gbps) + " Gb/sec");
                    const double est = p.rate_gbps > 0
                                           ? 1.0 + (kHalfNicSlowdown - 1.0) * (e.min_rate_gbps / p.rate_gbps - 1.0)
                                           : kMaxProbeSlowdown;
                    slowdown = std::max(slowdown, std::min(est, kMaxProbeSlowdown));
                }
            }
            // Error counters: sysfs (the fake tree, or the real one: libibumad has none).
            const std::string cdir = join_root(
                o.root, "/sys/class/infiniband/" + h->name + "/ports/" + std::to_string(p.num) + "/counters/");
            for (const char* c : kIbErrorCounters) {
                auto v = read_line(cdir + c);
                if (!v) continue;
                auto n = to_i64(*v);
                if (!n) continue;
                const std::string key = h->name + "/" + std::to_string(p.num) + "/" + c;
                next[key] = *n;
                auto it = prev.find(key);
                if (it == prev.end() || *n < it->second) continue;  // first run or counters reset
                std::int64_t grew = *n - it->second;
                if (grew > o.error_threshold) {
                    // link_downed: the link went down and came back (a flap): failed. The
                    // others are corrected errors: the link works, with retries: degraded.
                    (std::string_view(c) == "link_downed" ? problems : slow)
                        .push_back(id + " " + c + " grew by " + std::to_string(grew) + " since the last check ("
                                   + std::to_string(it->second) + " -> " + std::to_string(*n) + ", threshold "
                                   + std::to_string(o.error_threshold) + ")");
                }
            }
        }
    }
    r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (!problems.empty()) {
        r.ok = false;
        problems.insert(problems.end(), slow.begin(), slow.end());  // what else was seen
        r.reason = join(problems) + note;
        return r;
    }
    if (!slow.empty()) {
        r.degraded = true;
        r.slowdown = slowdown;
        r.reason = "degraded: " + join(slow) + note;
        return r;
    }
    if (judged.empty())
        r.reason = "no HCA present or expected (" + source + ")";
    else
        r.reason = std::to_string(judged.size()) + " HCAs, " + std::to_string(ports) + " ports ACTIVE/LinkUp"
                   + (e.min_rate_gbps > 0 ? " >= " + fmt_rate(e.min_rate_gbps) + " Gb/sec" : std::string()) + " ("
                   + source + ")" + note;
    return r;
}

ProbeResult probe_gpu(const CheckOptions& o, const CounterState& prev, CounterState& next) {
    const auto t0 = clock::now();
    ProbeResult r;
    r.name = "gpu";
    std::vector<std::string> problems;
    std::vector<std::string> seen;
    const int want = o.expected.known ? o.expected.gpus : 0;

    // PCI functions: vendor 0x10de, class 3D controller (0x0302xx) or VGA (0x0300xx).
    const std::string pci = join_root(o.root, "/sys/bus/pci/devices");
    int pci_count = -1;
    std::vector<std::string> slow;  // degraded findings
    if (dir_exists(pci)) {
        pci_count = 0;
        for (const auto& d : list_dir(pci)) {
            auto vendor = read_line(pci + "/" + d + "/vendor");
            if (!vendor || *vendor != "0x10de") continue;
            auto cls = read_line(pci + "/" + d + "/class").value_or("");
            if (cls.rfind("0x0302", 0) == 0 || cls.rfind("0x0300", 0) == 0) {
                ++pci_count;
                if (auto link = pcie_link_short(pci + "/" + d, false)) slow.push_back("GPU " + d + " PCIe " + *link);
            }
        }
        seen.push_back(std::to_string(pci_count) + " PCI");
    }
    // Device nodes /dev/nvidia<N>.
    int dev_count = 0;
    for (const auto& d : list_dir(join_root(o.root, "/dev"))) {
        if (d.size() > 6 && d.rfind("nvidia", 0) == 0
            && std::all_of(d.begin() + 6, d.end(), [](char c) { return c >= '0' && c <= '9'; }))
            ++dev_count;
    }
    seen.push_back(std::to_string(dev_count) + " /dev/nvidiaN");
    if (want > 0) {
        if (pci_count >= 0 && pci_count < want)
            problems.push_back(std::to_string(pci_count) + " of " + std::to_string(want)
                               + " NVIDIA GPUs on the PCI bus");
        if (dev_count < want)
            problems.push_back(std::to_string(dev_count) + " of " + std::to_string(want)
                               + " /dev/nvidiaN device nodes");
    }
    if (o.use_nvml && is_real_root(o.root)) {
        if (auto nv = nvml_query()) {
            seen.push_back(std::to_string(nv->count) + " NVML");
            if (want > 0 && nv->count < want)
                problems.push_back(std::to_string(nv->count) + " of " + std::to_string(want) + " GPUs visible to NVML");
            for (auto& p : nv->problems) problems.push_back(std::move(p));
            for (auto& p : nv->slow) slow.push_back(std::move(p));
        }
    }
    // XIDs from the kernel log since the last run.
    std::int64_t last_seq = -1;
    if (auto it = prev.find("kmsg_seq"); it != prev.end()) last_seq = it->second;
    std::int64_t max_seq = last_seq;
    bool kmsg_readable = false;
    auto xids = scan_xids(o.root, last_seq, max_seq, kmsg_readable);
    if (kmsg_readable) next["kmsg_seq"] = max_seq;
    for (auto& x : xids) problems.push_back(std::move(x));

    r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    std::string seen_s;
    seen_s = join(seen);
    if (!problems.empty()) {
        r.ok = false;
        problems.insert(problems.end(), slow.begin(), slow.end());  // what else was seen
        r.reason = join(problems);
        return r;
    }
    if (!slow.empty()) {
        r.degraded = true;
        r.reason = "degraded: " + join(slow);
        return r;
    }
    r.reason = (want > 0 ? std::to_string(want) + " GPUs expected; " : std::string("no GPU expected; ")) + seen_s
               + (kmsg_readable ? "; no fatal XID" : "");
    return r;
}

std::vector<ProbeResult> probe_site(const CheckOptions& o, clock::time_point deadline) {
    std::vector<ProbeResult> out;
    if (o.probe_dir.empty()) return out;
    // Probes run as root: the directory and each probe pass the store's trust rules first
    // (trust.hpp; owned by root or this euid, not group/world writable, no symbolic link).
    const uid_t me = ::geteuid();
    if (auto t = check_trusted_path(o.probe_dir, PathKind::Directory, me, "site probe"); !t) {
        if (t.error().code == Errc::NotFound)
            out.push_back({"site", false, "probe directory " + o.probe_dir + " does not exist", 0});
        else
            out.push_back({"site", false, "no site probe run: " + t.error().message, 0});
        return out;
    }
    for (const auto& f : list_dir(o.probe_dir)) {
        if (f.front() == '.' || f.back() == '~') continue;
        const std::string path = o.probe_dir + "/" + f;

        struct stat st {};

        if (::lstat(path.c_str(), &st) != 0) continue;
        if (S_ISLNK(st.st_mode)) {
            // A link to an executable is refused (root would run what it points to); other
            // links are skipped like any file that is not an executable.
            struct stat target {};

            if (::stat(path.c_str(), &target) != 0 || !S_ISREG(target.st_mode) || (target.st_mode & S_IXUSR) == 0)
                continue;
        } else if (!S_ISREG(st.st_mode) || (st.st_mode & S_IXUSR) == 0) {
            continue;
        }
        if (auto t = check_trusted_stat(st, path, PathKind::RegularFile, me, "site probe"); !t) {
            out.push_back({"site:" + f, false, "not run: " + t.error().message, 0});
            continue;
        }
        ProbeResult r;
        r.name = "site:" + f;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
        if (left.count() <= 0) {
            r.ok = false;
            r.reason = "not run: the check's total time limit was reached";
            out.push_back(r);
            continue;
        }
        auto limit = std::min(left, o.probe_timeout);
        auto pr = run_process({path}, limit);
        r.seconds = pr.seconds;
        // First non-empty output line is the probe's one-line reason.
        std::string first;
        std::istringstream in(pr.out);
        for (std::string l; std::getline(in, l);) {
            while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.pop_back();
            if (!l.empty()) {
                first = l;
                break;
            }
        }
        if (first.size() > 200) first.resize(200);
        if (pr.timed_out) {
            r.ok = false;
            char b[64];
            std::snprintf(b, sizeof b, "killed after %.1f s (timeout)", static_cast<double>(limit.count()) / 1000.0);
            r.reason = b;
        } else if (!pr.started || pr.exit_code != 0) {
            r.ok = false;
            r.reason = pr.signal != 0 ? "killed by signal " + std::to_string(pr.signal)
                                      : "exit " + std::to_string(pr.exit_code);
            if (!first.empty()) r.reason += ": " + first;
        } else {
            r.reason = first.empty() ? "ok" : first;
            mark_degraded(pr.out, r);
        }
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

/// Run a built-in probe on its own thread with a time limit. A probe stuck in the kernel
/// (a sysfs read or nvmlInit on a wedged device) cannot be killed from user space: it is
/// reported as failed and left detached (the check, a short-lived process, exits soon).
/// The thread owns copies of everything it touches.
ProbeResult run_builtin(const std::string& name, std::chrono::milliseconds limit,
                        ProbeResult (*fn)(const CheckOptions&, const CounterState&, CounterState&),
                        const CheckOptions& o, const CounterState& prev, CounterState& next) {
    struct Shared {
        CheckOptions o;
        CounterState prev;
        CounterState next;
        std::promise<ProbeResult> done;
    };

    auto sh = std::make_shared<Shared>();
    sh->o = o;
    sh->prev = prev;
    auto fut = sh->done.get_future();
    if (limit.count() <= 0) return {name, false, "not run: the check's total time limit was reached", 0};
    try {
        std::thread([sh, fn]() { sh->done.set_value(fn(sh->o, sh->prev, sh->next)); }).detach();
    } catch (const std::system_error& e) {
        return {name, false, std::string("cannot start the probe thread: ") + e.what(), 0};
    }
    if (fut.wait_for(limit) != std::future_status::ready) {
        // Keep the previous counter values as the baseline of the next run.
        for (const auto& [k, v] : prev)
            if (k.rfind("kmsg_seq", 0) == 0 ? name == "gpu" : name == "ib") next.emplace(k, v);
        char b[96];
        std::snprintf(b, sizeof b, "timed out after %.1f s (hung driver or sysfs read?)",
                      static_cast<double>(limit.count()) / 1000.0);
        return {name, false, b, static_cast<double>(limit.count()) / 1000.0};
    }
    ProbeResult r = fut.get();
    for (auto& [k, v] : sh->next) next[k] = v;
    return r;
}

}  // namespace

CheckReport run_check(const CheckOptions& opts) {
    // Bounds beyond kMaxTimeout (or below 0) are clamped: no overflow in `t0 + timeout`.
    CheckOptions o = opts;
    const std::chrono::milliseconds max = kMaxTimeout;
    o.total_timeout = std::clamp(o.total_timeout, std::chrono::milliseconds(0), max);
    o.probe_timeout = std::clamp(o.probe_timeout, std::chrono::milliseconds(0), max);
    o.builtin_timeout = std::clamp(o.builtin_timeout, std::chrono::milliseconds(0), max);
    const auto t0 = clock::now();
    const auto deadline = t0 + o.total_timeout;
    auto left = [&] { return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()); };
    CheckReport rep;
    CounterState prev;
    if (!o.state_file.empty()) {
        auto s = load_state(o.state_file);
        if (s)
            prev = std::move(*s);
        else
            rep.probes.push_back({"state", true, "ignored unreadable state: " + s.error().to_string(), 0});
    }
    CounterState next;
    rep.probes.push_back(run_builtin("ib", std::min(left(), o.builtin_timeout), &probe_ib, o, prev, next));
    rep.probes.push_back(run_builtin("gpu", std::min(left(), o.builtin_timeout), &probe_gpu, o, prev, next));
    for (auto& p : probe_site(o, deadline)) rep.probes.push_back(std::move(p));
    if (!o.state_file.empty()) {
        if (auto st = save_state(o.state_file, next); !st)
            rep.probes.push_back({"state", true, "not saved: " + st.error().to_string(), 0});
    }
    for (const auto& p : rep.probes) {
        rep.ok = rep.ok && p.ok;
        if (p.ok && p.degraded) {
            rep.degraded = true;
            rep.slowdown = std::max(rep.slowdown, p.slowdown);
        }
    }
    if (!rep.ok) {
        rep.degraded = false;
        rep.slowdown = 0;
    }
    rep.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return rep;
}

}  // namespace topo::health

namespace topo::health {

std::string prometheus_label(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '\\' || c == '"') o += '\\';
        if (c == '\n') {
            o += "\\n";
            continue;
        }
        o += c;
    }
    return o;
}

namespace {
std::string prom_escape(const std::string& s) {
    return prometheus_label(s);
}
}  // namespace

std::string prometheus_text(const CheckReport& rep, const std::string& node, std::int64_t now_unix) {
    const std::string n = prom_escape(node);
    std::string s;
    s += "# HELP topoplace_health_probe_ok 1 when the topoplace health probe passed, 0 when it failed.\n";
    s += "# TYPE topoplace_health_probe_ok gauge\n";
    for (const auto& p : rep.probes) {
        if (p.name == "state") continue;
        s += "topoplace_health_probe_ok{node=\"" + n + "\",probe=\"" + prom_escape(p.name) + "\"} " + (p.ok ? "1" : "0")
             + "\n";
    }
    s += "# HELP topoplace_health_probe_duration_seconds Time one probe took.\n";
    s += "# TYPE topoplace_health_probe_duration_seconds gauge\n";
    char b[64];
    for (const auto& p : rep.probes) {
        if (p.name == "state") continue;
        std::snprintf(b, sizeof b, "%.6f", p.seconds);
        s += "topoplace_health_probe_duration_seconds{node=\"" + n + "\",probe=\"" + prom_escape(p.name) + "\"} " + b
             + "\n";
    }
    s += "# HELP topoplace_health_ok 1 when every probe passed.\n# TYPE topoplace_health_ok gauge\n";
    s += "topoplace_health_ok{node=\"" + n + "\"} " + (rep.ok ? "1" : "0") + "\n";
    s += "# HELP topoplace_health_degraded 1 when every probe passed but one found the node slow.\n"
         "# TYPE topoplace_health_degraded gauge\n";
    s += "topoplace_health_degraded{node=\"" + n + "\"} " + (rep.ok && rep.degraded ? "1" : "0") + "\n";
    if (rep.ok && rep.degraded && rep.slowdown >= 1) {
        s += "# HELP topoplace_health_slowdown_ratio Estimated job slowdown on this degraded node.\n"
             "# TYPE topoplace_health_slowdown_ratio gauge\n";
        std::snprintf(b, sizeof b, "%.6g", rep.slowdown);
        s += "topoplace_health_slowdown_ratio{node=\"" + n + "\"} " + b + "\n";
    }
    s += "# HELP topoplace_health_check_duration_seconds Time the whole check took.\n"
         "# TYPE topoplace_health_check_duration_seconds gauge\n";
    std::snprintf(b, sizeof b, "%.6f", rep.seconds);
    s += "topoplace_health_check_duration_seconds{node=\"" + n + "\"} " + b + "\n";
    s += "# HELP topoplace_health_last_check_timestamp_seconds Unix time of the last check.\n"
         "# TYPE topoplace_health_last_check_timestamp_seconds gauge\n";
    s += "topoplace_health_last_check_timestamp_seconds{node=\"" + n + "\"} " + std::to_string(now_unix) + "\n";
    return s;
}

Status write_file_atomic(const std::string& path, const std::string& text) {
    // topoplace's one writer; its temporary file starts with a dot, so node_exporter (which
    // reads *.prom only) never collects it.
    return topo::write_file_atomic(path, text, 0644);
}

}  // namespace topo::health
