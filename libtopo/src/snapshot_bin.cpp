// SPDX-License-Identifier: Apache-2.0
// The compiled snapshot: the JSON tables' primary facts in a binary encoding, rebuilt
// through TopologyAccess::finish like the JSON loader (docs/snapshot.md "Compiled form").
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <tuple>
#include <vector>

#include <topo/atomic_file.hpp>
#include <topo/errno_text.hpp>
#include <topo/snapshot.hpp>
#include <topo/snapshot_bin.hpp>

#include "topology_impl.hpp"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace topo {

namespace {

// Header, little-endian, 96 bytes:
//   0 magic[8]  8 u32 version  12 u32 endian probe 0x01020304
//  16 u64 json size  24 i64 json mtime s  32 i64 json mtime ns  40 u64 json inode  48 u64 json dev
//  56 char fingerprint[16] (hex, the model's)  72 u64 payload size  80 u64 payload checksum
//  88 u32 reserved[2]  96 payload
constexpr std::size_t kHeader = kSnapshotBinHeader;
constexpr std::uint32_t kEndian = 0x01020304;

}  // namespace

/// FNV-1a-style over 8-byte words (tail zero-padded): cheap corruption check of the payload.
std::uint64_t snapshot_bin_checksum(std::string_view p) noexcept {
    std::uint64_t h = 1469598103934665603ULL;
    std::size_t i = 0;
    for (; i + 8 <= p.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p.data() + i, 8);
        h = (h ^ w) * 1099511628211ULL;
    }
    std::uint64_t w = 0;
    std::memcpy(&w, p.data() + i, p.size() - i);
    h = (h ^ w ^ p.size()) * 1099511628211ULL;
    return h;
}

namespace {

class Writer {
public:
    template <class T>
    void pod(T v) {
        const auto n = out_.size();
        out_.resize(n + sizeof v);
        std::memcpy(out_.data() + n, &v, sizeof v);
    }

    void u8(unsigned v) { out_.push_back(static_cast<char>(v)); }

    void u32(std::uint32_t v) { pod(v); }

    void i32(int v) { pod(static_cast<std::int32_t>(v)); }

    void f64(double v) { pod(v); }

    template <class Tag>
    void id(Id<Tag> v) {
        pod(v.index());
    }  // invalid = UINT32_MAX

    void str(std::string_view s) {
        u32(static_cast<std::uint32_t>(s.size()));
        out_.append(s);
    }

    std::string& out() { return out_; }

private:
    std::string out_;
};

struct Corrupt {
    std::string msg;
};

class Reader {
public:
    explicit Reader(std::string_view b) : p_(b.data()), end_(b.data() + b.size()) {}

    template <class T>
    T pod() {
        if (static_cast<std::size_t>(end_ - p_) < sizeof(T)) throw Corrupt{"truncated payload"};
        T v;
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
        return v;
    }

    unsigned u8() { return pod<std::uint8_t>(); }

    std::uint32_t u32() { return pod<std::uint32_t>(); }

    int i32() { return pod<std::int32_t>(); }

    double f64() { return pod<double>(); }

    std::string str() {
        const std::uint32_t n = u32();
        if (static_cast<std::size_t>(end_ - p_) < n) throw Corrupt{"truncated string"};
        std::string s(p_, n);
        p_ += n;
        return s;
    }

    /// A table's row count, bounded by what the remaining bytes can hold.
    std::size_t count(std::size_t min_row, const char* table) {
        const std::uint32_t n = u32();
        if (static_cast<std::size_t>(end_ - p_) / min_row < n) {
            throw Corrupt{std::string("table ") + table + ": " + std::to_string(n) + " rows cannot fit"};
        }
        return n;
    }

    [[nodiscard]] bool done() const { return p_ == end_; }

private:
    const char* p_;
    const char* end_;
};

template <class E>
E enum_at(unsigned v, unsigned count, const char* what) {
    if (v >= count) throw Corrupt{std::string("bad ") + what + " " + std::to_string(v)};
    return static_cast<E>(v);
}

std::uint32_t index_at(std::uint32_t v, std::size_t size, const char* what) {
    if (v >= size) throw Corrupt{std::string(what) + " index " + std::to_string(v) + " out of range"};
    return v;
}

FileStamp stamp_from(const struct stat& st) {
    FileStamp s;
    s.size = static_cast<std::uint64_t>(st.st_size);
    s.mtime_sec = st.st_mtim.tv_sec;
    s.mtime_nsec = st.st_mtim.tv_nsec;
    s.ino = st.st_ino;
    s.dev = st.st_dev;
    return s;
}

}  // namespace

