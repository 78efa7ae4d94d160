// SPDX-License-Identifier: Apache-2.0
// Health: probes on fake sysfs/dev trees (tests/fixtures/health, real attribute formats),
// the flag store's trust rules, scontrol output parsing.
#include <gtest/gtest.h>

#include <chrono>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/health/check.hpp>
#include <topo/health/flags.hpp>
#include <topo/health/slurm.hpp>
#include <topo/health/store.hpp>
#include <topo/health/trust.hpp>

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace topo;
using namespace topo::health;

namespace {

const std::string kFix = std::string(TOPO_FIXTURES) + "/health";  // NOLINT(cert-err58-cpp): test setup

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::trunc);
    f << text;
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct TempDir {
    fs::path path;

    TempDir() {
        std::string t = (fs::temp_directory_path() / "topo-health-XXXXXX").string();
        path = ::mkdtemp(t.data());
        fs::permissions(path, fs::perms(0755));
    }

    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

/// The DGX H100 cluster spec's topology (built once).
const Topology& dgx_topology() {
    static const TopologyPtr t = [] {
        TopologyBuilder b;
        auto st = load_cluster_spec(std::string(TOPO_FIXTURES) + "/specs/dgx-h100-3tier.yaml", b);
        EXPECT_TRUE(st) << st.error().to_string();
        auto f = std::move(b).freeze();
        if (!f) std::abort();  // every test of this file needs it
        return std::move(*f);
    }();
    return *t;
}

/// The expected hardware of dgx001 in the DGX H100 cluster spec (8 NDR HCAs, 8 GPUs).
Expected dgx_expected() {
    static const Expected e = expected_for(dgx_topology(), "dgx001");
    return e;
}

/// A copy of a fixture tree that a test may break.
struct Tree {
    TempDir tmp;
    fs::path root;

    explicit Tree(const std::string& name = "dgx-h100-ndr") {
        root = tmp.path / "root";
        fs::copy(kFix + "/" + name, root, fs::copy_options::recursive);
    }

    fs::path port(const std::string& hca, int p = 1) const {
        return root / "sys/class/infiniband" / hca / "ports" / std::to_string(p);
    }

    CheckOptions opts() const {
        CheckOptions o;
        o.root = root.string();
        o.expected = dgx_expected();
        return o;
    }
};

ProbeResult ib(const CheckOptions& o) {
    CounterState prev;
    CounterState next;
    return probe_ib(o, prev, next);
}

ProbeResult gpu(const CheckOptions& o) {
    CounterState prev;
    CounterState next;
    return probe_gpu(o, prev, next);
}

bool pid_alive(pid_t p) {
    if (::kill(p, 0) != 0) return false;
    std::ifstream st("/proc/" + std::to_string(p) + "/stat");
    std::string s;
    std::getline(st, s);
    auto c = s.rfind(')');
    return c == std::string::npos || s.substr(c + 2, 1) != "Z";
}

}  // namespace

// ------------------------------------------------------------------ expectations

TEST(HealthExpected, FromClusterSpec) {
    Expected e = dgx_expected();
    ASSERT_TRUE(e.known);
    EXPECT_EQ(e.gpus, 8);
    EXPECT_EQ(e.hca_count, 8);
    EXPECT_EQ(e.hcas.size(), 8U);
    EXPECT_DOUBLE_EQ(e.min_rate_gbps, 400);
}

// ------------------------------------------------------------------ InfiniBand

TEST(HealthIb, HealthyTreePasses) {
    Tree t;
    auto r = ib(t.opts());
    EXPECT_TRUE(r.ok) << r.reason;
    EXPECT_NE(r.reason.find("8 HCAs, 8 ports ACTIVE/LinkUp >= 400 Gb/sec (sysfs)"), std::string::npos) << r.reason;
}

TEST(HealthIb, MissingHca) {
    Tree t;
    fs::remove_all(t.root / "sys/class/infiniband/mlx5_4");
    auto r = ib(t.opts());
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.reason, "mlx5_4 missing");
}

TEST(HealthIb, MissingHcaUnnamedCount) {
    Tree t;
    auto o = t.opts();
    o.expected.hcas.clear();  // snapshot without NIC names: count only (10 present, want 11)
    o.expected.hca_count = 11;
    o.expected.min_rate_gbps = 0;
    auto r = ib(o);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.reason, "10 HCAs present, 11 expected");
}

TEST(HealthIb, SnapshotNamesOfAnotherSchemeAreCounted) {
    Tree t;
    auto o = t.opts();
    o.expected.hcas = {"HCA-1", "HCA-2", "HCA-3", "HCA-4", "HCA-5", "HCA-6", "HCA-7", "HCA-8"};  // UFM-style names
    auto r = ib(o);
    EXPECT_TRUE(r.ok) << r.reason;
    EXPECT_EQ(r.reason,
              "10 HCAs, 10 ports ACTIVE/LinkUp >= 400 Gb/sec (sysfs); snapshot names (HCA-1...) not in sysfs: "
              "counted");
    o.expected.hca_count = 11;
    auto bad = ib(o);
    EXPECT_FALSE(bad.ok);
    EXPECT_EQ(bad.reason, "10 HCAs present, 11 expected; snapshot names (HCA-1...) not in sysfs: counted");
}

TEST(HealthIb, PortDownPolling) {
    Tree t;
    write(t.port("mlx5_9") / "state", "1: DOWN\n");
    write(t.port("mlx5_9") / "phys_state", "2: Polling\n");
    write(t.port("mlx5_9") / "rate", "10 Gb/sec (4X SDR)\n");  // what a down mlx5 port reports
    auto r = ib(t.opts());
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.reason, "mlx5_9 port 1 state DOWN, mlx5_9 port 1 physical state Polling");
}

TEST(HealthIb, PortInitLinkUp) {
    Tree t;
    write(t.port("mlx5_0") / "state", "2: INIT\n");  // no subnet manager yet
    auto r = ib(t.opts());
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.reason, "mlx5_0 port 1 state INIT");
}

TEST(HealthIb, HdrWhereNdrExpectedIsDegraded) {
    // up at half the rate: slow, not down (issue 16 item 5); the estimate is HPN's
    // measured cost of half a NIC's bandwidth
    Tree t;
    write(t.port("mlx5_10") / "rate", "200 Gb/sec (4X HDR)\n");
    auto r = ib(t.opts());
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(r.degraded);
    EXPECT_NEAR(r.slowdown, kHalfNicSlowdown, 1e-9);
    EXPECT_EQ(r.reason, "degraded: mlx5_10 port 1 rate 200 Gb/sec (4X HDR) below expected 400 Gb/sec");
    // a quarter of the rate: three times the loss of a half
    write(t.port("mlx5_10") / "rate", "100 Gb/sec (4X EDR)\n");
    EXPECT_NEAR(ib(t.opts()).slowdown, 1 + 3 * (kHalfNicSlowdown - 1), 1e-9);
    // the whole check: degraded, not failed; the summary names the probe
    auto rep = run_check(t.opts());
    EXPECT_TRUE(rep.ok);
    EXPECT_TRUE(rep.degraded);
    EXPECT_NEAR(rep.slowdown, 1 + 3 * (kHalfNicSlowdown - 1), 1e-9);
    EXPECT_EQ(rep.summary(), "ib: degraded: mlx5_10 port 1 rate 100 Gb/sec (4X EDR) below expected 400 Gb/sec");
    // a port down as well: failed, and no longer called degraded
    write(t.port("mlx5_0") / "state", "1: DOWN\n");
    auto bad = run_check(t.opts());
    EXPECT_FALSE(bad.ok);
    EXPECT_FALSE(bad.degraded);
}

TEST(HealthIb, PcieLinkNarrowerThanItCanIsDegraded) {
    Tree t;
    const auto dev = t.root / "sys/class/infiniband/mlx5_3/device";
    write(dev / "current_link_width", "16\n");
    write(dev / "max_link_width", "16\n");
    write(dev / "current_link_speed", "32.0 GT/s PCIe\n");
    write(dev / "max_link_speed", "32.0 GT/s PCIe\n");
    EXPECT_FALSE(ib(t.opts()).degraded) << ib(t.opts()).reason;
    write(dev / "current_link_width", "8\n");
    write(dev / "current_link_speed", "16.0 GT/s PCIe\n");
    auto r = ib(t.opts());
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(r.degraded);
    EXPECT_EQ(r.slowdown, 0);  // no estimate: readers assume the model's mild default
    EXPECT_EQ(r.reason, "degraded: mlx5_3 PCIe x8 of x16, 16.0 GT/s PCIe of 32.0 GT/s PCIe");
}

TEST(HealthIb, SlotLimitIsNotAFault) {
    // a x16 Gen5 card in a x8 Gen4 slot trains x8 Gen4 on every node: the upstream port's
    // maximum is what the link can do
    Tree t;
    const auto port = t.tmp.path / "pci/0000:40:01.1";
    const auto dev = port / "0000:41:00.0";
    write(port / "max_link_width", "8\n");
    write(port / "max_link_speed", "16.0 GT/s PCIe\n");
    write(dev / "current_link_width", "8\n");
    write(dev / "max_link_width", "16\n");
    write(dev / "current_link_speed", "16.0 GT/s PCIe\n");
    write(dev / "max_link_speed", "32.0 GT/s PCIe\n");
    fs::create_directory_symlink(dev, t.root / "sys/class/infiniband/mlx5_3/device");
    auto r = ib(t.opts());
    EXPECT_TRUE(r.ok);
    EXPECT_FALSE(r.degraded) << r.reason;
    write(dev / "current_link_width", "4\n");
    EXPECT_EQ(ib(t.opts()).reason, "degraded: mlx5_3 PCIe x4 of x8");
}

