// SPDX-License-Identifier: Apache-2.0
// The compiled snapshot (<snapshot>.bin): a cache of the JSON that must give the very same
// model (fingerprint, re-serialised JSON bytes) and must be refused, cleanly, whenever it is
// not trusted, not current or not intact; load_snapshot_fast then reads the JSON instead.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <topo/builder.hpp>
#include <topo/cluster_spec.hpp>
#include <topo/ib_fabric.hpp>
#include <topo/nvidia_smi_topo.hpp>
#include <topo/snapshot.hpp>
#include <topo/snapshot_bin.hpp>
#include <topo/text_input.hpp>

#include "fixture_models.hpp"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef TOPO_HAVE_HWLOC
#include <topo/hwloc_reader.hpp>
#endif

namespace fs = std::filesystem;
using namespace topo;

namespace {

std::string fixture(const std::string& rel) {
    return std::string(TOPO_FIXTURES) + "/" + rel;
}

TopologyPtr from_spec(const std::string& rel) {
    TopologyBuilder b;
    EXPECT_TRUE(load_cluster_spec(fixture(rel), b));
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t) << t.error().to_string();
    return t ? *t : nullptr;
}

/// The lab's snapshot (what t-spank.sh discovers): 3-level spec + GPU/NIC locality.
TopologyPtr lab_model() {
    TopologyBuilder b;
    EXPECT_TRUE(load_cluster_spec(fixture("lab/lab-3tier.spec.yaml"), b));
    auto nd = read_nvidia_smi_topo_file(fixture("lab/lab-8gpu-2nic.topo-m.txt"));
    EXPECT_TRUE(nd) << nd.error().to_string();
    for (const auto& h : b.host_names()) b.apply_node_description(h, *nd);
    auto t = std::move(b).freeze();
    EXPECT_TRUE(t) << t.error().to_string();
    return t ? *t : nullptr;
}

void spit(const std::string& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f << bytes;
}

class SnapshotBin : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/topo-snapbin-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }

    void TearDown() override { fs::remove_all(dir_); }

    std::string path(const std::string& name) const { return dir_ + "/" + name; }

    /// `good` with the payload byte at `frac` of the payload (after the header) XOR `bit`.
    static std::string flip_payload(const std::string& good, double frac, char bit) {
        const std::size_t h = kSnapshotBinHeader;
        std::string bad = good;
        bad[h + static_cast<std::size_t>(static_cast<double>(good.size() - h) * frac)] ^= bit;
        return bad;
    }

    /// JSON -> file -> compile -> load the .bin: same fingerprint, same JSON bytes.
    void expect_round_trip(const Topology& t, const std::string& what) {
        SCOPED_TRACE(what);
        const std::string json = path("snap.json");
        const std::string js = to_snapshot_json(t);
        ASSERT_TRUE(write_text_file(json, js));
        ASSERT_TRUE(compile_snapshot(json, snapshot_bin_path(json)));
        auto u = load_snapshot_bin(json, snapshot_bin_path(json), ::geteuid());
        ASSERT_TRUE(u) << u.error().to_string();
        EXPECT_EQ((*u)->fingerprint(), t.fingerprint());
        EXPECT_EQ(to_snapshot_json(**u), js);
        EXPECT_EQ((*u)->tiers(), t.tiers());
        EXPECT_EQ((*u)->rails(), t.rails());
        EXPECT_EQ((*u)->groups().size(), t.groups().size());
        EXPECT_EQ((*u)->nvl_domains().size(), t.nvl_domains().size());
        auto fast = load_snapshot_fast(json, ::geteuid());
        ASSERT_TRUE(fast) << fast.error().to_string();
        EXPECT_TRUE(fast->from_bin) << fast->why_not_bin;
        EXPECT_EQ(fast->topo->fingerprint(), t.fingerprint());
        // the plugin's check (recorded fingerprint, not re-hashed): the same model, whose
        // own hash is the recorded one (a fresh JSON load of its output hashes to it)
        auto quick = load_snapshot_fast(json, ::geteuid(), BinCheck::Checksum);
        ASSERT_TRUE(quick) << quick.error().to_string();
        EXPECT_TRUE(quick->from_bin) << quick->why_not_bin;
        EXPECT_EQ(quick->topo->fingerprint(), t.fingerprint());
        const std::string quick_json = to_snapshot_json(*quick->topo);
        EXPECT_EQ(quick_json, js);
        auto reloaded = from_snapshot_json(quick_json, "quick.json");  // re-hashes, checks the recorded one
        ASSERT_TRUE(reloaded) << reloaded.error().to_string();
        EXPECT_EQ((*reloaded)->fingerprint(), t.fingerprint());
        ++round_trips_;
    }

    std::string dir_;
    int round_trips_ = 0;
};

}  // namespace