Result<FileStamp> stamp_of(const std::string& path) {
    struct stat st {};

    if (::stat(path.c_str(), &st) != 0) return fail(Errc::Io, "cannot stat: " + errno_text(errno), path);
    return stamp_from(st);
}

std::string snapshot_bin_path(const std::string& json_path) {
    return json_path + ".bin";
}

std::string to_snapshot_bin(const Topology& t, const FileStamp& json) {
    Writer w;
    // primary facts only, in the order the JSON loader fills them
    w.u32(static_cast<std::uint32_t>(t.switches().size()));
    for (const auto& s : t.switches()) {
        w.str(s.guid);
        w.str(s.name);
        w.str(s.description);
        w.i32(s.num_ports);
        w.u8(static_cast<unsigned>(s.provenance));
    }
    w.u32(static_cast<std::uint32_t>(t.hosts().size()));
    for (const auto& h : t.hosts()) {
        w.str(h.name);
        w.u8(static_cast<unsigned>(h.role));
        w.str(h.sysimg_guid);
        w.u8(static_cast<unsigned>(h.provenance));
    }
    w.u32(static_cast<std::uint32_t>(t.nics().size()));
    for (const auto& n : t.nics()) {
        w.id(n.host);
        w.str(n.name);
        w.str(n.guid);
        w.str(n.pci_bus);
        w.id(n.leaf);
        w.i32(n.leaf_port);
        w.str(n.rate);
        w.f64(n.rate_gbps);
        w.i32(n.numa);
        w.u8(static_cast<unsigned>(n.provenance));
    }
    w.u32(static_cast<std::uint32_t>(t.gpus().size()));
    for (const auto& g : t.gpus()) {
        w.id(g.host);
        w.i32(g.index);
        w.str(g.model);
        w.str(g.pci_bus);
        w.str(g.uuid);
        w.i32(g.numa);
    }
    std::uint32_t known = 0;
    for (const auto& p : t.gpu_nic_paths()) known += p.cls != PathClass::Unknown ? 1 : 0;
    w.u32(known);
    for (const auto& p : t.gpu_nic_paths()) {
        if (p.cls == PathClass::Unknown) continue;  // as in the JSON ('?')
        w.id(p.gpu);
        w.id(p.nic);
        w.u8(static_cast<unsigned>(p.cls));
    }
    w.u32(static_cast<std::uint32_t>(t.nvlinks().size()));
    for (const auto& p : t.nvlinks()) {
        w.id(p.a);
        w.id(p.b);
        w.i32(p.links);
        w.f64(p.gbps);
    }
    std::uint32_t cables = 0;
    for (const auto& l : t.links()) cables += l.nic.valid() ? 0 : 1;
    w.u32(cables);
    for (const auto& l : t.links()) {
        if (l.nic.valid()) continue;  // NIC cables are rebuilt from the NICs
        w.u8(static_cast<unsigned>(l.kind));
        w.id(l.a);
        w.id(l.b);
        w.i32(l.port_a);
        w.i32(l.port_b);
        w.f64(l.gbps);
        w.str(l.rate);
    }
    std::uint32_t multi = 0;
    for (const auto& d : t.nvl_domains()) multi += d.multi_node ? 1 : 0;
    w.u32(multi);
    for (const auto& d : t.nvl_domains()) {
        if (!d.multi_node) continue;  // per-host islands are derived from nvlinks
        w.str(d.name);
        w.i32(d.usable_hosts);
        w.u32(static_cast<std::uint32_t>(d.hosts.size()));
        for (auto h : d.hosts) w.id(h);
    }
    w.u32(static_cast<std::uint32_t>(t.nvswitches().size()));
    for (const auto& s : t.nvswitches()) {
        w.id(s.host);
        w.str(s.pci_bus);
        w.f64(s.gbps);
        w.u32(static_cast<std::uint32_t>(s.gpus.size()));
        for (auto g : s.gpus) w.id(g);
    }
    w.u32(static_cast<std::uint32_t>(t.warnings().size()));
    for (const auto& s : t.warnings()) w.str(s);
    const std::string payload = std::move(w.out());

    Writer h;
    h.out().append(kSnapshotBinMagic);
    h.u32(kSnapshotBinVersion);
    h.u32(kEndian);
    h.pod(json.size);
    h.pod(json.mtime_sec);
    h.pod(json.mtime_nsec);
    h.pod(json.ino);
    h.pod(json.dev);
    std::string fp = t.fingerprint();
    fp.resize(16, '\0');
    h.out().append(fp);
    h.pod(static_cast<std::uint64_t>(payload.size()));
    h.pod(snapshot_bin_checksum(payload));
    h.u32(0);
    h.u32(0);
    std::string out = std::move(h.out());
    out += payload;
    return out;
}