TEST(HealthIb, RateNotCheckedWithoutSnapshot) {
    Tree t;
    write(t.port("mlx5_10") / "rate", "200 Gb/sec (4X HDR)\n");
    CheckOptions o;
    o.root = t.root.string();
    auto r = ib(o);
    EXPECT_TRUE(r.ok) << r.reason;
    EXPECT_NE(r.reason.find("10 HCAs"), std::string::npos) << r.reason;
}

TEST(HealthIb, SymbolErrorBurstBetweenRuns) {
    Tree t;
    auto o = t.opts();
    o.state_file = (t.tmp.path / "counters").string();
    o.error_threshold = 10;
    auto first = run_check(o);
    EXPECT_TRUE(first.ok) << first.summary();
    EXPECT_NE(slurp(o.state_file).find("mlx5_5/1/symbol_error 0"), std::string::npos);
    // Small growth (<= threshold): still healthy.
    write(t.port("mlx5_5") / "counters/symbol_error", "7\n");
    auto second = run_check(o);
    EXPECT_TRUE(second.ok) << second.summary();
    // A burst.
    write(t.port("mlx5_5") / "counters/symbol_error", "4103\n");
    // A burst of corrected errors: the link works, with retries: degraded, not failed.
    auto third = run_check(o);
    EXPECT_TRUE(third.ok);
    EXPECT_TRUE(third.degraded);
    EXPECT_EQ(third.summary(),
              "ib: degraded: mlx5_5 port 1 symbol_error grew by 4096 since the last check (7 -> 4103, threshold 10)");
    // No further growth: healthy again.
    auto fourth = run_check(o);
    EXPECT_TRUE(fourth.ok) << fourth.summary();
    EXPECT_FALSE(fourth.degraded) << fourth.summary();
    // link_downed: the link flapped 20 times.
    write(t.port("mlx5_0") / "counters/link_downed", "21\n");
    auto fifth = run_check(o);
    EXPECT_FALSE(fifth.ok);
    EXPECT_NE(fifth.summary().find("mlx5_0 port 1 link_downed grew by 20"), std::string::npos) << fifth.summary();
}

TEST(HealthIb, HungSysfsReadTimesOut) {
    Tree t;
    // A FIFO without writer blocks open(2), like a sysfs read on a wedged HCA.
    const auto fifo = t.port("mlx5_3") / "counters/symbol_error";
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    auto o = t.opts();
    o.builtin_timeout = std::chrono::milliseconds(200);
    o.state_file = (t.tmp.path / "counters").string();
    write(o.state_file, "mlx5_0/1/symbol_error 0\n");
    auto rep = run_check(o);
    EXPECT_FALSE(rep.ok);
    ASSERT_GE(rep.probes.size(), 2U);
    EXPECT_EQ(rep.probes[0].name, "ib");
    EXPECT_EQ(rep.probes[0].reason, "timed out after 0.2 s (hung driver or sysfs read?)");
    EXPECT_TRUE(rep.probes[1].ok) << rep.probes[1].reason;  // the GPU probe still ran
    // The baseline of the next run is kept.
    EXPECT_NE(slurp(o.state_file).find("mlx5_0/1/symbol_error 0"), std::string::npos);
    // Release the stuck reader (a writer appears and goes away: it reads EOF).
    int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    EXPECT_GE(fd, 0);
    if (fd >= 0) ::close(fd);
}

TEST(HealthIb, CounterResetIsNotGrowth) {
    Tree t;
    write(t.port("mlx5_5") / "counters/port_rcv_errors", "5000\n");
    auto o = t.opts();
    o.state_file = (t.tmp.path / "counters").string();
    EXPECT_TRUE(run_check(o).ok);
    write(t.port("mlx5_5") / "counters/port_rcv_errors", "0\n");  // perfquery -R / reboot
    EXPECT_TRUE(run_check(o).ok);
}

TEST(HealthIb, BadStateFileIsReportedNotFatal) {
    Tree t;
    auto o = t.opts();
    o.state_file = (t.tmp.path / "counters").string();
    write(o.state_file, "mlx5_0/1/symbol_error notanumber\n");
    auto s = load_state(o.state_file);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().line, 1);
    auto rep = run_check(o);
    EXPECT_TRUE(rep.ok);
    EXPECT_NE(rep.probes.front().reason.find("counters:1: expected '<key> <integer>'"), std::string::npos)
        << rep.probes.front().reason;
}

// ------------------------------------------------------------------ GPUs

TEST(HealthGpu, HealthyTreePasses) {
    Tree t;
    auto r = gpu(t.opts());
    EXPECT_TRUE(r.ok) << r.reason;
    // 8 H100 (class 0x030200); the 4 NVSwitches (0x068000) are not counted; XID 13 is an
    // application error, not a node fault.
    EXPECT_EQ(r.reason, "8 GPUs expected; 8 PCI, 8 /dev/nvidiaN; no fatal XID");
}

TEST(HealthGpu, PcieWidthDegradedSpeedNotJudged) {
    Tree t;
    const auto dev = t.root / "sys/bus/pci/devices/0000:43:00.0";
    write(dev / "current_link_width", "16\n");
    write(dev / "max_link_width", "16\n");
    // an idle GPU trains down to 2.5 GT/s to save power: not a fault
    write(dev / "current_link_speed", "2.5 GT/s PCIe\n");
    write(dev / "max_link_speed", "32.0 GT/s PCIe\n");
    auto r = gpu(t.opts());
    EXPECT_TRUE(r.ok);
    EXPECT_FALSE(r.degraded) << r.reason;
    write(dev / "current_link_width", "8\n");
    r = gpu(t.opts());
    EXPECT_TRUE(r.ok);
    EXPECT_TRUE(r.degraded);
    EXPECT_EQ(r.reason, "degraded: GPU 0000:43:00.0 PCIe x8 of x16");
    // 0 = link down or unknown: not judged here (the GPU count and NVML say whether it is there)
    write(dev / "current_link_width", "0\n");
    EXPECT_FALSE(gpu(t.opts()).degraded);
}

TEST(HealthGpu, MissingGpuOnPciBus) {
    Tree t;
    fs::remove_all(t.root / "sys/bus/pci/devices/0000:43:00.0");
    auto r = gpu(t.opts());
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.reason, "7 of 8 NVIDIA GPUs on the PCI bus");
}

TEST(HealthGpu, MissingDeviceNode) {
    Tree t;
    fs::remove(t.root / "dev/nvidia7");
    auto r = gpu(t.opts());
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.reason, "7 of 8 /dev/nvidiaN device nodes");
}

TEST(HealthGpu, FatalXidSinceLastRun) {
    Tree t;
    auto o = t.opts();
    o.state_file = (t.tmp.path / "counters").string();
    EXPECT_TRUE(run_check(o).ok);
    std::ofstream(t.root / "dev/kmsg", std::ios::app)
        << "3,1107,98123456,-;NVRM: Xid (PCI:0000:43:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off "
           "the bus.\n";
    auto rep = run_check(o);
    EXPECT_FALSE(rep.ok);
    EXPECT_EQ(rep.summary(),
              "gpu: Xid (PCI:0000:43:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.");
    // Reported once: the next run starts after that kernel log record.
    EXPECT_TRUE(run_check(o).ok);
}

TEST(HealthGpu, NoGpuExpectedNoneRequired) {
    Tree t("lab-hdr");
    CheckOptions o;
    o.root = t.root.string();
    auto r = gpu(o);
    EXPECT_TRUE(r.ok) << r.reason;
    EXPECT_EQ(r.reason, "no GPU expected; 0 PCI, 0 /dev/nvidiaN; no fatal XID");  // 2 HCA functions only
}

// ------------------------------------------------------------------ site probes

TEST(HealthSite, PassFailAndOneLineReason) {
    Tree t;
    auto dir = t.tmp.path / "probes";
    write(dir / "10-ok", "#!/bin/sh\necho 'dcgm diag level 1: pass'\n");
    write(dir / "20-fail", "#!/bin/sh\necho 'nccl all_reduce 312 GB/s < 350 GB/s' >&2\necho second line\nexit 3\n");
    write(dir / "README", "not executable: ignored\n");
    fs::permissions(dir / "10-ok", fs::perms(0755));
    fs::permissions(dir / "20-fail", fs::perms(0755));
    auto o = t.opts();
    o.probe_dir = dir.string();
    auto rep = run_check(o);
    ASSERT_EQ(rep.probes.size(), 4U);
    EXPECT_EQ(rep.probes[2].name, "site:10-ok");
    EXPECT_TRUE(rep.probes[2].ok);
    EXPECT_EQ(rep.probes[2].reason, "dcgm diag level 1: pass");
    EXPECT_EQ(rep.probes[3].name, "site:20-fail");
    EXPECT_FALSE(rep.probes[3].ok);
    EXPECT_EQ(rep.probes[3].reason, "exit 3: nccl all_reduce 312 GB/s < 350 GB/s");
    EXPECT_FALSE(rep.ok);
    EXPECT_EQ(rep.summary(), "site:20-fail: exit 3: nccl all_reduce 312 GB/s < 350 GB/s");
}