TEST_F(SnapshotBin, RealFixturesRoundTripToIdenticalJson) {
    // ibnetdiscover dumps; cluster files (declared domains, NVSwitches); GPU-NIC paths and
    // NVLink pairs of every nvidia-smi matrix and hwloc XML
    for (const char* kind : {"ibnetdiscover", "specs", "nodes"})
        test::for_each_fixture_model(kind, [&](const Topology& t, const std::string& p) { expect_round_trip(t, p); });
    auto lab = lab_model();
    ASSERT_TRUE(lab);
    expect_round_trip(*lab, "lab");
    EXPECT_GE(round_trips_, 18);
}

TEST_F(SnapshotBin, DeclaredDomainsAndNvSwitchesSurvive) {
    auto t = from_spec("specs/gb200-nvl72x4.yaml");
    ASSERT_TRUE(t);
    ASSERT_EQ(t->nvl_domains().size(), 4U);
    expect_round_trip(*t, "gb200");
#ifdef TOPO_HAVE_HWLOC
    auto nd = read_hwloc_xml(fixture("hwloc/hwloc-nvidia-dgx2h-v100x16-nvswitch.xml"));
    ASSERT_TRUE(nd) << nd.error().to_string();
    TopologyBuilder b;
    b.add_host("dgx2", HostRole::Compute);
    b.apply_node_description("dgx2", std::move(*nd));
    auto d = std::move(b).freeze();
    ASSERT_TRUE(d) << d.error().to_string();
    ASSERT_FALSE((*d)->nvswitches().empty());
    expect_round_trip(**d, "dgx2 nvswitches");
#endif
}

TEST_F(SnapshotBin, RefusesWrongMagicVersionAndTruncation) {
    auto t = from_spec("specs/dgx-h100-3tier.yaml");
    ASSERT_TRUE(t);
    const FileStamp st{1234, 5, 6, 7, 8};
    const std::string good = to_snapshot_bin(*t, st);
    ASSERT_TRUE(from_snapshot_bin(good, st, "x.bin"));

    std::string bad = good;
    bad[0] = 'X';
    auto r = from_snapshot_bin(bad, st, "x.bin");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::Parse);
    EXPECT_NE(r.error().message.find("magic"), std::string::npos) << r.error().message;

    bad = good;
    bad[8] = 2;  // format version 2
    r = from_snapshot_bin(bad, st, "x.bin");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::Unsupported);

    bad = good;
    bad[12] ^= 0x7;  // endian probe
    EXPECT_FALSE(from_snapshot_bin(bad, st, "x.bin"));

    // every prefix is refused (header, payload size), never read past the end
    for (std::size_t n = 0; n < good.size(); n += (n < 200 ? 1 : 97)) {
        auto p = from_snapshot_bin(std::string_view(good).substr(0, n), st, "x.bin");
        ASSERT_FALSE(p) << n;
        EXPECT_EQ(p.error().code, Errc::Parse) << n;
        EXPECT_NE(p.error().message.find("truncated"), std::string::npos) << p.error().message;
    }
    EXPECT_FALSE(from_snapshot_bin(good + "x", st, "x.bin"));  // trailing garbage
}

TEST_F(SnapshotBin, RefusesAnotherJsonStamp) {
    auto t = from_spec("specs/dgx-h100-3tier.yaml");
    ASSERT_TRUE(t);
    const FileStamp st{1234, 5, 6, 7, 8};
    const std::string good = to_snapshot_bin(*t, st);
    for (int field = 0; field < 5; ++field) {
        FileStamp other = st;
        (field == 0   ? other.size
         : field == 1 ? reinterpret_cast<std::uint64_t&>(other.mtime_sec)
         : field == 2 ? reinterpret_cast<std::uint64_t&>(other.mtime_nsec)
         : field == 3 ? other.ino
                      : other.dev) += 1;
        auto r = from_snapshot_bin(good, other, "x.bin");
        ASSERT_FALSE(r) << field;
        EXPECT_EQ(r.error().code, Errc::StaleState) << field;
    }
}