Result<TopologyPtr> from_snapshot_bin(std::string_view b, const FileStamp& json, const std::string& source,
                                      BinCheck check) {
    if (b.size() < kHeader) return fail(Errc::Parse, "compiled snapshot truncated (header)", source);
    if (b.substr(0, 8) != kSnapshotBinMagic)
        return fail(Errc::Parse, "not a compiled topoplace snapshot (magic)", source);
    auto at = [&](std::size_t off, auto v) {
        std::memcpy(&v, b.data() + off, sizeof v);
        return v;
    };
    const auto version = at(8, std::uint32_t{});
    if (version != kSnapshotBinVersion || at(12, std::uint32_t{}) != kEndian) {
        return fail(Errc::Unsupported,
                    "compiled snapshot format " + std::to_string(version) + " is not the one this build reads ("
                        + std::to_string(kSnapshotBinVersion) + ")",
                    source);
    }
    FileStamp rec;
    rec.size = at(16, std::uint64_t{});
    rec.mtime_sec = at(24, std::int64_t{});
    rec.mtime_nsec = at(32, std::int64_t{});
    rec.ino = at(40, std::uint64_t{});
    rec.dev = at(48, std::uint64_t{});
    if (!(rec == json)) {
        return fail(Errc::StaleState,
                    "compiled snapshot was made from another version of the JSON (size/mtime/inode differ)", source);
    }
    std::string stored_fp(b.substr(56, 16));
    stored_fp.resize(std::strlen(stored_fp.c_str()));
    const auto psize = at(72, std::uint64_t{});
    if (psize != b.size() - kHeader) return fail(Errc::Parse, "compiled snapshot truncated (payload size)", source);
    const std::string_view payload = b.substr(kHeader);
    if (snapshot_bin_checksum(payload) != at(80, std::uint64_t{}))
        return fail(Errc::Parse, "compiled snapshot corrupt (checksum)", source);

    auto topo = std::make_shared<Topology>();
    Topology& t = *topo;
    auto [hosts, nics, gpus, switches, links, gpu_nic, nvlinks, nvswitches] = TopologyAccess::tables(t);
    std::vector<DeclaredDomain> declared;
    try {
        Reader r(payload);
        constexpr auto kProv = 3U;
        switches.resize(r.count(4 * 3 + 4 + 1, "switches"));
        for (auto& s : switches) {
            s.guid = r.str();
            s.name = r.str();
            s.description = r.str();
            s.num_ports = r.i32();
            s.provenance = enum_at<Provenance>(r.u8(), kProv, "switch provenance");
        }
        hosts.resize(r.count(4 + 1 + 4 + 1, "hosts"));
        for (auto& h : hosts) {
            h.name = r.str();
            h.role = enum_at<HostRole>(r.u8(), 3, "host role");
            h.sysimg_guid = r.str();
            h.provenance = enum_at<Provenance>(r.u8(), kProv, "host provenance");
        }
        nics.resize(r.count(4 * 8 + 8 + 1, "nics"));
        for (std::size_t i = 0; i < nics.size(); ++i) {
            Nic& n = nics[i];
            const auto hi = index_at(r.u32(), hosts.size(), "nic host");
            n.host = HostId(hi);
            n.name = r.str();
            n.guid = r.str();
            n.pci_bus = r.str();
            const auto leaf = r.u32();
            n.leaf = leaf == UINT32_MAX ? SwitchId{} : SwitchId(index_at(leaf, switches.size(), "nic leaf"));
            n.leaf_port = r.i32();
            n.rate = r.str();
            n.rate_gbps = r.f64();
            n.numa = r.i32();
            n.provenance = enum_at<Provenance>(r.u8(), kProv, "nic provenance");
            hosts[hi].nics.emplace_back(static_cast<std::uint32_t>(i));
        }
        gpus.resize(r.count(4 * 6, "gpus"));
        for (std::size_t i = 0; i < gpus.size(); ++i) {
            Gpu& g = gpus[i];
            const auto hi = index_at(r.u32(), hosts.size(), "gpu host");
            g.host = HostId(hi);
            g.index = r.i32();
            g.model = r.str();
            g.pci_bus = r.str();
            g.uuid = r.str();
            g.numa = r.i32();
            hosts[hi].gpus.emplace_back(static_cast<std::uint32_t>(i));
        }
        gpu_nic.resize(r.count(9, "gpu_nic"));
        for (std::size_t i = 0; i < gpu_nic.size(); ++i) {
            GpuNicPath& p = gpu_nic[i];
            p.gpu = GpuId(index_at(r.u32(), gpus.size(), "gpu_nic gpu"));
            p.nic = NicId(index_at(r.u32(), nics.size(), "gpu_nic nic"));
            p.cls = enum_at<PathClass>(r.u8(), static_cast<unsigned>(PathClass::Unknown), "path class");
            if (nics[p.nic.index()].host != gpus[p.gpu.index()].host) throw Corrupt{"gpu_nic: NIC of another host"};
            if (i > 0 && !(std::tie(gpu_nic[i - 1].gpu, gpu_nic[i - 1].nic) < std::tie(p.gpu, p.nic))) {
                throw Corrupt{"gpu_nic: not sorted"};
            }
        }
        nvlinks.resize(r.count(20, "nvlinks"));
        for (std::size_t i = 0; i < nvlinks.size(); ++i) {
            NvLinkPair& p = nvlinks[i];
            p.a = GpuId(index_at(r.u32(), gpus.size(), "nvlink gpu"));
            p.b = GpuId(index_at(r.u32(), gpus.size(), "nvlink gpu"));
            p.links = r.i32();
            p.gbps = r.f64();
            if (!(p.a < p.b) || gpus[p.a.index()].host != gpus[p.b.index()].host) throw Corrupt{"nvlinks: bad pair"};
            if (i > 0 && !(std::tie(nvlinks[i - 1].a, nvlinks[i - 1].b) < std::tie(p.a, p.b))) {
                throw Corrupt{"nvlinks: not sorted"};
            }
        }
        links.resize(r.count(1 + 4 * 5 + 8, "links"));
        for (auto& l : links) {
            l.kind = enum_at<LinkKind>(r.u8(), 3, "link kind");
            l.a = SwitchId(index_at(r.u32(), switches.size(), "link switch"));
            l.b = SwitchId(index_at(r.u32(), switches.size(), "link switch"));
            if (l.a == l.b) throw Corrupt{"links: switch cabled to itself"};
            l.port_a = r.i32();
            l.port_b = r.i32();
            l.gbps = r.f64();
            l.rate = r.str();
        }
        declared.resize(r.count(12, "nvl_domains"));
        for (auto& d : declared) {
            d.name = r.str();
            d.usable_hosts = r.i32();
            d.hosts.resize(r.count(4, "nvl_domain hosts"));
            for (auto& h : d.hosts) h = HostId(index_at(r.u32(), hosts.size(), "nvl_domain host"));
            std::sort(d.hosts.begin(), d.hosts.end());
        }
        nvswitches.resize(r.count(4 + 4 + 8 + 4, "nvswitches"));
        for (auto& s : nvswitches) {
            s.host = HostId(index_at(r.u32(), hosts.size(), "nvswitch host"));
            s.pci_bus = r.str();
            s.gbps = r.f64();
            s.gpus.resize(r.count(4, "nvswitch gpus"));
            for (auto& g : s.gpus) {
                g = GpuId(index_at(r.u32(), gpus.size(), "nvswitch gpu"));
                if (gpus[g.index()].host != s.host) throw Corrupt{"nvswitches: GPU of another host"};
            }
        }
        auto& warnings = TopologyAccess::warnings(t);
        warnings.resize(r.count(4, "warnings"));
        for (auto& s : warnings) s = r.str();
        if (!r.done()) throw Corrupt{"trailing bytes after the last table"};
    } catch (const Corrupt& e) {
        return fail(Errc::Parse, "compiled snapshot corrupt: " + e.msg, source);
    }
    if (check == BinCheck::Checksum
        && (stored_fp.size() != 16 || !std::all_of(stored_fp.begin(), stored_fp.end(), [](char c) {
                return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
            }))) {
        return fail(Errc::Parse, "compiled snapshot corrupt: fingerprint field", source);
    }
    auto done = TopologyAccess::finish(std::move(topo), declared, check == BinCheck::Checksum ? &stored_fp : nullptr);
    if (!done) {
        Error e = std::move(done).error();
        e.file = source;
        return fail(std::move(e));
    }
    if (stored_fp != (*done)->fingerprint()) {
        return fail(Errc::Parse,
                    "fingerprint mismatch: compiled snapshot says " + stored_fp + ", content hashes to "
                        + (*done)->fingerprint(),
                    source);
    }
    return done;
}