TEST(HealthSite, MeasuredFigureMakesTheNodeDegraded) {
    Tree t;
    auto dir = t.tmp.path / "probes";
    write(dir / "10-nccl",
          "#!/bin/sh\necho 'all_reduce_perf 8 GPUs'\n"
          "echo 'degraded: busbw 310 GB/s, expected 360 slowdown=1.16'\n");
    write(dir / "20-bad-figure", "#!/bin/sh\necho 'degraded slowdown=0.5'\n");
    write(dir / "30-fine", "#!/bin/sh\necho 'not degraded: busbw 361 GB/s'\n");
    for (const char* f : {"10-nccl", "20-bad-figure", "30-fine"}) fs::permissions(dir / f, fs::perms(0755));
    auto o = t.opts();
    o.probe_dir = dir.string();
    auto rep = run_check(o);
    ASSERT_EQ(rep.probes.size(), 5U);
    EXPECT_TRUE(rep.probes[2].degraded);
    EXPECT_DOUBLE_EQ(rep.probes[2].slowdown, 1.16);
    EXPECT_EQ(rep.probes[2].reason, "degraded: busbw 310 GB/s, expected 360 slowdown=1.16");
    EXPECT_TRUE(rep.probes[3].degraded);  // degraded, its figure out of range: no estimate
    EXPECT_EQ(rep.probes[3].slowdown, 0);
    EXPECT_FALSE(rep.probes[4].degraded);
    EXPECT_TRUE(rep.ok);
    EXPECT_TRUE(rep.degraded);
    EXPECT_DOUBLE_EQ(rep.slowdown, 1.16);
    const std::string prom = prometheus_text(rep, "n001", 1763900000);
    EXPECT_NE(prom.find("topoplace_health_degraded{node=\"n001\"} 1\n"), std::string::npos) << prom;
    EXPECT_NE(prom.find("topoplace_health_slowdown_ratio{node=\"n001\"} 1.16\n"), std::string::npos) << prom;
    EXPECT_NE(prom.find("topoplace_health_ok{node=\"n001\"} 1\n"), std::string::npos) << prom;
}

TEST(HealthSite, HungProbeKilledWithItsProcessGroup) {
    Tree t;
    auto dir = t.tmp.path / "probes";
    auto pidfile = t.tmp.path / "child.pid";
    // The probe starts a background child (like a stuck dcgmi) and hangs itself.
    write(dir / "50-hang", "#!/bin/sh\nsleep 300 &\necho $! > " + pidfile.string() + "\nexec sleep 300\n");
    fs::permissions(dir / "50-hang", fs::perms(0755));
    auto o = t.opts();
    o.probe_dir = dir.string();
    o.probe_timeout = std::chrono::milliseconds(300);
    auto rep = run_check(o);
    ASSERT_EQ(rep.probes.size(), 3U);
    EXPECT_FALSE(rep.probes[2].ok);
    EXPECT_EQ(rep.probes[2].reason, "killed after 0.3 s (timeout)");
    EXPECT_LT(rep.probes[2].seconds, 5.0);  // sanity only: it did not wait for sleep 300
    pid_t child = std::stoi(slurp(pidfile));
    for (int i = 0; i < 100 && pid_alive(child); ++i) ::usleep(10000);
    EXPECT_FALSE(pid_alive(child)) << "background child " << child << " of the hung probe survived";
}

TEST(HealthSite, TotalBoundStopsLaterProbes) {
    Tree t;
    auto dir = t.tmp.path / "probes";
    write(dir / "1-hang", "#!/bin/sh\nexec sleep 300\n");
    write(dir / "2-ok", "#!/bin/sh\necho fine\n");
    fs::permissions(dir / "1-hang", fs::perms(0755));
    fs::permissions(dir / "2-ok", fs::perms(0755));
    auto o = t.opts();
    o.probe_dir = dir.string();
    o.probe_timeout = std::chrono::milliseconds(60000);
    o.total_timeout = std::chrono::milliseconds(300);
    auto rep = run_check(o);
    ASSERT_EQ(rep.probes.size(), 4U);
    EXPECT_FALSE(rep.probes[2].ok);
    EXPECT_EQ(rep.probes[3].name, "site:2-ok");
    EXPECT_FALSE(rep.probes[3].ok);
    EXPECT_EQ(rep.probes[3].reason, "not run: the check's total time limit was reached");
}

TEST(HealthSite, MissingProbeDirFails) {
    CheckOptions o;
    o.probe_dir = "/nonexistent/topoplace-probes";
    auto r = probe_site(o, std::chrono::steady_clock::now() + std::chrono::seconds(1));
    ASSERT_EQ(r.size(), 1U);
    EXPECT_FALSE(r[0].ok);
    EXPECT_EQ(r[0].reason, "probe directory /nonexistent/topoplace-probes does not exist");
}

// Site probes run as root: the store's trust rules (trust.hpp) before anything runs.
namespace {
/// A directory of mode `mode` whatever the umask.
fs::path make_dir(const fs::path& d, unsigned mode = 0755) {
    fs::create_directories(d);
    fs::permissions(d, fs::perms(mode));
    return d;
}

/// A probe that leaves `marker` behind when it runs.
fs::path make_probe(const fs::path& p, const fs::path& marker, unsigned mode = 0755) {
    write(p, "#!/bin/sh\ntouch '" + marker.string() + "'\necho ran\n");
    fs::permissions(p, fs::perms(mode));
    return p;
}

std::vector<ProbeResult> run_site(const fs::path& dir) {
    CheckOptions o;
    o.probe_dir = dir.string();
    return probe_site(o, std::chrono::steady_clock::now() + std::chrono::seconds(30));
}
}  // namespace

TEST(HealthSiteTrust, TrustedProbeRuns) {
    TempDir t;
    auto dir = make_dir(t.path / "probes");
    make_probe(dir / "10-ok", t.path / "ran");
    auto r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_TRUE(r[0].ok) << r[0].reason;
    EXPECT_EQ(r[0].reason, "ran");
    EXPECT_TRUE(fs::exists(t.path / "ran"));
}

TEST(HealthSiteTrust, WorldWritableProbeDirRefused) {
    TempDir t;
    auto dir = make_dir(t.path / "probes");
    make_probe(dir / "10-ok", t.path / "ran");
    fs::permissions(dir, fs::perms(0777));
    auto r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_EQ(r[0].name, "site");
    EXPECT_FALSE(r[0].ok);
    EXPECT_EQ(r[0].reason, "no site probe run: site probe: refusing " + dir.string()
                               + ": mode 0777 is group/world writable (tampered; fix with chmod go-w)");
    // Sticky (like /tmp) is no safer for the probe directory itself: anyone may add a file.
    fs::permissions(dir, fs::perms(01777));
    r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_FALSE(r[0].ok);
    EXPECT_NE(r[0].reason.find("mode 1777 is group/world writable"), std::string::npos) << r[0].reason;
    EXPECT_FALSE(fs::exists(t.path / "ran")) << "a probe of an untrusted directory ran";
    // ... and in a whole check: the node fails.
    Tree tree;
    auto o = tree.opts();
    o.probe_dir = dir.string();
    auto rep = run_check(o);
    EXPECT_FALSE(rep.ok);
    EXPECT_NE(rep.summary().find("site: no site probe run: site probe: refusing "), std::string::npos) << rep.summary();
}

TEST(HealthSiteTrust, WritableDirectoryAboveProbeDirRefused) {
    TempDir t;
    auto above = make_dir(t.path / "etc", 0777);  // not sticky: anyone may rename probes/
    auto dir = make_dir(above / "probes");
    make_probe(dir / "10-ok", t.path / "ran");
    auto r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_FALSE(r[0].ok);
    EXPECT_EQ(r[0].reason, "no site probe run: site probe: refusing " + dir.string() + ": the directory "
                               + above.string()
                               + " above it: mode 0777 is group/world writable and not sticky (tampered; fix with "
                                 "chmod go-w)");
    EXPECT_FALSE(fs::exists(t.path / "ran"));
    // A sticky directory above it (like /tmp, where the tests live) is fine.
    fs::permissions(above, fs::perms(01777));
    r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_TRUE(r[0].ok) << r[0].reason;
}

TEST(HealthSiteTrust, GroupWritableProbeRefusedOthersRun) {
    TempDir t;
    auto dir = make_dir(t.path / "probes");
    make_probe(dir / "10-ok", t.path / "ran-ok");
    make_probe(dir / "20-gw", t.path / "ran-gw", 0775);
    auto r = run_site(dir);
    ASSERT_EQ(r.size(), 2U);
    EXPECT_TRUE(r[0].ok) << r[0].reason;
    EXPECT_EQ(r[1].name, "site:20-gw");
    EXPECT_FALSE(r[1].ok);
    EXPECT_EQ(r[1].reason, "not run: site probe: refusing " + (dir / "20-gw").string()
                               + ": mode 0775 is group/world writable (tampered; fix with chmod go-w)");
    EXPECT_TRUE(fs::exists(t.path / "ran-ok"));
    EXPECT_FALSE(fs::exists(t.path / "ran-gw")) << "a group-writable probe ran";
}