TEST_F(SnapshotBin, CorruptPayloadIsACleanError) {
    auto t = lab_model();
    ASSERT_TRUE(t);
    const FileStamp st{1, 2, 3, 4, 5};
    const std::string good = to_snapshot_bin(*t, st);
    // a flipped payload byte: the checksum refuses it
    auto r = from_snapshot_bin(flip_payload(good, 0.5, 0x40), st, "x.bin");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("checksum"), std::string::npos) << r.error().message;
    // with the checksum fixed up, the decoder and the fingerprint must refuse it (or, for a
    // byte that changes nothing the model hashes, e.g. a warning text, load the same model)
    const std::size_t h = kSnapshotBinHeader;
    int refused = 0;
    int loaded = 0;
    for (std::size_t i = h; i < good.size(); i += 1 + (good.size() - h) / 1500) {
        for (unsigned char x : {0x01, 0xff}) {
            std::string s = good;
            s[i] = static_cast<char>(static_cast<unsigned char>(s[i]) ^ x);
            const std::uint64_t c = snapshot_bin_checksum(std::string_view(s).substr(h));
            std::memcpy(s.data() + 80, &c, 8);
            auto u = from_snapshot_bin(s, st, "x.bin");
            if (u) {
                EXPECT_EQ((*u)->fingerprint(), t->fingerprint()) << i;
                ++loaded;
            } else {
                EXPECT_TRUE(u.error().code == Errc::Parse) << i << " " << u.error().to_string();
                ++refused;
            }
        }
    }
    EXPECT_GT(refused, 1000);
    EXPECT_GE(refused + loaded, 2900);
    // a huge row count is refused before anything is allocated
    std::string huge = good;
    const std::uint32_t n = 0xfffffff0U;
    std::memcpy(huge.data() + h, &n, 4);  // switches count
    const std::uint64_t c = snapshot_bin_checksum(std::string_view(huge).substr(h));
    std::memcpy(huge.data() + 80, &c, 8);
    r = from_snapshot_bin(huge, st, "x.bin");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("cannot fit"), std::string::npos) << r.error().message;
}

TEST_F(SnapshotBin, ChecksumModeTakesTheRecordedFingerprintOnly) {
    auto t = lab_model();
    ASSERT_TRUE(t);
    const FileStamp st{1, 2, 3, 4, 5};
    const std::string good = to_snapshot_bin(*t, st);
    // the payload checksum and the stamp still refuse in Checksum mode
    const std::string bad = flip_payload(good, 1.0 / 3, 0x08);
    auto r = from_snapshot_bin(bad, st, "x.bin", BinCheck::Checksum);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("checksum"), std::string::npos) << r.error().message;
    r = from_snapshot_bin(good, FileStamp{1, 2, 3, 4, 6}, "x.bin", BinCheck::Checksum);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::StaleState);
    // a recorded fingerprint that is not 16 lower-case hex digits is refused
    for (const char* fp : {"", "0123456789abcde", "0123456789ABCDEF", "0123456789abcdeg"}) {
        std::string s = good;
        std::memset(s.data() + 56, 0, 16);
        std::memcpy(s.data() + 56, fp, std::strlen(fp));
        r = from_snapshot_bin(s, st, "x.bin", BinCheck::Checksum);
        ASSERT_FALSE(r) << fp;
        EXPECT_EQ(r.error().code, Errc::Parse) << fp;
    }
    // another well-formed fingerprint in the header: the full check refuses it, the
    // checksum mode reports what was recorded (what it trusts, and all it trusts)
    std::string other = good;
    std::memcpy(other.data() + 56, "0123456789abcdef", 16);
    r = from_snapshot_bin(other, st, "x.bin");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("fingerprint mismatch"), std::string::npos) << r.error().message;
    r = from_snapshot_bin(other, st, "x.bin", BinCheck::Checksum);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ((*r)->fingerprint(), "0123456789abcdef");
    r = from_snapshot_bin(good, st, "x.bin", BinCheck::Checksum);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ((*r)->fingerprint(), t->fingerprint());
}