Status compile_snapshot(const std::string& json_path, const std::string& bin_path) {
    // The stamp is taken before loading: if the JSON is replaced meanwhile, the compiled form
    // names the old file and is ignored (stale), never wrongly trusted.
    auto stamp = stamp_of(json_path);
    if (!stamp) return fail(std::move(stamp).error());
    auto topo = load_snapshot(json_path);
    if (!topo) return fail(std::move(topo).error());
    auto again = stamp_of(json_path);
    if (!again || !(*again == *stamp)) {
        return fail(Errc::Io, "the JSON changed while it was compiled; run again", json_path);
    }
    const std::string bytes = to_snapshot_bin(**topo, *stamp);
    return write_file_atomic(bin_path, bytes, 0644);  // never group/world-writable, whatever the umask
}

Result<TopologyPtr> load_snapshot_bin(const std::string& json_path, const std::string& bin_path, uid_t trusted_uid,
                                      BinCheck check) {
    auto stamp = stamp_of(json_path);
    if (!stamp) return fail(std::move(stamp).error());
    const int fd = ::open(bin_path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return fail(errno == ENOENT ? Errc::NotFound : Errc::Io, "cannot open: " + errno_text(errno), bin_path);

    struct Closer {
        int fd;

        ~Closer() { ::close(fd); }
    } closer{fd};

    struct stat st {};

    if (::fstat(fd, &st) != 0) return fail(Errc::Io, "cannot stat: " + errno_text(errno), bin_path);
    if (!S_ISREG(st.st_mode)) return fail(Errc::Unsupported, "not a regular file; not trusted", bin_path);
    if (st.st_uid != trusted_uid) {
        return fail(Errc::Unsupported,
                    "owned by uid " + std::to_string(st.st_uid) + ", not by uid " + std::to_string(trusted_uid)
                        + "; not trusted",
                    bin_path);
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        return fail(Errc::Unsupported, "group/world-writable; not trusted", bin_path);
    }
    if (st.st_size < 0 || st.st_size > (1LL << 32)) return fail(Errc::Parse, "implausible size", bin_path);
    std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t off = 0;
    while (off < bytes.size()) {
        const auto n = ::read(fd, bytes.data() + off, bytes.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return fail(Errc::Io, "read failed: " + errno_text(errno), bin_path);
        if (n == 0) break;
        off += static_cast<std::size_t>(n);
    }
    bytes.resize(off);
    return from_snapshot_bin(bytes, *stamp, bin_path, check);
}

Result<SnapshotLoad> load_snapshot_fast(const std::string& json_path, uid_t trusted_uid, BinCheck check) {
    SnapshotLoad out;
    auto bin = load_snapshot_bin(json_path, snapshot_bin_path(json_path), trusted_uid, check);
    if (bin) {
        out.topo = std::move(*bin);
        out.from_bin = true;
        return out;
    }
    out.why_not_bin = bin.error().to_string();
    auto js = load_snapshot(json_path);
    if (!js) return fail(std::move(js).error());
    out.topo = std::move(*js);
    return out;
}

}  // namespace topo