TEST(HealthSiteTrust, SymlinkToTrustedProbeRefused) {
    TempDir t;
    auto lib = make_dir(t.path / "lib");
    make_probe(lib / "real", t.path / "ran");
    auto dir = make_dir(t.path / "probes");
    fs::create_symlink(lib / "real", dir / "30-link");
    write(lib / "doc", "notes\n");
    fs::permissions(lib / "doc", fs::perms(0644));
    fs::create_symlink(lib / "doc", dir / "40-doc");  // not executable: skipped, as before
    auto r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_EQ(r[0].name, "site:30-link");
    EXPECT_FALSE(r[0].ok);
    EXPECT_EQ(r[0].reason,
              "not run: site probe: refusing " + (dir / "30-link").string() + ": a symbolic link (see docs/health.md)");
    EXPECT_FALSE(fs::exists(t.path / "ran"));
    // The probe directory itself as a link to a trusted one: refused too.
    fs::create_symlink(lib, t.path / "probes-link");
    r = run_site(t.path / "probes-link");
    ASSERT_EQ(r.size(), 1U);
    EXPECT_NE(r[0].reason.find("a symbolic link"), std::string::npos) << r[0].reason;
    EXPECT_FALSE(fs::exists(t.path / "ran"));
}

TEST(HealthSiteTrust, ProbeOwnedByAnotherUidRefused) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root (chown)";
    TempDir t;
    auto dir = make_dir(t.path / "probes");
    make_probe(dir / "10-nobody", t.path / "ran");
    ASSERT_EQ(::chown((dir / "10-nobody").c_str(), 65534, 65534), 0);
    auto r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_FALSE(r[0].ok);
    EXPECT_EQ(r[0].reason, "not run: site probe: refusing " + (dir / "10-nobody").string()
                               + ": owned by uid 65534, not by uid 0 (tampered or forged; see docs/health.md)");
    EXPECT_FALSE(fs::exists(t.path / "ran"));
    // A probe directory of another uid: nothing in it runs.
    ASSERT_EQ(::chown((dir / "10-nobody").c_str(), 0, 0), 0);
    ASSERT_EQ(::chown(dir.c_str(), 65534, 65534), 0);
    r = run_site(dir);
    ASSERT_EQ(r.size(), 1U);
    EXPECT_EQ(r[0].name, "site");
    EXPECT_NE(r[0].reason.find("owned by uid 65534, not by uid 0"), std::string::npos) << r[0].reason;
    EXPECT_FALSE(fs::exists(t.path / "ran"));
}

TEST(HealthProcess, ExitCodeAndMissingProgram) {
    auto r = run_process({"sh", "-c", "echo out; exit 4"}, std::chrono::milliseconds(5000));
    EXPECT_EQ(r.exit_code, 4);
    EXPECT_EQ(r.out, "out\n");
    auto m = run_process({"/nonexistent/prog"}, std::chrono::milliseconds(5000));
    EXPECT_EQ(m.exit_code, 127);
    EXPECT_NE(m.out.find("cannot execute: /nonexistent/prog"), std::string::npos);
}

namespace {
/// A helper that leaves the probe's process group (setsid) and keeps writing to its
/// stdout, the check's pipe; its pid is written to `pidfile`.
std::string escaping_helper(const fs::path& pidfile) {
    return "setsid sh -c 'echo $$ > " + pidfile.string() + "; while :; do echo tick; sleep 0.01; done' & ";
}

void kill_helper(const fs::path& pidfile) {
    for (int i = 0; i < 500 && !fs::exists(pidfile); ++i) ::usleep(10000);
    const std::string pid = slurp(pidfile);
    if (!pid.empty()) ::kill(std::stoi(pid), SIGKILL);
}
}  // namespace

TEST(HealthProcess, HelperThatLeftTheGroupCannotHoldATimedOutProbe) {
    TempDir t;
    const auto pidfile = t.path / "helper.pid";
    auto fut = std::async(std::launch::async, [&] {
        return run_process({"sh", "-c", escaping_helper(pidfile) + "exec sleep 600"}, std::chrono::milliseconds(300));
    });
    // A hang guard only (timeout + 5 s), not a timing assertion.
    const bool returned = fut.wait_for(std::chrono::milliseconds(5300)) == std::future_status::ready;
    kill_helper(pidfile);  // outside the group: nobody else kills it (and it unblocks a hung call)
    auto r = fut.get();
    EXPECT_TRUE(returned) << "run_process did not return within its timeout + 5 s";
    EXPECT_TRUE(r.timed_out);
    EXPECT_NE(r.out.find("tick"), std::string::npos);
}

TEST(HealthProcess, HelperThatLeftTheGroupCannotHoldAFinishedProbe) {
    TempDir t;
    const auto pidfile = t.path / "helper.pid";
    auto fut = std::async(std::launch::async, [&] {
        return run_process({"sh", "-c", escaping_helper(pidfile) + "echo done"}, std::chrono::milliseconds(3000));
    });
    const bool returned = fut.wait_for(std::chrono::milliseconds(8000)) == std::future_status::ready;
    kill_helper(pidfile);
    auto r = fut.get();
    EXPECT_TRUE(returned) << "run_process did not return within its timeout + 5 s";
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("done"), std::string::npos);
}

TEST(HealthProcess, OutOfRangeTimeoutsAreClamped) {
    // No overflow in `now + timeout` (UBSan), no instant time-out either.
    auto r = run_process({"sh", "-c", "exit 3"}, std::chrono::milliseconds::max());
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 3);
    auto n = run_process({"sleep", "5"}, std::chrono::milliseconds(-5));
    EXPECT_TRUE(n.timed_out);
    Tree t;
    auto o = t.opts();
    o.total_timeout = std::chrono::milliseconds::max();
    o.probe_timeout = std::chrono::milliseconds::max();
    o.builtin_timeout = std::chrono::milliseconds::max();
    auto rep = run_check(o);
    EXPECT_TRUE(rep.ok) << rep.summary();
    o.total_timeout = std::chrono::milliseconds::min();
    auto none = run_check(o);
    EXPECT_FALSE(none.ok);
    EXPECT_EQ(none.summary(),
              "ib: not run: the check's total time limit was reached; gpu: not run: the check's total time limit was "
              "reached");
}

// ------------------------------------------------------------------ Prometheus

