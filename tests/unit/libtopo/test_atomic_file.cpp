// SPDX-License-Identifier: Apache-2.0
// The one atomic writer (issue 17 finding 5): planted links, devices and guessable temp
// names cannot redirect a write; the mode is exact; a failure leaves the target as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <topo/atomic_file.hpp>
#include <topo/text_input.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace {

struct TmpDir {
    std::filesystem::path p;

    TmpDir() {
        std::string t = (std::filesystem::temp_directory_path() / "tp-atomic-XXXXXX").string();
        p = ::mkdtemp(t.data());
    }

    ~TmpDir() { std::filesystem::remove_all(p); }
};

std::string slurp(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

TEST(AtomicFile, WritesWithTheExactModeAndLeavesNoTemporary) {
    TmpDir d;
    const auto out = d.p / "topology.conf";
    const mode_t old = ::umask(077);
    ASSERT_TRUE(topo::write_file_atomic(out.string(), "SwitchName=s0 Nodes=n1\n", 0644));
    ::umask(old);
    EXPECT_EQ(slurp(out), "SwitchName=s0 Nodes=n1\n");

    struct stat st {};

    ASSERT_EQ(::stat(out.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0644U);
    ASSERT_TRUE(topo::write_file_atomic(out.string(), "x", 0600));
    ASSERT_EQ(::stat(out.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600U);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(d.p), {}), 1);
}

TEST(AtomicFile, RefusesLinksDevicesAndDirectories) {
    TmpDir d;
    const auto victim = d.p / "victim";
    { std::ofstream(victim) << "precious\n"; }
    const auto link = d.p / "out.conf";
    ASSERT_EQ(::symlink(victim.c_str(), link.c_str()), 0);
    auto r = topo::write_file_atomic(link.string(), "evil\n");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("refusing to replace a symbolic link"), std::string::npos) << r.error().message;
    EXPECT_EQ(slurp(victim), "precious\n");
    EXPECT_TRUE(std::filesystem::is_symlink(link));

    const auto fifo = d.p / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto f = topo::write_file_atomic(fifo.string(), "x");
    ASSERT_FALSE(f);
    EXPECT_NE(f.error().message.find("a FIFO"), std::string::npos);
    auto dir = topo::write_file_atomic(d.p.string(), "x");
    ASSERT_FALSE(dir);
    EXPECT_NE(dir.error().message.find("a directory"), std::string::npos);
    // "/dev/null" itself discards: nothing written, nothing replaced
    ASSERT_TRUE(topo::write_file_atomic("/dev/null", "x"));

    struct stat dn {};

    ASSERT_EQ(::lstat("/dev/null", &dn), 0);
    EXPECT_TRUE(S_ISCHR(dn.st_mode));
    if (::geteuid() == 0) {  // a device node: what `discover -o /dev/null` used to replace
        const auto dev = d.p / "null";
        ASSERT_EQ(::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
        auto n = topo::write_file_atomic(dev.string(), "x");
        ASSERT_FALSE(n);
        EXPECT_NE(n.error().message.find("a device"), std::string::npos);

        struct stat st {};

        ASSERT_EQ(::lstat(dev.c_str(), &st), 0);
        EXPECT_TRUE(S_ISCHR(st.st_mode));
    }
}

TEST(AtomicFile, PlantedTemporaryNamesAreNotFollowed) {
    TmpDir d;
    const auto victim = d.p / "victim";
    { std::ofstream(victim) << "precious\n"; }
    const auto out = d.p / "snap.json";
    // The names earlier writers used, planted as links to the victim.
    for (const std::string& suffix : std::vector<std::string>{".tmp~", ".tmp." + std::to_string(::getpid()),
                                                              "." + std::to_string(::getpid()) + ".tmp",
                                                              ".bin.tmp." + std::to_string(::getpid())}) {
        ASSERT_EQ(::symlink(victim.c_str(), (out.string() + suffix).c_str()), 0);
    }
    ASSERT_TRUE(topo::write_text_file(out.string(), "{}\n"));
    EXPECT_EQ(slurp(out), "{}\n");
    EXPECT_EQ(slurp(victim), "precious\n");

    struct stat st {};

    ASSERT_EQ(::stat(victim.c_str(), &st), 0);
    EXPECT_NE(st.st_mode & 07777, 0U);
}

TEST(AtomicFile, FailureLeavesTheTargetAsItWas) {
    TmpDir d;
    const auto out = d.p / "sub" / "x.conf";
    auto r = topo::write_file_atomic(out.string(), "x");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().to_string().find(out.string()), std::string::npos) << r.error().to_string();
    if (::geteuid() != 0) {
        const auto ro = d.p / "ro";
        std::filesystem::create_directory(ro);
        { std::ofstream(ro / "x.conf") << "old\n"; }
        ::chmod(ro.c_str(), 0555);
        EXPECT_FALSE(topo::write_file_atomic((ro / "x.conf").string(), "new\n"));
        EXPECT_EQ(slurp(ro / "x.conf"), "old\n");
        ::chmod(ro.c_str(), 0755);
    }
}

}  // namespace