TEST_F(SnapshotBin, TrustedOnlyWhenOwnedAndNotWritableByOthers) {
    auto t = from_spec("specs/dgx-h100-3tier.yaml");
    ASSERT_TRUE(t);
    const std::string json = path("t.json");
    const std::string bin = snapshot_bin_path(json);
    ASSERT_TRUE(save_snapshot(*t, json));
    const mode_t old_mask = ::umask(0);
    const bool compiled = static_cast<bool>(compile_snapshot(json, bin));
    ::umask(old_mask);
    ASSERT_TRUE(compiled);

    struct stat sb {};

    ASSERT_EQ(::stat(bin.c_str(), &sb), 0);
    EXPECT_EQ(sb.st_mode & 07777, 0644U) << "compile writes 0644 whatever the umask";
    ASSERT_TRUE(load_snapshot_bin(json, bin, ::geteuid()));

    auto r = load_snapshot_bin(json, bin, ::geteuid() + 1);  // owned by someone else than trusted
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::Unsupported);
    EXPECT_NE(r.error().message.find("owned by uid"), std::string::npos) << r.error().message;
    auto fast = load_snapshot_fast(json, ::geteuid() + 1);
    ASSERT_TRUE(fast);
    EXPECT_FALSE(fast->from_bin);
    EXPECT_NE(fast->why_not_bin.find("owned by uid"), std::string::npos);
    EXPECT_EQ(fast->topo->fingerprint(), t->fingerprint());

    if (::geteuid() == 0) {  // a real foreign owner
        ASSERT_EQ(::chown(bin.c_str(), 65534, 65534), 0);
        r = load_snapshot_bin(json, bin, 0);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, Errc::Unsupported);
        ASSERT_EQ(::chown(bin.c_str(), 0, 0), 0);
    }
    for (mode_t m : {0664, 0646, 0666}) {
        ASSERT_EQ(::chmod(bin.c_str(), m), 0);
        r = load_snapshot_bin(json, bin, ::geteuid());
        ASSERT_FALSE(r) << m;
        EXPECT_NE(r.error().message.find("writable"), std::string::npos) << r.error().message;
    }
    ASSERT_EQ(::chmod(bin.c_str(), 0444), 0);
    EXPECT_TRUE(load_snapshot_bin(json, bin, ::geteuid()));

    // a symlink is not followed
    const std::string link = path("link.bin");
    ASSERT_EQ(::symlink(bin.c_str(), link.c_str()), 0);
    EXPECT_FALSE(load_snapshot_bin(json, link, ::geteuid()));
    // missing: NotFound, and the fast path reads the JSON
    r = load_snapshot_bin(json, path("none.bin"), ::geteuid());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::NotFound);
}

TEST_F(SnapshotBin, AChangedJsonWinsOverAStaleCompiledForm) {
    auto a = from_spec("specs/dgx-h100-3tier.yaml");
    auto b = lab_model();
    ASSERT_TRUE(a && b);
    const std::string json = path("s.json");
    ASSERT_TRUE(save_snapshot(*a, json));
    ASSERT_TRUE(compile_snapshot(json, snapshot_bin_path(json)));
    auto f1 = load_snapshot_fast(json, ::geteuid());
    ASSERT_TRUE(f1);
    EXPECT_TRUE(f1->from_bin);
    EXPECT_EQ(f1->topo->fingerprint(), a->fingerprint());

    // same content, touched: mtime differs -> stale -> JSON
    struct timespec ts[2] = {{1, 0}, {1, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, json.c_str(), ts, 0), 0);
    auto f2 = load_snapshot_fast(json, ::geteuid());
    ASSERT_TRUE(f2);
    EXPECT_FALSE(f2->from_bin);
    EXPECT_NE(f2->why_not_bin.find("another version of the JSON"), std::string::npos) << f2->why_not_bin;

    // replaced by another snapshot (rename: new inode): the new JSON's model, not the cached one
    ASSERT_TRUE(save_snapshot(*b, json));
    auto f3 = load_snapshot_fast(json, ::geteuid());
    ASSERT_TRUE(f3);
    EXPECT_FALSE(f3->from_bin);
    EXPECT_EQ(f3->topo->fingerprint(), b->fingerprint());

    // rewritten in place with the same size and a forged mtime is the one case the stamp
    // cannot see; the compiled form then still carries the model it was made from, intact.
    // Corrupt JSON with a stale .bin: the JSON's error, never the cached model.
    spit(json, "{\"schema\": \"topoplace.snapshot\", \"version\": 2, \"hosts\": [");
    auto f4 = load_snapshot_fast(json, ::geteuid());
    ASSERT_FALSE(f4);
    EXPECT_EQ(f4.error().code, Errc::Parse);
    // and a missing JSON is the JSON loader's Io error
    fs::remove(json);
    auto f5 = load_snapshot_fast(json, ::geteuid());
    ASSERT_FALSE(f5);
    EXPECT_EQ(f5.error().code, Errc::Io);
}

TEST_F(SnapshotBin, CompileRefusesABadJson) {
    const std::string json = path("bad.json");
    spit(json, "{\"schema\": \"topoplace.snapshot\", \"version\": 2}");
    auto st = compile_snapshot(json, snapshot_bin_path(json));
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().code, Errc::Parse);
    EXPECT_FALSE(fs::exists(snapshot_bin_path(json)));
    EXPECT_FALSE(compile_snapshot(path("missing.json"), path("missing.json.bin")));
}