TEST(HealthPrometheus, OneGaugePerProbeWrittenAtomically) {
    Tree t;
    write(t.port("mlx5_9") / "state", "1: DOWN\n");
    auto rep = run_check(t.opts());
    std::string text = prometheus_text(rep, "dgx001", 1763900000);
    EXPECT_NE(text.find("# TYPE topoplace_health_probe_ok gauge\n"), std::string::npos);
    EXPECT_NE(text.find("topoplace_health_probe_ok{node=\"dgx001\",probe=\"ib\"} 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find("topoplace_health_probe_ok{node=\"dgx001\",probe=\"gpu\"} 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("topoplace_health_ok{node=\"dgx001\"} 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find("topoplace_health_last_check_timestamp_seconds{node=\"dgx001\"} 1763900000\n"),
              std::string::npos);
    auto out = t.tmp.path / "topoplace.prom";
    ASSERT_TRUE(write_file_atomic(out.string(), text));
    EXPECT_EQ(slurp(out), text);
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(t.tmp.path)) ++files;
    EXPECT_EQ(files, 2);  // root/ and topoplace.prom: no temporary file left over
}

// ------------------------------------------------------------------ store

namespace {
struct StoreDir {
    TempDir tmp;
    std::string dir;

    StoreDir() { dir = (tmp.path / "health").string(); }

    [[nodiscard]] Store open() const {
        StoreOptions so;
        so.create = true;
        so.trusted_uid = ::geteuid();
        auto s = Store::open(dir, so);
        EXPECT_TRUE(s) << s.error().to_string();
        return std::move(*s);
    }
};

Record rec(const std::string& node, Verdict v, const std::string& reason = {}) {
    Record r;
    r.node = node;
    r.verdict = v;
    r.reason = reason;
    r.source = "check";
    r.since = 1763900000;
    r.last_check = 1763900100;
    return r;
}

/// dgx002 unhealthy (xid 79), dgx003 degraded (slowdown 1.2), dgx005 healthy, and login1,
/// not a host of the DGX topology, unhealthy.
void put_flag_records(const Store& s) {
    ASSERT_TRUE(s.put(rec("dgx002", Verdict::Unhealthy, "xid 79")));
    Record slow = rec("dgx003", Verdict::Degraded, "ib: rate");
    slow.slowdown = 1.2;
    ASSERT_TRUE(s.put(slow));
    ASSERT_TRUE(s.put(rec("dgx005", Verdict::Healthy, "ok")));
    ASSERT_TRUE(s.put(rec("login1", Verdict::Unhealthy, "x")));
}
}  // namespace

TEST(HealthStore, RoundTripListRemove) {
    StoreDir d;
    Store s = d.open();
    ASSERT_TRUE(s.put(rec("n002", Verdict::Unhealthy, "ib: mlx5_0 port 1 state DOWN")));
    ASSERT_TRUE(s.put(rec("n001", Verdict::Healthy)));
    auto g = s.get("n002");
    ASSERT_TRUE(g);
    ASSERT_TRUE(g->has_value());
    EXPECT_EQ((*g)->reason, "ib: mlx5_0 port 1 state DOWN");
    EXPECT_EQ((*g)->verdict, Verdict::Unhealthy);
    EXPECT_EQ((*g)->since, 1763900000);
    EXPECT_EQ((*g)->last_check, 1763900100);
    auto none = s.get("n003");
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value());
    auto l = s.list();
    ASSERT_TRUE(l);
    ASSERT_EQ(l->size(), 2U);
    EXPECT_EQ((*l)[0].node, "n001");
    auto u = unhealthy_nodes(s);
    ASSERT_TRUE(u);
    EXPECT_EQ(*u, std::vector<std::string>{"n002"});

    struct stat st {};

    ASSERT_EQ(::stat((d.dir + "/n002").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0644U);
    ASSERT_TRUE(s.remove("n002"));
    auto u2 = unhealthy_nodes(s);
    ASSERT_TRUE(u2);
    EXPECT_TRUE(u2->empty());
    // Nothing but the records: no temp files left behind.
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(d.dir)) ++files;
    EXPECT_EQ(files, 1);
}

TEST(HealthFlags, OneReaderForPlaceServiceAndPlugin) {
    const Topology& topo = dgx_topology();
    const StoreOptions trust{::geteuid(), false};
    StoreDir d;
    // not created yet: nobody flagged, one warning
    std::vector<std::string> w;
    auto none = health_flags(topo, d.dir, &w, trust);
    ASSERT_TRUE(none) << none.error().to_string();
    EXPECT_TRUE(none->unhealthy.empty() && none->degraded.empty());
    ASSERT_EQ(w.size(), 1U);
    EXPECT_NE(w[0].find("no health store at"), std::string::npos);
    EXPECT_FALSE(fs::exists(d.dir)) << "a reader never creates the store";
    Store s = d.open();
    put_flag_records(s);
    ASSERT_TRUE(s.put(rec("dgx004", Verdict::Degraded, "operator")));  // no estimate
    auto f = health_flags(topo, d.dir, nullptr, trust);
    ASSERT_TRUE(f) << f.error().to_string();
    ASSERT_EQ(f->unhealthy.size(), 1U);
    EXPECT_EQ(topo.host(f->unhealthy[0].first).name, "dgx002");
    EXPECT_EQ(f->unhealthy[0].second, "xid 79");
    ASSERT_EQ(f->degraded.size(), 2U);
    EXPECT_DOUBLE_EQ(f->degraded[0].second, 1.2);
    EXPECT_DOUBLE_EQ(f->degraded[1].second, kDegradedDefaultSlowdown);
    EXPECT_EQ(f->unknown, std::vector<std::string>{"login1"});
    // a multi-node job on dgx001,dgx004 excludes the degraded host it does not use
    std::vector<std::string> ex;
    const std::vector<HostId> used{*topo.find_host("dgx001"), *topo.find_host("dgx004")};
    f->exclude_degraded(topo, used, ex);
    EXPECT_EQ(ex, std::vector<std::string>{"dgx003"});
    ex.clear();
    f->exclude_degraded(topo, std::span(used).first(1), ex);  // one node: nothing
    EXPECT_TRUE(ex.empty());
    // a tampered record refuses the whole read
    ASSERT_EQ(::chmod((d.dir + "/dgx002").c_str(), 0666), 0);
    EXPECT_FALSE(health_flags(topo, d.dir, nullptr, trust));
}

// The reader the plugin keeps: what list() says, at a cost bounded per call (a listing only
// when the directory changed, a record read only when it was replaced).
TEST(HealthStore, AKeptReaderReadsOnlyWhatChangedAndAtMostItsBoundPerCall) {
    StoreDir d;
    const StoreOptions trust{::geteuid(), false};
    StoreReader r(d.dir, trust);
    Warnings w;
    auto a = r.refresh(100, &w);  // not created yet: nothing, one warning
    ASSERT_TRUE(a) << a.error().to_string();
    EXPECT_FALSE(a->changed);
    EXPECT_TRUE(r.records().empty());
    ASSERT_EQ(w.size(), 1U);
    EXPECT_NE(w[0].find("no health store at"), std::string::npos);
    Store s = d.open();
    for (const char* n : {"n001", "n002", "n003"}) ASSERT_TRUE(s.put(rec(n, Verdict::Degraded, "slow")));
    a = r.refresh(100, &w);
    ASSERT_TRUE(a) << a.error().to_string();
    EXPECT_TRUE(a->changed);
    EXPECT_EQ(a->reads, 3U);
    auto all = s.list();
    ASSERT_TRUE(all);
    ASSERT_EQ(r.records().size(), all->size());
    for (const auto& x : *all) EXPECT_EQ(r.records().at(x.node), x);
    // nothing changed: no record read
    a = r.refresh(100);
    ASSERT_TRUE(a);
    EXPECT_FALSE(a->changed);
    EXPECT_EQ(a->reads, 0U);
    // one record replaced (rename: a new inode), one removed: one read
    ASSERT_TRUE(s.put(rec("n002", Verdict::Unhealthy, "xid 79")));
    ASSERT_TRUE(s.remove("n003"));
    a = r.refresh(100);
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->changed);
    EXPECT_EQ(a->reads, 1U);
    EXPECT_EQ(r.records().at("n002").verdict, Verdict::Unhealthy);
    EXPECT_FALSE(r.records().contains("n003"));
    // five new records, at most two read per call: complete after three calls
    for (int i = 4; i <= 8; ++i) ASSERT_TRUE(s.put(rec("n00" + std::to_string(i), Verdict::Degraded, "slow")));
    std::size_t reads = 0;
    int calls = 0;
    do {
        a = r.refresh(2);
        ASSERT_TRUE(a);
        EXPECT_LE(a->reads, 2U);
        reads += a->reads;
        ++calls;
    } while (!r.complete() && calls < 10);
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(reads, 5U);
    EXPECT_EQ(r.records().size(), 7U);
    // a record written in place (same inode, directory unchanged): seen by the lstat() round,
    // read at the call after
    {
        std::ofstream(d.dir + "/n001", std::ios::trunc)
            << to_record_text(rec("n001", Verdict::Unhealthy, "edited in place by an operator"));
    }
    a = r.refresh(100);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->reads, 0U);
    a = r.refresh(100);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->reads, 1U);
    EXPECT_TRUE(a->changed);
    EXPECT_EQ(r.records().at("n001").reason, "edited in place by an operator");
    // a tampered record fails each call (as list() does) until it is trusted again
    ASSERT_EQ(::chmod((d.dir + "/n004").c_str(), 0666), 0);
    (void)r.refresh(100);  // the lstat() round sees the new ctime
    EXPECT_FALSE(r.refresh(100));
    EXPECT_FALSE(r.refresh(100)) << "read again at every call until it reads";
    ASSERT_EQ(::chmod((d.dir + "/n004").c_str(), 0644), 0);
    a = r.refresh(100);
    ASSERT_TRUE(a) << a.error().to_string();
    EXPECT_TRUE(r.complete());
    // the store removed: nothing flagged
    fs::remove_all(d.dir);
    a = r.refresh(100);
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->changed);
    EXPECT_TRUE(r.records().empty());
}

// With the inotify watch (the default) a change of the directory is read from the watch's
// queue: the names renamed in or out, no listing; without it (or when the queue cannot say,
// as when the directory is replaced) the directory is listed. Both say what list() says.
TEST(HealthStore, AWatchedKeptReaderListsTheStoreOnlyWhenTheWatchCannotSay) {
    for (const bool watch : {true, false}) {
        SCOPED_TRACE(watch ? "watched" : "listed");
        StoreDir d;
        const StoreOptions trust{::geteuid(), false};
        Store s = d.open();
        for (const char* n : {"n001", "n002", "n003"}) ASSERT_TRUE(s.put(rec(n, Verdict::Degraded, "slow")));
        StoreReader r(d.dir, trust, watch);
        auto a = r.refresh(100);
        ASSERT_TRUE(a) << a.error().to_string();
        EXPECT_EQ(a->reads, 3U);
        EXPECT_EQ(r.listings(), 1U);
        EXPECT_EQ(r.watching(), watch);
        auto same_as_list = [&] {
            auto all = s.list();
            ASSERT_TRUE(all);
            ASSERT_EQ(r.records().size(), all->size());
            for (const auto& x : *all) EXPECT_EQ(r.records().at(x.node), x);
        };
        // replaced, removed, added: read from the queue (two records opened), or listed
        ASSERT_TRUE(s.put(rec("n002", Verdict::Unhealthy, "xid 79")));
        ASSERT_TRUE(s.remove("n003"));
        ASSERT_TRUE(s.put(rec("n009", Verdict::Degraded, "slow")));
        a = r.refresh(100);
        ASSERT_TRUE(a) << a.error().to_string();
        EXPECT_TRUE(a->changed);
        EXPECT_EQ(a->reads, 2U);
        EXPECT_EQ(r.listings(), watch ? 1U : 2U);
        same_as_list();
        // removed and put back under the same name before the next call (the new file may
        // reuse the old one's inode, which a listing cannot tell: the lstat() round reads it
        // at the call after); the watch compares the whole stamp at once
        ASSERT_TRUE(s.remove("n001"));
        ASSERT_TRUE(s.put(rec("n001", Verdict::Unhealthy, "back")));
        a = r.refresh(100);
        ASSERT_TRUE(a) << a.error().to_string();
        if (!watch && a->reads == 0) a = r.refresh(100);
        ASSERT_TRUE(a) << a.error().to_string();
        EXPECT_EQ(a->reads, 1U);
        EXPECT_EQ(r.records().at("n001").reason, "back");
        EXPECT_EQ(r.listings(), watch ? 1U : 3U);
        same_as_list();
        // the directory replaced by another (the watch follows the old one): listed, watched again
        const std::string old_dir = d.dir + ".old";
        ASSERT_EQ(::rename(d.dir.c_str(), old_dir.c_str()), 0);
        Store s2 = d.open();
        ASSERT_TRUE(s2.put(rec("n004", Verdict::Unhealthy, "new store")));
        a = r.refresh(100);
        ASSERT_TRUE(a) << a.error().to_string();
        EXPECT_TRUE(a->changed);
        EXPECT_EQ(r.listings(), watch ? 2U : 4U);
        EXPECT_EQ(r.watching(), watch);
        ASSERT_EQ(r.records().size(), 1U);
        EXPECT_EQ(r.records().at("n004").reason, "new store");
        // and the new one is watched: a change there is read from its queue
        ASSERT_TRUE(s2.put(rec("n005", Verdict::Degraded, "slow")));
        a = r.refresh(100);
        ASSERT_TRUE(a) << a.error().to_string();
        EXPECT_EQ(a->reads, 1U);
        EXPECT_EQ(r.listings(), watch ? 2U : 5U);
        EXPECT_EQ(r.records().size(), 2U);
    }
}

TEST(HealthFlags, TheKeptReaderFlagsWhatHealthFlagsDoes) {
    const Topology& topo = dgx_topology();
    const StoreOptions trust{::geteuid(), false};
    StoreDir d;
    Store s = d.open();
    put_flag_records(s);
    FlagsReader r(topo, d.dir, trust);
    auto c = r.refresh(64);
    ASSERT_TRUE(c) << c.error().to_string();
    EXPECT_TRUE(*c);
    auto f = health_flags(topo, d.dir, nullptr, trust);
    ASSERT_TRUE(f);
    EXPECT_EQ(r.flags().unhealthy, f->unhealthy);
    EXPECT_EQ(r.flags().degraded, f->degraded);
    EXPECT_EQ(r.flags().unknown, f->unknown);
    EXPECT_EQ(r.reads(), 4U);
    // a healthy record rewritten: read, flags unchanged
    ASSERT_TRUE(s.put(rec("dgx005", Verdict::Healthy, "ok again")));
    c = r.refresh(64);
    ASSERT_TRUE(c);
    EXPECT_FALSE(*c);
    EXPECT_EQ(r.reads(), 5U);
    ASSERT_TRUE(s.remove("dgx002"));
    c = r.refresh(64);
    ASSERT_TRUE(c);
    EXPECT_TRUE(*c);
    EXPECT_TRUE(r.flags().unhealthy.empty());
}

TEST(HealthStore, DegradedRecordRoundTripAndRules) {
    StoreDir d;
    Store s = d.open();
    Record r = rec("n004", Verdict::Degraded, "ib: degraded: mlx5_0 port 1 rate 200 Gb/sec");
    r.slowdown = 1.067;
    ASSERT_TRUE(s.put(r));
    ASSERT_TRUE(s.put(rec("n005", Verdict::Degraded, "operator: fan")));  // no estimate
    ASSERT_TRUE(s.put(rec("n006", Verdict::Unhealthy, "x")));
    EXPECT_NE(slurp(fs::path(d.dir) / "n004").find("\nverdict=degraded\n"), std::string::npos);
    EXPECT_NE(slurp(fs::path(d.dir) / "n004").find("\nslowdown=1.067\n"), std::string::npos);
    EXPECT_EQ(slurp(fs::path(d.dir) / "n005").find("slowdown="), std::string::npos);
    auto g = s.get("n004");
    ASSERT_TRUE(g && g->has_value());
    EXPECT_EQ((*g)->verdict, Verdict::Degraded);
    EXPECT_DOUBLE_EQ((*g)->slowdown, 1.067);
    auto deg = degraded_nodes(s);
    ASSERT_TRUE(deg);
    ASSERT_EQ(deg->size(), 2U);
    EXPECT_EQ((*deg)[0], (std::pair<std::string, double>{"n004", 1.067}));
    EXPECT_EQ((*deg)[1], (std::pair<std::string, double>{"n005", kDegradedDefaultSlowdown}));
    auto u = unhealthy_nodes(s);
    ASSERT_TRUE(u);
    EXPECT_EQ(*u, std::vector<std::string>{"n006"});  // degraded is not unhealthy
    // the launch gate lets jobs start on a degraded node
    EXPECT_TRUE(gate(d.dir, "n004", FailMode::Closed, StoreOptions{::geteuid(), false}).allow);
    EXPECT_FALSE(gate(d.dir, "n006", FailMode::Closed, StoreOptions{::geteuid(), false}).allow);
    // a bad figure names the file and line
    auto bad = parse_record("topoplace-health 1\nnode=n004\nverdict=degraded\nslowdown=fast\n", "/x/n004");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().to_string().find("/x/n004:4"), std::string::npos) << bad.error().to_string();
    EXPECT_FALSE(parse_record("topoplace-health 1\nnode=n004\nverdict=degraded\nslowdown=0.9\n", "f"));
    EXPECT_FALSE(parse_record("topoplace-health 1\nnode=n004\nverdict=degraded\nslowdown=nan\n", "f"));
}

// Issue 32 point 6: a degraded host's slowdown is written and read the same under a locale
// whose decimal separator is a comma (the store is read inside Slurm's processes, where a
// library may have set LC_NUMERIC). Before, "%.4g"/strtod wrote "1,067" and read it as 1.
TEST(HealthStore, SlowdownIsTheSameUnderACommaLocale) {
    char tmpl[] = "/tmp/topoplace-locale.XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl;
    const std::string cmd = "localedef -i de_DE -f UTF-8 " + dir + "/de_DE.UTF-8 >/dev/null 2>&1";
    const int built =
        std::system(cmd.c_str());  // NOLINT(cert-env33-c,concurrency-mt-unsafe): a fixed command line, one thread
    ::setenv("LOCPATH", dir.c_str(), 1);  // NOLINT(concurrency-mt-unsafe): the test is one thread
    const char* set =
        std::setlocale(LC_NUMERIC, "de_DE.UTF-8");  // NOLINT(concurrency-mt-unsafe): the test is one thread
    if (built != 0 || set == nullptr) {
        ::unsetenv("LOCPATH");  // NOLINT(concurrency-mt-unsafe): the test is one thread
        fs::remove_all(dir);
        GTEST_SKIP() << "no de_DE locale could be built here (localedef, /usr/share/i18n/locales)";
    }
    char probe[16];
    std::snprintf(probe, sizeof probe, "%.2f", 1.5);
    EXPECT_STREQ(probe, "1,50");  // the locale is in effect
    StoreDir d;
    Store s = d.open();
    Record r = rec("n004", Verdict::Degraded, "ib: degraded");
    r.slowdown = 1.067;
    const bool put = static_cast<bool>(s.put(r));
    auto g = s.get("n004");
    const std::string text = slurp(fs::path(d.dir) / "n004");
    std::setlocale(LC_NUMERIC, "C");  // NOLINT(concurrency-mt-unsafe): the test is one thread
    ::unsetenv("LOCPATH");            // NOLINT(concurrency-mt-unsafe): the test is one thread
    fs::remove_all(dir);
    ASSERT_TRUE(put);
    EXPECT_NE(text.find("\nslowdown=1.067\n"), std::string::npos) << text;
    ASSERT_TRUE(g && g->has_value());
    EXPECT_DOUBLE_EQ((*g)->slowdown, 1.067);
}

TEST(HealthStore, NewlinesInReasonCannotForgeFields) {
    StoreDir d;
    Store s = d.open();
    ASSERT_TRUE(s.put(rec("n001", Verdict::Unhealthy, "bad\nverdict=healthy")));
    auto g = s.get("n001");
    ASSERT_TRUE(g && g->has_value());
    EXPECT_EQ((*g)->verdict, Verdict::Unhealthy);
    EXPECT_EQ((*g)->reason, "bad verdict=healthy");
}

TEST(HealthStore, ParseErrorsNameFileAndLine) {
    auto r = parse_record("topoplace-health 1\nnode=n001\nverdict=maybe\n", "/x/n001");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::Parse);
    EXPECT_EQ(r.error().to_string(), "/x/n001:3: verdict must be healthy, unhealthy or degraded, not 'maybe'");
    auto r2 = parse_record("hello\n", "/x/n001");
    ASSERT_FALSE(r2);
    EXPECT_EQ(r2.error().line, 1);
    auto r3 = parse_record("topoplace-health 1\nnode=n001\nsince=12x\nverdict=healthy\n", "f");
    ASSERT_FALSE(r3);
    EXPECT_EQ(r3.error().to_string(), "f:3: not an integer: '12x'");
    EXPECT_FALSE(valid_node_name("../etc/passwd"));
    EXPECT_FALSE(valid_node_name(".."));
    EXPECT_TRUE(valid_node_name("dgx-001.a_b"));
}

TEST(HealthStore, RecordForAnotherNodeIsIgnoredAndNamed) {
    StoreDir d;
    Store s = d.open();
    ASSERT_TRUE(s.put(rec("n001", Verdict::Unhealthy, "x")));
    fs::copy_file(d.dir + "/n001", d.dir + "/n002");  // copied under another name: not n002's record
    Warnings w;
    auto g = s.get("n002", &w);
    ASSERT_TRUE(g) << g.error().to_string();
    EXPECT_FALSE(g->has_value());
    ASSERT_EQ(w.size(), 1U);
    EXPECT_EQ(w[0], "health store: ignoring " + d.dir + "/n002: holds the record of node 'n001', not of 'n002'");
}

TEST(HealthStore, WorldWritableFileRefusedFailOpenOrClosed) {
    StoreDir d;
    Store s = d.open();
    ASSERT_TRUE(s.put(rec("n001", Verdict::Healthy)));
    fs::permissions(d.dir + "/n001", fs::perms::others_write, fs::perm_options::add);  // chmod o+w
    auto g = s.get("n001");
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().code, Errc::Unsupported);
    EXPECT_EQ(g.error().message, "health store: refusing " + d.dir
                                     + "/n001: mode 0646 is group/world writable (tampered; fix with chmod go-w)");
    StoreOptions so;
    so.trusted_uid = ::geteuid();
    auto open_d = gate(d.dir, "n001", FailMode::Open, so);
    EXPECT_TRUE(open_d.allow);
    EXPECT_TRUE(open_d.store_error);
    EXPECT_NE(open_d.message.find("group/world writable"), std::string::npos);
    EXPECT_NE(open_d.message.find("(fail-open)"), std::string::npos);
    auto closed_d = gate(d.dir, "n001", FailMode::Closed, so);
    EXPECT_FALSE(closed_d.allow);
    EXPECT_TRUE(closed_d.store_error);
    EXPECT_NE(closed_d.message.find("(fail-closed)"), std::string::npos);
    // list() refuses the whole store (placement must not silently skip a tampered record).
    EXPECT_FALSE(s.list());
}

TEST(HealthStore, WritableDirectoryRefused) {
    StoreDir d;
    Store s = d.open();
    ASSERT_TRUE(s.put(rec("n001", Verdict::Unhealthy, "x")));
    fs::permissions(d.dir, fs::perms::group_write, fs::perm_options::add);
    StoreOptions so;
    so.trusted_uid = ::geteuid();
    auto o = Store::open(d.dir, so);
    ASSERT_FALSE(o);
    EXPECT_NE(o.error().message.find("mode 0775 is group/world writable"), std::string::npos) << o.error().message;
    // An already-open store re-checks the directory on every read.
    auto g = s.get("n001");
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().code, Errc::Unsupported);
}

TEST(HealthStore, SymlinkRecordRefused) {
    StoreDir d;
    Store s = d.open();
    fs::create_symlink("/etc/hostname", d.dir + "/n009");
    auto g = s.get("n009");
    ASSERT_FALSE(g);
    EXPECT_NE(g.error().message.find("symbolic link"), std::string::npos);
}

TEST(HealthStore, GateDecisions) {
    StoreDir d;
    Store s = d.open();
    StoreOptions so;
    so.trusted_uid = ::geteuid();
    ASSERT_TRUE(s.put(rec("n001", Verdict::Unhealthy, "gpu: 7 of 8 /dev/nvidiaN device nodes")));
    auto bad = gate(d.dir, "n001", FailMode::Open, so);
    EXPECT_FALSE(bad.allow);  // a real unhealthy record denies whatever the fail mode
    EXPECT_FALSE(bad.store_error);
    EXPECT_NE(bad.message.find("7 of 8"), std::string::npos);
    EXPECT_TRUE(gate(d.dir, "n002", FailMode::Closed, so).allow);  // no record
    EXPECT_TRUE(gate(d.tmp.path.string() + "/never-created", "n001", FailMode::Closed, so).allow);
    EXPECT_EQ(fail_mode_from_name("closed"), FailMode::Closed);
    EXPECT_EQ(fail_mode_from_name("open"), FailMode::Open);
    EXPECT_FALSE(fail_mode_from_name("maybe"));
}

TEST(HealthStore, MissingStoreIsEmptyWithAWarning) {
    TempDir t;
    const std::string dir = (t.path / "health").string();  // what a site that follows the docs has
    StoreOptions so;
    so.trusted_uid = ::geteuid();
    auto s = Store::open(dir, so);
    ASSERT_TRUE(s) << s.error().to_string();
    const std::string warning = "no health store at " + dir + " yet (no node was checked or flagged)";
    Warnings w;
    auto g = s->get("n001", &w);
    ASSERT_TRUE(g) << g.error().to_string();
    EXPECT_FALSE(g->has_value());
    EXPECT_EQ(w, Warnings{warning});
    w.clear();
    auto l = s->list(&w);
    ASSERT_TRUE(l) << l.error().to_string();
    EXPECT_TRUE(l->empty());
    EXPECT_EQ(w, Warnings{warning});
    auto u = unhealthy_nodes(*s);
    ASSERT_TRUE(u);
    EXPECT_TRUE(u->empty());
    auto d = gate(dir, "n001", FailMode::Closed, so);
    EXPECT_TRUE(d.allow);
    EXPECT_FALSE(d.store_error);
    EXPECT_EQ(d.warnings, Warnings{warning});
    // Created later (by the first check): the same reader sees it, without a warning.
    so.create = true;
    auto writer = Store::open(dir, so);
    ASSERT_TRUE(writer) << writer.error().to_string();
    ASSERT_TRUE(writer->put(rec("n001", Verdict::Unhealthy, "ib: mlx5_0 missing")));
    w.clear();
    auto g2 = s->get("n001", &w);
    ASSERT_TRUE(g2 && g2->has_value());
    EXPECT_EQ((*g2)->verdict, Verdict::Unhealthy);
    EXPECT_TRUE(w.empty());
}

TEST(HealthStore, StrayEntriesAreIgnoredAndNamed) {
    StoreDir d;
    Store s = d.open();
    ASSERT_TRUE(s.put(rec("n001", Verdict::Unhealthy, "ib: mlx5_0 missing")));
    ASSERT_TRUE(s.put(rec("n003", Verdict::Healthy)));
    fs::copy_file(d.dir + "/n003", d.dir + "/n003.bak");  // an operator's backup
    write(d.dir + "/README", "Do not edit: written by topoplace health check.\n");
    fs::create_directory(d.dir + "/old");
    write(d.dir + "/n004 copy", "topoplace-health 1\nnode=n004\nverdict=unhealthy\n");
    ::mkfifo((d.dir + "/fifo").c_str(), 0644);
    for (const auto* n : {"/README", "/n004 copy"}) fs::permissions(d.dir + n, fs::perms(0644));
    Warnings w;
    auto l = s.list(&w);
    ASSERT_TRUE(l) << l.error().to_string();
    ASSERT_EQ(l->size(), 2U);
    EXPECT_EQ((*l)[0].node, "n001");
    EXPECT_EQ((*l)[1].node, "n003");
    EXPECT_EQ(
        w,
        (Warnings{
            "health store: ignoring " + d.dir + "/README: not a topoplace health record (no 'topoplace-health 1' line)",
            "health store: ignoring " + d.dir + "/fifo: not a regular file, not a record",
            "health store: ignoring " + d.dir + "/n003.bak: holds the record of node 'n003', not of 'n003.bak'",
            "health store: ignoring " + d.dir + "/n004 copy: not a node name",
            "health store: ignoring " + d.dir + "/old: a directory, not a record",
        }));
    auto u = unhealthy_nodes(s);
    ASSERT_TRUE(u) << u.error().to_string();
    EXPECT_EQ(*u, std::vector<std::string>{"n001"});
    // The gate of one node reads its own entry by the same rule.
    StoreOptions so;
    so.trusted_uid = ::geteuid();
    EXPECT_FALSE(gate(d.dir, "n001", FailMode::Open, so).allow);
    auto readme = gate(d.dir, "README", FailMode::Closed, so);
    EXPECT_TRUE(readme.allow);
    EXPECT_FALSE(readme.store_error);
    ASSERT_EQ(readme.warnings.size(), 1U);
    EXPECT_NE(readme.warnings[0].find(d.dir + "/README"), std::string::npos);
}

TEST(HealthStore, UntrustedOrDamagedEntriesStillRefuseTheStore) {
    StoreDir d;
    Store s = d.open();
    ASSERT_TRUE(s.put(rec("n001", Verdict::Unhealthy, "x")));
    // An untrusted file is refused whatever it holds: whoever wrote it could hide a record.
    write(d.dir + "/README", "notes\n");
    fs::permissions(d.dir + "/README", fs::perms(0666));
    auto l = s.list();
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().message, "health store: refusing " + d.dir
                                     + "/README: mode 0666 is group/world writable (tampered; fix with chmod go-w)");
    fs::remove(d.dir + "/README");
    // A damaged record (the header, then nonsense): its verdict is unknown.
    write(d.dir + "/n005", "topoplace-health 1\nnode=n005\nverdict=maybe\n");
    fs::permissions(d.dir + "/n005", fs::perms(0644));
    auto l2 = s.list();
    ASSERT_FALSE(l2);
    EXPECT_EQ(l2.error().code, Errc::Parse);
    fs::remove(d.dir + "/n005");
    // A symbolic link, even to a good record.
    fs::create_symlink(d.dir + "/n001", d.dir + "/n001.lnk");
    auto l3 = s.list();
    ASSERT_FALSE(l3);
    EXPECT_NE(l3.error().message.find("n001.lnk: a symbolic link"), std::string::npos) << l3.error().message;
}

TEST(HealthStore, WholePathIsChecked) {
    TempDir t;
    StoreOptions so;
    so.trusted_uid = ::geteuid();
    so.create = true;
    auto above = make_dir(t.path / "var", 0777);  // not sticky: anyone may swap the store
    const std::string dir = (above / "health").string();
    auto s = Store::open(dir, so);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, Errc::Unsupported);
    EXPECT_EQ(s.error().message, "health store: refusing " + dir + ": the directory " + above.string()
                                     + " above it: mode 0777 is group/world writable and not sticky (tampered; fix "
                                       "with chmod go-w)");
    EXPECT_FALSE(fs::exists(dir)) << "created under an untrusted directory";
    // Not created yet under an untrusted directory: refused too, not "nothing flagged".
    so.create = false;
    EXPECT_FALSE(Store::open(dir, so));
    auto g = gate(dir, "n001", FailMode::Closed, so);
    EXPECT_FALSE(g.allow);
    EXPECT_TRUE(g.store_error);
    // Sticky above (like /tmp): fine.
    fs::permissions(above, fs::perms(01777));
    so.create = true;
    auto ok = Store::open(dir, so);
    ASSERT_TRUE(ok) << ok.error().to_string();
    ASSERT_TRUE(ok->put(rec("n001", Verdict::Unhealthy, "x")));
    // A trusted symbolic link above the store is followed; the store itself as a link is not.
    fs::create_symlink(above, t.path / "var-link");
    auto via = Store::open((t.path / "var-link" / "health").string(), so);
    ASSERT_TRUE(via) << via.error().to_string();
    auto r = via->get("n001");
    ASSERT_TRUE(r && r->has_value());
    fs::create_symlink(dir, t.path / "health-link");
    auto link = Store::open((t.path / "health-link").string(), so);
    ASSERT_FALSE(link);
    EXPECT_NE(link.error().message.find("a symbolic link"), std::string::npos) << link.error().message;
    // One implementation for the store and the probes.
    EXPECT_TRUE(check_trusted_path(dir, PathKind::Directory, ::geteuid(), "x"));
    EXPECT_EQ(check_trusted_path(dir + "/n002", PathKind::RegularFile, ::geteuid(), "x").error().code, Errc::NotFound);
    EXPECT_FALSE(check_trusted_path(dir, PathKind::RegularFile, ::geteuid(), "x"));
}

// Security: needs root (to own the store and to drop to another uid).
TEST(HealthStoreSecurity, ForeignOwnedRecordAndDirectoryRefused) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    StoreDir d;
    StoreOptions so;
    so.create = true;
    auto s = Store::open(d.dir, so);
    ASSERT_TRUE(s) << s.error().to_string();
    ASSERT_TRUE(s->put(rec("n001", Verdict::Healthy)));
    ASSERT_EQ(::chown((d.dir + "/n001").c_str(), 65534, 65534), 0);
    auto g = s->get("n001");
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().message,
              "health store: refusing " + d.dir
                  + "/n001: owned by uid 65534, not by uid 0 (tampered or forged; see docs/health.md)");
    ASSERT_EQ(::chown(d.dir.c_str(), 65534, 65534), 0);
    auto o = Store::open(d.dir, {});
    ASSERT_FALSE(o);
    EXPECT_NE(o.error().message.find("owned by uid 65534, not by uid 0"), std::string::npos);
}

TEST(HealthStoreSecurity, NonRootCannotFlagClearOrForge) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    StoreDir d;
    fs::permissions(d.tmp.path, fs::perms(0755));
    StoreOptions so;
    so.create = true;
    auto s = Store::open(d.dir, so);
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->put(rec("n001", Verdict::Unhealthy, "ib: mlx5_0 missing")));
    const std::string forged_dir = "/tmp/topo-health-forged-" + std::to_string(::getpid());
    fs::remove_all(forged_dir);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        // The child becomes nobody and tries everything; exit code = bitmask of successes.
        if (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0
            || ::setresuid(65534, 65534, 65534) != 0)
            ::_exit(100);
        int got = 0;
        auto st = Store::open(d.dir, {});
        if (!st) ::_exit(101);                                             // reading stays possible
        if (st->put(rec("n001", Verdict::Healthy))) got |= 1;              // clear by overwrite
        if (st->remove("n001")) got |= 2;                                  // clear
        if (st->put(rec("n002", Verdict::Unhealthy, "forged"))) got |= 4;  // flag
        // Bypass the library: write a file straight into the store.
        if (std::ofstream(d.dir + "/n003") << "topoplace-health 1\nnode=n003\nverdict=unhealthy\n") got |= 8;
        if (::unlink((d.dir + "/n001").c_str()) == 0) got |= 16;
        // Forge a whole store of one's own: readers refuse it.
        ::mkdir(forged_dir.c_str(), 0755);
        std::ofstream(forged_dir + "/n001") << "topoplace-health 1\nnode=n001\nverdict=healthy\n";
        ::_exit(got);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "bitmask of what nobody managed to do";
    auto g = s->get("n001");
    ASSERT_TRUE(g && g->has_value());
    EXPECT_EQ((*g)->verdict, Verdict::Unhealthy);
    EXPECT_FALSE(fs::exists(d.dir + "/n002"));
    EXPECT_FALSE(fs::exists(d.dir + "/n003"));
    auto forged = Store::open(forged_dir, {});
    ASSERT_FALSE(forged);
    EXPECT_NE(forged.error().message.find("owned by uid 65534, not by uid 0"), std::string::npos);
    auto decision = gate(forged_dir, "n001", FailMode::Closed);
    EXPECT_FALSE(decision.allow);
    fs::remove_all(forged_dir);
}

TEST(HealthStoreSecurity, DirectoryAboveOwnedByAnotherUidRefused) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root";
    TempDir t;
    auto above = make_dir(t.path / "home-nobody");
    const std::string dir = (above / "health").string();
    StoreOptions so;
    so.create = true;
    auto s = Store::open(dir, so);
    ASSERT_TRUE(s) << s.error().to_string();
    ASSERT_TRUE(s->put(rec("n001", Verdict::Unhealthy, "x")));
    ASSERT_EQ(::chown(above.c_str(), 65534, 65534), 0);  // nobody could now swap health/ for a forged store
    auto g = s->get("n001");
    ASSERT_FALSE(g);
    EXPECT_EQ(g.error().message, "health store: refusing " + dir + ": the directory " + above.string()
                                     + " above it: owned by uid 65534, not by uid 0 (tampered or forged; see "
                                       "docs/health.md)");
    EXPECT_FALSE(gate(dir, "n002", FailMode::Closed).allow);
}

// ------------------------------------------------------------------ Slurm parsing

TEST(HealthSlurm, ParseRealOneliner) {
    // Captured from the project's Slurm 22.05.8 lab (n002 drained by hand).
    auto nodes = parse_scontrol_nodes(slurp(kFix + "/scontrol-show-node-oneliner.txt"));
    ASSERT_EQ(nodes.size(), 4U);
    EXPECT_EQ(nodes[0].name, "n001");
    EXPECT_EQ(nodes[0].hostname, "vm");
    EXPECT_EQ(nodes[0].addr, "127.0.0.1");
    EXPECT_EQ(nodes[0].state, "IDLE");
    EXPECT_EQ(nodes[0].reason, "");
    EXPECT_FALSE(nodes[0].drained());
    EXPECT_EQ(nodes[1].name, "n002");
    EXPECT_EQ(nodes[1].state, "IDLE+DRAIN");
    EXPECT_EQ(nodes[1].reason, "hand drain test");
    EXPECT_TRUE(nodes[1].drained());
    EXPECT_FALSE(nodes[1].ours());
}

TEST(HealthSlurm, ReasonPrefixAndNames) {
    auto n = parse_scontrol_nodes(
        "NodeName=dgx007 NodeAddr=10.1.0.7 NodeHostName=dgx007-ib State=MIXED+DRAIN Weight=1 "
        "Reason=topoplace: ib: mlx5_4 missing [root@2026-11-23T10:00:00] Comment=(null)\n");
    ASSERT_EQ(n.size(), 1U);
    EXPECT_EQ(n[0].reason, "topoplace: ib: mlx5_4 missing");
    EXPECT_TRUE(n[0].ours());
    EXPECT_TRUE(n[0].drained());
    EXPECT_EQ(short_name("dgx007.cluster.example.org"), "dgx007");
    EXPECT_EQ(short_name("dgx007"), "dgx007");
    EXPECT_EQ(short_name("10.1.0.7"), "10.1.0.7");
}

TEST(HealthSlurm, ManualDrainNeverTouched) {
    SlurmNode n;
    n.name = "n002";
    n.state = "IDLE+DRAIN";
    n.reason = "NHC: check_fs_mount: /scratch not mounted";
    Scontrol sc;
    sc.program = "/nonexistent/scontrol";  // any call would fail the test
    auto a = apply_lifecycle(sc, n, true, "");
    ASSERT_TRUE(a) << a.error().to_string();
    EXPECT_EQ(*a, Action::KeptManualDrain);
    auto b = apply_lifecycle(sc, n, false, "ib: mlx5_0 missing");
    ASSERT_TRUE(b);
    EXPECT_EQ(*b, Action::KeptManualDrain);
    // Healthy and not drained: nothing to do, no scontrol call.
    n.state = "ALLOCATED";
    n.reason.clear();
    auto c = apply_lifecycle(sc, n, true, "");
    ASSERT_TRUE(c);
    EXPECT_EQ(*c, Action::None);
}
